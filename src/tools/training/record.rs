//! The training record formats, in one place.
//!
//! A record is a position, its score for the side to move in discs, how that score was found,
//! and the index of the game it came from. Files come in two formats, told apart by their
//! first bytes; every reader takes both, and a file name ending in `.bin` is written in
//! binary, any other in text.
//!
//! # Text
//!
//! One position per line:
//!
//! ```text
//! # oxello training records v1
//! ---------------------------OX------XXX-------------------------- O -4 played
//! --XXXXX--OOOXX-OOOOOXXOOOOXXOXOOOOOXXXOOOOXXXXOO--XXXXO---XXXX-- X +8 exact
//! ```
//!
//! - the 64 squares a1, b1, ..., h8 (`X` black, `O` white, `-` empty) and the side to move, as
//!   in an `.obf` line;
//! - the score for the side to move, from -64 to +64: the final disc differential (empties to
//!   the winner, so even) for `exact` and `played`, a rounded evaluation for `searched`;
//! - how the score was found: `exact` is perfect play from this position, the solver's value;
//!   `played` is the result of the game this position came from, played on to a position the
//!   solver then finished exactly; `searched` is a shallow search's value, rounded to whole
//!   discs, whose leaves the evaluation scored (a backed-up label, see [`super::relabel`]).
//!
//! Lines starting with `#` are comments; the first line of a file written by Oxello is the
//! header above. Each position appears once under the 8 symmetries of the board. The text
//! does not hold the game index: a record read from text has game 0.
//!
//! # Binary
//!
//! A fixed header, then the records, 22 bytes each; integers are little-endian:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "OXDATA\r\n"
//!      8     4  format version (1)
//!     12     4  bytes per record (22)
//!     16     8  record count
//!     24     8  FNV-1a 64 checksum of the records
//!     32     -  records: player u64, opponent u64 (the side to move's discs, then the
//!               other's), score i8, flags u8 (bit 0: white to move, bit 1: played,
//!               bit 2: searched, the other bits 0, never bits 1 and 2 both), game u32
//! ```
//!
//! A binary file is written whole or not at all (a temporary file renamed over it). One that
//! is truncated, corrupt, of another version or not a record file is refused with a
//! [`RecordError`]. `oxello selfplay` and `oxello data merge` write binary files sorted by
//! [`Record::key`], one record per key (see [`super::merge`]).

use crate::base::datafile::{frame, write_atomically, Field, Frame, FrameError};
use crate::engine::board::{Board, Color, Position};
use crate::engine::notation::{format_position, parse_position, ParseError};
use crate::engine::symmetry::canonical;
use std::fmt;
use std::path::Path;

/// The first line of every text record file.
pub const HEADER: &str = "# oxello training records v1";
/// The first bytes of every binary record file.
pub const MAGIC: &[u8; 8] = b"OXDATA\r\n";
pub const VERSION: u32 = 1;
const HEADER_BYTES: usize = 32;
const RECORD_BYTES: usize = 22;
const WHITE_TO_MOVE: u8 = 1;
const PLAYED: u8 = 2;
const SEARCHED: u8 = 4;

/// How a record's score was found, in the order a merge prefers them (the least first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Label {
    /// Perfect play from the position.
    Exact,
    /// A shallow search's value by the evaluation.
    Searched,
    /// The game's result, with an exact finish.
    Played,
}

impl Label {
    const ALL: [Label; 3] = [Label::Exact, Label::Searched, Label::Played];

    /// The label's word in the text format.
    pub fn word(self) -> &'static str {
        match self {
            Label::Exact => "exact",
            Label::Searched => "searched",
            Label::Played => "played",
        }
    }

    /// The label's bits in a binary record's flags.
    fn flag(self) -> u8 {
        match self {
            Label::Exact => 0,
            Label::Searched => SEARCHED,
            Label::Played => PLAYED,
        }
    }
}

impl std::str::FromStr for Label {
    type Err = String;

    /// The label named by its word in the text format.
    fn from_str(word: &str) -> Result<Label, String> {
        Label::ALL
            .into_iter()
            .find(|l| l.word() == word)
            .ok_or_else(|| format!("label '{word}' is not 'exact', 'played' or 'searched'"))
    }
}

/// A position and its score for the side to move, in discs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    pub score: i32,
    pub label: Label,
    /// The index of the game the position came from (0 when unknown).
    pub game: u32,
}

