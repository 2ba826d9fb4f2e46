//! The GTP front end: a thread reads stdin line by line, the dispatcher answers in order.

pub mod dispatch;
pub mod parse;

use crossbeam_channel::{unbounded, Sender};
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
fn watch_output(lines: Sender<Input>) {
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

/// Start-up settings of the GTP engine.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mib: usize,
    /// Fixed search depth per move, as `oxello-depth`.
    pub depth: Option<u32>,
    /// Fixed time per move in seconds, as `oxello-move_time`.
    pub move_time: Option<f64>,
    /// Threads of every search, as `oxello-threads`.
    pub threads: usize,
}

/// Runs the GTP engine on stdin/stdout until `quit` or EOF.
pub fn run(options: Options) {
    let (tx, rx) = unbounded();
    #[cfg(unix)]
    let tx_output_closed = tx.clone();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), tx))
        .expect("cannot start the input thread");
    #[cfg(unix)]
    {
        let closed = tx_output_closed;
        std::thread::Builder::new()
            .name("stdout watch".into())
            .spawn(move || watch_output(closed))
            .expect("cannot start the output watcher");
    }
    let stdout = std::io::stdout();
    let mut session = dispatch::Session::new(rx, stdout.lock(), &options);
    session.run();
    let _ = std::io::stdout().flush();
}
