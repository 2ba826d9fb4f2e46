//! The integration tests, one binary: each module is one subject, driven through the built
//! `oxello` binary or the library as a user would. One binary links the library once, where a
//! binary per file cost a link each (about 9 s of the release profile's LTO apiece). Run one
//! subject with a filter: `cargo test --release -- levels::`.

mod common;

mod bench;
mod book;
mod book_play;
mod cli;
mod cluster;
mod contempt;
mod data;
mod docs;
mod edax_book;
mod endgame_last;
mod eval;
mod fuzz;
mod gamefile;
mod gtp;
mod gtp_fuzz;
mod gtp_games;
mod hardening;
mod layers;
mod levels;
mod r#match;
mod movegen_props;
mod nboard;
mod openings;
mod parse_errors;
mod perft;
mod pipe;
mod ponder;
mod progress;
mod review;
mod rules;
mod search;
mod selfplay;
mod train;
