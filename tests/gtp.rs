//! The GTP front end, driven through the binary's stdin/stdout with controller transcripts.

use crate::common;

use crate::common::{data, Gtp};
use oxello::engine::board::Color;
use oxello::engine::game::Game;
use oxello::engine::notation::{parse_square, parse_transcript, square_name};
use std::time::{Duration, Instant};

/// Quarry's opening traffic, as logged between Quarry 0.2.0 and gtp-rhino.
#[test]
fn quarry_handshake_and_game_start() {
    let mut gtp = Gtp::start();
    // Quarry pipelines the first four commands without waiting.
    gtp.send("protocol_version");
    gtp.send("name");
    gtp.send("version");
    gtp.send("list_commands");
    assert_eq!(gtp.response().text, "2");
    assert_eq!(gtp.response().text, "Oxello");
    assert_eq!(gtp.response().text, env!("CARGO_PKG_VERSION"));
    let commands = gtp.response();
    assert!(commands.ok);
    let names: Vec<&str> = commands.text.lines().collect();
    for needed in [
        "list_games",
        "set_game",
        "genmove",
        "play",
        "time_settings",
        "time_left",
        "quit",
        "undo",
    ] {
        assert!(
            names.contains(&needed),
            "{needed} missing from list_commands"
        );
    }
    assert_eq!(gtp.ok("list_games"), "Othello");
    assert_eq!(gtp.ok("set_game Othello"), "");
    assert_eq!(gtp.ok("boardsize 8"), "");
    assert_eq!(gtp.ok("clear_board"), "");
    assert_eq!(gtp.ok("time_settings 0 15 1"), "");
    // Quarry pipelines time_left and genmove.
    gtp.send("time_left black 15 1");
    gtp.send("genmove black");
    assert_eq!(gtp.response().text, "");
    let first = gtp.response().text;
    assert!(
        ["D3", "C4", "F5", "E6"].contains(&first.as_str()),
        "{first}"
    );
    // The other engine's reply arrives as play, then our next turn.
    let mut game = Game::default();
    game.play(Color::Black, parse_square(&first).unwrap())
        .unwrap();
    let reply = oxello::engine::board::Squares(game.position().board.moves())
        .next()
        .unwrap();
    gtp.send(&format!("play white {}", square_name(reply).to_uppercase()));
    gtp.send("time_left black 14 1");
    gtp.send("genmove black");
    assert_eq!(gtp.response().text, "");
    assert_eq!(gtp.response().text, "");
    game.play(Color::White, reply).unwrap();
    let second = gtp.response().text;
    assert_eq!(second, second.to_uppercase());
    game.play(Color::Black, parse_square(&second).unwrap())
        .expect("engine played an illegal move");
}

#[test]
fn ids_comments_carriage_returns_and_tabs() {
    let mut gtp = Gtp::start();
    gtp.send_raw(b"7 name\r\n");
    let r = gtp.response();
    assert_eq!((r.id.as_deref(), r.text.as_str()), (Some("7"), "Oxello"));
    gtp.send_raw(b"\tname\t# a comment\n");
    let r = gtp.response();
    assert_eq!((r.id, r.text.as_str()), (None, "Oxello"));
    // Blank and comment-only lines get no response at all.
    gtp.send_raw(b"\n   \n# just a comment\n\t\r\n");
    assert!(gtp.silent_for(Duration::from_millis(300)));
    gtp.send_raw(b"12\tprotocol_version\n");
    let r = gtp.response();
    assert_eq!((r.id.as_deref(), r.text.as_str()), (Some("12"), "2"));
    // An id on a failure too, and no id added when there was none.
    let r = gtp.ask("8 frobnicate");
    assert_eq!(
        (r.ok, r.id.as_deref(), r.text.as_str()),
        (false, Some("8"), "unknown command")
    );
    let r = gtp.ask("frobnicate");
    assert_eq!(r.id, None);
}

