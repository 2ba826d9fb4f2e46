//! What the front ends share: the input (a thread reads stdin line by line, bounded in length,
//! and another watches stdout, so that a closed output ends a session as end of input does),
//! the output, and the choice of protocol from the first line.

use crate::play::Options;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::io::{BufRead, Write};

/// The longest line kept; the rest of a longer line is read and dropped (memory stays bounded).
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader thread hands the dispatcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line (lossily decoded); `true` when it was longer than [`MAX_LINE`] and was cut.
    Line(String, bool),
    Eof,
}

/// Reads lines from `reader` until EOF, sending each one.
pub fn read_lines(mut reader: impl BufRead, lines: Sender<Input>) {
    let mut line = Vec::new();
    let mut overlong = false;
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    keep(&mut line, &buf[..i], &mut overlong);
                    (true, i + 1)
                }
                None => {
                    keep(&mut line, buf, &mut overlong);
                    (false, buf.len())
                }
            },
        };
        reader.consume(used);
        if done {
            let text = String::from_utf8_lossy(&line).into_owned();
            if lines.send(Input::Line(text, overlong)).is_err() {
                return;
            }
            line.clear();
            overlong = false;
        }
    }
    if !line.is_empty() {
        let _ = lines.send(Input::Line(
            String::from_utf8_lossy(&line).into_owned(),
            overlong,
        ));
    }
    let _ = lines.send(Input::Eof);
}

fn keep(line: &mut Vec<u8>, bytes: &[u8], overlong: &mut bool) {
    let room = MAX_LINE.saturating_sub(line.len());
    if bytes.len() > room {
        *overlong = true;
    }
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// Ends the session as end of input does once nobody reads stdout any more: the read end of
/// a pipe closing shows as an error event to `poll`, so a search whose output would be lost
/// stops at once instead of running until its next write fails.
#[cfg(unix)]
pub fn watch_output(lines: Sender<Input>) {
    use rustix::event::{poll, PollFd, PollFlags};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    loop {
        match poll(&mut fds, None) {
            Ok(_) if !fds[0].revents().is_empty() => {
                let _ = lines.send(Input::Eof);
                return;
            }
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(_) => return,
        }
    }
}

/// Starts the stdin reader (and the stdout watcher) and returns the lines they send.
pub fn spawn_readers() -> Receiver<Input> {
    let (tx, rx) = unbounded();
    #[cfg(unix)]
    {
        let closed = tx.clone();
        std::thread::Builder::new()
            .name("stdout watch".into())
            .spawn(move || watch_output(closed))
            .expect("cannot start the output watcher");
    }
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), tx))
        .expect("cannot start the input thread");
    rx
}

/// The protocol's output: every write is flushed; the first failure is remembered, and later
/// writes are dropped.
pub struct Output<W: Write> {
    out: W,
    failed: bool,
}

impl<W: Write> Output<W> {
    pub fn new(out: W) -> Output<W> {
        Output { out, failed: false }
    }

    /// Writes and flushes `text`; false once the output is gone.
    pub fn write(&mut self, text: &str) -> bool {
        if !self.failed {
            let written = self
                .out
                .write_all(text.as_bytes())
                .and_then(|_| self.out.flush());
            self.failed = written.is_err();
        }
        !self.failed
    }

    pub fn failed(&self) -> bool {
        self.failed
    }
}

/// Whether a first line starts an NBoard session (`nboard <version>`).
pub fn is_nboard_hello(input: &Input) -> bool {
    match input {
        Input::Line(line, _) => line.split_whitespace().next() == Some("nboard"),
        Input::Eof => false,
    }
}

/// Runs the engine on stdin/stdout: NBoard if the first line is `nboard <version>` (or if
/// `nboard` is asked for), GTP otherwise.
pub fn run(options: Options, nboard: bool) {
    let input = spawn_readers();
    let first = input.recv().unwrap_or(Input::Eof);
    let stdout = std::io::stdout();
    if nboard || is_nboard_hello(&first) {
        crate::nboard::run(first, input, stdout.lock(), &options);
    } else {
        crate::gtp::run(first, input, stdout.lock(), &options);
    }
    let _ = std::io::stdout().flush();
}
