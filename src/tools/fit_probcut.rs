//! Measures how far a shallow search's score lies from a deeper one's, the error models behind
//! ProbCut (`src/engine/search/probcut.rs`). Positions come from the WTHOR games at a few counts of
//! empties:
//!
//! - `endgame` (the default): each position is solved exactly and searched to shallow depths;
//!   prints per (empties, depth) the mean and standard deviation of exact - shallow, in discs,
//!   then the model as `src/engine/search/probcut.rs` holds it: the straight line through the
//!   standard deviations against the depth, and the bias, the mean of the even-depth means
//!   (depths 2 and more, those the solver's ProbCut uses); searches that all reached the end
//!   are left out of both.
//! - `midgame`: each position is searched without ProbCut to [`MIDGAME_DEPTH`]; for every pair
//!   of a depth and the shallow depth Multi-ProbCut tests it with, prints the mean and standard
//!   deviation of deep - shallow, then fits the standard deviation as a linear function of the
//!   shallow depth, the depth and the empties, and prints the model as
//!   `src/engine/search/probcut.rs` holds it, named by the weights it was fitted to.
//!
//!     oxello fit-probcut [endgame|midgame] [--games FILE]

use crate::engine::board::{Board, Position};
use crate::engine::eval::DISC;
use crate::engine::game::Game;
use crate::engine::search::probcut::midgame_shallow_depth;
use crate::engine::search::{search, Limits};
use crate::engine::tt::TranspositionTable;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Positions sampled per count of empties.
const SAMPLES: usize = 150;
const ENDGAME_EMPTIES: [u32; 5] = [10, 13, 16, 19, 22];
const ENDGAME_DEPTHS: std::ops::RangeInclusive<u32> = 0..=6;
/// Midgame positions sampled per count of empties.
const MIDGAME_SAMPLES: usize = 100;
const MIDGAME_EMPTIES: [u32; 8] = [20, 24, 28, 32, 36, 40, 44, 48];
/// The deepest midgame search measured.
const MIDGAME_DEPTH: u32 = 10;
/// The shallowest depth measured and fitted. Nodes of depth 2 test with the evaluation itself
/// (`probcut::MIDGAME_MIN_DEPTH`), at the deviation the fit to depths 3 and more extrapolates
/// there: the engine was measured so (docs/results.md).
const MIDGAME_MIN_FITTED: u32 = 3;

/// Which error model to measure.
#[derive(Copy, Clone, ValueEnum)]
pub enum Model {
    /// The endgame solver's: shallow searches against the exact score.
    Endgame,
    /// Multi-ProbCut's: shallow searches against a deeper one.
    Midgame,
}

#[derive(Args)]
pub struct FitProbcutArgs {
    /// The model to measure and print.
    #[arg(value_enum, default_value = "endgame")]
    pub model: Model,
    /// Games to sample positions from: WTHOR lines (`year id transcript ...`).
    #[arg(long, default_value = "tests/data/wthor_2024_2025_transcripts.txt")]
    pub games: PathBuf,
}

/// Measures the model and prints it as `src/engine/search/probcut.rs` holds it.
pub fn run(args: &FitProbcutArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.games) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("oxello: {}: {e}", args.games.display());
            return ExitCode::FAILURE;
        }
    };
    let transcripts: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    let mut tt = TranspositionTable::new(64);
    match args.model {
        Model::Midgame => fit_midgame(&mut tt, &transcripts),
        Model::Endgame => fit_endgame(&mut tt, &transcripts),
    }
    ExitCode::SUCCESS
}

/// The boards with `empties` empties of every 7th game, at most `samples`.
fn sample(transcripts: &[&str], empties: u32, samples: usize) -> Vec<Board> {
    transcripts
        .iter()
        .step_by(7)
        .filter_map(|t| position_at(t, empties))
        .take(samples)
        .collect()
}

/// Mean and standard deviation, in discs, of centi-disc errors.
fn mean_sd(errors: &[i32]) -> (f64, f64) {
    let n = errors.len() as f64;
    let discs = |e: &i32| f64::from(*e) / f64::from(DISC);
    let mean = errors.iter().map(discs).sum::<f64>() / n;
    let var = errors
        .iter()
        .map(|e| (discs(e) - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var.sqrt())
}

fn fit_endgame(tt: &mut TranspositionTable, transcripts: &[&str]) {
    let (mut sds, mut even_means) = (Vec::new(), Vec::new());
    for &empties in &ENDGAME_EMPTIES {
        let boards = sample(transcripts, empties, SAMPLES);
        let exact: Vec<i32> = boards.iter().map(|b| score(tt, b, None)).collect();
        for depth in ENDGAME_DEPTHS {
            let errors: Vec<i32> = boards
                .iter()
                .zip(&exact)
                .map(|(b, &x)| x - score(tt, b, Some(depth)))
                .collect();
            let (mean, sd) = mean_sd(&errors);
            let n = errors.len();
            println!(
                "empties {empties:2} depth {depth}: mean {mean:+6.2} sd {sd:5.2} ({n} positions)"
            );
            // Searches that all reached the end tell nothing of a shallow one's error.
            if errors.iter().all(|&e| e == 0) {
                continue;
            }
            sds.push((f64::from(depth), sd));
            if depth >= 2 && depth % 2 == 0 {
                even_means.push(mean);
            }
        }
    }
    let (intercept, slope) = line(&sds);
    let bias = even_means.iter().sum::<f64>() / even_means.len() as f64;
    println!("\nsd = {intercept:.3} {slope:+.3} * depth, bias {bias:+.3} (discs)");
    println!(
        "\npub(crate) const ENDGAME_MODEL: EndgameModel = EndgameModel {{\n    weights: 0x{:016x},\n    intercept: {},\n    per_ply: {},\n    bias: {},\n}};",
        crate::engine::eval::id(),
        centi(intercept),
        centi(slope),
        centi(bias)
    );
}

/// The least-squares straight line y = a + b * x through `points` (x, y): (a, b).
fn line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let slope = sxy / sxx;
    (my - slope * mx, slope)
}

