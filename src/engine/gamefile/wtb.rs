//! WTHOR `.wtb` databases: a 16-byte header (creation date, game count, year, board size,
//! game type, depth of the theoretical score), then one 68-byte record per game (tournament,
//! black and white player indices, Black's discs, Black's theoretical discs, 60 move bytes
//! `10 * row + column`, 0 after the last move). Passes are implied.

use super::{black_discs, check_score, replay, ErrorKind, ReadError, Record};
use crate::engine::board::Position;
use crate::engine::game::Move;
use std::fmt;

/// Bytes of the header and of one game.
const HEADER: usize = 16;
pub const WTB_RECORD: usize = 68;

/// The depth of the theoretical score that WTHOR writes.
const THEORETICAL_DEPTH: u8 = 24;

/// What makes bytes not a `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WtbError {
    /// Shorter than the header.
    Short(usize),
    /// The header's game count does not match the file's length.
    Truncated {
        header: u32,
        records: usize,
        trailing: usize,
    },
    BoardSize(u8),
    Type(u8),
    Century(u8),
    Year(u16),
    /// The header's year is not the one the file's name gives.
    NameYear {
        named: u16,
        header: u16,
    },
    /// A move byte that is no square.
    MoveByte {
        ply: usize,
        byte: u8,
    },
    /// A move after the 0 that ended the game.
    GapAfterEnd {
        ply: usize,
    },
}

impl fmt::Display for WtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WtbError::Short(n) => write!(f, "not a WTHOR file: {n} bytes, shorter than its 16-byte header"),
            WtbError::Truncated { header, records, trailing } => write!(
                f,
                "truncated or not a WTHOR file: the header says {header} games, the file holds {records} and {trailing} more bytes"
            ),
            WtbError::BoardSize(s) => write!(f, "not a WTHOR game file: board size {s}, expected 8"),
            WtbError::Type(t) => write!(f, "not a WTHOR game file: game type {t}, expected 0"),
            WtbError::Century(c) => write!(f, "not a WTHOR file: century byte {c}, expected 19-21"),
            WtbError::Year(y) => write!(f, "not a WTHOR file: year {y}"),
            WtbError::NameYear { named, header } => {
                write!(f, "the file's name says {named}, its header {header}")
            }
            WtbError::MoveByte { ply, byte } => write!(f, "move {ply}: byte {byte} is no square"),
            WtbError::GapAfterEnd { ply } => write!(f, "move {ply} comes after the end of the moves"),
        }
    }
}

fn wtb_error(game: usize, e: WtbError) -> ReadError {
    ReadError::new(game, ErrorKind::Wtb(e))
}

/// The header's game count and year, checked against the file's length and its fields.
fn header(bytes: &[u8]) -> Result<(usize, u16), ReadError> {
    let err = |e| wtb_error(0, e);
    let head = bytes
        .get(..HEADER)
        .ok_or(err(WtbError::Short(bytes.len())))?;
    let count = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let year = u16::from_le_bytes([head[10], head[11]]);
    let body = bytes.len() - HEADER;
    let records = body / WTB_RECORD;
    if count as usize != records || !body.is_multiple_of(WTB_RECORD) {
        let trailing = body % WTB_RECORD;
        return Err(err(WtbError::Truncated {
            header: count,
            records,
            trailing,
        }));
    }
    if !(19..=21).contains(&head[0]) {
        return Err(err(WtbError::Century(head[0])));
    }
    if head[12] != 0 && head[12] != 8 {
        return Err(err(WtbError::BoardSize(head[12])));
    }
    if head[13] != 0 {
        return Err(err(WtbError::Type(head[13])));
    }
    if !(1977..=2100).contains(&year) {
        return Err(err(WtbError::Year(year)));
    }
    Ok((records, year))
}

/// Every game of a `.wtb` file, checked against its header, the rules and its recorded score.
pub fn read_wtb(bytes: &[u8]) -> Result<Vec<Record>, ReadError> {
    let (count, year) = header(bytes)?;
    let depth = bytes[14];
    (0..count)
        .map(|i| {
            let at = HEADER + i * WTB_RECORD;
            read_record(&bytes[at..at + WTB_RECORD], i + 1, year, depth)
        })
        .collect()
}

/// One 68-byte record, the `index`-th.
fn read_record(rec: &[u8], index: usize, year: u16, depth: u8) -> Result<Record, ReadError> {
    let word = |at: usize| u16::from_le_bytes([rec[at], rec[at + 1]]);
    let moves = record_moves(&rec[8..]).map_err(|e| wtb_error(index, e))?;
    let game = replay(Position::start(), &moves, index)?;
    let record = Record {
        year: Some(year),
        black_score: Some(rec[6]),
        theoretical: Some((rec[7], depth)),
        wtb_ids: Some([word(0), word(2), word(4)]),
        ..Record::of(game, index)
    };
    check_score(&record)?;
    Ok(record)
}

