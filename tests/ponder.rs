//! Pondering through the binary: the search on the opponent's time goes on when the expected
//! reply comes (the log shows its iterations continuing), is dropped when another comes, never
//! writes to stdout, and does not keep the engine from ending; NBoard plays with it too.

use crate::common::nboard::{ggf, name, square, NBoard};
use crate::common::oracle::Pos;
use crate::common::{Gtp, PATIENCE};
use crossbeam_channel::Receiver;
use std::time::Duration;

/// Bound for the engine to end once told to; it ends within milliseconds when all is well.
const EXIT_PATIENCE: Duration = Duration::from_secs(10);

/// The log's lines up to and including the first that holds `text`.
fn log_until(log: &Receiver<String>, text: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = log
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|e| panic!("no log line with {text:?} ({e:?}) after {seen:?}"));
        let found = line.contains(text);
        seen.push(line);
        if found {
            return seen;
        }
    }
}

/// What follows `marker` in the last of `lines`.
fn after(lines: &[String], marker: &str) -> String {
    let last = lines.last().unwrap();
    last.split_once(marker)
        .unwrap_or_else(|| panic!("{marker:?} not in {last:?}"))
        .1
        .to_string()
}

/// The depth of a `14@68% ...` text.
fn depth(text: &str) -> u32 {
    let number = text.split('@').next().unwrap();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no depth in {text:?}"))
}

/// Asks `genmove` of the side to move in `pos`, checks the answer is one of its legal moves
/// by the tests' own rules and plays it.
fn genmove(gtp: &mut Gtp, pos: &mut Pos) -> u32 {
    let color = if pos.black_to_move { "b" } else { "w" };
    let answer = gtp.ok(&format!("genmove {color}"));
    let sq = square(&answer).unwrap_or_else(|| panic!("{answer}"));
    assert!(pos.moves() & 1 << sq != 0, "illegal {answer}");
    pos.play(Some(sq));
    sq
}

/// A session after black's first move, pondering on the reply it names in the log, with one
/// iteration of that search finished: the position and the reply expected.
fn pondering(gtp: &mut Gtp, log: &Receiver<String>) -> (Pos, u32) {
    let mut pos = Pos::start();
    genmove(gtp, &mut pos);
    let reply = after(&log_until(log, "INFO ponder on "), "INFO ponder on ");
    log_until(log, "INFO ponder depth ");
    let reply = square(&reply).unwrap();
    assert!(pos.moves() & 1 << reply != 0, "expects an illegal reply");
    (pos, reply)
}

#[test]
fn a_hit_keeps_the_search_and_its_iterations_go_on() {
    let (mut gtp, log) = Gtp::start_logged(&["--ponder", "--no-book", "--threads", "1"]);
    gtp.ok("oxello-move_time 2");
    let (mut pos, reply) = pondering(&mut gtp, &log);
    gtp.ok(&format!("play w {}", name(Some(reply))));
    pos.play(Some(reply));
    let hit = log_until(&log, "INFO ponder hit: ");
    let standing = after(&hit, "INFO ponder hit: ");
    let expected = format!("{} expected, continuing after depth ", name(Some(reply)));
    assert!(standing.starts_with(&expected), "{standing}");
    let reached = depth(&standing[expected.len()..]);
    genmove(&mut gtp, &mut pos);
    let searched = log_until(&log, "INFO move black ");
    let deepest = searched
        .iter()
        .filter_map(|l| l.split_once("INFO depth ").map(|(_, d)| depth(d)))
        .max();
    assert!(
        deepest.is_some_and(|d| d > reached),
        "no iteration past {reached}: {searched:?}"
    );
    assert!(!searched.iter().any(|l| l.contains("ponder miss")));
}

#[test]
fn a_miss_drops_the_search_and_genmove_answers_as_usual() {
    let (mut gtp, log) = Gtp::start_logged(&["--no-book", "--threads", "1"]);
    gtp.ok("oxello-ponder on");
    gtp.ok("oxello-move_time 0.5");
    let (mut pos, reply) = pondering(&mut gtp, &log);
    let other = (0..64)
        .find(|&sq| sq != reply && pos.moves() & 1 << sq != 0)
        .unwrap();
    gtp.ok(&format!("play w {}", name(Some(other))));
    pos.play(Some(other));
    let miss = log_until(&log, "INFO ponder miss: ");
    assert_eq!(
        after(&miss, "INFO ponder miss: "),
        format!("expected {}, got {}", name(Some(reply)), name(Some(other)))
    );
    genmove(&mut gtp, &mut pos);
    let searched = log_until(&log, "INFO move black ");
    assert!(!searched.iter().any(|l| l.contains("ponder hit")));
    assert!(searched.iter().any(|l| l.contains("INFO depth 1@")));
}

#[test]
fn quit_and_end_of_input_while_pondering_end_the_engine() {
    for ends_by_quit in [true, false] {
        let (mut gtp, log) = Gtp::start_logged(&["-ponder", "--no-book", "--threads", "1"]);
        gtp.ok("oxello-move_time 0.3");
        pondering(&mut gtp, &log);
        if ends_by_quit {
            assert_eq!(gtp.ok("quit"), "");
        } else {
            gtp.close_stdin();
        }
        assert_eq!(
            gtp.wait_exit(EXIT_PATIENCE),
            Some(0),
            "quit: {ends_by_quit}"
        );
    }
}

#[test]
fn other_commands_answer_while_pondering_and_the_search_writes_nothing() {
    let (mut gtp, log) = Gtp::start_logged(&["--ponder", "--no-book", "--threads", "1"]);
    gtp.ok("oxello-move_time 0.3");
    pondering(&mut gtp, &log);
    assert_eq!(gtp.ok("name"), "Oxello");
    assert_eq!(gtp.ok("protocol_version"), "2");
    assert!(gtp.ok("showboard").contains("white to move"));
    // More iterations of the ponder search pass, and none of them reaches stdout.
    log_until(&log, "INFO ponder depth ");
    log_until(&log, "INFO ponder depth ");
    assert!(gtp.silent_for(Duration::from_millis(500)));
    assert_eq!(gtp.ok("known_command oxello-ponder"), "true");
    gtp.ok("oxello-ponder off");
    assert!(gtp
        .err("oxello-ponder maybe")
        .contains("expected on or off"));
}

#[test]
fn nboard_plays_a_game_with_pondering() {
    let mut e = NBoard::start(&[
        "-nboard",
        "--ponder",
        "-l",
        "8",
        "--no-book",
        "--threads",
        "1",
    ]);
    e.send("nboard 2");
    e.send(&format!("set game {}", ggf("", 0).0));
    let mut pos = Pos::start();
    for n in 1..=4 {
        assert_eq!(e.ping(n).last().unwrap(), &format!("pong {n}"));
        e.send("go");
        let lines = e.until(|l| l.starts_with("==="));
        let known = ["===", "status ", "nodestats "];
        for line in &lines {
            assert!(known.iter().any(|k| line.starts_with(k)), "{lines:?}");
        }
        let mv = lines.last().unwrap()[4..]
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let sq = square(&mv).unwrap_or_else(|| panic!("{lines:?}"));
        assert!(pos.moves() & 1 << sq != 0, "illegal {mv}");
        pos.play(Some(sq));
        e.send(&format!("move {mv}"));
        // The reply: the lowest legal square, which the search may or may not expect.
        let reply = (0..64).find(|&s| pos.moves() & 1 << s != 0).unwrap();
        pos.play(Some(reply));
        e.send(&format!("move {}", name(Some(reply))));
    }
    assert_eq!(e.ping(9), ["pong 9"]);
    e.finish();
}
