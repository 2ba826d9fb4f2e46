//! The exact endgame solver: alpha-beta on the final disc differential (in discs, not
//! centi-discs), with a transposition table and fastest-first ordering far from the end,
//! parity ordering without move generation close to it, and a stability cutoff. Its nodes'
//! moves go through the shared move loop as [`Exact`] nodes.
//!
//! It calls the midgame search, never the other way: shallow searches order its moves far
//! from the end, and decide ProbCut at the selective [`levels`] that come before the exact
//! one.

pub mod last;
pub(crate) mod levels;

use super::movelist::{fastest_first, weighted_replies, MoveList};
use super::node::{Move, NodeKind, Searcher, INFINITY};
use super::probcut::{endgame_shallow_depth, ENDGAME_MODEL};
use crate::engine::board::Board;
use crate::engine::eval::{Children, DISC};
use crate::engine::tt::{Part, NO_MOVE};
use last::{odd_quadrants, solve_shallow, stability_bound};
use levels::{endgame_depth, endgame_level, margin, EXACT_LEVEL};

/// From this many empties on, results go to the transposition table.
const TABLE_EMPTIES: u32 = 10;
/// Nodes with this many empties (one fewer than [`TABLE_EMPTIES`]) keep their results in the
/// table's first MiB (see `TranspositionTable::near_end`), which stays in the cache: FFO
/// #40-#59 take 4.0% fewer nodes than without, and FFO #49, #51, #52 and #56 1% more time;
/// in the whole table they saved 4.6% of the nodes but cost 2.5% more time.
const NEAR_END_EMPTIES: u32 = TABLE_EMPTIES - 1;
/// From this many empties on, moves are ordered by a shallow midgame search.
const SEARCH_SORT_EMPTIES: u32 = 12;
/// Up to this many empties, moves are found square by square in parity order, without the
/// table (see [`last`]).
const SHALLOW_EMPTIES: u32 = last::SHALLOW_EMPTIES;

/// From this many empties on, the children's table entries are looked at before searching.
const ETC_EMPTIES: u32 = 12;
/// How far below alpha, in discs, the ordering searches still tell moves apart (Edax uses
/// the same 8 discs); below it a move's key is a bound.
const SORT_ALPHA_MARGIN: i32 = 8;
/// From this many empties on, a selective search tries ProbCut. Nearer the end a cut saves
/// less than its shallow searches cost: from 12 empties, FFO #40-#54 took 6% more nodes and 3%
/// more time; from 8, the same nodes and 9% more time.
const PROBCUT_EMPTIES: u32 = 10;
/// The fewest empties of an endgame node whose moves are shared among threads.
const SPLIT_EMPTIES: u32 = 12;

/// An endgame solver node: its children are solved, scores in discs.
#[derive(Copy, Clone)]
struct Exact;

impl NodeKind for Exact {
    #[inline]
    fn open(&self, s: &mut Searcher<'_>, child: &Board, _: Move, alpha: i32, beta: i32) -> i32 {
        -s.solve(child, -beta, -alpha)
    }

    #[inline]
    fn null(&self, s: &mut Searcher<'_>, child: &Board, _: Move, alpha: i32) -> i32 {
        -s.solve(child, -alpha - 1, -alpha)
    }

    #[inline]
    fn splits(&self, b: &Board) -> bool {
        b.empty_count() >= SPLIT_EMPTIES
    }
}

impl<'a> Searcher<'a> {
    /// The exact score of `b` for the side to move if it lies in (alpha, beta); otherwise a
    /// bound on the same side of the window (fail-soft). Scores in discs, at the selectivity
    /// of `self.level`.
    pub(crate) fn solve(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        if b.empty_count() <= SHALLOW_EMPTIES {
            let parity = odd_quadrants(b.empties());
            solve_shallow(b.player, b.opponent, alpha, beta, parity, &mut self.nodes)
        } else {
            self.solve_deep(b, alpha, beta)
        }
    }

    /// Many empties: sorted move list, transposition table, stability cutoff, PVS.
    fn solve_deep(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        let moves = b.moves();
        if moves == 0 {
            return if b.opponent_moves() == 0 {
                b.final_score()
            } else {
                -self.after_pass(b, |s, passed| s.solve(passed, -beta, -alpha))
            };
        }
        let empties = b.empty_count();
        if let Some(bound) = stability_bound(b.player, b.opponent, alpha, empties) {
            return bound;
        }
        let mut hash_move = NO_MOVE;
        if empties >= NEAR_END_EMPTIES {
            if let Some(p) = self.table_part(empties).probe(b) {
                let level = endgame_level(p.depth);
                if level.is_some_and(|l| l >= self.level) {
                    let (lower, upper) = (p.lower / DISC, p.upper / DISC);
                    if lower >= beta {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                }
                if level.is_some() {
                    hash_move = p.best;
                }
            }
        }
        let mut list = MoveList::unkeyed(b, moves);
        if empties > NEAR_END_EMPTIES {
            // The transposition cutoff and the children probe the table: their buckets'
            // loads start together (FFO #53-#54 solve 3% faster).
            Self::prefetch_children(self.table_part(empties - 1), b, &list);
        }
        if empties >= ETC_EMPTIES {
            if let Some(bound) = self.transposition_cutoff(b, &list, beta) {
                return bound;
            }
        }
        if self.level < EXACT_LEVEL && empties >= PROBCUT_EMPTIES {
            if let Some(bound) = self.probcut(b, alpha, beta) {
                return bound;
            }
        }
        let order = |s: &mut Self, list: &mut MoveList| {
            if empties >= SEARCH_SORT_EMPTIES {
                s.order_by_search(b, list, empties, alpha);
            } else {
                s.count_scored(list);
                order_fastest_first(b, list);
            }
        };
        let window = (alpha, beta);
        let Some((best, best_sq)) =
            self.search_moves(b, &mut list, hash_move, window, Exact, order)
        else {
            return 0;
        };
        if empties >= NEAR_END_EMPTIES {
            self.table_part(empties).store(
                b,
                endgame_depth(empties, self.level),
                alpha * DISC,
                beta * DISC,
                best * DISC,
                best_sq,
            );
        }
        best
    }

    /// The part of the table that keeps the results of nodes with `empties` empties (from
    /// [`NEAR_END_EMPTIES`] on).
    #[inline]
    fn table_part(&self, empties: u32) -> Part<'a> {
        if empties == NEAR_END_EMPTIES {
            self.tt.near_end()
        } else {
            self.tt.whole()
        }
    }
}

