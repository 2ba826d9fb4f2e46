//! The midgame search: principal-variation and null-window nodes on the evaluation, with the
//! table, and the NegaScout move loop that the endgame's principal nodes share.

use super::movelist::MoveList;
use super::{disc_window, ExactSolver, Searcher, INFINITY, MAX_SCORE};
use crate::board::Board;
use crate::eval::{evaluate, DISC};
use crate::tt::NO_MOVE;

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
            return evaluate(b).clamp(-MAX_SCORE, MAX_SCORE);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, depth, -beta, -alpha));
        }
        let hash_move = self.tt.probe(b).map_or(NO_MOVE, |p| p.best);
        let mut list = self.midgame_moves(b, moves, hash_move, depth);
        let Some((best, best_sq)) = self.principal_variation(
            b,
            &mut list,
            (alpha, beta),
            |s, child, a, be| -s.pvs(child, depth - 1, -be, -a),
            |s, child, a| -s.nws(child, depth - 1, -a - 1),
        ) else {
            return 0;
        };
        self.tt.store(b, depth as u8, alpha, beta, best, best_sq);
        best
    }

    /// The move loop of a PV node (NegaScout): the first move with the open window, the others
    /// with a null window, searched again with the open window when they beat alpha.
    /// `open(child, alpha, beta)` and `null(child, alpha)` return scores from this node's side.
    /// Returns the best score and move, or `None` when the search was stopped.
    pub(crate) fn principal_variation(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        (mut alpha, beta): (i32, i32),
        mut open: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
        mut null: impl FnMut(&mut Self, &Board, i32) -> i32,
    ) -> Option<(i32, u8)> {
        let (mut best, mut best_sq) = (-INFINITY, NO_MOVE);
        let mut first = true;
        while let Some((sq, f)) = list.next_best() {
            let child = b.apply(sq, f);
            let score = if first {
                open(self, &child, alpha, beta)
            } else {
                let s = null(self, &child, alpha);
                if s > alpha && s < beta && !self.stopped {
                    open(self, &child, alpha, beta)
                } else {
                    s
                }
            };
            first = false;
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
            return evaluate(b).clamp(-MAX_SCORE, MAX_SCORE);
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
        let mut list = self.midgame_moves(b, moves, hash_move, depth);
        let (mut best, mut best_sq) = (-INFINITY, NO_MOVE);
        while let Some((sq, f)) = list.next_best() {
            let score = -self.nws(&b.apply(sq, f), depth - 1, -alpha - 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq as u8;
                if score > alpha {
                    break;
                }
            }
        }
        self.tt
            .store(b, depth as u8, alpha, alpha + 1, best, best_sq);
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
    /// Midgame move ordering: hash move first; from depth 2 on, by the evaluation after the
    /// move (a one-ply search, each child counted as a node); at depth 1 the leaves are cheap
    /// and order matters less.
    fn midgame_moves(&mut self, b: &Board, moves: u64, hash_move: u8, depth: i32) -> MoveList {
        let list = MoveList::new(b, moves, |sq, child| {
            if sq as u8 == hash_move {
                i32::MAX
            } else if depth >= 2 {
                -evaluate(child)
            } else {
                0
            }
        });
        if depth >= 2 {
            self.count_scored(&list);
        }
        list
    }

    /// Counts the children of a list scored for move ordering as nodes, as Edax counts them.
    #[inline]
    pub(crate) fn count_scored(&mut self, list: &MoveList) {
        self.nodes += list.len() as u64;
    }
}
