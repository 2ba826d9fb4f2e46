use clap::{Parser, Subcommand, ValueEnum};
use oxello::board::Board;
use oxello::eval::evaluate;
use oxello::eval::weights::{checksum, Weights, PHASE_WIDTH};
use oxello::eval::DISC;
use oxello::match_runner::stats::Sprt;
use oxello::match_runner::{
    record, run_match as run_match_games, summary, ClockSpec, EngineSpec, MatchConfig,
};
use oxello::notation::{parse_obf, parse_position};
use oxello::perft::{perft_parallel, PerftMode};
use oxello::play::Options;
use oxello::report::{best_line, info_lines, vertex_name};
use oxello::search::{search, Limits};
use oxello::timeman::solvable_empties;
use oxello::training::record::{parse_records, Label, Record};
use oxello::training::{fit, selfplay};
use oxello::tt::{TranspositionTable, HASH_MIB};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use std::time::Instant;

/// Writes to stdout; when nobody reads it any more (a closed pipe, as with `| head`), the job
/// has no one to report to and ends quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if write!(stdout, $($arg)*).and_then(|_| stdout.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

/// [`out!`] with a newline.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

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
    /// GTP engine: think this many seconds per move whatever the clock (as `oxello-move_time`).
    #[arg(long)]
    move_time: Option<f64>,
    /// GTP engine: threads per search, 1-256 (default: every core; as `oxello-threads`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Evaluation weights file to use instead of the built-in one (see `oxello train`).
    #[arg(long, global = true)]
    eval_file: Option<std::path::PathBuf>,
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

/// Perft depths beyond this run for minutes to hours: they need `--force`.
const PERFT_UNFORCED: u32 = 14;
/// Thinking time of `oxello analyze` when neither `--depth` nor `--time` is given.
const DEFAULT_ANALYZE_SECONDS: f64 = 10.0;

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

#[derive(clap::Args)]
struct TrainArgs {
    /// Training record files (from `oxello selfplay`); give several to merge them.
    #[arg(long = "data", required = true, num_args = 1)]
    data: Vec<std::path::PathBuf>,
    /// Write the weights here.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Leave out every position of the games in this file (a held-out test set).
    #[arg(long)]
    exclude: Option<std::path::PathBuf>,
    /// Passes over the data per phase.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam's step in discs (it decays to a tenth).
    #[arg(long, default_value_t = 0.1)]
    learning_rate: f64,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-3)]
    l2: f64,
    /// Weight of a `played` record against an `exact` one (1).
    #[arg(long, default_value_t = 1.0)]
    played_weight: f64,
    /// Threads, each fitting whole phases (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
}

