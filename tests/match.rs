//! `oxello match`: a short self-play match checked game by game, and broken engines that
//! must lose with the right reason while the match still completes.

use crate::common;

use oxello::engine::board::Color;
use oxello::engine::game::Game;
use oxello::engine::notation::parse_square;
use std::process::Command;

fn run_match(args: &[&str]) -> String {
    run_match_with_env(args, &[])
}

fn run_match_with_env(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(common::bin())
        .arg("match")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run oxello match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A GGF property's value: `tag[value]`.
fn property<'a>(record: &'a str, tag: &str) -> &'a str {
    let start = record
        .find(&format!("{tag}["))
        .unwrap_or_else(|| panic!("no {tag} in {record}"))
        + tag.len()
        + 1;
    &record[start..start + record[start..].find(']').unwrap()]
}

/// The moves of a GGF record: (colour, square or None for a pass).
fn ggf_moves(record: &str) -> Vec<(Color, Option<u32>)> {
    let body = &record[record.find("BO[").unwrap()..];
    let mut moves = Vec::new();
    for part in body.split(']').skip(1) {
        let (tag, value) = match part.split_once('[') {
            Some(t) => t,
            None => continue,
        };
        let colour = match tag {
            "B" => Color::Black,
            "W" => Color::White,
            _ => continue,
        };
        let mv = value.split('/').next().unwrap();
        moves.push((
            colour,
            if mv == "PA" {
                None
            } else {
                Some(parse_square(mv).unwrap())
            },
        ));
    }
    moves
}

#[test]
fn self_play_match_records_replay_and_colours_swap() {
    let dir = tempfile::tempdir().unwrap();
    let ggf = dir.path().join("match.ggf");
    let engine = format!("{} --depth 3 --hash 4", common::bin());
    let json = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--name",
        "one",
        "--name",
        "two",
        "--openings",
        &common::repo_path("tests/data/openings-8.txt"),
        "--games",
        "8",
        "--concurrency",
        "2",
        "--ggf-out",
        ggf.to_str().unwrap(),
        "--json",
    ]);
    assert!(json.contains("\"games\":8"), "{json}");
    assert!(json.contains("\"forfeits\":[]"), "{json}");
    let text = std::fs::read_to_string(&ggf).unwrap();
    let records: Vec<&str> = text.lines().collect();
    assert_eq!(records.len(), 8);
    let openings: Vec<String> = common::data("openings-8.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.trim().to_string())
        .collect();
    for (i, record) in records.iter().enumerate() {
        // Replay with the runner's colours; every pass must be forced.
        let mut game = Game::default();
        for (colour, mv) in ggf_moves(record) {
            match mv {
                Some(sq) => {
                    assert_eq!(game.next_to_play(), Some(colour), "game {i}: wrong side");
                    if game.position().side != colour {
                        panic!("game {i}: an implied pass was not recorded");
                    }
                    game.play(colour, sq)
                        .unwrap_or_else(|_| panic!("game {i}: illegal move"));
                }
                None => game
                    .pass(colour)
                    .unwrap_or_else(|_| panic!("game {i}: a pass with moves")),
            }
        }
        assert!(game.is_over(), "game {i} unfinished");
        let re: f64 = property(record, "RE").parse().unwrap();
        assert_eq!(re as i32, game.position().black_final_score(), "game {i}");
        // Games 2k and 2k+1 play opening k, with colours swapped.
        let transcript: String = game
            .moves()
            .iter()
            .map(|&m| oxello::engine::notation::square_name(m))
            .collect();
        assert!(
            transcript.starts_with(&openings[i / 2]),
            "game {i} did not start with its opening"
        );
        if i % 2 == 1 {
            let prev = records[i - 1];
            assert_eq!(property(record, "PB"), property(prev, "PW"));
            assert_eq!(property(record, "PW"), property(prev, "PB"));
        }
    }
}

