//! Oxello: a bitboard Othello engine.
//!
//! Modules depend one way: `board` <- `eval` <- `search` <- `engine` <- `play` <- `gtp`,
//! `nboard` (the front ends, chosen by `frontend` from the first line of input).

pub mod batch;
pub mod bench;
pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod frontend;
pub mod game;
pub mod gtp;
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
