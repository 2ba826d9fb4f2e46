//! Oxello: a bitboard Othello engine.
//!
//! Modules depend one way: `board` <- `eval` <- `search` <- `engine` <- `gtp`.

pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gtp;
pub mod match_runner;
pub mod notation;
pub mod perft;
pub mod report;
pub mod rng;
pub mod search;
pub mod symmetry;
pub mod timeman;
pub mod training;
pub mod tt;