fn broken_match(script: &str, extra: &[&str]) -> String {
    broken_match_with_env(script, extra, &[])
}

fn broken_match_with_env(script: &str, extra: &[&str], env: &[(&str, &str)]) -> String {
    let good = format!("{} --depth 1 --hash 1", common::bin());
    let bad = common::repo_path(&format!("tests/engines/{script}"));
    let mut args = vec![
        "--engine", &good, "--engine", &bad, "--name", "good", "--name", "bad", "--games", "2",
        "--json",
    ];
    args.extend_from_slice(extra);
    run_match_with_env(&args, env)
}

fn assert_lost_both(json: &str, reason: &str) {
    assert!(json.contains("\"wins\":2"), "{json}");
    assert!(
        json.contains(&format!(
            "{{\"engine\":\"bad\",\"reason\":\"{reason}\",\"games\":2}}"
        )),
        "expected two '{reason}' forfeits: {json}"
    );
}

#[test]
fn an_illegal_move_loses() {
    assert_lost_both(&broken_match("illegal-move.sh", &[]), "illegal move");
}

#[test]
fn a_pass_with_legal_moves_loses() {
    assert_lost_both(&broken_match("false-pass.sh", &[]), "pass with legal moves");
}

#[test]
fn a_malformed_move_loses() {
    assert_lost_both(&broken_match("malformed.sh", &[]), "malformed reply");
}

#[test]
fn an_engine_that_exits_loses_and_is_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("exits.log");
    let log_path = log.to_str().unwrap();
    assert_lost_both(
        &broken_match_with_env("exits.sh", &[], &[("BROKEN_LOG", log_path)]),
        "crashed",
    );
    let starts = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count();
    // Once for the set-up check, then once for each game.
    assert_eq!(
        starts, 3,
        "the engine was not restarted for the second game"
    );
}

#[test]
fn an_engine_that_never_answers_loses() {
    assert_lost_both(
        &broken_match("silent.sh", &["--move-timeout", "1"]),
        "no answer",
    );
    // With a clock, silence is a loss on time.
    assert_lost_both(
        &broken_match("silent.sh", &["--time-per-move", "0.5"]),
        "out of time",
    );
}

#[test]
fn random_openings_and_text_summary() {
    let engine = format!("{} --depth 1 --hash 1", common::bin());
    let text = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "4",
        "--seed",
        "7",
        "--random-plies",
        "6",
    ]);
    // Named by their GTP `name`, told apart.
    assert!(text.contains("Oxello#1 vs Oxello#2: 4 games"), "{text}");
    assert!(
        text.contains("thinking time per game of Oxello#2: mean "),
        "{text}"
    );
    assert!(text.contains("W-D-L"), "{text}");
    assert!(text.contains("forfeits: none"), "{text}");
}

