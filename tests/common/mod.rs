//! Drives the built `oxello` binary: run to its end ([`run`]), or over stdin/stdout as a GTP
//! controller ([`Gtp`]) or the NBoard GUI ([`nboard`]) would.
#![allow(dead_code)]

pub mod fuzz;
pub mod nboard;
pub mod oracle;

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::time::Duration;

/// One GTP response: success or failure, the id echoed, and the text after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub id: Option<String>,
    pub text: String,
}

pub struct Gtp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// The path of the built binary.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_oxello")
}

/// The engine's command with piped stdin and stdout, logging at `rust_log` (`RUST_LOG`
/// unset for `None`).
pub fn engine_command(args: &[&str], rust_log: Option<&str>) -> Command {
    let mut command = Command::new(bin());
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    match rust_log {
        Some(level) => command.env("RUST_LOG", level),
        None => command.env_remove("RUST_LOG"),
    };
    command
}

/// Runs the engine with `args` to its end (stdin empty, `RUST_LOG` as the caller's): its
/// status, stdout and stderr.
pub fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run oxello")
}

/// The engine as a bare child process with piped stdin and stdout, for tests that handle
/// the pipes themselves. It logs at info level to a dropped stderr: stdout must stay
/// protocol only.
pub fn spawn_engine(args: &[&str]) -> Child {
    engine_command(args, Some("info"))
        .stderr(Stdio::null())
        .spawn()
        .expect("start oxello")
}

/// The engine as a child process whose stdout lines arrive on a channel (read by a thread),
/// with its stdin to write to, stderr as given, and logging at `rust_log`.
pub fn spawn_with_lines(
    args: &[&str],
    stderr: Stdio,
    rust_log: Option<&str>,
) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = engine_command(args, rust_log)
        .stderr(stderr)
        .spawn()
        .expect("start oxello");
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = unbounded();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut bytes = Vec::new();
        while reader.read_until(b'\n', &mut bytes).is_ok_and(|n| n > 0) {
            if tx.send(output_line(&bytes)).is_err() {
                return;
            }
            bytes.clear();
        }
    });
    let stdin = child.stdin.take().unwrap();
    (child, stdin, lines)
}

/// The prefix of what the reader passes on for an output line that is not well formed.
pub const MALFORMED: &str = "MALFORMED OUTPUT LINE ";

/// One line of the engine's output without its `\n`, or [`MALFORMED`] and its bytes when it
/// is not UTF-8, holds a control character (a `\r` included) or does not end with `\n`: no
/// test can then take a broken reply for a good one.
fn output_line(bytes: &[u8]) -> String {
    let line = bytes.strip_suffix(b"\n");
    match line.map(std::str::from_utf8) {
        Some(Ok(text)) if !text.chars().any(fuzz::unsafe_char) => text.to_string(),
        _ => format!("{MALFORMED}{bytes:?}"),
    }
}

/// Generous bound for one response; a test failing on it means the engine hung.
pub const PATIENCE: Duration = Duration::from_secs(120);

impl Gtp {
    pub fn start() -> Gtp {
        Gtp::start_with(&[])
    }

