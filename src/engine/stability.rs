//! Stable discs: discs that no continuation of the game can flip. The endgame uses their count
//! as a bound on the final score (a stability cutoff).
//!
//! The edges are read from a table: an edge square can only be flipped along its edge, so the
//! stable discs of an edge follow from its 8 squares alone. The rest is bit-parallel: the full
//! lines of the board come from carry and occluded-fill tricks; each is tested against a plain
//! reading.

use crate::engine::board::{file_byte, flips, CORNERS, EDGES, FILE_A, FILE_H, ROW_1, ROW_8};
use std::sync::LazyLock;

/// The squares of `occupied` from which every square onward in one direction, up to the edge,
/// is occupied: a Kogge-Stone fill from `seeds` (the occupied squares whose next square lies
/// off the board) back along the direction. `shift` moves a square one step back: `x >> n`
/// reads the square n ahead (positive steps), `x << n` the one n behind. `no_wrap` is the file
/// a step back must not land on from across the board's side.
#[inline(always)]
fn filled_onward(occupied: u64, seeds: u64, no_wrap: u64, back: impl Fn(u64, u32) -> u64) -> u64 {
    let (mut filled, mut through) = (occupied & seeds, occupied & !no_wrap);
    filled |= through & back(filled, 1);
    through &= back(through, 1);
    filled |= through & back(filled, 2);
    through &= back(through, 2);
    filled | through & back(filled, 4)
}

/// Squares whose line along each axis is completely filled: (rows, files, a1-h8 diagonals,
/// h1-a8 diagonals).
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    // Adding 1 to each row's low seven bits carries into the eighth only when all are set.
    let low = occupied & !FILE_H;
    let carried = low.wrapping_add(FILE_A) & occupied & FILE_H;
    let rows = (carried >> 7).wrapping_mul(0xFF);
    // And-ing every rotation by a multiple of 8 leaves a bit set iff its whole file is set.
    let mut files = occupied;
    files &= files.rotate_right(8);
    files &= files.rotate_right(16);
    files &= files.rotate_right(32);
    // A diagonal is full at a square when it is filled onward both ways. Step +9 goes to the
    // next file and row, step +7 to the previous file and the next row.
    let up9 = filled_onward(occupied, FILE_H | ROW_8, FILE_H, |x, n| x >> (9 * n));
    let down9 = filled_onward(occupied, FILE_A | ROW_1, FILE_A, |x, n| x << (9 * n));
    let up7 = filled_onward(occupied, FILE_A | ROW_8, FILE_A, |x, n| x >> (7 * n));
    let down7 = filled_onward(occupied, FILE_H | ROW_1, FILE_H, |x, n| x << (7 * n));
    [rows, files, up9 & down9, up7 & down7]
}

