//! The last empties of an exact solve, where most of its nodes are: no move list, no table,
//! squares tried in parity order, a stability cutoff down to 4 empties (it pays where one side
//! wins big), and the very last move's flips counted without being made.
//!
//! Every routine is fail-soft on the window (alpha, beta), scores in discs for the side to
//! move, and adds the positions it visits to `nodes` (one per position with an empty square,
//! as everywhere in the search).

use crate::engine::board::{file_byte, flips, neighbours, FILE_A};
use crate::engine::stability::stable_discs;

/// The most empties [`solve_shallow`] is meant for: deeper, a sorted move list and the table
/// pay for themselves.
pub const SHALLOW_EMPTIES: u32 = 5;

/// Below any score.
const NO_SCORE: i32 = -65;

/// `LINE_FLIPS[x][line]`: the discs flipped by a disc put on square `x` of a full line of 8,
/// where the set bits of `line` are the mover's and the others the opponent's (bit `x` is not
/// read). Lines shorter than 8 read as lines of 8 whose extra squares are the opponent's and
/// lie beyond the edge, where no run ends: they flip nothing, as on the board.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Towards higher bits, then lower: a run of opponent discs ended by a mover's one.
            let mut i = x + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                total += i - x - 1;
            }
            let mut j = x as i32 - 1;
            while j >= 0 && line >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += x - j as usize - 1;
            }
            t[x][line] = total as u8;
            line += 1;
        }
        x += 1;
    }
    t
};

/// The a1-h8 and h1-a8 diagonals through each square.
static DIAGONALS: [(u64, u64); 64] = {
    let mut d = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other: usize = 0;
        while other < 64 {
            let (u, v) = ((other % 8) as i32, (other / 8) as i32);
            if u - v == x - y {
                d[sq].0 |= 1 << other;
            }
            if u + v == x + y {
                d[sq].1 |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    d
};

/// The squares next to each square.
static NEIGHBOURS: [u64; 64] = {
    let mut n = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        n[sq] = neighbours(1 << sq);
        sq += 1;
    }
    n
};

/// The quadrant of a square, 0-3: the bits of "file e-h" and "row 5-8".
#[inline(always)]
fn quadrant(sq: u32) -> u32 {
    (sq >> 2 & 1) | (sq >> 4 & 2)
}

/// The discs flipped by `p` playing on `sq` when every other square is filled: `p`'s discs
/// and the opponent's everywhere else. Each line through `sq` is gathered into a byte and
/// looked up.
#[inline(always)]
pub fn last_flip_count(p: u64, sq: u32) -> u32 {
    let (x, y) = ((sq & 7) as usize, (sq >> 3) as usize);
    let (diagonal, anti) = DIAGONALS[sq as usize];
    let row = (p >> (sq & 56)) as u8 as usize;
    let file = file_byte(p >> x);
    // A diagonal holds at most one square a row, each in its own file: summing the rows
    // gathers them into one byte indexed by file.
    let gather = |mask: u64| ((p & mask).wrapping_mul(FILE_A) >> 56) as usize;
    u32::from(LINE_FLIPS[x][row])
        + u32::from(LINE_FLIPS[y][file])
        + u32::from(LINE_FLIPS[x][gather(diagonal)])
        + u32::from(LINE_FLIPS[x][gather(anti)])
}

/// The final score with one empty square, `sq`, left; `p` holds the side to move's discs
/// and the opponent holds all the others.
#[inline(always)]
fn solve_1(p: u64, sq: u32) -> i32 {
    // 63 discs: after the move the mover has p + 1 + f, the opponent 63 - p - f.
    let discs = 2 * p.count_ones() as i32;
    let f = last_flip_count(p, sq) as i32;
    if f > 0 {
        return discs - 62 + 2 * f;
    }
    let g = last_flip_count(!p, sq) as i32;
    if g > 0 {
        return discs - 64 - 2 * g;
    }
    // Nobody can move: the empty square goes to the winner (63 discs cannot tie).
    if discs > 63 {
        discs - 62
    } else {
        discs - 64
    }
}

/// The position after `p` plays on `sq`, from the opponent's side; `None` if it flips nothing.
#[inline(always)]
fn play(p: u64, o: u64, sq: u32) -> Option<(u64, u64)> {
    if o & NEIGHBOURS[sq as usize] == 0 {
        return None;
    }
    let f = flips(p, o, sq);
    (f != 0).then(|| (o ^ f, p ^ f ^ (1 << sq)))
}

/// The final score when neither side can move: the empties go to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    crate::engine::board::Board::new(p, o).final_score()
}