#[test]
fn every_error_message() {
    let mut gtp = Gtp::start();
    assert_eq!(gtp.err("frobnicate"), "unknown command");
    assert!(gtp.err("play purple d3").starts_with("syntax error"));
    assert!(gtp.err("play black z9").starts_with("syntax error"));
    assert!(gtp.err("play black").starts_with("syntax error"));
    assert!(gtp.err("play black d3 e3").starts_with("syntax error"));
    assert!(gtp.err("genmove").starts_with("syntax error"));
    assert!(gtp
        .err("boardsize 99999999999999999999999999")
        .starts_with("syntax error"));
    assert!(gtp.err("boardsize eight").starts_with("syntax error"));
    assert!(gtp.err("komi lots").starts_with("syntax error"));
    assert!(gtp.err("time_settings 1 2").starts_with("syntax error"));
    assert!(gtp.err("time_left black -5 0").starts_with("syntax error"));
    assert!(gtp.err("setboard XXXX X").starts_with("syntax error"));
    assert!(gtp.err("known_command").starts_with("syntax error"));
    assert!(gtp.err("42").starts_with("syntax error"));
    assert_eq!(gtp.err("boardsize 19"), "unacceptable size");
    assert_eq!(gtp.err("play black a1"), "illegal move");
    assert_eq!(gtp.err("play white d3"), "illegal move");
    assert_eq!(gtp.err("play black pass"), "illegal move");
    assert_eq!(gtp.err("undo"), "cannot undo");
    assert_eq!(gtp.err("final_score"), "cannot score");
    assert_eq!(gtp.err("set_game Go"), "unsupported game");
    assert!(gtp.err("genmove white").starts_with("illegal move"));
    assert_eq!(gtp.ok("known_command frobnicate"), "false");
    assert_eq!(gtp.ok("known_command genmove"), "true");
    // None of this changed the game: black still has its four opening moves.
    assert_eq!(gtp.ok("play BLACK D3"), "");
}

#[test]
fn a_failed_boardsize_keeps_the_game() {
    let mut gtp = Gtp::start();
    gtp.ok("play b f5");
    let before = gtp.ok("showboard");
    gtp.err("boardsize 10");
    assert_eq!(gtp.ok("showboard"), before);
    gtp.ok("undo");
}

#[test]
fn showboard_puts_row_1_on_top() {
    let mut gtp = Gtp::start();
    gtp.ok("play black d3");
    let board = gtp.ok("showboard");
    let rows: Vec<&str> = board.lines().collect();
    assert_eq!(rows[1], "  A B C D E F G H");
    assert_eq!(rows[4], "3 - - . X . - - - 3");
    assert_eq!(rows[5], "4 - - - X X - - - 4");
    assert_eq!(rows[6], "5 - - . X O - - - 5");
}

/// The first WTHOR game whose transcript has a pass: (moves, colours, index of the move after
/// it, the recorded final_score).
fn game_with_pass() -> (Vec<u32>, Vec<Color>, usize, String) {
    for line in data("wthor_2024_2025_transcripts.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let moves = parse_transcript(line.split_whitespace().nth(2).unwrap()).unwrap();
        let mut game = Game::default();
        let mut colours = Vec::new();
        let mut pass_at = None;
        for (i, &m) in moves.iter().enumerate() {
            let c = game.next_to_play().unwrap();
            if c != game.position().side && pass_at.is_none() {
                pass_at = Some(i);
            }
            colours.push(c);
            game.play(c, m).unwrap();
        }
        if let Some(p) = pass_at {
            let diff = 2 * line
                .split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<i32>()
                .unwrap()
                - 64;
            let score = match diff.signum() {
                1 => format!("B+{diff}"),
                -1 => format!("W+{}", -diff),
                _ => "0".to_string(),
            };
            return (moves, colours, p, score);
        }
    }
    panic!("no game with a pass");
}

/// Plays `moves` into the engine, move `i` by `colours[i]`.
fn play_moves(gtp: &mut Gtp, moves: &[u32], colours: &[Color]) {
    for (&m, &c) in moves.iter().zip(colours) {
        gtp.ok(&format!("play {} {}", c.name(), square_name(m)));
    }
}

#[test]
fn implied_and_explicit_passes() {
    let (moves, colours, pass_at, score) = game_with_pass();
    let passer = colours[pass_at].opposite();
    for explicit in [false, true] {
        let mut gtp = Gtp::start();
        play_moves(&mut gtp, &moves[..pass_at], &colours);
        // The side that must pass cannot be made to play, and is told to pass.
        assert!(
            !gtp.ask(&format!("play {} pass", colours[pass_at].name()))
                .ok
        );
        assert_eq!(gtp.ok(&format!("reg_genmove {}", passer.name())), "pass");
        if explicit {
            gtp.ok(&format!("play {} pass", passer.name()));
        }
        // Implied: the same colour simply plays twice in a row.
        gtp.ok(&format!(
            "play {} {}",
            colours[pass_at].name(),
            square_name(moves[pass_at])
        ));
        play_moves(&mut gtp, &moves[pass_at + 1..], &colours[pass_at + 1..]);
        assert_eq!(gtp.ok("final_score"), score);
        assert_eq!(gtp.ok("genmove black"), "pass");
        assert_eq!(gtp.ok("genmove white"), "pass");
    }
}

