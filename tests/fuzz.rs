//! Fuzzing both front ends through the binary (see `common::fuzz` for the lines): every line
//! gets exactly one well-formed reply (GTP: one response, none for a blank or comment line;
//! NBoard: at most one `status` refusal, then the `pong` of the ping sent after it), no
//! output line holds a control character, the process neither dies nor hangs, and the game
//! stays the one the tests' own rules (`common::oracle`) play from the accepted moves.
//!
//! The default tests run a few short sessions; `long_fuzz_*` (ignored) run
//! `OXELLO_FUZZ_LINES` lines per protocol and print their figures, as `scripts/fuzz.sh` does.

use crate::common;

use crate::common::fuzz::{gtp_text, line, NBOARD_WORDS};
use crate::common::oracle::Pos;
use crate::common::{spawn_with_lines, MALFORMED};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

/// How long a command may run before the test sends `stop` (an analysis without a time).
const BEFORE_STOP: Duration = Duration::from_secs(3);
/// How long a reply may take after `stop`: longer is a hang.
const HANG: Duration = Duration::from_secs(60);

const GTP_COMMANDS: &[&str] = &[
    "play b d3",
    "play w c3",
    "play black c4",
    "play white e3",
    "play b f5",
    "play w f4",
    "play b e6",
    "play w d6",
    "play b c5",
    "play w pass",
    "play B F6",
    "genmove b",
    "genmove w",
    "genmove black",
    "genmove white",
    "reg_genmove w",
    "undo",
    "clear_board",
    "showboard",
    "showboard",
    "name",
    "perft 3",
    "analyze 2 0.05",
    "time_left b 10 0",
    "known_command play",
    "oxello-hash 1",
    "oxello-threads 1",
    "komi 0",
    "final_score",
    "eval",
    "stop",
    "oxello-book off",
    "oxello-book-randomness 2",
    "protocol_version",
    "list_games",
    "set_game Othello",
    "1 name",
    "time_left white 5 0",
];

const NBOARD_COMMANDS: &[&str] = &[
    "move d3", "move c3", "move c4", "move e3", "move f5", "move f4", "move e6", "move d6",
    "move c5", "move F6/0.5/1", "move pa", "go", "go", "hint 2", "ping 7", "set depth 1",
    "set contempt 0",
    "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c5];)",
];

/// What went wrong in a session.
#[derive(Debug)]
enum Failure {
    /// The process ended (a panic exits 101).
    Died(Option<i32>),
    Hang(String),
    Malformed(String),
    /// The game differs from the oracle's, or an illegal move was played.
    Inconsistent(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Died(code) => write!(f, "the engine ended (exit code {code:?})"),
            Failure::Hang(what) => write!(f, "no reply to {what}"),
            Failure::Malformed(what) => write!(f, "a malformed reply: {what}"),
            Failure::Inconsistent(what) => write!(f, "the game went wrong: {what}"),
        }
    }
}

/// Figures of a run, as `scripts/fuzz.sh` prints them.
#[derive(Debug, Default)]
struct Figures {
    lines: usize,
    sessions: usize,
    panics: usize,
    hangs: usize,
    malformed: usize,
    inconsistent: usize,
}

impl Figures {
    fn count(&mut self, lines: usize, result: Result<(), Failure>) {
        self.sessions += 1;
        self.lines += lines;
        match result {
            Ok(()) => {}
            Err(Failure::Died(_)) => self.panics += 1,
            Err(Failure::Hang(_)) => self.hangs += 1,
            Err(Failure::Malformed(_)) => self.malformed += 1,
            Err(Failure::Inconsistent(_)) => self.inconsistent += 1,
        }
    }

    fn failures(&self) -> usize {
        self.panics + self.hangs + self.malformed + self.inconsistent
    }
}

/// A session over fuzzed lines (each with whether it is a valid command as it stands).
type Session = fn(&[(Vec<u8>, bool)]) -> Result<(), Failure>;

/// One engine process, its stdin and its output lines.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let (child, stdin, lines) = spawn_with_lines(args, Stdio::null(), None);
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        let mut line = bytes.to_vec();
        line.push(b'\n');
        self.stdin
            .write_all(&line)
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.died())
    }

    fn died(&mut self) -> Failure {
        std::thread::sleep(Duration::from_millis(100));
        Failure::Died(self.child.try_wait().ok().flatten().and_then(|s| s.code()))
    }

    /// The next output line within `patience`, `None` after it, checked to be well formed.
    fn next(&mut self, patience: Duration) -> Result<Option<String>, Failure> {
        match self.lines.recv_timeout(patience) {
            Ok(line) if line.starts_with(MALFORMED) => Err(Failure::Malformed(line)),
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.died()),
        }
    }

    fn expect(&mut self, patience: Duration, what: &str) -> Result<String, Failure> {
        self.next(patience)?
            .ok_or_else(|| Failure::Hang(what.to_string()))
    }

    /// Closes stdin: the engine must exit 0.
    fn finish(mut self) -> Result<(), Failure> {
        drop(self.stdin);
        let deadline = Instant::now() + HANG;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().ok().flatten() {
                return match status.code() {
                    Some(0) => Ok(()),
                    code => Err(Failure::Died(code)),
                };
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        Err(Failure::Hang("exit after the end of input".into()))
    }
}

