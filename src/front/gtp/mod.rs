//! The GTP front end: the dispatcher answers the lines in order, on the game-control layer.

pub mod dispatch;
pub mod parse;

use crate::base::io::Input;
use crate::play::session::Settings;
use crossbeam_channel::Receiver;
use std::io::Write;

/// Runs a GTP session on `out` until `quit` or EOF, `first` being the first line read.
pub fn run(first: Input, input: Receiver<Input>, out: impl Write, options: &Settings) {
    let mut session = dispatch::Session::new(input, out, options);
    session.push_front(first);
    session.run();
}