impl Record {
    /// The position's identity under the 8 symmetries (colours as seen by the side to move).
    pub fn key(&self) -> (u64, u64) {
        key(&self.position)
    }
}

/// A position's identity under the 8 symmetries (colours as seen by the side to move).
pub fn key(pos: &Position) -> (u64, u64) {
    let c = canonical(&pos.board);
    (c.player, c.opponent)
}

/// Why a record file cannot be read.
#[derive(Debug)]
pub enum RecordError {
    /// Neither the binary magic nor text.
    Foreign,
    /// The binary header, or the records' length or checksum.
    Frame(FrameError),
    RecordSize(u32),
    /// A binary record that is not a position and score (numbered from 0).
    Record {
        index: usize,
        what: &'static str,
    },
    /// A bad text line.
    Text(ParseError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Foreign => {
                f.write_str("not a training record file (neither binary nor text)")
            }
            RecordError::Frame(e) => e.describe("binary record", f),
            RecordError::RecordSize(n) => {
                write!(f, "records of {n} bytes; this build reads {RECORD_BYTES}")
            }
            RecordError::Record { index, what } => write!(f, "record {index}: {what}"),
            RecordError::Text(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<FrameError> for RecordError {
    fn from(e: FrameError) -> RecordError {
        RecordError::Frame(e)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:+} {}",
            format_position(&self.position),
            self.score,
            self.label.word()
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
            "expected '<64 squares> <side> <score> <exact|played|searched>', got {} fields",
            words.len()
        )));
    };
    let position = parse_position(&format!("{board} {side}"))?;
    let score: i32 = score
        .parse()
        .ok()
        .filter(|s: &i32| (-64..=64).contains(s))
        .ok_or_else(|| ParseError(format!("score '{score}' is not a number from -64 to 64")))?;
    let label: Label = label.parse().map_err(ParseError)?;
    Ok(Some(Record {
        position,
        score,
        label,
        game: 0,
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

/// The text file of `records`: the header, then one line each.
pub fn to_text(records: &[Record]) -> String {
    let mut text = format!("{HEADER}\n");
    for record in records {
        text.push_str(&format!("{record}\n"));
    }
    text
}

/// The binary file of `records`.
pub fn to_binary(records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(records.len() * RECORD_BYTES);
    for r in records {
        encode(&mut body, r);
    }
    let fields = [
        Field::U32(RECORD_BYTES as u32),
        Field::U64(records.len() as u64),
    ];
    frame(MAGIC, VERSION, &fields, &body)
}

fn encode(out: &mut Vec<u8>, r: &Record) {
    let side = match r.position.side {
        Color::Black => 0,
        Color::White => WHITE_TO_MOVE,
    };
    out.extend_from_slice(&r.position.board.player.to_le_bytes());
    out.extend_from_slice(&r.position.board.opponent.to_le_bytes());
    out.push(r.score as i8 as u8);
    out.push(side | r.label.flag());
    out.extend_from_slice(&r.game.to_le_bytes());
}

/// The records of a file's bytes, binary or text. Of a text file still being written, only
/// the whole lines count.
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    // A binary file cut inside its magic is still a binary file.
    if bytes.starts_with(MAGIC) || (!bytes.is_empty() && MAGIC.starts_with(bytes)) {
        return from_binary(bytes);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| RecordError::Foreign)?;
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    parse_records(whole).map_err(RecordError::Text)
}

/// The records of a binary file, once its header, length and checksum are right.
fn from_binary(bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    checked_body(bytes)?
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(index, chunk)| decode(chunk).map_err(|what| RecordError::Record { index, what }))
        .collect()
}

/// The records' bytes of a binary file whose header holds.
fn checked_body(bytes: &[u8]) -> Result<&[u8], RecordError> {
    let frame = Frame::open(bytes, MAGIC, VERSION, HEADER_BYTES)?;
    let size = frame.u32_at(12);
    if size as usize != RECORD_BYTES {
        return Err(RecordError::RecordSize(size));
    }
    let expected = frame.u64_at(16).saturating_mul(RECORD_BYTES as u64);
    Ok(frame.payload(expected, frame.u64_at(24))?)
}

fn decode(chunk: &[u8]) -> Result<Record, &'static str> {
    let long = |at: usize| u64::from_le_bytes(chunk[at..at + 8].try_into().expect("8 bytes"));
    let board = Board::new(long(0), long(8));
    let score = i32::from(chunk[16] as i8);
    if board.player & board.opponent != 0 {
        return Err("a square holds two discs");
    }
    if !(-64..=64).contains(&score) {
        return Err("the score is not from -64 to 64");
    }
    let (side, label) = flags(chunk[17])?;
    Ok(Record {
        position: Position { board, side },
        score,
        label,
        game: u32::from_le_bytes(chunk[18..22].try_into().expect("4 bytes")),
    })
}

