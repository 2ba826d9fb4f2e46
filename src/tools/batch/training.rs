//! `oxello selfplay`, `oxello data`, `oxello train` and `oxello accuracy`: the evaluation's
//! data, weights and measurement.

use crate::base::datafile::{remove_stale_temporaries, write_atomically};
use crate::engine::board::Board;
use crate::engine::eval::evaluate;
use crate::engine::eval::weights::{Weights, PHASE_WIDTH, WEIGHTS_PER_PHASE};
use crate::engine::eval::DISC;
use crate::engine::game::Game;
use crate::engine::tt::TranspositionTable;
use crate::play::values::{Count, Penalty, Rate};
use crate::tools::args::{parse_shard, threads_or_cores};
use crate::tools::training::merge::merge;
use crate::tools::training::record::{is_binary_path, read_file, write_file, Label, Record};
use crate::tools::training::{fit, relabel, selfplay};
use clap::{Args, Subcommand};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Reads a file of games for `oxello selfplay`.
pub fn read_games_file(path: &std::path::Path) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    match selfplay::read_games(&text) {
        games if games.is_empty() => Err(format!("{}: no legal game in the file", path.display())),
        games => Ok(games),
    }
}

/// Parses the "LOW-HIGH" value of `flag`, 0 <= LOW <= HIGH <= 60.
pub fn parse_range(flag: &str, s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{flag} '{s}' is not LOW-HIGH with 0 <= LOW <= HIGH <= 60");
    let (low, high) = s.split_once('-').ok_or_else(bad)?;
    let (low, high): (u32, u32) = (
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    );
    (low <= high && high <= 60)
        .then_some((low, high))
        .ok_or_else(bad)
}

