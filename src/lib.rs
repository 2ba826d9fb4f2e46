//! Oxello: a bitboard Othello engine.
//!
//! Modules depend one way: `board` <- `eval` <- `search` <- `engine` <- `play` <- `gtp`,
//! `nboard` (the front ends, which the binary chooses from the first line of input); `io`,
//! the line reader and writer, is a leaf that everything may use.

pub mod batch;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gtp;
pub mod io;
pub mod match_runner;
pub mod nboard;
pub mod notation;
pub mod perft;
pub mod play;
pub mod report;
pub mod rng;
pub mod search;
pub mod stability;
pub mod symmetry;
pub mod timeman;
pub mod training;
pub mod tt;
