//! The transposition table: a fixed array of 4-entry buckets, sized in MiB, never resized,
//! shared without locks by the threads of a search.
//!
//! An entry keeps bounds on a position's score (centi-discs) searched to some depth, and the best
//! move found. Replacement within a bucket: the same position first, then an entry from an older
//! search, then the shallowest entry. The table's first MiB also serves as a small table of
//! its own, [`TranspositionTable::near_end`], for the many cheap nodes near the end of a solve.

use crate::engine::board::Board;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// The table sizes the engine accepts, MiB.
pub const HASH_MIB: std::ops::RangeInclusive<usize> = 1..=4096;

/// No best move known.
pub const NO_MOVE: u8 = 64;

/// What a slot records of a position, packed into one word by [`Entry::pack`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Entry {
    lower: i16,
    upper: i16,
    depth: u8,
    best: u8,
    date: u8,
    used: bool,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.best) << 40
            | u64::from(self.date) << 48
            | u64::from(self.used) << 56
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            best: (data >> 40) as u8,
            date: (data >> 48) as u8,
            used: (data >> 56) & 1 == 1,
        }
    }
}

/// One entry, shared by every search thread without a lock: the position's key XOR the
/// packed entry, and the packed entry. A slot torn by two threads writing at once no longer
/// gives back its key, so it reads as a miss, never as another position's result.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The key and entry the slot holds.
    #[inline]
    fn read(&self) -> (u64, Entry) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data, Entry::unpack(data))
    }

    #[inline]
    fn write(&self, key: u64, entry: Entry) {
        let data = entry.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }
}

const WAYS: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// The table, shared by reference between search threads (`probe` and `store` take `&self`).
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    /// [`Self::near_end`]'s mask, kept beside `mask` for the solver's hot path.
    near_end_mask: usize,
    date: AtomicU8,
}

/// The buckets at the start of the table that [`TranspositionTable::near_end`] uses: a MiB,
/// few enough to stay in the cache.
const NEAR_END_BUCKETS: usize = (1 << 20) / std::mem::size_of::<Bucket>();
// `new` takes the smaller of two masks by an AND, which needs both counts powers of two.
const _: () = assert!(NEAR_END_BUCKETS.is_power_of_two());

/// What a probe tells the search.
#[derive(Copy, Clone, Debug)]
pub struct Probe {
    pub lower: i32,
    pub upper: i32,
    pub depth: u8,
    pub best: u8,
}

/// The size of a huge page on x86-64 and most arm64 Linux systems.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the whole huge pages of `buckets`' allocation (not yet touched) with
/// huge pages: a probe lands on a random bucket, and with 4 KiB pages nearly every probe of a
/// large table also misses the TLB. Solving FFO #40-#51 and #53-#54 with a 256 MiB table
/// takes 4% less time. Only a hint: where it is refused, the table works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &mut Vec<Bucket>) {
    let start = buckets.as_mut_ptr() as usize;
    let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if last > first {
        // SAFETY: [first, last) lies within the vector's allocation, which nothing else
        // uses, and MADV_HUGEPAGE changes only how pages are backed, never their contents or
        // whether they can be accessed.
        let advised = unsafe {
            rustix::mm::madvise(
                first as *mut std::ffi::c_void,
                last - first,
                rustix::mm::Advice::LinuxHugepage,
            )
        };
        if let Err(e) = advised {
            log::debug!("transposition table: no huge pages ({e})");
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &mut Vec<Bucket>) {}

impl TranspositionTable {
    /// A table taking at most `mib` MiB (rounded down to a power-of-two number of buckets).
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // Round down to a power of two so that a mask picks the bucket.
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&mut buckets);
        buckets.extend((0..count).map(|_| Bucket::default()));
        TranspositionTable {
            buckets,
            mask: count - 1,
            // Both are powers of two less one: the smaller of the two masks.
            near_end_mask: (count - 1) & (NEAR_END_BUCKETS - 1),
            date: AtomicU8::new(0),
        }
    }

    /// Bytes held by the table.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties the table (no search may be running).
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.0.iter_mut()) {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        *self.date.get_mut() = 0;
    }

    /// Marks the start of a new search so that older entries are replaced first.
    pub fn new_search(&self) {
        self.date.fetch_add(1, Ordering::Relaxed);
    }

    /// The whole table, as a [`Part`].
    #[inline]
    pub fn whole(&self) -> Part<'_> {
        Part {
            table: self,
            mask: self.mask,
        }
    }

    /// The table's first MiB as a small table of its own, for the many cheap nodes near the
    /// end of a solve: its buckets stay in the cache, so a probe there seldom waits for
    /// memory. Its positions share those buckets with the whole table's, and the usual
    /// replacement settles between them.
    #[inline]
    pub fn near_end(&self) -> Part<'_> {
        Part {
            table: self,
            mask: self.near_end_mask,
        }
    }

    /// [`Part::probe`] in the whole table.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Probe> {
        self.whole().probe(board)
    }

    /// [`Part::store`] in the whole table.
    #[inline]
    pub fn store(&self, board: &Board, depth: u8, alpha: i32, beta: i32, score: i32, best: u8) {
        self.whole().store(board, depth, alpha, beta, score, best);
    }
}