/// `squares` without `played`, order kept.
#[inline(always)]
fn without<const M: usize>(squares: &[u32], played: u32) -> [u32; M] {
    let mut rest = [0; M];
    for (slot, &sq) in rest
        .iter_mut()
        .zip(squares.iter().filter(|&&sq| sq != played))
    {
        *slot = sq;
    }
    rest
}

/// Tries the moves of `p` on `squares` in order with `child(next p, next o, square, alpha,
/// beta)`, which scores from the mover's side; `None` when no square is a move.
#[inline(always)]
fn try_moves(
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    squares: impl IntoIterator<Item = u32>,
    mut child: impl FnMut(u64, u64, u32, i32, i32) -> i32,
) -> Option<i32> {
    let mut best = NO_SCORE;
    for sq in squares {
        let Some((np, no)) = play(p, o, sq) else {
            continue;
        };
        let score = child(np, no, sq, alpha, beta);
        if score > best {
            best = score;
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
    }
    (best > NO_SCORE).then_some(best)
}

/// Searches a node on `squares` with `moves(p, o, alpha, beta)`; when the side to move
/// cannot play, the other side plays instead, and when neither can the game is over.
#[inline(always)]
fn with_pass(
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    mut moves: impl FnMut(u64, u64, i32, i32) -> Option<i32>,
) -> i32 {
    if let Some(score) = moves(p, o, alpha, beta) {
        return score;
    }
    match moves(o, p, -beta, -alpha) {
        Some(score) => -score,
        None => final_score(p, o),
    }
}

fn solve_2(p: u64, o: u64, alpha: i32, beta: i32, squares: [u32; 2], nodes: &mut u64) -> i32 {
    *nodes += 1;
    with_pass(p, o, alpha, beta, |p, o, alpha, beta| {
        try_moves(p, o, alpha, beta, squares, |np, _, sq, _, _| {
            *nodes += 1;
            // The square left is the one not played.
            -solve_1(np, squares[0] ^ squares[1] ^ sq)
        })
    })
}

fn solve_3(p: u64, o: u64, alpha: i32, beta: i32, squares: [u32; 3], nodes: &mut u64) -> i32 {
    *nodes += 1;
    let squares = parity_order_3(squares);
    with_pass(p, o, alpha, beta, |p, o, alpha, beta| {
        try_moves(p, o, alpha, beta, squares, |np, no, sq, a, b| {
            -solve_2(np, no, -b, -a, without(&squares, sq), nodes)
        })
    })
}

/// Three squares with the one alone in its quadrant first, when two share one.
#[inline(always)]
fn parity_order_3([a, b, c]: [u32; 3]) -> [u32; 3] {
    let (qa, qb, qc) = (quadrant(a), quadrant(b), quadrant(c));
    if qa == qb && qc != qa {
        [c, a, b]
    } else if qa == qc && qb != qa {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

fn solve_4(p: u64, o: u64, alpha: i32, beta: i32, squares: [u32; 4], nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(bound) = stability_bound(p, o, alpha, 4) {
        return bound;
    }
    with_pass(p, o, alpha, beta, |p, o, alpha, beta| {
        try_moves(p, o, alpha, beta, squares, |np, no, sq, a, b| {
            -solve_3(np, no, -b, -a, without(&squares, sq), nodes)
        })
    })
}

/// The empty squares of `empties` in parity order: those in quadrants with an odd number of
/// empties first, where the side to move can hope for the last move.
#[inline(always)]
fn parity_order(empties: u64, parity: u64) -> impl Iterator<Item = u32> {
    crate::engine::board::Squares(empties & parity)
        .chain(crate::engine::board::Squares(empties & !parity))
}

/// The squares of each quadrant.
const QUADRANT_SQUARES: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The squares of the quadrants holding an odd number of empties.
#[inline]
pub fn odd_quadrants(empties: u64) -> u64 {
    QUADRANT_SQUARES
        .iter()
        .filter(|&&q| (empties & q).count_ones() % 2 == 1)
        .fold(0, |a, &q| a | q)
}

/// The exact score of a position with at most [`SHALLOW_EMPTIES`] empties, fail-soft on
/// (alpha, beta). `parity` is [`odd_quadrants`] of its empties, kept up to date move by move.
pub fn solve_shallow(p: u64, o: u64, alpha: i32, beta: i32, parity: u64, nodes: &mut u64) -> i32 {
    let empties = !(p | o);
    let mut squares = parity_order(empties, parity);
    let n = empties.count_ones();
    match n {
        0 => final_score(p, o),
        1 => {
            *nodes += 1;
            solve_1(p, empties.trailing_zeros())
        }
        2 => {
            let (a, b) = (squares.next(), squares.next());
            solve_2(
                p,
                o,
                alpha,
                beta,
                [a, b].map(Option::unwrap_or_default),
                nodes,
            )
        }
        3 => {
            let three = [squares.next(), squares.next(), squares.next()];
            solve_3(
                p,
                o,
                alpha,
                beta,
                three.map(Option::unwrap_or_default),
                nodes,
            )
        }
        4 => {
            let mut four = [0; 4];
            for (slot, sq) in four.iter_mut().zip(squares) {
                *slot = sq;
            }
            solve_4(p, o, alpha, beta, four, nodes)
        }
        _ => {
            *nodes += 1;
            if let Some(bound) = stability_bound(p, o, alpha, n) {
                return bound;
            }
            with_pass(p, o, alpha, beta, |p, o, alpha, beta| {
                let squares = parity_order(!(p | o), parity);
                try_moves(p, o, alpha, beta, squares, |np, no, sq, a, b| {
                    let next_parity = parity ^ QUADRANT_SQUARES[quadrant(sq) as usize];
                    -solve_shallow(np, no, -b, -a, next_parity, nodes)
                })
            })
        }
    }
}

/// An upper bound on the player's score from the opponent's stable discs, when it is already
/// no better than `alpha` (so the node fails low without a search). Stable discs are looked
/// for only when alpha is high for the `empties` left (at least twice their number, as in
/// Edax), where enough of them are likely; corners are not required, as discs on four full
/// lines are stable too, and wide-score positions have many.
#[inline]
pub fn stability_bound(p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
    // Every opponent disc stable would still leave the player above alpha: nothing to gain.
    if alpha < 2 * empties as i32 || 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;
    use crate::engine::board::Board;

    /// Flips counted by making the move on the board.
    fn reference_last_flips(p: u64, sq: u32) -> u32 {
        let o = !p & !(1u64 << sq);
        flips(p, o, sq).count_ones()
    }

    #[test]
    fn last_flip_count_matches_the_flips_of_the_move() {
        let mut rng = Rng::new(3);
        for _ in 0..20_000 {
            let x = rng.bits();
            for sq in [0, 7, 9, 18, 27, 36, 45, 56, 63, (x >> 58) as u32] {
                let p = x & !(1u64 << sq);
                assert_eq!(
                    last_flip_count(p, sq),
                    reference_last_flips(p, sq),
                    "{p:x} {sq}"
                );
            }
        }
    }

    #[test]
    fn odd_quadrants_of_the_start_position() {
        // 60 empties, 15 in each quadrant: all odd.
        assert_eq!(odd_quadrants(Board::START.empties()), u64::MAX);
    }
}
