//! The engine's input and output, a leaf that every front end uses and that uses nothing of
//! the crate: a thread reads stdin line by line (bounded in length), another watches stdout
//! so that a closed output ends a session as end of input does, the [`Inbox`] hands the
//! lines out in order (keeping those read while a search runs), and [`Output`] writes and
//! flushes the protocol's replies.

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::VecDeque;
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
            if lines.send(decoded(&line, overlong)).is_err() {
                return;
            }
            line.clear();
            overlong = false;
        }
    }
    if !line.is_empty() {
        let _ = lines.send(decoded(&line, overlong));
    }
    let _ = lines.send(Input::Eof);
}

fn decoded(line: &[u8], overlong: bool) -> Input {
    Input::Line(String::from_utf8_lossy(line).into_owned(), overlong)
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

/// Whether a first line starts an NBoard session (`nboard <version>`).
pub fn is_nboard_hello(input: &Input) -> bool {
    match input {
        Input::Line(line, _) => line.split_whitespace().next() == Some("nboard"),
        Input::Eof => false,
    }
}

/// The lines of input, read ahead while a search runs and handed out in order.
pub struct Inbox {
    input: Receiver<Input>,
    pending: VecDeque<Input>,
    closed: bool,
}

impl Inbox {
    pub fn new(input: Receiver<Input>) -> Inbox {
        Inbox {
            input,
            pending: VecDeque::new(),
            closed: false,
        }
    }

    /// The next line, or EOF.
    pub fn next_line(&mut self) -> Input {
        match self.pending.pop_front() {
            Some(input) => input,
            None if self.closed => Input::Eof,
            None => self.input.recv().unwrap_or(Input::Eof),
        }
    }

    /// Hands `input` out before anything else.
    pub fn push_front(&mut self, input: Input) {
        self.pending.push_front(input);
    }

    /// Whether a line already read, not yet handed out, satisfies `test`.
    pub fn has_pending(&self, test: impl Fn(&Input) -> bool) -> bool {
        self.pending.iter().any(test)
    }

    /// The channel still to read while a search runs; `None` once the input has ended.
    pub fn source(&self) -> Option<Receiver<Input>> {
        (!self.closed).then(|| self.input.clone())
    }

    /// Keeps `input`, read while a search ran, to be handed out in its turn.
    pub fn keep(&mut self, input: Input) {
        if input == Input::Eof {
            self.closed = true;
        }
        self.pending.push_back(input);
    }

    /// Nothing more is read: what is pending is handed out, then EOF.
    pub fn close(&mut self) {
        if !self.closed {
            self.keep(Input::Eof);
        }
    }
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
}
