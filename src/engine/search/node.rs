//! One thread's search and the node loop that every node runs. [`Searcher`] holds a thread's
//! counters, stop conditions and the split points it works below; [`Searcher::search_moves`]
//! and [`Searcher::move_loop`] are the NegaScout loop of every midgame and endgame node, which
//! hands a node's younger moves to idle threads (Young Brothers Wait, see
//! [`super::parallel`]). A node's [`NodeKind`] says how its children are searched: the midgame
//! and the endgame each implement it once, so this module depends on neither.

use super::limits::{Deadlines, Limits, Stage, Watch, MAX_CONTEMPT, POLL_INTERVAL};
use super::movelist::MoveList;
use super::parallel::{Pool, SplitPoint};
use crate::engine::board::Board;
use crate::engine::eval::DISC;
use crate::engine::tt::{Part, TranspositionTable, NO_MOVE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Bound above any score.
pub(crate) const INFINITY: i32 = 65 * DISC;

/// The best score there is, a wipe-out: no window or bound needs to reach past it.
pub(crate) const MAX_SCORE: i32 = 64 * DISC;

/// How the move loop searches the children of a node, scores from the node's side. A split
/// point keeps its node's kind for the threads that join it. Each child comes with the move
/// that made it, its square and flipped discs.
pub(crate) trait NodeKind: Send + Sync {
    /// A child searched with the window (alpha, beta).
    fn open(&self, s: &mut Searcher<'_>, child: &Board, mv: Move, alpha: i32, beta: i32) -> i32;
    /// A child's null-window test: is its score above `alpha`?
    fn null(&self, s: &mut Searcher<'_>, child: &Board, mv: Move, alpha: i32) -> i32;
    /// Whether the subtrees of `b`'s moves outweigh the cost of sharing them among threads.
    fn splits(&self, b: &Board) -> bool;
}

/// A move: its square and the discs it flips.
pub(crate) type Move = (u32, u64);

/// A split point as the threads share it, whatever its node's kind.
type Split = SplitPoint<dyn NodeKind>;

/// What all the threads of one search share: the table, the user's stop flag, the flag that
/// ends every thread once the search is over, the node count of every thread and its limits,
/// and the split points open to idle threads (none with one thread).
pub(crate) struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    halt: AtomicBool,
    /// The node count of every thread, and the stage under way, for other threads to see.
    watch: Arc<Watch>,
    node_limit: u64,
    /// When the time limits started.
    clock: Instant,
    deadlines: Arc<Deadlines>,
    /// What a draw is worth to the root's side to move, below 0 (see `Limits::contempt`).
    contempt: i32,
    /// The root's empties: their parity, with the passes, tells whose turn a node is.
    root_empties: u32,
    pool: Option<Pool<dyn NodeKind>>,
}

impl<'a> Shared<'a> {
    /// What the threads of a search of `root` under `limits` share, its time counted from
    /// `clock`.
    pub(crate) fn new(
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        (root, limits): (&Board, &Limits),
        clock: Instant,
    ) -> Shared<'a> {
        Shared {
            tt,
            stop,
            halt: AtomicBool::new(false),
            watch: fresh_watch(limits, clock),
            node_limit: limits.nodes.unwrap_or(u64::MAX).max(1),
            clock,
            deadlines: limits
                .deadlines
                .clone()
                .unwrap_or_else(|| Arc::new(Deadlines::new(limits.soft_time, limits.hard_time))),
            contempt: limits.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT),
            root_empties: root.empty_count(),
            pool: (limits.threads > 1).then(Pool::default),
        }
    }

    /// Ends the search on every thread.
    pub(crate) fn halt(&self) {
        self.halt.store(true, Ordering::Relaxed);
    }

    /// The nodes every thread has added to the count.
    pub(crate) fn nodes(&self) -> u64 {
        self.watch.nodes.load(Ordering::Relaxed)
    }
}

/// The watch of `limits` (or a new one), begun anew for a search whose clock started at `clock`.
fn fresh_watch(limits: &Limits, clock: Instant) -> Arc<Watch> {
    let watch = limits.watch.clone().unwrap_or_default();
    watch.begin(Some(clock));
    watch
}

