//! Oxello: a bitboard Othello engine.
//!
//! Modules depend one way: `board` <- `eval` <- `search` <- `engine` <- `gtp`.

pub mod board;
pub mod game;
pub mod notation;
pub mod perft;
pub mod symmetry;
