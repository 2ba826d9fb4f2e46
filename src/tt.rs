//! The transposition table: a fixed array of 4-entry buckets, sized in MiB, never resized.
//!
//! An entry keeps bounds on a position's score (centi-discs) searched to some depth, and the best
//! move found. Replacement within a bucket: the same position first, then an entry from an older
//! search, then the shallowest entry.

use crate::board::Board;

/// Depths from here on mark endgame results: deeper than any midgame search.
const ENDGAME_BASE: u8 = 64;

/// Endgame searches come in levels of selectivity, the last one exact.
pub const LEVELS: u8 = 4;
/// The exact level.
pub const EXACT_LEVEL: u8 = LEVELS - 1;

/// The depth stored for an endgame result with `empties` empty squares, searched at selectivity
/// `level`. Ranking by empties lets replacement keep the results that saved the most work; for
/// one position, a more exact result ranks above a less exact one.
#[inline]
pub fn endgame_depth(empties: u32, level: u8) -> u8 {
    // 47 empties keep the largest depth within a byte; beyond, the rank no longer grows.
    ENDGAME_BASE + LEVELS * empties.min(47) as u8 + level
}

/// The selectivity level of a stored endgame result, or `None` for a midgame one.
#[inline]
pub fn endgame_level(depth: u8) -> Option<u8> {
    (depth >= ENDGAME_BASE).then(|| (depth - ENDGAME_BASE) % LEVELS)
}

/// The table sizes the engine accepts, MiB.
pub const HASH_MIB: std::ops::RangeInclusive<usize> = 1..=4096;

/// No best move known.
pub const NO_MOVE: u8 = 64;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    pub lower: i16,
    pub upper: i16,
    pub depth: u8,
    pub best: u8,
    date: u8,
    used: bool,
}

const WAYS: usize = 4;

#[derive(Copy, Clone, Default)]
#[repr(align(64))]
struct Bucket([Entry; WAYS]);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    date: u8,
}

/// What a probe tells the search.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    pub lower: i32,
    pub upper: i32,
    pub depth: u8,
    pub best: u8,
}

impl TranspositionTable {
    /// A table taking at most `mib` MiB (rounded down to a power-of-two number of buckets).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Round down to a power of two so that a mask picks the bucket.
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        TranspositionTable {
            buckets: vec![Bucket::default(); count],
            mask: count - 1,
            date: 0,
        }
    }

    /// Bytes held by the table.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.date = 0;
    }

    /// Marks the start of a new search so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.date = self.date.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        (hash as usize) & self.mask
    }

    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Probe> {
        let hash = board.hash();
        self.buckets[self.bucket(hash)]
            .0
            .iter()
            .find(|e| e.used && e.key == hash)
            .map(|e| Probe {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                depth: e.depth,
                best: e.best,
            })
    }

    /// Records the result of a search of `board` to `depth` with window (alpha, beta):
    /// `score` is a lower bound if it is >= beta, an upper bound if it is <= alpha, else exact.
    #[inline]
    pub fn store(&mut self, board: &Board, depth: u8, alpha: i32, beta: i32, score: i32, best: u8) {
        let hash = board.hash();
        let date = self.date;
        let index = self.bucket(hash);
        let bucket = &mut self.buckets[index].0;
        let slot = match bucket.iter().position(|e| e.used && e.key == hash) {
            Some(i) => i,
            None => (0..WAYS)
                .min_by_key(|&i| {
                    let e = &bucket[i];
                    (e.used, e.date == date, e.depth)
                })
                .unwrap_or(0),
        };
        let e = &mut bucket[slot];
        let same = e.used && e.key == hash;
        // A shallower result for a known position only refines it when the depth matches.
        if same && e.depth > depth {
            return;
        }
        let (mut lower, mut upper) = if same && e.depth == depth {
            (i32::from(e.lower), i32::from(e.upper))
        } else {
            (i32::from(i16::MIN), i32::from(i16::MAX))
        };
        if score < beta {
            upper = upper.min(score);
        }
        if score > alpha {
            lower = lower.max(score);
        }
        if lower > upper {
            // Inconsistent with an older bound (a search instability): trust the new result.
            (lower, upper) = if score < beta {
                (i32::from(i16::MIN), score)
            } else {
                (score, i32::from(i16::MAX))
            };
        }
        let best = if best == NO_MOVE && same {
            e.best
        } else {
            best
        };
        *e = Entry {
            key: hash,
            lower: lower as i16,
            upper: upper as i16,
            depth,
            best,
            date,
            used: true,
        };
    }
}