#[derive(clap::Args)]
struct SelfplayArgs {
    /// Append the records to this file (created if missing; positions already in it are not
    /// written again).
    #[arg(long)]
    out: std::path::PathBuf,
    /// Label the games of this file (one transcript per line, as the WTHOR and Egaroucid
    /// lists) instead of playing new ones.
    #[arg(long)]
    games_file: Option<std::path::PathBuf>,
    /// Games to play, or at most this many games of the file.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Index of the first game (extend a self-play run with the same seed, or skip a file's
    /// first games).
    #[arg(long, default_value_t = 0)]
    start: usize,
    /// Leave out every position of the games in this file (a held-out test set).
    #[arg(long)]
    exclude: Option<std::path::PathBuf>,
    /// Positions with at most this many empties get the solver's exact score, 0-30.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,
    /// Random moves that open a self-play game: "LOW-HIGH", each game draws a count.
    #[arg(long, default_value = "8-20")]
    random_plies: String,
    /// Depth of the searches that choose the later self-play moves, 1-20.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    noise_depth: u32,
    /// Softmax temperature of that choice, in discs (0: always the best move).
    #[arg(long, default_value_t = 2.0)]
    temperature: f64,
    /// From this many empties on, self-play takes the search's best move, without noise.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    greedy_empties: u32,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, 1-256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// Each worker's transposition table in MiB (1-4096).
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// The threads asked for, or one per core.
fn threads_or_cores(requested: Option<u64>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// A table size within range, with a word on stderr when it had to be moved there.
fn hash_mib(requested: usize) -> usize {
    let mib = requested.clamp(*HASH_MIB.start(), *HASH_MIB.end());
    if mib != requested {
        eprintln!(
            "oxello: --hash {requested} is outside {}-{} MiB; using {mib} MiB",
            HASH_MIB.start(),
            HASH_MIB.end()
        );
    }
    mib
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine's command line (give two), e.g. "/usr/games/gtp-rhino -l 3".
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Names for the two engines (default: the program names).
    #[arg(long = "name")]
    names: Vec<String>,
    /// Openings, one transcript per line (e.g. the XOT list); random openings without it.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Shuffle the openings with this seed (also seeds random openings).
    #[arg(long)]
    seed: Option<u64>,
    /// Plies of a random opening.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seconds per move; once for both engines or once per engine (0: no clock, for an
    /// engine that plays by level).
    #[arg(long, conflicts_with = "time_control")]
    time_per_move: Vec<f64>,
    /// Main time plus increment per move, "M+I" in seconds, or "none" for an engine without
    /// a clock (it is sent no time commands); once, or once per engine: "--time-control 5+0
    /// --time-control none" clocks the first engine only.
    #[arg(long)]
    time_control: Vec<String>,
    /// Seconds to wait for a move from an engine without a clock before it loses.
    #[arg(long, default_value_t = 600.0)]
    move_timeout: f64,
    /// Seconds of lateness forgiven beyond the clock.
    #[arg(long, default_value_t = 0.5)]
    grace: f64,
    /// Stop early by SPRT: elo0 elo1 alpha beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// Write every game as a GGF record to this file.
    #[arg(long)]
    ggf_out: Option<std::path::PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
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
                move_time: cli.move_time.filter(|t| t.is_finite() && *t > 0.0),
                threads: threads_or_cores(cli.threads),
            };
            oxello::frontend::run(options, nboard);
            ExitCode::SUCCESS
        }
    }
}

