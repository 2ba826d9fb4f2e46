use clap::{Parser, Subcommand, ValueEnum};
use oxello::board::Board;
use oxello::eval::DISC;
use oxello::notation::{parse_obf, parse_position, square_name};
use oxello::perft::{perft_parallel, PerftMode};
use oxello::search::{Limits, Report, Searcher};
use oxello::tt::TranspositionTable;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use std::time::Instant;

/// Oxello, an Othello engine. With no subcommand it speaks GTP on stdin/stdout.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Transposition table size in MiB for the GTP engine.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Copy, Clone, ValueEnum)]
enum Mode {
    /// A pass is a ply; a finished game stays one leaf at greater depths (the published table).
    A,
    /// A pass costs no depth.
    C,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree from the start position.
    Perft {
        depth: u32,
        #[arg(long, value_enum, default_value = "a")]
        mode: Mode,
        /// Threads to split the root moves over.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Solve every position of an .obf file exactly and compare with its annotated scores.
    Solve {
        file: std::path::PathBuf,
        /// Only win/draw/loss.
        #[arg(long)]
        wld: bool,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Search one position ("<64 squares> <side>") and print every iteration.
    Analyze {
        position: String,
        #[arg(long)]
        depth: Option<u32>,
        /// Seconds to think.
        #[arg(long)]
        time: Option<f64>,
        /// Best lines to show.
        #[arg(long, default_value_t = 1)]
        lines: usize,
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            depth,
            mode,
            threads,
        }) => run_perft(depth, mode, threads),
        Some(Command::Solve { file, wld, hash }) => run_solve(&file, wld, hash),
        Some(Command::Analyze {
            position,
            depth,
            time,
            lines,
            hash,
        }) => run_analyze(&position, depth, time, lines, hash),
        None => {
            oxello::gtp::run(cli.hash.clamp(1, 4096));
            ExitCode::SUCCESS
        }
    }
}

fn run_perft(depth: u32, mode: Mode, threads: usize) -> ExitCode {
    let mode = match mode {
        Mode::A => PerftMode::PassIsPly,
        Mode::C => PerftMode::PassIsFree,
    };
    let start = Instant::now();
    let count = perft_parallel(&Board::START, depth, mode, threads.max(1));
    let secs = start.elapsed().as_secs_f64();
    println!("perft {depth}: {count}");
    println!(
        "time {secs:.3} s, {:.1} M leaves/s",
        count as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

/// Formats a centi-disc score as discs, `+2.35`, or `+4` when exact.
fn disc_score(score: i32, exact: bool) -> String {
    if exact {
        format!("{:+}", score / DISC)
    } else {
        format!("{:+.2}", f64::from(score) / f64::from(DISC))
    }
}

fn run_solve(file: &std::path::Path, wld: bool, hash: usize) -> ExitCode {
    let entries = match std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| parse_obf(&t).map_err(|e| e.to_string()))
    {
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let mut tt = TranspositionTable::new(hash);
    let stop = AtomicBool::new(false);
    let (mut nodes, mut secs, mut mismatches) = (0u64, 0f64, 0);
    println!("  #  empties  value  move  expected      nodes     time      nodes/s");
    for (i, entry) in entries.iter().enumerate() {
        tt.clear();
        let limits = Limits {
            wld,
            ..Limits::default()
        };
        let report = Searcher::new(&mut tt, &stop).run(&entry.position.board, &limits, |_| {});
        let value = report.score / DISC;
        let best = report.best_move();
        let expected = entry.value().map(|v| if wld { v.signum() } else { v });
        let good_move = best.is_none_or(|m| {
            entry.scores.is_empty()
                || entry.best_moves().contains(&m)
                || wld
                    && entry
                        .scores
                        .iter()
                        .any(|&(s, v)| s == m && v.signum() == value.signum())
        });
        let ok = expected.is_none_or(|v| v == value) && good_move;
        if !ok {
            mismatches += 1;
        }
        println!(
            "{:3}  {:7}  {:+5}  {:>4}  {:>8}  {:>10}  {:7.3}s  {:11.0}{}",
            i + 1,
            entry.position.board.empty_count(),
            value,
            best.map_or("pass".to_string(), square_name),
            expected.map_or("-".to_string(), |v| format!("{v:+}")),
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nodes_per_second(),
            if ok { "" } else { "  MISMATCH" }
        );
        nodes += report.nodes;
        secs += report.elapsed.as_secs_f64();
    }
    println!(
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

fn print_report(r: &Report) {
    for (i, line) in r.lines.iter().enumerate() {
        println!(
            "depth {}{} line {} score {} nodes {} time {:.3} nps {:.0} pv {}",
            r.depth,
            if r.exact {
                if r.wld {
                    " wld"
                } else {
                    " exact"
                }
            } else {
                ""
            },
            i + 1,
            disc_score(line.score, r.exact),
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second(),
            line.pv
                .iter()
                .map(|&m| square_name(m))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

fn run_analyze(
    position: &str,
    depth: Option<u32>,
    time: Option<f64>,
    lines: usize,
    hash: usize,
) -> ExitCode {
    let position = match parse_position(position) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let time = time
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(Duration::from_secs_f64);
    let limits = Limits {
        depth,
        soft_time: time,
        hard_time: time,
        lines,
        ..Limits::default()
    };
    let mut tt = TranspositionTable::new(hash);
    let stop = AtomicBool::new(false);
    let report = Searcher::new(&mut tt, &stop).run(&position.board, &limits, print_report);
    println!(
        "best {} score {} depth {} nodes {} time {:.3}",
        report.best_move().map_or("pass".to_string(), square_name),
        disc_score(report.score, report.exact),
        report.depth,
        report.nodes,
        report.elapsed.as_secs_f64()
    );
    ExitCode::SUCCESS
}
