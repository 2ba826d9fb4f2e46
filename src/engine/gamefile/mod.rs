//! Game files, read and written in one place: transcripts (`f5d6c3...`, any case, passes
//! implied), GGF records (one or many), WTHOR `.wtb` databases and the PGN the WTHOR
//! conversions write. [`read`] tells the format from the content. Every game is replayed
//! against the rules, and every failure is a typed [`ReadError`] that names the game (and the
//! move) that fails; nothing here panics or does any I/O.

mod text;
mod wtb;

pub use text::read_line;
use text::{read_pgn, read_transcripts};
use wtb::read_wtb;
pub use wtb::{name_wtb_records, write_wtb, wthor_names, WtbError};

use crate::engine::board::{Color, Position};
use crate::engine::game::{Game, Move};
use crate::engine::ggf::{apply, escape, parse_ggf_record};
use crate::engine::notation::{format_position, square_name};
use std::fmt;

/// The formats a game file can be in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Format {
    Transcript,
    Ggf,
    Wtb,
    Pgn,
}

/// One game and what its file said about it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// The start position and the moves, passes as the file gave them or implied.
    pub game: Game,
    /// 1-based place in its file.
    pub index: usize,
    pub black: Option<String>,
    pub white: Option<String>,
    pub event: Option<String>,
    pub year: Option<u16>,
    /// Black's discs as recorded (WOF rule), checked against the board when the game is over.
    pub black_score: Option<u8>,
    /// WTHOR's theoretical score: Black's discs with perfect play from the position at
    /// `depth` empties, and that depth.
    pub theoretical: Option<(u8, u8)>,
    /// WTHOR's tournament, black player and white player indices.
    pub wtb_ids: Option<[u16; 3]>,
}

impl Record {
    /// A record of `game` alone, the `index`-th of its file.
    pub fn of(game: Game, index: usize) -> Record {
        Record {
            game,
            index,
            ..Record::default()
        }
    }
}

/// What is wrong with a game file, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The 1-based game of the file (0: the file as a whole).
    pub game: usize,
    /// The 1-based line of a text file, when known.
    pub line: Option<usize>,
    pub kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad square, bad property, stray text, no game.
    Syntax(String),
    /// Move `ply` (1-based, passes not counted) cannot be played.
    Illegal {
        ply: usize,
        mv: String,
        why: String,
    },
    /// Move `ply` comes after the end of the game.
    Over {
        ply: usize,
        mv: String,
    },
    /// The recorded score is not the final board's (Black's discs, WOF rule).
    ScoreMismatch {
        recorded: u8,
        board: u8,
    },
    Wtb(WtbError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game > 0 {
            write!(f, "game {}", self.game)?;
        }
        if let Some(line) = self.line {
            let sep = if self.game > 0 { ", " } else { "" };
            write!(f, "{sep}line {line}")?;
        }
        if self.game > 0 || self.line.is_some() {
            f.write_str(": ")?;
        }
        match &self.kind {
            ErrorKind::Syntax(s) => f.write_str(s),
            ErrorKind::Illegal { ply, mv, why } => write!(f, "move {ply} ({mv}): {why}"),
            ErrorKind::Over { ply, mv } => {
                write!(f, "move {ply} ({mv}): the game is already over")
            }
            ErrorKind::ScoreMismatch { recorded, board } => write!(
                f,
                "the record says black has {recorded} discs, the final board {board}"
            ),
            ErrorKind::Wtb(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    fn new(game: usize, kind: ErrorKind) -> ReadError {
        ReadError {
            game,
            line: None,
            kind,
        }
    }

    fn syntax(game: usize, what: impl Into<String>) -> ReadError {
        ReadError::new(game, ErrorKind::Syntax(what.into()))
    }
}

/// The format of a file's bytes: `.wtb` when they are not text or start with a WTHOR
/// header's century (19-21, control characters no text starts with); PGN when the first
/// non-blank line starts with `[`; GGF when they hold `(;`; else transcripts.
fn detect(bytes: &[u8]) -> Format {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Format::Wtb;
    };
    if bytes.first().is_some_and(|b| (19..=21).contains(b)) {
        Format::Wtb
    } else if text.trim_start().starts_with('[') {
        Format::Pgn
    } else if text.contains("(;") {
        Format::Ggf
    } else {
        Format::Transcript
    }
}

/// Every game of a file, whatever its format.
pub fn read(bytes: &[u8]) -> Result<Vec<Record>, ReadError> {
    let text = || String::from_utf8_lossy(bytes);
    match detect(bytes) {
        Format::Wtb => read_wtb(bytes),
        Format::Pgn => read_pgn(&text()),
        Format::Ggf => read_ggf(&text()),
        Format::Transcript => read_transcripts(&text()),
    }
}

/// [`read`], and a `.wtb` file's year checked against the one its name gives (`WTH_YYYY`).
pub fn read_named(bytes: &[u8], name: &str) -> Result<Vec<Record>, ReadError> {
    let records = read(bytes)?;
    // Only a `.wtb` record has WTHOR ids (and a year of its own).
    let wtb_year = records
        .first()
        .filter(|r| r.wtb_ids.is_some())
        .and_then(|r| r.year);
    let (Some(named), Some(year)) = (year_in_name(name), wtb_year) else {
        return Ok(records);
    };
    if named != year {
        return Err(ReadError::new(
            0,
            ErrorKind::Wtb(WtbError::NameYear {
                named,
                header: year,
            }),
        ));
    }
    Ok(records)
}

/// One game given inline, as a command's argument: a GGF record or a transcript.
pub fn read_one(text: &str) -> Result<Record, ReadError> {
    let read = if text.contains("(;") {
        read_ggf(text)
    } else {
        read_transcripts(text)
    };
    // One game given alone: its errors need no game or line number.
    let mut records = read.map_err(|e| ReadError {
        game: 0,
        line: None,
        ..e
    })?;
    match records.len() {
        1 => Ok(records.remove(0)),
        0 => Err(ReadError::syntax(0, "no game")),
        n => Err(ReadError::syntax(
            0,
            format!("{n} games where one was expected"),
        )),
    }
}

/// The year a WTHOR file's name gives, `WTH_YYYY.wtb` (any case).
pub fn year_in_name(name: &str) -> Option<u16> {
    let upper = name.to_ascii_uppercase();
    let at = upper.rfind("WTH_")? + 4;
    upper.get(at..at + 4)?.parse().ok()
}

/// Replays `moves` from `start`: squares by whoever can play them (passes implied), passes
/// only when forced. Errors name the 1-based move, passes not counted.
fn replay(start: Position, moves: &[Move], game_no: usize) -> Result<Game, ReadError> {
    let mut game = Game::new(start);
    let mut played = 0;
    for &mv in moves {
        let (ply, name) = (played + 1, move_name(mv));
        let Some(color) = game.next_to_play() else {
            return Err(ReadError::new(game_no, ErrorKind::Over { ply, mv: name }));
        };
        // A square is played by whoever can play it; a pass is the side to move's.
        let who = if mv == Move::Pass {
            game.position().side
        } else {
            color
        };
        apply(&mut game, who, mv)
            .map_err(|why| ReadError::new(game_no, ErrorKind::Illegal { ply, mv: name, why }))?;
        played += usize::from(mv != Move::Pass);
    }
    Ok(game)
}

/// A move as errors name it: its square, or `pass`.
fn move_name(mv: Move) -> String {
    match mv {
        Move::Play(sq) => square_name(sq),
        Move::Pass => "pass".to_string(),
    }
}

/// Black's discs at the end of `game` under the WOF rule (empties to the winner).
pub fn black_discs(game: &Game) -> u8 {
    ((64 + game.position().black_final_score()) / 2) as u8
}

/// Checks a recorded score against the board once the game is over.
fn check_score(record: &Record) -> Result<(), ReadError> {
    let (Some(recorded), true) = (record.black_score, record.game.is_over()) else {
        return Ok(());
    };
    let board = black_discs(&record.game);
    if recorded == board {
        Ok(())
    } else {
        let kind = ErrorKind::ScoreMismatch { recorded, board };
        Err(ReadError::new(record.index, kind))
    }
}

/// Every `(;...;)` record of a GGF text, in order.
pub fn read_ggf(text: &str) -> Result<Vec<Record>, ReadError> {
    let mut records = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let index = records.len() + 1;
        let len = record_end(&rest[start..])
            .ok_or_else(|| ReadError::syntax(index, "a GGF record without its ';)' end"))?;
        let (game, props) =
            parse_ggf_record(&rest[start..start + len]).map_err(|e| ReadError::syntax(index, e))?;
        records.push(ggf_record(game, index, &props));
        rest = &rest[start + len..];
    }
    if records.is_empty() {
        return Err(ReadError::syntax(0, "no GGF record '(;...;)'"));
    }
    Ok(records)
}