fn run_perft(depth: u32, mode: Mode, threads: usize, force: bool) -> ExitCode {
    if depth > PERFT_UNFORCED && !force {
        eprintln!(
            "oxello perft: depth {depth} would run for hours; depths beyond {PERFT_UNFORCED} need --force"
        );
        return ExitCode::FAILURE;
    }
    let mode = match mode {
        Mode::A => PerftMode::PassIsPly,
        Mode::C => PerftMode::PassIsFree,
    };
    let start = Instant::now();
    let count = perft_parallel(&Board::START, depth, mode, threads);
    let secs = start.elapsed().as_secs_f64();
    outln!("perft {depth}: {count}");
    outln!(
        "time {secs:.3} s, {:.1} M leaves/s",
        count as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}

fn run_bench(threads: usize) -> ExitCode {
    outln!("part                 positions        nodes     time      nodes/s");
    let bench = oxello::bench::run(threads, |p| {
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

fn run_solve(file: &std::path::Path, wld: bool, hash: usize, threads: usize) -> ExitCode {
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
    outln!("  #  empties  value  move  expected      nodes     time      nodes/s");
    for (i, entry) in entries.iter().enumerate() {
        tt.clear();
        let limits = Limits {
            wld,
            threads,
            ..Limits::default()
        };
        let report = search(&tt, &stop, &entry.position.board, &limits, |_| {});
        let value = report.score / DISC;
        let best = report.best_move();
        let expected = entry.value().map(|v| if wld { v.signum() } else { v });
        // A file may list only some moves (Edax lists one best move): the chosen move is
        // wrong only when the file gives it a score below the value found.
        let good_move = best.is_none_or(|m| {
            let listed = entry.scores.iter().find(|&&(s, _)| s == m).map(|&(_, v)| v);
            listed.is_none_or(|v| {
                if wld {
                    v.signum() == value.signum()
                } else {
                    v == value
                }
            })
        });
        let ok = expected.is_none_or(|v| v == value) && good_move;
        if !ok {
            mismatches += 1;
        }
        outln!(
            "{:3}  {:7}  {:+5}  {:>4}  {:>8}  {:>10}  {:7.3}s  {:11.0}{}",
            i + 1,
            entry.position.board.empty_count(),
            value,
            vertex_name(best),
            expected.map_or("-".to_string(), |v| format!("{v:+}")),
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nodes_per_second(),
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

fn run_analyze(
    position: &str,
    (depth, time): (Option<u32>, Option<f64>),
    lines: usize,
    hash: usize,
    threads: usize,
) -> ExitCode {
    let position = match parse_position(position) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("oxello analyze: {e}");
            return ExitCode::FAILURE;
        }
    };
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            eprintln!("oxello analyze: --time {t}: expected a positive number of seconds");
            return ExitCode::FAILURE;
        }
        Some(t) => Some(t.min(86_400.0)),
        None => depth.is_none().then_some(DEFAULT_ANALYZE_SECONDS),
    }
    .map(Duration::from_secs_f64);
    let limits = Limits {
        depth,
        soft_time: time,
        hard_time: time,
        lines,
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

/// One clock per engine from "given once" or "given per engine" values.
fn per_engine<T: Copy>(values: &[T]) -> Result<Option<[T; 2]>, String> {
    match values {
        [] => Ok(None),
        [v] => Ok(Some([*v, *v])),
        [a, b] => Ok(Some([*a, *b])),
        _ => Err("give a time once, or once per engine".into()),
    }
}

fn parse_time_control(s: &str) -> Result<ClockSpec, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(ClockSpec::Unlimited);
    }
    let (main, inc) = s.split_once('+').unwrap_or((s, "0"));
    let number = |x: &str| {
        x.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or(format!(
                "bad time control '{s}': expected M+I in seconds, or none"
            ))
    };
    Ok(ClockSpec::Game {
        main: number(main)?,
        increment: number(inc)?,
    })
}

fn match_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let [first, second] = <[String; 2]>::try_from(args.engines.clone())
        .map_err(|_| "give exactly two --engine command lines".to_string())?;
    let clocks = if let Some(tpm) = per_engine(&args.time_per_move)? {
        tpm.map(|s| {
            if s > 0.0 && s.is_finite() {
                ClockSpec::PerMove(s)
            } else {
                ClockSpec::Unlimited
            }
        })
    } else {
        let specs: Vec<ClockSpec> = args
            .time_control
            .iter()
            .map(|s| parse_time_control(s))
            .collect::<Result<_, _>>()?;
        per_engine(&specs)?.unwrap_or([ClockSpec::Unlimited; 2])
    };
    let mut names: Vec<String> = args.names.clone();
    for command in [&first, &second].into_iter().skip(names.len()) {
        let program = command.split_whitespace().next().unwrap_or("engine");
        names.push(
            std::path::Path::new(program)
                .file_name()
                .map_or(program.into(), |f| f.to_string_lossy().into()),
        );
    }
    if names.len() != 2 {
        return Err("give at most two --name".into());
    }
    if names[0] == names[1] {
        names[0].push_str("#1");
        names[1].push_str("#2");
    }
    let games = args.games.max(1);
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            oxello::match_runner::load_openings(&text, args.seed)
                .map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => oxello::match_runner::random_openings(
            games.div_ceil(2),
            args.random_plies,
            args.seed.unwrap_or(1),
        ),
    };
    let sprt = args.sprt.as_ref().map(|v| Sprt {
        elo0: v[0],
        elo1: v[1],
        alpha: v[2],
        beta: v[3],
    });
    if sprt.is_some_and(|s| {
        !(0.0 < s.alpha && s.alpha < 1.0 && 0.0 < s.beta && s.beta < 1.0 && s.elo0 < s.elo1)
    }) {
        return Err("--sprt wants elo0 < elo1 and alpha, beta in (0, 1)".into());
    }
    let seconds = |x: f64, what: &str| {
        (x.is_finite() && x >= 0.0)
            .then(|| Duration::from_secs_f64(x.min(86_400.0)))
            .ok_or(format!("bad {what}"))
    };
    Ok(MatchConfig {
        engines: [
            EngineSpec {
                name: names[0].clone(),
                command: first,
                clock: clocks[0],
            },
            EngineSpec {
                name: names[1].clone(),
                command: second,
                clock: clocks[1],
            },
        ],
        openings,
        games,
        concurrency: args.concurrency.max(1),
        move_timeout: seconds(args.move_timeout, "--move-timeout")?,
        grace: seconds(args.grace, "--grace")?,
        sprt,
    })
}

/// The threads an engine command searches with: its `--threads N`, one per core for an
/// oxello without it, and one for any other engine (which the runner cannot see into).
fn engine_threads(command: &str) -> usize {
    let words: Vec<&str> = command.split_whitespace().collect();
    if let Some(n) = words
        .windows(2)
        .find(|w| w[0] == "--threads")
        .and_then(|w| w[1].parse().ok())
    {
        return n;
    }
    let program = words
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if program == "oxello" {
        threads_or_cores(None)
    } else {
        1
    }
}

/// Games at once times the threads of the engine that thinks (one at a time in a game) should
/// fit the cores, or the engines' clocks measure contention instead of thinking.
fn warn_if_oversubscribed(config: &MatchConfig) {
    let cores = threads_or_cores(None);
    let threads = config
        .engines
        .iter()
        .map(|e| engine_threads(&e.command))
        .max()
        .unwrap_or(1);
    if config.concurrency * threads > cores {
        eprintln!(
            "oxello match: warning: {} games at once x {threads} engine threads exceeds the {cores} cores; give the engines --threads or lower --concurrency",
            config.concurrency
        );
    }
}

fn run_match(args: MatchArgs) -> ExitCode {
    let config = match match_config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("oxello match: {e}");
            return ExitCode::FAILURE;
        }
    };
    warn_if_oversubscribed(&config);
    if let Err(e) = oxello::match_runner::check_engines(&config) {
        eprintln!("oxello match: {e}");
        return ExitCode::FAILURE;
    }
    let names = [
        config.engines[0].name.as_str(),
        config.engines[1].name.as_str(),
    ];
    let mut done = 0;
    let report = run_match_games(&config, |game, tally| {
        done += 1;
        let clocks = summary::final_clocks(game, names);
        eprintln!(
            "{}{}",
            summary::progress_line(done, config.games, tally, names),
            if clocks.is_empty() {
                String::new()
            } else {
                format!("; clocks left: {clocks}")
            }
        );
    });
    if let Some(path) = &args.ggf_out {
        let records: String = report
            .results
            .iter()
            .map(|g| record::ggf(g, names) + "\n")
            .collect();
        if let Err(e) = std::fs::write(path, records) {
            eprintln!("oxello match: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if args.json {
        outln!("{}", summary::json(&report, names));
    } else {
        out!("{}", summary::text(&report, names));
    }
    ExitCode::SUCCESS
}

/// Reads a file of games for `oxello selfplay`.
fn read_games_file(path: &std::path::Path) -> Result<Vec<Vec<u32>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match selfplay::read_games(&text) {
        games if games.is_empty() => Err(format!("{}: no legal game in the file", path.display())),
        games => Ok(games),
    }
}

