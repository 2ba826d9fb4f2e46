use clap::{Parser, Subcommand};
use oxello::batch::matches::{run_match, MatchArgs};
use oxello::batch::training::{run_accuracy, run_selfplay, run_train, SelfplayArgs, TrainArgs};
use oxello::batch::{
    hash_mib, run_analyze, run_bench, run_perft, run_solve, threads_or_cores, Mode,
};
use oxello::play::Options;
use std::process::ExitCode;

/// Oxello, an Othello engine.
///
/// With no subcommand it speaks GTP on stdin/stdout, as GUIs (Quarry) and match scripts
/// expect, or NBoard's protocol when the first line is `nboard <version>` (as the NBoard GUI
/// sends): every command, reply and error is listed in protocol.md. The subcommands are batch
/// jobs.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    /// GTP engine: transposition table size in MiB (1-4096).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// GTP engine: search this many plies per move (as `oxello-depth`), for matches.
    #[arg(long)]
    depth: Option<u32>,
    /// GTP engine: think this many seconds per move whatever the clock (as `oxello-move_time`;
    /// 0 is off, at most a day).
    #[arg(long, allow_negative_numbers = true, value_parser = oxello::timeman::parse_seconds)]
    move_time: Option<f64>,
    /// GTP/NBoard engine: also write the log (every search iteration, every move, and the
    /// protocol traffic both ways) to this file, emptied first.
    #[arg(long)]
    log_file: Option<std::path::PathBuf>,
    /// GTP engine: threads per search, 1-256 (default: every core; as `oxello-threads`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Evaluation weights file to use instead of the built-in one (see `oxello train`).
    #[arg(long, global = true)]
    eval_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree from the start position.
    Perft {
        /// Plies to count, 1-14 (up to 60 with --force).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// How passes count: a (a pass is a ply, the published convention) or c.
        #[arg(long, value_enum, default_value = "a")]
        mode: Mode,
        /// Threads to split the root moves over.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: u64,
        /// Allow depths beyond 14.
        #[arg(long)]
        force: bool,
    },
    /// Solve every position of an .obf file exactly and compare with its annotated scores.
    Solve {
        /// An Edax .obf file: one position per line, optionally with `move:score` fields.
        file: std::path::PathBuf,
        /// Only win/draw/loss.
        #[arg(long)]
        wld: bool,
        /// Transposition table size in MiB (1-4096).
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Threads per search, 1-256 (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
    /// Search one position and print every iteration, as GTP's `analyze` does.
    ///
    /// Example: oxello analyze "---------------------------OX------XO--------------------------- X" --depth 6
    Analyze {
        /// The position: 64 squares a1..h8 (X black, O white, - empty) and the side to move.
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// Deepest midgame iteration, 1-60 (the endgame is solved exactly when it can be).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Seconds to think (default 10 when no --depth is given).
        #[arg(long)]
        time: Option<f64>,
        /// Best lines to show, 1-32.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=32))]
        lines: u64,
        /// Transposition table size in MiB (1-4096).
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Threads per search, 1-256 (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
    /// Play a match between two GTP engines, each opening twice with colours swapped.
    Match(MatchArgs),
    /// Run the fixed benchmark (perft, midgame searches, exact solves) and print its node
    /// signature.
    Bench {
        /// Threads per search, 1-256 (the signature is that of --threads 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Speak NBoard's protocol on stdin/stdout (also chosen when the first line is
    /// `nboard <version>`, so NBoard needs no flag).
    Nboard,
    /// Fit evaluation weights to training records and write a weights file.
    Train(TrainArgs),
    /// Measure the evaluation: the mean error of the static evaluation (--depth 0) or of a
    /// fixed-depth search against the exact records of a training-record file.
    Accuracy {
        /// A record file (from `oxello selfplay`); its `exact` records at --empties are used.
        file: std::path::PathBuf,
        /// Use the positions with this many empties.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
        empties: u32,
        /// Search depth, 0 for the static evaluation.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=30))]
        depth: u32,
    },
    /// Generate training data: positions labelled by the exact solver (see src/training/record.rs).
    Selfplay(SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = oxello::io::init_logging(cli.log_file.as_deref()) {
        eprintln!("oxello: {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = oxello::eval::load(cli.eval_file.as_deref()) {
        eprintln!("oxello: evaluation weights: {e}");
        return ExitCode::FAILURE;
    }
    match cli.command {
        Some(Command::Perft {
            depth,
            mode,
            threads,
            force,
        }) => run_perft(depth, mode, threads as usize, force),
        Some(Command::Solve {
            file,
            wld,
            hash,
            threads,
        }) => run_solve(&file, wld, hash_mib(hash), threads_or_cores(threads)),
        Some(Command::Analyze {
            position,
            depth,
            time,
            lines,
            hash,
            threads,
        }) => run_analyze(
            &position,
            (depth, time),
            lines as usize,
            hash_mib(hash),
            threads_or_cores(threads),
        ),
        Some(Command::Match(args)) => run_match(args),
        Some(Command::Bench { threads }) => run_bench(threads as usize),
        Some(Command::Selfplay(args)) => run_selfplay(args),
        Some(Command::Train(args)) => run_train(args),
        Some(Command::Accuracy {
            file,
            empties,
            depth,
        }) => run_accuracy(&file, empties, depth),
        None | Some(Command::Nboard) => {
            let nboard = matches!(cli.command, Some(Command::Nboard));
            let options = Options {
                hash_mib: hash_mib(cli.hash),
                depth: cli.depth.filter(|&d| d > 0),
                move_time: cli.move_time.filter(|&t| t > 0.0),
                threads: threads_or_cores(cli.threads),
            };
            serve(options, nboard);
            ExitCode::SUCCESS
        }
    }
}

/// Runs the engine on stdin/stdout: NBoard if the first line is `nboard <version>` (or if
/// `nboard` is asked for), GTP otherwise.
fn serve(options: Options, nboard: bool) {
    let input = oxello::io::spawn_readers();
    let first = input.recv().unwrap_or(oxello::io::Input::Eof);
    let stdout = std::io::stdout();
    if nboard || oxello::io::is_nboard_hello(&first) {
        oxello::nboard::run(first, input, stdout.lock(), &options);
    } else {
        oxello::gtp::run(first, input, stdout.lock(), &options);
    }
}
