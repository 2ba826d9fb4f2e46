//! `oxello book ...`: the opening book's subcommands, their arguments and what they print.
//! The builder is here ([`build`]); the store, the file and the searches are the library's
//! (`crate::play::book`).

pub mod build;

use crate::base::datafile::write_atomically;
use crate::engine::eval::DISC;
use crate::engine::game::Game;
use crate::engine::notation::parse_position;
use crate::play::book::edax::{self, EdaxBook};
use crate::play::book::{
    add_games, parse_games, Book, BookError, Checkpoint, Depth, JobOptions, Jobs, Progress,
};
use crate::play::format::{format_score, vertex_name};
use crate::tools::args::{parse_shard, threads_or_cores};
use build::{build, BuildConfig, Shard};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Seconds between two progress lines on stderr.
const REPORT_SECONDS: u64 = 5;

#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand)]
enum BookCommand {
    /// Grow a book from the start position by deviation search: every position reachable by
    /// moves within --width of the best, up to --plies, gets a --depth search of all its
    /// moves. Rerunning continues a stopped build; larger values deepen the same file.
    Build(BuildArgs),
    /// Learn games: every position of each game enters the book with a search of all its
    /// moves (so its deviations and leaf are known).
    Add {
        /// The book (created if missing).
        file: PathBuf,
        /// Games, one per line: transcripts (f5d6c3...), WTHOR-style lines
        /// (`<source> <score> <transcript>`) or GGF records.
        games: PathBuf,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Every book move of a position with its value and depth, best first, and the leaf.
    Show {
        file: PathBuf,
        /// `<64 squares a1..h8> <side>` (X black, O white, - empty), or a transcript from the
        /// start such as f5d6.
        #[arg(allow_hyphen_values = true)]
        position: String,
    },
    /// Positions per ply, depth distribution, and a check of every move and value.
    Info { file: PathBuf },
    /// Join books built apart (such as shards) into OUT, then negamax again.
    Merge {
        out: PathBuf,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Read an Edax book (`book.dat`) into the book OUT: each position's links and leaf with
    /// their scores, its value and its level (docs/book.md says what does not map).
    ImportEdax { edax_file: PathBuf, out: PathBuf },
    /// Write BOOK in Edax's format to OUT, for Edax to load.
    ExportEdax { book: PathBuf, out: PathBuf },
}

#[derive(clap::Args)]
struct BuildArgs {
    /// The book (created if missing, continued or deepened if not).
    file: PathBuf,
    /// Positions up to this ply (moves from the start) enter the book.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=59))]
    plies: u32,
    /// Follow the moves within this many discs of the best.
    #[arg(long, default_value_t = 2.0)]
    width: f64,
    /// Build for a player of the book's best moves: follow a line while one side plays only
    /// the best move and the other side's moves lose at most this many discs in all.
    #[arg(long)]
    line_error: Option<f64>,
    /// Follow every move of the first plies, at no cost (openings of random moves).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=59))]
    free_plies: u32,
    /// Build shard K of N (0-based, `K/N`): only the positions at --shard-ply that hash to
    /// it, and what follows them. `book merge` joins the shards.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u32, u32)>,
    /// The ply at which shards split the work.
    #[arg(long, default_value_t = 4)]
    shard_ply: u32,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(clap::Args)]
struct SearchArgs {
    /// Plies of each position's search (exact where the search reaches the end), 1-60.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Positions searched at once, one thread each (default: every core).
    #[arg(long, value_parser = str::parse::<crate::play::values::Threads>)]
    threads: Option<crate::play::values::Threads>,
    /// Seconds between two saves of the whole book (a killed run loses at most this much).
    #[arg(long, default_value_t = 60.0)]
    checkpoint: f64,
}

/// Runs a book subcommand; the id of the weights in use is written into the books this run
/// searches.
pub fn run_book(args: BookArgs) -> ExitCode {
    let evaluation = crate::engine::eval::id();
    let result = match args.command {
        BookCommand::Build(a) => run_build(a, evaluation),
        BookCommand::Add {
            file,
            games,
            search,
        } => run_add(&file, &games, &search, evaluation),
        BookCommand::Show { file, position } => run_show(&file, &position, evaluation),
        BookCommand::Info { file } => run_info(&file, evaluation),
        BookCommand::Merge { out, inputs } => run_merge(&out, &inputs, evaluation),
        BookCommand::ImportEdax { edax_file, out } => run_import_edax(&edax_file, &out),
        BookCommand::ExportEdax { book, out } => run_export_edax(&book, &out),
    };
    match result {
        Ok(code) => code,
        Err(e) => fail(&e),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("oxello book: {message}");
    ExitCode::FAILURE
}

fn book_error(path: &Path) -> impl FnOnce(BookError) -> String + '_ {
    move |e| match e {
        BookError::Io { .. } => e.to_string(),
        e => format!("{}: {e}", path.display()),
    }
}

/// Opens a book that this run adds to: an existing file must be a valid book.
fn open_for_update(path: &Path, evaluation: u64) -> Result<Book, String> {
    // A build may write its first checkpoint only after minutes: what a killed run left goes now.
    crate::base::datafile::remove_stale_temporaries(path);
    let mut book = Book::open_or_new(path, evaluation).map_err(book_error(path))?;
    warn_evaluation(path, &book, evaluation);
    book.set_evaluation(evaluation);
    Ok(book)
}

fn warn_evaluation(path: &Path, book: &Book, evaluation: u64) {
    if book.is_empty() || book.evaluation() == evaluation {
        return;
    }
    let searcher = match book.evaluation() {
        edax::EVALUATION => "Edax (imported)".to_string(),
        other => format!("evaluation {other:016x}"),
    };
    eprintln!(
        "oxello book: warning: {} was searched by {searcher}, this build uses {evaluation:016x}",
        path.display()
    );
}

fn options(search: &SearchArgs, file: &Path) -> Result<JobOptions, String> {
    if !(search.checkpoint.is_finite() && search.checkpoint >= 0.0) {
        return Err(format!(
            "--checkpoint {}: expected seconds, 0 or more",
            search.checkpoint
        ));
    }
    Ok(JobOptions {
        depth: search.depth,
        threads: threads_or_cores(search.threads),
        checkpoint: Some(Checkpoint {
            path: file.to_path_buf(),
            every: Duration::from_secs_f64(search.checkpoint.min(1e6)),
        }),
        report_every: Duration::from_secs(REPORT_SECONDS),
    })
}

/// One progress line on stderr.
fn report(p: &Progress) {
    let ply = p.ply.map_or(String::new(), |ply| format!("ply {ply}: "));
    let eta = p.eta().map_or("-".to_string(), |d| clock(d.as_secs()));
    eprintln!(
        "{ply}{} searched, {} queued, ~{} later, {} positions, {:.0} positions/h, ETA {eta}",
        p.searched,
        p.queued,
        p.later,
        p.positions,
        p.per_hour()
    );
}

fn clock(secs: u64) -> String {
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

fn run_build(a: BuildArgs, evaluation: u64) -> Result<ExitCode, String> {
    let width = centi_discs("--width", a.width)?;
    let line_error = a
        .line_error
        .map(|e| centi_discs("--line-error", e))
        .transpose()?;
    let shard = a
        .shard
        .map(|(k, n)| Shard::new(k, n, a.shard_ply, a.plies))
        .transpose()
        .map_err(|e| e.to_string())?;
    let config = BuildConfig {
        plies: a.plies,
        width,
        line_error,
        free_plies: a.free_plies,
        shard,
    };
    let options = options(&a.search, &a.file)?;
    let mut book = open_for_update(&a.file, evaluation)?;
    let before = book.len();
    let started = Instant::now();
    let mut progress = report;
    let mut jobs = Jobs::new(options, &mut progress);
    build(&mut book, &config, &mut jobs).map_err(book_error(&a.file))?;
    book.save(&a.file).map_err(book_error(&a.file))?;
    summary(&a.file, &book, before, started);
    Ok(ExitCode::SUCCESS)
}

/// Discs given for `flag` in centi-discs, if they are 0-128.
fn centi_discs(flag: &str, discs: f64) -> Result<i32, String> {
    if !(discs.is_finite() && (0.0..=128.0).contains(&discs)) {
        return Err(format!("{flag} {discs}: expected discs, 0-128"));
    }
    Ok((discs * f64::from(DISC)).round() as i32)
}

fn summary(path: &Path, book: &Book, before: usize, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    outln!(
        "{}: {} positions ({} new) in {secs:.1} s",
        path.display(),
        book.len(),
        book.len() - before
    );
}

fn run_add(
    file: &Path,
    games: &Path,
    search: &SearchArgs,
    evaluation: u64,
) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(games).map_err(|e| format!("{}: {e}", games.display()))?;
    let games_read = parse_games(&text).map_err(|e| format!("{}: {e}", games.display()))?;
    let options = options(search, file)?;
    let mut book = open_for_update(file, evaluation)?;
    let (before, started) = (book.len(), Instant::now());
    let mut progress = report;
    let mut jobs = Jobs::new(options, &mut progress);
    add_games(&mut book, &games_read, &mut jobs).map_err(book_error(file))?;
    book.save(file).map_err(book_error(file))?;
    outln!("{} games", games_read.len());
    summary(file, &book, before, started);
    Ok(ExitCode::SUCCESS)
}

/// A position string, or a transcript played from the start.
fn parse_board(text: &str) -> Result<crate::engine::board::Board, String> {
    parse_position(text).map(|p| p.board).or_else(|e| {
        Game::from_transcript(text)
            .map(|g| g.position().board)
            .map_err(|_| format!("'{text}': neither a position ({e}) nor a legal transcript"))
    })
}

fn run_show(file: &Path, position: &str, evaluation: u64) -> Result<ExitCode, String> {
    let book = Book::open(file).map_err(book_error(file))?;
    warn_evaluation(file, &book, evaluation);
    let board = parse_board(position)?;
    let Some(entry) = book.entry(&board) else {
        outln!("not in the book");
        return Ok(ExitCode::SUCCESS);
    };
    outln!(
        "value {} (searched at depth {})",
        format_score(entry.value, false),
        entry.depth
    );
    outln!("move  value  depth  kind");
    for m in book.moves(&board) {
        outln!(
            "{:<4}  {:>5}  {:>5}  {}",
            vertex_name(Some(m.square)),
            format_score(m.value, false),
            m.depth.to_string(),
            if m.leaf { "leaf" } else { "book" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run_info(file: &Path, evaluation: u64) -> Result<ExitCode, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let book = Book::from_bytes(&bytes).map_err(book_error(file))?;
    let same = if book.evaluation() == evaluation {
        "this build's"
    } else {
        "not this build's"
    };
    outln!("{}: {} bytes", file.display(), bytes.len());
    outln!(
        "{} positions, evaluation {:016x} ({same})",
        book.len(),
        book.evaluation()
    );
    print_counts("ply", book.entries().map(|(k, _)| k.ply().to_string()));
    print_counts("depth", book.entries().map(|(_, e)| depth_label(e.depth)));
    match book.check() {
        Ok(moves) => {
            outln!("check: ok ({moves} moves legal, every value the negamax of its moves)");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            outln!("check: FAILED: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Depths sort as numbers, exact last.
fn depth_label(d: Depth) -> String {
    match d {
        Depth::Plies(p) => format!("{p:>2}"),
        Depth::Exact => "exact".to_string(),
    }
}

/// A table of how many entries have each label.
fn print_counts(what: &str, labels: impl Iterator<Item = String>) {
    let mut counts: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for label in labels {
        *counts.entry((label.len(), label)).or_default() += 1;
    }
    outln!("{what:>5}  positions");
    for ((_, label), n) in counts {
        outln!("{:>5}  {n:>9}", label.trim());
    }
}

fn run_merge(out: &Path, inputs: &[PathBuf], evaluation: u64) -> Result<ExitCode, String> {
    let mut merged: Option<Book> = None;
    for path in inputs {
        let book = Book::open(path).map_err(book_error(path))?;
        warn_evaluation(path, &book, evaluation);
        match merged.as_mut() {
            Some(m) => m.merge(book),
            None => merged = Some(book),
        }
    }
    let mut book = merged.unwrap_or_else(|| Book::new(evaluation));
    book.negamax();
    book.save(out).map_err(book_error(out))?;
    outln!(
        "{}: {} positions from {} books ({})",
        out.display(),
        book.len(),
        inputs.len(),
        plies_covered(&book)
    );
    Ok(ExitCode::SUCCESS)
}

fn run_import_edax(edax_file: &Path, out: &Path) -> Result<ExitCode, String> {
    let in_file = |e: &dyn std::fmt::Display| format!("{}: {e}", edax_file.display());
    let bytes = std::fs::read(edax_file).map_err(|e| in_file(&e))?;
    let edax = EdaxBook::from_bytes(&bytes).map_err(|e| in_file(&e))?;
    let imported = edax::import(&edax);
    imported.book.save(out).map_err(book_error(out))?;
    outln!(
        "{}: {} positions from {} Edax positions of {} ({} passes and {} game ends left out, {} values changed by the negamax)",
        out.display(),
        imported.book.len(),
        edax.records.len(),
        edax_file.display(),
        imported.passes,
        imported.game_overs,
        imported.recomputed
    );
    Ok(ExitCode::SUCCESS)
}

fn run_export_edax(file: &Path, out: &Path) -> Result<ExitCode, String> {
    let book = Book::open(file).map_err(book_error(file))?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH);
    let edax = edax::export(&book, edax::header_date(now.map_or(0, |d| d.as_secs())));
    write_atomically(out, &edax.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    outln!(
        "{}: {} Edax positions from the {} of {} (with {} pass and game-over positions)",
        out.display(),
        edax.records.len(),
        book.len(),
        file.display(),
        edax.records.len() - book.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The plies a book covers, as `plies 0-N`.
fn plies_covered(book: &Book) -> String {
    let deepest = book.entries().map(|(k, _)| k.ply()).max().unwrap_or(0);
    format!("plies 0-{deepest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_or_a_transcript_names_a_board() {
        let start =
            crate::engine::notation::format_position(&crate::engine::board::Position::start());
        assert_eq!(parse_board(&start), Ok(crate::engine::board::Board::START));
        assert_eq!(parse_board("f5").map(|b| b.player.count_ones()), Ok(1));
        assert!(parse_board("f5f5").is_err());
    }
}
