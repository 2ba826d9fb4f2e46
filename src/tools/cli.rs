//! The tools' command line: one clap struct per subcommand, the values they share (threads,
//! table sizes), and [`Tool::run`], which hands each subcommand to its job in
//! [`super::batch`]. Only the binary knows clap; the engine library does not.

use super::batch::book::{self, BookArgs};
use super::batch::{self, matches, training};
use clap::{Args, Subcommand, ValueEnum};
use oxello::tt::HASH_MIB;
use std::path::PathBuf;
use std::process::ExitCode;

/// The batch jobs, one per subcommand.
#[derive(Subcommand)]
pub enum Tool {
    /// Count the leaves of the game tree from the start position.
    Perft(PerftArgs),
    /// Solve every position of an .obf file exactly and compare with its annotated scores.
    Solve(SolveArgs),
    /// Search one position and print every iteration, as GTP's `analyze` does.
    ///
    /// Example: oxello analyze "---------------------------OX------XO--------------------------- X" --depth 6
    Analyze(AnalyzeArgs),
    /// Play a match between two GTP engines, each opening twice with colours swapped.
    Match(MatchArgs),
    /// Run the fixed benchmark (perft, midgame searches, exact solves) and print its node
    /// signature.
    Bench {
        /// Threads per search, 1-256 (the signature is that of --threads 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Fit evaluation weights to training records and write a weights file.
    Train(TrainArgs),
    /// Measure the evaluation: the mean error of the static evaluation (--depth 0) or of a
    /// fixed-depth search against the exact records of a training-record file.
    Accuracy(AccuracyArgs),
    /// Generate training data: positions labelled by the exact solver (see
    /// src/tools/training/record.rs).
    Selfplay(SelfplayArgs),
    /// Training record files: merge them, or convert between binary and text.
    Data(DataArgs),
    /// The opening book: build, add games, show, info, merge (see `oxello book --help`).
    Book(BookArgs),
}

impl Tool {
    /// Runs the job; its report is on stdout, its errors on stderr.
    pub fn run(self) -> ExitCode {
        match self {
            Tool::Perft(args) => batch::run_perft(&args),
            Tool::Solve(args) => batch::run_solve(&args),
            Tool::Analyze(args) => batch::run_analyze(&args),
            Tool::Match(args) => matches::run_match(&args),
            Tool::Bench { threads } => batch::run_bench(threads as usize),
            Tool::Train(args) => training::run_train(&args),
            Tool::Accuracy(args) => training::run_accuracy(&args),
            Tool::Selfplay(args) => training::run_selfplay(&args),
            Tool::Data(args) => training::run_data(&args),
            Tool::Book(args) => book::run_book(args),
        }
    }
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
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Threads per search, 1-256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    /// The position: 64 squares a1..h8 (X black, O white, - empty) and the side to move.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Deepest midgame iteration, 1-60 (the endgame is solved exactly when it can be).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Seconds to think (default 10 when no --depth is given).
    #[arg(long)]
    pub time: Option<f64>,
    /// Best lines to show, 1-32.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=32))]
    pub lines: u64,
    /// Transposition table size in MiB (1-4096).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Threads per search, 1-256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

#[derive(Args)]
pub struct MatchArgs {
    /// An engine's command line (give two), e.g. "/usr/games/gtp-rhino -l 3".
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Names for the two engines (default: the program names).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// Openings, one transcript per line (e.g. the XOT list); random openings without it.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (also seeds random openings).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Plies of a random opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seconds per move; once for both engines or once per engine (0: no clock, for an
    /// engine that plays by level).
    #[arg(long, conflicts_with = "time_control")]
    pub time_per_move: Vec<f64>,
    /// Main time plus increment per move, "M+I" in seconds, or "none" for an engine without
    /// a clock (it is sent no time commands); once, or once per engine: "--time-control 5+0
    /// --time-control none" clocks the first engine only.
    #[arg(long)]
    pub time_control: Vec<String>,
    /// Seconds to wait for a move from an engine without a clock before it loses.
    #[arg(long, default_value_t = 600.0)]
    pub move_timeout: f64,
    /// Seconds of lateness forgiven beyond the clock.
    #[arg(long, default_value_t = 0.5)]
    pub grace: f64,
    /// Stop early by SPRT: elo0 elo1 alpha beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    pub sprt: Option<Vec<f64>>,
    /// Write every game as a GGF record to this file.
    #[arg(long)]
    pub ggf_out: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct TrainArgs {
    /// Training record files (from `oxello selfplay`, binary or text); give several to use
    /// them all.
    #[arg(long = "data", required = true, num_args = 1)]
    pub data: Vec<PathBuf>,
    /// Write the weights here.
    #[arg(long)]
    pub out: PathBuf,
    /// Leave out every position of the games in this file (a held-out test set).
    #[arg(long)]
    pub exclude: Option<PathBuf>,
    /// Passes over the data per phase.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Adam's step in discs (it decays to a tenth).
    #[arg(long, default_value_t = 0.1)]
    pub learning_rate: f64,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 3e-4)]
    pub l2: f64,
    /// Weight of a `played` record against an `exact` one (1).
    #[arg(long, default_value_t = 0.3)]
    pub played_weight: f64,
    /// Weight of a `searched` (backed-up) record against an `exact` one (1).
    #[arg(long, default_value_t = 1.0)]
    pub searched_weight: f64,
    /// Samples per Adam step, in an order shuffled every pass; 0 for every sample of the
    /// phase at once (full batch).
    #[arg(long, default_value_t = 0)]
    pub batch: usize,
    /// Threads, each fitting whole phases (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

#[derive(Args)]
pub struct AccuracyArgs {
    /// A record file (from `oxello selfplay`, binary or text); its `exact` records at
    /// --empties are used.
    pub file: PathBuf,
    /// Use the positions with this many empties.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub empties: u32,
    /// Search depth, 0 for the static evaluation.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
}

#[derive(Args)]
pub struct SelfplayArgs {
    /// Add the records to this file (created if missing; positions already in it are not
    /// written again). A name ending in .bin is written in binary, whole, sorted and merged
    /// as `oxello data merge` does, at the end of the run; any other is text, appended to
    /// after every game.
    #[arg(long)]
    pub out: PathBuf,
    /// Label the games of this file (one transcript per line, as the WTHOR and Egaroucid
    /// lists) instead of playing new ones.
    #[arg(long)]
    pub games_file: Option<PathBuf>,
    /// Games to play, or at most this many games of the file.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Index of the first game (extend a self-play run with the same seed, or skip a file's
    /// first games).
    #[arg(long, default_value_t = 0)]
    pub start: usize,
    /// Play only shard K of N (0-based, `K/N`): the games whose index from --start is K
    /// modulo N, each the same as in a run without shards. `oxello data merge` joins the
    /// shards' binary files into the one such a run writes.
    #[arg(long, value_parser = parse_shard, default_value = "0/1")]
    pub shard: (u32, u32),
    /// Leave out every position of the games in this file (a held-out test set).
    #[arg(long)]
    pub exclude: Option<PathBuf>,
    /// Positions with at most this many empties get the solver's exact score, 0-30.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Random moves that open a self-play game: "LOW-HIGH", each game draws a count.
    #[arg(long, default_value = "8-20")]
    pub random_plies: String,
    /// Depth of the searches that choose the later self-play moves, 1-20.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub noise_depth: u32,
    /// Softmax temperature of that choice, in discs (0: always the best move).
    #[arg(long, default_value_t = 2.0)]
    pub temperature: f64,
    /// From this many empties on, self-play takes the search's best move, without noise.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub greedy_empties: u32,
    /// Leave the positions where a random opening move was played out of the data (self-play
    /// only).
    #[arg(long)]
    pub drop_random: bool,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1-256 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Each worker's transposition table in MiB (1-4096).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

#[derive(Args)]
pub struct DataArgs {
    #[command(subcommand)]
    pub command: DataCommand,
}

/// The record-file jobs. A file name ending in .bin is written in binary, any other in text;
/// either format is read.
#[derive(Subcommand)]
pub enum DataCommand {
    /// Join record files into OUT: one record per position under the 8 symmetries (exact
    /// beats searched beats played, then the game of lower index), sorted, so that the order
    /// of the inputs does not matter.
    Merge {
        /// The merged file, written whole (it may be one of the inputs).
        out: PathBuf,
        /// Record files, binary or text.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Write the records of INPUT to OUTPUT, in the same order, in the format OUTPUT's name
    /// asks for (such as a binary file to text, to read it).
    Convert {
        /// A record file, binary or text.
        input: PathBuf,
        /// Where to write, whole.
        output: PathBuf,
    },
    /// Write the records of INPUT to OUTPUT, in the same order, each `played` or `searched`
    /// one with --empties given the value of a --depth search by the evaluation (a backed-up
    /// `searched` label, in whole discs), or with --exact the solver's score (an `exact`
    /// label); the others unchanged. Run backed-up labels phase by phase from the end,
    /// training between, as the README shows.
    Relabel {
        /// A record file, binary or text.
        input: PathBuf,
        /// Where to write, whole (it may be INPUT).
        output: PathBuf,
        /// The empties of the records to relabel: "LOW-HIGH".
        #[arg(long)]
        empties: String,
        /// Depth of the searches, 1-20.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Solve the records exactly instead of searching them.
        #[arg(long, conflicts_with = "depth")]
        exact: bool,
        /// Threads (default: every core); the labels are the same whatever their number.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
}

/// Parses a shard `K/N`, 0 <= K < N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("'{s}': expected K/N, such as 0/4"))?;
    let number = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}': expected K/N"))
    };
    let (k, n) = (number(k)?, number(n)?);
    if k >= n {
        return Err(format!("'{s}': shards are numbered 0 to N - 1"));
    }
    Ok((k, n))
}

/// The threads asked for, or one per core.
pub fn threads_or_cores(requested: Option<u64>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// A table size within range, with a word on stderr when it had to be moved there.
pub fn hash_mib(requested: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::parse_shard;

    #[test]
    fn shards_parse_as_k_slash_n_with_k_below_n() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("1-4").is_err());
        assert!(parse_shard("a/4").is_err());
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("0/0").is_err());
    }
}
