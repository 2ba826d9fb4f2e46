//! The static evaluation: Edax's pattern set and six of Egaroucid's shapes ([`patterns`]),
//! tables of counts (mobility, potential mobility, discs: [`COUNT_TABLES`]) and three linear
//! terms, with weights trained on positions labelled by the exact solver (`oxello selfplay`,
//! `oxello train`), one set per phase of the game ([`weights`]).
//!
//! Scores are in centi-discs (1/100 of the final disc differential) from the point of view of
//! the side to move, so a midgame score and an exact endgame score read the same way.

#[cfg(target_feature = "avx2")]
mod gather;
pub mod patterns;
pub mod weights;

use crate::engine::board::{legal_moves, neighbours, Board};
use std::path::Path;
use std::sync::OnceLock;
use weights::{PhaseWeights, Weights, BIAS, PHASE_WIDTH};

/// Centi-discs per disc of final score.
pub const DISC: i32 = 100;

/// The shipped weights (see [`weights`] for the format, README.md for how they are made).
static EMBEDDED: &[u8] = include_bytes!("weights.bin");

/// The weights every evaluation uses, chosen once by [`load`] or else the embedded ones.
static ACTIVE: OnceLock<Weights> = OnceLock::new();

/// Chooses the weights: the file at `path`, or the embedded ones, checked either way; returns
/// their checksum. Call it before the first evaluation: the choice cannot change afterwards.
pub fn load(path: Option<&Path>) -> Result<u64, String> {
    let weights = match path {
        Some(path) => Weights::read(path)?,
        None => Weights::from_bytes(EMBEDDED).map_err(|e| format!("embedded weights: {e}"))?,
    };
    let checksum = weights.checksum();
    match ACTIVE.set(weights) {
        Ok(()) => Ok(checksum),
        Err(_) if active().checksum() == checksum => Ok(checksum),
        Err(_) => Err("the evaluation weights were already chosen".into()),
    }
}

/// The id of the weights in use (their checksum), which books record as the evaluation that
/// searched them.
pub fn id() -> u64 {
    active().checksum()
}

/// The weights in use; the embedded ones unless [`load`] chose others first.
fn active() -> &'static Weights {
    ACTIVE.get_or_init(|| {
        // `load(None)` at start-up and a test check the embedded file, so this cannot fail.
        Weights::from_bytes(EMBEDDED).expect("valid embedded weights")
    })
}

/// Scalar features: mobility (legal moves) and potential mobility (empty squares next to the
/// other side's discs), each the player's minus the opponent's, and parity (1 when the empties
/// are odd: without passes the side to move then plays last).
pub const SCALAR_FEATURES: usize = 3;

/// Count tables: one weight for each value of a count, after the pattern tables, so that a
/// count weighs what it is worth rather than in proportion (two moves left are worse than a
/// tenth of twenty). Each side's mobility and potential mobility, and the side to move's discs,
/// each capped at its table's last entry; the scalar features keep the linear trend, which
/// rare counts fall back on.
pub const COUNT_TABLES: [(&str, u32); 5] = [
    ("mobility", 31),
    ("opponent's mobility", 31),
    ("potential mobility", 48),
    ("opponent's potential mobility", 48),
    ("discs", 65),
];

/// Weights of all the count tables.
pub const COUNT_WEIGHTS: usize = {
    let (mut total, mut i) = (0, 0);
    while i < COUNT_TABLES.len() {
        total += COUNT_TABLES[i].1 as usize;
        i += 1;
    }
    total
};

/// The counts of a position that the evaluation weighs.
struct Counts {
    mobility: [u32; 2],
    potential: [u32; 2],
    discs: u32,
    empties: u32,
}

impl Counts {
    #[inline(always)]
    fn of(b: &Board) -> Counts {
        let (p, o, empty) = (b.player, b.opponent, b.empties());
        Counts {
            mobility: [legal_moves(p, o), legal_moves(o, p)].map(u64::count_ones),
            // Empties next to the other side's discs: where that side may come to be flipped.
            potential: [neighbours(o) & empty, neighbours(p) & empty].map(u64::count_ones),
            discs: p.count_ones(),
            empties: empty.count_ones(),
        }
    }

    #[inline(always)]
    fn scalars(&self) -> [i32; SCALAR_FEATURES] {
        let difference = |c: [u32; 2]| c[0] as i32 - c[1] as i32;
        [
            difference(self.mobility),
            difference(self.potential),
            (self.empties & 1) as i32,
        ]
    }

