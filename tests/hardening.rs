//! Issue #49's repros, through the binary: a Unicode letter that folds to ASCII (U+212A
//! KELVIN SIGN) no longer panics GTP, NBoard escapes the control characters it quotes, wrong
//! option values are refused (exit 2, one message) where they were clamped or taken, `train`
//! writes no diverged weights, a killed writer's temporary file is removed by the next run,
//! and `stop` ends a GTP `perft`.

use crate::common;

use crate::common::nboard::NBoard;
use crate::common::{run, Gtp};
use std::path::Path;
use std::time::Duration;

const KELVIN_BLACK: &str = "blac\u{212A}";

#[test]
fn a_colour_with_a_kelvin_sign_is_a_syntax_error_not_a_panic() {
    let mut gtp = Gtp::start();
    for command in ["play", "genmove", "reg_genmove", "time_left"] {
        let args = match command {
            "play" => " d3",
            "time_left" => " 10 0",
            _ => "",
        };
        let error = gtp.err(&format!("{command} {KELVIN_BLACK}{args}"));
        assert_eq!(
            error,
            format!("syntax error: expected a color, got '{KELVIN_BLACK}'")
        );
    }
    assert!(gtp.err("play \u{212A} d3").starts_with("syntax error"));
    assert_eq!(gtp.ok("play BLACK d3"), "");
    gtp.close_stdin();
    assert_eq!(gtp.wait_exit(common::PATIENCE), Some(0));
}

#[test]
fn a_kelvin_sign_read_during_an_analysis_leaves_its_stream_whole() {
    let mut gtp = Gtp::start();
    gtp.send("analyze 1 60");
    gtp.send(&format!("play {KELVIN_BLACK} d3"));
    gtp.send("stop");
    let analysis = gtp.response();
    assert!(
        analysis.ok && analysis.text.contains("\nbest "),
        "{analysis:?}"
    );
    assert!(gtp
        .response()
        .text
        .starts_with("syntax error: expected a color"));
    assert_eq!(gtp.response().text, "");
    assert_eq!(gtp.ok("name"), "Oxello");
}

#[test]
fn nboard_quotes_control_characters_escaped_on_one_line() {
    let mut nboard = NBoard::start(&[]);
    nboard.send("nboard 2");
    nboard.send_raw(b"move d3\rx\n");
    nboard.send_raw(b"foo\x07bar\x1b[31m\n");
    nboard.send("hint \u{202E}1");
    let lines = nboard.ping(1);
    // The reader passes on only well-formed lines: none of these holds a raw control.
    let statuses: Vec<&String> = lines.iter().filter(|l| l.starts_with("status")).collect();
    assert_eq!(
        statuses,
        [
            "status ignored: malformed 'move' command: 'move d3\\rx'",
            "status ignored: unknown command 'foo\\u{7}bar\\u{1b}[31m'",
            "status ignored: hint: expected a line count 1..32, got '\\u{202e}1'",
        ],
        "{lines:?}"
    );
    nboard.finish();
}

/// Runs the binary with `args`: it must exit 2 (a usage error) with `message` on stderr.
fn refused(args: &[&str], message: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
}

#[test]
fn wrong_engine_and_match_values_are_refused_not_clamped() {
    for hash in ["0", "4097"] {
        refused(&["--hash", hash], "expected a size in MiB 1..4096");
    }
    let engine = env!("CARGO_BIN_EXE_oxello");
    let game = ["match", "--engine", engine, "--engine", engine];
    for (option, value, message) in [
        ("--games", "0", "expected a count of 1 or more, got '0'"),
        (
            "--concurrency",
            "0",
            "expected a count of 1 or more, got '0'",
        ),
        (
            "--time-per-move",
            "nan",
            "expected seconds from 0 to 86400, got 'nan'",
        ),
        (
            "--time-per-move",
            "inf",
            "expected seconds from 0 to 86400, got 'inf'",
        ),
        (
            "--time-per-move",
            "-1",
            "expected seconds from 0 to 86400, got '-1'",
        ),
    ] {
        refused(&[&game[..], &[option, value]].concat(), message);
    }
}