/// The side to move and the label of a record's flags byte.
fn flags(byte: u8) -> Result<(Color, Label), &'static str> {
    let label = Label::ALL
        .into_iter()
        .find(|l| l.flag() == byte & !WHITE_TO_MOVE)
        .ok_or("unknown flags")?;
    let side = match byte & WHITE_TO_MOVE {
        0 => Color::Black,
        _ => Color::White,
    };
    Ok((side, label))
}

/// Whether `path` is written in binary: its name ends in `.bin`.
pub fn is_binary_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "bin")
}

/// Writes `records` to `path`, whole or not at all, in the format its name asks for.
pub fn write_file(path: &Path, records: &[Record]) -> std::io::Result<()> {
    if is_binary_path(path) {
        write_atomically(path, &to_binary(records))
    } else {
        write_atomically(path, to_text(records).as_bytes())
    }
}

/// Reads a record file of either format; the errors name the file.
pub fn read_file(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::datafile::checksum;
    use crate::engine::game::Game;

    fn records() -> Vec<Record> {
        ["f5d6c3", "f5d6c3d3", "f5f6e6f4e3"]
            .iter()
            .zip([
                (-4, Label::Played, 7),
                (12, Label::Exact, 0),
                (64, Label::Searched, 1 << 31),
            ])
            .map(|(transcript, (score, label, game))| Record {
                position: *Game::from_transcript(transcript).unwrap().position(),
                score,
                label,
                game,
            })
            .collect()
    }

    fn err(bytes: &[u8]) -> RecordError {
        from_bytes(bytes).unwrap_err()
    }

    #[test]
    fn records_read_back_as_written_in_both_formats() {
        let records = records();
        let bytes = to_binary(&records);
        assert_eq!(bytes.len(), HEADER_BYTES + 3 * RECORD_BYTES);
        assert_eq!(from_bytes(&bytes).unwrap(), records);
        let text = from_bytes(to_text(&records).as_bytes()).unwrap();
        let without_games: Vec<Record> = records.iter().map(|r| Record { game: 0, ..*r }).collect();
        assert_eq!(text, without_games);
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_their_reason() {
        let bytes = to_binary(&records());
        let frame = |b: &[u8]| match err(b) {
            RecordError::Frame(e) => e,
            e => panic!("not a frame error: {e}"),
        };
        assert_eq!(frame(&bytes[..5]), FrameError::TooShort(5));
        assert!(matches!(frame(&bytes[..40]), FrameError::Length { .. }));
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 3] ^= 1;
        assert!(matches!(frame(&flipped), FrameError::Checksum { .. }));
        let mut future = bytes.clone();
        future[8] = 2;
        let version = frame(&future);
        assert!(matches!(version, FrameError::Version { found: 2, .. }));
        let mut wide = bytes.clone();
        wide[12] = 24;
        assert!(matches!(err(&wide), RecordError::RecordSize(24)));
        assert!(matches!(err(b"OXEVAL\r\n\xff"), RecordError::Foreign));
    }

    #[test]
    fn a_record_that_is_no_position_is_refused() {
        let mut record = records()[0];
        record.position.board.opponent |=
            record.position.board.player & record.position.board.player.wrapping_neg();
        let e = err(&to_binary(&[records()[1], record]));
        assert!(matches!(e, RecordError::Record { index: 1, .. }), "{e}");
        let mut body = to_binary(&records()[..1]);
        for flags in [PLAYED | SEARCHED, 8] {
            body[HEADER_BYTES + 17] = flags;
            let sum = checksum(&body[HEADER_BYTES..]);
            body[24..32].copy_from_slice(&sum.to_le_bytes());
            assert!(matches!(
                err(&body),
                RecordError::Record {
                    index: 0,
                    what: "unknown flags"
                }
            ));
        }
    }
}
