//! Oxello: a bitboard Othello engine, its front ends and its tools, in four layers over a
//! floor of leaves. A layer uses the ones below it and never one above (`tests/layers.rs`
//! checks every import); ARCHITECTURE.md draws them and follows one `genmove` through.
//!
//! - [`base`]: the leaves (line input and output, the data files' frame, a seeded
//!   generator), which every layer may use and which use nothing of the crate.
//! - [`engine`]: the rules, the evaluation, the transposition table and the search.
//! - [`play`]: the game under every front end: the search thread, clocks, levels, the book.
//! - [`front`]: the GTP and NBoard protocols, which translate lines into calls on [`play`].
//! - [`tools`]: the batch jobs behind the subcommands (bench, match runner, training, book
//!   building, ProbCut fitting), built on the layers below and used by none of them.
//!
//! The binary, `src/main.rs`, only chooses between serving a front end and running a tool.

pub mod base;
pub mod engine;
pub mod front;
pub mod play;
pub mod tools;
