use clap::{Parser, Subcommand, ValueEnum};
use oxello::board::Board;
use oxello::perft::{perft_parallel, PerftMode};
use std::process::ExitCode;
use std::time::Instant;

/// Oxello, an Othello engine. With no subcommand it speaks GTP on stdin/stdout.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
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
        None => ExitCode::SUCCESS,
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
