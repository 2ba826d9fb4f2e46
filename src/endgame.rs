//! The exact endgame solver: alpha-beta on the final disc differential (in discs, not
//! centi-discs), with a transposition table and fastest-first ordering far from the end,
//! parity ordering without move generation close to it, and a stability cutoff.

use crate::board::{flips, legal_moves, Board, Squares};
use crate::eval::{neighbours, stable_discs, CORNERS, DISC};
use crate::search::{MoveList, Searcher, INFINITY};
use crate::tt::{EXACT_DEPTH, NO_MOVE};

/// From this many empties on, results go to the transposition table.
const TABLE_EMPTIES: u32 = 8;
/// From this many empties on, moves are ordered by a shallow midgame search.
const SEARCH_SORT_EMPTIES: u32 = 14;
/// Up to this many empties, moves are found square by square in parity order.
const SHALLOW_EMPTIES: u32 = 6;

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
                if p.depth == EXACT_DEPTH {
                    let (lower, upper) = (p.lower / DISC, p.upper / DISC);
                    if lower >= beta {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                }
                hash_move = p.best;
            }
        }
        let list = if empties >= SEARCH_SORT_EMPTIES {
            self.searched_moves(b, moves, hash_move, empties)
        } else {
            endgame_moves(b, moves, hash_move)
        };
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
                EXACT_DEPTH,
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
    /// Far from the end a better order pays for itself: each move is scored by a shallow
    /// midgame search of the position after it (deeper with more empties), plus mobility.
    fn searched_moves(&mut self, b: &Board, moves: u64, hash_move: u8, empties: u32) -> MoveList {
        let depth = if empties >= 20 {
            2
        } else if empties >= 17 {
            1
        } else {
            0
        };
        MoveList::new(b, moves, |sq, child| {
            if sq as u8 == hash_move {
                return i32::MAX;
            }
            -self.pvs(child, depth, -INFINITY, INFINITY) - 4 * DISC * weighted_replies(child)
        })
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
fn endgame_moves(b: &Board, moves: u64, hash_move: u8) -> MoveList {
    let odd = odd_quadrant_squares(b.empties());
    MoveList::new(b, moves, |sq, child| {
        if sq as u8 == hash_move {
            return i32::MAX;
        }
        -16 * weighted_replies(child) + if odd >> sq & 1 == 1 { 4 } else { 0 }
    })
}
