//! The search: iterative-deepening PVS over the midgame, an exact (or win/loss/draw) solver
//! for the endgame, and the root that drives both and reports.
//!
//! Modules depend one way: `movelist`, `parallel` <- `midgame` <- `endgame` <- `root`. The
//! midgame reaches exact values near the end through the [`ExactSolver`] trait, which the
//! endgame implements, so it does not depend on the endgame module. This file holds what they
//! share: the limits and reports, what every thread of a search shares ([`Shared`]), and
//! [`Searcher`], one thread's search state (counters, split points, the table it uses).

pub mod endgame;
mod midgame;
mod movelist;
mod parallel;
mod root;

use crate::board::Board;
use crate::eval::DISC;
use crate::tt::{TranspositionTable, EXACT_LEVEL};
use parallel::{Pool, SplitPoint};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bound above any score.
pub const INFINITY: i32 = 65 * DISC;

/// The best score there is (a wipe-out); the root's window never reaches past it, so that a
/// move proven to get it ends the search of the others.
const MAX_SCORE: i32 = 64 * DISC;

/// A midgame iteration this deep orders the root of an endgame solve as well as deeper ones
/// would; the endgame's selective passes do the rest.
const ENDGAME_ORDER_DEPTH: u32 = 12;

/// The most empties for which a solve starts after that depth: FFO #59's 34 take a second
/// here, while bigger positions are better served by deeper midgame iterations first.
const EARLY_SOLVE_EMPTIES: u32 = 34;

/// How far past a node limit a search on one thread may go: the nodes of one last-empties
/// solve, which counts without looking at the limit.
pub const NODE_LIMIT_SLACK: u64 = 2_000;

/// How far past a node limit a search on `threads` threads may go: each helper also searches
/// up to a poll interval before it adds its nodes to the count and sees the search end.
pub fn node_limit_slack(threads: usize) -> u64 {
    NODE_LIMIT_SLACK + (threads.max(1) as u64 - 1) * (POLL_INTERVAL + NODE_LIMIT_SLACK)
}

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 4096;

/// What a search may spend, and what it is asked for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest midgame iteration.
    pub depth: Option<u32>,
    /// Nodes at most: checked at every node but those of the last empties' solver and the
    /// children scored for ordering, so a search may end up to [`node_limit_slack`] past it.
    pub nodes: Option<u64>,
    /// Do not start an iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop at once after this much time.
    pub hard_time: Option<Duration>,
    /// When the time limits started: the request's arrival, so that what the search waited for
    /// (a table being allocated or cleared by the search thread) is spent from them. `None`:
    /// when the search starts.
    pub clock_start: Option<Instant>,
    /// The endgame solve only tells win, draw or loss.
    pub wld: bool,
    /// How many best lines to report.
    pub lines: usize,
    /// The most empties an exact solve may be tried at before the midgame search reaches the
    /// end by itself (a time budget's guess of what can finish).
    pub exact_empties: Option<u32>,
    /// Threads searching together; 1 is the deterministic search.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            soft_time: None,
            hard_time: None,
            clock_start: None,
            wld: false,
            lines: 1,
            exact_empties: None,
            threads: 1,
        }
    }
}

/// One analysed line: its moves and score (centi-discs, side to move's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub pv: Vec<u32>,
    pub score: i32,
}

/// What an iteration found, streamed while the search goes on, and the final result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Midgame depth, or the number of empties for an endgame solve.
    pub depth: u32,
    /// The score is the exact final result (or its win/loss/draw sign if `wld`).
    pub exact: bool,
    pub wld: bool,
    /// Best lines first; empty when the side to move has no legal move.
    pub lines: Vec<Line>,
    /// Score of the best line, centi-discs.
    pub score: i32,
    /// Positions searched, and the children looked at to order their moves (Edax's count).
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Report {
    pub fn best_move(&self) -> Option<u32> {
        self.lines.first().and_then(|l| l.pv.first().copied())
    }

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}

/// What all the threads of one search share: the table, the user's stop flag, the flag that
/// ends every thread once the search is over, the node count of every thread and its limits,
/// and the split points open to idle threads (none with one thread).
pub struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    halt: AtomicBool,
    nodes: AtomicU64,
    node_limit: u64,
    /// No iteration starts after this.
    soft_deadline: Option<Instant>,
    /// Every thread stops at its next poll after this.
    deadline: Option<Instant>,
    pool: Option<Pool>,
}