/// One GTP response: ok, and its text after `=`/`?` and the id. A command still running
/// after [`BEFORE_STOP`] (an analysis without a time) is sent `stop`; then its response and
/// stop's own must come.
fn gtp_response(engine: &mut Engine, sent: &str) -> Result<(bool, String), Failure> {
    let mut stopped = false;
    let sent_at = Instant::now();
    let mut next_line = |engine: &mut Engine| gtp_line(engine, sent, &mut stopped, sent_at);
    let first = next_line(engine)?;
    let ok = first.starts_with('=');
    let rest = first.get(1..).filter(|_| ok || first.starts_with('?'));
    let rest = rest.ok_or_else(|| Failure::Malformed(format!("{sent:?} -> {first:?}")))?;
    let after_id = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    if !(after_id.is_empty() || after_id.starts_with(' ')) {
        return Err(Failure::Malformed(format!("{sent:?} -> {first:?}")));
    }
    let mut text = after_id.trim_start().to_string();
    loop {
        let line = next_line(engine)?;
        if line.is_empty() {
            break;
        }
        text.push('\n');
        text.push_str(&line);
    }
    if stopped && gtp_response(engine, "stop")? != (true, String::new()) {
        return Err(Failure::Malformed(format!("stop after {sent:?}")));
    }
    Ok((ok, text))
}

/// The next line of a response, sending `stop` once the command has run for [`BEFORE_STOP`]
/// since `sent_at` (an analysis streams progress lines every half second: their flow is no
/// sign that it will end).
fn gtp_line(
    engine: &mut Engine,
    sent: &str,
    stopped: &mut bool,
    sent_at: Instant,
) -> Result<String, Failure> {
    if !*stopped {
        let left = BEFORE_STOP.saturating_sub(sent_at.elapsed());
        if !left.is_zero() {
            if let Some(line) = engine.next(left)? {
                return Ok(line);
            }
        }
        engine.send(b"stop")?;
        *stopped = true;
    }
    engine.expect(HANG, sent)
}

/// The game as the tests' rules see it, with what `undo` returns to.
struct Model {
    pos: Pos,
    history: Vec<Pos>,
}

impl Model {
    fn new() -> Model {
        Model {
            pos: Pos::start(),
            history: Vec::new(),
        }
    }

    /// A move by `black` (or the other colour) as GTP plays it: a colour not to move may
    /// play only when the side to move must pass. The position after it, or `None`.
    fn after(&self, black: bool, sq: Option<u32>) -> Option<Pos> {
        let mut pos = self.pos;
        if pos.black_to_move != black {
            if pos.moves() != 0 || sq.is_none() {
                return None;
            }
            pos.play(None);
        }
        match sq {
            None if pos.moves() != 0 => None,
            Some(s) if pos.moves() & 1 << s == 0 => None,
            _ => {
                pos.play(sq);
                Some(pos)
            }
        }
    }

    fn play(&mut self, black: bool, sq: Option<u32>) -> Result<(), Failure> {
        let next = self.after(black, sq).ok_or_else(|| {
            Failure::Inconsistent(format!(
                "{sq:?} by black={black} accepted, illegal in {:?}",
                self.pos
            ))
        })?;
        self.history.push(self.pos);
        self.pos = next;
        Ok(())
    }
}

fn colour(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(true),
        "w" | "white" => Some(false),
        _ => None,
    }
}

/// `a1`..`h8` or `pass` in either ASCII case: `Some(None)` for a pass.
fn vertex(word: &str) -> Option<Option<u32>> {
    let w = word.to_ascii_lowercase();
    if w == "pass" {
        return Some(None);
    }
    match w.as_bytes() {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            Some(Some(u32::from(r - b'1') * 8 + u32::from(c - b'a')))
        }
        _ => None,
    }
}

/// The board a `showboard` answer draws: black, white, and whether black is to move.
fn drawn(text: &str) -> (u64, u64, Option<bool>) {
    let (mut black, mut white) = (0u64, 0u64);
    for row in text
        .lines()
        .filter(|l| l.starts_with(|c: char| ('1'..='8').contains(&c)))
    {
        let r = u32::from(row.as_bytes()[0] - b'1');
        for (c, cell) in row.split(' ').skip(1).take(8).enumerate() {
            let bit = 1u64 << (r * 8 + c as u32);
            match cell {
                "X" => black |= bit,
                "O" => white |= bit,
                _ => {}
            }
        }
    }
    let side = text
        .contains("black to move")
        .then_some(true)
        .or(text.contains("white to move").then_some(false));
    (black, white, side)
}

