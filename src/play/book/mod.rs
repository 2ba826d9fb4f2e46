//! The opening book: positions searched ahead of time, one entry per symmetry class, each
//! with the searched score of every move and its value negamaxed over the book.
//!
//! - [`store`]: keys, entries, lookups in any orientation ([`Book::moves`], [`Book::choose`]),
//!   the negamax, merging and the consistency check.
//! - [`file`]: the file format (header, checksum, sorted records) and atomic saves.
//! - [`edax`]: Edax's `book.dat` format, read into a book and written from one.
//! - [`jobs`]: the deterministic searches behind the entries, run in parallel with progress
//!   reports and checkpoints.
//! - [`policy`]: the book in a session: on or off, the randomness, which book move to play.
//! - [`learn`]: games into the book (files of transcripts, WTHOR lines, GGF; NBoard's `learn`).
//!
//! The builder that grows a book is a tool (`tools::book::build`). The shipped book,
//! `book.bin` beside this file, is embedded in the binary ([`Book::embedded`]); docs/book.md
//! gives the command that makes it.

pub mod edax;
pub mod file;
pub mod jobs;
pub mod learn;
pub mod policy;
pub mod store;

pub use file::BookError;
pub use jobs::{Checkpoint, JobOptions, Jobs, Progress};
pub use learn::{add_games, parse_games};
pub use store::{Book, BookMove, Depth, Entry, Key};

/// The shipped book.
static EMBEDDED: &[u8] = include_bytes!("book.bin");

impl Book {
    /// The shipped book, checked as any file is (a test checks it, so this does not fail in a
    /// released build).
    pub fn embedded() -> Result<Book, BookError> {
        Book::from_bytes(EMBEDDED)
    }
}
