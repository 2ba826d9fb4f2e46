//! The midgame search: principal-variation and null-window nodes on the evaluation, with the
//! table (but for nodes one ply from the leaves, which go without). Their moves go through the
//! shared move loop as [`Midgame`] nodes. The null-window nodes of a midgame iteration try
//! Multi-ProbCut first (see `probcut`).
//!
//! Each node hands its children their pattern indices, carried over the move (`node_lanes`):
//! a search reads a board's indices afresh only where it starts, after a pass, and to order
//! the moves of a node of even depth (4 or more).
//!
//! A midgame search never reaches the end of the game by depth, so it needs no exact solver:
//! the root starts midgame iterations only shallower than the empties (and solves instead),
//! the endgame asks for searches a few plies deep, and every move takes one ply and one empty
//! away (a pass neither). A game that ends early, both sides passing, is scored as it ends.

use super::endgame::levels::MIDGAME_PROBCUT_LEVEL;
use super::movelist::{fastest_first, MoveList};
use super::node::{Move, NodeKind, Searcher, INFINITY, MAX_SCORE};
use super::probcut::{midgame_shallow_depth, MIDGAME_MARGIN, MIDGAME_MIN_DEPTH, MIDGAME_MODEL};
use crate::engine::board::{flips, Board, Squares, CORNERS, C_SQUARES, EDGES, X_SQUARES};
use crate::engine::eval::patterns::{after_move, after_own_move, carried, Carried};
use crate::engine::eval::{evaluate_carried, Children};
use crate::engine::tt::NO_MOVE;

/// The order in which a node one ply from the leaves tries its moves, by the squares' usual
/// worth, at no cost: corners, the other edge squares but those next to a corner, the inner
/// squares but those diagonal to a corner, and last the squares next to a corner (C, then X).
/// A cut comes sooner: at depth 20 on 40 midgame positions, 6.5% fewer nodes and about 8% less
/// time than square order.
const LEAF_ORDER: [u64; 5] = [
    CORNERS,
    EDGES & !(CORNERS | C_SQUARES),
    !(EDGES | X_SQUARES),
    C_SQUARES,
    X_SQUARES,
];

/// The shallowest midgame node whose moves are shared among threads.
const SPLIT_DEPTH: i32 = 4;

/// A midgame node of this depth, principal (open window) or not (null window): its children
/// are searched a ply shallower, each with its pattern indices carried over the move from the
/// node's ([`node_lanes`]) instead of read afresh.
#[derive(Copy, Clone)]
struct Midgame {
    depth: i32,
    pv: bool,
    lanes: Carried,
}

impl Midgame {
    /// The lanes of the child that `(sq, flipped)` makes.
    #[inline]
    fn child_lanes(&self, (sq, flipped): Move) -> Carried {
        if reads_the_mover(self.depth) {
            after_own_move(&self.lanes, sq, flipped)
        } else {
            after_move(&self.lanes, sq, flipped)
        }
    }
}

impl NodeKind for Midgame {
    #[inline]
    fn open(&self, s: &mut Searcher<'_>, child: &Board, mv: Move, alpha: i32, beta: i32) -> i32 {
        let lanes = self.child_lanes(mv);
        if self.pv {
            -s.pvs_in(child, self.depth - 1, &lanes, -beta, -alpha)
        } else {
            -s.nws_in(child, self.depth - 1, &lanes, -alpha - 1)
        }
    }

    #[inline]
    fn null(&self, s: &mut Searcher<'_>, child: &Board, mv: Move, alpha: i32) -> i32 {
        let lanes = self.child_lanes(mv);
        -s.nws_in(child, self.depth - 1, &lanes, -alpha - 1)
    }

    #[inline]
    fn splits(&self, _: &Board) -> bool {
        self.depth >= SPLIT_DEPTH
    }
}

