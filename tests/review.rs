//! `oxello review` through the binary: its rows equal searches of each position alone
//! (`oxello analyze --threads 1` with the same table), exact rows agree with the solver on
//! the value of the best and of the played move, `--threads` changes nothing but the speed,
//! `--resume` continues a review, and the SVG is well-formed XML with one point per move and
//! the table's marked moves as marks.

use crate::common::{data, run};
use oxello::engine::game::Game;
use oxello::engine::gamefile::{read_line, write_ggf, Record};
use oxello::engine::notation::{format_position, parse_position, parse_square};
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn ok(args: &[&str]) -> (String, String) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

/// The first game of WTHOR 2025 (59 moves).
fn game_one() -> Game {
    let text = data("wthor_2024_2025_transcripts.txt");
    let line = text.lines().find(|l| l.starts_with("WTH_2025 ")).unwrap();
    read_line(line, 1).unwrap().game
}

/// The end of game one from the position after `moves` moves, as a GGF file.
fn ending_file(moves: usize, name: &str) -> String {
    let whole = game_one();
    let all = whole.moves();
    let start = *Game::replay(*whole.start(), &all[..moves])
        .unwrap()
        .position();
    let game = Game::replay(start, &all[moves..]).unwrap();
    let path = tmp(name);
    std::fs::write(&path, write_ggf(&Record::of(game, 1))).unwrap();
    path.to_str().unwrap().to_string()
}

/// A field of a JSON line, as its text (strings without their quotes).
fn field<'a>(line: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let at = line
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {line}"))
        + key.len();
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap();
    rest[..end].trim_matches('"')
}

fn int(line: &str, name: &str) -> i32 {
    field(line, name).parse().unwrap()
}

/// `oxello analyze` of one position alone: the best move and its value in whole discs.
fn analyze(position: &str, depth: u32) -> (String, i32) {
    let (out, _) = ok(&[
        "analyze",
        position,
        "--depth",
        &depth.to_string(),
        "--threads",
        "1",
        "--hash",
        "16",
    ]);
    let best = out.lines().find(|l| l.starts_with("best ")).unwrap();
    let words: Vec<&str> = best.split_whitespace().collect();
    let score: f64 = words[3].parse().unwrap();
    (words[1].to_lowercase(), score.round() as i32)
}

#[test]
fn exact_rows_agree_with_the_solver_on_both_moves() {
    // From 16 empties on, level 8 solves every position exactly.
    let file = ending_file(44, "ending.ggf");
    let (out, _) = ok(&[
        "review",
        &file,
        "--level",
        "8",
        "--json",
        "--threads",
        "2",
        "--hash",
        "16",
    ]);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 15);
    for row in &rows {
        assert_eq!(field(row, "exact"), "true", "{row}");
        let position = field(row, "position");
        let (best, value) = analyze(position, 8);
        assert_eq!(
            (field(row, "best"), int(row, "best_value")),
            (best.as_str(), value),
            "{row}"
        );
        // The played move's value: minus the solver's value of the position after it.
        let played = parse_square(field(row, "played")).unwrap();
        let after = parse_position(position).unwrap().play(played).unwrap();
        let (_, reply) = analyze(&format_position(&after), 8);
        assert_eq!(int(row, "played_value"), -reply, "{row}");
        assert_eq!(int(row, "loss"), value + reply, "{row}");
    }
    // Black's 31 discs at the end: the last row's best value is the final result.
    let last = rows.last().unwrap();
    let black_view = if field(last, "color") == "black" {
        1
    } else {
        -1
    } * int(last, "best_value");
    assert_eq!(black_view, 2 * 31 - 64);
}

#[test]
fn rows_are_searches_of_each_position_alone_whatever_the_threads() {
    let opening = "f5d6c3d3c4f4c5b3c2e3d2c6b4a3g4f3";
    let review = |threads: &str| {
        ok(&[
            "review",
            opening,
            "--level",
            "5",
            "--json",
            "--threads",
            threads,
            "--hash",
            "16",
        ])
        .0
    };
    let one = review("1");
    assert_eq!(one, review("2"));
    let rows: Vec<&str> = one.lines().collect();
    assert_eq!(rows.len(), 16);
    for row in &rows {
        let (best, value) = analyze(field(row, "position"), 5);
        assert_eq!(
            (field(row, "best"), int(row, "best_value")),
            (best.as_str(), value),
            "{row}"
        );
        assert!(int(row, "loss") >= 0);
    }
}

/// A well-formedness check of XML: every tag closed in order, attributes quoted, one root.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    let mut rest = xml.trim_start();
    let mut roots = 0;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').ok_or("an unclosed tag")? + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop().as_deref() != Some(name.trim()) {
                return Err(format!("</{name}> closes nothing"));
            }
            continue;
        }
        if !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("unbalanced quotes in <{tag}>"));
        }
        let name = tag
            .split_whitespace()
            .next()
            .ok_or("an empty tag")?
            .trim_end_matches('/');
        if open.is_empty() {
            roots += 1;
        }
        if !tag.ends_with('/') {
            open.push(name.to_string());
        }
    }
    match (open.is_empty(), roots) {
        (true, 1) => Ok(()),
        _ => Err(format!("open at the end: {open:?}, {roots} roots")),
    }
}

