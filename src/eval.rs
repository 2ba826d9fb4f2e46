//! A hand-made evaluation: the features of classic Othello programs with weights that slide
//! from the midgame to the endgame with the number of empty squares.
//!
//! Scores are in centi-discs (1/100 of the final disc differential) from the point of view of
//! the side to move, so a midgame score and an exact endgame score read the same way.

use crate::board::{legal_moves, Board};

/// Centi-discs per disc of final score.
pub const DISC: i32 = 100;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
const EDGES: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The corners with their X-square (diagonal neighbour) and C-squares (edge neighbours).
const CORNER_NEIGHBOURS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// Edge squares that are neither corners nor C-squares (A and B squares).
const SAFE_EDGES: u64 = 0x3C00_8181_8181_003C;

/// The squares next to any square of `x` (king moves), without wrapping across the board edge.
#[inline]
pub fn neighbours(x: u64) -> u64 {
    let sideways = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let row = x | sideways;
    (sideways | (row << 8) | (row >> 8)) & !x
}

/// Squares whose line along each axis is completely filled: (rows, files, a1-h8 diagonals,
/// h1-a8 diagonals).
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = 0;
    for r in 0..8 {
        if (occupied >> (8 * r)) & 0xFF == 0xFF {
            rows |= 0xFF << (8 * r);
        }
    }
    // And-ing every rotation by a multiple of 8 leaves a bit set iff its whole file is set.
    let mut files = occupied;
    files &= files.rotate_right(8);
    files &= files.rotate_right(16);
    files &= files.rotate_right(32);
    let full = |lines: &[u64; 15]| {
        lines
            .iter()
            .filter(|&&m| occupied & m == m)
            .fold(0, |a, &m| a | m)
    };
    [rows, files, full(&DIAGONALS), full(&ANTI_DIAGONALS)]
}

const fn diagonal_masks(anti: bool) -> [u64; 15] {
    let mut masks = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        let line = if anti { x + y } else { x + 7 - y };
        masks[line] |= 1u64 << sq;
        sq += 1;
    }
    masks
}

const DIAGONALS: [u64; 15] = diagonal_masks(false);
const ANTI_DIAGONALS: [u64; 15] = diagonal_masks(true);

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

/// Stable discs, skipped (as none) while the player holds no corner: without a corner or a
/// full line almost nothing is stable, and this keeps the evaluation cheap in the opening.
fn stable_count(p: u64, o: u64) -> i32 {
    if p & CORNERS == 0 {
        0
    } else {
        stable_discs(p, o).count_ones() as i32
    }
}

/// A weight at the start of the game and one at the end; interpolated by empties.
#[derive(Copy, Clone)]
struct Weight(i32, i32);

impl Weight {
    #[inline]
    fn at(self, empties: i32) -> i32 {
        (self.0 * empties + self.1 * (60 - empties)) / 60
    }
}

const MOBILITY: Weight = Weight(70, 40);
const POTENTIAL_MOBILITY: Weight = Weight(25, 10);
const CORNER: Weight = Weight(500, 250);
const X_SQUARE: Weight = Weight(-300, -120);
const C_SQUARE: Weight = Weight(-100, -40);
const SAFE_EDGE: Weight = Weight(20, 10);
const STABLE: Weight = Weight(120, 100);
const DISCS: Weight = Weight(-8, 60);
const PARITY: Weight = Weight(0, 150);

/// Count difference of player's and opponent's discs on `mask`.
#[inline]
fn diff(p: u64, o: u64, mask: u64) -> i32 {
    (p & mask).count_ones() as i32 - (o & mask).count_ones() as i32
}

/// The static evaluation of `b` for the side to move, in centi-discs.
pub fn evaluate(b: &Board) -> i32 {
    let (p, o) = (b.player, b.opponent);
    let empty = b.empties();
    let e = empty.count_ones() as i32;

    let mobility = legal_moves(p, o).count_ones() as i32 - legal_moves(o, p).count_ones() as i32;
    // Empty squares next to the opponent are where the player's future moves come from.
    let potential =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;

    let mut x_squares = 0;
    let mut c_squares = 0;
    for &(corner, x, c) in &CORNER_NEIGHBOURS {
        if empty & corner != 0 {
            x_squares += diff(p, o, x);
            c_squares += diff(p, o, c);
        }
    }
    let stable = stable_count(p, o) - stable_count(o, p);
    let parity = if e % 2 == 1 { 1 } else { -1 };

    MOBILITY.at(e) * mobility
        + POTENTIAL_MOBILITY.at(e) * potential
        + CORNER.at(e) * diff(p, o, CORNERS)
        + X_SQUARE.at(e) * x_squares
        + C_SQUARE.at(e) * c_squares
        + SAFE_EDGE.at(e) * diff(p, o, SAFE_EDGES)
        + STABLE.at(e) * stable
        + DISCS.at(e) * b.disc_difference()
        + PARITY.at(e) * parity
}
