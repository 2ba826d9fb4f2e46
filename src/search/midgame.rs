//! The midgame search: principal-variation and null-window nodes on the evaluation, with the
//! table (but for nodes one ply from the leaves, which go without), and the NegaScout move
//! loop that every node shares, endgame ones included, which hands a node's younger moves to
//! idle threads (Young Brothers Wait, see [`parallel`]).

use super::movelist::MoveList;
use super::parallel::{Node, SplitPoint};
use super::{disc_window, ExactSolver, Searcher, INFINITY};
use crate::board::{flips, Board, Squares};
use crate::eval::{evaluate, Children, DISC};
use crate::tt::NO_MOVE;
use std::sync::Arc;

/// The shallowest midgame node whose moves are shared among threads.
const SPLIT_DEPTH: i32 = 4;

/// The fewest empties of an endgame node whose moves are shared among threads.
const SPLIT_EMPTIES: u32 = 12;

impl Searcher<'_> {
    /// Principal-variation node of the midgame search (open window).
    pub(crate) fn pvs(&mut self, b: &Board, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        let empties = b.empty_count() as i32;
        if depth >= empties {
            return self.solve_in_midgame(b, alpha, beta);
        }
        if depth <= 0 {
            return evaluate(b);
        }
        if depth == 1 {
            return self.search_1(b, alpha, beta);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, depth, -beta, -alpha));
        }
        let hash_move = self.tt.probe(b).map_or(NO_MOVE, |p| p.best);
        let node = Node::Midgame { depth, pv: true };
        let Some((best, best_sq)) = self.midgame_moves(b, moves, hash_move, (alpha, beta), node)
        else {
            return 0;
        };
        self.tt.store(b, depth as u8, alpha, beta, best, best_sq);
        best
    }

    /// The moves of a node: the hash move first, on its own, then (unless it cut off) the
    /// others, sorted by `order` and searched by [`Self::move_loop`]. Sorting after the hash
    /// move spares the ordering's evaluations and shallow searches at every node where it cuts
    /// off. Returns the best score and move from this node's side, or `None` when the search
    /// was stopped.
    #[inline]
    pub(crate) fn search_moves(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        hash_move: u8,
        (alpha, beta): (i32, i32),
        node: Node,
        order: impl FnOnce(&mut Self, &mut MoveList),
    ) -> Option<(i32, u8)> {
        let first = list.take(hash_move).map(|(sq, f)| {
            let score = self.child_open(node, &b.apply(sq, f), alpha, beta);
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
    /// searched, the others may be shared with idle threads (see [`parallel`]).
    pub(crate) fn move_loop(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        (mut alpha, beta): (i32, i32),
        node: Node,
        first: Option<(i32, u8)>,
    ) -> Option<(i32, u8)> {
        let (mut best, mut best_sq) = first.unwrap_or((-INFINITY, NO_MOVE));
        alpha = alpha.max(best);
        let mut eldest_done = first.is_some();
        loop {
            if eldest_done && list.len() > 0 && self.may_split(b, node) {
                return self.split(b, node, list, (alpha, beta), (best, best_sq));
            }
            let Some((sq, f)) = list.next_best() else {
                break;
            };
            let child = b.apply(sq, f);
            let score = if eldest_done {
                self.child_null_then_open(node, &child, alpha, beta)
            } else {
                self.child_open(node, &child, alpha, beta)
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

    /// A child searched with the window (alpha, beta), its score from this node's side.
    #[inline]
    fn child_open(&mut self, node: Node, child: &Board, alpha: i32, beta: i32) -> i32 {
        match node {
            Node::Midgame { depth, pv: true } => -self.pvs(child, depth - 1, -beta, -alpha),
            Node::Midgame { depth, pv: false } => -self.nws(child, depth - 1, -alpha - 1),
            Node::Endgame => -self.solve(child, -beta, -alpha),
        }
    }

    /// A younger child: a null-window test of alpha, searched again with the open window when
    /// it beats alpha but not beta.
    #[inline]
    fn child_null_then_open(&mut self, node: Node, child: &Board, alpha: i32, beta: i32) -> i32 {
        let s = match node {
            Node::Midgame { depth, .. } => -self.nws(child, depth - 1, -alpha - 1),
            Node::Endgame => -self.solve(child, -alpha - 1, -alpha),
        };
        if s > alpha && s < beta && !self.stopped {
            self.child_open(node, child, alpha, beta)
        } else {
            s
        }
    }

    /// Whether to share the rest of a node's moves: another thread is idle and the node is
    /// deep enough for its subtrees to outweigh the cost of splitting.
    #[inline]
    fn may_split(&self, b: &Board, node: Node) -> bool {
        let Some(pool) = self.shared.pool.as_ref() else {
            return false;
        };
        let deep = match node {
            Node::Midgame { depth, .. } => depth >= SPLIT_DEPTH,
            Node::Endgame => b.empty_count() >= SPLIT_EMPTIES,
        };
        deep && pool.has_idle()
    }

    /// Searches the rest of a node's moves together with the threads that join, and returns
    /// its result once all of them are done.
    #[cold]
    fn split(
        &mut self,
        b: &Board,
        node: Node,
        list: &MoveList,
        window: (i32, i32),
        best: (i32, u8),
    ) -> Option<(i32, u8)> {
        let pool = self.shared.pool.as_ref()?;
        let parent = self.chain.last().cloned();
        let position = (*b, node, self.level);
        let sp = Arc::new(SplitPoint::new(
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

    /// The children of `list`, scored for the order without a search of their own, count as
    /// nodes, as Edax counts them (a child searched for the order counts itself).
    #[inline]
    pub(crate) fn count_scored(&mut self, list: &MoveList) {
        self.nodes += list.len() as u64;
    }

    /// Starts loading the table buckets of every child in `list` at once, for the probes
    /// soon after: their loads from memory overlap instead of waiting one after the other.
    #[inline]
    pub(crate) fn prefetch_children(&self, b: &Board, list: &MoveList) {
        list.children(b).for_each(|child| self.tt.prefetch(&child));
    }

    /// Takes moves from a joined split point and searches them until none are left or the
    /// node is cut off, then leaves it.
    pub(crate) fn work_at(&mut self, sp: &Arc<SplitPoint>) {
        self.chain.push(Arc::clone(sp));
        let level = std::mem::replace(&mut self.level, sp.level);
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
            let score = self.child_null_then_open(sp.node, &child, alpha, sp.beta);
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
        self.chain.pop();
        // A cutoff at this split point ends only the searches below it.
        self.stopped = self.must_stop();
    }

    /// Null-window node of the midgame search: is the score above `alpha`?
    pub(crate) fn nws(&mut self, b: &Board, depth: i32, alpha: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        let empties = b.empty_count() as i32;
        if depth >= empties {
            return self.solve_in_midgame(b, alpha, alpha + 1);
        }
        if depth <= 0 {
            return evaluate(b);
        }
        if depth == 1 {
            return self.search_1(b, alpha, alpha + 1);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.nws(p, depth, -alpha - 1));
        }
        let mut hash_move = NO_MOVE;
        if let Some(p) = self.tt.probe(b) {
            if i32::from(p.depth) >= depth {
                if p.lower > alpha {
                    return p.lower;
                }
                if p.upper <= alpha {
                    return p.upper;
                }
            }
            hash_move = p.best;
        }
        let node = Node::Midgame { depth, pv: false };
        let window = (alpha, alpha + 1);
        let Some((best, best_sq)) = self.midgame_moves(b, moves, hash_move, window, node) else {
            return 0;
        };
        self.tt
            .store(b, depth as u8, alpha, alpha + 1, best, best_sq);
        best
    }

    /// A node one ply from the leaves: the best evaluation after a move, fail-soft on (alpha,
    /// beta), moves in square order. No table and no move list: probing would cost more than
    /// the leaves it saves. Each leaf counts as a node, as below a full node.
    fn search_1(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, 1, -beta, -alpha));
        }
        let mut best = -INFINITY;
        let children = Children::of(b);
        for sq in Squares(moves) {
            self.visit();
            let child = b.apply(sq, flips(b.player, b.opponent, sq));
            let score = -children.evaluate(sq, &child);
            if score > best {
                best = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// A node whose side to move cannot play: the game is over, or the turn passes at no depth.
    #[inline]
    pub(crate) fn pass_or_end(
        &mut self,
        b: &Board,
        search_passed: impl FnOnce(&mut Self, &Board) -> i32,
    ) -> i32 {
        let passed = b.pass();
        if passed.moves() == 0 {
            b.final_score() * DISC
        } else {
            search_passed(self, &passed)
        }
    }

    /// An exact endgame search called from the midgame tree, with the window in centi-discs.
    fn solve_in_midgame(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        let (a, be) = disc_window(alpha, beta);
        self.solve(b, a, be) * DISC
    }
}

impl Searcher<'_> {
    /// The moves of a midgame node of depth 2 or more (shallower ones have no list), the hash
    /// move first (see [`Self::search_moves`]), the others sorted by the evaluation after the
    /// move: a one-ply search, each child counted as a node.
    fn midgame_moves(
        &mut self,
        b: &Board,
        moves: u64,
        hash_move: u8,
        window: (i32, i32),
        node: Node,
    ) -> Option<(i32, u8)> {
        let mut list = MoveList::unkeyed(b, moves);
        let order = |s: &mut Self, list: &mut MoveList| {
            s.count_scored(list);
            // Children of 2 plies or more probe the table: start their buckets' loads now,
            // while the evaluations below keep the processor busy.
            if matches!(node, Node::Midgame { depth, .. } if depth > 2) {
                s.prefetch_children(b, list);
            }
            let children = Children::of(b);
            list.key(b, |sq, child| -children.evaluate(sq, child));
        };
        self.search_moves(b, &mut list, hash_move, window, node, order)
    }
}
