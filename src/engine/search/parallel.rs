//! Young Brothers Wait: the shared part of splitting a node's moves among threads.
//!
//! A thread that has searched the first (eldest) move of a node, and sees an idle thread,
//! turns the node into a [`SplitPoint`]: the moves left, the window and the best score so far,
//! behind a lock. Every thread that joins takes moves from it one at a time; a cutoff marks it
//! aborted, which ends the searches of every thread below it. The thread that split the node
//! waits for its helpers to finish, helping meanwhile at split points below its own, so that
//! no thread ever waits idle on work it could do.
//!
//! This module holds the data and the bookkeeping, generic over the kind of node a split point
//! holds (which tells a joining thread how to search its children); the move loop that
//! threads run at a split point is the search's own (see `node.rs`).

use super::movelist::MoveList;
use crate::engine::board::Board;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A node whose remaining moves several threads search together; `K` is the node's kind.
pub(crate) struct SplitPoint<K: ?Sized> {
    pub(crate) board: Board,
    /// The endgame selectivity of the search (see `Searcher::level`).
    pub(crate) level: u8,
    /// An odd number of passes lies between the root and this node (see `Searcher`).
    pub(crate) passed: bool,
    pub(crate) beta: i32,
    cutoff: Arc<Cutoff>,
    state: Mutex<SplitState>,
    /// How the node's children are searched.
    pub(crate) node: K,
}

/// Whether a split point was cut off, linked to the split point it lies below, whose abort is
/// its own too.
struct Cutoff {
    aborted: AtomicBool,
    parent: Option<Arc<Cutoff>>,
}

impl Cutoff {
    /// The links from this split point up to the outermost one.
    fn chain(&self) -> impl Iterator<Item = &Cutoff> {
        std::iter::successors(Some(self), |c| c.parent.as_deref())
    }
}

/// The moving part of a split point.
pub(crate) struct SplitState {
    pub(crate) list: MoveList,
    pub(crate) alpha: i32,
    pub(crate) best: i32,
    pub(crate) best_sq: u8,
    /// Threads searching a move of this node right now, the one that split it included.
    working: usize,
}

impl<K> SplitPoint<K> {
    /// A split point of `board` below `parent`, with its moves left and the result so far; the
    /// thread that creates it counts as working there.
    pub(crate) fn new<P: ?Sized>(
        (board, (level, passed), node): (Board, (u8, bool), K),
        (alpha, beta): (i32, i32),
        (best, best_sq): (i32, u8),
        list: MoveList,
        parent: Option<&SplitPoint<P>>,
    ) -> SplitPoint<K> {
        let cutoff = Cutoff {
            aborted: AtomicBool::new(false),
            parent: parent.map(|p| Arc::clone(&p.cutoff)),
        };
        SplitPoint {
            board,
            level,
            passed,
            beta,
            cutoff: Arc::new(cutoff),
            state: Mutex::new(SplitState {
                list,
                alpha,
                best,
                best_sq,
                working: 1,
            }),
            node,
        }
    }
}

impl<K: ?Sized> SplitPoint<K> {
    /// The state, whoever panicked while holding it (a search does not panic, and the state
    /// stays consistent at every step anyway).
    pub(crate) fn state(&self) -> MutexGuard<'_, SplitState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A move was found at or above beta: every search below this node is wasted.
    pub(crate) fn abort(&self) {
        self.cutoff.aborted.store(true, Ordering::Relaxed);
    }

    /// Whether this split point or one above it was cut off.
    pub(crate) fn aborted(&self) -> bool {
        self.cutoff
            .chain()
            .any(|c| c.aborted.load(Ordering::Relaxed))
    }

    /// Whether `ancestor` is this split point or lies above it.
    fn descends_from(&self, ancestor: &SplitPoint<K>) -> bool {
        self.cutoff
            .chain()
            .any(|c| std::ptr::eq(c, &*ancestor.cutoff))
    }

    /// Joins the search of this node's moves if any are left; the caller must then
    /// [`leave`](Self::leave) it.
    fn join(&self) -> bool {
        let mut state = self.state();
        let open = state.list.len() > 0 && !self.aborted();
        if open {
            state.working += 1;
        }
        open
    }