/// What an accepted GTP command did to the game, read from its preprocessed text.
fn gtp_apply(model: &mut Model, text: &str, answer: &str) -> Result<(), Failure> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = match words.first() {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => &words[1..],
        _ => &words[..],
    };
    let unreadable = || Failure::Inconsistent(format!("accepted {text:?}, which is not a command"));
    match words {
        ["play", c, v] => {
            let (black, sq) = colour(c).zip(vertex(v)).ok_or_else(unreadable)?;
            model.play(black, sq)
        }
        ["genmove", c] => {
            let black = colour(c).ok_or_else(unreadable)?;
            let sq = vertex(answer).ok_or_else(|| Failure::Malformed(answer.into()))?;
            let game_over = model.pos.over();
            match sq {
                None if game_over || model.pos.black_to_move != black => Ok(()),
                sq => model.play(black, sq),
            }
        }
        ["undo"] => {
            model.pos = model.history.pop().ok_or_else(unreadable)?;
            Ok(())
        }
        ["clear_board"] => {
            *model = Model::new();
            Ok(())
        }
        ["showboard"] => {
            let (black, white, side) = drawn(answer);
            let side_ok = side.is_none_or(|b| b == model.pos.black_to_move);
            if (black, white) == (model.pos.black, model.pos.white) && side_ok {
                Ok(())
            } else {
                Err(Failure::Inconsistent(format!(
                    "showboard {answer}\nbut the rules say {:?}",
                    model.pos
                )))
            }
        }
        _ => Ok(()),
    }
}

/// One GTP session over `lines`.
fn gtp_session(lines: &[(Vec<u8>, bool)]) -> Result<(), Failure> {
    let mut engine = Engine::start(&["--depth", "1", "--threads", "1", "--hash", "1"]);
    let mut model = Model::new();
    for (line, _) in lines {
        engine.send(line)?;
        let Some(text) = gtp_text(line) else {
            continue;
        };
        let (ok, answer) = gtp_response(&mut engine, &text)?;
        if ok {
            gtp_apply(&mut model, &text, &answer)?;
        }
    }
    // Nothing is left over: the next response is the next thing out.
    engine.send(b"showboard")?;
    let (_, answer) = gtp_response(&mut engine, "showboard")?;
    gtp_apply(&mut model, "showboard", &answer)?;
    engine.finish()
}

/// A `move` line as NBoard's protocol reads it: `move <square or pa>[/eval[/time]]`.
fn nboard_move(text: &str) -> Option<Option<u32>> {
    let rest = text.strip_prefix("move")?;
    let rest = rest
        .strip_prefix([' ', '\t'])?
        .trim_start_matches([' ', '\t']);
    let word = rest.split('/').next()?;
    match word.to_ascii_lowercase().as_str() {
        "pa" => Some(None),
        w => vertex(w).filter(|v| v.is_some()),
    }
}

/// The position after the moves of a `set game` record (the fuzz's records all start from
/// the start): its `B[..]` and `W[..]` properties, names in capitals as GGF has them, values
/// read without the white space around them.
fn ggf_game(text: &str) -> Result<Pos, Failure> {
    let mut pos = Pos::start();
    for (i, _) in text
        .match_indices("B[")
        .chain(text.match_indices("W["))
        .collect::<std::collections::BTreeMap<_, _>>()
    {
        // A property follows the last one's `]`, maybe after ASCII white space.
        if !text[..i]
            .trim_end_matches([' ', '\t', '\r', '\n'])
            .ends_with(']')
        {
            continue;
        }
        let value = text[i + 2..].split(']').next().unwrap_or("").trim();
        let word = value.split('/').next().unwrap_or("");
        let mv = match word.to_ascii_lowercase().as_str() {
            "pa" => Some(None),
            w => vertex(w).filter(|v| v.is_some()),
        };
        let mv = mv.ok_or_else(|| Failure::Inconsistent(format!("accepted {text:?}")))?;
        pos.play(mv);
    }
    Ok(pos)
}

