//! The batch jobs behind the subcommands (perft, bench, solve, analyze; matches in
//! [`matches`]; training data and weights in [`training`]): each prints its report on stdout
//! and returns the process's exit code.

use super::args::threads_or_cores;
use crate::engine::board::Board;
use crate::engine::eval::DISC;
use crate::engine::notation::{parse_obf, parse_position, ObfEntry};
use crate::engine::perft::{perft_parallel, PerftMode};
use crate::engine::search::{search, Level, Limits};
use crate::engine::tt::TranspositionTable;
use crate::play::clock::{solvable_empties, DEFAULT_ANALYSIS_SECONDS, MAX_SECONDS};
use crate::play::format::{best_line, info_lines, vertex_name};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub mod games;
pub mod match_shards;
pub mod matches;
pub mod training;

/// Perft depths beyond this run for minutes to hours: they need `--force`.
const PERFT_UNFORCED: u32 = 14;

pub fn run_perft(args: &PerftArgs) -> ExitCode {
    let depth = args.depth;
    if depth > PERFT_UNFORCED && !args.force {
        eprintln!(
            "oxello perft: depth {depth} would run for hours; depths beyond {PERFT_UNFORCED} need --force"
        );
        return ExitCode::FAILURE;
    }
    let mode = match args.mode {
        Mode::A => PerftMode::PassIsPly,
        Mode::C => PerftMode::PassIsFree,
    };
    let start = Instant::now();
    let count = perft_parallel(&Board::START, depth, mode, args.threads as usize);
    let secs = start.elapsed().as_secs_f64();
    outln!("perft {depth}: {count}");
    outln!(
        "time {secs:.3} s, {:.1} M leaves/s",
        count as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

pub fn run_bench(threads: usize) -> ExitCode {
    outln!("part                 positions        nodes     time      nodes/s");
    let bench = crate::tools::bench::run(threads, |p| {
        outln!(
            "{:<20} {:>9} {:>12} {:>7.3}s {:>12.0}",
            p.name,
            p.positions,
            p.nodes,
            p.elapsed.as_secs_f64(),
            p.nodes_per_second()
        );
    });
    let searched = &bench.parts[1..];
    let secs: f64 = searched.iter().map(|p| p.elapsed.as_secs_f64()).sum();
    outln!(
        "search total: {} nodes, {secs:.3} s, {:.0} nodes/s",
        bench.signature,
        bench.signature as f64 / secs.max(1e-9)
    );
    outln!("signature: {}", bench.signature);
    ExitCode::SUCCESS
}

pub fn run_solve(args: &SolveArgs) -> ExitCode {
    let (file, wld) = (&args.file, args.wld);
    let (hash, threads) = (args.hash.get(), threads_or_cores(args.threads));
    let entries = match std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| parse_obf(&t).map_err(|e| e.to_string()))
    {
        Ok(entries) if entries.is_empty() => {
            eprintln!("oxello solve: {}: no position in the file", file.display());
            return ExitCode::FAILURE;
        }
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("oxello solve: {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let mut tt = TranspositionTable::new(hash);
    let stop = AtomicBool::new(false);
    let (mut nodes, mut secs, mut mismatches) = (0u64, 0f64, 0);
    // A win/loss/draw search shows its depth and selectivity too, as the peers print it.
    let depth_column = if wld { "  depth" } else { "" };
    outln!("  #  empties  value  move  expected      nodes     time      nodes/s{depth_column}");
    for (i, entry) in entries.iter().enumerate() {
        tt.clear();
        let limits = Limits {
            wld,
            threads,
            ..Limits::default()
        };
        let report = search(&tt, &stop, &entry.position.board, &limits, |_| {});
        // A win/loss/draw search proves a bound beyond ±1 disc (fail-soft): only its sign
        // is the result.
        let value = if wld {
            (report.score / DISC).signum()
        } else {
            report.score / DISC
        };
        let best = report.best_move();
        let expected = entry.value().map(|v| if wld { v.signum() } else { v });
        let ok = expected.is_none_or(|v| v == value) && good_move(entry, best, value, wld);
        if !ok {
            mismatches += 1;
        }
        outln!(
            "{:3}  {:7}  {:+5}  {:>4}  {:>8}  {:>10}  {:7.3}s  {:11.0}{}{}",
            i + 1,
            entry.position.board.empty_count(),
            value,
            vertex_name(best),
            expected.map_or("-".to_string(), |v| format!("{v:+}")),
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nodes_per_second(),
            if wld {
                format!("  {}", report.depth_at())
            } else {
                String::new()
            },
            if ok { "" } else { "  MISMATCH" }
        );
        nodes += report.nodes;
        secs += report.elapsed.as_secs_f64();
    }
    outln!(
        "total: {} positions, {mismatches} mismatches, {nodes} nodes, {secs:.3} s, {:.0} nodes/s",
        entries.len(),
        nodes as f64 / secs.max(1e-9)
    );
    if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Whether the move chosen (`best`, of value `value`) agrees with the file. A file may list
/// only some moves (Edax lists one best move): the move is wrong only when the file gives it
/// a score below the value found.
fn good_move(entry: &ObfEntry, best: Option<u32>, value: i32, wld: bool) -> bool {
    best.is_none_or(|m| {
        let listed = entry.scores.iter().find(|&&(s, _)| s == m).map(|&(_, v)| v);
        listed.is_none_or(|v| {
            if wld {
                v.signum() == value.signum()
            } else {
                v == value
            }
        })
    })
}

/// `oxello levels`: the level table.
pub fn run_levels() -> ExitCode {
    out!("{}", crate::engine::search::level::table());
    ExitCode::SUCCESS
}

pub fn run_analyze(args: &AnalyzeArgs) -> ExitCode {
    let (hash, threads) = (args.hash.get(), threads_or_cores(args.threads));
    let position = match parse_position(&args.position) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("oxello analyze: {e}");
            return ExitCode::FAILURE;
        }
    };
    let level = args.depth.and_then(Level::new);
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            eprintln!("oxello analyze: --time {t}: expected a positive number of seconds");
            return ExitCode::FAILURE;
        }
        Some(t) => Some(t.min(MAX_SECONDS)),
        None => level.is_none().then_some(DEFAULT_ANALYSIS_SECONDS),
    }
    .map(Duration::from_secs_f64);
    let limits = Limits {
        level,
        soft_time: time,
        hard_time: time,
        lines: args.lines as usize,
        exact_empties: time.map(solvable_empties),
        threads,
        ..Limits::default()
    };
    let tt = TranspositionTable::new(hash);
    let stop = AtomicBool::new(false);
    let report = search(&tt, &stop, &position.board, &limits, |r| {
        out!("{}", info_lines(r))
    });
    out!("{}", best_line(&report));
    ExitCode::SUCCESS
}

