//! `oxello selfplay`, run through the binary: exact labels against a plain minimax, played
//! labels against the games' own exact finish, reproducibility, deduplication, exclusion and
//! appending; and `oxello accuracy` against errors worked out from the library.

use oxello::engine::board::{Board, Color, Position};
use oxello::engine::notation::parse_position;
use oxello::engine::symmetry::canonical;
use std::collections::HashSet;
use std::path::Path;

use crate::common;
use crate::common::oracle::Pos;

fn selfplay(out: &Path, args: &[&str]) -> String {
    let output = common::run(&[&["selfplay", "--out", out.to_str().unwrap()], args].concat());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "batch progress goes to stderr");
    stderr
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Label {
    Exact,
    Played,
}

/// A line of a record file, read here from the format's description (the tools' own reader
/// is not part of the library): `<64 squares> <side> <score> <exact|played>`.
#[derive(Debug)]
struct Record {
    position: Position,
    score: i32,
    label: Label,
}

/// Every record of a file; comments (`#`) are skipped, and any other line must be a record.
fn records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [board, side, score, label] = words[..] else {
                panic!("not a record: {line}");
            };
            let score: i32 = score.parse().unwrap_or_else(|_| panic!("{line}"));
            assert!((-64..=64).contains(&score) && score % 2 == 0, "{line}");
            Record {
                position: parse_position(&format!("{board} {side}")).unwrap(),
                score,
                label: match label {
                    "exact" => Label::Exact,
                    "played" => Label::Played,
                    _ => panic!("bad label: {line}"),
                },
            }
        })
        .collect()
}

const SMALL_RUN: [&str; 8] = [
    "--games",
    "6",
    "--exact-empties",
    "8",
    "--seed",
    "7",
    "--noise-depth",
    "2",
];

#[test]
fn exact_labels_are_minimax_values_and_a_run_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.txt"), dir.path().join("two.txt"));
    selfplay(&one, &[&SMALL_RUN[..], &["--threads", "1"]].concat());
    selfplay(&two, &[&SMALL_RUN[..], &["--threads", "2"]].concat());
    let text = std::fs::read_to_string(&one).unwrap();
    assert_eq!(text, std::fs::read_to_string(&two).unwrap());
    assert!(text.starts_with("# oxello training records v1\n"));

    let all = records(&one);
    let exact: Vec<&Record> = all.iter().filter(|r| r.label == Label::Exact).collect();
    assert!(exact.len() >= 6 * 6, "{} exact records", exact.len());
    for r in &exact {
        assert!(r.position.board.empty_count() <= 8);
        let b = &r.position.board;
        assert_eq!(
            r.score,
            Pos::to_move(b.player, b.opponent).minimax(),
            "{r:?}"
        );
    }
    // Before the exact region a game's positions carry its exactly finished result: one black
    // score per game, so each game's played labels agree with the first exact one after them.
    let mut black_score = None;
    for r in &all {
        let black = match r.position.side {
            Color::Black => r.score,
            Color::White => -r.score,
        };
        match r.label {
            Label::Played => {
                assert!(r.position.board.empty_count() > 8);
                black_score.get_or_insert(black);
                assert_eq!(black_score, Some(black), "{r:?}");
            }
            Label::Exact => {
                if let Some(expected) = black_score.take() {
                    assert_eq!(
                        black, expected,
                        "game result against its first exact score: {r:?}"
                    );
                }
            }
        }
    }
    let keys: HashSet<Board> = all.iter().map(|r| canonical(&r.position.board)).collect();
    assert_eq!(keys.len(), all.len(), "a position repeated under symmetry");
}

#[test]
fn a_rerun_appends_nothing_new_and_a_cut_line_is_repaired() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("append.txt");
    selfplay(&out, &SMALL_RUN);
    let full = std::fs::read_to_string(&out).unwrap();
    // A run killed while writing leaves half a line behind.
    std::fs::write(&out, &full[..full.len() - 20]).unwrap();
    let log = selfplay(&out, &SMALL_RUN);
    assert!(log.contains("duplicates dropped"), "{log}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);
}

#[test]
fn excluded_games_leave_no_position_behind() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    std::fs::write(
        &games,
        "# two WTHOR-style lines and one that is not a game\n\
         WTH_2024 33 f5d6c3d3c4f4f6g5e6f7d7c5g3f3c6e7f8b4g6b6e8c7h4c8b3d2d8g8a4a5a3b5g4e3f2g2e2e1c1d1h1g1c2f1g7b2a1a2b1h8h7h6h5h2h3a6a7a8b7b8\n\
         WTH_2024 26 f5d6c3d3c4f4f6g5e6d7c7g6f7c5g3b5c6e3d2e7f8d8a6c1f2e8c8e2g8c2f1b3h6e1h5g4d1b4a5a3h3b6b1g2f3h4g1g7h8h7a7h1h2a1b7b2a2a4a8b8\n\
         not a game\n",
    )
    .unwrap();
    let out = dir.path().join("excluded.txt");
    let args = [
        "--games-file",
        games.to_str().unwrap(),
        "--exact-empties",
        "10",
    ];
    selfplay(&out, &args);
    let labelled = records(&out);
    assert!(
        labelled.len() > 60,
        "both games labelled: {}",
        labelled.len()
    );

    let again = dir.path().join("excluded-again.txt");
    selfplay(
        &again,
        &[&args[..], &["--exclude", games.to_str().unwrap()]].concat(),
    );
    assert!(records(&again).is_empty());
}

