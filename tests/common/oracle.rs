//! The tests' own rules, independent of the engine's: positions as two bitboards played by
//! [`reference_flips`](super::reference_flips), and a plain minimax to the end for exact
//! values.

use super::{reference_flips, reference_moves};

/// A position tracked with the tests' own rules: black, white, and who is to move.
#[derive(Clone, Copy, Debug)]
pub struct Pos {
    pub black: u64,
    pub white: u64,
    pub black_to_move: bool,
}

impl Pos {
    pub fn start() -> Pos {
        Pos {
            black: 1 << 28 | 1 << 35,
            white: 1 << 27 | 1 << 36,
            black_to_move: true,
        }
    }

    /// The position with `player` to move against `opponent` (as the engine's boards hold it).
    pub fn to_move(player: u64, opponent: u64) -> Pos {
        Pos {
            black: player,
            white: opponent,
            black_to_move: true,
        }
    }

    /// The discs of the side to move, then of its opponent.
    pub fn mover(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    pub fn moves(&self) -> u64 {
        let (p, o) = self.mover();
        reference_moves(p, o)
    }

    pub fn over(&self) -> bool {
        let (p, o) = self.mover();
        reference_moves(p, o) == 0 && reference_moves(o, p) == 0
    }

    /// Plays a square, or passes with `None`; panics on an illegal move.
    pub fn play(&mut self, sq: Option<u32>) {
        let (p, o) = self.mover();
        let (p, o) = match sq {
            None => {
                assert_eq!(self.moves(), 0, "a pass with legal moves");
                (p, o)
            }
            Some(sq) => {
                let f = reference_flips(p, o, sq);
                assert_ne!(f, 0, "illegal move {sq}");
                (p | f | 1 << sq, o & !f)
            }
        };
        if self.black_to_move {
            (self.black, self.white) = (p, o);
        } else {
            (self.white, self.black) = (p, o);
        }
        self.black_to_move = !self.black_to_move;
    }

    /// Final score for the side to move, empties to the winner.
    pub fn final_score(&self) -> i32 {
        let (p, o) = self.mover();
        let d = p.count_ones() as i32 - o.count_ones() as i32;
        let e = 64 - (p | o).count_ones() as i32;
        d + d.signum() * e
    }

    /// The exact final score for the side to move, by plain minimax over every move.
    pub fn minimax(&self) -> i32 {
        if self.over() {
            return self.final_score();
        }
        let moves = self.moves();
        if moves == 0 {
            let mut passed = *self;
            passed.play(None);
            return -passed.minimax();
        }
        (0..64)
            .filter(|&sq| moves >> sq & 1 == 1)
            .map(|sq| {
                let mut next = *self;
                next.play(Some(sq));
                -next.minimax()
            })
            .max()
            .unwrap()
    }
}