/// One thread's search state: its counters, stop conditions and root bookkeeping.
pub struct Searcher<'a> {
    shared: &'a Shared<'a>,
    /// `shared.tt`, one load nearer: the search probes it at most nodes, and reaching it
    /// through `shared` measured 4% slower (same-run A/B on 6 random22 solves).
    pub(crate) tt: &'a TranspositionTable,
    /// This thread's nodes; those up to `flushed` are already in the shared count.
    pub(crate) nodes: u64,
    flushed: u64,
    next_poll: u64,
    pub(crate) stopped: bool,
    /// The split points this thread is searching below, innermost last.
    chain: Vec<Arc<SplitPoint>>,
    /// Selectivity of the endgame search under way: ProbCut below `EXACT_LEVEL`.
    pub(crate) level: u8,
    /// A root move proven better than the previous best in the iteration under way, kept in
    /// case the iteration is stopped before it ends.
    improvement: Option<RootMove>,
}

#[derive(Copy, Clone)]
pub(crate) struct RootMove {
    pub(crate) sq: u32,
    pub(crate) score: i32,
}

/// Searches `board` on `limits.threads` threads sharing `tt`: the calling thread runs the
/// search it reports, with `progress` after each iteration; the others wait for nodes to share
/// (Young Brothers Wait, see [`parallel`]). A stop reaches them all at their next poll, and the
/// nodes reported are the sum over the threads.
pub fn search(
    tt: &TranspositionTable,
    stop: &AtomicBool,
    board: &Board,
    limits: &Limits,
    progress: impl FnMut(&Report),
) -> Report {
    let threads = limits.threads.max(1);
    let clock = limits.clock_start.unwrap_or_else(Instant::now);
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        halt: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        node_limit: limits.nodes.unwrap_or(u64::MAX).max(1),
        soft_deadline: limits.soft_time.map(|t| clock + t),
        deadline: limits.hard_time.map(|t| clock + t),
        pool: (threads > 1).then(Pool::default),
    };
    let mut report = std::thread::scope(|s| {
        for _ in 1..threads {
            let shared = &shared;
            s.spawn(move || Searcher::with(shared).serve());
        }
        let report = Searcher::with(&shared).run(board, limits, progress);
        shared.halt.store(true, Ordering::Relaxed);
        report
    });
    report.nodes = shared.nodes.load(Ordering::Relaxed);
    report
}

impl<'a> Searcher<'a> {
    fn with(shared: &'a Shared<'a>) -> Searcher<'a> {
        Searcher {
            shared,
            tt: shared.tt,
            nodes: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL.min(shared.node_limit),
            stopped: false,
            chain: Vec::new(),
            level: EXACT_LEVEL,
            improvement: None,
        }
    }

    /// A helper thread's life: join whatever split point is open, until the search ends.
    fn serve(&mut self) {
        let Some(pool) = self.shared.pool.as_ref() else {
            return;
        };
        let halt = &self.shared.halt;
        while let Some(sp) = pool.wait_for_work(None, || halt.load(Ordering::Relaxed)) {
            self.work_at(&sp);
        }
        self.flush();
    }

    /// Counts a node; every few thousand nodes (and at the node limit) checks whether to stop.
    #[inline(always)]
    pub(crate) fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    /// Adds this thread's new nodes to the shared count.
    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The nodes of every thread so far.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// Whether the whole search is over, or a split point this thread searches below was cut
    /// off.
    fn must_stop(&self) -> bool {
        self.shared.halt.load(Ordering::Relaxed)
            || self.shared.stop.load(Ordering::Relaxed)
            || self.chain.last().is_some_and(|sp| sp.aborted())
    }

    #[cold]
    fn poll(&mut self) {
        self.flush();
        // Every thread watches the limits: the main thread may be waiting at a split point
        // while a helper searches on.
        let total = self.shared.nodes.load(Ordering::Relaxed);
        let late = self.shared.deadline.is_some_and(|d| Instant::now() >= d);
        if total >= self.shared.node_limit || late {
            self.shared.halt.store(true, Ordering::Relaxed);
        }
        if self.must_stop() {
            self.stopped = true;
        }
        let room = self.shared.node_limit.saturating_sub(total);
        // Below a split point a cutoff elsewhere may end this thread's work: look sooner.
        let interval = if self.chain.is_empty() {
            POLL_INTERVAL
        } else {
            POLL_INTERVAL / 8
        };
        self.next_poll = self.nodes + room.min(interval);
    }
}

/// What the midgame needs from the endgame: the exact final score once a search reaches the
/// end of the game. Scores in discs, fail-soft on (alpha, beta).
pub(crate) trait ExactSolver {
    fn solve(&mut self, b: &Board, alpha: i32, beta: i32) -> i32;
}

/// The disc window that holds a centi-disc window: exact disc scores outside it stay outside.
pub(crate) fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = alpha.div_euclid(DISC).clamp(-64, 63);
    let b = (-(-beta).div_euclid(DISC)).clamp(a + 1, 64);
    (a, b)
}
