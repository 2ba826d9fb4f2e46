//! `oxello bench`: a fixed, quick workload (perft, fixed-depth midgame searches, exact solves)
//! whose total search node count is a signature of the search. A change that should not alter
//! the search keeps the signature; one that does states the new signature in its commit.
//!
//! Every position comes from `tests/data/`: the midgame ones are the openings of four
//! tournament games (kept here as transcripts, checked against their file by a test), the
//! endgame ones two small `.obf` files compiled in. The bench needs no file at run time and
//! gives the same signature everywhere.

use crate::engine::board::Board;
use crate::engine::game::Game;
use crate::engine::notation::parse_obf;
use crate::engine::perft::{perft, PerftMode};
use crate::engine::search::{search, Limits};
use crate::engine::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Table size of every bench search, MiB: small enough to start at once, large enough that
/// replacement barely matters.
pub const BENCH_HASH_MIB: usize = 64;

/// Perft depth: about 212 M leaves.
const PERFT_DEPTH: u32 = 11;
/// Midgame search depth, from positions 20 plies into tournament games.
const MIDGAME_DEPTH: u32 = 11;
/// The first 20 plies of the games on lines 10, 500, 2000 and 4000 of
/// `tests/data/wthor_2024_2025_transcripts.txt`: the midgame positions (the trainer's tests
/// use them too, as positions of 40 and 42 empties).
pub const MIDGAME_OPENINGS: [&str; 4] = [
    "f5d6c3d3c4f4c5b3e2e3c2b6b5e6f6d2f2f3b4a6",
    "f5d6c4d3c3f4c5b3c2e3d2c6f2e6b4a3f7f6g4g3",
    "f5d6c3d3c4f4f6f3e6e7d7g6f8f7e2d8e3c8g3c6",
    "f5d6c5f4d3e3g4g5e6c4e2f6b5b6c6a5d7e7e8c7",
];
/// FFO positions solved exactly (#20-#29) and the random-game ones (1-based lines).
const FFO_SOLVES: usize = 10;
const RANDOM_SOLVES: [usize; 4] = [2, 9, 10, 12];

const FFO_20_39: &str = include_str!("../../tests/data/fforum-20-39.obf");
const RANDOM22: &str = include_str!("../../tests/data/random22.obf");

/// One part of the bench: what it did and what it cost.
#[derive(Clone, Debug)]
pub struct Part {
    pub name: String,
    pub positions: usize,
    /// Leaves for perft, search nodes otherwise.
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Part {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The bench's result: its parts, and the signature (total search nodes, perft excluded).
#[derive(Clone, Debug)]
pub struct Bench {
    pub parts: Vec<Part>,
    pub signature: u64,
}

/// The midgame positions, where [`MIDGAME_OPENINGS`] lead.
fn midgame_positions() -> Vec<Board> {
    MIDGAME_OPENINGS
        .iter()
        .map(|opening| {
            let game = Game::from_transcript(opening).expect("bench games are legal");
            game.position().board
        })
        .collect()
}

/// The positions solved exactly.
fn endgame_positions() -> Vec<Board> {
    let ffo = parse_obf(FFO_20_39).expect("bench FFO file parses");
    let random = parse_obf(RANDOM22).expect("bench random22 file parses");
    ffo.iter()
        .take(FFO_SOLVES)
        .chain(RANDOM_SOLVES.iter().map(|&n| &random[n - 1]))
        .map(|e| e.position.board)
        .collect()
}

/// Searches every position with a cleared table, returning the part's totals.
fn search_part(name: &str, boards: &[Board], limits: &Limits, tt: &mut TranspositionTable) -> Part {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let nodes = boards
        .iter()
        .map(|b| {
            tt.clear();
            search(tt, &stop, b, limits, |_| {}).nodes
        })
        .sum();
    Part {
        name: name.to_string(),
        positions: boards.len(),
        nodes,
        elapsed: start.elapsed(),
    }
}

/// Runs the whole bench with `threads` threads per search, reporting each part as it finishes.
pub fn run(threads: usize, mut on_part: impl FnMut(&Part)) -> Bench {
    let mut parts = Vec::new();
    let start = Instant::now();
    let leaves = perft(&Board::START, PERFT_DEPTH, PerftMode::PassIsPly);
    parts.push(Part {
        name: format!("perft {PERFT_DEPTH}"),
        positions: 1,
        nodes: leaves,
        elapsed: start.elapsed(),
    });
    on_part(&parts[0]);
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB);
    let midgame = Limits {
        depth: Some(MIDGAME_DEPTH),
        threads,
        ..Limits::default()
    };
    let searches = [
        (
            format!("midgame depth {MIDGAME_DEPTH}"),
            midgame_positions(),
            midgame,
        ),
        (
            "endgame exact".to_string(),
            endgame_positions(),
            Limits {
                threads,
                ..Limits::default()
            },
        ),
    ];
    for (name, boards, limits) in &searches {
        let part = search_part(name, boards, limits, &mut tt);
        on_part(&part);
        parts.push(part);
    }
    let signature = parts[1..].iter().map(|p| p.nodes).sum();
    Bench { parts, signature }
}

#[cfg(test)]
mod tests {
    use super::MIDGAME_OPENINGS;

    /// The games file the openings were taken from, read at test time only, and their lines
    /// in it (counted from 1).
    const WTHOR: &str = include_str!("../../tests/data/wthor_2024_2025_transcripts.txt");
    const LINES: [usize; 4] = [10, 500, 2000, 4000];
    const PLIES: usize = 20;

    #[test]
    fn the_midgame_openings_are_the_first_20_plies_of_their_games() {
        let lines: Vec<&str> = WTHOR.lines().collect();
        for (opening, line) in MIDGAME_OPENINGS.iter().zip(LINES) {
            // `<source> <black score> <transcript>`
            let transcript = lines[line - 1].split_whitespace().nth(2).unwrap();
            assert_eq!(*opening, &transcript[..2 * PLIES], "line {line}");
        }
    }
}