/// One thread's search state: its counters, stop conditions and split points.
pub(crate) struct Searcher<'a> {
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
    chain: Vec<Arc<Split>>,
    /// Selectivity of the search under way (see `endgame::levels`): an endgame pass's level,
    /// or the midgame's with Multi-ProbCut; a split point hands it to the threads that join.
    pub(crate) level: u8,
    /// An odd number of passes lies between the root and the node searched; a split point
    /// hands it to the threads that join.
    passed: bool,
    /// By empties, the move (a one-square mask) that last cut a node one ply from the leaves.
    pub(crate) leaf_killers: [u64; 61],
}

impl<'a> Searcher<'a> {
    /// A thread of the search `shared`, at the endgame selectivity `level`.
    pub(crate) fn new(shared: &'a Shared<'a>, level: u8) -> Searcher<'a> {
        Searcher {
            shared,
            tt: shared.tt,
            nodes: 0,
            flushed: 0,
            next_poll: POLL_INTERVAL.min(shared.node_limit),
            stopped: false,
            chain: Vec::new(),
            level,
            passed: false,
            leaf_killers: [0; 61],
        }
    }

    /// The value of `b`'s search after its side to move passes, by `search`.
    pub(crate) fn after_pass<T>(
        &mut self,
        b: &Board,
        search: impl FnOnce(&mut Self, &Board) -> T,
    ) -> T {
        self.passed = !self.passed;
        let value = search(self, &b.pass());
        self.passed = !self.passed;
        value
    }

    /// The value of the finished game `b` for its side to move, in centi-discs: a draw is
    /// worth the contempt below 0 to the root's side, above 0 to the other.
    pub(crate) fn final_value(&self, b: &Board) -> i32 {
        match b.final_score() {
            0 => self.draw_value(b),
            score => score * DISC,
        }
    }

    /// What a draw is worth to the side to move at `b` (see [`Self::final_value`]).
    pub(crate) fn draw_value(&self, b: &Board) -> i32 {
        let contempt = self.shared.contempt;
        let root_side = (self.shared.root_empties + b.empty_count()).is_multiple_of(2);
        if root_side != self.passed {
            -contempt
        } else {
            contempt
        }
    }

    /// A helper thread's life: join whatever split point is open, until the search ends.
    pub(crate) fn serve(&mut self) {
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
    pub(crate) fn flush(&mut self) {
        self.shared
            .watch
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The nodes of every thread so far.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.shared.nodes() + self.nodes - self.flushed
    }

    /// Shows other threads that the root entered `stage`.
    pub(crate) fn enter(&self, stage: Stage) {
        self.shared.watch.enter(stage);
    }

    /// Whether the time after which no iteration starts, stretched by `stretch` (more than 1:
    /// later) where it stretches ([`Deadlines::past_soft`]), has passed.
    pub(crate) fn past_soft_deadline(&self, stretch: f64) -> bool {
        let elapsed = self.shared.clock.elapsed();
        self.shared.deadlines.past_soft(elapsed, stretch)
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
        let total = self.shared.nodes();
        let late = self.shared.deadlines.past_hard(self.shared.clock.elapsed());
        if total >= self.shared.node_limit || late {
            self.shared.halt();
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

impl Searcher<'_> {
    /// The moves of a node: the hash move first, on its own, then (unless it cut off) the
    /// others, sorted by `order` and searched by [`Self::move_loop`]. Sorting after the hash
    /// move spares the ordering's evaluations and shallow searches at every node where it cuts
    /// off. Returns the best score and move from this node's side, or `None` when the search
    /// was stopped.
    #[inline]
    pub(crate) fn search_moves<K: NodeKind + 'static>(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        hash_move: u8,
        (alpha, beta): (i32, i32),
        node: K,
        order: impl FnOnce(&mut Self, &mut MoveList),
    ) -> Option<(i32, u8)> {
        let first = list.take(hash_move).map(|(sq, f)| {
            let score = node.open(self, &b.apply(sq, f), (sq, f), alpha, beta);
            (score, sq as u8)
        });
        if self.stopped {
            return None;
        }
        if let Some((score, _)) = first {
            if score >= beta || list.len() == 0 {
                return first;
            }
        }
        order(self, list);
        self.move_loop(b, list, (alpha, beta), node, first)
    }

    /// The move loop of a node (NegaScout): the first move with the open window, the others
    /// with a null window, searched again with the open window when they beat alpha. `first`
    /// is the first move's result when it was searched already. Once the first move is
    /// searched, the others may be shared with idle threads (see [`super::parallel`]).
    fn move_loop<K: NodeKind + 'static>(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        (mut alpha, beta): (i32, i32),
        node: K,
        first: Option<(i32, u8)>,
    ) -> Option<(i32, u8)> {
        let (mut best, mut best_sq) = first.unwrap_or((-INFINITY, NO_MOVE));
        alpha = alpha.max(best);
        let mut eldest_done = first.is_some();
        loop {
            if eldest_done && list.len() > 0 && self.may_split(b, &node) {
                return self.split(b, node, list, (alpha, beta), (best, best_sq));
            }
            let Some((sq, f)) = list.next_best() else {
                break;
            };
            let child = b.apply(sq, f);
            let score = if eldest_done {
                self.null_then_open(&node, &child, (sq, f), alpha, beta)
            } else {
                node.open(self, &child, (sq, f), alpha, beta)
            };
            eldest_done = true;
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_sq = sq as u8;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        Some((best, best_sq))
    }

    /// A younger child: a null-window test of alpha, searched again with the open window when
    /// it beats alpha but not beta.
    #[inline]
    fn null_then_open<K: NodeKind + ?Sized>(
        &mut self,
        node: &K,
        child: &Board,
        mv: Move,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let s = node.null(self, child, mv, alpha);
        if s > alpha && s < beta && !self.stopped {
            node.open(self, child, mv, alpha, beta)
        } else {
            s
        }
    }

    /// Whether to share the rest of a node's moves: another thread is idle and the node is
    /// deep enough for its subtrees to outweigh the cost of splitting.
    #[inline]
    fn may_split(&self, b: &Board, node: &impl NodeKind) -> bool {
        let Some(pool) = self.shared.pool.as_ref() else {
            return false;
        };
        node.splits(b) && pool.has_idle()
    }

    /// Searches the rest of a node's moves together with the threads that join, and returns
    /// its result once all of them are done.
    #[cold]
    fn split<K: NodeKind + 'static>(
        &mut self,
        b: &Board,
        node: K,
        list: &MoveList,
        window: (i32, i32),
        best: (i32, u8),
    ) -> Option<(i32, u8)> {
        let pool = self.shared.pool.as_ref()?;
        let parent = self.chain.last().map(Arc::as_ref);
        let position = (*b, (self.level, self.passed), node);
        let sp: Arc<Split> = Arc::new(SplitPoint::new(
            position,
            window,
            best,
            list.clone(),
            parent,
        ));
        pool.offer(&sp);
        self.work_at(&sp);
        pool.withdraw(&sp);
        // Help below this node until the threads still searching its moves are done.
        while let Some(below) = pool.wait_for_work(Some(&sp), || sp.finished()) {
            self.work_at(&below);
        }
        self.stopped = self.must_stop();
        if self.stopped {
            return None;
        }
        let state = sp.state();
        Some((state.best, state.best_sq))
    }

    /// Takes moves from a joined split point and searches them until none are left or the
    /// node is cut off, then leaves it.
    fn work_at(&mut self, sp: &Arc<Split>) {
        self.chain.push(Arc::clone(sp));
        let level = std::mem::replace(&mut self.level, sp.level);
        let passed = std::mem::replace(&mut self.passed, sp.passed);
        loop {
            let (sq, f, alpha) = {
                let mut state = sp.state();
                if sp.aborted() {
                    break;
                }
                let Some((sq, f)) = state.list.next_best() else {
                    break;
                };
                (sq, f, state.alpha)
            };
            let child = sp.board.apply(sq, f);
            let score = self.null_then_open(&sp.node, &child, (sq, f), alpha, sp.beta);
            if self.stopped {
                break;
            }
            let mut state = sp.state();
            if score > state.best {
                state.best = score;
                state.best_sq = sq as u8;
                state.alpha = state.alpha.max(score);
                if score >= sp.beta {
                    sp.abort();
                }
            }
        }
        sp.leave();
        self.level = level;
        self.passed = passed;
        self.chain.pop();
        // A cutoff at this split point ends only the searches below it.
        self.stopped = self.must_stop();
    }

    /// The children of `list`, scored for the order without a search of their own, count as
    /// nodes, as Edax counts them (a child searched for the order counts itself).
    #[inline]
    pub(crate) fn count_scored(&mut self, list: &MoveList) {
        self.nodes += list.len() as u64;
    }

    /// Starts loading the buckets in `part` of every child in `list` at once, for the probes
    /// soon after: their loads from memory overlap instead of waiting one after the other.
    #[inline]
    pub(crate) fn prefetch_children(part: Part<'_>, b: &Board, list: &MoveList) {
        list.children(b).for_each(|child| part.prefetch(&child));
    }
}
