//! GTP's game commands through the binary: `oxello-game`, `oxello-loadggf`, `oxello-saveggf`,
//! `oxello-transcript` and `oxello-review`, checked against the WTHOR record they read and
//! against `oxello review` of the same game; a refused game leaves the game as it was.

use crate::common::{data, run, Gtp};

/// The first game of WTHOR 2025 as a transcript.
fn game_one() -> String {
    let text = data("wthor_2024_2025_transcripts.txt");
    let line = text.lines().find(|l| l.starts_with("WTH_2025 ")).unwrap();
    line.split_whitespace().nth(2).unwrap().to_string()
}

#[test]
fn games_are_set_printed_saved_and_loaded() {
    let moves = game_one();
    let mut gtp = Gtp::start();
    gtp.ok(&format!("oxello-game {}", moves.to_uppercase()));
    assert_eq!(gtp.ok("oxello-transcript"), moves);
    // Black 31 discs under the WOF rule: 31-33.
    assert_eq!(gtp.ok("final_score"), "W+2");

    // Refused games name their move, and the game stays.
    let err = gtp.err("oxello-game f5d6c3a1");
    assert!(err.contains("move 4 (a1): illegal move"), "{err}");
    assert!(gtp.err("oxello-game hello").contains("no moves"));
    assert_eq!(gtp.ok("oxello-transcript"), moves);

    let dir = tempfile::tempdir().unwrap();
    let ggf = dir.path().join("game.ggf");
    let ggf = ggf.to_str().unwrap();
    gtp.ok(&format!("oxello-saveggf {ggf}"));
    let saved = std::fs::read_to_string(ggf).unwrap();
    assert!(
        saved.starts_with("(;GM[Othello]") && saved.contains("RE[-2]"),
        "{saved}"
    );
    gtp.ok("clear_board");
    gtp.ok(&format!("oxello-loadggf {ggf} 20"));
    assert_eq!(gtp.ok("oxello-transcript"), moves[..40]);
    gtp.ok(&format!("oxello-loadggf {ggf}"));
    assert_eq!(gtp.ok("oxello-transcript"), moves);
    let err = gtp.err(&format!("oxello-loadggf {ggf} 70"));
    assert!(err.contains("the game has 59 moves"), "{err}");
    let err = gtp.err("oxello-loadggf /nonexistent.ggf");
    assert!(err.contains("/nonexistent.ggf"), "{err}");
    assert_eq!(gtp.ok("oxello-transcript"), moves);

    // A .wtb file loads too, its first game.
    let wtb = format!(
        "{}/tests/data/WTH_2025_first50.wtb",
        env!("CARGO_MANIFEST_DIR")
    );
    gtp.ok("clear_board");
    gtp.ok(&format!("oxello-loadggf {wtb}"));
    assert_eq!(gtp.ok("oxello-transcript"), moves);
}

#[test]
fn the_review_answers_the_command_lines_rows() {
    let opening = "f5d6c3d3c4f4c5b3c2e3d2c6b4a3";
    let mut gtp = Gtp::start();
    gtp.ok(&format!("oxello-game {opening}"));
    let answer = gtp.ok("oxello-review 4");
    let out = run(&["review", opening, "--level", "4"]);
    assert!(out.status.success());
    let cli = String::from_utf8(out.stdout).unwrap();
    // The command line's output is a title line, then exactly GTP's rows and summary.
    let body: Vec<&str> = cli.lines().skip(1).filter(|l| !l.is_empty()).collect();
    let rows: Vec<&str> = answer.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(rows, body);
    assert_eq!(rows.len(), 1 + 14 + 2);
    assert!(gtp.err("oxello-review 0").contains("level"));
}