/// One NBoard session over `lines`: after each line a `ping`, whose `pong` ends its replies.
fn nboard_session(lines: &[(Vec<u8>, bool)]) -> Result<(), Failure> {
    let mut engine = Engine::start(&["--threads", "1", "--hash", "1"]);
    engine.send(b"nboard 2")?;
    engine.send(b"set depth 1")?;
    let mut pos = Pos::start();
    for (n, (line, valid)) in lines.iter().enumerate() {
        engine.send(line)?;
        let ping = 1_000_000 + n;
        engine.send(format!("ping {ping}").as_bytes())?;
        let pong = format!("pong {ping}");
        let mut replies = Vec::new();
        loop {
            let reply = engine.expect(
                HANG,
                &format!("{pong} after {:?}", String::from_utf8_lossy(line)),
            )?;
            if reply == pong {
                break;
            }
            replies.push(reply);
        }
        let text = String::from_utf8_lossy(&line[..line.len().min(common::fuzz::MAX_LINE)]);
        let text = text.trim();
        let refusals = replies
            .iter()
            .filter(|r| r.starts_with("status ignored:"))
            .count();
        let word = text.split_whitespace().next().unwrap_or("");
        let unknown = !text.is_empty() && !NBOARD_WORDS.contains(&word);
        let expected = if unknown {
            1..=1
        } else if *valid {
            0..=0
        } else {
            0..=1
        };
        if !expected.contains(&refusals) {
            return Err(Failure::Malformed(format!("{text:?} -> {replies:?}")));
        }
        for r in &replies {
            if let Some(m) = r.strip_prefix("=== ") {
                let sq = vertex(m.split('/').next().unwrap_or(""));
                let legal = match sq {
                    Some(Some(s)) => pos.moves() & 1 << s != 0,
                    Some(None) => pos.moves() == 0,
                    None => false,
                };
                if !legal {
                    return Err(Failure::Inconsistent(format!("go played {m} in {pos:?}")));
                }
            }
        }
        let refused = replies
            .iter()
            .any(|r| r.starts_with("status") && r.contains("ignored"));
        if word == "move" && !refused {
            let mv = nboard_move(text)
                .ok_or_else(|| Failure::Inconsistent(format!("accepted {text:?}")))?;
            let legal = match mv {
                Some(s) => pos.moves() & 1 << s != 0,
                None => pos.moves() == 0 && !pos.over(),
            };
            if !legal {
                return Err(Failure::Inconsistent(format!(
                    "accepted {text:?} in {pos:?}"
                )));
            }
            pos.play(mv);
        } else if word == "set" && text.contains("game") && !refused {
            pos = ggf_game(text)?;
        }
    }
    engine.finish()
}

/// `sessions` sessions of `per_session` fuzzed lines from `valid`, run by `session`.
fn run(
    valid: &'static [&'static str],
    sessions: usize,
    per_session: usize,
    session: Session,
) -> Figures {
    let mut runner = TestRunner::deterministic();
    let mut figures = Figures::default();
    let strategy = proptest::collection::vec(line(valid), per_session);
    for _ in 0..sessions {
        let lines = strategy.new_tree(&mut runner).unwrap().current();
        let result = session(&lines);
        if let Err(e) = &result {
            eprintln!("failure: {e}");
        }
        figures.count(lines.len(), result);
    }
    figures
}

proptest! {
    // Not persisted: a failing case may hold lines of 64 KiB (it is printed when it fails).
    #![proptest_config(ProptestConfig {
        cases: 6,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn gtp_answers_every_fuzzed_line_once_and_keeps_the_game(
        lines in proptest::collection::vec(line(GTP_COMMANDS), 150)
    ) {
        let result = gtp_session(&lines).map_err(|e| e.to_string());
        prop_assert!(result.is_ok(), "{result:?}");
    }

    #[test]
    fn nboard_answers_every_fuzzed_line_once_and_keeps_the_game(
        lines in proptest::collection::vec(line(NBOARD_COMMANDS), 150)
    ) {
        let result = nboard_session(&lines).map_err(|e| e.to_string());
        prop_assert!(result.is_ok(), "{result:?}");
    }
}

/// Lines per protocol of a long run, from `OXELLO_FUZZ_LINES` (default 10,000).
fn long_run_lines() -> usize {
    std::env::var("OXELLO_FUZZ_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000)
}

fn long_run(protocol: &str, valid: &'static [&'static str], session: Session) {
    let per_session = 500;
    let sessions = long_run_lines().div_ceil(per_session);
    let started = Instant::now();
    let f = run(valid, sessions, per_session, session);
    println!(
        "fuzz {protocol}: lines {} sessions {} panics {} hangs {} malformed {} inconsistent {} ({:.0} s)",
        f.lines,
        f.sessions,
        f.panics,
        f.hangs,
        f.malformed,
        f.inconsistent,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(f.failures(), 0, "{f:?}");
}

#[test]
#[ignore = "long: scripts/fuzz.sh runs it"]
fn long_fuzz_gtp() {
    long_run("gtp", GTP_COMMANDS, gtp_session);
}

#[test]
#[ignore = "long: scripts/fuzz.sh runs it"]
fn long_fuzz_nboard() {
    long_run("nboard", NBOARD_COMMANDS, nboard_session);
}
