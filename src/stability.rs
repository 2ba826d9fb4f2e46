//! Stable discs: discs that no continuation of the game can flip. The endgame uses their count
//! as a bound on the final score (a stability cutoff).
//!
//! Everything here is bit-parallel: the full lines of the board come from carry and
//! occluded-fill tricks, each tested against a plain line-by-line reading.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const EDGES: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;

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
pub fn full_lines(occupied: u64) -> [u64; 4] {
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

/// A subset of the discs of `p` that can never be flipped: a disc is stable when, along each of
/// the four axes, its line is full or one of its two neighbours is the edge or a stable disc
/// of its own colour. Grown from the edges to a fixed point.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let [rows, files, diags, antis] = full_lines(p | o);
    let mut stable = 0u64;
    loop {
        let horizontal = rows | FILE_A | FILE_H | (stable << 1) | (stable >> 1);
        let vertical = files | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
        let diagonal = diags | EDGES | (stable << 9) | (stable >> 9);
        let anti = antis | EDGES | (stable << 7) | (stable >> 7);
        // The shifts above may wrap across a file edge, but only onto edge squares, which
        // every axis already accepts; so no wrong disc is admitted.
        let grown = p & horizontal & vertical & diagonal & anti;
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn full_lines_match_a_square_by_square_reading() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
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
