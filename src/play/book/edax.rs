//! Edax's opening book file (`book.dat`, Edax 4.x), read and written from the layout in
//! Edax's public source, so that a book moves between Edax and Oxello both ways.
//!
//! ```text
//! offset  size  field (little-endian)
//!      0     4  "EDAX" (0x45444158)
//!      4     4  "BOOK" (0x424f4f4b)
//!      8     1  version (4)
//!      9     1  release (6 for Edax 4.6)
//!     10     8  date: year i16, month, day, hour, minute, second, one byte of padding
//!     18    20  options i32 x5: level, empties, midgame error, endcut error, verbosity
//!     38     4  position count (i32)
//!     42     -  positions, to the end of the file: player u64, opponent u64 (the smaller of
//!               the 8 images, as Oxello's keys), wins, draws, losses, lines u32, value,
//!               lower, upper i16 (discs), link count u8, level u8, then per link a score i8
//!               and a square u8 (64 = pass), then the leaf as one more score and square
//!               (65 = none)
//! ```
//!
//! A link is a move whose successor is in the book, scored by it; the leaf is the best other
//! move, scored by the position's search at its level. Edax also keeps the positions where
//! the side to move must pass (one pass link) and the ends of games (no link, the final score
//! in the leaf's score). Oxello keys neither: its book moves go through a pass to the position
//! after it and value a move that ends the game by its score, so importing leaves them out
//! with no loss of value, and exporting makes them again for the moves that reach them.
//!
//! What does not map: Edax's game counts and score bounds have no place in Oxello's book (an
//! export writes no games and the bounds -64..+64: Edax's `book negamax` recomputes both);
//! Oxello keeps a score per move where Edax keeps only the leaf, so an export drops the moves
//! worse than the leaf; scores are whole discs in Edax (an export rounds, half away from
//! zero); Edax's level 60 is an exact search and maps to Oxello's exact depth, a level below
//! to that many plies (a deeper Oxello search exports as level 60). The format has no
//! checksum: a damaged file is refused by its structure (header, length, every record).

use super::store::{Book, Depth, Entry, Key, Scored};
use crate::engine::board::Board;
use crate::engine::eval::DISC;
use crate::engine::symmetry;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

const EDAX: u32 = 0x4544_4158;
const BOOK: u32 = 0x424f_4f4b;
/// The only format version Edax 4.x reads; the release written is Edax 4.6's.
const VERSION: u8 = 4;
const RELEASE: u8 = 6;
const HEADER_BYTES: usize = 42;
const RECORD_BYTES: usize = 40;
const PASS: u8 = 64;
const NO_MOVE: u8 = 65;
/// The score of a leaf that is no move.
const NO_SCORE: i8 = -127;
/// Edax's exact level, and the widest disc score.
const EXACT_LEVEL: u8 = 60;
const SCORE_LIMIT: i32 = 64;
/// The four centre squares, never empty in a game.
const CENTRE: u64 = 0x0000_0018_1800_0000;
/// The evaluation id of a book imported from Edax: "EDAXBOOK".
pub const EVALUATION: u64 = u64::from_le_bytes(*b"EDAXBOOK");

/// A move with its score in discs, from the view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub score: i8,
    pub square: u8,
}

/// One position of an Edax book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub player: u64,
    pub opponent: u64,
    /// Games won, drawn, lost and lines unfinished through the position.
    pub games: [u32; 4],
    /// The negamax value and its bounds, in discs.
    pub value: i16,
    pub bounds: (i16, i16),
    pub level: u8,
    pub links: Vec<Link>,
    pub leaf: Link,
}

impl Record {
    pub fn board(&self) -> Board {
        Board::new(self.player, self.opponent)
    }
}

/// An Edax book: its header's fields and its positions in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxBook {
    pub release: u8,
    /// Year (two bytes), month, day, hour, minute, second, padding.
    pub date: [u8; 8],
    /// Level, empties, midgame error, endcut error, verbosity.
    pub options: [i32; 5],
    pub records: Vec<Record>,
}

