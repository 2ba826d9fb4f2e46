//! A hand-made evaluation: the features of classic Othello programs with weights that slide
//! from the midgame to the endgame with the number of empty squares.
//!
//! Scores are in centi-discs (1/100 of the final disc differential) from the point of view of
//! the side to move, so a midgame score and an exact endgame score read the same way.

use crate::board::{legal_moves, Board};
use crate::symmetry::{flip_diagonal, flip_horizontal, flip_vertical};

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
pub const fn neighbours(x: u64) -> u64 {
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
/// Configurations of a corner pattern: the 3x3 squares at a corner.
pub const CORNER_CONFIGS: usize = 19683;
/// Pattern values per phase: every edge configuration, then every corner configuration.
pub const PATTERN_VALUES: usize = EDGE_CONFIGS + CORNER_CONFIGS;
/// Patterns read from one board: 4 edges and 4 corners.
pub const PATTERN_INSTANCES: usize = 8;

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

/// Index of the a1 corner pattern of (p, o): a1 b1 c1, a2 b2 c2, a3 b3 c3 as base-3 digits.
#[inline]
fn a1_corner_index(p: u64, o: u64) -> usize {
    let row = |x: u64, r: u32| TERNARY[(x >> (8 * r) & 7) as usize] as usize;
    (row(p, 0) + 2 * row(o, 0))
        + 27 * (row(p, 1) + 2 * row(o, 1))
        + 729 * (row(p, 2) + 2 * row(o, 2))
}

/// The indices, into one phase's pattern values, of the four edges and the four corners.
/// Each edge is brought to row 1 by a symmetry (row 8 by a vertical flip, file a by the
/// diagonal flip, file h by both); each corner to a1 by file and row flips.
#[inline]
pub fn pattern_indices(b: &Board) -> [usize; PATTERN_INSTANCES] {
    let (p, o) = (b.player, b.opponent);
    let (tp, to) = (flip_diagonal(p), flip_diagonal(o));
    let (vp, vo) = (flip_vertical(p), flip_vertical(o));
    let (hp, ho) = (flip_horizontal(p), flip_horizontal(o));
    [
        row1_edge_index(p, o),
        row1_edge_index(vp, vo),
        row1_edge_index(tp, to),
        row1_edge_index(flip_vertical(tp), flip_vertical(to)),
        EDGE_CONFIGS + a1_corner_index(p, o),
        EDGE_CONFIGS + a1_corner_index(hp, ho),
        EDGE_CONFIGS + a1_corner_index(vp, vo),
        EDGE_CONFIGS + a1_corner_index(flip_horizontal(vp), flip_horizontal(vo)),
    ]
}

/// Fitted pattern values, centi-discs as little-endian i16, `PATTERN_VALUES` per phase
/// (written by `examples/fit_eval.rs`).
static PATTERN_TABLE: &[u8; PHASES * PATTERN_VALUES * 2] = include_bytes!("eval_patterns.bin");

#[inline]
fn pattern_value(phase: usize, index: usize) -> i32 {
    let at = 2 * (phase * PATTERN_VALUES + index);
    i32::from(i16::from_le_bytes([
        PATTERN_TABLE[at],
        PATTERN_TABLE[at + 1],
    ]))
}

/// The static evaluation of `b` for the side to move, in centi-discs: a weighted sum of the
/// features plus the values of the edge and corner patterns, fitted per phase to tournament
/// results (`examples/fit_eval.rs`).
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    let phase = (b.empty_count() / PHASE_WIDTH) as usize;
    let w = &WEIGHTS[phase];
    let linear: i32 = features(b).iter().zip(w).map(|(f, w)| f * w).sum();
    linear
        + pattern_indices(b)
            .iter()
            .map(|&i| pattern_value(phase, i))
            .sum::<i32>()
}

/// Centi-disc weights per phase (empties / 4), in the order of [`features`].
#[rustfmt::skip]
static WEIGHTS: [[i32; FEATURES]; PHASES] = [
    [236, -173, 224, -81, -160, -19, 94, 24, 141, -81, 342, -150], // empties 0-3: 0 positions, held-out error n/a
    [236, -173, 224, -81, -160, -19, 94, 24, 141, -81, 342, -150], // empties 4-7: 16612 positions, held-out error n/a
    [216, -140, 273, -131, -162, -2, 93, 21, 136, -121, 307, -159], // empties 8-11: 33564 positions, held-out error 10.00 discs (features alone 11.06)
    [196, -93, 286, -136, -139, 14, 92, 16, 130, -160, 288, -161], // empties 12-15: 50714 positions, held-out error 11.70 discs (features alone 12.37)
    [167, -52, 336, -202, -125, 42, 99, 7, 130, -230, 261, -170], // empties 16-19: 51382 positions, held-out error 13.04 discs (features alone 13.63)
    [141, -15, 357, -235, -91, 66, 101, -1, 138, -291, 256, -178], // empties 20-23: 51759 positions, held-out error 14.18 discs (features alone 14.91)
    [129, 8, 361, -287, -65, 82, 105, -8, 144, -331, 237, -181], // empties 24-27: 51997 positions, held-out error 15.38 discs (features alone 15.92)
    [112, 30, 391, -270, -39, 100, 113, -11, 148, -364, 245, -191], // empties 28-31: 52131 positions, held-out error 16.60 discs (features alone 16.94)
    [108, 51, 362, -298, -23, 115, 129, -13, 149, -397, 173, -198], // empties 32-35: 52234 positions, held-out error 17.48 discs (features alone 17.95)
    [113, 72, 293, -261, -72, 125, 191, -13, 155, -426, 129, -199], // empties 36-39: 52279 positions, held-out error 18.10 discs (features alone 18.87)
    [117, 98, 235, -213, -94, 128, 283, -4, 171, -452, 68, -198], // empties 40-43: 52301 positions, held-out error 18.62 discs (features alone 19.39)
    [120, 116, 164, -103, -107, 107, 272, -4, 208, -448, 37, -165], // empties 44-47: 52305 positions, held-out error 20.22 discs (features alone 20.56)
    [122, 99, 61, -61, -81, 92, 84, 9, 213, -409, 39, -156], // empties 48-51: 52308 positions, held-out error 21.21 discs (features alone 21.33)
    [125, 13, 6, -37, -64, -4, 6, 6, 94, -208, 37, -137], // empties 52-55: 52308 positions, held-out error 21.93 discs (features alone 21.99)
    [97, -17, 0, 5, 0, -47, 0, 41, 95, -62, 0, -134], // empties 56-59: 34872 positions, held-out error 22.04 discs (features alone 22.05)
    [88, -78, 0, 0, 0, 0, 0, -40, 242, 187, 0, -40], // empties 60-63: 17436 positions, held-out error n/a
];