/// A subset of the discs of `p` that can never be flipped: on the edges, exactly those that
/// no sequence of discs put on the edge can flip; inside, a disc is stable when, along each of
/// the four axes, its line is full or one of its two neighbours is a stable disc of its own
/// colour. Grown from the edges to a fixed point.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let [rows, files, diags, antis] = full_lines(p | o);
    let edges = edge_stable(p, o);
    let mut stable = edges;
    loop {
        // A shift may wrap across a file edge, but only onto an edge square, which the
        // interior test below leaves out.
        let horizontal = rows | (stable << 1) | (stable >> 1);
        let vertical = files | (stable << 8) | (stable >> 8);
        let diagonal = diags | (stable << 9) | (stable >> 9);
        let anti = antis | (stable << 7) | (stable >> 7);
        let grown = edges | (p & !EDGES & horizontal & vertical & diagonal & anti);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The discs of `p` held by a corner: its corners, and the edge squares next to a corner it
/// holds. A cheap part of [`stable_discs`] for ordering moves, as Edax orders its endgame.
#[inline]
pub fn corner_stable(p: u64) -> u64 {
    let corners = p & CORNERS;
    let beside = (corners & FILE_A) << 1
        | (corners & FILE_H) >> 1
        | (corners & ROW_1) << 8
        | (corners & ROW_8) >> 8;
    corners | (beside & p)
}

/// The stable discs of `p` on the four edges, from [`EDGE_STABLE`].
#[inline]
fn edge_stable(p: u64, o: u64) -> u64 {
    let table = &*EDGE_STABLE;
    let edge = |line: fn(u64) -> usize| table[line(p)][line(o)];
    let row_1 = u64::from(edge(|x| (x & ROW_1) as usize));
    let row_8 = u64::from(edge(|x| (x >> 56) as usize)) << 56;
    let file_a = FILE_FROM_BYTE[edge(file_byte) as usize];
    let file_h = FILE_FROM_BYTE[edge(|x| file_byte(x >> 7)) as usize] << 7;
    (row_1 | row_8 | file_a | file_h) & p
}

/// `FILE_FROM_BYTE[b]`: bit k of `b` put on the a-file at rank k.
const FILE_FROM_BYTE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            t[b] |= ((b as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        b += 1;
    }
    t
};

/// `EDGE_STABLE[p][o]` for a line of 8 squares holding the discs `p` and `o` (disjoint bits):
/// the discs of either colour that keep it whatever discs are put on the empty squares, by
/// either side, in any order, each flipping along the line as a move does. Every placement is
/// allowed, legal on the board or not, so the answer is safe for any edge of any position.
static EDGE_STABLE: LazyLock<Box<[[u8; 256]; 256]>> = LazyLock::new(|| {
    let mut table = Box::new([[0u8; 256]; 256]);
    // A line's entry reads those of the lines one disc fuller, so fuller lines go first.
    for empties in 0..=8 {
        for p in 0..=255u8 {
            for o in (0..=255u8).filter(|&o| p & o == 0 && (p | o).count_zeros() == empties) {
                table[p as usize][o as usize] = line_stable(p, o, &table);
            }
        }
    }
    table
});

/// The discs of the line (p, o) that no placement changes, given the entries of the lines one
/// disc fuller.
fn line_stable(p: u8, o: u8, fuller: &[[u8; 256]; 256]) -> u8 {
    let mut stable = p | o;
    for x in (0..8).filter(|&x| (p | o) >> x & 1 == 0) {
        let by_p = line_flips(p, o, x);
        let by_o = line_flips(o, p, x);
        let after_p = fuller[(p | 1 << x | by_p) as usize][(o & !by_p) as usize];
        let after_o = fuller[(p & !by_o) as usize][(o | 1 << x | by_o) as usize];
        stable &= !by_p & after_p & !by_o & after_o;
    }
    stable
}

/// The discs of `o` flipped along a line of 8 when `p` puts a disc on square `x`: the line
/// read as row 1 of an otherwise empty board, where only the row can flip.
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    flips(u64::from(p), u64::from(o), x) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;

    /// Full lines read square by square: walk each axis both ways to the edge.
    fn reference_full_lines(occupied: u64) -> [u64; 4] {
        let filled = |x: i32, y: i32| occupied >> (8 * y + x) & 1 == 1;
        let mut out = [0u64; 4];
        for (axis, (dx, dy)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
            for sq in 0..64 {
                let (x, y) = (sq % 8, sq / 8);
                let full = [1, -1].iter().all(|&sign| {
                    let (mut u, mut v) = (x, y);
                    while (0..8).contains(&u) && (0..8).contains(&v) {
                        if !filled(u, v) {
                            return false;
                        }
                        u += sign * dx;
                        v += sign * dy;
                    }
                    true
                });
                if full {
                    out[axis] |= 1 << sq;
                }
            }
        }
        out
    }

    /// Whether the disc on square `x` of the line (p, o) keeps its colour through every
    /// sequence of placements, explored one sequence at a time.
    fn keeps_colour(p: u8, o: u8, x: u32) -> bool {
        let colour = p >> x & 1;
        (0..8).filter(|&y| (p | o) >> y & 1 == 0).all(|y| {
            [true, false].iter().all(|&by_p| {
                let (mover, other) = if by_p { (p, o) } else { (o, p) };
                let f = line_flips(mover, other, y);
                let (mover, other) = (mover | 1 << y | f, other & !f);
                let (np, no) = if by_p { (mover, other) } else { (other, mover) };
                np >> x & 1 == colour && keeps_colour(np, no, x)
            })
        })
    }

    #[test]
    fn edge_table_matches_every_continuation_of_the_line() {
        // Every line with at most 5 empties, and lines with more that hold few discs.
        for p in 0..=255u8 {
            for o in (0..=255u8).filter(|&o| p & o == 0) {
                if (p | o).count_zeros() > 5 && (p | o).count_ones() > 1 {
                    continue;
                }
                let expected = (0..8)
                    .filter(|&x| (p | o) >> x & 1 == 1 && keeps_colour(p, o, x))
                    .fold(0u8, |acc, x| acc | 1 << x);
                assert_eq!(
                    EDGE_STABLE[p as usize][o as usize], expected,
                    "{p:08b} {o:08b}"
                );
            }
        }
    }

    #[test]
    fn corner_stable_discs_are_corners_and_their_edge_neighbours() {
        let mut rng = Rng::new(11);
        for _ in 0..10_000 {
            let p = rng.bits() | (rng.bits() & CORNERS);
            let mut expected = 0u64;
            for (corner, steps) in [(0, [1, 8]), (7, [-1, 8]), (56, [1, -8]), (63, [-1, -8])] {
                if p >> corner & 1 == 1 {
                    expected |= 1 << corner;
                    for step in steps {
                        let next = (corner + step) as u32;
                        expected |= p & 1 << next;
                    }
                }
            }
            assert_eq!(corner_stable(p), expected, "{p:#x}");
            assert_eq!(stable_discs(p, 0) & corner_stable(p), corner_stable(p));
        }
    }

    #[test]
    fn file_bytes_round_trip() {
        let mut rng = Rng::new(7);
        for _ in 0..10_000 {
            let x = rng.bits();
            assert_eq!(FILE_FROM_BYTE[file_byte(x)], x & FILE_A);
        }
    }

    #[test]
    fn full_lines_match_a_square_by_square_reading() {
        let mut rng = Rng::new(1);
        let mut next = || rng.bits();
        for _ in 0..20_000 {
            // Dense boards, so that many lines are full, and a few sparse ones.
            let occupied = next() | next() | next() | (next() & next());
            assert_eq!(
                full_lines(occupied),
                reference_full_lines(occupied),
                "{occupied:#x}"
            );
            let sparse = next() & next();
            assert_eq!(
                full_lines(sparse),
                reference_full_lines(sparse),
                "{sparse:#x}"
            );
        }
        for occupied in [0, u64::MAX, ROW_1, FILE_A, EDGES, !EDGES] {
            assert_eq!(
                full_lines(occupied),
                reference_full_lines(occupied),
                "{occupied:#x}"
            );
        }
    }
}