/// Why a file is not a readable Edax book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EdaxError {
    /// Shorter than the header.
    TooShort(usize),
    Magic,
    Version {
        version: u8,
        release: u8,
    },
    /// The file ends inside this position.
    Truncated {
        index: usize,
    },
    /// The header's count against the positions the file holds.
    Count {
        header: i64,
        found: usize,
    },
    Record {
        index: usize,
        what: String,
    },
}

impl fmt::Display for EdaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdaxError::TooShort(n) => write!(
                f,
                "not an Edax book: {n} bytes, shorter than its {HEADER_BYTES}-byte header"
            ),
            EdaxError::Magic => {
                f.write_str("not an Edax book: its header does not begin EDAX BOOK")
            }
            EdaxError::Version { version, release } => write!(
                f,
                "Edax book version {version}.{release}: only version {VERSION} books are known"
            ),
            EdaxError::Truncated { index } => {
                write!(f, "truncated: the file ends inside position {index}")
            }
            EdaxError::Count { header, found } => write!(
                f,
                "truncated or damaged: the header counts {header} positions, the file holds {found}"
            ),
            EdaxError::Record { index, what } => write!(f, "position {index}: {what}"),
        }
    }
}

impl std::error::Error for EdaxError {}

/// Reads little-endian fields off the file's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let bytes = self.bytes.get(self.at..self.at + N)?;
        self.at += N;
        bytes.try_into().ok()
    }

    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }

    fn i16(&mut self) -> Option<i16> {
        self.take().map(i16::from_le_bytes)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }

    fn link(&mut self) -> Option<Link> {
        let [score, square] = self.take::<2>()?;
        Some(Link {
            score: score as i8,
            square,
        })
    }

    fn record(&mut self) -> Option<Record> {
        let (player, opponent) = (self.u64()?, self.u64()?);
        let games = [self.u32()?, self.u32()?, self.u32()?, self.u32()?];
        let (value, lower, upper) = (self.i16()?, self.i16()?, self.i16()?);
        let (count, level) = (self.u8()?, self.u8()?);
        let links = (0..count).map(|_| self.link()).collect::<Option<_>>()?;
        Some(Record {
            player,
            opponent,
            games,
            value,
            bounds: (lower, upper),
            level,
            links,
            leaf: self.link()?,
        })
    }
}

impl EdaxBook {
    /// Reads a book, checking the header and that every position is well formed, legal and
    /// stored once.
    pub fn from_bytes(bytes: &[u8]) -> Result<EdaxBook, EdaxError> {
        let (mut book, count) = header(bytes)?;
        let mut cursor = Cursor {
            bytes,
            at: HEADER_BYTES,
        };
        let mut seen = HashMap::new();
        while cursor.at < bytes.len() {
            let index = book.records.len();
            let record = cursor.record().ok_or(EdaxError::Truncated { index })?;
            let fault = |what: String| EdaxError::Record { index, what };
            check_record(&record).map_err(fault)?;
            if let Some(first) = seen.insert((record.player, record.opponent), index) {
                return Err(fault(format!("the board of position {first} again")));
            }
            book.records.push(record);
        }
        if i64::from(count) != book.records.len() as i64 {
            return Err(EdaxError::Count {
                header: i64::from(count),
                found: book.records.len(),
            });
        }
        Ok(book)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.records.len() * (RECORD_BYTES + 8));
        out.extend_from_slice(&EDAX.to_le_bytes());
        out.extend_from_slice(&BOOK.to_le_bytes());
        out.extend_from_slice(&[VERSION, self.release]);
        out.extend_from_slice(&self.date);
        for option in self.options {
            out.extend_from_slice(&option.to_le_bytes());
        }
        out.extend_from_slice(&(self.records.len() as i32).to_le_bytes());
        for record in &self.records {
            encode(&mut out, record);
        }
        out
    }
}