    /// The weight index of each count table's entry, in the order of [`COUNT_TABLES`].
    #[inline(always)]
    fn table_indices(&self) -> [u32; COUNT_TABLES.len()] {
        let counts = [
            self.mobility[0],
            self.mobility[1],
            self.potential[0],
            self.potential[1],
            self.discs,
        ];
        let mut offset = patterns::PHASE_WEIGHTS as u32;
        let mut indices = [0; COUNT_TABLES.len()];
        for (i, (&count, &(_, size))) in counts.iter().zip(&COUNT_TABLES).enumerate() {
            indices[i] = offset + count.min(size - 1);
            offset += size;
        }
        indices
    }
}

/// The scalar features of `b`, in the order of their weights after the constant.
#[inline]
pub fn scalar_features(b: &Board) -> [i32; SCALAR_FEATURES] {
    Counts::of(b).scalars()
}

/// The weight indices of `b`'s count tables (see [`COUNT_TABLES`]).
#[inline]
pub fn count_indices(b: &Board) -> [u32; COUNT_TABLES.len()] {
    Counts::of(b).table_indices()
}

/// The static evaluation of `b` for the side to move, in centi-discs: the weights of the 70
/// pattern instances and of the count tables, the side to move's constant and the weighted
/// scalar features, for the phase of `b`'s empties.
#[inline]
pub fn evaluate(b: &Board) -> i32 {
    evaluate_carried(b, &patterns::carried(b))
}

/// [`evaluate`] of `b`, whose indices read from its side to move ([`patterns::carried`]) are
/// `lanes`, carried from elsewhere.
#[inline]
pub fn evaluate_carried(b: &Board, lanes: &patterns::Carried) -> i32 {
    weigh(b, lanes)
}

/// Evaluates the children of one board, carrying its pattern indices over each move
/// ([`patterns::after_move`]) instead of reading each child's afresh: cheaper as soon as a
/// node evaluates two children. The scores are [`evaluate`]'s.
pub struct Children {
    /// The parent's opponent's discs: the children's side to move, before the move.
    opponent: u64,
    /// The parent's indices read from its opponent's side: the children's side to move.
    indices: patterns::Carried,
}

impl Children {
    #[inline]
    pub fn of(parent: &Board) -> Children {
        Children {
            opponent: parent.opponent,
            indices: patterns::carried(&parent.pass()),
        }
    }

    /// The children of `parent`, whose indices read from its opponent's side
    /// ([`patterns::carried`] of `parent` passed) are `indices`, carried from elsewhere.
    #[inline]
    pub fn carried(parent: &Board, indices: &patterns::Carried) -> Children {
        Children {
            opponent: parent.opponent,
            indices: *indices,
        }
    }

    /// [`evaluate`] of `child`, the parent after its move on `sq`.
    #[inline]
    pub fn evaluate(&self, sq: u32, child: &Board) -> i32 {
        // What the child's side to move lost to the move.
        let flipped = child.player ^ self.opponent;
        let lanes = patterns::after_move(&self.indices, sq, flipped);
        weigh(child, &lanes)
    }
}

/// The weights of `b`'s phase for its pattern indices `lanes` ([`patterns::Carried`]), its
/// count tables and its scalar features, summed.
#[inline(always)]
fn weigh(b: &Board, lanes: &patterns::Carried) -> i32 {
    let counts = Counts::of(b);
    let w = active().phase((counts.empties / PHASE_WIDTH) as usize);
    let scalars = counts
        .scalars()
        .iter()
        .zip(&w[BIAS + 1..])
        .fold(i32::from(w[BIAS]), |acc, (&f, &wf)| acc + f * i32::from(wf));
    let sum = counts
        .table_indices()
        .iter()
        .fold(scalars + pattern_sum(w, lanes), |acc, &i| {
            acc + i32::from(w[i as usize])
        });
    // Within the scores of a finished game: the search's bounds rely on it.
    sum.clamp(-63 * DISC, 63 * DISC)
}

/// The sum of a phase's pattern weights at the carried indices `lanes`: by vector gathers
/// where the processor has AVX2 ([`gather`]), else one lookup at a time.
#[inline(always)]
fn pattern_sum(w: &PhaseWeights, lanes: &patterns::Carried) -> i32 {
    #[cfg(target_feature = "avx2")]
    return gather::pattern_sum(w, lanes);
    #[cfg(not(target_feature = "avx2"))]
    return pattern_sum_portable(w, lanes);
}

/// [`pattern_sum`] one lookup at a time: what processors without AVX2 run, and the reference
/// the vector version is tested against.
#[cfg_attr(target_feature = "avx2", allow(dead_code))]
#[inline]
fn pattern_sum_portable(w: &PhaseWeights, lanes: &patterns::Carried) -> i32 {
    patterns::offset_indices(lanes)
        .map(|i| i32::from(w[i as usize]))
        .sum()
}
