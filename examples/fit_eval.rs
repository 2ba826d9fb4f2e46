//! Fits the evaluation to tournament games: every position of the WTHOR games from 59 to 8
//! empties, labelled with the game's final disc differential (WOF rule) for the side to move.
//! Per phase (with the neighbouring phases' positions too), alternately: the feature weights
//! by least squares with a light ridge, then the edge and corner pattern tables by averaging what the
//! rest leaves unexplained, shrunk towards 0 for rare configurations. Every tenth game is
//! held out to show the error the fit makes on games it has not seen.
//!
//! Writes `src/eval_patterns.bin` and prints the feature table for `src/eval.rs`:
//!
//!     cargo run --release --example fit_eval [transcripts file]

use oxello::board::Color;
use oxello::eval::{
    features, pattern_indices, EDGE_CONFIGS, FEATURES, PATTERN_INSTANCES, PATTERN_VALUES, PHASES,
    PHASE_WIDTH,
};
use oxello::game::Game;

/// Rounds of alternating fits.
const ROUNDS: usize = 12;
/// Pseudo-count pulling a rarely seen edge configuration's value towards 0.
const SHRINK: f64 = 30.0;

struct Sample {
    features: [f64; FEATURES],
    patterns: [usize; PATTERN_INSTANCES],
    label: f64,
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/wthor_2024_2025_transcripts.txt".into());
    let text = std::fs::read_to_string(&path).expect("read the transcripts");
    let mut train: Vec<Vec<Sample>> = (0..PHASES).map(|_| Vec::new()).collect();
    let mut test: Vec<Vec<Sample>> = (0..PHASES).map(|_| Vec::new()).collect();
    let games = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for (n, line) in games.enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let black: i32 = fields[1].parse().expect("score");
        let black_diff = f64::from(2 * black - 64) * 100.0;
        let moves = oxello::notation::parse_transcript(fields[2]).expect("transcript");
        let mut game = Game::default();
        for &m in &moves {
            let pos = *game.position();
            let e = pos.board.empty_count();
            if (8..60).contains(&e) && pos.board.moves() != 0 {
                let label = if pos.side == Color::Black {
                    black_diff
                } else {
                    -black_diff
                };
                let phase = (e / PHASE_WIDTH) as usize;
                let sample = || Sample {
                    features: features(&pos.board).map(f64::from),
                    patterns: pattern_indices(&pos.board),
                    label,
                };
                if n % 10 == 9 {
                    test[phase].push(sample());
                } else {
                    let neighbours = phase.saturating_sub(1)..=(phase + 1).min(PHASES - 1);
                    for phase_samples in &mut train[neighbours] {
                        phase_samples.push(sample());
                    }
                }
            }
            let c = game.next_to_play().expect("game goes on");
            game.play(c, m).expect("legal move");
        }
    }
    let fits: Vec<Option<([i32; FEATURES], Vec<i16>)>> = (0..PHASES)
        .map(|p| (train[p].len() >= 1000).then(|| fit_phase(&train[p])))
        .collect();
    let mut table = Vec::with_capacity(PHASES * PATTERN_VALUES * 2);
    println!("static WEIGHTS: [[i32; FEATURES]; PHASES] = [");
    for p in 0..PHASES {
        // A phase without a fit (the last empties are solved exactly anyway) borrows the
        // nearest later one.
        let (w, values) = fits[p..]
            .iter()
            .find_map(|f| f.as_ref())
            .expect("some phase fitted");
        let lo = p as u32 * PHASE_WIDTH;
        println!(
            "    {w:?}, // empties {lo}-{}: {} positions, held-out error {}",
            lo + PHASE_WIDTH - 1,
            train[p].len(),
            held_out(&train[p], &test[p], w, values)
        );
        table.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    }
    println!("];");
    std::fs::write("src/eval_patterns.bin", table).expect("write src/eval_patterns.bin");
}

fn predict(s: &Sample, w: &[f64; FEATURES], values: &[f64]) -> f64 {
    let linear: f64 = s.features.iter().zip(w).map(|(f, w)| f * w).sum();
    linear + s.patterns.iter().map(|&i| values[i]).sum::<f64>()
}