/// The header's fields (with no positions yet) and its position count.
fn header(bytes: &[u8]) -> Result<(EdaxBook, i32), EdaxError> {
    let mut cursor = Cursor { bytes, at: 0 };
    let too_short = EdaxError::TooShort(bytes.len());
    if bytes.len() < HEADER_BYTES {
        return Err(too_short);
    }
    let (edax, book) = (cursor.u32(), cursor.u32());
    if (edax, book) != (Some(EDAX), Some(BOOK)) {
        return Err(EdaxError::Magic);
    }
    let [version, release] = cursor.take().ok_or(too_short.clone())?;
    if version != VERSION {
        return Err(EdaxError::Version { version, release });
    }
    let date = cursor.take().ok_or(too_short.clone())?;
    let mut options = [0; 5];
    for option in &mut options {
        *option = cursor.u32().ok_or(too_short.clone())? as i32;
    }
    let count = cursor.u32().ok_or(too_short)? as i32;
    let book = EdaxBook {
        release,
        date,
        options,
        records: Vec::new(),
    };
    Ok((book, count))
}

fn encode(out: &mut Vec<u8>, record: &Record) {
    out.extend_from_slice(&record.player.to_le_bytes());
    out.extend_from_slice(&record.opponent.to_le_bytes());
    for count in record.games {
        out.extend_from_slice(&count.to_le_bytes());
    }
    for score in [record.value, record.bounds.0, record.bounds.1] {
        out.extend_from_slice(&score.to_le_bytes());
    }
    out.extend_from_slice(&[record.links.len() as u8, record.level]);
    for link in record.links.iter().chain([&record.leaf]) {
        out.extend_from_slice(&[link.score as u8, link.square]);
    }
}

/// What the side to move at a board can do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Turn {
    Moves,
    Pass,
    GameOver,
}

fn turn(board: &Board) -> Turn {
    if board.moves() != 0 {
        Turn::Moves
    } else if board.opponent_moves() != 0 {
        Turn::Pass
    } else {
        Turn::GameOver
    }
}

/// Why a position cannot be, if it cannot.
fn check_record(record: &Record) -> Result<(), String> {
    let board = record.board();
    if board.player & board.opponent != 0 {
        return Err("a square holds discs of both colours".into());
    }
    if (board.player | board.opponent) & CENTRE != CENTRE {
        return Err("a centre square is empty".into());
    }
    if symmetry::canonical(&board) != board {
        return Err("the board is not in its unique (smallest) orientation".into());
    }
    if record.level > EXACT_LEVEL {
        return Err(format!("level {} is beyond {EXACT_LEVEL}", record.level));
    }
    check_score("value", i32::from(record.value))?;
    check_moves(record, &board)
}

fn check_score(what: &str, score: i32) -> Result<(), String> {
    if score.abs() > SCORE_LIMIT {
        return Err(format!("{what} {score} is beyond ±{SCORE_LIMIT} discs"));
    }
    Ok(())
}

/// The links are distinct legal moves (or the one pass of a position that must pass), and
/// the leaf one more, a pass, or none when every move is linked.
fn check_moves(record: &Record, board: &Board) -> Result<(), String> {
    let passes = turn(board) == Turn::Pass;
    let mut used = 0u64;
    for link in &record.links {
        let pass_link = link.square == PASS && passes && record.links.len() == 1;
        if !pass_link && !legal_new(board, link.square, used) {
            return Err(format!(
                "link {} is not a legal move",
                square_text(link.square)
            ));
        }
        used |= 1u64.checked_shl(u32::from(link.square)).unwrap_or(0);
        check_score("a link's score", i32::from(link.score))?;
    }
    check_leaf(record.leaf, board, used, passes && record.links.is_empty())
}