#[test]
fn wrong_training_rates_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.bin");
    let train = [
        "train",
        "--data",
        "missing.bin",
        "--out",
        out.to_str().unwrap(),
    ];
    for (option, value, message) in [
        (
            "--learning-rate",
            "nan",
            "expected a finite number above 0, got 'nan'",
        ),
        (
            "--learning-rate",
            "inf",
            "expected a finite number above 0, got 'inf'",
        ),
        (
            "--learning-rate",
            "0",
            "expected a finite number above 0, got '0'",
        ),
        (
            "--learning-rate",
            "-1",
            "expected a finite number above 0, got '-1'",
        ),
        (
            "--l2",
            "nan",
            "expected a finite number of 0 or more, got 'nan'",
        ),
        (
            "--l2",
            "inf",
            "expected a finite number of 0 or more, got 'inf'",
        ),
        (
            "--l2",
            "-1",
            "expected a finite number of 0 or more, got '-1'",
        ),
        ("--epochs", "0", "expected a count of 1 or more, got '0'"),
    ] {
        refused(&[&train[..], &[option, value]].concat(), message);
        assert!(!out.exists(), "{option} {value} wrote weights");
    }
}

fn selfplay(out: &Path) {
    let path = out.to_str().unwrap();
    let args = [
        "selfplay",
        "--out",
        path,
        "--games",
        "6",
        "--exact-empties",
        "8",
    ];
    let done = run(&[
        &args[..],
        &["--seed", "3", "--noise-depth", "1", "--threads", "1"],
    ]
    .concat());
    assert!(done.status.success(), "{done:?}");
}

#[test]
fn weights_that_diverge_are_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("records.bin");
    selfplay(&data);
    let out = dir.path().join("w.bin");
    let paths = [data.to_str().unwrap(), out.to_str().unwrap()];
    // A finite but absurd step: Adam's updates overflow f32 to infinity, then NaN.
    let args = [
        "train",
        "--data",
        paths[0],
        "--out",
        paths[1],
        "--learning-rate",
        "1e38",
    ];
    let done = run(&[&args[..], &["--epochs", "3", "--threads", "1"]].concat());
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{err}");
    assert!(
        err.contains("diverged") && err.contains("not written"),
        "{err}"
    );
    assert!(!out.exists());
}

/// A temporary file that a killed writer of `target` left: `<name>.tmp<pid>` of no process.
fn stale_temporary(target: &Path) -> std::path::PathBuf {
    let mut name = target.file_name().unwrap().to_os_string();
    // Above Linux's largest pid (4,194,304): no process has it.
    name.push(".tmp4999999");
    let stale = target.with_file_name(name);
    std::fs::write(&stale, b"").unwrap();
    stale
}

#[test]
fn the_next_run_removes_what_a_killed_writer_left() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("b.bin");
    let stale = stale_temporary(&book);
    // A live writer's temporary file (this test's own pid) stays.
    let live = dir.path().join(format!("b.bin.tmp{}", std::process::id()));
    std::fs::write(&live, b"").unwrap();
    let path = book.to_str().unwrap();
    let built = run(&[
        "book",
        "build",
        path,
        "--plies",
        "1",
        "--depth",
        "1",
        "--threads",
        "1",
    ]);
    assert!(built.status.success(), "{built:?}");
    assert!(!stale.exists() && live.exists());

    let records = dir.path().join("records.bin");
    let stale = stale_temporary(&records);
    selfplay(&records);
    assert!(!stale.exists());
}

#[test]
fn stop_ends_a_long_perft() {
    let mut gtp = Gtp::start();
    for mv in ["play b d3", "play w c5", "play b f6"] {
        gtp.ok(mv);
    }
    // Depth 12 from here runs for minutes.
    gtp.send("perft 12");
    assert!(gtp.silent_for(Duration::from_millis(300)));
    gtp.send("stop");
    assert_eq!(gtp.response().text, "stopped before the end");
    assert_eq!(gtp.response().text, "");
    assert_eq!(gtp.ok("name"), "Oxello");
    assert_eq!(gtp.ok("perft 3"), "135");
}
