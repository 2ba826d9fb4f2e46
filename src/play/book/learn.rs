//! Learning games: every position of a game where a side has a move enters the book with a
//! search of all its moves, so the deviations along the game are known and each position gets
//! its leaf (Edax's `store`, NBoard's `learn`). Games come from files of transcripts,
//! WTHOR-style lines (`<source> <score> <transcript>`) or GGF records.

use super::file::BookError;
use super::jobs::{JobOptions, Jobs, Progress};
use super::store::{Book, Key};
use crate::engine::game::Game;
use crate::engine::gamefile::{read_ggf, read_line};
use std::collections::BTreeSet;
use std::time::Duration;

/// The keys of the positions of `game` where a move is to be made, in the order played.
pub fn game_keys(game: &Game) -> Vec<Key> {
    game.positions()
        .iter()
        .filter(|pos| pos.board.moves() != 0)
        .map(|pos| Key::of(&pos.board))
        .collect()
}

/// Adds every position of `games` to `book` (searching those missing or shallower than the
/// run's depth), then negamaxes; returns how many positions are new.
pub fn add_games(book: &mut Book, games: &[Game], jobs: &mut Jobs) -> Result<usize, BookError> {
    let before = book.len();
    let keys: BTreeSet<Key> = games.iter().flat_map(game_keys).collect();
    jobs.ensure(book, &keys.into_iter().collect::<Vec<_>>())?;
    book.negamax();
    Ok(book.len() - before)
}

impl Book {
    /// Learns one game on the calling thread with `depth`-ply searches (what NBoard's `learn`
    /// needs); returns how many positions are new. Save the book afterwards.
    pub fn learn(&mut self, game: &Game, depth: u32) -> usize {
        let options = JobOptions {
            depth,
            threads: 1,
            checkpoint: None,
            report_every: Duration::MAX,
        };
        let mut quiet = |_: &Progress| {};
        let mut jobs = Jobs::new(options, &mut quiet);
        // Without a checkpoint nothing is written, and nothing else can fail.
        add_games(self, std::slice::from_ref(game), &mut jobs).unwrap_or(0)
    }
}

/// Reads a file of games: one per line, as a transcript (the line's first run of words that
/// are moves, so WTHOR-style lines work; see `engine::gamefile`) or as GGF records. Blank lines
/// and lines starting with `#` are skipped; any other line without a game is an error.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = if line.contains("(;") {
            read_ggf(line).map(|records| records.into_iter().map(|r| r.game).collect())
        } else {
            read_line(line, n + 1).map(|r| vec![r.game])
        };
        games.extend(parsed.map_err(|mut e| {
            e.line = Some(n + 1);
            e.to_string()
        })?);
    }
    Ok(games)
}