fn fit_phase(samples: &[Sample]) -> ([i32; FEATURES], Vec<i16>) {
    let mut values = vec![0f64; PATTERN_VALUES];
    for _ in 0..ROUNDS {
        let w = fit_features(samples, &values);
        // Each edge value moves by the mean residual of the positions it appears in; the four
        // patterns of a position share its residual, so each takes an eighth.
        let mut sum = vec![0f64; PATTERN_VALUES];
        let mut count = vec![0f64; PATTERN_VALUES];
        for s in samples {
            let r = s.label - predict(s, &w, &values);
            for &i in &s.patterns {
                sum[i] += r / PATTERN_INSTANCES as f64;
                count[i] += 1.0;
            }
        }
        for i in 0..PATTERN_VALUES {
            values[i] += sum[i] / (count[i] + SHRINK);
        }
        symmetrize(&mut values);
    }
    let w = fit_features(samples, &values);
    let values = values
        .iter()
        .map(|&v| v.round().clamp(-3000.0, 3000.0) as i16)
        .collect();
    (w.map(|x| x.round() as i32), values)
}

/// Base-3 digits of `index` rearranged: digit `order[k]` of the old becomes digit `k`.
fn permute_digits<const N: usize>(index: usize, order: [usize; N]) -> usize {
    let mut digits = [0usize; N];
    let mut rest = index;
    for d in digits.iter_mut() {
        *d = rest % 3;
        rest /= 3;
    }
    order.iter().rev().fold(0, |acc, &i| acc * 3 + digits[i])
}

/// The same pattern seen in its mirror image: an edge read from the other end (a1..h1
/// reversed, b2 and g2 swapped), a corner transposed on its diagonal.
fn twin(index: usize) -> usize {
    if index < EDGE_CONFIGS {
        permute_digits(index, [7, 6, 5, 4, 3, 2, 1, 0, 9, 8])
    } else {
        EDGE_CONFIGS + permute_digits(index - EDGE_CONFIGS, [0, 3, 6, 1, 4, 7, 2, 5, 8])
    }
}

/// A pattern and its mirror image are the same shape on the board: give them one value, so
/// that the evaluation is the same under all eight board symmetries.
fn symmetrize(values: &mut [f64]) {
    for i in 0..PATTERN_VALUES {
        let m = twin(i);
        if m > i {
            let mean = (values[i] + values[m]) / 2.0;
            values[i] = mean;
            values[m] = mean;
        }
    }
}

/// Least squares (light ridge) for the feature weights, the edge values held fixed.
fn fit_features(samples: &[Sample], values: &[f64]) -> [f64; FEATURES] {
    let mut a = [[0f64; FEATURES]; FEATURES];
    let mut b = [0f64; FEATURES];
    for s in samples {
        let y = s.label - s.patterns.iter().map(|&i| values[i]).sum::<f64>();
        for (i, row) in a.iter_mut().enumerate() {
            b[i] += s.features[i] * y;
            for (cell, fj) in row.iter_mut().zip(&s.features) {
                *cell += s.features[i] * fj;
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 0.01 * samples.len() as f64;
    }
    solve(a, b)
}

/// The mean error on the held-out games, and that of the features alone for comparison.
fn held_out(train: &[Sample], test: &[Sample], w: &[i32; FEATURES], values: &[i16]) -> String {
    if test.is_empty() || train.is_empty() {
        return "n/a".into();
    }
    let plain = fit_features(train, &vec![0.0; PATTERN_VALUES]).map(|x| x.round() as i32);
    format!(
        "{:.2} discs (features alone {:.2})",
        mean_error(test, w, values) / 100.0,
        mean_error(test, &plain, &vec![0; PATTERN_VALUES]) / 100.0
    )
}

fn mean_error(samples: &[Sample], w: &[i32; FEATURES], values: &[i16]) -> f64 {
    let w = w.map(f64::from);
    let values: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    let total: f64 = samples
        .iter()
        .map(|s| (s.label - predict(s, &w, &values)).abs())
        .sum();
    total / samples.len().max(1) as f64
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
