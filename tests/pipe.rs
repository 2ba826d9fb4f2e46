//! Commands piped in, as a user debugging the engine sends them: end of input lets every
//! command read be answered in full, in order, with its normal limits, and then the engine
//! exits; a reader that goes away, SIGTERM and SIGINT still end a search and the process at
//! once. The log (`RUST_LOG`, `--log-file`) shows the search without touching stdout.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Far beyond the milliseconds the engine takes to stop: failing it means it kept running.
const EXIT_BOUND: Duration = Duration::from_secs(5);

/// What a piped run gave: every stdout line with the time it arrived (from the start), the
/// exit status and stderr.
struct Piped {
    lines: Vec<(Duration, String)>,
    status: ExitStatus,
    stderr: String,
}

impl Piped {
    fn text(&self) -> Vec<&str> {
        self.lines.iter().map(|(_, l)| l.as_str()).collect()
    }

    /// When the first line that starts with `prefix` arrived.
    fn arrival(&self, prefix: &str) -> Duration {
        self.lines
            .iter()
            .find(|(_, l)| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix:?} in {:?}", self.text()))
            .0
    }
}

/// `printf INPUT | RUST_LOG=rust_log oxello ARGS`: the input is written at once and closed.
fn piped(args: &[&str], input: &str, rust_log: Option<&str>) -> Piped {
    let mut child = common::engine_command(args, rust_log)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start oxello");
    let started = Instant::now();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let lines = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| (started.elapsed(), l.unwrap()))
        .collect();
    Piped {
        lines,
        status: child.wait().unwrap(),
        stderr: errors.join().unwrap(),
    }
}

const OPENINGS: [&str; 4] = ["= D3", "= C4", "= F5", "= E6"];

#[test]
fn a_piped_genmove_thinks_for_its_move_time() {
    let run = piped(&["--no-book", "--move-time", "1"], "genmove black\n", None);
    assert!(run.status.success());
    assert_eq!(run.lines.len(), 2, "{:?}", run.text());
    assert!(OPENINGS.contains(&run.text()[0]), "{:?}", run.text());
    let answered = run.arrival("=");
    assert!(answered >= Duration::from_millis(800), "after {answered:?}");
}

#[test]
fn piped_fixed_depth_moves_are_the_moves_of_an_open_session() {
    let args = ["--depth", "8", "--threads", "1"];
    // Positions of 22 empties, each set up and asked for a move.
    let asks: Vec<String> = common::data("random22.obf")
        .lines()
        .take(6)
        .map(|l| {
            let (board, side) = l.split(';').next().unwrap().split_once(' ').unwrap();
            let colour = if side == "X" { "black" } else { "white" };
            format!("setboard {board} {side}\ngenmove {colour}\n")
        })
        .collect();
    let run = piped(&args, &asks.concat(), None);
    assert!(run.status.success());
    let mut open = common::Gtp::start_with(&args);
    let mut expected = Vec::new();
    for ask in &asks {
        let (setboard, genmove) = ask.trim_end().split_once('\n').unwrap();
        open.ok(setboard);
        expected.extend(["=".to_string(), String::new()]);
        expected.extend([format!("= {}", open.ok(genmove)), String::new()]);
    }
    assert_eq!(run.text(), expected);
}

/// FFO #40 (20 empties, black to move): A2 wins by 38.
const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

#[test]
fn a_piped_solve_of_20_empties_gives_the_exact_value() {
    let entry = common::data("fforum-40-59.obf");
    let first = entry.lines().next().unwrap();
    assert!(
        first.starts_with(FFO_40) && first.contains("A2:+38;"),
        "{first}"
    );
    let run = piped(&[], &format!("setboard {FFO_40}\nsolve\n"), None);
    assert!(run.status.success());
    assert_eq!(run.text(), ["=", "", "= A2 +38", ""]);
}

