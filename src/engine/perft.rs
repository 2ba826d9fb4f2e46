//! Perft: counting the leaves of the game tree, the move generator's correctness and speed test.

use crate::engine::board::{flips, Board, Squares};
use std::sync::atomic::{AtomicBool, Ordering};

/// Below this many plies left a subtree runs to its end without reading the stop flag (a
/// subtree of 3 plies takes microseconds).
const STOP_CHECK_DEPTH: u32 = 4;

/// How a pass is counted; see `tests/data/perft.txt`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PerftMode {
    /// A pass is a ply; a finished game counts as one leaf at every greater depth.
    PassIsPly,
    /// A pass costs no depth; a finished game counts as one leaf.
    PassIsFree,
}

/// Leaves of the tree of `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32, mode: PerftMode) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(board, depth, mode, &never).unwrap_or(0)
}

/// Leaves of the tree of `depth` plies below `board`, or `None` when `stop` was raised before
/// the count was complete.
pub fn perft_until(board: &Board, depth: u32, mode: PerftMode, stop: &AtomicBool) -> Option<u64> {
    let (p, o) = (board.player, board.opponent);
    let leaves = match mode {
        PerftMode::PassIsPly => perft_pass_is_ply(p, o, depth, false, stop),
        PerftMode::PassIsFree => perft_pass_is_free(p, o, depth, stop),
    };
    (!stop.load(Ordering::Relaxed)).then_some(leaves)
}

/// Whether a subtree of `depth` plies should give up now.
fn stopped(depth: u32, stop: &AtomicBool) -> bool {
    depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed)
}

fn perft_pass_is_ply(p: u64, o: u64, depth: u32, passed: bool, stop: &AtomicBool) -> u64 {
    if depth == 0 || stopped(depth, stop) {
        return u64::from(depth == 0);
    }
    let moves = crate::engine::board::legal_moves(p, o);
    if moves == 0 {
        // After a pass with no reply the game is over: one leaf, whatever the depth left.
        return if passed {
            1
        } else {
            perft_pass_is_ply(o, p, depth - 1, true, stop)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    Squares(moves)
        .map(|sq| {
            let f = flips(p, o, sq);
            perft_pass_is_ply(o ^ f, p ^ f ^ (1 << sq), depth - 1, false, stop)
        })
        .sum()
}

fn perft_pass_is_free(p: u64, o: u64, depth: u32, stop: &AtomicBool) -> u64 {
    if depth == 0 || stopped(depth, stop) {
        return u64::from(depth == 0);
    }
    let mut moves = crate::engine::board::legal_moves(p, o);
    let (p, o) = if moves == 0 {
        let replies = crate::engine::board::legal_moves(o, p);
        if replies == 0 {
            return 1;
        }
        moves = replies;
        (o, p)
    } else {
        (p, o)
    };
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    Squares(moves)
        .map(|sq| {
            let f = flips(p, o, sq);
            perft_pass_is_free(o ^ f, p ^ f ^ (1 << sq), depth - 1, stop)
        })
        .sum()
}

/// Perft split over `threads` threads by the moves at the root (the counts are the same).
pub fn perft_parallel(board: &Board, depth: u32, mode: PerftMode, threads: usize) -> u64 {
    if depth < 2 || threads <= 1 {
        return perft(board, depth, mode);
    }
    let moves = board.moves();
    if moves == 0 {
        return perft(board, depth, mode);
    }
    let children: Vec<Board> = Squares(moves)
        .map(|sq| board.apply(sq, flips(board.player, board.opponent, sq)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(child) = children.get(i) else {
                            break sum;
                        };
                        sum += perft(child, depth - 1, mode);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("perft worker panicked"))
            .sum()
    })
}
