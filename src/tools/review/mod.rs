//! `oxello review GAME...`: every move of a game searched at a level, the move played against
//! the best, the discs lost, marks, a summary for each side, and the output as a table, JSON
//! lines, CSV or an SVG picture. Positions are searched in parallel, one thread each, so
//! `--threads` changes only the speed; `--resume FILE` keeps the rows found and skips them on
//! a rerun.

mod svg;

use super::args::threads_or_cores;
use crate::base::datafile::write_atomically;
use crate::engine::gamefile::{
    black_discs, name_wtb_records, read_named, read_one, wthor_names, Record,
};
use crate::engine::notation::format_position;
use crate::engine::openings::openings;
use crate::engine::search::Level;
use crate::play::review::{
    csv, csv_row, jobs, json, parse_csv_row, report, review_all, Job, Row, CSV_HEADER,
    DEFAULT_REVIEW_LEVEL, REVIEW_HASH_MIB,
};
use crate::play::values::{HashMib, Threads};
use clap::Args;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// The arguments of `oxello review`.
#[derive(Args)]
#[command(
    after_help = "Marks, by the discs a move loses against the best move at the level: \
1-3 an inaccuracy (?!), 4-9 a mistake (?), 10 or more a blunder (??). Values are whole discs \
for the side to move; '~' marks a value that is not exact (a midgame estimate or a selective endgame stage). A loss is never below 0: a \
midgame search of the played move alone may score it above the best search. Forced passes \
have no row; 'ply' counts moves, passes not counted. The header names the game's opening \
(Tiger, Rose, ...) and the last column the named opening a move reaches, matched under the \
board's 8 symmetries."
)]
pub struct ReviewArgs {
    /// Game files (transcripts, GGF, WTHOR .wtb or PGN; the format is read from the content)
    /// or transcripts given inline (`f5d6c3...`).
    #[arg(required = true)]
    pub games: Vec<String>,
    /// Only the N-th game (1-based) of each file.
    #[arg(long)]
    pub game: Option<usize>,
    /// The search level, 1-60, as `oxello levels` prints it: a midgame depth, then selective
    /// endgame searches, exact from the level's empties.
    #[arg(long, default_value_t = DEFAULT_REVIEW_LEVEL, value_parser = Level::parse_some)]
    pub level: Level,
    /// Positions searched at once, one thread each, 1-256 (default: every core).
    #[arg(long, value_parser = str::parse::<Threads>)]
    pub threads: Option<Threads>,
    /// Table size of each search in MiB, 1-4096 (default 16), cleared before each position.
    #[arg(long, value_parser = str::parse::<HashMib>)]
    pub hash: Option<HashMib>,
    /// JSON lines on stdout: one object per move.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// CSV on stdout.
    #[arg(long)]
    pub csv: bool,
    /// Write a picture of the review (one game) to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Keep the rows found in FILE and skip them when the review is run again.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// Runs the review.
pub fn run(args: &ReviewArgs) -> ExitCode {
    match review_games(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oxello review: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The games the arguments name: every game of each file (or its `--game`), or an inline one.
pub fn load_games(args: &[String], only: Option<usize>) -> Result<Vec<Record>, String> {
    let mut games = Vec::new();
    for arg in args {
        let records = match std::fs::read(arg) {
            Ok(bytes) => with_wthor_names(
                read_named(&bytes, arg).map_err(|e| format!("{arg}: {e}"))?,
                arg,
            ),
            Err(_) if !arg.contains(['/', '.']) => {
                vec![read_one(arg).map_err(|e| format!("'{arg}': {e}"))?]
            }
            Err(e) => return Err(format!("{arg}: {e}")),
        };
        match only {
            Some(n) => {
                let found = records.into_iter().nth(n.wrapping_sub(1));
                games.push(found.ok_or_else(|| format!("{arg}: no game {n}"))?);
            }
            None => games.extend(records),
        }
    }
    Ok(games)
}

/// `.wtb` records named from the WTHOR.JOU and WTHOR.TRN files beside them, when there are.
fn with_wthor_names(mut records: Vec<Record>, path: &str) -> Vec<Record> {
    let dir = std::path::Path::new(path)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let names = |file: &str, size| {
        let bytes = std::fs::read(dir.join(file)).ok()?;
        wthor_names(&bytes, size)
    };
    if let (Some(players), Some(events)) = (names("WTHOR.JOU", 20), names("WTHOR.TRN", 26)) {
        name_wtb_records(&mut records, &players, &events);
    }
    records
}

fn review_games(args: &ReviewArgs) -> Result<(), String> {
    let games = load_games(&args.games, args.game)?;
    if args.svg.is_some() && games.len() != 1 {
        return Err(format!(
            "--svg draws one game; {} were given (use --game N)",
            games.len()
        ));
    }
    let jobs: Vec<Job> = games
        .iter()
        .enumerate()
        .flat_map(|(i, r)| jobs(&r.game, i + 1))
        .collect();
    let found = match &args.resume {
        Some(path) => load_resume(path, args.level)?,
        None => HashMap::new(),
    };
    let rows = search_rows(args, &jobs, found)?;
    for (i, record) in games.iter().enumerate() {
        let game_rows: Vec<Row> = rows.iter().filter(|r| r.game == i + 1).cloned().collect();
        print_game(args, record, &game_rows);
        if let Some(path) = &args.svg {
            let picture = svg::svg(&game_rows, &title(record, args.level));
            write_atomically(path, picture.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The rows of `jobs`: those `found` in the resume file as they are, the others searched.
fn search_rows(
    args: &ReviewArgs,
    jobs: &[Job],
    mut found: HashMap<(usize, usize), Row>,
) -> Result<Vec<Row>, String> {
    // A found row is kept only where the job at its place still has its position.
    let (mut kept, mut todo) = (HashMap::new(), Vec::new());
    for job in jobs {
        let key = (job.game, job.ply);
        match found.remove(&key) {
            Some(row) if row.position == format_position(&job.position) => {
                kept.insert(key, row);
            }
            _ => todo.push(job.clone()),
        }
    }
    let found = kept;
    let log = args
        .resume
        .as_ref()
        .map(|p| open_resume(p, args.level))
        .transpose()?;
    let progress = Progress::new(todo.len(), found.len());
    let done = |row: &Row| {
        if let Some(file) = &log {
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(file, "{}", csv_row(row)).and_then(|_| file.flush());
        }
        progress.tick();
    };
    let threads = threads_or_cores(args.threads);
    let searched = review_all(
        &todo,
        args.level,
        threads,
        args.hash.map_or(REVIEW_HASH_MIB, HashMib::get),
        &done,
    );
    progress.finish();
    let mut rows: Vec<Row> = found.into_values().chain(searched).collect();
    rows.sort_by_key(|r| (r.game, r.ply));
    Ok(rows)
}

/// The rows a resume file holds for `level` (its first line names the level), by (game, ply).
fn load_resume(path: &PathBuf, level: Level) -> Result<HashMap<(usize, usize), Row>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut lines = text.lines();
    let header = resume_header(level);
    match lines.next() {
        Some(first) if first == header => {}
        Some(first) => {
            return Err(format!(
                "{}: made for another review ('{first}', expected '{header}')",
                path.display()
            ))
        }
        None => return Ok(HashMap::new()),
    }
    Ok(lines
        .filter_map(parse_csv_row)
        .map(|r| ((r.game, r.ply), r))
        .collect())
}

fn resume_header(level: Level) -> String {
    format!("# oxello review --level {level}: {CSV_HEADER}")
}

/// The resume file, opened to append rows (its header written when it is new).
fn open_resume(path: &PathBuf, level: Level) -> Result<Mutex<std::fs::File>, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let fresh = std::fs::metadata(path).map_or(true, |m| m.len() == 0);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(err)?;
    if fresh {
        writeln!(file, "{}", resume_header(level)).map_err(err)?;
    }
    Ok(Mutex::new(file))
}

/// A game's header line: players, event, score, level, and the opening (see
/// `engine::openings`: the one in force where the game left the named lines).
fn title(record: &Record, level: Level) -> String {
    let name = |n: &Option<String>, c: &str| n.clone().unwrap_or_else(|| c.to_string());
    let score = black_discs(&record.game);
    let event = record
        .event
        .as_ref()
        .map_or(String::new(), |e| format!(", {e}"));
    let result = if record.game.is_over() {
        format!("{score}-{}", 64 - score)
    } else {
        "unfinished".to_string()
    };
    let opening = openings()
        .of_game(&record.game)
        .map_or("no named opening".to_string(), |o| {
            format!("opening {} (move {})", o.name, o.ply())
        });
    format!(
        "game {}: {} (black) - {} (white){event}, {result}, level {level}, {opening}",
        record.index,
        name(&record.black, "Black"),
        name(&record.white, "White")
    )
}

fn print_game(args: &ReviewArgs, record: &Record, rows: &[Row]) {
    if args.json {
        out!("{}", json(rows));
    } else if args.csv {
        out!("{}", csv(rows));
    } else {
        outln!("{}", title(record, args.level));
        outln!("{}\n", report(rows));
    }
}

/// Positions done and an ETA on stderr, at most once a second.
struct Progress {
    total: usize,
    skipped: usize,
    done: std::sync::atomic::AtomicUsize,
    start: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    fn new(total: usize, skipped: usize) -> Progress {
        let start = Instant::now();
        Progress {
            total,
            skipped,
            done: 0.into(),
            start,
            last: Mutex::new(start),
        }
    }

    fn tick(&self) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed().as_secs_f64() < 1.0 && done < self.total {
            return;
        }
        *last = Instant::now();
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = elapsed / done as f64 * (self.total - done) as f64;
        eprintln!(
            "review: {done}/{} positions ({} from the resume file), {elapsed:.0} s, ETA {eta:.0} s",
            self.total, self.skipped
        );
    }

    fn finish(&self) {
        let elapsed = self.start.elapsed().as_secs_f64();
        eprintln!(
            "review: {} positions searched in {elapsed:.1} s",
            self.total
        );
    }
}
