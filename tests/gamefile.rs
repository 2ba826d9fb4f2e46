//! Game files through the binary (`oxello data games`), against independent truth: the first
//! 50 games of WTHOR's 2025 file (a `.wtb` excerpt with its header's count set to 50) against
//! the same games as transcripts, round trips through every format, and clear errors for
//! corrupt, truncated, foreign and illegal files.

use crate::common::{data, run};
use std::path::PathBuf;

const WTB: &str = "WTH_2025_first50.wtb";

fn data_path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-gamefile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `(black discs, transcript)` of the first 50 2025 games of the transcript file.
fn transcripts() -> Vec<(u8, String)> {
    data("wthor_2024_2025_transcripts.txt")
        .lines()
        .filter(|l| l.starts_with("WTH_2025 "))
        .take(50)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

/// stdout of a successful run.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// stderr of a failed run, which must not be a panic.
fn fails(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn wtb_games_equal_the_transcripts_and_their_recorded_scores() {
    let bytes = std::fs::read(data_path(WTB)).unwrap();
    let truth = transcripts();
    let read = ok(&["data", "games", &data_path(WTB)]);
    let lines: Vec<&str> = read.lines().collect();
    assert_eq!(lines.len(), 50);
    for (i, ((score, transcript), line)) in truth.iter().zip(&lines).enumerate() {
        assert_eq!(line, transcript, "game {}", i + 1);
        // The record's own score byte is the transcript file's score, and the reader has
        // checked it against the final board (a wrong byte is refused, below).
        assert_eq!(bytes[16 + 68 * i + 6], *score, "game {}", i + 1);
    }
    let mut wrong = bytes.clone();
    wrong[16 + 68 * 2 + 6] ^= 1;
    let path = tmp("WTH_2025_wrong.wtb");
    std::fs::write(&path, wrong).unwrap();
    let err = fails(&["data", "games", path.to_str().unwrap()]);
    assert!(err.contains("game 3") && err.contains("discs"), "{err}");
}

#[test]
fn transcripts_ggf_pgn_and_wtb_round_trip_losslessly() {
    let wtb = data_path(WTB);
    let (txt, ggf, back) = (tmp("a.txt"), tmp("a.ggf"), tmp("b.txt"));
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    ok(&["data", "games", &wtb, "--out", &s(&txt)]);
    ok(&["data", "games", &s(&txt), "--out", &s(&ggf)]);
    ok(&["data", "games", &s(&ggf), "--out", &s(&back)]);
    assert_eq!(std::fs::read(&txt).unwrap(), std::fs::read(&back).unwrap());
    let ggf_text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(ggf_text.matches("(;GM[Othello]").count(), 50);

    // .wtb to transcripts and back: the same moves, scores, count and year.
    let again = tmp("WTH_2025_again.wtb");
    ok(&["data", "games", &s(&txt), "--out", &s(&again)]);
    let (a, b) = (std::fs::read(&wtb).unwrap(), std::fs::read(&again).unwrap());
    assert_eq!(a.len(), b.len());
    assert_eq!(a[4..14], b[4..14], "count, year, board size, type");
    for i in 0..50 {
        let at = 16 + 68 * i;
        assert_eq!(a[at + 6], b[at + 6], "score of game {}", i + 1);
        assert_eq!(
            a[at + 8..at + 68],
            b[at + 8..at + 68],
            "moves of game {}",
            i + 1
        );
    }

    // PGN as the WTHOR conversions write it, with names that need escaping in GGF.
    let (_, moves) = &transcripts()[0];
    let lines: Vec<String> = moves
        .to_uppercase()
        .as_bytes()
        .chunks(4)
        .enumerate()
        .map(|(i, c)| {
            let pair = std::str::from_utf8(c).unwrap();
            format!("{}. {} {}", i + 1, &pair[..2], &pair[2..])
        })
        .collect();
    let pgn = format!(
        "[Event \"All Japan Championships - 2025\"]\n[Date \"2025\"]\n[Black \"Ogura]\\ Ryutaro\"]\n[White \"Takahashi Akihiro\"]\n[Result \"31-33\"]\n{}\n",
        lines.join("\n")
    );
    let pgn_path = tmp("g.pgn");
    std::fs::write(&pgn_path, pgn).unwrap();
    let from_pgn = tmp("from_pgn.ggf");
    ok(&["data", "games", &s(&pgn_path), "--out", &s(&from_pgn)]);
    let record = std::fs::read_to_string(&from_pgn).unwrap();
    assert!(record.contains(r"PB[Ogura\]\\ Ryutaro]"), "{record}");
    assert_eq!(ok(&["data", "games", &s(&from_pgn)]).trim(), moves);
}

#[test]
fn corrupt_truncated_foreign_and_illegal_files_get_clear_errors() {
    let bytes = std::fs::read(data_path(WTB)).unwrap();
    let write = |name: &str, b: &[u8]| {
        let p = tmp(name);
        std::fs::write(&p, b).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        (write("WTH_2025_cut.wtb", &bytes[..1000]), "header says 50 games"),
        (write("WTH_2025_short.wtb", &bytes[..10]), "shorter than its 16-byte header"),
        (write("WTH_2024.wtb", &bytes), "name says 2024"),
        (write("foreign.bin", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe"), "not a WTHOR file"),
        (write("illegal.txt", b"f5d6c3\nf5d6a1\n"), "line 2: move 3 (a1): illegal move"),
        (write("over.txt", b"d3c3b3d2e1d6d7e3f4a1\n"), "move 10 (a1): the game is already over"),
        (write("words.txt", b"hello world\n"), "no moves"),
        (write("bad.ggf", b"(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[a1];)"), "move 1 B[a1]"),
        (write("open.ggf", b"(;GM[Othello]BO[8 ---"), "without its ';)' end"),
    ];
    let mut square = bytes.clone();
    square[16 + 68 * 4 + 8 + 6] = 99;
    let bad_byte = write("WTH_2025_byte.wtb", &square);
    let mut illegal = bytes.clone();
    illegal[16 + 68 * 4 + 8] = 11;
    let bad_move = write("WTH_2025_move.wtb", &illegal);
    for (path, expected) in cases.iter().map(|(p, e)| (p.as_str(), *e)).chain([
        (bad_byte.as_str(), "game 5: move 7: byte 99"),
        (bad_move.as_str(), "game 5: move 1 (a1)"),
    ]) {
        let err = fails(&["data", "games", path]);
        assert!(err.contains(expected), "{path}: {err}");
    }
}
