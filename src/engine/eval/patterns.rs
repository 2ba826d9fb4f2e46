//! The pattern set: 70 pattern instances of 17 shapes, each shape's instances sharing one
//! table of weights through the symmetries of the board. The first 11 shapes are Edax's (46
//! instances); the last 6 are Egaroucid's 10-square shapes that Edax's set lacks: an edge
//! with its two "Y" squares (C2, F2), the corner block, and four corner regions (triangle,
//! narrow triangle, cross, fish), which read the squares near the corners in several ways.
//!
//! Every shape is defined by its squares read in order at one corner or edge (the "a1
//! orientation"); an instance is that reading on the board turned by one of the 8 symmetries
//! (see [`crate::engine::symmetry::transform`]). A square reads as a base-3 digit: 0 empty, 1 the side
//! to move, 2 the opponent, the first square being the lowest digit.
//!
//! Indices come from bit tricks on the 8 turned boards: contiguous bits for rows and the
//! corner blocks, a multiplication for the diagonals, then a table turns the bits of each side
//! into base 3. A child's indices can instead come from its parent's, square by square
//! ([`after_move`]). `tests/eval.rs` checks both against a plain reading of the squares.

use crate::engine::board::{Board, Squares, DIAGONAL_A1H8, FILE_A};
use crate::engine::notation::square_index;
use crate::engine::symmetry::{flip_diagonal, flip_horizontal, flip_vertical, transform_square};

/// A pattern shape: its name, its squares in the a1 orientation, the symmetries that give its
/// instances, and the reading order of its mirror image (the same squares reflected onto
/// themselves), if it has one: a configuration and its mirror are worth the same.
pub struct Shape {
    pub name: &'static str,
    pub squares: &'static [&'static str],
    pub symmetries: &'static [usize],
    pub mirror: Option<&'static [usize]>,
}

const EDGE_SIDES: &[usize] = &[0, 2, 4, 6];
const CORNERS: &[usize] = &[0, 1, 2, 3];
const DIAGONAL_SIDES: &[usize] = &[0, 1, 2, 4];
const REVERSE_8: &[usize] = &[7, 6, 5, 4, 3, 2, 1, 0];

