//! The batch subcommands, run through the binary as a user would.

use crate::common::run as oxello;

use std::process::Command;
use tempfile::TempPath;

/// Random-game position 8 of `random22.obf` (value -30), where F2 and A8 tie: Edax names F2;
/// which of the two Oxello finds depends on its move order, so the tests ask it first.
const RANDOM22_8: &str = "---O-----XXOX----XXOOX-X-X-XOXXXX-OXXOXX-XOXXXX-OOXXXXXO---XXXX- X";
const TIES: [&str; 2] = ["F2", "A8"];

/// Solves a one-line `.obf` file with the given annotations on one thread (the same move
/// every run); returns the exit status and output.
fn solve_with(annotations: &str) -> (bool, String) {
    let file = temp_file(format!("{RANDOM22_8}; {annotations}\n").as_bytes());
    let out = oxello(&["solve", file.to_str().unwrap(), "--threads", "1"]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The tying move the solver reports for `RANDOM22_8`, and the other one.
fn found_and_other() -> (&'static str, &'static str) {
    let (_, text) = solve_with("F2:-30;");
    let row = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("1"));
    let found = row.and_then(|l| l.split_whitespace().nth(3));
    let i = TIES
        .iter()
        .position(|&m| Some(m) == found)
        .unwrap_or_else(|| panic!("the solver's move is neither F2 nor A8: {text}"));
    (TIES[i], TIES[1 - i])
}

#[test]
fn solve_accepts_a_tying_move_the_file_does_not_list() {
    let (_, other) = found_and_other();
    let (ok, text) = solve_with(&format!("{other}:-30;"));
    assert!(ok, "{text}");
    assert!(text.contains("-30") && !text.contains("MISMATCH"), "{text}");
}

#[test]
fn solve_flags_a_wrong_value() {
    let (ok, text) = solve_with("F2:-28;");
    assert!(!ok, "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
}

#[test]
fn solve_flags_a_move_the_file_scores_lower() {
    let (found, other) = found_and_other();
    let (ok, text) = solve_with(&format!("{other}:-30; {found}:-32;"));
    assert!(!ok, "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
}

/// Runs oxello and returns (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = oxello(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn analyze_takes_options_after_the_position() {
    let (ok, text, err) = run(&["analyze", START, "--depth", "4", "--lines", "2"]);
    assert!(ok, "{err}");
    // GTP's info lines: upper-case moves, GTP's field order; the four first moves tie.
    assert!(
        text.lines()
            .any(|l| l.starts_with("info depth 4@68% line 2 score ") && l.contains(" nps ")),
        "{text}"
    );
    let best = text.lines().last().unwrap();
    assert!(
        best.starts_with("best ") && best.contains(" depth 4@68% "),
        "{text}"
    );
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{best}");
}

#[test]
fn cli_errors_have_a_message_and_a_failing_exit() {
    let empty = temp_file(b"% nothing but a comment\n");
    let cases: [(&[&str], &str); 7] = [
        (&["analyze", START, "--lines", "0"], "1..=32"),
        (&["analyze", START, "--lines", "99"], "1..=32"),
        (
            &["analyze", START, "--time", "0"],
            "positive number of seconds",
        ),
        (&["analyze", "XO X", "--depth", "2"], ""),
        (&["perft", "99"], "1..=60"),
        (&["perft", "15"], "need --force"),
        (&["solve", empty.to_str().unwrap()], "no position"),
    ];
    for (args, message) in cases {
        let (ok, _, err) = run(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(
            !err.trim().is_empty() && err.contains(message),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn out_of_range_table_sizes_are_refused_as_oxello_hash_refuses_them() {
    for size in ["0", "4097", "999999999"] {
        let (ok, _, err) = run(&["--hash", size]);
        assert!(!ok, "--hash {size}");
        assert!(
            err.contains(&format!("expected a size in MiB 1..4096, got '{size}'")),
            "{err}"
        );
    }
}

#[test]
fn help_says_what_no_subcommand_does() {
    let (ok, text, _) = run(&["--help"]);
    assert!(ok);
    assert!(
        text.contains("GTP on stdin/stdout") && text.contains("protocol.md"),
        "{text}"
    );
    // Every option and argument of every subcommand has a description: on its line, or on
    // the next one when clap wraps.
    for sub in ["perft", "solve", "analyze", "match", "bench"] {
        let (ok, text, _) = run(&[sub, "-h"]);
        assert!(ok);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let item = line.trim_start();
            if !(item.starts_with('-') || item.starts_with('<')) || !line.starts_with("  ") {
                continue;
            }
            let same_line = item.split("  ").filter(|p| !p.trim().is_empty()).count() >= 2;
            let next_line = lines.get(i + 1).is_some_and(|n| {
                let t = n.trim_start();
                n.len() - t.len() > line.len() - item.len() && !t.is_empty()
            });
            assert!(same_line || next_line, "{sub}: no description: {line}");
        }
    }
}

/// `solve --wld` agrees with the file's signs (the exact scores' signs: FFO 1-19) and shows
/// each search's depth with its selectivity, a solve's being 100%.
#[test]
fn solve_wld_finds_the_files_signs_and_shows_its_depth() {
    let (ok, text, err) = run(&["solve", "--wld", "tests/data/fforum-1-19.obf"]);
    assert!(ok, "{text}{err}");
    assert!(text.contains(" 0 mismatches"), "{text}");
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("total"))
        .collect();
    assert_eq!(rows.len(), 19, "{text}");
    for row in rows {
        let f: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(f[8], format!("{}@100%", f[1]), "{row}");
        assert!(["-1", "+0", "+1"].contains(&f[2]), "{row}");
    }
}

#[test]
fn a_closed_pipe_ends_a_batch_job_without_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(["solve", "tests/data/fforum-1-19.obf"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read the header only, as `| head -1` would, then go away.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    std::io::BufRead::read_line(&mut out, &mut header).unwrap();
    drop(out);
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success() && !err.contains("panicked"), "{err}");
}

/// A temporary file holding `bytes`, removed when the returned path is dropped.
fn temp_file(bytes: &[u8]) -> TempPath {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, bytes).unwrap();
    file.into_temp_path()
}

#[test]
fn eval_file_refuses_a_wrong_or_corrupt_file_and_takes_a_good_one() {
    let good = std::fs::read(format!(
        "{}/src/engine/eval/weights.bin",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut corrupt = good.clone();
    corrupt[40_000] ^= 0x10;
    let text = temp_file(b"not weights at all, but long enough to have a header");
    let short = temp_file(&good[..good.len() / 2]);
    let corrupt = temp_file(&corrupt);
    let cases = [
        ("missing", "/nonexistent/weights.bin", "No such file"),
        ("text", text.to_str().unwrap(), "bad magic"),
        ("short", short.to_str().unwrap(), "truncated"),
        ("corrupt", corrupt.to_str().unwrap(), "corrupt"),
    ];
    for (what, path, message) in cases {
        let (ok, out, err) = run(&["--eval-file", path, "analyze", START, "--depth", "2"]);
        assert!(!ok, "{what}: {out}");
        assert!(out.is_empty(), "{what}: {out}");
        assert!(
            err.starts_with("oxello: evaluation weights: "),
            "{what}: {err}"
        );
        assert!(err.contains(message), "{what}: {err}");
    }
    // The same weights from a file work as the built-in ones, to the same search.
    let copy = temp_file(&good);
    let (ok, from_file, err) = run(&[
        "--eval-file",
        copy.to_str().unwrap(),
        "analyze",
        START,
        "--depth",
        "5",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    let (_, built_in, _) = run(&["analyze", START, "--depth", "5", "--threads", "1"]);
    let score = |t: &str| {
        t.lines()
            .last()
            .unwrap()
            .split_whitespace()
            .nth(3)
            .unwrap()
            .to_string()
    };
    assert_eq!(score(&from_file), score(&built_in));
}