/// Parses "LOW-HIGH" random plies.
fn parse_plies_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--random-plies '{s}' is not LOW-HIGH with 0 <= LOW <= HIGH <= 60");
    let (low, high) = s.split_once('-').ok_or_else(bad)?;
    let (low, high): (u32, u32) = (
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    );
    (low <= high && high <= 60)
        .then_some((low, high))
        .ok_or_else(bad)
}

fn run_selfplay(args: SelfplayArgs) -> ExitCode {
    let config = (|| -> Result<selfplay::Config, String> {
        if !(args.temperature.is_finite() && args.temperature >= 0.0) {
            return Err(format!(
                "--temperature {} must be 0 or more",
                args.temperature
            ));
        }
        let source = match &args.games_file {
            Some(path) => selfplay::Source::Games(read_games_file(path)?),
            None => selfplay::Source::SelfPlay,
        };
        Ok(selfplay::Config {
            source,
            start: args.start,
            games: args.games,
            exact_empties: args.exact_empties,
            random_plies: parse_plies_range(&args.random_plies)?,
            noise_depth: args.noise_depth,
            temperature: args.temperature,
            greedy_empties: args.greedy_empties,
            seed: args.seed,
            threads: threads_or_cores(args.threads),
            hash_mib: hash_mib(args.hash),
        })
    })();
    let excluded = match args.exclude.as_deref().map(read_games_file).transpose() {
        Ok(games) => games.map_or_else(Default::default, |g| selfplay::game_positions(&g)),
        Err(e) => {
            eprintln!("oxello selfplay: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config = match config {
        Ok(config) => config,
        Err(e) => {
            eprintln!("oxello selfplay: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut last_report = Instant::now();
    let result = selfplay::run(&config, &args.out, excluded, |p| {
        if last_report.elapsed() >= Duration::from_secs(2) || p.games_done == p.games {
            last_report = Instant::now();
            let rate = p.games_done as f64 / p.elapsed.as_secs_f64().max(1e-9);
            let eta = p
                .eta()
                .map_or("-".into(), |d| format!("{:.0} s", d.as_secs_f64()));
            eprintln!(
                "oxello selfplay: {}/{} games, {} positions written, {} duplicates, {rate:.2} games/s, ETA {eta}",
                p.games_done, p.games, p.written, p.duplicates
            );
        }
    });
    match result {
        Ok(p) => {
            eprintln!(
                "oxello selfplay: done: {} games, {} positions written to {}, {} duplicates dropped, {:.1} s",
                p.games_done,
                p.written,
                args.out.display(),
                p.duplicates,
                p.elapsed.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oxello selfplay: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads training record files, in order.
fn read_record_files(paths: &[std::path::PathBuf]) -> Result<Vec<Record>, String> {
    let mut all = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        // A file still being written may end in half a line: only whole lines count.
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        all.extend(parse_records(whole).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(all)
}

fn run_train(args: TrainArgs) -> ExitCode {
    let started = Instant::now();
    let loaded = read_record_files(&args.data).and_then(|records| {
        let excluded = match &args.exclude {
            Some(path) => selfplay::game_positions(&read_games_file(path)?),
            None => Default::default(),
        };
        Ok((records, excluded))
    });
    let (records, excluded) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("oxello train: {e}");
            return ExitCode::FAILURE;
        }
    };
    let samples = fit::samples(&records, &excluded);
    eprintln!(
        "oxello train: {} records, {} after exclusion, read in {:.1} s",
        records.len(),
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    let config = fit::FitConfig {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        played_weight: args.played_weight,
        threads: threads_or_cores(args.threads),
    };
    let (values, phases) = fit::fit(&samples, &config);
    outln!("phase  empties   train  validation  train MAE  validation MAE");
    for p in &phases {
        let low = p.phase as u32 * PHASE_WIDTH;
        outln!(
            "{:5}  {:>7}  {:6}  {:10}  {:9.2}  {:14.2}",
            p.phase,
            format!("{low}-{}", (low + PHASE_WIDTH - 1).min(60)),
            p.train,
            p.validation,
            p.train_mae,
            p.validation_mae
        );
    }
    let bytes = Weights::to_bytes(&values);
    if let Err(e) = std::fs::write(&args.out, &bytes) {
        eprintln!("oxello train: {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    outln!(
        "wrote {} ({} bytes, checksum {:016x}) in {:.1} s",
        args.out.display(),
        bytes.len(),
        checksum(&bytes[32..]),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn run_accuracy(file: &std::path::Path, empties: u32, depth: u32) -> ExitCode {
    let positions: Vec<(Board, i32)> = match read_record_files(&[file.to_path_buf()]) {
        Ok(records) => records
            .iter()
            .filter(|r| r.label == Label::Exact && r.position.board.empty_count() == empties)
            .map(|r| (r.position.board, r.score))
            .collect(),
        Err(e) => {
            eprintln!("oxello accuracy: {e}");
            return ExitCode::FAILURE;
        }
    };
    if positions.is_empty() {
        eprintln!(
            "oxello accuracy: {}: no exact record with {empties} empties",
            file.display()
        );
        return ExitCode::FAILURE;
    }
    let tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    let (mut error, mut winner) = (0f64, 0usize);
    for (board, exact) in &positions {
        let score = if depth == 0 {
            evaluate(board)
        } else {
            let limits = Limits {
                depth: Some(depth),
                exact_empties: Some(0),
                ..Limits::default()
            };
            search(&tt, &stop, board, &limits, |_| {}).score
        };
        let discs = f64::from(score) / f64::from(DISC);
        error += (discs - f64::from(*exact)).abs();
        // A draw is called right by a score within half a disc of it.
        let right = match exact.signum() {
            0 => discs.abs() < 0.5,
            s => discs.signum() as i32 == s,
        };
        winner += usize::from(right);
    }
    let count = positions.len();
    outln!(
        "{count} positions at {empties} empties, depth {depth}: mean absolute error {:.2} discs, winner right in {:.1}%",
        error / count as f64,
        100.0 * winner as f64 / count as f64
    );
    ExitCode::SUCCESS
}
