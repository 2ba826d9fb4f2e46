//! Move lists: the legal moves of a node with their flips and sort keys, and the cheap key
//! that sorts moves without an evaluation.

use crate::engine::board::{flips, legal_moves, neighbours, Board, Squares, CORNERS};
use crate::engine::stability::corner_stable;

/// The legal moves of a node with sort keys, handed out best first (a selection sort, which
/// costs little when an early move cuts off). Searches borrow it, so that it is not copied
/// from frame to frame; a split point takes a copy of the moves left.
#[derive(Clone)]
pub(crate) struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// The most legal moves an Othello position has is 33.
const MAX_MOVES: usize = 34;

/// A move of a [`MoveList`]: 16 bytes, so that a list stays small to build.
#[derive(Copy, Clone, Default)]
struct Move {
    flips: u64,
    key: i32,
    sq: u8,
}

impl MoveList {
    /// The moves of `b` in `moves` with their flips, all keyed alike until `key` is called.
    #[inline]
    pub(crate) fn unkeyed(b: &Board, moves: u64) -> MoveList {
        let mut list = MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        };
        for sq in Squares(moves) {
            list.moves[list.len] = Move {
                flips: flips(b.player, b.opponent, sq),
                key: 0,
                sq: sq as u8,
            };
            list.len += 1;
        }
        list
    }

    /// How many moves are left in the list.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Keys every move by `key(square, board after the move)`.
    #[inline]
    pub(crate) fn key(&mut self, b: &Board, mut key: impl FnMut(u32, &Board) -> i32) {
        for m in &mut self.moves[..self.len] {
            m.key = key(u32::from(m.sq), &b.apply(u32::from(m.sq), m.flips));
        }
    }

    /// The boards after each move, in list order.
    #[inline]
    pub(crate) fn children<'a>(&'a self, b: &'a Board) -> impl Iterator<Item = Board> + 'a {
        self.moves[..self.len]
            .iter()
            .map(move |m| b.apply(u32::from(m.sq), m.flips))
    }

    /// Takes the move on `sq` out of the list, if it is there.
    #[inline]
    pub(crate) fn take(&mut self, sq: u8) -> Option<(u32, u64)> {
        let i = self.moves[..self.len].iter().position(|m| m.sq == sq)?;
        Some(self.remove(i))
    }

    #[inline]
    pub(crate) fn next_best(&mut self) -> Option<(u32, u64)> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].key > self.moves[best].key {
                best = i;
            }
        }
        Some(self.remove(best))
    }

    /// Takes out the move at `i`, the last one filling its place.
    #[inline]
    fn remove(&mut self, i: usize) -> (u32, u64) {
        let m = self.moves[i];
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
        (u32::from(m.sq), m.flips)
    }
}

/// The replies the opponent has after a move, corners counted twice: fewer is better.
#[inline]
pub(crate) fn weighted_replies(child: &Board) -> i32 {
    let replies = legal_moves(child.player, child.opponent);
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

/// A sort key for the move to `child` (higher first) that needs no evaluation: the fewest
/// opponent replies (corners counted twice), then the mover's discs held by corners and the
/// opponent's potential mobility. Fast to compute and fast to refute with: the endgame
/// orders by it, and so do the midgame's nodes 2 plies from the leaves.
#[inline]
pub(crate) fn fastest_first(child: &Board) -> i32 {
    let potential = (neighbours(child.opponent) & child.empties()).count_ones() as i32;
    let held = corner_stable(child.opponent).count_ones() as i32;
    -16 * weighted_replies(child) + 4 * held - potential
}