/// The shapes, in the order of their weight tables.
pub const SHAPES: [Shape; 17] = [
    Shape {
        name: "edge+2X",
        squares: &["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "g2"],
        symmetries: EDGE_SIDES,
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    Shape {
        name: "corner 3x3",
        squares: &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
        symmetries: CORNERS,
        mirror: Some(&[0, 3, 6, 1, 4, 7, 2, 5, 8]),
    },
    Shape {
        name: "corner 2x5",
        squares: &["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"],
        symmetries: &[0, 1, 2, 3, 4, 5, 6, 7],
        mirror: None,
    },
    Shape {
        name: "row 2",
        squares: &["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"],
        symmetries: EDGE_SIDES,
        mirror: Some(REVERSE_8),
    },
    Shape {
        name: "row 3",
        squares: &["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"],
        symmetries: EDGE_SIDES,
        mirror: Some(REVERSE_8),
    },
    Shape {
        name: "row 4",
        squares: &["a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"],
        symmetries: EDGE_SIDES,
        mirror: Some(REVERSE_8),
    },
    Shape {
        name: "diagonal 8",
        squares: &["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"],
        symmetries: &[0, 1],
        mirror: Some(REVERSE_8),
    },
    Shape {
        name: "diagonal 7",
        squares: &["b1", "c2", "d3", "e4", "f5", "g6", "h7"],
        symmetries: DIAGONAL_SIDES,
        mirror: Some(&[6, 5, 4, 3, 2, 1, 0]),
    },
    Shape {
        name: "diagonal 6",
        squares: &["c1", "d2", "e3", "f4", "g5", "h6"],
        symmetries: DIAGONAL_SIDES,
        mirror: Some(&[5, 4, 3, 2, 1, 0]),
    },
    Shape {
        name: "diagonal 5",
        squares: &["d1", "e2", "f3", "g4", "h5"],
        symmetries: DIAGONAL_SIDES,
        mirror: Some(&[4, 3, 2, 1, 0]),
    },
    Shape {
        name: "diagonal 4",
        squares: &["e1", "f2", "g3", "h4"],
        symmetries: DIAGONAL_SIDES,
        mirror: Some(&[3, 2, 1, 0]),
    },
    Shape {
        name: "edge+2Y",
        squares: &["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "c2", "f2"],
        symmetries: EDGE_SIDES,
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    Shape {
        name: "corner block",
        squares: &["a1", "c1", "d1", "e1", "f1", "h1", "c2", "d2", "e2", "f2"],
        symmetries: EDGE_SIDES,
        mirror: Some(&[5, 4, 3, 2, 1, 0, 9, 8, 7, 6]),
    },
    Shape {
        name: "triangle",
        squares: &["a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"],
        symmetries: CORNERS,
        mirror: Some(&[0, 4, 7, 9, 1, 5, 8, 2, 6, 3]),
    },
    Shape {
        name: "narrow triangle",
        squares: &["a1", "b1", "c1", "d1", "e1", "a2", "b2", "a3", "a4", "a5"],
        symmetries: CORNERS,
        mirror: Some(&[0, 5, 7, 8, 9, 1, 6, 2, 3, 4]),
    },
    Shape {
        name: "cross",
        squares: &["a1", "b2", "c3", "d4", "b1", "c2", "d3", "a2", "b3", "c4"],
        symmetries: CORNERS,
        mirror: Some(&[0, 1, 2, 3, 7, 8, 9, 4, 5, 6]),
    },
    Shape {
        name: "fish",
        squares: &["a1", "b1", "a2", "b2", "c2", "d2", "b3", "c3", "b4", "d4"],
        symmetries: CORNERS,
        mirror: Some(&[0, 2, 1, 3, 6, 8, 4, 7, 5, 9]),
    },
];

/// Pattern instances read from one board.
pub const INSTANCES: usize = 70;

/// Weights of one shape: one per configuration.
pub const fn shape_size(shape: &Shape) -> usize {
    3usize.pow(shape.squares.len() as u32)
}

/// Where each shape's table starts in a phase's weights, and their total.
pub const OFFSETS: [usize; SHAPES.len() + 1] = {
    let mut offsets = [0; SHAPES.len() + 1];
    let mut i = 0;
    while i < SHAPES.len() {
        offsets[i + 1] = offsets[i] + shape_size(&SHAPES[i]);
        i += 1;
    }
    offsets
};

/// Pattern weights per phase: the tables of every shape.
pub const PHASE_WEIGHTS: usize = OFFSETS[SHAPES.len()];

/// `TERNARY[bits]`: bit i read as the base-3 digit i.
const TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut v, mut pow, mut i) = (0u16, 1u16, 0);
        while i < 10 {
            if b >> i & 1 == 1 {
                v += pow;
            }
            pow = pow.wrapping_mul(3);
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The bits of the squares above the main diagonal starting at column `from`, by column.
#[inline(always)]
fn diagonal_bits(x: u64, from: u32) -> u64 {
    // Each square of the line is in its own column, so the product gathers them into the top
    // byte, bit c from column c, without carries.
    let line = (DIAGONAL_A1H8 << from) & !(FILE_A * ((1u64 << from) - 1));
    ((x & line).wrapping_mul(FILE_A) >> 56) >> from
}

/// The bits of shape `shape`'s squares (in reading order) on a board in the a1 orientation.
#[inline(always)]
fn shape_bits(x: u64, shape: usize) -> u64 {
    match shape {
        0 => (x & 0xFF) | (x >> 9 & 1) << 8 | (x >> 14 & 1) << 9,
        1 => (x & 7) | (x >> 8 & 7) << 3 | (x >> 16 & 7) << 6,
        2 => (x & 0x1F) | (x >> 8 & 0x1F) << 5,
        3 => x >> 8 & 0xFF,
        4 => x >> 16 & 0xFF,
        5 => x >> 24 & 0xFF,
        6 => (x & DIAGONAL_A1H8).wrapping_mul(FILE_A) >> 56,
        7 => diagonal_bits(x, 1),
        8 => diagonal_bits(x, 2),
        9 => diagonal_bits(x, 3),
        10 => diagonal_bits(x, 4),
        // The edge, then C2 and F2.
        11 => (x & 0xFF) | (x >> 10 & 1) << 8 | (x >> 13 & 1) << 9,
        // A1, C1-F1, H1, then C2-F2.
        12 => (x & 1) | (x >> 2 & 0xF) << 1 | (x >> 7 & 1) << 5 | (x >> 10 & 0xF) << 6,
        // A1-D1, A2-C2, A3-B3, A4.
        13 => (x & 0xF) | (x >> 8 & 7) << 4 | (x >> 16 & 3) << 7 | (x >> 24 & 1) << 9,
        // A1-E1, A2-B2, then A3, A4, A5 down the file.
        14 => {
            (x & 0x1F)
                | (x >> 8 & 3) << 5
                | (x >> 16 & 1) << 7
                | (x >> 24 & 1) << 8
                | (x >> 32 & 1) << 9
        }
        // The diagonal A1-D4, the one beside it B1-D3, and the one below it A2-C4.
        15 => {
            (x & 1 | x >> 8 & 2 | x >> 16 & 4 | x >> 24 & 8)
                | (x >> 1 & 1 | x >> 9 & 2 | x >> 17 & 4) << 4
                | (x >> 8 & 1 | x >> 16 & 2 | x >> 24 & 4) << 7
        }
        // A1-B1, A2-D2, B3-C3, B4, D4.
        _ => {
            (x & 3)
                | (x >> 8 & 0xF) << 2
                | (x >> 17 & 3) << 6
                | (x >> 25 & 1) << 8
                | (x >> 27 & 1) << 9
        }
    }
}

/// The base-3 index of a shape on (p, o) in the a1 orientation.
#[inline(always)]
fn shape_index(p: u64, o: u64, shape: usize) -> usize {
    TERNARY[shape_bits(p, shape) as usize] as usize
        + 2 * TERNARY[shape_bits(o, shape) as usize] as usize
}

/// The 8 turned copies of a bitboard, in the order of [`crate::engine::symmetry::transform`].
#[inline(always)]
fn turned(x: u64) -> [u64; 8] {
    let (v, d) = (flip_vertical(x), flip_diagonal(x));
    let vd = flip_vertical(d);
    [
        x,
        flip_horizontal(x),
        v,
        flip_horizontal(v),
        d,
        flip_horizontal(d),
        vd,
        flip_horizontal(vd),
    ]
}

/// Every instance's weight index into one phase's table (its shape's offset added), shape by
/// shape in the order of [`SHAPES`], each shape's instances in the order of its symmetries.
/// Written out instance by instance, so that every shape's bit trick is inlined with its
/// constants (`tests/eval.rs` holds it to [`SHAPES`]).
#[inline]
pub fn indices(b: &Board) -> [u32; INSTANCES] {
    let (p, o) = (turned(b.player), turned(b.opponent));
    macro_rules! instances {
        ($($shape:literal: [$($s:literal),*]),*) => {
            [$($((OFFSETS[$shape] + shape_index(p[$s], o[$s], $shape)) as u32),*),*]
        };
    }
    instances!(
        0: [0, 2, 4, 6],
        1: [0, 1, 2, 3],
        2: [0, 1, 2, 3, 4, 5, 6, 7],
        3: [0, 2, 4, 6],
        4: [0, 2, 4, 6],
        5: [0, 2, 4, 6],
        6: [0, 1],
        7: [0, 1, 2, 4],
        8: [0, 1, 2, 4],
        9: [0, 1, 2, 4],
        10: [0, 1, 2, 4],
        11: [0, 2, 4, 6],
        12: [0, 2, 4, 6],
        13: [0, 1, 2, 3],
        14: [0, 1, 2, 3],
        15: [0, 1, 2, 3],
        16: [0, 1, 2, 3]
    )
}

/// Lanes of a carried index vector ([`Carried`]): the 70 instances and two idle lanes, so
/// that whole vectors add at once.
pub const LANES: usize = 72;

/// Pattern indices without their shapes' offsets, one lane an instance in [`indices`]'s order,
/// carried from a board to its children by [`after_move`].
pub type Carried = [u16; LANES];

/// Each instance's shape and symmetry, in [`indices`]'s order.
const INSTANCE_SHAPES: [(usize, usize); INSTANCES] = {
    let mut instances = [(0, 0); INSTANCES];
    let (mut shape, mut instance) = (0, 0);
    while shape < SHAPES.len() {
        let mut s = 0;
        while s < SHAPES[shape].symmetries.len() {
            instances[instance] = (shape, SHAPES[shape].symmetries[s]);
            s += 1;
            instance += 1;
        }
        shape += 1;
    }
    instances
};

/// Each lane's shape offset: an instance's in [`indices`]'s order, 0 for the idle lanes.
pub const LANE_OFFSETS: [u32; LANES] = {
    let mut offsets = [0; LANES];
    let mut instance = 0;
    while instance < INSTANCES {
        offsets[instance] = OFFSETS[INSTANCE_SHAPES[instance].0] as u32;
        instance += 1;
    }
    offsets
};

/// For each square, its digit's value (a power of 3) in every instance that reads it, 0 in
/// the others.
const SQUARE_DIGITS: [Carried; 64] = {
    let mut table = [[0; LANES]; 64];
    let mut instance = 0;
    while instance < INSTANCES {
        let (shape, symmetry) = INSTANCE_SHAPES[instance];
        let squares = SHAPES[shape].squares;
        let (mut i, mut power) = (0, 1);
        while i < squares.len() {
            let target = square_index(squares[i]).expect("shapes name their squares a1..h8");
            // The board square that the instance's symmetry brings onto the shape's square.
            let mut sq = 0;
            while transform_square(sq, symmetry) != target {
                sq += 1;
            }
            table[sq as usize][instance] = power;
            i += 1;
            power *= 3;
        }
        instance += 1;
    }
    table
};

/// `b`'s indices in the carried form.
#[inline]
pub fn carried(b: &Board) -> Carried {
    let mut lanes = [0; LANES];
    for ((lane, index), offset) in lanes.iter_mut().zip(indices(b)).zip(LANE_OFFSETS) {
        *lane = (index - offset) as u16;
    }
    lanes
}

/// Carried indices back in [`indices`]'s form, shape offsets included.
#[inline]
pub fn offset_indices(lanes: &Carried) -> impl Iterator<Item = u32> + '_ {
    lanes[..INSTANCES]
        .iter()
        .zip(LANE_OFFSETS)
        .map(|(&lane, offset)| offset + u32::from(lane))
}

/// The indices of a child board, from the indices of its parent read from the parent's
/// opponent's side (the parent with the turn passed), who moves next in the child: `sq` goes
/// from empty to the parent's side to move (the child's opponent), and each square of
/// `flipped` from the child's side to move to its opponent.
#[inline]
pub fn after_move(parent: &Carried, sq: u32, flipped: u64) -> Carried {
    carry(parent, sq, flipped, 2, 1)
}

/// The indices of a board after its side to move played `sq`, flipping `flipped`, from its
/// indices `own` read from that side (so from the side that moved, who is the child's
/// opponent): `sq` goes from empty to the mover, and each square of `flipped` from the other
/// side to the mover.
#[inline]
pub fn after_own_move(own: &Carried, sq: u32, flipped: u64) -> Carried {
    carry(own, sq, flipped, 1, MINUS_ONE)
}

/// -1 in lane arithmetic, which wraps: a digit going from 2 to 1.
const MINUS_ONE: u16 = u16::MAX;

/// `lanes` after a move on `sq` that adds `played` to its digit and `flip` to each digit of
/// `flipped`.
#[inline(always)]
fn carry(lanes: &Carried, sq: u32, flipped: u64, played: u16, flip: u16) -> Carried {
    let mut next = *lanes;
    add(&mut next, &SQUARE_DIGITS[sq as usize], played);
    for f in Squares(flipped) {
        add(&mut next, &SQUARE_DIGITS[f as usize], flip);
    }
    next
}

/// Lane-by-lane `lanes += digit * times`, wrapping (so that `times` may be [`MINUS_ONE`]; the
/// lanes end as valid indices), which the compiler turns into a few vector operations.
#[inline(always)]
fn add(lanes: &mut Carried, digits: &Carried, times: u16) {
    for (lane, digit) in lanes.iter_mut().zip(digits) {
        *lane = lane.wrapping_add(digit.wrapping_mul(times));
    }
}