pub fn run_selfplay(args: &SelfplayArgs) -> ExitCode {
    remove_stale_temporaries(&args.out);
    let config = selfplay_config(args);
    let result = excluded_positions(args.exclude.as_deref())
        .and_then(|excluded| Ok((config?, excluded)))
        .and_then(|(config, excluded)| {
            selfplay::run(&config, &args.out, excluded, progress_reporter())
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

/// The generation `args` ask for, checked.
fn selfplay_config(args: &SelfplayArgs) -> Result<selfplay::SelfplayConfig, String> {
    if args.drop_random && args.games_file.is_some() {
        return Err("--drop-random applies to self-play, not to the games of --games-file".into());
    }
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
    Ok(selfplay::SelfplayConfig {
        source,
        start: args.start,
        games: args.games,
        shard: args.shard,
        exact_empties: args.exact_empties,
        random_plies: parse_range("--random-plies", &args.random_plies)?,
        noise_depth: args.noise_depth,
        temperature: args.temperature,
        greedy_empties: args.greedy_empties,
        drop_random: args.drop_random,
        seed: args.seed,
        threads: threads_or_cores(args.threads),
        hash_mib: args.hash.get(),
    })
}

/// The positions of the games of `--exclude` (none without it).
fn excluded_positions(path: Option<&std::path::Path>) -> Result<HashSet<(u64, u64)>, String> {
    Ok(match path {
        Some(path) => selfplay::game_positions(&read_games_file(path)?),
        None => HashSet::new(),
    })
}

/// A progress line on stderr every 2 s, and after the last game.
fn progress_reporter() -> impl FnMut(&selfplay::Progress) {
    let mut last_report = Instant::now();
    move |p| {
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
    }
}

/// Reads training record files of either format, in order.
pub fn read_record_files(paths: &[std::path::PathBuf]) -> Result<Vec<Record>, String> {
    let mut all = Vec::new();
    for path in paths {
        all.extend(read_file(path)?);
    }
    Ok(all)
}

pub fn run_data(args: &DataArgs) -> ExitCode {
    let result = match &args.command {
        DataCommand::Merge { out, inputs } => merge_files(out, inputs),
        DataCommand::Convert { input, output } => convert_file(input, output),
        DataCommand::Games { inputs, out } => super::games::convert_games(inputs, out.as_deref()),
        DataCommand::Relabel {
            input,
            output,
            empties,
            depth,
            exact,
            threads,
            shard,
            only_relabelled,
        } => parse_range("--empties", empties).and_then(|(low, high)| {
            let config = relabel::RelabelConfig {
                empties: low..=high,
                by: if *exact {
                    relabel::By::Solver
                } else {
                    relabel::By::Depth(*depth)
                },
                threads: threads_or_cores(*threads),
            };
            relabel_file(input, output, &config, *shard, *only_relabelled)
        }),
    };
    match result {
        Ok(report) => {
            outln!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oxello data: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `oxello data merge`: what it wrote.
fn merge_files(out: &std::path::Path, inputs: &[std::path::PathBuf]) -> Result<String, String> {
    let merged = merge(read_record_files(inputs)?);
    let format = write_records(out, &merged.records)?;
    Ok(format!(
        "{}: {} positions from {} file{}, {} duplicates dropped ({format})",
        out.display(),
        merged.records.len(),
        inputs.len(),
        if inputs.len() == 1 { "" } else { "s" },
        merged.duplicates
    ))
}

/// `oxello data convert`: what it wrote.
fn convert_file(input: &std::path::Path, output: &std::path::Path) -> Result<String, String> {
    let records = read_file(input)?;
    let format = write_records(output, &records)?;
    Ok(format!(
        "{}: {} records ({format})",
        output.display(),
        records.len()
    ))
}

/// `oxello data relabel`: what it wrote.
fn relabel_file(
    input: &std::path::Path,
    output: &std::path::Path,
    config: &relabel::RelabelConfig,
    shard: Option<(u32, u32)>,
    only_relabelled: bool,
) -> Result<String, String> {
    let mut records = read_file(input)?;
    if let Some((k, n)) = shard {
        records = relabel::shard(records, k, n);
    }
    let started = Instant::now();
    let indices = relabel::relabel(&mut records, config);
    let seconds = started.elapsed().as_secs_f64();
    let relabelled = indices.len();
    if only_relabelled {
        records = relabel::only(records, &indices);
    }
    let format = write_records(output, &records)?;
    let by = match config.by {
        relabel::By::Depth(depth) => format!("depth-{depth} searches"),
        relabel::By::Solver => "exact solves".to_string(),
    };
    Ok(format!(
        "{}: {} records, {relabelled} relabelled by {by} in {seconds:.1} s ({:.0} a second) ({format})",
        output.display(),
        records.len(),
        relabelled as f64 / seconds.max(1e-9)
    ))
}

/// Writes a record file in the format its name asks for; which one.
fn write_records(path: &std::path::Path, records: &[Record]) -> Result<&'static str, String> {
    write_file(path, records).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(if is_binary_path(path) {
        "binary"
    } else {
        "text"
    })
}

pub fn run_train(args: &TrainArgs) -> ExitCode {
    let started = Instant::now();
    remove_stale_temporaries(&args.out);
    let loaded = read_record_files(&args.data)
        .and_then(|records| Ok((records, excluded_positions(args.exclude.as_deref())?)));
    let (mut records, excluded) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("oxello train: {e}");
            return ExitCode::FAILURE;
        }
    };
    let read = records.len();
    // A record's key costs its 8 symmetries: none to compute without an exclusion.
    if !excluded.is_empty() {
        records.retain(|r| !excluded.contains(&r.key()));
    }
    eprintln!(
        "oxello train: {read} records, {} after exclusion, read in {:.1} s",
        records.len(),
        started.elapsed().as_secs_f64()
    );
    let config = fit::FitConfig {
        epochs: args.epochs.get() as usize,
        learning_rate: args.learning_rate.get(),
        l2: args.l2.get(),
        played_weight: args.played_weight.get(),
        searched_weight: args.searched_weight.get(),
        batch: args.batch,
        threads: threads_or_cores(args.threads),
    };
    let init = match args.init.as_deref().map(Weights::read).transpose() {
        Ok(init) => init,
        Err(e) => {
            eprintln!("oxello train: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = init
        .as_ref()
        .map_or(fit::Start::Zero, |w| fit::Start::From(w.values()));
    let (values, phases) = fit::fit(&records, &config, start);
    print_phases(&phases);
    if let Err(e) = check_fit(&values, &phases) {
        eprintln!("oxello train: {e}; {} not written", args.out.display());
        return ExitCode::FAILURE;
    }
    let (size, checksum) = match write_weights(&args.out, &values) {
        Ok(written) => written,
        Err(e) => {
            eprintln!("oxello train: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    outln!(
        "wrote {} ({size} bytes, checksum {checksum:016x}) in {:.1} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// Refuses weights that would play as nonsense: a phase that diverged to non-finite values
/// (which the file's integers would turn into zeros or limits in silence), or weights that
/// are all zero, or a phase that had samples to learn from and learnt nothing.
fn check_fit(values: &[i16], phases: &[fit::PhaseFit]) -> Result<(), String> {
    if let Some(p) = phases.iter().find(|p| p.diverged) {
        return Err(format!(
            "phase {} diverged (a weight is not finite)",
            p.phase
        ));
    }
    if values.iter().all(|&v| v == 0) {
        return Err("every weight is zero".into());
    }
    for (p, phase) in phases.iter().zip(values.chunks(WEIGHTS_PER_PHASE)) {
        if p.train > 0 && phase.iter().all(|&v| v == 0) {
            return Err(format!(
                "phase {} learnt nothing from {} samples",
                p.phase, p.train
            ));
        }
    }
    Ok(())
}

/// The fit of each phase, as a table (a validation error of `-` where none was held out).
fn print_phases(phases: &[fit::PhaseFit]) {
    outln!("phase  empties   train  validation  train MAE  validation MAE");
    for p in phases {
        let low = p.phase as u32 * PHASE_WIDTH;
        let validation_mae = match p.validation {
            0 => "-".to_string(),
            _ => format!("{:.2}", p.validation_mae),
        };
        outln!(
            "{:5}  {:>7}  {:6}  {:10}  {:9.2}  {validation_mae:>14}",
            p.phase,
            format!("{low}-{}", (low + PHASE_WIDTH - 1).min(60)),
            p.train,
            p.validation,
            p.train_mae,
        );
    }
}

/// Writes the weights file of `values`, then reads it back as the engine will: its size and
/// checksum, or why it cannot be written or does not load.
fn write_weights(path: &std::path::Path, values: &[i16]) -> Result<(usize, u64), String> {
    write_atomically(path, &Weights::to_bytes(values)).map_err(|e| e.to_string())?;
    let written = std::fs::read(path).map_err(|e| e.to_string())?;
    Weights::from_bytes(&written)
        .map(|w| (written.len(), w.checksum()))
        .map_err(|e| format!("the file written does not load: {e}"))
}

pub fn run_accuracy(args: &AccuracyArgs) -> ExitCode {
    let (file, empties, depth) = (&args.file, args.empties, args.depth);
    let positions: Vec<(Board, i32)> = match read_record_files(std::slice::from_ref(file)) {
        Ok(records) => records
            .iter()
            .filter(|r| r.label == args.label && r.position.board.empty_count() == empties)
            .map(|r| (r.position.board, r.score))
            .collect(),
        Err(e) => {
            eprintln!("oxello accuracy: {e}");
            return ExitCode::FAILURE;
        }
    };
    if positions.is_empty() {
        eprintln!(
            "oxello accuracy: {}: no {} record with {empties} empties",
            file.display(),
            args.label.word()
        );
        return ExitCode::FAILURE;
    }
    let tt = TranspositionTable::new(16);
    let (mut error, mut squared, mut bias, mut winner) = (0f64, 0f64, 0f64, 0usize);
    for (board, exact) in &positions {
        let score = match depth {
            0 => evaluate(board),
            _ => relabel::searched_score(&tt, board, depth),
        };
        let discs = f64::from(score) / f64::from(DISC);
        let miss = discs - f64::from(*exact);
        error += miss.abs();
        squared += miss * miss;
        bias += miss;
        // A draw is called right by a score within half a disc of it.
        let right = match exact.signum() {
            0 => discs.abs() < 0.5,
            s => discs.signum() as i32 == s,
        };
        winner += usize::from(right);
    }
    let count = positions.len();
    outln!(
        "{count} positions at {empties} empties, depth {depth}: mean absolute error {:.2} discs, root mean square error {:.2}, mean error {:+.2}, winner right in {:.1}%",
        error / count as f64,
        (squared / count as f64).sqrt(),
        bias / count as f64,
        100.0 * winner as f64 / count as f64
    );
    ExitCode::SUCCESS
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
    #[arg(long, default_value = "300", value_parser = str::parse::<Count>)]
    pub epochs: Count,
    /// Adam's step in discs (it decays to a tenth); finite, above 0.
    #[arg(long, default_value = "0.1", allow_negative_numbers = true, value_parser = str::parse::<Rate>)]
    pub learning_rate: Rate,
    /// L2 penalty on each weight's distance from its start (0, or its --init value); finite,
    /// 0 or more.
    #[arg(long, default_value = "3e-4", allow_negative_numbers = true, value_parser = str::parse::<Penalty>)]
    pub l2: Penalty,
    /// Weight of a `played` record against an `exact` one (1).
    #[arg(long, default_value = "0.3", allow_negative_numbers = true, value_parser = str::parse::<Penalty>)]
    pub played_weight: Penalty,
    /// Weight of a `searched` (backed-up) record against an `exact` one (1).
    #[arg(long, default_value = "1", allow_negative_numbers = true, value_parser = str::parse::<Penalty>)]
    pub searched_weight: Penalty,
    /// Samples per Adam step, in an order shuffled every pass; 0 for every sample of the
    /// phase at once (full batch).
    #[arg(long, default_value_t = 0)]
    pub batch: usize,
    /// Threads, each fitting whole phases (default: every core).
    #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
    pub threads: Option<crate::play::values::Threads>,
    /// Start from these weights (a weights file) instead of zero, to fine-tune them on the
    /// records: a weight no record reads keeps its value, and --l2 pulls the others towards it.
    #[arg(long)]
    pub init: Option<PathBuf>,
}

#[derive(Args)]
pub struct AccuracyArgs {
    /// A record file (from `oxello selfplay`, binary or text); its records of --label at
    /// --empties are used.
    pub file: PathBuf,
    /// Use the positions with this many empties.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub empties: u32,
    /// Search depth, 0 for the static evaluation.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
    /// The records to measure against, by label: `exact` (the solver's scores), `played`
    /// (the games' results: held-out tournament games judge the midgame this way, noisily)
    /// or `searched`.
    #[arg(long, default_value = "exact", value_parser = str::parse::<Label>)]
    pub label: Label,
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
    #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
    pub threads: Option<crate::play::values::Threads>,
    /// Each worker's transposition table in MiB (1-4096).
    #[arg(long, default_value = "16", value_parser = str::parse::<crate::play::values::HashMib>)]
    pub hash: crate::play::values::HashMib,
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
    /// Game files (transcripts, GGF, WTHOR .wtb or PGN) read and checked, then written to
    /// --out in the format its name asks for (.wtb, .ggf, else transcripts), or as
    /// transcripts on stdout.
    Games {
        /// Game files, any format.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Where to write, whole.
        #[arg(long)]
        out: Option<PathBuf>,
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
        #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
        threads: Option<crate::play::values::Threads>,
        /// Relabel and write only shard K of N (0-based, `K/N`): the records whose index in
        /// INPUT is K modulo N. `data merge` joins the shards of a sorted INPUT (one that
        /// `selfplay` or `data merge` wrote) into the file a run without shards writes.
        #[arg(long, value_parser = parse_shard)]
        shard: Option<(u32, u32)>,
        /// Write only the records it relabels (a second copy of them to train on beside
        /// INPUT, as docs/training.md's searched labels are), not every record.
        #[arg(long)]
        only_relabelled: bool,
    },
}