    /// A thread is done with this node's moves.
    pub(crate) fn leave(&self) {
        self.state().working -= 1;
    }

    /// Whether every thread has left this node.
    pub(crate) fn finished(&self) -> bool {
        self.state().working == 0
    }
}

/// The split points open to helpers, and how many threads are looking for work.
pub(crate) struct Pool<K: ?Sized> {
    open: Mutex<Vec<Arc<SplitPoint<K>>>>,
    offered: AtomicUsize,
    idle: AtomicUsize,
}

impl<K: ?Sized> Default for Pool<K> {
    fn default() -> Self {
        Pool {
            open: Mutex::new(Vec::new()),
            offered: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
        }
    }
}

impl<K: ?Sized> Pool<K> {
    /// Whether some thread is waiting for work: only then is splitting worth its cost.
    #[inline]
    pub(crate) fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    fn open(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint<K>>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets other threads join `sp`.
    pub(crate) fn offer(&self, sp: &Arc<SplitPoint<K>>) {
        let mut open = self.open();
        open.push(Arc::clone(sp));
        self.offered.store(open.len(), Ordering::Relaxed);
    }

    /// Closes `sp` to threads that have not joined yet.
    pub(crate) fn withdraw(&self, sp: &Arc<SplitPoint<K>>) {
        let mut open = self.open();
        open.retain(|s| !Arc::ptr_eq(s, sp));
        self.offered.store(open.len(), Ordering::Relaxed);
    }

    /// A split point to work at, joined, if one is open below `within` (anywhere if `None`).
    pub(crate) fn find_work(&self, within: Option<&SplitPoint<K>>) -> Option<Arc<SplitPoint<K>>> {
        if self.offered.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let open = self.open();
        open.iter()
            .filter(|sp| within.is_none_or(|w| sp.descends_from(w)))
            .find(|sp| sp.join())
            .cloned()
    }

    /// Waits, counted among the idle threads, for a split point open below `within` (anywhere
    /// if `None`), and returns it joined; or `None` once `done()` holds.
    pub(crate) fn wait_for_work(
        &self,
        within: Option<&SplitPoint<K>>,
        done: impl Fn() -> bool,
    ) -> Option<Arc<SplitPoint<K>>> {
        self.idle.fetch_add(1, Ordering::Relaxed);
        let mut spins = 0u32;
        let found = loop {
            if let Some(sp) = self.find_work(within) {
                break Some(sp);
            }
            if done() {
                break None;
            }
            // Spin a little for the low latency of a split, then let other work run.
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        };
        self.idle.fetch_sub(1, Ordering::Relaxed);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(parent: Option<&SplitPoint<()>>) -> Arc<SplitPoint<()>> {
        let b = Board::START;
        let list = MoveList::unkeyed(&b, b.moves());
        Arc::new(SplitPoint::new(
            (b, (0, false), ()),
            (-1, 1),
            (-65, 0),
            list,
            parent,
        ))
    }

    #[test]
    fn an_abort_reaches_the_split_points_below() {
        let top = split(None);
        let middle = split(Some(&top));
        let bottom = split(Some(&middle));
        assert!(!bottom.aborted());
        middle.abort();
        assert!(bottom.aborted() && middle.aborted() && !top.aborted());
    }

    #[test]
    fn helpers_find_only_open_work_below_their_own_split_point() {
        let pool: Pool<()> = Pool::default();
        let mine = split(None);
        let other = split(None);
        let below = split(Some(&mine));
        pool.offer(&other);
        assert!(pool.find_work(Some(&mine)).is_none());
        pool.offer(&below);
        let found = pool.find_work(Some(&mine)).expect("work below mine");
        assert!(Arc::ptr_eq(&found, &below));
        // The thread that split it and the one that joined.
        below.leave();
        assert!(!below.finished());
        below.leave();
        assert!(below.finished());
        pool.withdraw(&other);
        pool.withdraw(&below);
        assert!(pool.find_work(None).is_none());
    }
}
