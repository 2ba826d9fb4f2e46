//! The training record format, in one place.
//!
//! A record file is text, one position per line:
//!
//! ```text
//! # oxello training records v1
//! ---------------------------OX------XXX-------------------------- O -4 played
//! --XXXXX--OOOXX-OOOOOXXOOOOXXOXOOOOOXXXOOOOXXXXOO--XXXXO---XXXX-- X +8 exact
//! ```
//!
//! - the 64 squares a1, b1, ..., h8 (`X` black, `O` white, `-` empty) and the side to move, as
//!   in an `.obf` line;
//! - the score: the final disc differential for the side to move (empties to the winner), even,
//!   from -64 to +64;
//! - how the score was found: `exact` is perfect play from this position, the solver's value;
//!   `played` is the result of the game this position came from, played on to a position the
//!   solver then finished exactly.
//!
//! Lines starting with `#` are comments; the first line of a file written by Oxello is the
//! header above. Each position appears once under the 8 symmetries of the board.

use oxello::board::Position;
use oxello::notation::{format_position, parse_position, ParseError};
use std::fmt;

/// The first line of every record file.
pub const HEADER: &str = "# oxello training records v1";

/// How a record's score was found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Perfect play from the position.
    Exact,
    /// The game's result, with an exact finish.
    Played,
}

/// A position and its score for the side to move, in discs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    pub score: i32,
    pub label: Label,
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.label {
            Label::Exact => "exact",
            Label::Played => "played",
        };
        write!(
            f,
            "{} {:+} {label}",
            format_position(&self.position),
            self.score
        )
    }
}

/// Parses one line: `Ok(None)` for a comment or a blank line.
pub fn parse_record(line: &str) -> Result<Option<Record>, ParseError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let [board, side, score, label] = words[..] else {
        return Err(ParseError(format!(
            "expected '<64 squares> <side> <score> <exact|played>', got {} fields",
            words.len()
        )));
    };
    let position = parse_position(&format!("{board} {side}"))?;
    let score: i32 = score
        .parse()
        .ok()
        .filter(|s: &i32| (-64..=64).contains(s))
        .ok_or_else(|| ParseError(format!("score '{score}' is not a number from -64 to 64")))?;
    let label = match label {
        "exact" => Label::Exact,
        "played" => Label::Played,
        _ => {
            return Err(ParseError(format!(
                "label '{label}' is neither 'exact' nor 'played'"
            )))
        }
    };
    Ok(Some(Record {
        position,
        score,
        label,
    }))
}

/// Every record of a file's text, or the first bad line (numbered from 1) and what is wrong.
pub fn parse_records(text: &str) -> Result<Vec<Record>, ParseError> {
    text.lines()
        .enumerate()
        .filter_map(|(n, line)| {
            parse_record(line)
                .map_err(|e| ParseError(format!("line {}: {e}", n + 1)))
                .transpose()
        })
        .collect()
}
