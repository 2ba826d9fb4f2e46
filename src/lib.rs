//! Oxello: a bitboard Othello engine. This library is the engine alone; the offline tools
//! (bench, match runner, training, the batch jobs) are modules of the `oxello` binary
//! (`src/tools/`), built on this library and never used by it.
//!
//! The engine's layers depend one way: `board` (with `notation`, `symmetry`, `game`, `ggf`,
//! `perft`) <- `eval`, `stability` <- `search` (with `tt`) <- `engine` <- `play` (with `timeman`,
//! `report`, `book`, `opening`) <- `gtp`, `nboard` (the front ends, which the binary chooses
//! from the first line of input); `io`, the line reader and writer, is a leaf that everything may use;
//! so is `datafile`, what the data files (weights, book, training records) share.

pub mod board;
pub mod book;
pub mod datafile;
pub mod engine;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod gtp;
pub mod io;
pub mod nboard;
pub mod notation;
pub mod opening;
pub mod perft;
pub mod play;
pub mod report;
pub mod rng;
pub mod search;
pub mod stability;
pub mod symmetry;
pub mod timeman;
pub mod tt;