#[test]
fn bad_arguments_fail_cleanly() {
    let out = Command::new(common::bin())
        .args(["match", "--engine", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = Command::new(common::bin())
        .args([
            "match",
            "--engine",
            "a",
            "--engine",
            "b",
            "--openings",
            "/nonexistent",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_missing_engine_is_a_setup_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let ggf = dir.path().join("missing.ggf");
    let out = Command::new(common::bin())
        .args([
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            common::bin(),
        ])
        .args(["--ggf-out", ggf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("engine 1 ('/nonexistent/engine')") && err.contains("exited before"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no summary: no game was played");
    assert!(!ggf.exists(), "no game record");
    // The second engine is named when it is the missing one.
    let out = Command::new(common::bin())
        .args([
            "match",
            "--engine",
            common::bin(),
            "--engine",
            "/nonexistent/other",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine 2"));
}

#[test]
fn an_illegal_opening_is_a_setup_error_before_any_engine_starts() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    // Line 3: after f5 d6, c3 is legal but d6 is taken.
    std::fs::write(&openings, "# two openings\nf5d6c3d3\nf5d6d6\n").unwrap();
    let (log, ggf) = (dir.path().join("starts.log"), dir.path().join("games.ggf"));
    let engine = common::repo_path("tests/engines/exits.sh");
    let out = Command::new(common::bin())
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args(["--openings", openings.to_str().unwrap()])
        .args(["--ggf-out", ggf.to_str().unwrap()])
        .env("BROKEN_LOG", &log)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        format!(
            "oxello match: {}: line 3: move 3 (d6): illegal move",
            openings.display()
        )
    );
    assert!(out.stdout.is_empty(), "no summary: no game was played");
    assert!(!ggf.exists(), "no game record");
    assert!(!log.exists(), "an engine was started");
}

/// The lines of the log at `path` that start with `prefix`.
fn sent_lines(path: &std::path::Path, prefix: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(String::from)
        .collect()
}

/// An engine command that logs every command it receives to `log` before oxello reads it.
fn logged_engine(log: &std::path::Path, args: &str) -> String {
    format!("tee -a {} | {} {args}", log.display(), common::bin())
}

#[test]
fn a_clocked_engine_plays_an_unclocked_one_with_whole_second_time_left() {
    let dir = tempfile::tempdir().unwrap();
    let (clocked, unclocked) = (
        dir.path().join("clocked.log"),
        dir.path().join("unclocked.log"),
    );
    let json = run_match(&[
        "--engine",
        &logged_engine(&clocked, ""),
        "--engine",
        &logged_engine(&unclocked, "--depth 2"),
        "--time-control",
        "3+0",
        "--time-control",
        "none",
        "--games",
        "2",
        "--json",
    ]);
    assert!(json.contains("\"forfeits\":[]"), "{json}");
    assert!(json.contains("\"final_clock\":[") && !json.contains("\"final_clock\":[null,null]"));
    let time_left = sent_lines(&clocked, "time_left");
    assert!(!time_left.is_empty());
    for line in time_left {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert!(
            fields[2].parse::<u64>().is_ok(),
            "not whole seconds: {line}"
        );
    }
    let sent = std::fs::read_to_string(&unclocked).unwrap();
    assert!(
        !sent.contains("time_"),
        "the unclocked engine got a clock: {sent}"
    );
}

#[test]
fn more_threads_than_cores_draw_a_warning() {
    let stderr = |engines: [&str; 2], concurrency: &str| {
        let out = Command::new(common::bin())
            .args(["match", "--games", "2", "--concurrency", concurrency])
            .args(["--engine", engines[0], "--engine", engines[1]])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let single = format!("{} --threads 1 --depth 1", common::bin());
    assert!(!stderr([&single, &single], "1").contains("warning"));
    // An oxello without --threads takes every core: two such games at once are too many.
    let every_core = format!("{} --depth 1", common::bin());
    let err = stderr([&every_core, &single], "2");
    assert!(err.contains("warning") && err.contains("exceeds"), "{err}");
}

/// The tests' NBoard engine (tests/engines/nboard-greedy.py) with its arguments.
fn greedy(args: &str) -> String {
    format!(
        "{} {args}",
        common::repo_path("tests/engines/nboard-greedy.py")
    )
}

/// Replays a GGF record by the tests' own rules (tests/common's reference flips): every move
/// by the side to move and legal, every pass written and forced. Answers the squares played
/// in order, the passes, and Black's final disc differential under the WOF rule, or `None`
/// for an unfinished game.
fn replay_by_reference(record: &str) -> (Vec<u32>, usize, Option<i32>) {
    let (mut black, mut white) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
    let (mut side, mut squares, mut passes) = (Color::Black, Vec::new(), 0);
    for (colour, mv) in ggf_moves(record) {
        assert_eq!(colour, side, "a move out of turn in {record}");
        let (me, them) = match side {
            Color::Black => (&mut black, &mut white),
            Color::White => (&mut white, &mut black),
        };
        match mv {
            Some(sq) => {
                let flips = common::reference_flips(*me, *them, sq);
                assert_ne!(flips, 0, "an illegal move in {record}");
                *me |= flips | 1 << sq;
                *them &= !flips;
                squares.push(sq);
            }
            None => {
                assert_eq!(
                    common::reference_moves(*me, *them),
                    0,
                    "a false pass: {record}"
                );
                passes += 1;
            }
        }
        side = side.opposite();
    }
    let over =
        common::reference_moves(black, white) == 0 && common::reference_moves(white, black) == 0;
    let (b, w) = (black.count_ones() as i32, white.count_ones() as i32);
    let empties = 64 - b - w;
    let score = b - w + empties * (b - w).signum();
    (squares, passes, over.then_some(score))
}

/// The numbers of a JSON array `"key":[a,b]`, at each of its occurrences.
fn json_pairs(json: &str, key: &str) -> Vec<[f64; 2]> {
    json.split(&format!("\"{key}\":["))
        .skip(1)
        .map(|rest| {
            let inner = &rest[..rest.find(']').unwrap()];
            let numbers: Vec<f64> = inner.split(',').map(|x| x.parse().unwrap()).collect();
            [numbers[0], numbers[1]]
        })
        .collect()
}

#[test]
fn nboard_engines_play_a_refereed_match_named_as_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let (ggf, log) = (dir.path().join("games.ggf"), dir.path().join("greedy.log"));
    let think = 0.05;
    let oxello = format!("{} --threads 1 --hash 4 nboard", common::bin());
    let json = run_match_with_env(
        &[
            "--engine",
            &oxello,
            "--engine",
            &greedy(&format!("good {think}")),
            "--protocol",
            "nboard",
            "--level",
            "2",
            "--level",
            "3",
            "--openings",
            &common::repo_path("tests/data/openings-8.txt"),
            "--games",
            "6",
            "--ggf-out",
            ggf.to_str().unwrap(),
            "--json",
        ],
        &[("NBOARD_LOG", log.to_str().unwrap())],
    );
    // Named by their `set myname` after `set depth`; the test engine answers `=== ??` to a
    // `set game` that breaks the rules or to input during its search, which would forfeit.
    assert!(
        json.contains("\"engines\":[\"Oxello2\",\"Greedy3\"]"),
        "{json}"
    );
    assert!(
        json.contains("\"games\":6") && json.contains("\"forfeits\":[]"),
        "{json}"
    );
    let openings: Vec<Vec<u32>> = common::data("openings-8.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| oxello::engine::notation::parse_transcript(l.trim()).unwrap())
        .collect();
    let text = std::fs::read_to_string(&ggf).unwrap();
    let records: Vec<&str> = text.lines().collect();
    let thinking = json_pairs(&json, "thinking");
    assert_eq!((records.len(), thinking.len()), (6, 6));
    let mut passes = 0;
    for (i, record) in records.iter().enumerate() {
        let (squares, game_passes, score) = replay_by_reference(record);
        passes += game_passes;
        let score = score.unwrap_or_else(|| panic!("game {i} unfinished: {record}"));
        let re: f64 = property(record, "RE").parse().unwrap();
        assert_eq!(re as i32, score, "game {i}");
        assert!(squares.starts_with(&openings[i / 2]), "game {i}: {record}");
        // Greedy (engine 2) sleeps `think` s before each of its moves: the referee's time
        // for it is at least that, and not absurdly more.
        let greedy_colour = if i % 2 == 0 { "W" } else { "B" };
        let its_moves = ggf_moves(record)
            .iter()
            .skip(8)
            .filter(|(c, mv)| mv.is_some() && (*c == Color::Black) == (greedy_colour == "B"))
            .count() as f64;
        let greedy_time = thinking[i][1];
        assert!(
            greedy_time >= think * its_moves - 0.01 && greedy_time < think * its_moves + 30.0,
            "game {i}: {greedy_time} s for {its_moves} moves"
        );
    }
    assert!(passes > 0, "no game had a pass: PA was not exercised");
    // Greedy's mean and longest time per game are those of the games.
    let per_game = &json[json.find("\"thinking_per_game\":").unwrap()..];
    let greedy_entry = &per_game[per_game.find("},{").unwrap() + 3..];
    let field = |name: &str| -> f64 {
        let rest =
            &greedy_entry[greedy_entry.find(&format!("\"{name}\":")).unwrap() + name.len() + 3..];
        rest[..rest.find([',', '}']).unwrap()].parse().unwrap()
    };
    let times: Vec<f64> = thinking.iter().map(|t| t[1]).collect();
    let mean = times.iter().sum::<f64>() / 6.0;
    let longest = times.iter().copied().fold(0.0, f64::max);
    assert!((field("mean") - mean).abs() < 0.011, "mean {mean}: {json}");
    assert!(
        (field("longest") - longest).abs() < 0.011,
        "longest {longest}: {json}"
    );
    // The test engine saw the greeting, its level, and whole games from the start position.
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(
        sent.starts_with("nboard 2\nset depth 3\nping 1\n"),
        "{sent}"
    );
    let start = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let games: Vec<&str> = sent
        .lines()
        .filter(|l| l.starts_with("set game "))
        .collect();
    assert!(
        !games.is_empty() && games.iter().all(|g| g.contains(start)),
        "{sent}"
    );
    assert!(
        games.iter().any(|g| g.contains("[PA")),
        "no pass sent as PA: {sent}"
    );
}

#[test]
fn a_misbehaving_nboard_engine_loses() {
    let nboard = ["--protocol", "gtp", "--protocol", "nboard", "--level", "1"];
    let bad = |mode: &str| format!("nboard-greedy.py {mode}");
    assert_lost_both(&broken_match(&bad("illegal"), &nboard), "illegal move");
    assert_lost_both(
        &broken_match(&bad("false-pass"), &nboard),
        "pass with legal moves",
    );
    let mut hangs = nboard.to_vec();
    hangs.extend(["--move-timeout", "1"]);
    assert_lost_both(&broken_match(&bad("hangs"), &hangs), "no answer");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dies.log");
    let env = [("NBOARD_LOG", log.to_str().unwrap())];
    assert_lost_both(
        &broken_match_with_env(&bad("dies"), &nboard, &env),
        "crashed",
    );
    // Greeted once for the set-up check, then once for each game: restarted after dying.
    let greetings = std::fs::read_to_string(&log).unwrap();
    assert_eq!(greetings.matches("nboard 2").count(), 3, "{greetings}");
}

#[test]
fn a_clocked_nboard_engine_is_sent_its_clock_and_held_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("greedy.log");
    let env = [("NBOARD_LOG", log.to_str().unwrap())];
    // 0.4 s a move on a 1 s game clock: out of time by its third move.
    let nboard = [
        "--protocol",
        "gtp",
        "--protocol",
        "nboard",
        "--level",
        "1",
        "--time-control",
        "none",
        "--time-control",
        "1+0",
        "--grace",
        "0.1",
    ];
    let json = broken_match_with_env("nboard-greedy.py good 0.4", &nboard, &env);
    assert_lost_both(&json, "out of time");
    let games = sent_lines(&log, "set game ");
    assert!(!games.is_empty());
    assert!(
        games.iter().all(|g| g.contains("RE[?]TI[0:01]")),
        "{games:?}"
    );
}

#[test]
fn an_nboard_engine_needs_a_level() {
    let out = Command::new(common::bin())
        .args(["match", "--engine", "a", "--engine", "b"])
        .args(["--protocol", "gtp", "--protocol", "nboard"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "oxello match: engine 2 speaks NBoard: give its --level N (sent as 'set depth N')"
    );
}
