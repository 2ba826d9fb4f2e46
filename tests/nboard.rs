//! NBoard mode, driven through the binary's stdin/stdout as the NBoard GUI drives it: the
//! recorded traffic, whole games with passes, `ping` during a search, `hint`, `analyze`
//! against a plain minimax, protocol detection, and a flood of malformed lines.

use crate::common;
use crate::common::nboard::{ggf, name, square, NBoard, START_BO};
use crate::common::oracle::Pos;
use crate::common::PATIENCE;
use std::io::Write;
use std::time::Duration;

fn wthor_games() -> Vec<String> {
    common::data("wthor_2024_2025_transcripts.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect()
}

/// The move of a `=== MOVE[/eval/time]` line.
fn answered(lines: &[String]) -> Option<u32> {
    let last = lines.last().unwrap();
    let mv = last.strip_prefix("=== ").expect("a === line");
    square(mv.split('/').next().unwrap())
}

#[test]
fn the_recorded_gui_traffic_gets_the_expected_answers() {
    let mut e = NBoard::start(&[]);
    e.send("nboard 2");
    let hello = e.until(|l| l.starts_with("set myname"));
    assert_eq!(
        hello,
        vec![format!("set myname Oxello {}", env!("CARGO_PKG_VERSION"))]
    );
    let start = format!("set game (;GM[Othello]PC[NBoard]DT[2026-11-30 03:03:52 GMT]PB[]PW[]RE[?]TI[5:00]TY[8]{START_BO};)");
    e.send(&start);
    e.send("set depth 1");
    assert_eq!(e.ping(1), vec!["set myname Oxello1", "pong 1"]);
    e.send("hint 4");
    e.send(&start.replace("PB[]PW[]", "PB[FakeEngine]PW[FakeEngine]"));
    let before_pong = e.ping(2);
    // Whatever the hint streamed first is book or search lines, each opening with a legal move.
    for line in &before_pong[..before_pong.len() - 1] {
        let pv = line
            .strip_prefix("search ")
            .or_else(|| line.strip_prefix("book "));
        let pv = pv.expect("only book and search lines");
        let first = square(&pv[..2]).unwrap();
        assert_ne!(Pos::start().moves() & 1 << first, 0, "{line}");
    }
    // Then, for each move: a ping and a go, again (NBoard re-sends after a new `set game`),
    // and the move sent back.
    let mut pos = Pos::start();
    let mut ping = 3;
    for _ in 0..6 {
        let mut chosen = Vec::new();
        for _ in 0..2 {
            assert_eq!(e.ping(ping), vec![format!("pong {ping}")]);
            ping += 1;
            e.send("go");
            let reply = e.until(|l| l.starts_with("==="));
            let sq = answered(&reply).expect("a move");
            assert_ne!(pos.moves() & 1 << sq, 0, "{reply:?}");
            chosen.push(sq);
        }
        e.send(&format!("move {}", name(Some(chosen[1]))));
        pos.play(Some(chosen[1]));
    }
    // NBoard never sends quit: closing stdin ends the engine, with nothing on stderr.
    assert_eq!(e.finish(), "");
}

#[test]
fn whole_games_with_passes_follow_the_rules() {
    let games = wthor_games();
    let mut passes = 0;
    for (n, transcript) in games.iter().enumerate().step_by(97).take(12) {
        let mut e = NBoard::start(&[]);
        e.send("nboard 2");
        e.send("set depth 3");
        // From 14 empties, where passes are common and the level solves exactly.
        let (game, positions) = ggf(transcript, 46);
        e.send(&format!("set game {game}"));
        let mut pos = *positions.last().unwrap();
        let mut ping = 1;
        while !pos.over() {
            e.ping(ping);
            ping += 1;
            e.send("go");
            let sq = answered(&e.until(|l| l.starts_with("===")));
            if sq.is_none() {
                passes += 1;
            }
            pos.play(sq);
            e.send(&format!("move {}", name(sq)));
        }
        e.ping(ping);
        // At the end there is nothing to play.
        e.send("go");
        let status = e.until(|l| l.starts_with("status"));
        assert!(
            status.last().unwrap().contains("over"),
            "game {n}: {status:?}"
        );
        e.finish();
    }
    assert!(passes > 0, "no game had a pass to test");
}

#[test]
fn ping_stops_a_long_go_at_once_and_nothing_stale_follows() {
    let mut e = NBoard::start(&["--threads", "2"]);
    e.send("nboard 2");
    let (game, _) = ggf(&wthor_games()[3], 20);
    e.send(&format!("set game {game}"));
    e.send("set depth 40");
    e.ping(1);
    e.send("go");
    std::thread::sleep(Duration::from_millis(500));
    // A ping that did not stop the search would come after the depth-40 search's move.
    let seen = e.ping(2);
    assert!(seen.iter().all(|l| !l.starts_with("===")), "{seen:?}");
    let after = e.drain(Duration::from_millis(500));
    assert!(after.is_empty(), "stale output after pong: {after:?}");
    e.finish();
}

#[test]
fn a_malformed_ping_during_a_go_changes_nothing() {
    // The pipe: `nboard 2`, `set depth 16`, `go`, `ping x`, from the start (no book).
    let mut e = NBoard::start(&["--no-book", "--threads", "1"]);
    e.send("nboard 2");
    e.send("set depth 16");
    e.send("go\nping x");
    // The refused ping must not stop the search: its move comes, then the refusal.
    let seen = e.until(|l| l.starts_with("===") || l.starts_with("status ignored"));
    let answer = seen.last().unwrap();
    assert!(
        answer.starts_with("=== "),
        "the go lost its answer: {seen:?}"
    );
    assert!(
        square(answer[4..].split('/').next().unwrap()).is_some(),
        "{answer}"
    );
    let refusal = e.until(|l| l.starts_with("status ignored"));
    assert_eq!(
        refusal,
        ["status ignored: malformed 'ping' command: 'ping x'"]
    );
    // A well-formed one is answered after it.
    assert_eq!(e.ping(5), ["pong 5"]);
    e.finish();
}

#[test]
fn hint_streams_its_lines_depth_by_depth() {
    let mut e = NBoard::start(&["--threads", "1"]);
    e.send("nboard 2");
    let (game, positions) = ggf(&wthor_games()[10], 20);
    let pos = *positions.last().unwrap();
    e.send(&format!("set game {game}"));
    e.send("set depth 6");
    e.ping(1);
    e.send("hint 3");
    let lines = e.until(|l| l.ends_with(" 0 6@68%") && l.starts_with("search"));
    // The third line of depth 6 may come after the first one that ends the wait.
    let mut lines = lines;
    lines.extend(e.ping(2));
    let searches: Vec<(Vec<String>, f64, u32)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("search "))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 4, "{l}");
            assert_eq!(f[2], "0", "{l}");
            let pv = f[0].split('-').map(String::from).collect();
            // The depth with the midgame's selectivity, as Edax and NTest write it.
            let depth = f[3].strip_suffix("@68%").expect("a midgame depth");
            (pv, f[1].parse().unwrap(), depth.parse().unwrap())
        })
        .collect();
    let depths: Vec<u32> = searches.iter().map(|s| s.2).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    for depth in 1..=6 {
        let at: Vec<&(Vec<String>, f64, u32)> = searches.iter().filter(|s| s.2 == depth).collect();
        assert_eq!(at.len(), 3, "depth {depth}: {lines:?}");
        let mut firsts: Vec<u32> = at.iter().map(|s| square(&s.0[0]).unwrap()).collect();
        for &sq in &firsts {
            assert_ne!(pos.moves() & 1 << sq, 0, "{lines:?}");
        }
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "three different moves at depth {depth}");
        assert!(
            at.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first: {at:?}"
        );
    }
    e.finish();
}

