//! The exact endgame solver: alpha-beta on the final disc differential (in discs, not
//! centi-discs), with a transposition table and fastest-first ordering far from the end,
//! parity ordering without move generation close to it, and a stability cutoff.

use crate::board::{flips, legal_moves, Board, Squares};
use crate::eval::{neighbours, stable_discs, CORNERS, DISC};
use crate::search::{MoveList, Searcher, INFINITY};
use crate::tt::{endgame_depth, endgame_level, LEVELS, NO_MOVE};

/// From this many empties on, results go to the transposition table.
const TABLE_EMPTIES: u32 = 8;
/// From this many empties on, moves are ordered by a shallow midgame search.
const SEARCH_SORT_EMPTIES: u32 = 12;
/// Up to this many empties, moves are found square by square in parity order.
const SHALLOW_EMPTIES: u32 = 5;

/// ProbCut margins of the selective levels, in tenths of a standard deviation of the shallow
/// search's error; the level after the last margin is exact.
const MARGINS: [i32; LEVELS as usize - 1] = [10, 15, 20];
pub(crate) const EXACT_LEVEL: u8 = LEVELS - 1;
/// Positions with fewer empties are solved exactly at once: selective passes would not pay.
const SELECTIVE_EMPTIES: u32 = 20;
/// From this many empties on, the children's table entries are looked at before searching.
const ETC_EMPTIES: u32 = 12;
/// From this many empties on, a selective search tries ProbCut.
const PROBCUT_EMPTIES: u32 = 12;

/// The four quadrants: an odd number of empties in one means its last move is ours to make.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Empty squares in quadrants holding an odd number of empties.
#[inline]
fn odd_quadrant_squares(empties: u64) -> u64 {
    QUADRANTS
        .iter()
        .map(|&q| empties & q)
        .filter(|e| e.count_ones() % 2 == 1)
        .fold(0, |a, e| a | e)
}

/// The final score for `p` when neither side can move: empties go to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    Board::new(p, o).final_score()
}

/// Score for `p` with exactly one empty square, `sq`, left.
#[inline]
fn solve_last(p: u64, o: u64, sq: u32) -> i32 {
    // With 63 discs on the board the move flips f discs: diff + 1 + 2f for the mover.
    let diff = p.count_ones() as i32 - o.count_ones() as i32;
    let f = flips(p, o, sq).count_ones() as i32;
    if f > 0 {
        return diff + 1 + 2 * f;
    }
    let g = flips(o, p, sq).count_ones() as i32;
    if g > 0 {
        return diff - 1 - 2 * g;
    }
    final_score(p, o)
}