/// The squares of a record's 60 move bytes, up to the first 0.
fn record_moves(bytes: &[u8]) -> Result<Vec<Move>, WtbError> {
    let len = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    if let Some(gap) = bytes[len..].iter().position(|&b| b != 0) {
        return Err(WtbError::GapAfterEnd { ply: len + gap + 1 });
    }
    bytes[..len]
        .iter()
        .enumerate()
        .map(|(i, &byte)| {
            let (row, col) = (byte / 10, byte % 10);
            if (1..=8).contains(&row) && (1..=8).contains(&col) {
                Ok(Move::Play(u32::from(row - 1) * 8 + u32::from(col - 1)))
            } else {
                Err(WtbError::MoveByte { ply: i + 1, byte })
            }
        })
        .collect()
}

/// A `.wtb` file of `records` (games from the start position), the games of `year`, created on
/// `created` (century, year, month, day). Black's discs are the final board's (WOF rule) for
/// a finished game, else as recorded or counted; a record without a theoretical score gets
/// its actual one, as WTHOR does for games it has not solved.
pub fn write_wtb(records: &[Record], year: u16, created: [u8; 4]) -> Result<Vec<u8>, String> {
    let count = u32::try_from(records.len()).map_err(|_| "too many games for a .wtb file")?;
    let mut out = Vec::with_capacity(HEADER + WTB_RECORD * records.len());
    out.extend_from_slice(&created);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&year.to_le_bytes());
    out.extend_from_slice(&[8, 0, THEORETICAL_DEPTH, 0]);
    for record in records {
        write_record(&mut out, record)?;
    }
    Ok(out)
}

/// Appends one game's 68 bytes.
fn write_record(out: &mut Vec<u8>, record: &Record) -> Result<(), String> {
    let game = &record.game;
    if *game.start() != Position::start() {
        return Err(format!(
            "game {}: a .wtb game starts from the start position",
            record.index
        ));
    }
    let ids = record.wtb_ids.unwrap_or([0; 3]);
    for id in ids {
        out.extend_from_slice(&id.to_le_bytes());
    }
    let discs = if game.is_over() {
        black_discs(game)
    } else {
        let counted = game.position().black().count_ones() as u8;
        record.black_score.unwrap_or(counted)
    };
    let theoretical = record.theoretical.map_or(discs, |(t, _)| t);
    out.extend_from_slice(&[discs, theoretical]);
    let mut moves: Vec<u8> = game
        .moves()
        .into_iter()
        .map(|sq| (sq / 8 + 1) as u8 * 10 + (sq % 8 + 1) as u8)
        .collect();
    moves.resize(60, 0);
    out.extend_from_slice(&moves);
    Ok(())
}

/// The names of a WTHOR `.JOU` (players, 20-byte records) or `.TRN` (tournaments, 26-byte
/// records) file: Latin-1, NUL-padded, after a 16-byte header. `None` for other bytes.
pub fn wthor_names(bytes: &[u8], record: usize) -> Option<Vec<String>> {
    let body = bytes.get(HEADER..)?;
    if record == 0 || !body.len().is_multiple_of(record) {
        return None;
    }
    let name = |r: &[u8]| {
        let end = r.iter().position(|&b| b == 0).unwrap_or(r.len());
        r[..end].iter().map(|&b| char::from(b)).collect::<String>()
    };
    Some(body.chunks(record).map(name).collect())
}

/// Fills the players' and tournaments' names of `.wtb` records from the names of WTHOR's
/// `.JOU` and `.TRN` files (see [`wthor_names`]).
pub fn name_wtb_records(records: &mut [Record], players: &[String], events: &[String]) {
    for record in records {
        let Some([event, black, white]) = record.wtb_ids else {
            continue;
        };
        let name = |names: &[String], i: u16| names.get(usize::from(i)).cloned();
        record.event = name(events, event);
        record.black = name(players, black);
        record.white = name(players, white);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_nul_padded_latin1_records_after_the_header() {
        let mut jou = vec![0u8; HEADER];
        for name in [&b"Ogura Ryutaro"[..], b"L\xe9vy"] {
            let mut record = name.to_vec();
            record.resize(20, 0);
            jou.extend(record);
        }
        let names = wthor_names(&jou, 20).unwrap();
        assert_eq!(names, ["Ogura Ryutaro", "Lévy"]);
        assert_eq!(wthor_names(&jou[..30], 20), None);
        let mut records = vec![Record {
            wtb_ids: Some([0, 1, 0]),
            ..Record::default()
        }];
        name_wtb_records(&mut records, &names, &["Open".to_string()]);
        let r = &records[0];
        assert_eq!(
            (r.event.as_deref(), r.black.as_deref(), r.white.as_deref()),
            (Some("Open"), Some("Lévy"), Some("Ogura Ryutaro"))
        );
    }
}
