//! `oxello bench`: a fixed, quick workload (perft, fixed-depth midgame searches, exact solves)
//! whose total search node count is a signature of the search. A change that should not alter
//! the search keeps the signature; one that does states the new signature in its commit.
//!
//! Every position comes from the files in `tests/data/`, compiled in, so the bench needs no
//! file at run time and gives the same signature everywhere.

use oxello::board::Board;
use oxello::game::Game;
use oxello::notation::parse_obf;
use oxello::perft::{perft, PerftMode};
use oxello::search::{search, Limits};
use oxello::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Table size of every bench search, MiB: small enough to start at once, large enough that
/// replacement barely matters.
pub const BENCH_HASH_MIB: usize = 64;

/// Perft depth: about 212 M leaves.
const PERFT_DEPTH: u32 = 11;
/// Midgame search depth, from positions 20 plies into tournament games.
const MIDGAME_DEPTH: u32 = 11;
const MIDGAME_PLIES: usize = 20;
/// Lines of `wthor_2024_2025_transcripts.txt` (counted from 1) whose games give the midgame
/// positions.
const MIDGAME_GAMES: [usize; 4] = [10, 500, 2000, 4000];
/// FFO positions solved exactly (#20-#29) and the random-game ones (1-based lines).
const FFO_SOLVES: usize = 10;
const RANDOM_SOLVES: [usize; 4] = [2, 9, 10, 12];

const WTHOR: &str = include_str!("../../tests/data/wthor_2024_2025_transcripts.txt");
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

/// The midgame positions: `MIDGAME_PLIES` into each game of `MIDGAME_GAMES`.
fn midgame_positions() -> Vec<Board> {
    let lines: Vec<&str> = WTHOR.lines().collect();
    MIDGAME_GAMES
        .iter()
        .map(|&n| {
            // `<source> <black score> <transcript>`
            let transcript = lines[n - 1].split_whitespace().nth(2).unwrap_or_default();
            let opening = &transcript[..(2 * MIDGAME_PLIES).min(transcript.len())];
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