/// The leaf: a legal move not linked (`used`), a pass where `may_pass`, or none (with no
/// score, or a game's final score) when no move is left.
fn check_leaf(leaf: Link, board: &Board, used: u64, may_pass: bool) -> Result<(), String> {
    let why = match leaf.square {
        NO_MOVE if board.moves() & !used != 0 => Some("none while a move is not linked"),
        NO_MOVE if leaf.score == NO_SCORE => return Ok(()),
        NO_MOVE => None,
        PASS if !may_pass => Some("a pass where none can be"),
        PASS => None,
        square if !legal_new(board, square, used) => Some("not a legal move, or linked"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(format!("leaf {}: {why}", square_text(leaf.square)));
    }
    check_score("the leaf's score", i32::from(leaf.score))
}

/// Whether `square` is a legal move of `board` not among `used`.
fn legal_new(board: &Board, square: u8, used: u64) -> bool {
    square < 64 && board.moves() & !used & 1 << square != 0
}

fn square_text(square: u8) -> String {
    match square {
        PASS => "pass".into(),
        NO_MOVE => "none".into(),
        s if s < 64 => crate::engine::notation::square_name(u32::from(s)),
        s => format!("#{s}"),
    }
}

/// An Edax book as Oxello's, and what it left out.
#[derive(Clone, Debug)]
pub struct Import {
    pub book: Book,
    /// Positions where the side to move must pass, and ends of games (Oxello keys neither).
    pub passes: usize,
    pub game_overs: usize,
    /// Values that Oxello's negamax over the imported moves changed (0 for a book Edax
    /// negamaxed).
    pub recomputed: usize,
}

/// Oxello's book of an Edax book: each position with a move, its links and leaf as its
/// scored moves, its value and its level as depth; then negamaxed.
pub fn import(edax: &EdaxBook) -> Import {
    let mut book = Book::new(EVALUATION);
    let (mut passes, mut game_overs) = (0, 0);
    for record in &edax.records {
        match turn(&record.board()) {
            Turn::Moves => book.insert(key_of(record), entry_of(record)),
            Turn::Pass => passes += 1,
            Turn::GameOver => game_overs += 1,
        }
    }
    let stored = book.clone();
    book.negamax();
    let recomputed = book
        .entries()
        .filter(|(key, entry)| stored.get(key).map(|e| e.value) != Some(entry.value))
        .count();
    Import {
        book,
        passes,
        game_overs,
        recomputed,
    }
}

fn key_of(record: &Record) -> Key {
    Key {
        player: record.player,
        opponent: record.opponent,
    }
}

fn entry_of(record: &Record) -> Entry {
    let scores = record
        .links
        .iter()
        .chain([&record.leaf])
        .filter(|link| link.square < 64)
        .map(|link| Scored {
            square: u32::from(link.square),
            score: i32::from(link.score) * DISC,
        })
        .collect();
    Entry {
        value: i32::from(record.value) * DISC,
        ..Entry::searched(depth_of(record.level), scores)
    }
}

/// Edax's level as a depth: 60 is exact.
pub fn depth_of(level: u8) -> Depth {
    if level >= EXACT_LEVEL {
        Depth::Exact
    } else {
        Depth::Plies(level)
    }
}

/// A depth as Edax's level.
pub fn level_of(depth: Depth) -> u8 {
    match depth {
        Depth::Plies(d) => d.min(EXACT_LEVEL),
        Depth::Exact => EXACT_LEVEL,
    }
}

/// Centi-discs as Edax's whole discs, rounded half away from zero.
pub fn discs(centi: i32) -> i8 {
    let rounded = (centi + centi.signum() * DISC / 2) / DISC;
    rounded.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i8
}

/// Edax's book of an Oxello book, with the positions Edax keeps that Oxello does not (passes
/// and ends of games) made for the moves that reach them; `date` goes into the header.
pub fn export(book: &Book, date: [u8; 8]) -> EdaxBook {
    let mut records = BTreeMap::new();
    for (key, entry) in book.entries() {
        let record = export_entry(book, key, entry, &mut records);
        records.insert(*key, record);
    }
    let records: Vec<Record> = records.into_values().collect();
    let level = records.iter().map(|r| r.level).max().unwrap_or(0);
    let empties = records.iter().map(|r| r.board().empty_count()).min();
    EdaxBook {
        release: RELEASE,
        date,
        options: [i32::from(level), empties.unwrap_or(60) as i32, 2, 1, 0],
        records,
    }
}

/// A record with the value, links and scores given, no games and open bounds.
fn record(board: &Board, level: u8, links: Vec<Link>, leaf: Link, value: i8) -> Record {
    Record {
        player: board.player,
        opponent: board.opponent,
        games: [0; 4],
        value: i16::from(value),
        bounds: (-SCORE_LIMIT as i16, SCORE_LIMIT as i16),
        level,
        links,
        leaf,
    }
}

const NO_LEAF: Link = Link {
    score: NO_SCORE,
    square: NO_MOVE,
};

/// An entry's record: its book moves and the moves that end the game are links, the best
/// other move the leaf; the pass and game-over positions its links reach go into `extra`.
fn export_entry(
    book: &Book,
    key: &Key,
    entry: &Entry,
    extra: &mut BTreeMap<Key, Record>,
) -> Record {
    let level = level_of(entry.depth);
    let mut links = Vec::new();
    let mut others = Vec::new();
    for scored in &entry.scores {
        match link_to(book, key, scored, level) {
            Some((link, child)) => {
                links.push(link);
                if let Some((child_key, child)) = child {
                    extra.insert(child_key, child);
                }
            }
            None => others.push(scored),
        }
    }
    links.sort_by_key(|l| (std::cmp::Reverse(l.score), l.square));
    let leaf = others
        .iter()
        .max_by_key(|s| (s.score, std::cmp::Reverse(s.square)))
        .map_or(NO_LEAF, |s| Link {
            score: discs(s.score),
            square: s.square as u8,
        });
    let value = links.iter().chain([&leaf]).map(|l| l.score).max();
    record(&key.board(), level, links, leaf, value.unwrap_or(NO_SCORE))
}

/// The link of a scored move whose successor is in the book or ends the game, with the pass
/// or game-over position between, when there is one.
fn link_to(
    book: &Book,
    key: &Key,
    scored: &Scored,
    level: u8,
) -> Option<(Link, Option<(Key, Record)>)> {
    let child = key.board().play(scored.square)?;
    let link = |score: i8| Link {
        score,
        square: scored.square as u8,
    };
    match turn(&child) {
        Turn::Moves => Some((link(-discs(book.get(&Key::of(&child))?.value)), None)),
        Turn::Pass => {
            let after = book.get(&Key::of(&child.pass()))?;
            let value = discs(after.value);
            let pass = Link {
                score: -value,
                square: PASS,
            };
            let canonical = symmetry::canonical(&child);
            let stop = record(
                &canonical,
                level_of(after.depth),
                vec![pass],
                NO_LEAF,
                -value,
            );
            Some((link(value), Some((Key::of(&child), stop))))
        }
        Turn::GameOver => {
            let end = child.final_score().clamp(-SCORE_LIMIT, SCORE_LIMIT) as i8;
            let last = Link {
                score: end,
                square: NO_MOVE,
            };
            let canonical = symmetry::canonical(&child);
            let stop = record(&canonical, level, Vec::new(), last, end);
            Some((link(-end), Some((Key::of(&child), stop))))
        }
    }
}

/// The date and time of `unix_seconds` (UTC) in the header's layout.
pub fn header_date(unix_seconds: u64) -> [u8; 8] {
    let days = unix_seconds / 86_400;
    let seconds = unix_seconds % 86_400;
    let (year, month, day) = civil_date(days as i64);
    let [y0, y1] = (year as i16).to_le_bytes();
    let time = [seconds / 3600, seconds / 60 % 60, seconds % 60].map(|v| v as u8);
    [y0, y1, month, day, time[0], time[1], time[2], 0]
}

/// Year, month and day of a count of days since 1970-01-01 (the proleptic Gregorian
/// calendar, by 400-year eras of 146,097 days).
fn civil_date(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u8;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u8;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_discs_map_both_ways() {
        for level in 0..=EXACT_LEVEL {
            assert_eq!(level_of(depth_of(level)), level);
        }
        assert_eq!(level_of(Depth::Plies(200)), EXACT_LEVEL);
        assert_eq!(
            [discs(250), discs(-250), discs(249), discs(-49)],
            [3, -3, 2, 0]
        );
        assert_eq!(discs(100 * 70), 64);
    }

    #[test]
    fn header_dates_are_calendar_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        // 2026-12-05 23:52:36 UTC.
        let date = header_date(1_796_514_756);
        assert_eq!(i16::from_le_bytes([date[0], date[1]]), 2026);
        assert_eq!(date[2..], [12, 5, 23, 52, 36, 0]);
    }

    #[test]
    fn squares_have_names_passes_and_none() {
        assert_eq!(square_text(0), "a1");
        assert_eq!(square_text(PASS), "pass");
        assert_eq!(square_text(NO_MOVE), "none");
        assert_eq!(square_text(99), "#99");
    }
}
