//! The level table through the binary: `oxello levels` and protocol.md print the same table,
//! its invariants hold, `analyze --depth` searches what the table says, every front end
//! refuses a level outside 0-60 alike, and big levels answer from midgame positions.

use crate::common;
use crate::common::nboard::{ggf, NBoard};
use oxello::engine::game::Game;
use oxello::engine::notation::format_position;
use oxello::engine::search::level::MAX_LEVEL;
use oxello::engine::search::{Level, Plan, Selectivity};
use std::time::{Duration, Instant};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn levels_output() -> String {
    let out = common::run(&["levels"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// WTHOR game `n` of tests/data after `plies` moves, as `analyze` reads a position.
fn wthor_position(n: usize, plies: usize) -> String {
    let line = common::data("wthor_2024_2025_transcripts.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(n)
        .unwrap()
        .to_string();
    let moves = line.split_whitespace().nth(2).unwrap();
    let game = Game::from_transcript(&moves[..2 * plies]).unwrap();
    format_position(game.position())
}

/// What `oxello levels` says level `level` searches at `empties`: `26@95%` for an endgame
/// stage, `20@68%` for the midgame.
fn table_says(table: &str, level: u32, empties: u32) -> String {
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&level.to_string()))
        .unwrap();
    let fields: Vec<&str> = row.split_whitespace().collect();
    for stage in &fields[3..] {
        let (range, sel) = stage.split_once('@').unwrap();
        let (high, low) = range.split_once('-').unwrap();
        let (high, low): (u32, u32) = (high.parse().unwrap(), low.parse().unwrap());
        if (low..=high).contains(&empties) {
            return format!("{empties}@{sel}");
        }
    }
    fields[2].to_string()
}

#[test]
fn protocol_md_prints_the_table_the_binary_prints() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let table = levels_output();
    let start = doc
        .find("\n```levels\n")
        .expect("a ```levels block in protocol.md");
    let block = &doc[start + "\n```levels\n".len()..];
    let block = &block[..block.find("```").unwrap()];
    assert_eq!(block, table);
}

#[test]
fn the_table_grows_with_the_level_and_keeps_edax_rule_up_to_level_10() {
    let mut last_reach = [0u32; 6];
    for n in 1..=MAX_LEVEL {
        let level = Level::new(n).unwrap();
        if n <= 10 {
            assert_eq!(level.exact_empties(), 2 * n, "level {n}");
        }
        // For each selectivity, the most empties searched at it or surer.
        let reach: Vec<u32> = Selectivity::ENDGAME
            .iter()
            .rev()
            .map(|&s| {
                (1..=60)
                    .filter(|&e| matches!(level.plan(e), Plan::Endgame(x) if x >= s))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(reach[0], level.exact_empties(), "level {n}");
        for (i, (&r, &before)) in reach.iter().zip(&last_reach).enumerate() {
            assert!(
                r >= before,
                "level {n}, stage {i}: {reach:?} after {last_reach:?}"
            );
        }
        // Fewer empties are searched at least as surely; beyond the stages, the midgame.
        let mut surest = Selectivity::Exact;
        for e in 1..=60 {
            match level.plan(e) {
                Plan::Endgame(s) => {
                    assert!(s <= surest, "level {n} at {e}");
                    surest = s;
                }
                Plan::Midgame { depth } => {
                    assert_eq!(depth, n);
                    assert!(e > reach[5], "level {n} at {e}");
                }
            }
        }
        last_reach.copy_from_slice(&reach);
    }
    assert_eq!(Level::new(60).unwrap().exact_empties(), 60);
}

#[test]
fn analyze_searches_what_the_table_says() {
    let table = levels_output();
    // (level, game, plies): 38, 34, 32, 30, 24 and 20 empties.
    for (level, game, plies) in [
        (8, 3, 22),
        (12, 5, 26),
        (20, 7, 28),
        (20, 9, 30),
        (16, 11, 36),
        (12, 13, 40),
    ] {
        let position = wthor_position(game, plies);
        let empties = 60 - plies as u32;
        let out = common::run(&[
            "analyze",
            &position,
            "--depth",
            &level.to_string(),
            "--threads",
            "2",
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        let best = stdout.lines().last().unwrap();
        let want = table_says(&table, level, empties);
        assert!(
            best.contains(&format!(" depth {want} ")),
            "level {level}, {empties} empties: {want}: {best}"
        );
        let last_info = stdout
            .lines()
            .rev()
            .find(|l| l.starts_with("info "))
            .unwrap();
        let kind = last_info.split_whitespace().nth(3).unwrap();
        let expected_kind = if want.ends_with("@68%") {
            "line"
        } else if want.ends_with("@100%") {
            "exact"
        } else {
            "endgame"
        };
        assert_eq!(kind, expected_kind, "{last_info}");
    }
}

#[test]
fn analyze_at_level_22_from_38_empties_ends() {
    let position = wthor_position(1, 22);
    let started = Instant::now();
    let out = common::run(&["analyze", &position, "--depth", "22", "--threads", "2"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.lines().last().unwrap().contains(" depth 22@68% "),
        "{stdout}"
    );
    eprintln!(
        "level 22 at 38 empties: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn levels_outside_0_to_60_are_refused_everywhere() {
    for bad in ["61", "1000", "4294967295", "x"] {
        for args in [
            vec!["--depth", bad],
            vec!["-l", bad],
            vec!["analyze", "x", "--depth", bad],
        ] {
            let out = common::run(&args);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(
                text(&out.stderr).contains("expected a whole number from 0"),
                "{args:?}"
            );
        }
        let mut gtp = common::Gtp::start();
        assert!(gtp
            .err(&format!("oxello-depth {bad}"))
            .contains("expected a level 0..60"));
        let mut nboard = NBoard::start(&[]);
        nboard.send("nboard 2");
        nboard.send(&format!("set depth {bad}"));
        let lines = nboard.ping(1);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("status ignored:") && l.contains("level 1-60")),
            "{lines:?}"
        );
        assert!(
            lines.iter().all(|l| !l.starts_with("set myname Oxello6")),
            "{lines:?}"
        );
    }
    for good in ["0", "1", "60"] {
        let mut gtp = common::Gtp::start_with(&["--depth", good]);
        gtp.ok(&format!("oxello-depth {good}"));
    }
}

#[test]
fn nboard_level_20_answers_from_40_empties_with_selectivity() {
    let games = common::data("wthor_2024_2025_transcripts.txt");
    let transcript = games
        .lines()
        .filter(|l| !l.starts_with('#'))
        .nth(4)
        .unwrap();
    let (game, _) = ggf(transcript.split_whitespace().nth(2).unwrap(), 20);
    let mut e = NBoard::start(&["--threads", "2"]);
    e.send("nboard 2");
    e.send(&format!("set game {game}"));
    e.send("set depth 20");
    let answered = e.ping(1);
    assert_eq!(
        answered[answered.len() - 2..],
        ["set myname Oxello20", "pong 1"]
    );
    let started = Instant::now();
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert!(started.elapsed() < Duration::from_secs(600));
    let statuses: Vec<&String> = lines.iter().filter(|l| l.starts_with("status ")).collect();
    assert!(
        statuses.last().unwrap().starts_with("status depth 20@68% "),
        "{lines:?}"
    );
    e.send("hint 1");
    let hints = e.until(|l| l.starts_with("search ") && l.contains(" 0 20@68%"));
    assert!(
        hints
            .iter()
            .all(|l| !l.starts_with("search ") || l.contains('@')),
        "{hints:?}"
    );
    e.finish();
}

#[test]
fn the_peers_command_line_words_start_the_right_protocol() {
    // NBoard without its hello line, at level 5 and without the book: every iteration up to 5.
    let mut e = NBoard::start(&["-nboard", "-l", "5", "-nobook", "--threads", "1"]);
    assert_eq!(e.ping(1), ["pong 1"]);
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    let statuses: Vec<&String> = lines.iter().filter(|l| l.starts_with("status ")).collect();
    assert_eq!(statuses.len(), 5, "{lines:?}");
    assert!(statuses[4].starts_with("status depth 5@68% "), "{lines:?}");
    e.finish();
    // GTP, with the level and without the book.
    let mut gtp = common::Gtp::start_with(&["-gtp", "-level", "3", "-nobook"]);
    assert_eq!(gtp.ok("protocol_version"), "2");
    assert_eq!(gtp.ok("oxello-book off"), "");
    let mv = gtp.ok("genmove b");
    assert!(["D3", "C4", "F5", "E6"].contains(&mv.as_str()), "{mv}");
    // Listed in the help.
    let help = text(&common::run(&["--help"]).stdout);
    for word in ["-gtp", "-nboard", "-l N", "-nobook"] {
        assert!(help.contains(word), "{word}: {help}");
    }
}