#[test]
fn analyze_gives_every_position_and_the_exact_values_at_the_end() {
    let transcript = &wthor_games()[25];
    let (game, positions) = ggf(transcript, 60);
    let mut e = NBoard::start(&["--threads", "1"]);
    e.send("nboard 2");
    e.send(&format!("set game {game}"));
    e.send("set depth 7");
    e.ping(1);
    e.send("analyze");
    let last = positions.len() - 1;
    let lines = e.until(|l| l == "analysis 0" || l.starts_with("analysis 0 "));
    let analysis: Vec<(usize, f64)> = lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f[0], "analysis", "{l}");
            (f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect();
    let numbers: Vec<usize> = analysis.iter().map(|a| a.0).collect();
    assert_eq!(numbers, (0..=last).rev().collect::<Vec<_>>());
    e.finish();

    // The positions of 9 empties or fewer (the level solves them exactly) against the
    // tests' own minimax.
    let mut checked = 0;
    for (i, pos) in positions.iter().enumerate() {
        if (pos.black | pos.white).count_ones() >= 55 {
            let got = analysis.iter().find(|a| a.0 == i).unwrap().1;
            assert_eq!(got, f64::from(pos.minimax()), "position after {i} moves");
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} positions checked");
}

#[test]
fn the_first_line_chooses_the_protocol() {
    let mut gtp = NBoard::start(&[]);
    gtp.send("name");
    assert_eq!(gtp.until(|l| l.is_empty()), vec!["= Oxello", ""]);
    gtp.finish();
    // The explicit subcommand speaks NBoard whatever comes first.
    let mut nb = NBoard::start(&["nboard"]);
    nb.send("ping 5");
    assert_eq!(nb.ping(6), vec!["pong 5", "pong 6"]);
    nb.finish();
}

/// Lines that must each be refused with a status line and change nothing.
fn malformed(i: u64, rng: &mut u64) -> String {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    let r = *rng;
    let (game, _) = ggf("f5d6c3d3c4f4f6f3e6e7", 10);
    match i % 12 {
        0 => format!(
            "move {}",
            ["z9", "a0", "i1", "", "f", "f55", "pass"][(r % 7) as usize]
        ),
        1 => "move PA".into(), // black has moves at the tested position
        2 => format!(
            "move {}",
            name(Some([0u32, 7, 63, 56, 27][(r % 5) as usize]))
        ),
        3 => format!(
            "set depth {}",
            ["0", "61", "-3", "x", "99999999999"][(r % 5) as usize]
        ),
        4 => game[..(r as usize % game.len())]
            .to_string()
            .replacen("(;", "set game (;", 1),
        5 => format!("set game {}", game.replace("d6", "a1")),
        6 => format!("set game {}", game.replace("BO[8 ", "BO[7 ")),
        7 => format!("ping {}", ["x", "-1", "", "1.5"][(r % 4) as usize]),
        8 => format!("hint {}", ["0", "33", "x"][(r % 3) as usize]),
        9 => {
            (0..(r % 40))
                .map(|k| (b' ' + ((r >> (k % 50)) % 95) as u8) as char)
                .collect::<String>()
                + "\u{0}\u{fffd}"
        }
        10 => format!(
            "{}{}",
            ["gox", "GO", "set", "nboardx", "analyse"][(r % 5) as usize],
            r % 3
        ),
        _ => format!("set contemptx {r}"),
    }
}

#[test]
fn a_flood_of_malformed_lines_leaves_the_game_intact() {
    let mut e = NBoard::start(&["--threads", "1"]);
    e.send("nboard 2");
    e.until(|l| l.starts_with("set myname"));
    let (game, positions) = ggf("f5d6c3d3c4f4", 6);
    let pos = *positions.last().unwrap();
    e.send(&format!("set game {game}"));
    e.send("set depth 2");
    e.ping(1);
    let count = 100_000u64;
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut sent = Vec::with_capacity(count as usize);
    let stdin = e.stdin.as_mut().unwrap();
    let lines: Vec<String> = (0..count).map(|i| malformed(i, &mut rng)).collect();
    let reader = {
        let rx = e.lines.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            while let Ok(line) = rx.recv_timeout(PATIENCE) {
                let end = line == "pong 2";
                got.push(line);
                if end {
                    break;
                }
            }
            got
        })
    };
    for line in &lines {
        writeln!(stdin, "{line}").unwrap();
        sent.push(line.len());
    }
    // Two overlong lines as well.
    writeln!(stdin, "move {}", "x".repeat(70_000)).unwrap();
    writeln!(stdin, "set game {}", "(".repeat(100_000)).unwrap();
    writeln!(stdin, "ping 2").unwrap();
    stdin.flush().unwrap();
    let got = reader.join().unwrap();
    let statuses = got.iter().filter(|l| l.starts_with("status")).count();
    // Every refused line gets its status line (empty lines are skipped silently).
    let blank = lines.iter().filter(|l| l.trim().is_empty()).count();
    assert_eq!(statuses as u64 + blank as u64, count + 2, "{:?}", &got[..5]);
    assert!(got.iter().all(|l| l.starts_with("status") || l == "pong 2"));
    // The game is still the one set: analyze numbers its positions from its last move, and
    // the engine's move is legal there.
    e.send("go");
    let sq = answered(&e.until(|l| l.starts_with("===")));
    assert_ne!(pos.moves() & 1 << sq.unwrap(), 0);
    e.ping(3);
    e.send("analyze");
    let first = e.until(|l| l.starts_with("analysis"));
    assert!(
        first.last().unwrap().starts_with("analysis 6 "),
        "{first:?}"
    );
    e.ping(4);
    assert_eq!(e.finish(), "");
}