impl Searcher<'_> {
    /// Enhanced transposition cutoff: a move whose result the table already knows to be at
    /// least `beta` ends the node before any search.
    fn transposition_cutoff(&self, b: &Board, list: &MoveList, beta: i32) -> Option<i32> {
        list.children(b).find_map(|child| {
            let p = self.tt.probe(&child)?;
            let known = endgame_level(p.depth).is_some_and(|l| l >= self.level);
            // The child's upper bound, from this node's side, is a lower bound here.
            (known && -p.upper / DISC >= beta).then_some(-p.upper / DISC)
        })
    }

    /// ProbCut: when a shallow search puts the score beyond a bound by the margin of the
    /// current level, the node is taken to fail there without the exact search.
    fn probcut(&mut self, b: &Board, alpha: i32, beta: i32) -> Option<i32> {
        let empties = b.empty_count();
        let depth = endgame_shallow_depth(empties);
        let margin = margin(self.level) * ENDGAME_MODEL.sigma(depth) / 10;
        if beta < 64 {
            let bound = beta * DISC + margin - ENDGAME_MODEL.bias;
            if self.nws(b, depth as i32, bound - 1) >= bound {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let bound = alpha * DISC - margin - ENDGAME_MODEL.bias;
            if self.nws(b, depth as i32, bound) <= bound {
                return Some(alpha);
            }
        }
        None
    }

    /// Far from the end a better order pays for itself: each move is scored by a shallow
    /// midgame search of the position after it (see [`sort_depth`]; at depth 0, its
    /// evaluation), plus mobility. A search only needs to tell the moves that may reach
    /// `alpha` apart: it stops at a bound once a move is [`SORT_ALPHA_MARGIN`] below it.
    fn order_by_search(&mut self, b: &Board, list: &mut MoveList, empties: u32, alpha: i32) {
        let depth = sort_depth(empties);
        // The child's score at which this move is sure to stay below alpha - margin.
        let ceiling = ((SORT_ALPHA_MARGIN - alpha) * DISC).min(INFINITY);
        let children = (depth == 0).then(|| {
            self.count_scored(list);
            Children::of(b)
        });
        list.key(b, |sq, child| {
            let score = match &children {
                Some(children) => children.evaluate(sq, child),
                None => self.pvs(child, depth, -INFINITY, ceiling),
            };
            -score - reply_weight(depth) * weighted_replies(child)
        });
    }
}

/// The depth of the searches that order the moves of a node with `empties` empties (0: the
/// evaluation alone): a ply more every 3 empties from 17, and one more from 27, up to 6. The
/// schedule is Edax's moved an empty earlier: it orders more cheaply than 2 plies up to 19
/// empties, but more deeply near the root of a big solve. With the 17-shape weights, Edax's
/// (from 18) cost FFO #49, #51, #52, #55 and #56 4% more nodes, and starting from 16 saved
/// 1% more nodes for 6% more time.
fn sort_depth(empties: u32) -> i32 {
    let plies = (empties as i32 - 14) / 3 + i32::from(empties >= 27);
    plies.clamp(0, 6)
}

/// What one reply of the opponent costs a move in [`Searcher::order_by_search`], centi-discs:
/// 6 discs beside the bare evaluation, and less as the ordering search deepens and its score
/// says more (3 discs at depth 1, 1.5 from depth 2). Against 4 discs at every depth, FFO
/// #55-#58 took 14-30% fewer nodes; on FFO #49, #51, #52, #55 and #56, 6 discs took 3.6% fewer
/// nodes than Edax's 4, and 6% fewer than 8 or 3.
fn reply_weight(depth: i32) -> i32 {
    (6 * DISC) >> depth.min(2)
}

/// Endgame move ordering: [`fastest_first`], moves into odd quadrants preferred among moves
/// alike.
fn order_fastest_first(b: &Board, list: &mut MoveList) {
    let odd = odd_quadrants(b.empties());
    list.key(b, |sq, child| {
        let parity = if odd >> sq & 1 == 1 { 4 } else { 0 };
        fastest_first(child) + parity
    });
}
