//! Bitboards, move generation, flips and the game rules.
//!
//! Square index: a1 = bit 0, b1 = bit 1, ..., h1 = bit 7, a2 = bit 8, ..., h8 = bit 63
//! (a1 top-left, rows counted from the top). A [`Board`] holds the discs of the side to move
//! (`player`) and of the other side (`opponent`), so every routine is side-agnostic: making a
//! move swaps the two. A [`Position`] adds which colour the player is.

use std::fmt;

#[cfg(target_feature = "avx2")]
mod simd;

/// Board geometry, as masks: the edge files and rows, all four edges, the corners, and the
/// a1-h8 diagonal.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
pub const ROW_1: u64 = 0x0000_0000_0000_00FF;
pub const ROW_8: u64 = 0xFF00_0000_0000_0000;
pub const EDGES: u64 = FILE_A | FILE_H | ROW_1 | ROW_8;
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The edge squares next to a corner (b1, g1, a2, h2, ...).
pub const C_SQUARES: u64 = neighbours(CORNERS) & EDGES;
/// The squares diagonal to a corner (b2, g2, b7, g7).
pub const X_SQUARES: u64 = neighbours(CORNERS) & !EDGES;
pub const DIAGONAL_A1H8: u64 = 0x8040_2010_0804_0201;

/// The squares next to any square of `x` (king moves), without wrapping across the board edge.
#[inline]
pub const fn neighbours(x: u64) -> u64 {
    let sideways = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let row = x | sideways;
    (sideways | (row << 8) | (row >> 8)) & !x
}

/// Squares on files b..g: a disc there can be stepped over sideways without wrapping a row.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The colour of a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The GTP word for the colour.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// One side's discs and the other's, from the point of view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

/// The landing squares of runs of `mask` discs that start next to a `p` disc, in the
/// direction of a shift by `dir` and its opposite (a doubling fill: 4 steps cover runs of 6).
#[inline(always)]
fn moves_along(p: u64, mask: u64, dir: u32) -> u64 {
    let mut up = mask & (p << dir);
    let mut down = mask & (p >> dir);
    up |= mask & (up << dir);
    down |= mask & (down >> dir);
    // Pairs of adjacent mask discs let the fill jump two squares at a time.
    let pair_up = mask & (mask << dir);
    let pair_down = pair_up >> dir;
    up |= pair_up & (up << (2 * dir));
    down |= pair_down & (down >> (2 * dir));
    up |= pair_up & (up << (2 * dir));
    down |= pair_down & (down >> (2 * dir));
    (up << dir) | (down >> dir)
}

/// The legal moves of `p` against `o` as a bit mask.
#[inline]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(target_feature = "avx2")]
    return simd::legal_moves(p, o);
    #[cfg(not(target_feature = "avx2"))]
    return legal_moves_portable(p, o);
}

/// [`legal_moves`] on plain 64-bit words: what processors without AVX2 run, and the reference
/// the vector version is tested against.
#[cfg_attr(target_feature = "avx2", allow(dead_code))]
#[inline]
fn legal_moves_portable(p: u64, o: u64) -> u64 {
    // Sideways runs may only pass through discs off the a- and h-files; vertical ones cannot wrap.
    let inner = o & NOT_EDGE_FILES;
    (moves_along(p, inner, 1)
        | moves_along(p, o, 8)
        | moves_along(p, inner, 7)
        | moves_along(p, inner, 9))
        & !(p | o)
}

/// Ray masks: `RAYS[sq][d]` holds the squares strictly beyond `sq` in direction `d`.
/// Directions 0..4 go towards higher bits (E, S, SE, SW), 4..8 towards lower bits (W, N, NW, NE).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn ray(sq: usize, dir: usize) -> u64 {
    let (dx, dy) = DIRECTIONS[dir];
    let mut x = (sq % 8) as i32 + dx;
    let mut y = (sq / 8) as i32 + dy;
    let mut mask = 0u64;
    while x >= 0 && x < 8 && y >= 0 && y < 8 {
        mask |= 1u64 << (y * 8 + x);
        x += dx;
        y += dy;
    }
    mask
}

const fn all_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            rays[sq][d] = ray(sq, d);
            d += 1;
        }
        sq += 1;
    }
    rays
}

static RAYS: [[u64; 8]; 64] = all_rays();

/// Discs flipped along a ray towards higher bits.
#[inline(always)]
fn flips_up(p: u64, o: u64, mask: u64) -> u64 {
    // Adding 1 carries through every non-ray bit and every opponent disc on the ray, so the
    // carry lands on the first ray square that is not the opponent's; it outflanks if it is ours.
    let outflank = (o | !mask).wrapping_add(1) & p & mask;
    // The squares below the outflanking disc on the ray, or nothing when there is none.
    outflank.wrapping_sub(1) & mask & 0u64.wrapping_sub((outflank != 0) as u64)
}

/// Discs flipped along a ray towards lower bits.
#[inline(always)]
fn flips_down(p: u64, o: u64, mask: u64) -> u64 {
    let not_opponent = !o & mask;
    if not_opponent == 0 {
        return 0;
    }
    // The nearest non-opponent square on the ray is its highest bit; it outflanks if it is ours.
    let outflank = (1u64 << 63 >> not_opponent.leading_zeros()) & p;
    // -outflank sets the outflank bit and every bit above; shifting once keeps those above it.
    outflank.wrapping_neg().wrapping_shl(1) & mask
}