#[test]
fn genmove_passes_for_a_side_that_cannot_move_and_the_game_goes_on() {
    let (moves, colours, pass_at, _) = game_with_pass();
    let passer = colours[pass_at].opposite();
    let mut gtp = Gtp::start();
    play_moves(&mut gtp, &moves[..pass_at], &colours);
    assert_eq!(gtp.ok(&format!("genmove {}", passer.name())), "pass");
    // The pass was recorded: the other side now plays, and undo takes the pass back.
    let mover = colours[pass_at].name();
    let reply = gtp.ok(&format!("genmove {mover}"));
    assert_ne!(reply, "pass");
    gtp.ok("undo");
    gtp.ok("undo");
    assert_eq!(gtp.ok(&format!("reg_genmove {}", passer.name())), "pass");
}

#[test]
fn final_scores_of_replayed_tournament_games() {
    let text = data("wthor_2024_2025_transcripts.txt");
    let mut gtp = Gtp::start();
    let games: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(500)
        .collect();
    for line in games {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let black: i32 = fields[1].parse().unwrap();
        gtp.ok("clear_board");
        let mut game = Game::default();
        for m in parse_transcript(fields[2]).unwrap() {
            let c = game.next_to_play().unwrap();
            game.play(c, m).unwrap();
            gtp.ok(&format!("play {} {}", c.name(), square_name(m)));
        }
        let diff = 2 * black - 64;
        let expected = match diff.signum() {
            1 => format!("B+{diff}"),
            -1 => format!("W+{}", -diff),
            _ => "0".to_string(),
        };
        assert_eq!(gtp.ok("final_score"), expected, "{line}");
        gtp.ok("komi 0.5");
        let with_komi = f64::from(diff) - 0.5;
        let expected = if with_komi > 0.0 {
            format!("B+{with_komi:.1}")
        } else {
            format!("W+{:.1}", -with_komi)
        };
        assert_eq!(gtp.ok("final_score"), expected);
        gtp.ok("komi 0");
    }
}

#[test]
fn undo_takes_moves_back_one_at_a_time() {
    let mut gtp = Gtp::start();
    let start = gtp.ok("showboard");
    gtp.ok("play black f5");
    let after_one = gtp.ok("showboard");
    gtp.ok("play white d6");
    gtp.ok("undo");
    assert_eq!(gtp.ok("showboard"), after_one);
    gtp.ok("undo");
    assert_eq!(gtp.ok("showboard"), start);
    assert_eq!(gtp.err("undo"), "cannot undo");
}

#[test]
fn setboard_sets_any_position_and_restarts_the_record() {
    let mut gtp = Gtp::start();
    gtp.ok("play black f5");
    // FFO #1, black to move: G8 is the best move (+18).
    gtp.ok("setboard --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
    assert_eq!(gtp.err("undo"), "cannot undo");
    assert_eq!(gtp.ok("solve"), "G8 +18");
    assert!(gtp.ok("eval").parse::<f64>().is_ok());
}

#[test]
fn perft_from_the_current_position() {
    let mut gtp = Gtp::start();
    assert_eq!(gtp.ok("perft 8"), "390216");
    gtp.ok("play black f5");
    // After f5 the tree is a quarter of the start's, by symmetry.
    assert_eq!(gtp.ok("perft 8"), (3005288 / 4).to_string());
    assert!(gtp.err("perft 0").starts_with("syntax error"));
    assert!(gtp.err("perft 40").starts_with("syntax error"));
}

#[test]
fn analyze_streams_lines_and_ends_with_a_normal_response() {
    let mut gtp = Gtp::start();
    gtp.send("3 analyze 2 3");
    let r = gtp.response();
    assert!(r.ok);
    assert_eq!(r.id.as_deref(), Some("3"));
    let lines: Vec<&str> = r.text.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        lines.iter().filter(|l| l.starts_with("info depth")).count() >= 4,
        "{}",
        r.text
    );
    assert!(lines.iter().any(|l| l.contains(" line 2 ")));
    assert!(lines.last().unwrap().starts_with("best "), "{}", r.text);
    assert_eq!(gtp.ok("name"), "Oxello");
}