/// Whether a midgame node of `depth` holds its pattern indices ([`carried`]) read from its
/// side to move, as it does at even depths; at odd ones they are read from the other side. A
/// child's come from its parent's over the move ([`Midgame::child_lanes`]), read from the same
/// side, which is the child's other side where it was the parent's own and the reverse: the
/// rule holds all the way down: a node of depth 1 holds what its children are evaluated from
/// ([`Children`]), and a node of depth 0 (Multi-ProbCut's test of a node of depth 2) what it
/// is evaluated from itself. A pass changes the side to move but not the depth, so its node reads
/// them afresh.
#[inline]
const fn reads_the_mover(depth: i32) -> bool {
    depth % 2 == 0
}

/// The pattern indices of a midgame node of `depth`, read afresh (see [`reads_the_mover`]).
#[inline]
fn node_lanes(b: &Board, depth: i32) -> Carried {
    if reads_the_mover(depth) {
        carried(b)
    } else {
        carried(&b.pass())
    }
}

impl Searcher<'_> {
    /// Principal-variation node of the midgame search (open window), `depth` below the empties.
    pub(crate) fn pvs(&mut self, b: &Board, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.pvs_in(b, depth, &node_lanes(b, depth), alpha, beta)
    }

    /// Null-window node of the midgame search: is the score above `alpha`? `depth` is below
    /// the empties.
    pub(crate) fn nws(&mut self, b: &Board, depth: i32, alpha: i32) -> i32 {
        self.nws_in(b, depth, &node_lanes(b, depth), alpha)
    }

    /// [`Self::pvs`] of a node whose lanes ([`node_lanes`]) are given.
    fn pvs_in(&mut self, b: &Board, depth: i32, lanes: &Carried, alpha: i32, beta: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        debug_assert!(depth < b.empty_count() as i32, "midgame search at the end");
        if depth <= 0 {
            return evaluate_carried(b, lanes);
        }
        if depth == 1 {
            return self.search_1(b, &Children::carried(b, lanes), alpha, beta);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, depth, -beta, -alpha));
        }
        let hash_move = self.tt.probe(b).map_or(NO_MOVE, |p| p.best);
        let node = Midgame {
            depth,
            pv: true,
            lanes: *lanes,
        };
        let Some((best, best_sq)) = self.midgame_moves(b, moves, hash_move, (alpha, beta), node)
        else {
            return 0;
        };
        self.tt.store(b, depth as u8, alpha, beta, best, best_sq);
        best
    }

    /// [`Self::nws`] of a node whose lanes ([`node_lanes`]) are given.
    fn nws_in(&mut self, b: &Board, depth: i32, lanes: &Carried, alpha: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        debug_assert!(depth < b.empty_count() as i32, "midgame search at the end");
        if depth <= 0 {
            return evaluate_carried(b, lanes);
        }
        if depth == 1 {
            return self.search_1(b, &Children::carried(b, lanes), alpha, alpha + 1);
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
        if self.level == MIDGAME_PROBCUT_LEVEL && depth >= MIDGAME_MIN_DEPTH as i32 {
            if let Some(bound) = self.multi_probcut(b, depth, lanes, alpha) {
                return bound;
            }
        }
        let node = Midgame {
            depth,
            pv: false,
            lanes: *lanes,
        };
        let window = (alpha, alpha + 1);
        let Some((best, best_sq)) = self.midgame_moves(b, moves, hash_move, window, node) else {
            return 0;
        };
        self.tt
            .store(b, depth as u8, alpha, alpha + 1, best, best_sq);
        best
    }

    /// Multi-ProbCut: when a shallow search puts the score beyond the null window by the
    /// margin, the node is taken to fail there without its full-depth search. The margin is
    /// [`MIDGAME_MARGIN`] standard deviations of the shallow search's error.
    fn multi_probcut(&mut self, b: &Board, depth: i32, lanes: &Carried, alpha: i32) -> Option<i32> {
        let shallow = midgame_shallow_depth(depth as u32);
        let sigma = MIDGAME_MODEL.sigma(shallow, depth as u32, b.empty_count());
        let margin = MIDGAME_MARGIN * sigma / 10;
        let beta = alpha + 1;
        let high = beta + margin;
        if high < MAX_SCORE && self.nws_in(b, shallow as i32, lanes, high - 1) >= high {
            return Some(beta);
        }
        let low = alpha - margin;
        if low > -MAX_SCORE && self.nws_in(b, shallow as i32, lanes, low) <= low {
            return Some(alpha);
        }
        None
    }

    /// A node one ply from the leaves: the best evaluation after a move, fail-soft on (alpha,
    /// beta), evaluated by `children` (`b`'s): first the move that last cut such a node with
    /// as many empties (a killer move; at depth 20 on 40 midgame positions 4% fewer nodes),
    /// then region by region in [`LEAF_ORDER`]. No table and no move list: probing would cost
    /// more than the leaves it saves. Each leaf counts as a node, as below a full node.
    fn search_1(&mut self, b: &Board, children: &Children, alpha: i32, beta: i32) -> i32 {
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, 1, -beta, -alpha));
        }
        let empties = b.empties().count_ones() as usize;
        let killer = moves & self.leaf_killers[empties];
        let mut best = -INFINITY;
        for sq in Squares(killer).chain(
            LEAF_ORDER
                .iter()
                .flat_map(|&region| Squares(moves & region & !killer)),
        ) {
            self.visit();
            let child = b.apply(sq, flips(b.player, b.opponent, sq));
            let score = -children.evaluate(sq, &child);
            if score > best {
                best = score;
                if score >= beta {
                    self.leaf_killers[empties] = 1 << sq;
                    break;
                }
            }
        }
        best
    }

    /// A node whose side to move cannot play: the game is over, or the turn passes at no depth.
    #[inline]
    fn pass_or_end(
        &mut self,
        b: &Board,
        search_passed: impl FnOnce(&mut Self, &Board) -> i32,
    ) -> i32 {
        if b.opponent_moves() == 0 {
            self.final_value(b)
        } else {
            self.after_pass(b, search_passed)
        }
    }

    /// The moves of a midgame node of depth 2 or more (shallower ones have no list), the hash
    /// move first (see [`Self::search_moves`]), the others sorted by the evaluation after the
    /// move: a one-ply search, each child counted as a node. Two plies from the leaves, where
    /// those evaluations cost about what the search below them does, the cheap
    /// [`fastest_first`] key sorts instead: at depth 20 on 40 midgame positions, 6% more nodes
    /// in 16% less time. A node of odd depth evaluates its children from its own lanes.
    fn midgame_moves(
        &mut self,
        b: &Board,
        moves: u64,
        hash_move: u8,
        window: (i32, i32),
        node: Midgame,
    ) -> Option<(i32, u8)> {
        let mut list = MoveList::unkeyed(b, moves);
        let order = |s: &mut Self, list: &mut MoveList| {
            s.count_scored(list);
            if node.depth == 2 {
                list.key(b, |_, child| fastest_first(child));
                return;
            }
            // Children of 2 plies or more probe the table: start their buckets' loads now,
            // while the evaluations below keep the processor busy.
            Self::prefetch_children(s.tt.whole(), b, list);
            let children = if reads_the_mover(node.depth) {
                Children::of(b)
            } else {
                Children::carried(b, &node.lanes)
            };
            list.key(b, |sq, child| -children.evaluate(sq, child));
        };
        self.search_moves(b, &mut list, hash_move, window, node, order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leaf_order_holds_every_square_once() {
        let mut seen = 0u64;
        for region in LEAF_ORDER {
            assert_eq!(seen & region, 0, "{region:#x} overlaps an earlier region");
            seen |= region;
        }
        assert_eq!(seen, u64::MAX);
    }
}