#[test]
fn genmove_then_quit_answers_the_move_then_quits() {
    let run = piped(
        &["--no-book", "--move-time", "1"],
        "genmove black\nquit\nname\n",
        None,
    );
    assert!(run.status.success());
    let text = run.text();
    assert!(OPENINGS.contains(&text[0]), "{text:?}");
    // `quit` is answered after the move, and nothing after it.
    assert_eq!(&text[1..], ["", "=", ""]);
    assert!(run.arrival("=") >= Duration::from_millis(800));
}

#[test]
fn a_piped_analyze_without_seconds_runs_for_the_default_ten_seconds() {
    let run = piped(&["--threads", "1"], "analyze\n", None);
    assert!(run.status.success());
    let best = run.arrival("best ");
    assert!(best >= Duration::from_secs(9), "best after {best:?}");
    assert!(
        best < Duration::from_secs(10) + EXIT_BOUND,
        "best after {best:?}"
    );
}

/// Starts `analyze 4` (no time limit: it runs until stopped, an exact solve or depth 60)
/// and reads its lines until depth 14, deep enough that the next iteration takes a while.
fn analyzing() -> (
    Child,
    std::process::ChildStdin,
    BufReader<std::process::ChildStdout>,
) {
    let mut child = common::spawn_engine(&[]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"analyze 4\n").unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("info depth 14@") {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the analysis ended early"
        );
    }
    (child, stdin, out)
}

/// Waits for `child` to exit, at most [`EXIT_BOUND`] after `since`.
fn exit_within_bound(child: &mut Child, since: Instant) -> ExitStatus {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            eprintln!("exited {:?} after", since.elapsed());
            return status;
        }
        assert!(since.elapsed() < EXIT_BOUND, "still searching");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn the_engine_exits_at_once_when_its_reader_closes_during_analysis() {
    let (mut child, stdin, out) = analyzing();
    let closed = Instant::now();
    drop(out);
    // The engine must notice the closed pipe without writing to it.
    assert!(exit_within_bound(&mut child, closed).success());
    // The engine's input is still open: it was the closed output that ended it.
    drop(stdin);
}

#[cfg(unix)]
#[test]
fn sigterm_and_sigint_end_a_search_and_the_process_at_once() {
    use std::os::unix::process::ExitStatusExt;
    for (name, number) in [("TERM", 15), ("INT", 2)] {
        let (mut child, _stdin, _out) = analyzing();
        let sent = Instant::now();
        let kill = std::process::Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let status = exit_within_bound(&mut child, sent);
        assert_eq!(status.signal(), Some(number), "{name}: {status:?}");
    }
}

#[test]
fn the_log_shows_iterations_and_moves_and_stdout_stays_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("oxello.log");
    let args = ["--no-book", "--depth", "6", "--threads", "1", "--log-file"];
    let args = [&args[..], &[file.to_str().unwrap()]].concat();
    let run = piped(&args, "play black f5\ngenmove white\n", Some("info"));
    assert!(run.status.success());
    let reply = run.text()[2].to_string();
    assert_eq!(run.text(), ["=", "", &reply, ""]);
    // stderr: one line per iteration (depths 1-6), then the move, nothing else.
    let logged: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(logged.len(), 7, "{logged:?}");
    for (depth, line) in (1..=6).zip(&logged) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            fields[1..5],
            ["INFO", "depth", &format!("{depth}@68%"), "midgame"],
            "{line}"
        );
        assert!(line.contains(" pv "), "{line}");
    }
    let played = format!("INFO move white {} score ", &reply[2..]);
    assert!(logged[6].contains(&played), "{}", logged[6]);
    // The file: the same lines, and the traffic both ways.
    let log = std::fs::read_to_string(&file).unwrap();
    for line in &logged {
        assert!(
            log.contains(&line[line.find(' ').unwrap()..]),
            "{line} not in {log}"
        );
    }
    for traffic in [
        "<- play black f5",
        "<- genmove white",
        "-> =",
        &format!("-> {reply}"),
    ] {
        assert!(
            log.lines().any(|l| l.ends_with(traffic)),
            "{traffic} not in {log}"
        );
    }
}
