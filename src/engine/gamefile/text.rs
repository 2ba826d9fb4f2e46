//! The text formats: transcripts, one game per line, and the PGN of the WTHOR conversions.

use super::{check_score, replay, ReadError, Record};
use crate::engine::board::Position;
use crate::engine::game::Move;
use crate::engine::notation::parse_square;

/// The moves of one word: squares in either case, `pa`, `ps` or `--` for a pass, with or
/// without `-` between them (`f5d6`, `F5-D6`). `None` when the word is not all moves.
pub fn parse_moves(word: &str) -> Option<Vec<Move>> {
    let joined = word.replace("--", "pa").replace('-', "");
    if joined.is_empty() || !joined.is_ascii() || !joined.len().is_multiple_of(2) {
        return None;
    }
    (0..joined.len())
        .step_by(2)
        .map(|i| match &joined[i..i + 2] {
            m if m.eq_ignore_ascii_case("pa") || m.eq_ignore_ascii_case("ps") => Some(Move::Pass),
            m => parse_square(m).ok().map(Move::Play),
        })
        .collect()
}

/// The moves of a line: its first run of words (split at blanks and commas) that are all
/// moves, so `<source> <score> <transcript>`, `<transcript> <result>` and `F5 D6 C3` all read.
fn line_moves(line: &str) -> Option<Vec<Move>> {
    let mut words = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(parse_moves)
        .skip_while(Option::is_none);
    let mut moves = words.next()??;
    moves.extend(words.map_while(|w| w).flatten());
    Some(moves)
}

/// One game per line from the start position; blank lines and lines starting with `#` or `%`
/// are skipped. A line with no moves, or an illegal game, is an error naming its line.
pub fn read_transcripts(text: &str) -> Result<Vec<Record>, ReadError> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', '%']) {
            continue;
        }
        let index = records.len() + 1;
        let at_line = |mut e: ReadError| {
            e.line = Some(i + 1);
            e
        };
        let moves = line_moves(trimmed).ok_or_else(|| {
            at_line(ReadError::syntax(
                index,
                format!("no moves in '{}'", short(trimmed)),
            ))
        })?;
        let game = replay(Position::start(), &moves, index).map_err(at_line)?;
        records.push(Record::of(game, index));
    }
    if records.is_empty() {
        return Err(ReadError::syntax(0, "no game"));
    }
    Ok(records)
}

/// The game of one line of a file, the `number`-th (1-based): its errors name that line.
pub fn read_line(line: &str, number: usize) -> Result<Record, ReadError> {
    let mut records = read_transcripts(line).map_err(|mut e| {
        (e.game, e.line) = (0, Some(number));
        e
    })?;
    Ok(records.remove(0))
}

/// At most 40 characters of `s`, for messages.
fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The games of a PGN file as the WTHOR conversions write it: `[Name "value"]` tags
/// (`Event`, `Black`, `White`, `Date`, `Result` as `<black>-<white>`), then move lines such as
/// `1. F5 D6`; move numbers and a final result are dropped. A blank line or a tag after moves
/// starts the next game.
pub fn read_pgn(text: &str) -> Result<Vec<Record>, ReadError> {
    let mut records = Vec::new();
    let mut current: Option<PgnGame> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let ends = line.is_empty()
            || (line.starts_with('[') && current.as_ref().is_some_and(|g| !g.moves.is_empty()));
        if ends {
            if let Some(game) = current.take() {
                records.push(game.finish(records.len() + 1)?);
            }
        }
        if line.is_empty() {
            continue;
        }
        let game = current.get_or_insert_with(PgnGame::default);
        game.line(line).map_err(|e| {
            let mut e = ReadError::syntax(records.len() + 1, e);
            e.line = Some(i + 1);
            e
        })?;
    }
    if let Some(game) = current {
        records.push(game.finish(records.len() + 1)?);
    }
    if records.is_empty() {
        return Err(ReadError::syntax(0, "no PGN game"));
    }
    Ok(records)
}

/// A PGN game as it is read: its tags and moves.
#[derive(Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    moves: Vec<Move>,
}

impl PgnGame {
    /// Takes a tag line or a move line.
    fn line(&mut self, line: &str) -> Result<(), String> {
        if let Some(tag) = line.strip_prefix('[') {
            let (name, value) = tag
                .trim_end_matches(']')
                .split_once(' ')
                .ok_or_else(|| format!("malformed tag '{}'", short(line)))?;
            let value = value.trim().trim_matches('"').to_string();
            self.tags.push((name.to_string(), value));
            return Ok(());
        }
        for token in line.split_whitespace() {
            let number = token
                .strip_suffix('.')
                .is_some_and(|n| n.parse::<u32>().is_ok());
            let result = token == "*"
                || token
                    .split_once('-')
                    .is_some_and(|(b, w)| b.parse::<u8>().is_ok() && w.parse::<u8>().is_ok());
            if number || result {
                continue;
            }
            let moves =
                parse_moves(token).ok_or_else(|| format!("'{}' is not a move", short(token)))?;
            self.moves.extend(moves);
        }
        Ok(())
    }

    /// The record, replayed and checked against its `Result` tag.
    fn finish(self, index: usize) -> Result<Record, ReadError> {
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let game = replay(Position::start(), &self.moves, index)?;
        let black_score = tag("Result").and_then(|r| r.split_once('-')?.0.parse().ok());
        let record = Record {
            black: tag("Black"),
            white: tag("White"),
            event: tag("Event"),
            year: tag("Date").and_then(|d| d.get(..4)?.parse().ok()),
            black_score,
            ..Record::of(game, index)
        };
        check_score(&record)?;
        Ok(record)
    }
}
