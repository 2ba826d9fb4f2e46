//! Progress while a long search runs, through the binary: the running stage is reported at
//! least once a second (the engine reports after half a second without news; the tests allow
//! 1.5 s between two lines, for a loaded machine), named as the level table names it. NBoard's
//! `go` gets `status` and `nodestats` lines, GTP's `analyze` `info stage` lines and `genmove`
//! the log's, with nothing on stdout. The position is 32 empties into a WTHOR game, where
//! level 30 runs a 32@73% endgame stage that takes minutes on one thread: each test watches it
//! for a few seconds, then stops it.

use crate::common::nboard::{ggf, NBoard};
use crate::common::{run, Gtp, PATIENCE};
use crossbeam_channel::Receiver;
use std::time::{Duration, Instant};

/// The most time allowed between two progress lines.
const MAX_GAP: Duration = Duration::from_millis(1500);

/// How long each test watches the search.
const WATCH: Duration = Duration::from_secs(4);

/// Plies of the game played: 28 moves without a pass leave 32 empties.
const PLIES: usize = 28;
const EMPTIES: u32 = 32;
const LEVEL: u32 = 30;

/// The game's moves, the fourth of the WTHOR games.
fn transcript() -> String {
    crate::common::data("wthor_2024_2025_transcripts.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(3)
        .and_then(|l| l.split_whitespace().nth(2))
        .unwrap()
        .to_string()
}

/// The stage `oxello levels` gives `level` at `empties`: `32@73%` for `32-31@73%`.
fn table_stage(level: u32, empties: u32) -> String {
    let out = run(&["levels"]);
    let table = String::from_utf8(out.stdout).unwrap();
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&level.to_string()))
        .unwrap();
    let stage = row
        .split_whitespace()
        .filter_map(|f| f.split_once('@'))
        .find(|(range, _)| {
            range.split_once('-').is_some_and(|(high, low)| {
                (low.parse().unwrap()..=high.parse().unwrap()).contains(&empties)
            })
        })
        .unwrap_or_else(|| panic!("no stage at {empties} in {row}"));
    format!("{empties}@{}", stage.1)
}

/// The lines that arrive within `span` from now, up to the first that starts with `last`, each with
/// when it came.
fn timed(lines: &Receiver<String>, span: Duration, last: Option<&str>) -> Vec<(Instant, String)> {
    let end = Instant::now() + span;
    let mut seen = Vec::new();
    while let Ok(line) = lines.recv_deadline(end) {
        let done = last.is_some_and(|l| line.starts_with(l));
        seen.push((Instant::now(), line));
        if done {
            break;
        }
    }
    seen
}

/// The lines of `seen`, once asserted that no two of their times (with `start` and `end`
/// around them) are further apart than [`MAX_GAP`].
fn spaced_lines(start: Instant, seen: &[(Instant, String)], end: Instant) -> Vec<String> {
    let lines: Vec<String> = seen.iter().map(|(_, l)| l.clone()).collect();
    let times: Vec<Instant> = seen.iter().map(|(t, _)| *t).collect();
    let all: Vec<Instant> = [&[start][..], &times, &[end]].concat();
    for w in all.windows(2) {
        let gap = w[1] - w[0];
        assert!(gap <= MAX_GAP, "a gap of {gap:?} in {lines:#?}");
    }
    lines
}

/// The lines after the last finished iteration's (those that `iteration` tells): the
/// running stage's, at least three of them.
fn after_last(lines: &[String], iteration: impl Fn(&str) -> bool) -> &[String] {
    let last = lines.iter().rposition(|l| iteration(l));
    let running = &lines[last.map_or(0, |i| i + 1)..];
    assert!(running.len() >= 3, "{lines:#?}");
    running
}

/// The numbers of a progress line's fields after `names`, in order.
fn numbers(line: &str, names: &[&str]) -> Vec<f64> {
    let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    names
        .iter()
        .map(|n| {
            let at = words
                .iter()
                .position(|w| w == n)
                .unwrap_or_else(|| panic!("{n} in {line}"));
            words[at + 1]
                .parse()
                .unwrap_or_else(|_| panic!("{n} in {line}"))
        })
        .collect()
}

/// Asserts that each column of `rows` never goes down, and the last (time) goes up.
fn assert_growing(rows: &[Vec<f64>], lines: &[String]) {
    for w in rows.windows(2) {
        assert!(w[0].iter().zip(&w[1]).all(|(a, b)| a <= b), "{lines:#?}");
        assert!(w[0].last() < w[1].last(), "{lines:#?}");
    }
}

