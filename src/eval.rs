//! A hand-made evaluation: the features of classic Othello programs with weights that slide
//! from the midgame to the endgame with the number of empty squares.
//!
//! Scores are in centi-discs (1/100 of the final disc differential) from the point of view of
//! the side to move, so a midgame score and an exact endgame score read the same way.

use crate::board::{legal_moves, Board};
use crate::symmetry::{flip_diagonal, flip_vertical};

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

/// Configurations of an edge pattern: the 8 edge squares and the 2 X-squares, 3 states each.
pub const EDGE_CONFIGS: usize = 59049;

/// `TERNARY[byte]`: the bits of a byte read as base-3 digits (bit i is worth 3^i).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut pow, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// Index of the row-1 edge pattern of (p, o): a1..h1 then b2 and g2 as base-3 digits
/// (0 empty, 1 player, 2 opponent).
#[inline]
fn row1_edge_index(p: u64, o: u64) -> usize {
    let x_square = |bit: u32| ((p >> bit & 1) + 2 * (o >> bit & 1)) as usize;
    TERNARY[(p & 0xFF) as usize] as usize
        + 2 * TERNARY[(o & 0xFF) as usize] as usize
        + 6561 * x_square(9)
        + 19683 * x_square(14)
}

/// The edge pattern indices of the four edges: each edge is brought to row 1 by a symmetry
/// (row 8 by a vertical flip, file a by the diagonal flip, file h by both).
#[inline]
pub fn edge_indices(b: &Board) -> [usize; 4] {
    let (p, o) = (b.player, b.opponent);
    let (tp, to) = (flip_diagonal(p), flip_diagonal(o));
    [
        row1_edge_index(p, o),
        row1_edge_index(flip_vertical(p), flip_vertical(o)),
        row1_edge_index(tp, to),
        row1_edge_index(flip_vertical(tp), flip_vertical(to)),
    ]
}

/// Fitted edge-pattern values, centi-discs as little-endian i16, `EDGE_CONFIGS` per phase
/// (written by `examples/fit_eval.rs`).
static EDGE_VALUES: &[u8; PHASES * EDGE_CONFIGS * 2] = include_bytes!("eval_edges.bin");

#[inline]
fn edge_value(phase: usize, index: usize) -> i32 {
    let at = 2 * (phase * EDGE_CONFIGS + index);
    i32::from(i16::from_le_bytes([EDGE_VALUES[at], EDGE_VALUES[at + 1]]))
}

/// The static evaluation of `b` for the side to move, in centi-discs: a weighted sum of the
/// features plus the values of the four edge patterns, fitted per phase to tournament
/// results (`examples/fit_eval.rs`).
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    let phase = (b.empty_count() / PHASE_WIDTH) as usize;
    let w = &WEIGHTS[phase];
    let linear: i32 = features(b).iter().zip(w).map(|(f, w)| f * w).sum();
    linear
        + edge_indices(b)
            .iter()
            .map(|&i| edge_value(phase, i))
            .sum::<i32>()
}

/// Centi-disc weights per phase (empties / 4), in the order of [`features`].
#[rustfmt::skip]
static WEIGHTS: [[i32; FEATURES]; PHASES] = [
    [224, -147, 234, -74, -159, -16, 92, 26, 144, -85, 305, -158], // empties 0-3: 0 positions, held-out error n/a
    [224, -147, 234, -74, -159, -16, 92, 26, 144, -85, 305, -158], // empties 4-7: 16612 positions, held-out error n/a
    [207, -115, 284, -123, -168, 1, 91, 22, 136, -124, 272, -162], // empties 8-11: 33564 positions, held-out error 10.42 discs (features alone 11.06)
    [194, -80, 285, -128, -152, 13, 93, 17, 130, -158, 251, -160], // empties 12-15: 50714 positions, held-out error 12.06 discs (features alone 12.37)
    [174, -50, 317, -191, -157, 38, 101, 8, 129, -220, 223, -162], // empties 16-19: 51382 positions, held-out error 13.41 discs (features alone 13.63)
    [154, -19, 305, -207, -133, 57, 108, -2, 136, -274, 224, -162], // empties 20-23: 51759 positions, held-out error 14.53 discs (features alone 14.91)
    [141, 6, 300, -244, -114, 72, 113, -10, 141, -312, 200, -159], // empties 24-27: 51997 positions, held-out error 15.68 discs (features alone 15.92)
    [124, 30, 340, -212, -84, 91, 118, -15, 141, -341, 206, -163], // empties 28-31: 52131 positions, held-out error 16.79 discs (features alone 16.94)
    [118, 50, 322, -229, -74, 109, 135, -19, 137, -369, 112, -167], // empties 32-35: 52234 positions, held-out error 17.72 discs (features alone 17.95)
    [120, 66, 250, -211, -126, 134, 186, -18, 135, -391, 103, -174], // empties 36-39: 52279 positions, held-out error 18.47 discs (features alone 18.87)
    [120, 89, 202, -178, -163, 154, 269, -6, 142, -411, 64, -182], // empties 40-43: 52301 positions, held-out error 19.00 discs (features alone 19.39)
    [119, 107, 141, -79, -184, 148, 251, -10, 178, -405, 33, -145], // empties 44-47: 52305 positions, held-out error 20.44 discs (features alone 20.56)
    [125, 92, 56, -46, -104, 129, 79, -8, 191, -364, 30, -120], // empties 48-51: 52308 positions, held-out error 21.33 discs (features alone 21.33)
    [124, 15, 6, -22, -65, 32, 6, -18, 91, -185, 34, -94], // empties 52-55: 52308 positions, held-out error 21.98 discs (features alone 21.99)
    [98, -18, 0, 5, 0, -38, 0, 49, 99, -49, 0, -135], // empties 56-59: 34872 positions, held-out error 22.05 discs (features alone 22.05)
    [88, -79, 0, 0, 0, 0, 0, -41, 238, 185, 0, -41], // empties 60-63: 17436 positions, held-out error n/a
];
