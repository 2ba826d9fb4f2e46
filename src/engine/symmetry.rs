//! The eight symmetries of the board, as bit tricks on a single bitboard.

use crate::engine::board::Board;

/// Mirrors rows: row 1 <-> row 8 (each byte is one row, so this is a byte swap).
#[inline]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Mirrors files: a <-> h (reverses the bits inside every byte by swapping 1, 2 then 4 bits).
#[inline]
pub const fn flip_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirrors on the a1-h8 diagonal: (file, row) <-> (row, file), by swapping 4x4, 2x2 then 1x1
/// blocks with delta swaps.
#[inline]
pub const fn flip_diagonal(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut x = x;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// Applies symmetry `s` (0..8) to one bitboard: bit 0 mirrors files, bit 1 mirrors rows,
/// bit 2 transposes first. 0 is the identity.
#[inline]
pub const fn transform(x: u64, s: usize) -> u64 {
    let x = if s & 4 != 0 { flip_diagonal(x) } else { x };
    let x = if s & 2 != 0 { flip_vertical(x) } else { x };
    if s & 1 != 0 {
        flip_horizontal(x)
    } else {
        x
    }
}

/// Applies symmetry `s` to both sides of a board.
pub fn transform_board(b: &Board, s: usize) -> Board {
    Board::new(transform(b.player, s), transform(b.opponent, s))
}

/// Where square `sq` goes under symmetry `s`.
pub const fn transform_square(sq: u32, s: usize) -> u32 {
    transform(1u64 << sq, s).trailing_zeros()
}

/// The symmetric form with the smallest (player, opponent): equal for all 8 images of a board.
pub fn canonical(b: &Board) -> Board {
    orient(b).0
}

/// The canonical form of `b` (see [`canonical`]) and the symmetry that maps `b` onto it.
pub fn orient(b: &Board) -> (Board, usize) {
    (0..8)
        .map(|s| (transform_board(b, s), s))
        .min_by_key(|(t, _)| (t.player, t.opponent))
        .unwrap_or((*b, 0))
}

/// The symmetry that undoes `s`: mirrors are their own inverses; a transposition followed by
/// mirrors is undone by the mirrors first, and a mirror of rows before a transposition is a
/// mirror of files after it, so the two mirror bits trade places.
pub const fn inverse(s: usize) -> usize {
    if s & 4 == 0 {
        s
    } else {
        4 | ((s & 1) << 1) | ((s >> 1) & 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board no symmetry maps onto itself: a1, b1, c1 and a2 against h8.
    const ASYMMETRIC: Board = Board {
        player: 0x0000_0000_0000_0107,
        opponent: 0x8000_0000_0000_0000,
    };

    #[test]
    fn inverse_undoes_every_symmetry() {
        for s in 0..8 {
            let image = transform_board(&ASYMMETRIC, s);
            assert_eq!(transform_board(&image, inverse(s)), ASYMMETRIC, "s = {s}");
        }
    }

    #[test]
    fn orient_maps_every_image_onto_one_canonical_board() {
        let (canonical, _) = orient(&ASYMMETRIC);
        for s in 0..8 {
            let image = transform_board(&ASYMMETRIC, s);
            let (c, t) = orient(&image);
            assert_eq!(c, canonical);
            assert_eq!(transform_board(&image, t), c);
        }
    }
}
