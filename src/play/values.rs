//! The option values, each one validated type with one grammar, one range and one error
//! text. The command line (clap's `value_parser = T::from_str`) and the protocol commands
//! (GTP, NBoard) read them through the same [`FromStr`], so one value gets one answer
//! everywhere: `--hash 0` and `oxello-hash 0` are both refused with the same words.
//!
//! The search depth or level is not here: it has its own type with the levels.

use crate::engine::tt::HASH_MIB;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The longest time any clock or move time may hold: a day, in seconds.
pub const MAX_SECONDS: f64 = 86_400.0;
/// The widest book randomness, in discs.
pub const MAX_DISCS: f64 = 64.0;
/// The most threads a search takes.
pub const MAX_THREADS: u64 = 256;
/// The most lines an analysis or a hint gives.
pub const MAX_LINES: u64 = 32;

/// Why a value is refused: what was expected, and the text given (escaped for echoing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    expected: String,
    given: String,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}, got '{}'", self.expected, self.given)
    }
}

impl std::error::Error for ValueError {}

fn refuse<T>(expected: impl Into<String>, text: &str) -> Result<T, ValueError> {
    Err(ValueError {
        expected: expected.into(),
        given: crate::base::io::quote(text, 40),
    })
}

/// Decimal digits as an integer in `range`, else `expected`.
fn integer(text: &str, range: RangeInclusive<u64>, expected: &str) -> Result<u64, ValueError> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(n) if digits && range.contains(&n) => Ok(n),
        _ => refuse(expected, text),
    }
}

/// `digits[.[digits]]` (no sign, no exponent) as a number in `0..=max`, else `expected`.
fn decimal(text: &str, max: f64, expected: &str) -> Result<f64, ValueError> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let ok = !whole.is_empty() && digits(whole) && digits(fraction);
    match text.parse::<f64>() {
        Ok(x) if ok && x.is_finite() && x <= max => Ok(x),
        _ => refuse(expected, text),
    }
}

/// A finite number (any notation Rust reads, such as `0.01` or `1e-3`) that `accept`s.
fn real(text: &str, accept: fn(f64) -> bool, expected: &str) -> Result<f64, ValueError> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && accept(x) => Ok(x),
        _ => refuse(expected, text),
    }
}

/// Defines a validated newtype over `$inner`, read by `$parse` and handed out by `get`.
macro_rules! value_type {
    ($(#[$doc:meta])* $name:ident($inner:ty), $parse:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
        pub struct $name($inner);

        impl $name {
            /// The value, known to be valid.
            pub fn get(self) -> $inner {
                self.0
            }
        }

        impl FromStr for $name {
            type Err = ValueError;
            fn from_str(text: &str) -> Result<Self, ValueError> {
                let parse: fn(&str) -> Result<$inner, ValueError> = $parse;
                parse(text).map($name)
            }
        }
    };
}

value_type!(
    /// A transposition table size in MiB, 1..=4096 (refused, never clamped, outside).
    HashMib(usize),
    |t| {
        let (low, high) = (*HASH_MIB.start() as u64, *HASH_MIB.end() as u64);
        let expected = format!("a size in MiB {low}..{high}");
        integer(t, low..=high, &expected).map(|n| n as usize)
    }
);

value_type!(
    /// Threads per search, 1..=256.
    Threads(usize),
    |t| integer(t, 1..=MAX_THREADS, "a thread count 1..256").map(|n| n as usize)
);

value_type!(
    /// Seconds on a clock or for a move: `digits[.digits]`, 0 to a day.
    Seconds(f64),
    |t| decimal(t, MAX_SECONDS, "seconds from 0 to 86400")
);

value_type!(
    /// Book randomness: how many discs below the best a book move may be, 0..=64.
    Discs(f64),
    |t| decimal(t, MAX_DISCS, "discs from 0 to 64")
);

value_type!(
    /// How many best lines an analysis or a hint gives, 1..=32.
    Lines(usize),
    |t| integer(t, 1..=MAX_LINES, "a line count 1..32").map(|n| n as usize)
);

value_type!(
    /// A count of things to do (games, workers, epochs), at least 1.
    Count(u64),
    |t| integer(t, 1..=u64::MAX, "a count of 1 or more")
);

value_type!(
    /// A step size (a learning rate): finite and above 0.
    Rate(f64),
    |t| real(t, |x| x > 0.0, "a finite number above 0")
);

value_type!(
    /// A penalty or a weight (L2, sample weights): finite and 0 or more.
    Penalty(f64),
    |t| real(t, |x| x >= 0.0, "a finite number of 0 or more")
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_in_range_are_read_and_the_rest_refused() {
        assert_eq!("64".parse::<HashMib>().map(HashMib::get), Ok(64));
        for bad in ["0", "4097", "-1", "", "1e3", "+5", "\u{ff11}"] {
            assert!(bad.parse::<HashMib>().is_err(), "{bad}");
        }
        assert_eq!("2.5".parse::<Seconds>().map(Seconds::get), Ok(2.5));
        for bad in ["nan", "inf", "-1", "1e3", "86401", ".5"] {
            assert!(bad.parse::<Seconds>().is_err(), "{bad}");
        }
        assert_eq!("1e-3".parse::<Rate>().map(Rate::get), Ok(0.001));
        for bad in ["nan", "inf", "0", "-1"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
        assert_eq!("0".parse::<Penalty>().map(Penalty::get), Ok(0.0));
        assert!("-1".parse::<Penalty>().is_err());
        assert!("0".parse::<Count>().is_err());
        assert!("33".parse::<Lines>().is_err());
        assert!("257".parse::<Threads>().is_err());
        assert!("64.5".parse::<Discs>().is_err());
    }

    #[test]
    fn an_error_quotes_the_text_escaped() {
        let e = "1\r\u{202e}".parse::<Threads>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected a thread count 1..256, got '1\\r\\u{202e}'"
        );
    }
}
