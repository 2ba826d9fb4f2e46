//! The processor levels of x86-64 (v2, v3, v4): which one this binary was built for, which
//! one the processor at hand runs, and the check the binary makes at start-up, before any
//! code that needs the newer instructions, so that a binary built for a newer processor
//! says which build to use instead of dying on an illegal instruction.

use std::fmt;

/// An x86-64 microarchitecture level: the features it adds over the one before.
pub struct Level {
    pub name: &'static str,
    pub features: &'static [&'static str],
}

/// The levels from the oldest; a level's processors have the features of every level before.
pub const LEVELS: [Level; 3] = [
    Level {
        name: "x86-64-v2",
        features: &["popcnt", "sse4.2", "ssse3", "sse4.1"],
    },
    Level {
        name: "x86-64-v3",
        features: &["avx2", "bmi1", "bmi2", "lzcnt", "fma", "movbe"],
    },
    Level {
        name: "x86-64-v4",
        features: &["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"],
    },
];

/// Why this binary cannot run here.
#[derive(Debug, PartialEq)]
pub struct Unsupported {
    /// The features this binary was built with and the processor lacks.
    pub missing: Vec<&'static str>,
    /// The newest level the processor runs, if any.
    pub usable: Option<&'static str>,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "this processor lacks {}, ", self.missing.join(", "))?;
        write!(f, "which this build of oxello uses; ")?;
        match self.usable {
            Some(level) => write!(
                f,
                "use the {level} build (scripts/release.sh makes it), or build for this machine: \
                 RUSTFLAGS=\"-C target-cpu=native\" cargo build --release"
            ),
            None => write!(
                f,
                "build for this machine: RUSTFLAGS=\"-C target-cpu=native\" cargo build --release"
            ),
        }
    }
}

/// Checks a build's features (`built`) against a processor's (`has`).
pub fn check(built: impl Fn(&str) -> bool, has: impl Fn(&str) -> bool) -> Result<(), Unsupported> {
    let all = LEVELS
        .iter()
        .flat_map(|level| level.features.iter().copied());
    let missing: Vec<&'static str> = all.filter(|f| built(f) && !has(f)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let usable = LEVELS
        .iter()
        .take_while(|level| level.features.iter().all(|f| has(f)))
        .last()
        .map(|level| level.name);
    Err(Unsupported { missing, usable })
}

/// Checks this binary against this processor.
pub fn check_this_processor() -> Result<(), Unsupported> {
    check(built_with, has)
}

/// Whether this binary was compiled to use `feature` anywhere.
fn built_with(feature: &str) -> bool {
    macro_rules! built {
        ($($f:tt),*) => { match feature { $($f => cfg!(target_feature = $f),)* _ => false } };
    }
    built!(
        "popcnt", "sse4.2", "ssse3", "sse4.1", "avx2", "bmi1", "bmi2", "lzcnt", "fma", "movbe",
        "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"
    )
}

/// Whether this processor has `feature`.
#[cfg(target_arch = "x86_64")]
fn has(feature: &str) -> bool {
    macro_rules! has {
        ($($f:tt),*) => {
            match feature { $($f => std::arch::is_x86_feature_detected!($f),)* _ => false }
        };
    }
    has!(
        "popcnt", "sse4.2", "ssse3", "sse4.1", "avx2", "bmi1", "bmi2", "lzcnt", "fma", "movbe",
        "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"
    )
}

/// Other architectures have no x86-64 levels to check.
#[cfg(not(target_arch = "x86_64"))]
fn has(_: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set<'a>(features: &'a [&'a str]) -> impl Fn(&str) -> bool + 'a {
        move |f| features.contains(&f)
    }

    const V2: [&str; 4] = ["popcnt", "sse4.2", "ssse3", "sse4.1"];

    #[test]
    fn a_v3_build_on_a_v2_processor_names_what_is_missing_and_the_v2_build() {
        let v3: Vec<&str> = V2.iter().chain(LEVELS[1].features).copied().collect();
        let err = check(set(&v3), set(&V2)).unwrap_err();
        assert_eq!(err.missing, LEVELS[1].features.to_vec());
        assert_eq!(err.usable, Some("x86-64-v2"));
        assert!(err.to_string().contains("use the x86-64-v2 build"));
    }

    #[test]
    fn a_build_runs_on_a_processor_with_every_feature_it_uses() {
        let v3: Vec<&str> = V2.iter().chain(LEVELS[1].features).copied().collect();
        assert_eq!(check(set(&V2), set(&v3)), Ok(()));
        assert_eq!(check(set(&v3), set(&v3)), Ok(()));
    }

    #[test]
    fn a_processor_below_v2_is_told_to_build_for_itself() {
        let err = check(set(&V2), set(&["popcnt"])).unwrap_err();
        assert_eq!(err.usable, None);
        assert!(err.to_string().contains("target-cpu=native"));
    }

    #[test]
    fn this_binary_runs_on_the_processor_that_runs_its_tests() {
        assert_eq!(check_this_processor(), Ok(()));
    }
}