/// The discs of `o` flipped when `p` plays on `sq` (empty when the move is illegal).
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    #[cfg(target_feature = "avx2")]
    return simd::flips(p, o, sq);
    #[cfg(not(target_feature = "avx2"))]
    return flips_portable(p, o, sq);
}

/// [`flips`] ray by ray on plain 64-bit words: what processors without AVX2 run, and the
/// reference the vector versions are tested against.
#[cfg_attr(target_feature = "avx2", allow(dead_code))]
#[inline]
fn flips_portable(p: u64, o: u64, sq: u32) -> u64 {
    let r = &RAYS[sq as usize];
    flips_up(p, o, r[0])
        | flips_up(p, o, r[1])
        | flips_up(p, o, r[2])
        | flips_up(p, o, r[3])
        | flips_down(p, o, r[4])
        | flips_down(p, o, r[5])
        | flips_down(p, o, r[6])
        | flips_down(p, o, r[7])
}

/// The a-file of `x` as a byte, rank k at bit k: the multiply gathers the file's bits, each in
/// its own byte, into the top byte without carries. Shift `x` right by k first for file k.
#[inline(always)]
pub fn file_byte(x: u64) -> usize {
    ((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Iterates over the set bits of a mask as square indices, lowest first.
#[derive(Copy, Clone)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros();
        // Clearing the lowest set bit: x & (x - 1).
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

impl Board {
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),   // e4, d5: black
        opponent: (1 << 27) | (1 << 36), // d4, e5: white
    };

    pub fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    #[inline]
    pub fn moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    #[inline]
    pub fn opponent_moves(&self) -> u64 {
        legal_moves(self.opponent, self.player)
    }

    #[inline]
    pub fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    #[inline]
    pub fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// The board after the player puts a disc on `sq`, flipping `flipped`.
    #[inline]
    pub fn apply(&self, sq: u32, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1u64 << sq),
        }
    }

    /// The board after the player plays on `sq`; `None` when the move is illegal.
    pub fn play(&self, sq: u32) -> Option<Board> {
        if sq >= 64 || self.moves() & (1u64 << sq) == 0 {
            return None;
        }
        Some(self.apply(sq, flips(self.player, self.opponent, sq)))
    }

    /// The board with the turn handed to the other side.
    #[inline]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Neither side has a legal move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    /// The final disc differential for the player under the World Othello Federation rule:
    /// the empty squares go to the winner.
    pub fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = 64 - p - o;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// A well-mixed 64-bit hash for the transposition table: the two bitboards are multiplied
    /// by different odd constants, then folded with a murmur3-style finaliser.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .opponent
                .rotate_left(32)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

/// A board and the colour of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub side: Color,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    pub fn start() -> Position {
        Position {
            board: Board::START,
            side: Color::Black,
        }
    }

    /// Builds a position from the black and white discs.
    pub fn from_colors(black: u64, white: u64, side: Color) -> Position {
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Position { board, side }
    }

    pub fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    pub fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// Discs of one colour.
    pub fn discs(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black(),
            Color::White => self.white(),
        }
    }

    /// Legal moves of one colour, whoever is to move.
    pub fn moves_of(&self, color: Color) -> u64 {
        legal_moves(self.discs(color), self.discs(color.opposite()))
    }

    pub fn play(&self, sq: u32) -> Option<Position> {
        self.board.play(sq).map(|board| Position {
            board,
            side: self.side.opposite(),
        })
    }

    pub fn pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            side: self.side.opposite(),
        }
    }

    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// Final score (WOF rule) from black's point of view.
    pub fn black_final_score(&self) -> i32 {
        match self.side {
            Color::Black => self.board.final_score(),
            Color::White => -self.board.final_score(),
        }
    }
}

impl fmt::Display for Position {
    /// A picture of the board, row 1 on top, `X` black, `O` white, `.` a legal move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = self.board.moves();
        writeln!(f, "  A B C D E F G H")?;
        for row in 0..8 {
            write!(f, "{}", row + 1)?;
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                let c = if self.black() & bit != 0 {
                    'X'
                } else if self.white() & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '.'
                } else {
                    '-'
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "  A B C D E F G H")?;
        write!(
            f,
            "Black (X): {}  White (O): {}  {} to move",
            self.black().count_ones(),
            self.white().count_ones(),
            match self.side {
                Color::Black => "black",
                Color::White => "white",
            }
        )
    }
}

/// `count` random boards of every density, with disjoint sides: the inputs on which the
/// vector routines are tested against their portable twins.
#[cfg(all(test, target_feature = "avx2"))]
pub(crate) fn random_boards(seed: u64, count: usize) -> impl Iterator<Item = Board> {
    let mut rng = crate::base::rng::Rng::new(seed);
    (0..count).map(move |_| {
        let (a, b, c) = (rng.bits(), rng.bits(), rng.bits());
        let filled = a | b;
        Board {
            player: filled & c,
            opponent: filled & !c,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_and_x_squares_are_a_corner_s_neighbours_on_and_off_the_edge() {
        let (mut c, mut x) = (0u64, 0u64);
        for sq in 0..64i32 {
            let (file, row) = (sq % 8, sq / 8);
            let next_to_corner = [(0, 0), (0, 7), (7, 0), (7, 7)]
                .iter()
                .any(|&(f, r)| (file - f).abs().max((row - r).abs()) == 1);
            let on_edge = file == 0 || file == 7 || row == 0 || row == 7;
            match (next_to_corner, on_edge) {
                (true, true) => c |= 1 << sq,
                (true, false) => x |= 1 << sq,
                _ => {}
            }
        }
        assert_eq!((C_SQUARES, X_SQUARES), (c, x));
    }
}