#[test]
fn stop_ends_an_open_analysis() {
    let mut gtp = Gtp::start();
    gtp.send("analyze");
    std::thread::sleep(Duration::from_millis(500));
    gtp.send("stop");
    let r = gtp.response();
    assert!(r.text.lines().last().unwrap().starts_with("best "));
    assert_eq!(gtp.response().text, "");
}

#[test]
fn quit_answers_and_exits() {
    let mut gtp = Gtp::start();
    gtp.send("quit");
    gtp.send("name");
    assert!(gtp.response().ok);
    assert_eq!(gtp.wait_exit(Duration::from_secs(10)), Some(0));
}

#[test]
fn end_of_input_in_the_middle_of_a_genmove_lets_it_think_and_answer() {
    let mut gtp = Gtp::start_with(&["--no-book", "--move-time", "1"]);
    gtp.send("genmove black");
    let asked = Instant::now();
    std::thread::sleep(Duration::from_millis(300));
    gtp.close_stdin();
    let response = gtp.response();
    let thought = asked.elapsed();
    assert!(response.ok, "{}", response.text);
    let reply = response.text;
    assert!(
        ["D3", "C4", "F5", "E6"].contains(&reply.as_str()),
        "{reply}"
    );
    // The whole second of --move-time (less a little: the soft deadline is 80% of it).
    assert!(
        thought >= Duration::from_millis(800),
        "answered after {thought:?}"
    );
    assert_eq!(gtp.wait_exit(Duration::from_secs(10)), Some(0));
}

#[test]
fn fixed_depth_genmove_is_deterministic() {
    let mut a = Gtp::start();
    let mut b = Gtp::start();
    for gtp in [&mut a, &mut b] {
        gtp.ok("oxello-depth 6");
        gtp.ok("play black f5");
    }
    assert_eq!(a.ok("genmove white"), b.ok("genmove white"));
}

/// The most a move at 1 s per move may take: the engine's budget plus the controller's and
/// the machine's lag; a move that ignored the clock would take longer.
const ONE_SECOND_MOVE_BOUND: Duration = Duration::from_secs(2);

/// A whole game of the engine against itself at 1 s per move: every move legal and within
/// the clock, to the end, and `final_score` gives the game's exact margin. A real clock on a
/// machine shared with other tests: in the `--ignored` tier, which `.ci/run` runs alone.
#[test]
#[ignore = "a whole game at a real clock: run with --ignored"]
fn self_play_at_one_second_per_move() {
    let mut gtp = Gtp::start();
    gtp.ok("time_settings 0 1 1");
    let mut game = Game::default();
    let mut slowest = Duration::ZERO;
    while let Some(c) = game.next_to_play() {
        gtp.ok(&format!("time_left {} 1 1", c.name()));
        let asked = Instant::now();
        let mv = gtp.ok(&format!("genmove {}", c.name()));
        slowest = slowest.max(asked.elapsed());
        let sq = parse_square(&mv).unwrap_or_else(|_| panic!("not a move: {mv}"));
        game.play(c, sq)
            .unwrap_or_else(|_| panic!("illegal move {mv}"));
    }
    assert!(game.is_over());
    eprintln!(
        "self-play at 1 s/move: slowest move {slowest:?}, moves {}",
        game.moves().len()
    );
    assert!(slowest < ONE_SECOND_MOVE_BOUND, "a move took {slowest:?}");
    let black = game.position().black_final_score();
    let expected = match black.signum() {
        1 => format!("B+{black}"),
        -1 => format!("W+{}", -black),
        _ => "0".to_string(),
    };
    assert_eq!(gtp.ok("final_score"), expected);
}

#[test]
fn oxello_threads_sets_the_threads_of_later_searches() {
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    assert_eq!(gtp.ok("known_command oxello-threads"), "true");
    for bad in [
        "oxello-threads 0",
        "oxello-threads 257",
        "oxello-threads two",
    ] {
        assert!(gtp.err(bad).starts_with("syntax error"), "{bad}");
    }
    gtp.ok("oxello-threads 2");
    // An exact solve on two threads: FFO #1 (14 empties), value +18, best move G8.
    gtp.ok("setboard --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
    assert_eq!(gtp.ok("solve"), "G8 +18");
}

#[test]
fn a_start_up_move_time_that_is_not_seconds_is_refused() {
    for bad in ["-1", "nan", "inf", "86401", "soon"] {
        let out = common::engine_command(&["--move-time", bad], None)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert!(!out.status.success(), "--move-time {bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("expected seconds from 0 to 86400"),
            "{bad}: {stderr}"
        );
    }
}
