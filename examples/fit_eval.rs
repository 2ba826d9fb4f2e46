//! Fits the evaluation weights to tournament games: every position of the WTHOR games from 59
//! to 8 empties, labelled with the game's final disc differential (WOF rule) for the side to
//! move, least squares per phase (with the neighbouring phases' positions, and a light ridge).
//! Prints the table for `src/eval.rs`.
//!
//!     cargo run --release --example fit_eval [transcripts file]

use oxello::eval::{features, FEATURES, PHASES, PHASE_WIDTH};
use oxello::game::Game;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/wthor_2024_2025_transcripts.txt".into());
    let text = std::fs::read_to_string(&path).expect("read the transcripts");
    // Normal equations per phase: sum of f f^T and sum of f * label.
    let mut xtx = vec![[[0f64; FEATURES]; FEATURES]; PHASES];
    let mut xty = vec![[0f64; FEATURES]; PHASES];
    let mut samples = [0usize; PHASES];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let black: i32 = fields[1].parse().expect("score");
        let black_diff = f64::from(2 * black - 64) * 100.0;
        let moves = oxello::notation::parse_transcript(fields[2]).expect("transcript");
        let mut game = Game::default();
        for &m in &moves {
            let pos = *game.position();
            let e = pos.board.empty_count();
            if (8..60).contains(&e) && pos.board.moves() != 0 {
                let label = if pos.side == oxello::board::Color::Black {
                    black_diff
                } else {
                    -black_diff
                };
                let f = features(&pos.board).map(f64::from);
                let phase = (e / PHASE_WIDTH) as usize;
                for p in phase.saturating_sub(1)..=(phase + 1).min(PHASES - 1) {
                    samples[p] += 1;
                    for i in 0..FEATURES {
                        xty[p][i] += f[i] * label;
                        for j in 0..FEATURES {
                            xtx[p][i][j] += f[i] * f[j];
                        }
                    }
                }
            }
            let c = game.next_to_play().expect("game goes on");
            game.play(c, m).expect("legal move");
        }
    }
    let fitted: Vec<Option<[i32; FEATURES]>> = (0..PHASES)
        .map(|p| {
            // Too few positions (the last empties are solved exactly anyway): no fit.
            (samples[p] >= 1000).then(|| {
                let mut a = xtx[p];
                for (i, row) in a.iter_mut().enumerate() {
                    row[i] += 0.01 * samples[p] as f64;
                }
                solve(a, xty[p]).map(|x| x.round() as i32)
            })
        })
        .collect();
    println!("static WEIGHTS: [[i32; FEATURES]; PHASES] = [");
    for (p, count) in samples.iter().enumerate() {
        // A phase without a fit borrows the nearest later one.
        let w = fitted[p..]
            .iter()
            .find_map(|&f| f)
            .expect("some phase fitted");
        let lo = p as u32 * PHASE_WIDTH;
        println!(
            "    {w:?}, // empties {lo}-{}: {count} positions",
            lo + PHASE_WIDTH - 1
        );
    }
    println!("];");
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..FEATURES {
            let k = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= k * p;
            }
            b[row] -= k * b[col];
        }
    }
    let mut x = [0f64; FEATURES];
    for row in (0..FEATURES).rev() {
        let s: f64 = (row + 1..FEATURES).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}