#[derive(Copy, Clone, ValueEnum)]
pub enum Mode {
    /// A pass is a ply; a finished game stays one leaf at greater depths (the published table).
    A,
    /// A pass costs no depth.
    C,
}

#[derive(Args)]
pub struct PerftArgs {
    /// Plies to count, 1-14 (up to 60 with --force).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// How passes count: a (a pass is a ply, the published convention) or c.
    #[arg(long, value_enum, default_value = "a")]
    pub mode: Mode,
    /// Threads to split the root moves over.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// Allow depths beyond 14.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args)]
pub struct SolveArgs {
    /// An Edax .obf file: one position per line, optionally with `move:score` fields.
    pub file: PathBuf,
    /// Only win/draw/loss.
    #[arg(long)]
    pub wld: bool,
    /// Transposition table size in MiB (1-4096).
    #[arg(long, default_value = "64", value_parser = str::parse::<crate::play::values::HashMib>)]
    pub hash: crate::play::values::HashMib,
    /// Threads per search, 1-256 (default: every core).
    #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
    pub threads: Option<crate::play::values::Threads>,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// The position: 64 squares a1..h8 (X black, O white, - empty) and the side to move.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// The level, 1-60 (see `oxello levels`: a midgame depth, or an endgame search with its
    /// selectivity); 0 or none: search for --time.
    #[arg(long, value_parser = Level::parse_arg)]
    pub depth: Option<u32>,
    /// Seconds to think (default 10 when no --depth is given).
    #[arg(long)]
    pub time: Option<f64>,
    /// Best lines to show, 1-32.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=32))]
    pub lines: u64,
    /// Transposition table size in MiB (1-4096).
    #[arg(long, default_value = "64", value_parser = str::parse::<crate::play::values::HashMib>)]
    pub hash: crate::play::values::HashMib,
    /// Threads per search, 1-256 (default: every core).
    #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
    pub threads: Option<crate::play::values::Threads>,
}