/// The buckets of a table that a mask picks from: [`TranspositionTable::whole`] or
/// [`TranspositionTable::near_end`].
#[derive(Copy, Clone)]
pub struct Part<'a> {
    table: &'a TranspositionTable,
    mask: usize,
}

impl<'a> Part<'a> {
    #[inline]
    fn bucket(self, hash: u64) -> &'a Bucket {
        &self.table.buckets[(hash as usize) & self.mask]
    }

    /// Starts bringing `board`'s bucket into the cache, for a probe soon after: prefetching
    /// the buckets of all a node's children lets their loads from memory overlap, where the
    /// probes would wait for them one after the other.
    #[inline]
    pub fn prefetch(self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(board.hash());
            // SAFETY: a prefetch is a hint that cannot fault and changes no memory; the SSE
            // instruction set it belongs to is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    #[inline]
    pub fn probe(self, board: &Board) -> Option<Probe> {
        let hash = board.hash();
        self.bucket(hash).0.iter().find_map(|slot| {
            let (key, e) = slot.read();
            (e.used && key == hash).then_some(Probe {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                depth: e.depth,
                best: e.best,
            })
        })
    }

    /// Records the result of a search of `board` to `depth` with window (alpha, beta):
    /// `score` is a lower bound if it is >= beta, an upper bound if it is <= alpha, else exact.
    #[inline]
    pub fn store(self, board: &Board, depth: u8, alpha: i32, beta: i32, score: i32, best: u8) {
        let hash = board.hash();
        let date = self.table.date.load(Ordering::Relaxed);
        let bucket = &self.bucket(hash).0;
        let entries: [(u64, Entry); WAYS] = std::array::from_fn(|i| bucket[i].read());
        let slot = match entries.iter().position(|(k, e)| e.used && *k == hash) {
            Some(i) => i,
            None => (0..WAYS)
                .min_by_key(|&i| {
                    let e = &entries[i].1;
                    (e.used, e.date == date, e.depth)
                })
                .unwrap_or(0),
        };
        let (key, e) = entries[slot];
        let same = e.used && key == hash;
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
        bucket[slot].write(
            hash,
            Entry {
                lower: lower as i16,
                upper: upper as i16,
                depth,
                best,
                date,
                used: true,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_and_unpack() {
        for e in [
            Entry::default(),
            Entry {
                lower: i16::MIN,
                upper: i16::MAX,
                depth: 255,
                best: NO_MOVE,
                date: 255,
                used: true,
            },
            Entry {
                lower: -6400,
                upper: 12,
                depth: 7,
                best: 63,
                date: 3,
                used: false,
            },
        ] {
            assert_eq!(Entry::unpack(e.pack()), e);
        }
    }

    /// The positions of a few random games, each once.
    fn positions() -> Vec<Board> {
        let mut rng = crate::base::rng::Rng::new(5);
        let mut boards = Vec::new();
        for _ in 0..20 {
            let mut b = Board::START;
            while !b.is_game_over() {
                b = match b.moves() {
                    0 => b.pass(),
                    moves => {
                        let squares: Vec<u32> = crate::engine::board::Squares(moves).collect();
                        b.play(squares[rng.below(squares.len())]).unwrap()
                    }
                };
                boards.push(b);
            }
        }
        let mut seen = std::collections::HashSet::new();
        boards.retain(|b| seen.insert((b.player, b.opponent)));
        boards
    }

    #[test]
    fn near_end_results_stay_in_the_first_mib() {
        let tt = TranspositionTable::new(64);
        let boards = positions();
        for (i, b) in boards.iter().enumerate() {
            tt.near_end().store(b, 100, -6400, 6400, i as i32, NO_MOVE);
        }
        for (i, b) in boards.iter().enumerate() {
            assert_eq!(tt.near_end().probe(b).map(|p| p.lower), Some(i as i32));
        }
        let first = NEAR_END_BUCKETS;
        let used = |bucket: &Bucket| bucket.0.iter().any(|s| s.read().1.used);
        assert!(!tt.buckets[first..].iter().any(used));
        assert!(tt.buckets[..first].iter().filter(|b| used(b)).count() > boards.len() / 2);
        // In a table smaller than that, it is the whole table.
        let small = TranspositionTable::new(1);
        assert_eq!(small.near_end_mask, small.mask);
    }

    #[test]
    fn a_torn_slot_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let b = Board::START;
        tt.store(&b, 5, -100, 100, 20, 19);
        assert_eq!(tt.probe(&b).map(|p| p.lower), Some(20));
        // Another thread's data lands without its check word: the key no longer matches.
        let slot = tt
            .whole()
            .bucket(b.hash())
            .0
            .iter()
            .find(|s| s.read().1.used)
            .unwrap();
        slot.data.store(
            Entry {
                depth: 9,
                used: true,
                ..Entry::default()
            }
            .pack(),
            Ordering::Relaxed,
        );
        assert!(tt.probe(&b).is_none());
    }
}