/// The length of the record that `text` starts with, up to its `;)` outside any property.
fn record_end(text: &str) -> Option<usize> {
    let (mut inside, mut escaped) = (false, false);
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if inside => escaped = true,
            '[' => inside = true,
            ']' => inside = false,
            ')' if !inside && text[..at].ends_with(';') => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// A record from a GGF game and its other properties (`PB`, `PW`, `PC`, `RE`).
fn ggf_record(game: Game, index: usize, props: &[(String, String)]) -> Record {
    let prop = |name: &str| {
        props
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    Record {
        black: prop("PB"),
        white: prop("PW"),
        event: prop("PC"),
        ..Record::of(game, index)
    }
}

/// A game as a transcript: lower case, passes left out.
pub fn write_transcript(game: &Game) -> String {
    game.moves().into_iter().map(square_name).collect()
}

/// The text of a GGF move: the square in upper case or `PA`.
pub fn ggf_move(mv: Move) -> String {
    match mv {
        Move::Play(sq) => square_name(sq).to_uppercase(),
        Move::Pass => "PA".to_string(),
    }
}

/// A GGF board value: `8`, the 64 squares (`*` black, `O` white, `-` empty) and the side.
pub fn ggf_board(pos: &Position) -> String {
    let text = format_position(pos);
    let (cells, side) = text.split_at(64);
    let cells = cells.replace('X', "*");
    let side = if side.trim() == "X" { "*" } else { "O" };
    format!("8 {cells} {side}")
}

/// A game as one GGF record: its players, event, start board, every move (passes as `PA`)
/// and, when it is over, `RE` as Black's disc differential.
pub fn write_ggf(record: &Record) -> String {
    let mut out = String::from("(;GM[Othello]");
    for (name, value) in [
        ("PC", &record.event),
        ("PB", &record.black),
        ("PW", &record.white),
    ] {
        if let Some(v) = value {
            out.push_str(&format!("{name}[{}]", escape(v)));
        }
    }
    if record.game.is_over() {
        let diff = record.game.position().black_final_score();
        out.push_str(&format!("RE[{diff:+}]"));
    }
    out.push_str(&format!("TY[8]BO[{}]", ggf_board(record.game.start())));
    for (color, mv) in record.game.record() {
        let tag = if color == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}]", ggf_move(mv)));
    }
    out.push_str(";)");
    out
}