impl Searcher<'_> {
    /// The exact score of `b` for the side to move if it lies in (alpha, beta); otherwise a
    /// bound on the same side of the window (fail-soft). Scores in discs.
    pub(crate) fn solve(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        if b.empty_count() <= SHALLOW_EMPTIES {
            self.solve_shallow(b.player, b.opponent, alpha, beta, false)
        } else {
            self.solve_deep(b, alpha, beta)
        }
    }

    /// Few empties: no move list, squares tried in parity order, the last one counted directly.
    fn solve_shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        self.visit();
        let empties = !(p | o);
        if empties.count_ones() == 1 {
            return solve_last(p, o, empties.trailing_zeros());
        }
        let odd = odd_quadrant_squares(empties);
        let mut best = -65;
        for sq in Squares(empties & odd).chain(Squares(empties & !odd)) {
            let bit = 1u64 << sq;
            // A square with no opponent disc next to it cannot flip anything.
            if o & neighbours(bit) == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let score = -self.solve_shallow(o ^ f, p ^ f ^ bit, -beta, -alpha, false);
            if score > best {
                best = score;
                if score >= beta {
                    return score;
                }
                alpha = alpha.max(score);
            }
        }
        if best > -65 {
            best
        } else if passed {
            final_score(p, o)
        } else {
            -self.solve_shallow(o, p, -beta, -alpha, true)
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
            let passed = b.pass();
            return if passed.moves() == 0 {
                b.final_score()
            } else {
                -self.solve(&passed, -beta, -alpha)
            };
        }
        if let Some(bound) = stability_bound(b, alpha) {
            return bound;
        }
        let empties = b.empty_count();
        let mut hash_move = NO_MOVE;
        if empties >= TABLE_EMPTIES {
            if let Some(p) = self.tt.probe(b) {
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
        if empties >= SEARCH_SORT_EMPTIES {
            self.order_by_search(b, &mut list, hash_move, empties);
        } else {
            order_fastest_first(b, &mut list, hash_move);
        }
        let Some((best, best_sq)) = self.principal_variation(
            b,
            list,
            (alpha, beta),
            |s, child, a, be| -s.solve(child, -be, -a),
            |s, child, a| -s.solve(child, -a - 1, -a),
        ) else {
            return 0;
        };
        if empties >= TABLE_EMPTIES {
            self.tt.store(
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
        let depth = probcut_depth(empties);
        let margin = MARGINS[self.level as usize] * probcut_sigma(depth) / 10;
        if beta < 64 {
            let bound = beta * DISC + margin - PROBCUT_BIAS;
            if self.nws(b, depth as i32, bound - 1) >= bound {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let bound = alpha * DISC - margin - PROBCUT_BIAS;
            if self.nws(b, depth as i32, bound) <= bound {
                return Some(alpha);
            }
        }
        None
    }

    /// Far from the end a better order pays for itself: each move is scored by a shallow
    /// midgame search of the position after it (deeper with more empties), plus mobility.
    fn order_by_search(&mut self, b: &Board, list: &mut MoveList, hash_move: u8, empties: u32) {
        let depth = if empties >= 20 {
            2
        } else if empties >= 17 {
            1
        } else {
            0
        };
        list.key(b, |sq, child| {
            if sq as u8 == hash_move {
                return i32::MAX;
            }
            -self.pvs(child, depth, -INFINITY, INFINITY) - 4 * DISC * weighted_replies(child)
        });
    }
}

/// An upper bound on the player's score from the opponent's stable discs, when it is already
/// no better than `alpha` (so the node fails low without a search).
#[inline]
fn stability_bound(b: &Board, alpha: i32) -> Option<i32> {
    // Every opponent disc stable would still leave the player above alpha: nothing to gain.
    if b.opponent & CORNERS == 0 || 64 - 2 * (b.opponent.count_ones() as i32) > alpha {
        return None;
    }
    let bound = 64 - 2 * stable_discs(b.opponent, b.player).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The replies the opponent has after a move, corners counted twice: fewer is better.
#[inline]
fn weighted_replies(child: &Board) -> i32 {
    let replies = legal_moves(child.player, child.opponent);
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

/// Endgame move ordering: hash move, then fewest opponent replies (corners counted twice),
/// then moves into odd quadrants.
fn order_fastest_first(b: &Board, list: &mut MoveList, hash_move: u8) {
    let odd = odd_quadrant_squares(b.empties());
    list.key(b, |sq, child| {
        if sq as u8 == hash_move {
            return i32::MAX;
        }
        let potential = (neighbours(child.opponent) & child.empties()).count_ones() as i32;
        -16 * weighted_replies(child) - potential + if odd >> sq & 1 == 1 { 4 } else { 0 }
    });
}

/// The levels the root goes through: selective passes first when the position is big enough
/// for their better move order to pay, then the exact one.
pub(crate) fn endgame_levels(b: &Board) -> std::ops::RangeInclusive<u8> {
    let first = if b.empty_count() >= SELECTIVE_EMPTIES {
        0
    } else {
        EXACT_LEVEL
    };
    first..=EXACT_LEVEL
}

/// The depth of ProbCut's shallow search: even, as the evaluation is biased the same way at
/// even depths (see `examples/fit_probcut.rs`).
fn probcut_depth(empties: u32) -> u32 {
    if empties >= 22 {
        6
    } else if empties >= 16 {
        4
    } else {
        2
    }
}

/// The standard deviation of exact score - shallow search score, centi-discs: about 9 discs
/// less half a disc a ply, whatever the empties, on WTHOR positions of 10 to 22 empties
/// (measured by `examples/fit_probcut.rs`).
fn probcut_sigma(depth: u32) -> i32 {
    900 - 45 * depth as i32
}

/// How much the exact score lies above an even-depth search's, on average (same source).
const PROBCUT_BIAS: i32 = 150;
