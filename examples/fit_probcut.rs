//! Measures how far a shallow search's score lies from the exact endgame score, the error
//! model behind the endgame's ProbCut. For positions of the WTHOR games at a few counts of
//! empties it solves each exactly and searches it to shallow depths, then prints per
//! (empties, depth) the mean and standard deviation of exact - shallow, in discs:
//!
//!     cargo run --release --example fit_probcut [transcripts file]

use oxello::board::{Board, Position};
use oxello::eval::DISC;
use oxello::game::Game;
use oxello::search::{search, Limits};
use oxello::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// Positions sampled per count of empties.
const SAMPLES: usize = 150;
const EMPTIES: [u32; 5] = [10, 13, 16, 19, 22];
const DEPTHS: std::ops::RangeInclusive<u32> = 0..=6;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/wthor_2024_2025_transcripts.txt".into());
    let text = std::fs::read_to_string(&path).expect("read the transcripts");
    let transcripts: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(2).expect("transcript"))
        .collect();
    let mut tt = TranspositionTable::new(64);
    let stop = AtomicBool::new(false);
    for &empties in &EMPTIES {
        let boards: Vec<Board> = transcripts
            .iter()
            .step_by(7)
            .filter_map(|t| position_at(t, empties))
            .take(SAMPLES)
            .collect();
        let exact: Vec<i32> = boards
            .iter()
            .map(|b| score(&mut tt, &stop, b, None))
            .collect();
        for depth in DEPTHS {
            let errors: Vec<f64> = boards
                .iter()
                .zip(&exact)
                .map(|(b, &x)| {
                    f64::from(x - score(&mut tt, &stop, b, Some(depth))) / f64::from(DISC)
                })
                .collect();
            let n = errors.len() as f64;
            let mean = errors.iter().sum::<f64>() / n;
            let sd = (errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / n).sqrt();
            println!(
                "empties {empties:2} depth {depth}: mean {mean:+6.2} sd {sd:5.2} ({n} positions)"
            );
        }
    }
}

/// The position of a game with `empties` empty squares and a move to play, if it has one.
fn position_at(transcript: &str, empties: u32) -> Option<Board> {
    let moves = oxello::notation::parse_transcript(transcript).ok()?;
    let played = 60 - empties as usize;
    let game = Game::replay(Position::start(), moves.get(..played)?).ok()?;
    let b = game.position().board;
    (b.empty_count() == empties && b.moves() != 0).then_some(b)
}

/// The score of a search to `depth` (exact when `None`, static at 0), centi-discs, from a
/// clear table.
fn score(tt: &mut TranspositionTable, stop: &AtomicBool, b: &Board, depth: Option<u32>) -> i32 {
    if depth == Some(0) {
        return oxello::eval::evaluate(b);
    }
    tt.clear();
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    search(tt, stop, b, &limits, |_| {}).score
}