#[test]
fn drop_random_leaves_out_exactly_the_positions_of_the_random_plies() {
    let dir = tempfile::tempdir().unwrap();
    let (all, kept) = (dir.path().join("all.txt"), dir.path().join("kept.txt"));
    let ten = [&SMALL_RUN[..], &["--random-plies", "10-10"]].concat();
    selfplay(&all, &ten);
    selfplay(&kept, &[&ten[..], &["--drop-random"]].concat());
    // Ten random moves from the start are played at the positions of 60 to 51 empties.
    let after_random = |path: &Path| -> Vec<String> {
        records(path)
            .iter()
            .filter(|r| r.position.board.empty_count() <= 50)
            .map(|r| format!("{r:?}"))
            .collect()
    };
    let kept_records = records(&kept);
    assert_eq!(kept_records.len(), after_random(&kept).len());
    assert!(kept_records.len() > 6 * 30, "{}", kept_records.len());
    assert_eq!(after_random(&kept), after_random(&all));
    assert!(records(&all).len() > kept_records.len() + 30);
}

const HOLDOUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor_holdout.txt");

#[test]
fn bad_arguments_are_errors_without_output() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        &["--random-plies", "9-3"][..],
        &["--temperature=-1"],
        &["--games-file", "/nonexistent/games.txt"],
        &["--drop-random", "--games-file", HOLDOUT],
    ] {
        let out = dir.path().join("bad.txt");
        let output = common::run(&[&["selfplay", "--out", out.to_str().unwrap()], bad].concat());
        assert!(!output.status.success(), "{bad:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("oxello selfplay: "), "{bad:?}: {stderr}");
        assert!(!out.exists(), "{bad:?} created its output");
    }
}

/// `oxello accuracy FILE --empties E --depth D --label L`: its count and errors, in discs.
fn accuracy(file: &Path, empties: u32, depth: u32, label: Label) -> (usize, f64, f64, f64) {
    let (empties, depth) = (empties.to_string(), depth.to_string());
    let file = file.to_str().unwrap();
    let args = [
        "accuracy",
        file,
        "--empties",
        &empties,
        "--depth",
        &depth,
        "--label",
        match label {
            Label::Exact => "exact",
            Label::Played => "played",
        },
    ];
    let output = common::run(&args);
    assert!(output.status.success(), "{output:?}");
    let line = String::from_utf8(output.stdout).unwrap();
    // "N positions at E empties, depth D: mean absolute error M discs, root mean square
    // error R, mean error B, winner right in W%"
    let number_after = |label: &str| -> f64 {
        let rest = &line[line.find(label).unwrap_or_else(|| panic!("{line}")) + label.len()..];
        let word = rest.split([' ', ',']).find(|w| !w.is_empty()).unwrap();
        word.parse().unwrap_or_else(|_| panic!("{line}"))
    };
    let count = line.split(' ').next().unwrap().parse().unwrap();
    (
        count,
        number_after("mean absolute error "),
        number_after("root mean square error "),
        number_after("mean error "),
    )
}

#[test]
fn accuracy_measures_the_evaluation_against_the_records_of_a_label() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("accuracy.txt");
    selfplay(&out, &SMALL_RUN);
    // Exact scores from 8 empties down, the games' results above.
    for (label, empties) in [(Label::Exact, 8), (Label::Played, 30)] {
        let chosen: Vec<Record> = records(&out)
            .into_iter()
            .filter(|r| r.label == label && r.position.board.empty_count() == empties)
            .collect();
        assert!(chosen.len() >= 5, "{} {label:?} records", chosen.len());

        // The static evaluation's errors, worked out here from the library's evaluation.
        let misses: Vec<f64> = chosen
            .iter()
            .map(|r| {
                let centi = oxello::engine::eval::evaluate(&r.position.board);
                f64::from(centi) / f64::from(oxello::engine::eval::DISC) - f64::from(r.score)
            })
            .collect();
        let n = misses.len() as f64;
        let mae = misses.iter().map(|m| m.abs()).sum::<f64>() / n;
        let rms = (misses.iter().map(|m| m * m).sum::<f64>() / n).sqrt();
        let bias = misses.iter().sum::<f64>() / n;
        let (count, got_mae, got_rms, got_bias) = accuracy(&out, empties, 0, label);
        assert_eq!(count, chosen.len());
        for (got, want) in [(got_mae, mae), (got_rms, rms), (got_bias, bias)] {
            assert!(
                (got - want).abs() < 0.006,
                "{label:?}: {got} against {want}"
            );
        }
        assert!(
            mae > 0.0,
            "a static evaluation misses some {label:?} scores"
        );
    }

    // A search as deep as the empties plays the game out: it makes no error.
    let (_, mae, rms, bias) = accuracy(&out, 8, 8, Label::Exact);
    assert_eq!((mae, rms, bias), (0.0, 0.0, 0.0));
}