#[test]
fn the_svg_has_one_point_per_move_and_marks_the_tables_mistakes() {
    let wtb = format!(
        "{}/tests/data/WTH_2025_first50.wtb",
        env!("CARGO_MANIFEST_DIR")
    );
    let svg = tmp("game.svg");
    let args = ["review", &wtb, "--game", "2", "--level", "4", "--hash", "4"];
    let (json, _) = ok(&[&args[..], &["--json", "--svg", svg.to_str().unwrap()]].concat());
    let picture = std::fs::read_to_string(&svg).unwrap();
    well_formed(&picture).unwrap();
    assert!(well_formed("<svg><g></svg>").is_err() && well_formed("<a x=\"1></a>").is_err());
    let rows: Vec<&str> = json.lines().collect();
    let value = picture.split("class=\"value\"").nth(1).unwrap();
    let points = value
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(points.split_whitespace().count(), rows.len());
    let marked: Vec<String> = rows
        .iter()
        .filter(|r| field(r, "mark") != "null")
        .map(|r| format!("{}:{}", field(r, "mark"), field(r, "ply")))
        .collect();
    let marks: Vec<String> = picture
        .split("data-ply=\"")
        .skip(1)
        .map(|s| {
            let ply = s.split('"').next().unwrap();
            let before = &picture[..picture.find(&format!("data-ply=\"{ply}\"")).unwrap()];
            let class = before
                .rsplit("class=\"")
                .next()
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            format!("{class}:{ply}")
        })
        .collect();
    assert!(!marked.is_empty());
    assert_eq!(marks, marked);
    // The table on stdout has the same marks and a summary for each side.
    let (table, _) = ok(&args);
    assert_eq!(
        table.lines().filter(|l| l.contains('?')).count(),
        marked.len()
    );
    assert!(table.contains("black: ") && table.contains("white: ") && table.contains("worst"));
}

#[test]
fn a_review_resumes_from_its_file() {
    let resume = tmp("resume.csv");
    let args = [
        "review",
        "f5d6c3d3c4f4f6f3e6e7d7c5",
        "--level",
        "4",
        "--json",
        "--threads",
        "1",
    ];
    let path = resume.to_str().unwrap();
    let with: Vec<&str> = [&args[..], &["--resume", path]].concat();
    let (whole, _) = ok(&with);
    let text = std::fs::read_to_string(&resume).unwrap();
    // Killed after five rows, with half a line written.
    let kept: Vec<&str> = text.lines().take(6).collect();
    let cut = format!("{}\n1,7,5", kept.join("\n"));
    std::fs::write(&resume, cut).unwrap();
    let (again, err) = ok(&with);
    assert_eq!(again, whole);
    assert!(err.contains("(5 from the resume file)"), "{err}");
    // A resume file of another level is refused.
    let out = run(&[
        &args[..2],
        &["--level", "5", "--resume", resume.to_str().unwrap()],
    ]
    .concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("made for another review"),
        "{err}"
    );
}

#[test]
fn illegal_and_unreadable_games_are_refused_with_their_move() {
    for (game, expected) in [
        ("f5d6c3a1", "move 4 (a1): illegal move"),
        ("f5z9", "no moves"),
        ("/nonexistent/game.ggf", "No such file"),
    ] {
        let out = run(&["review", game, "--level", "2"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(expected),
            "{game}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
}

/// `n` and its noun, singular for one: the English the summary must read.
fn noun(n: usize, one: &str) -> String {
    let many = match one {
        "inaccuracy" => "inaccuracies".to_string(),
        _ => format!("{one}s"),
    };
    format!("{n} {}", if n == 1 { one } else { &many })
}

#[test]
fn each_sides_summary_counts_its_rows_in_singular_or_plural() {
    let wtb = format!(
        "{}/tests/data/WTH_2025_first50.wtb",
        env!("CARGO_MANIFEST_DIR")
    );
    // Game 3 at level 4: one side has one mistake and one blunder.
    let args = ["review", &wtb, "--game", "3", "--level", "4", "--hash", "4"];
    let (json, _) = ok(&[&args[..], &["--json"]].concat());
    let (table, _) = ok(&args);
    let mut singular = false;
    for color in ["black", "white"] {
        let rows: Vec<&str> = json
            .lines()
            .filter(|r| field(r, "color") == color)
            .collect();
        let marks = |mark: &str| rows.iter().filter(|r| field(r, "mark") == mark).count();
        let loss: i32 = rows.iter().map(|r| int(r, "loss")).sum();
        let counts = [
            rows.len(),
            loss as usize,
            marks("inaccuracy"),
            marks("mistake"),
            marks("blunder"),
        ];
        singular |= counts.contains(&1);
        let expected = format!(
            "{color}: {}, total loss {}, {}, {}, {}, worst",
            noun(counts[0], "move"),
            noun(counts[1], "disc"),
            noun(counts[2], "inaccuracy"),
            noun(counts[3], "mistake"),
            noun(counts[4], "blunder")
        );
        assert!(table.contains(&expected), "{expected:?} not in {table}");
    }
    assert!(singular, "no count of one to test the singular: {table}");
}
