//! Squares, move transcripts, 64-character board strings and Edax `.obf` lines.
//!
//! Every parser returns a [`ParseError`] that says what was wrong; none of them panics.

use crate::engine::board::{Color, Position};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// A `nom` parser for `tag` in any ASCII case. It compares bytes, so only ASCII letters fold
/// (never U+212A KELVIN SIGN to `k`, as a Unicode fold would) and the split after a match
/// always falls on a character boundary: `nom`'s `tag_no_case` panicked on `blac\u{212A}`.
pub fn ascii_tag_no_case(tag: &'static str) -> impl Fn(&str) -> nom::IResult<&str, &str> {
    move |input: &str| {
        let matched = input
            .as_bytes()
            .get(..tag.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(tag.as_bytes()));
        if matched && tag.is_ascii() {
            Ok((&input[tag.len()..], &input[..tag.len()]))
        } else {
            Err(nom::Err::Error(nom::error::Error::new(
                input,
                nom::error::ErrorKind::Tag,
            )))
        }
    }
}

fn error<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// Parses a square name `a1`..`h8`, either case, into its index.
pub fn parse_square(s: &str) -> Result<u32, ParseError> {
    match square_index(s) {
        Some(sq) => Ok(sq),
        None => error(format!("bad square '{}'", truncate(s))),
    }
}

/// The index of a square name `a1`..`h8`, either case; a `const fn` for tables built at
/// compile time.
pub const fn square_index(s: &str) -> Option<u32> {
    match s.as_bytes() {
        [c, r] => {
            let col = c.to_ascii_lowercase().wrapping_sub(b'a');
            let row = r.wrapping_sub(b'1');
            if col < 8 && row < 8 {
                Some(row as u32 * 8 + col as u32)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The lower-case name of a square, `a1`..`h8`.
pub fn square_name(sq: u32) -> String {
    let col = (b'a' + (sq % 8) as u8) as char;
    let row = (b'1' + (sq / 8) as u8) as char;
    format!("{col}{row}")
}

/// Parses a transcript such as `f5d6c3`: two characters per move, passes omitted.
/// Moves are only checked for form here; `Game::replay` checks legality.
pub fn parse_transcript(s: &str) -> Result<Vec<u32>, ParseError> {
    let s = s.trim();
    if !s.is_ascii() {
        return error("transcript has non-ASCII characters");
    }
    if !s.len().is_multiple_of(2) {
        return error(format!(
            "transcript '{}' has an odd number of characters",
            truncate(s)
        ));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| parse_square(&s[i..i + 2]))
        .collect()
}

/// Parses the side-to-move token of a board string.
pub fn parse_side(s: &str) -> Result<Color, ParseError> {
    match s.to_ascii_lowercase().as_str() {
        "x" | "b" | "*" | "black" => Ok(Color::Black),
        "o" | "w" | "white" => Ok(Color::White),
        _ => error(format!("bad side to move '{}'", truncate(s))),
    }
}

/// Parses 64 board characters, a1..h8: `X`/`x`/`*` black, `O`/`o` white, `-`/`.` empty.
pub fn parse_board_chars(s: &str, side: Color) -> Result<Position, ParseError> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 64 {
        return error(format!(
            "a board has 64 squares, '{}' has {}",
            truncate(s),
            chars.len()
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in chars.iter().enumerate() {
        match c {
            'X' | 'x' | '*' => black |= 1 << i,
            'O' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            _ => {
                return error(format!(
                    "bad board character '{}' at square {}",
                    truncate(&c.to_string()),
                    square_name(i as u32)
                ))
            }
        }
    }
    Ok(Position::from_colors(black, white, side))
}

fn truncate(s: &str) -> String {
    crate::base::io::quote(s, 80)
}

/// Parses `<64 board characters> <side>` (the side may also be glued to the board).
pub fn parse_position(s: &str) -> Result<Position, ParseError> {
    let s = s.trim();
    let mut words = s.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(board), Some(side), None) => parse_board_chars(board, parse_side(side)?),
        (Some(board), None, None) if board.chars().count() == 65 => {
            let split = board.char_indices().nth(64).map_or(board.len(), |(i, _)| i);
            parse_board_chars(&board[..split], parse_side(&board[split..])?)
        }
        _ => error(format!(
            "expected '<64 squares> <side>', got '{}'",
            truncate(s)
        )),
    }
}

/// Writes a position as `<64 characters> <X|O>`.
pub fn format_position(pos: &Position) -> String {
    let mut s: String = (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if pos.black() & bit != 0 {
                'X'
            } else if pos.white() & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push(' ');
    s.push(match pos.side {
        Color::Black => 'X',
        Color::White => 'O',
    });
    s
}

/// One line of an `.obf` file: a position and the scored moves given with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfEntry {
    pub position: Position,
    /// `(move, exact final disc differential for the side to move)`, best first in FFO files;
    /// a pass is written `PS` and stored as 64.
    pub scores: Vec<(u32, i32)>,
    pub comment: String,
}

/// The square index used for a pass in `.obf` annotations.
pub const PASS: u32 = 64;

impl ObfEntry {
    /// The position's value: the best of the annotated scores.
    pub fn value(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// The moves that reach the position's value.
    pub fn best_moves(&self) -> Vec<u32> {
        let best = self.value();
        self.scores
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// Parses an `.obf` line; `Ok(None)` for a blank or comment-only line.
pub fn parse_obf_line(line: &str) -> Result<Option<ObfEntry>, ParseError> {
    let (body, comment) = match line.find('%') {
        Some(i) => (&line[..i], line[i + 1..].trim().to_string()),
        None => (line, String::new()),
    };
    let mut fields = body.split(';').map(str::trim).filter(|f| !f.is_empty());
    let Some(first) = fields.next() else {
        return Ok(None);
    };
    let position = parse_position(first)?;
    let scores = fields.map(parse_scored_move).collect::<Result<_, _>>()?;
    Ok(Some(ObfEntry {
        position,
        scores,
        comment,
    }))
}

fn parse_scored_move(field: &str) -> Result<(u32, i32), ParseError> {
    let Some((mv, score)) = field.split_once(':') else {
        return error(format!("expected 'Move:score', got '{}'", truncate(field)));
    };
    let mv = mv.trim();
    let sq = if mv.eq_ignore_ascii_case("ps") || mv.eq_ignore_ascii_case("pa") {
        PASS
    } else {
        parse_square(mv)?
    };
    let score: i32 = score
        .trim()
        .parse()
        .map_err(|_| ParseError(format!("bad score '{}'", truncate(score))))?;
    if !(-64..=64).contains(&score) {
        return error(format!("score {score} is outside -64..64"));
    }
    Ok((sq, score))
}

/// Parses a whole `.obf` text, skipping blank and comment lines.
pub fn parse_obf(text: &str) -> Result<Vec<ObfEntry>, ParseError> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match parse_obf_line(line) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(e) => return error(format!("line {}: {e}", n + 1)),
        }
    }
    Ok(entries)
}
