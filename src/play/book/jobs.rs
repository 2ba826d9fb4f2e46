//! The searches behind the entries. Each is a deterministic function of the position: the
//! canonical board, searched on one thread from an emptied table of a fixed size, every move
//! with an open window, so that a book is the same whatever the order of the work, the
//! threads, the shards or the interruptions. [`Jobs`] runs many of them at once and, as the
//! results arrive, stores them, reports progress and checkpoints the book.

use super::file::BookError;
use super::store::{Book, Depth, Entry, Key, Scored};
use crate::engine::search::level::MAX_LEVEL;
use crate::engine::search::{search, Level, Limits};
use crate::engine::tt::TranspositionTable;
use crossbeam_channel::{unbounded, Sender};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Each search's table: part of what a search's result depends on, so fixed.
pub const HASH_MIB: usize = 16;

/// Searches `key`'s position at the playing level `depth` (1-60, see `search::level`: a
/// midgame search of that depth, or the level's endgame search), scoring every legal move.
/// `stop` aborts it: the entry is then not to be kept.
pub fn search_position(
    tt: &mut TranspositionTable,
    key: &Key,
    depth: u32,
    stop: &AtomicBool,
) -> Entry {
    tt.clear();
    let board = key.board();
    let limits = Limits {
        level: Level::new(depth.clamp(1, MAX_LEVEL)),
        lines: board.moves().count_ones() as usize,
        ..Limits::default()
    };
    let report = search(tt, stop, &board, &limits, |_| {});
    let depth = Depth::searched(report.depth, report.exact);
    let scores = report
        .lines
        .iter()
        .filter_map(|l| {
            Some(Scored {
                square: *l.pv.first()?,
                score: l.score,
            })
        })
        .collect();
    Entry::searched(depth, scores)
}

/// One worker: takes the next position of `todo` until none is left or `stop` is raised,
/// and sends each finished search.
fn search_queue(
    todo: &[Key],
    next: &AtomicUsize,
    depth: u32,
    stop: &AtomicBool,
    results: &Sender<(Key, Entry)>,
) {
    let mut tt = TranspositionTable::new(HASH_MIB);
    while let Some(key) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
        let entry = search_position(&mut tt, key, depth, stop);
        if stop.load(Ordering::Relaxed) || results.send((*key, entry)).is_err() {
            return;
        }
    }
}

/// Where and how often a long run saves the book.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub every: Duration,
}

/// How the searches of a run are made.
#[derive(Clone, Debug)]
pub struct JobOptions {
    /// The level of every search (see `search::level`).
    pub depth: u32,
    /// Positions searched at once, each on one thread.
    pub threads: usize,
    pub checkpoint: Option<Checkpoint>,
    /// Time between two progress reports.
    pub report_every: Duration,
}

/// How far a run has come.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Positions searched by this run.
    pub searched: usize,
    /// Searches waiting in the current batch.
    pub queued: usize,
    /// Searches expected after the current batch (an estimate for a build).
    pub later: usize,
    /// The ply being built, if the run goes ply by ply.
    pub ply: Option<u32>,
    /// Positions in the book.
    pub positions: usize,
    pub elapsed: Duration,
}

impl Progress {
    /// Searches per hour so far.
    pub fn per_hour(&self) -> f64 {
        self.searched as f64 * 3600.0 / self.elapsed.as_secs_f64().max(1e-3)
    }

    /// The time the queued and expected searches take at the rate so far.
    pub fn eta(&self) -> Option<Duration> {
        let rate = self.searched as f64 / self.elapsed.as_secs_f64();
        (self.searched > 0 && rate > 0.0)
            .then(|| Duration::from_secs_f64((self.queued + self.later) as f64 / rate))
    }
}

/// One run's searches: its options, clocks, progress and the reporting callback.
pub struct Jobs<'a> {
    options: JobOptions,
    started: Instant,
    last_save: Instant,
    last_report: Instant,
    pub(crate) progress: Progress,
    report: &'a mut dyn FnMut(&Progress),
}

impl<'a> Jobs<'a> {
    pub fn new(options: JobOptions, report: &'a mut dyn FnMut(&Progress)) -> Jobs<'a> {
        let now = Instant::now();
        Jobs {
            options,
            started: now,
            last_save: now,
            last_report: now,
            progress: Progress::default(),
            report,
        }
    }

    /// Whether `key`'s entry is missing or shallower than the run's depth.
    pub fn needs_search(&self, book: &Book, key: &Key) -> bool {
        book.get(key)
            .is_none_or(|e| !e.depth.covers(self.options.depth))
    }

    /// Searches the positions of `keys` whose entry is missing or shallower than the run's
    /// depth, `threads` at a time, storing each result in `book` as it arrives.
    pub fn ensure(&mut self, book: &mut Book, keys: &[Key]) -> Result<(), BookError> {
        let depth = self.options.depth;
        let todo: Vec<Key> = keys
            .iter()
            .filter(|k| self.needs_search(book, k))
            .copied()
            .collect();
        self.progress.queued = todo.len();
        let stop = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let (sender, results) = unbounded();
        std::thread::scope(|s| {
            // No thread (and no table) when nothing is to be searched.
            for _ in 0..self.options.threads.max(1).min(todo.len()) {
                let (sender, next, stop, todo) = (sender.clone(), &next, &stop, &todo);
                s.spawn(move || search_queue(todo, next, depth, stop, &sender));
            }
            drop(sender);
            let stored = results.iter().try_for_each(|(key, entry)| {
                book.insert(key, entry);
                self.searched(book)
            });
            stop.store(true, Ordering::Relaxed);
            stored
        })?;
        self.report_now(book);
        Ok(())
    }

    /// Counts one search; reports and checkpoints when their time has come.
    fn searched(&mut self, book: &mut Book) -> Result<(), BookError> {
        self.progress.searched += 1;
        self.progress.queued = self.progress.queued.saturating_sub(1);
        if self.last_report.elapsed() >= self.options.report_every {
            self.report_now(book);
        }
        match &self.options.checkpoint {
            Some(c) if self.last_save.elapsed() >= c.every => {
                book.negamax();
                book.save(&c.path)?;
                self.last_save = Instant::now();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Sends a progress report now.
    pub(crate) fn report_now(&mut self, book: &Book) {
        self.progress.positions = book.len();
        self.progress.elapsed = self.started.elapsed();
        self.last_report = Instant::now();
        (self.report)(&self.progress);
    }
}