    /// A GTP session logging at info level to a dropped stderr: stdout must stay protocol.
    pub fn start_with(args: &[&str]) -> Gtp {
        let (child, stdin, lines) = spawn_with_lines(args, Stdio::null(), Some("info"));
        Gtp {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// A GTP session logging at info level, its stderr's lines arriving on the channel
    /// returned (read by a thread).
    pub fn start_logged(args: &[&str]) -> (Gtp, Receiver<String>) {
        let (mut child, stdin, lines) = spawn_with_lines(args, Stdio::piped(), Some("info"));
        let stderr = child.stderr.take().unwrap();
        let (tx, log) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = Some(stdin);
        (
            Gtp {
                child,
                stdin,
                lines,
            },
            log,
        )
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin closed");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Reads one response (its lines up to the empty line).
    pub fn response(&mut self) -> Response {
        self.try_response(PATIENCE)
            .expect("no response from oxello")
    }

    pub fn try_response(&mut self, patience: Duration) -> Option<Response> {
        let first = self.lines.recv_timeout(patience).ok()?;
        let (ok, rest) = match (first.strip_prefix('='), first.strip_prefix('?')) {
            (Some(rest), _) => (true, rest),
            (_, Some(rest)) => (false, rest),
            _ => panic!("response does not start with = or ?: {first:?}"),
        };
        let id_len = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        let id = (id_len > 0).then(|| rest[..id_len].to_string());
        let after = &rest[id_len..];
        assert!(
            after.is_empty() || after.starts_with(' '),
            "malformed response {first:?}"
        );
        let mut text = after.trim_start_matches(' ').to_string();
        loop {
            let line = self
                .lines
                .recv_timeout(patience)
                .expect("response not ended by an empty line");
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        Some(Response { ok, id, text })
    }

    /// Stdout's lines as they come, for a test that reads a streamed reply itself.
    pub fn output(&self) -> &Receiver<String> {
        &self.lines
    }

    /// Sends a command and reads its response.
    pub fn ask(&mut self, line: &str) -> Response {
        self.send(line);
        self.response()
    }

    pub fn ok(&mut self, line: &str) -> String {
        let r = self.ask(line);
        assert!(r.ok, "{line} failed: {}", r.text);
        r.text
    }

    pub fn err(&mut self, line: &str) -> String {
        let r = self.ask(line);
        assert!(!r.ok, "{line} should fail, got {}", r.text);
        r.text
    }

    /// No more output arrives within `patience`.
    pub fn silent_for(&mut self, patience: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(patience),
            Err(RecvTimeoutError::Timeout)
        )
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; its exit code, or None if it is still running.
    pub fn wait_exit(&mut self, patience: Duration) -> Option<i32> {
        let start = std::time::Instant::now();
        while start.elapsed() < patience {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The absolute path of `relative`, a path inside the repository.
pub fn repo_path(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

/// The absolute path of the test data file `name` (in `tests/data/`).
pub fn data_path(name: &str) -> String {
    repo_path(&format!("tests/data/{name}"))
}

/// The text of the test data file `name`.
pub fn data(name: &str) -> String {
    let path = data_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A path as the `&str` a command line takes (the tests' temporary paths are UTF-8).
pub fn path_str(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A position reached by random legal play (passes taken when forced) from `start`,
/// `plies` plies on (fewer if the game ends), driven by a seeded xorshift generator.
pub fn random_walk(
    start: oxello::engine::board::Board,
    seed: u64,
    plies: u32,
) -> oxello::engine::board::Board {
    let mut rng = seed | 1;
    let mut b = start;
    for _ in 0..plies {
        let moves = b.moves();
        if moves == 0 {
            if b.opponent_moves() == 0 {
                break;
            }
            b = b.pass();
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let pick = (rng % u64::from(moves.count_ones())) as usize;
        let sq = oxello::engine::board::Squares(moves).nth(pick).unwrap();
        b = b.play(sq).unwrap();
    }
    b
}

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn at(b: u64, x: i32, y: i32) -> bool {
    b >> (y * 8 + x) & 1 == 1
}

/// Reference flips, independent of the engine's: walk each direction square by square.
pub fn reference_flips(p: u64, o: u64, sq: u32) -> u64 {
    if (p | o) >> sq & 1 == 1 {
        return 0;
    }
    let (x0, y0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut all = 0;
    for (dx, dy) in DIRS {
        let (mut x, mut y, mut run) = (x0 + dx, y0 + dy, 0u64);
        while (0..8).contains(&x) && (0..8).contains(&y) && at(o, x, y) {
            run |= 1 << (y * 8 + x);
            x += dx;
            y += dy;
        }
        if run != 0 && (0..8).contains(&x) && (0..8).contains(&y) && at(p, x, y) {
            all |= run;
        }
    }
    all
}

pub fn reference_moves(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&sq| reference_flips(p, o, sq) != 0)
        .fold(0, |m, sq| m | 1 << sq)
}

/// The value of a plain `depth`-ply negamax of the built-in evaluation (a pass costs no ply,
/// a finished game scores its discs), in the evaluation's units.
pub fn negamax(board: &oxello::engine::board::Board, depth: u32) -> i32 {
    use oxello::engine::eval::{evaluate, DISC};
    if board.is_game_over() {
        return board.final_score() * DISC;
    }
    if depth == 0 {
        return evaluate(board);
    }
    if board.moves() == 0 {
        return -negamax(&board.pass(), depth);
    }
    oxello::engine::board::Squares(board.moves())
        .map(|sq| -negamax(&board.play(sq).unwrap(), depth - 1))
        .max()
        .unwrap()
}
