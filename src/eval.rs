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

/// The number of evaluation features.
pub const FEATURES: usize = 12;

/// Empties per weight set: phase `e / PHASE_WIDTH` has its own weights.
pub const PHASE_WIDTH: u32 = 4;
pub const PHASES: usize = (60 / PHASE_WIDTH as usize) + 1;

/// Count difference of player's and opponent's discs on `mask`.
#[inline]
fn diff(p: u64, o: u64, mask: u64) -> i32 {
    (p & mask).count_ones() as i32 - (o & mask).count_ones() as i32
}

/// The features of `b` for the side to move: mobility, potential mobility, corners, X-squares
/// and C-squares next to empty corners, safe edge squares, stable discs, discs (all as
/// player-minus-opponent differences), parity (+1 when the empties are odd), a constant,
/// corners that can be taken now, and frontier discs.
#[inline]
pub fn features(b: &Board) -> [i32; FEATURES] {
    let (p, o) = (b.player, b.opponent);
    let empty = b.empties();
    let (my_moves, their_moves) = (legal_moves(p, o), legal_moves(o, p));
    let mobility = my_moves.count_ones() as i32 - their_moves.count_ones() as i32;
    // Corners that can be taken right now.
    let corner_access =
        (my_moves & CORNERS).count_ones() as i32 - (their_moves & CORNERS).count_ones() as i32;
    // Discs next to an empty square: the ones that give the opponent moves.
    let frontier = diff(p, o, neighbours(empty));
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
    let parity = if empty.count_ones() % 2 == 1 { 1 } else { -1 };
    [
        mobility,
        potential,
        diff(p, o, CORNERS),
        x_squares,
        c_squares,
        diff(p, o, SAFE_EDGES),
        stable_count(p, o) - stable_count(o, p),
        b.disc_difference(),
        parity,
        1,
        corner_access,
        frontier,
    ]
}

/// The static evaluation of `b` for the side to move, in centi-discs: a weighted sum of the
/// features, with weights fitted per phase to tournament results (`examples/fit_eval.rs`).
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    let w = &WEIGHTS[(b.empty_count() / PHASE_WIDTH) as usize];
    features(b).iter().zip(w).map(|(f, w)| f * w).sum()
}

/// Centi-disc weights per phase (empties / 4), in the order of [`features`].
#[rustfmt::skip]
static WEIGHTS: [[i32; FEATURES]; PHASES] = [
    [264, -166, 167, -112, -119, -28, 93, 21, 140, -152, 327, -135], // empties 0-3: 0 positions
    [264, -166, 167, -112, -119, -28, 93, 21, 140, -152, 327, -135], // empties 4-7: 18472 positions
    [236, -132, 218, -146, -120, -9, 92, 16, 133, -192, 311, -143], // empties 8-11: 37327 positions
    [219, -96, 244, -157, -118, 9, 88, 13, 129, -227, 299, -148], // empties 12-15: 56394 positions
    [183, -61, 310, -217, -120, 41, 88, 6, 124, -286, 276, -163], // empties 16-19: 57126 positions
    [153, -26, 341, -251, -99, 67, 86, 2, 127, -335, 278, -177], // empties 20-23: 57528 positions
    [132, 4, 368, -294, -61, 84, 87, -1, 132, -370, 266, -185], // empties 24-27: 57781 positions
    [112, 32, 414, -296, -22, 100, 92, -2, 139, -403, 277, -195], // empties 28-31: 57926 positions
    [111, 48, 415, -358, -11, 112, 106, -3, 143, -433, 186, -202], // empties 32-35: 58037 positions
    [120, 62, 368, -363, -51, 123, 167, -5, 146, -460, 87, -204], // empties 36-39: 58086 positions
    [121, 84, 303, -317, -76, 130, 266, 1, 152, -477, 22, -202], // empties 40-43: 58109 positions
    [121, 105, 220, -225, -58, 109, 317, -6, 185, -469, 68, -155], // empties 44-47: 58113 positions
    [123, 91, 84, -172, -94, 85, 108, -13, 192, -414, 97, -116], // empties 48-51: 58116 positions
    [118, 17, 7, -75, -65, -42, 7, -20, 88, -209, 51, -87], // empties 52-55: 58116 positions
    [92, -16, 0, 5, 0, -62, 0, 51, 93, -52, 0, -130], // empties 56-59: 38744 positions
    [82, -75, 0, 0, 0, 0, 0, -39, 227, 199, 0, -39], // empties 60-63: 19372 positions
];
