//! The game under every front end: what GTP and NBoard share, so that they only translate.
//!
//! - [`session`]: the game-control layer, [`session::Play`]: the game, the settings, the
//!   search jobs and their answers.
//! - [`thread`]: the search thread, which owns the transposition table.
//! - [`clock`]: time management, from a clock to a move's deadlines.
//! - [`report`]: how results read (moves, scores, the `info` lines and the log's).
//! - [`values`]: the option values (table size, threads, seconds, counts, rates), each one
//!   validated type shared by the command line and the protocols.
//! - [`book`]: the opening book: its store, file, searches, learning, and the policy that
//!   picks a book move in play.

pub mod book;
pub mod clock;
pub mod format;
pub mod review;
pub mod session;
pub mod thread;
pub mod values;