#[test]
fn nboard_go_shows_the_running_stage_at_least_once_a_second() {
    let stage = table_stage(LEVEL, EMPTIES);
    let mut e = NBoard::start(&["--no-book", "--threads", "1"]);
    e.send("nboard 2");
    let (game, _) = ggf(&transcript(), PLIES);
    e.send(&format!("set game {game}"));
    e.send(&format!("set depth {LEVEL}"));
    e.ping(1);
    let asked = Instant::now();
    e.send("go");
    let seen = timed(&e.lines, WATCH, None);
    let stopped = Instant::now();
    let tail = e.ping(2);
    assert!(tail.iter().all(|l| !l.starts_with("===")), "{tail:?}");
    let lines = spaced_lines(asked, &seen, stopped);
    // After the midgame's iterations (`status depth 16@68% ...`) the endgame stage runs.
    let running: Vec<&String> = after_last(&lines, |l| l.starts_with("status depth"))
        .iter()
        .filter(|l| l.starts_with("status "))
        .collect();
    assert!(running.len() >= 3, "{lines:#?}");
    let expected = format!("status searching {stage}: ");
    assert!(
        running.iter().all(|l| l.starts_with(&expected)),
        "{expected:?}: {lines:#?}"
    );
    // The time comes first (NBoard's status bar cuts the end): the line changes every time.
    let seconds: Vec<Vec<f64>> = running
        .iter()
        .map(|l| {
            vec![l[expected.len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()]
        })
        .collect();
    assert_growing(&seconds, &lines);
    let stats: Vec<Vec<f64>> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("nodestats "))
        .map(|l| l.split(' ').map(|n| n.parse().unwrap()).collect())
        .collect();
    assert!(stats.len() >= running.len(), "{lines:#?}");
    assert_growing(&stats, &lines);
    e.finish();
}

#[test]
fn gtp_analyze_streams_the_running_stage_at_least_once_a_second() {
    let mut gtp = Gtp::start_with(&["--no-book", "--threads", "1"]);
    gtp.ok(&format!("oxello-game {}", &transcript()[..2 * PLIES]));
    let seconds = WATCH.as_secs();
    let asked = Instant::now();
    gtp.send(&format!("analyze 1 {seconds}"));
    let mut seen = timed(gtp.output(), WATCH + PATIENCE / 60, Some("best "));
    let end = seen
        .iter()
        .position(|(_, l)| l.starts_with("best "))
        .expect("the best line");
    let best = seen[end].0;
    seen.truncate(end);
    let lines = spaced_lines(asked, &seen, best);
    let stages: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info stage "))
        .collect();
    assert!(stages.len() >= 3, "{lines:#?}");
    // An endgame stage names the empties and a selectivity, and its kind says which.
    for line in &stages {
        let words: Vec<&str> = line.split(' ').collect();
        let (depth, percent) = words[2].split_once('@').unwrap();
        let kind = match (depth.parse::<u32>().unwrap(), percent) {
            (EMPTIES, "100%") => "exact",
            (EMPTIES, "73%" | "87%" | "95%") => "endgame",
            (d, "68%") if d < EMPTIES => "midgame",
            _ => panic!("not a stage of this search: {line}"),
        };
        assert_eq!(words[3], kind, "{line}");
    }
    assert!(stages
        .last()
        .unwrap()
        .starts_with(&format!("info stage {EMPTIES}@")));
    let rows: Vec<Vec<f64>> = stages
        .iter()
        .map(|l| numbers(l, &["nodes", "time"]))
        .collect();
    assert_growing(&rows, &lines);
    assert_eq!(gtp.output().recv_timeout(PATIENCE).unwrap(), "");
}

#[test]
fn gtp_genmove_logs_the_running_stage_and_keeps_stdout_to_its_answer() {
    let stage = format!("stage {} endgame nodes ", table_stage(LEVEL, EMPTIES));
    let (mut gtp, log) = Gtp::start_logged(&["--no-book", "--threads", "1"]);
    gtp.ok(&format!("oxello-game {}", &transcript()[..2 * PLIES]));
    gtp.ok(&format!("oxello-depth {LEVEL}"));
    while log.try_recv().is_ok() {}
    let asked = Instant::now();
    gtp.send("genmove b");
    let seen = timed(&log, WATCH, None);
    let stopped = Instant::now();
    assert!(gtp.output().try_recv().is_err(), "stdout before the answer");
    gtp.send("stop");
    let answer = gtp.response();
    assert!(answer.ok && answer.text.len() == 2, "{answer:?}");
    let lines = spaced_lines(asked, &seen, stopped);
    let running = after_last(&lines, |l| l.contains(" depth "));
    assert!(
        running.iter().all(|l| l.contains(&stage)),
        "{stage:?}: {lines:#?}"
    );
    let rows: Vec<Vec<f64>> = running
        .iter()
        .map(|l| numbers(l, &["nodes", "time"]))
        .collect();
    assert_growing(&rows, &lines);
}
