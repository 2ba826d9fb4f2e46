//! The tools' command line: the subcommands, each with the arguments its job owns, and
//! [`Tool::run`], which hands each to its job. Only the tools and the binary know clap.

use super::batch::matches::{self, MatchArgs};
use super::batch::training::{self, AccuracyArgs, DataArgs, SelfplayArgs, TrainArgs};
use super::batch::{self, AnalyzeArgs, PerftArgs, SolveArgs};
use super::book::{self, BookArgs};
use super::fit_probcut::{self, FitProbcutArgs};
use super::review::{self, ReviewArgs};
use super::slurm::{self, SlurmArgs};
use clap::Subcommand;
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
    /// Print the level table (as `--depth`, `oxello-depth`, NBoard's `set depth` and
    /// `analyze --depth` read it): per level its midgame depth and its endgame stages, the
    /// empties searched at each selectivity.
    Levels,
    /// Play a match between two engines that speak GTP or NBoard's protocol, each opening
    /// twice with colours swapped: the score, the Elo difference and their thinking times.
    Match(MatchArgs),
    /// Run the fixed benchmark (perft, midgame searches, exact solves) and print its node
    /// signature.
    Bench {
        /// Threads per search, 1-256 (the signature is that of --threads 1).
        #[arg(long, default_value = "1", value_parser = str::parse::<crate::play::values::Threads>)]
        threads: crate::play::values::Threads,
    },
    /// Fit evaluation weights to training records and write a weights file.
    Train(TrainArgs),
    /// Measure the evaluation: the mean error of the static evaluation (--depth 0) or of a
    /// fixed-depth search against the exact records (or those of --label) of a training-record
    /// file.
    Accuracy(AccuracyArgs),
    /// Generate training data: positions labelled by the exact solver (see
    /// src/tools/training/record.rs).
    Selfplay(SelfplayArgs),
    /// Training record files: merge them, or convert between binary and text.
    Data(DataArgs),
    /// The opening book: build, add games, show, info, merge (see `oxello book --help`).
    Book(BookArgs),
    /// Review games: every move searched at a level against the best move, the discs lost,
    /// marks and a summary for each side (see `oxello review --help` for the marks).
    ///
    /// Example: oxello review f5d6c3d3c4f4f6f3e6e7 --level 4
    Review(ReviewArgs),
    /// Measure ProbCut's error models (shallow against deep or exact scores) on recorded games
    /// and print them as src/engine/search/probcut.rs holds them.
    FitProbcut(FitProbcutArgs),
    /// Run self-play, relabelling, a book build or a match on a Slurm cluster: a job array,
    /// one shard per task, and a job that merges the shards (see docs/cluster.md).
    Slurm(SlurmArgs),
}

impl Tool {
    /// Runs the job; its report is on stdout, its errors on stderr.
    pub fn run(self) -> ExitCode {
        match self {
            Tool::Perft(args) => batch::run_perft(&args),
            Tool::Solve(args) => batch::run_solve(&args),
            Tool::Analyze(args) => batch::run_analyze(&args),
            Tool::Levels => batch::run_levels(),
            Tool::Match(args) => matches::run_match(&args),
            Tool::Bench { threads } => batch::run_bench(threads.get()),
            Tool::Train(args) => training::run_train(&args),
            Tool::Accuracy(args) => training::run_accuracy(&args),
            Tool::Selfplay(args) => training::run_selfplay(&args),
            Tool::Data(args) => training::run_data(&args),
            Tool::Book(args) => book::run_book(args),
            Tool::FitProbcut(args) => fit_probcut::run(&args),
            Tool::Review(args) => review::run(&args),
            Tool::Slurm(args) => slurm::run(args),
        }
    }
}
