//! The search: iterative-deepening PVS over the midgame, an exact (or win/loss/draw) solver
//! for the endgame, and the root that drives both and reports.
//!
//! Modules depend one way: `movelist` <- `midgame` <- `endgame` <- `root`. The midgame reaches
//! exact values near the end through the [`ExactSolver`] trait, which the endgame implements,
//! so it does not depend on the endgame module. This file holds what they share: the limits
//! and reports, and [`Searcher`], one thread's search state (counters, stop conditions, the
//! table it uses).

pub mod endgame;
mod midgame;
mod movelist;
mod root;

use crate::board::Board;
use crate::eval::DISC;
use crate::tt::{TranspositionTable, EXACT_LEVEL};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// How far past a node limit a search may go: the nodes of one last-empties solve, which
/// counts without looking at the limit.
pub const NODE_LIMIT_SLACK: u64 = 2_000;

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 4096;

/// What a search may spend, and what it is asked for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest midgame iteration.
    pub depth: Option<u32>,
    /// Nodes at most: checked at every node but those of the last empties' solver and the
    /// children scored for ordering, so a search may end up to [`NODE_LIMIT_SLACK`] past it.
    pub nodes: Option<u64>,
    /// Do not start an iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop at once after this much time.
    pub hard_time: Option<Duration>,
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
/// ends the helper threads once the main one is done, and the node count of every thread.
pub struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    helpers_done: AtomicBool,
    nodes: AtomicU64,
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
    node_limit: u64,
    deadline: Option<Instant>,
    pub(crate) stopped: bool,
    /// A helper thread of a parallel search: it fills the table and reports nothing.
    helper: Option<usize>,
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

/// Searches `board` on `limits.threads` threads sharing `tt` (Lazy SMP): the calling thread
/// runs the search it reports, with `progress` after each iteration; the others run the same
/// iterations, odd ones a ply ahead, and leave what they find in the table. A stop reaches
/// them all at their next poll, and the nodes reported are the sum over the threads.
pub fn search(
    tt: &TranspositionTable,
    stop: &AtomicBool,
    board: &Board,
    limits: &Limits,
    progress: impl FnMut(&Report),
) -> Report {
    let shared = Shared {
        tt,
        stop,
        helpers_done: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let mut report = std::thread::scope(|s| {
        for i in 1..limits.threads.max(1) {
            let shared = &shared;
            s.spawn(move || Searcher::with(shared, Some(i)).run(board, limits, |_| {}));
        }
        let report = Searcher::with(&shared, None).run(board, limits, progress);
        shared.helpers_done.store(true, Ordering::Relaxed);
        report
    });
    report.nodes = shared.nodes.load(Ordering::Relaxed);
    report
}

impl<'a> Searcher<'a> {
    fn with(shared: &'a Shared<'a>, helper: Option<usize>) -> Searcher<'a> {
        Searcher {
            shared,
            tt: shared.tt,
            nodes: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            helper,
            level: EXACT_LEVEL,
            improvement: None,
        }
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

    #[cold]
    fn poll(&mut self) {
        self.flush();
        let total = self.shared.nodes.load(Ordering::Relaxed);
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let halted = self.helper.is_some() && self.shared.helpers_done.load(Ordering::Relaxed);
        if total >= self.node_limit || late || halted || self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        let room = self.node_limit.saturating_sub(total);
        self.next_poll = self.nodes + room.min(POLL_INTERVAL);
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
