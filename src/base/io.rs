//! The engine's input and output, a leaf that every front end uses and that uses nothing of
//! the crate: a thread reads stdin line by line (bounded in length), another watches stdout
//! so that a closed output ends a session at once, the [`Inbox`] hands the lines out in
//! order (keeping those read while a search runs), [`Output`] writes and flushes the
//! protocol's replies, and [`init_logging`] sends the log to stderr and to a log file, with
//! the protocol traffic in both directions.

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// The longest line kept; the rest of a longer line is read and dropped (memory stays bounded).
pub const MAX_LINE: usize = 64 * 1024;

/// Whether `c` must not reach a GUI as it is: the control characters (C0, DEL, C1), the line
/// and paragraph separators and the bidirectional controls, each of which can cut a reply in
/// two or reorder it on the other side.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{061C}' | '\u{200E}' | '\u{200F}'
                | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// Input text as a reply may quote it: at most `max` characters (then `...`), each unsafe one
/// (see [`is_unsafe`]) written as an escape such as `\r` or `\u{1b}`. Every echo of input in
/// the front ends and the parsers' errors goes through here.
pub fn quote(text: &str, max: usize) -> String {
    let mut out = String::new();
    for c in text.chars().take(max) {
        match c {
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    if text.chars().nth(max).is_some() {
        out.push_str("...");
    }
    out
}

/// The log target of the protocol traffic (`<-` a line read, `->` a line written).
pub const TRAFFIC: &str = "oxello::traffic";

/// What the reader threads hand the dispatcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line (lossily decoded); `true` when it was longer than [`MAX_LINE`] and was cut.
    Line(String, bool),
    /// The end of input: what was read before it is still answered.
    Eof,
    /// Nobody reads the output any more: the session ends at once.
    Closed,
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
    let text = String::from_utf8_lossy(line).into_owned();
    log::debug!(target: TRAFFIC, "<- {text}");
    Input::Line(text, overlong)
}

fn keep(line: &mut Vec<u8>, bytes: &[u8], overlong: &mut bool) {
    let room = MAX_LINE.saturating_sub(line.len());
    if bytes.len() > room {
        *overlong = true;
    }
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// Ends the session once nobody reads stdout any more: the read end of a pipe closing shows
/// as an error event to `poll`, so a search whose output would be lost stops at once instead
/// of running until its next write fails.
#[cfg(unix)]
pub fn watch_output(lines: Sender<Input>) {
    use rustix::event::{poll, PollFd, PollFlags};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    loop {
        match poll(&mut fds, None) {
            Ok(_) if !fds[0].revents().is_empty() => {
                let _ = lines.send(Input::Closed);
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
        Input::Eof | Input::Closed => false,
    }
}

/// The lines of input, read ahead while a search runs and handed out in order.
pub struct Inbox {
    input: Receiver<Input>,
    pending: VecDeque<Input>,
    /// The end of input has been read: nothing more comes.
    ended: bool,
    /// The output is gone: nothing more is handed out.
    closed: bool,
}

impl Inbox {
    pub fn new(input: Receiver<Input>) -> Inbox {
        Inbox {
            input,
            pending: VecDeque::new(),
            ended: false,
            closed: false,
        }
    }

    /// The next line in order; then [`Input::Eof`]; [`Input::Closed`] at once (and from then
    /// on) when the output is gone.
    pub fn next_line(&mut self) -> Input {
        if self.closed {
            return Input::Closed;
        }
        match self.pending.pop_front() {
            Some(input) => input,
            None if self.ended => Input::Eof,
            None => {
                let input = self.input.recv().unwrap_or(Input::Eof);
                self.note(&input);
                input
            }
        }
    }

    /// Hands `input` out before anything else.
    pub fn push_front(&mut self, input: Input) {
        self.note(&input);
        self.pending.push_front(input);
    }

    /// Whether a line already read, not yet handed out, satisfies `test`.
    pub fn has_pending(&self, test: impl Fn(&Input) -> bool) -> bool {
        self.pending.iter().any(test)
    }

    /// Whether the end of input has been read (it may still be pending).
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Whether the output is gone.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The channel still to read while a search runs; `None` once nothing more can come.
    pub fn source(&self) -> Option<Receiver<Input>> {
        (!self.ended && !self.closed).then(|| self.input.clone())
    }

    /// Keeps `input`, read while a search ran, to be handed out in its turn.
    pub fn keep(&mut self, input: Input) {
        self.note(&input);
        if !self.closed {
            self.pending.push_back(input);
        }
    }

    /// The output is gone: what is pending is dropped, and the session ends.
    pub fn close(&mut self) {
        self.closed = true;
        self.pending.clear();
    }

    fn note(&mut self, input: &Input) {
        match input {
            Input::Eof => self.ended = true,
            Input::Closed => self.close(),
            Input::Line(..) => {}
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
        debug_assert!(
            !text
                .trim_end_matches('\n')
                .chars()
                .any(|c| c != '\n' && is_unsafe(c)),
            "an unsafe character in a reply: {text:?}"
        );
        for line in text.lines() {
            log::debug!(target: TRAFFIC, "-> {line}");
        }
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

/// The log: to stderr as `RUST_LOG` asks (warnings only by default), and to `file` when given:
/// there every line at info level or above, and the protocol traffic. Each line is written
/// as it comes, so a process that is killed loses none.
struct Logger {
    stderr: env_logger::Logger,
    /// Whether stderr gets its lines: a front end whose GUI shows stderr as errors mutes it.
    stderr_on: AtomicBool,
    file: Option<Mutex<File>>,
    start: Instant,
}

fn to_file(meta: &log::Metadata) -> bool {
    meta.level() <= log::Level::Info || meta.target() == TRAFFIC
}

impl log::Log for Logger {
    fn enabled(&self, meta: &log::Metadata) -> bool {
        (self.stderr_on.load(Ordering::Relaxed) && self.stderr.enabled(meta))
            || (self.file.is_some() && to_file(meta))
    }

    fn log(&self, record: &log::Record) {
        if self.stderr_on.load(Ordering::Relaxed) && self.stderr.enabled(record.metadata()) {
            self.stderr.log(record);
        }
        if let Some(file) = self.file.as_ref().filter(|_| to_file(record.metadata())) {
            let line = line_of(self.start, record);
            if let Ok(mut file) = file.lock() {
                let _ = file.write_all(line.as_bytes());
            }
        }
    }

    fn flush(&self) {}
}

/// A log line as both sinks write it: seconds since start, level, message.
fn line_of(start: Instant, record: &log::Record) -> String {
    format!(
        "{:.3} {} {}\n",
        start.elapsed().as_secs_f64(),
        record.level(),
        record.args()
    )
}

static LOGGER: OnceLock<Logger> = OnceLock::new();

/// Why the log could not be set up.
#[derive(Debug)]
pub enum LogError {
    File(std::path::PathBuf, std::io::Error),
    AlreadySet,
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::File(path, e) => write!(f, "log file {}: {e}", path.display()),
            LogError::AlreadySet => f.write_str("a logger is already set"),
        }
    }
}

impl std::error::Error for LogError {}

/// Installs the log: stderr filtered by `RUST_LOG` (default `warn`), and `log_file`, created
/// or emptied, when given.
pub fn init_logging(log_file: Option<&Path>) -> Result<(), LogError> {
    let file = log_file
        .map(|p| File::create(p).map_err(|e| LogError::File(p.to_path_buf(), e)))
        .transpose()?;
    let start = Instant::now();
    let stderr =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
            .target(env_logger::Target::Stderr)
            .format(move |buf, record| buf.write_all(line_of(start, record).as_bytes()))
            .build();
    let level = stderr.filter().max(if file.is_some() {
        log::LevelFilter::Debug
    } else {
        log::LevelFilter::Off
    });
    let logger = LOGGER.get_or_init(|| Logger {
        stderr,
        stderr_on: AtomicBool::new(true),
        file: file.map(Mutex::new),
        start,
    });
    log::set_logger(logger).map_err(|_| LogError::AlreadySet)?;
    log::set_max_level(level);
    Ok(())
}

/// Stops the log's stderr lines unless `RUST_LOG` asked for them (the log file goes on).
pub fn mute_stderr_unless_asked() {
    if std::env::var_os("RUST_LOG").is_none() {
        if let Some(logger) = LOGGER.get() {
            logger.stderr_on.store(false, Ordering::Relaxed);
        }
    }
}