/// One measured standard deviation: (shallow depth, depth, empties, sd in discs).
type Point = (f64, f64, f64, f64);

fn fit_midgame(tt: &mut TranspositionTable, transcripts: &[&str]) {
    let mut points: Vec<Point> = Vec::new();
    for &empties in &MIDGAME_EMPTIES {
        let boards = sample(transcripts, empties, MIDGAME_SAMPLES);
        let scores: Vec<Vec<i32>> = boards.iter().map(|b| depth_scores(tt, b)).collect();
        for depth in MIDGAME_MIN_FITTED..=MIDGAME_DEPTH {
            let shallow = midgame_shallow_depth(depth);
            let errors: Vec<i32> = scores
                .iter()
                .map(|s| s[depth as usize] - s[shallow as usize])
                .collect();
            let (mean, sd) = mean_sd(&errors);
            println!(
                "empties {empties:2} depth {depth:2} shallow {shallow}: mean {mean:+6.2} sd {sd:5.2}"
            );
            points.push((f64::from(shallow), f64::from(depth), f64::from(empties), sd));
        }
    }
    let [a, b, c, d] = least_squares(&points);
    println!("\nsd = {a:.3} {b:+.3} * shallow {c:+.3} * depth {d:+.4} * empties (discs)");
    println!(
        "\npub(crate) const MIDGAME_MODEL: MidgameModel = MidgameModel {{\n    weights: 0x{:016x},\n    intercept: {},\n    per_shallow_ply: {},\n    per_ply: {},\n    per_empty: {},\n}};",
        crate::engine::eval::id(),
        centi(a),
        centi(b),
        centi(c),
        centi(d)
    );
}

/// Discs as whole centi-discs.
fn centi(discs: f64) -> i32 {
    (discs * f64::from(DISC)).round() as i32
}

/// The scores of every iteration from 0 (the evaluation) to [`MIDGAME_DEPTH`], without ProbCut.
fn depth_scores(tt: &mut TranspositionTable, b: &Board) -> Vec<i32> {
    tt.clear();
    let limits = Limits {
        depth: Some(MIDGAME_DEPTH),
        // Never an exact solve: every iteration a midgame one.
        exact_empties: Some(0),
        probcut: false,
        ..Limits::default()
    };
    let mut scores = vec![crate::engine::eval::evaluate(b)];
    search(tt, &AtomicBool::new(false), b, &limits, |r| {
        scores.push(r.score)
    });
    assert_eq!(
        scores.len() as u32,
        MIDGAME_DEPTH + 1,
        "an iteration per depth"
    );
    scores
}

/// The least-squares fit of sd = a + b * shallow + c * depth + d * empties, by the normal
/// equations.
fn least_squares(points: &[Point]) -> [f64; 4] {
    let mut m = [[0.0f64; 5]; 4];
    for &(s, d, e, sd) in points {
        let x = [1.0, s, d, e];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += x[i] * x[j];
            }
            m[i][4] += x[i] * sd;
        }
    }
    solve(m)
}

/// Gaussian elimination with partial pivoting on an augmented 4x5 matrix.
fn solve(mut m: [[f64; 5]; 4]) -> [f64; 4] {
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .expect("rows");
        m.swap(col, pivot);
        let pivot_row = m[col];
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r.iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    std::array::from_fn(|i| m[i][4] / m[i][i])
}

/// The position of a game with `empties` empty squares and a move to play, if it has one.
fn position_at(transcript: &str, empties: u32) -> Option<Board> {
    let moves = crate::engine::notation::parse_transcript(transcript).ok()?;
    let played = 60 - empties as usize;
    let game = Game::replay(Position::start(), moves.get(..played)?).ok()?;
    let b = game.position().board;
    (b.empty_count() == empties && b.moves() != 0).then_some(b)
}

/// The score of a search to `depth` (exact when `None`, static at 0), centi-discs, from a
/// clear table.
fn score(tt: &mut TranspositionTable, b: &Board, depth: Option<u32>) -> i32 {
    if depth == Some(0) {
        return crate::engine::eval::evaluate(b);
    }
    tt.clear();
    let limits = Limits {
        depth,
        ..Limits::default()
    };
    search(tt, &AtomicBool::new(false), b, &limits, |_| {}).score
}
