//! The engine: the rules on bitboards, the evaluation and the search. It knows nothing of
//! protocols, clocks or books. From the bottom up:
//!
//! - [`board`] (with [`notation`], [`symmetry`], [`game`], [`ggf`], [`perft`]): positions,
//!   moves, flips, passes, the games' notations and the move-generation counts.
//! - [`openings`]: the named openings and their match under the symmetries.
//! - [`eval`], [`stability`]: the pattern evaluation and the stable discs.
//! - [`tt`]: the shared transposition table.
//! - [`search`]: iterative-deepening PVS, Multi-ProbCut, the parallel split and the exact
//!   endgame solver.

pub mod board;
pub mod eval;
pub mod game;
pub mod gamefile;
pub mod ggf;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod search;
pub mod stability;
pub mod symmetry;
pub mod tt;
