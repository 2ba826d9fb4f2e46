//! The named openings through the binary: GTP's `oxello-opening`, NBoard's `status` line at
//! `go`, and `oxello review`'s header and rows name lines whose names the public list gives,
//! in all 8 orientations of the board and through transposed move orders (checked with the
//! tests' own rules to reach the same position), and say nothing once a game leaves them.

use crate::common::nboard::{ggf, name, square, NBoard};
use crate::common::oracle::Pos;
use crate::common::{run, Gtp};

/// Lines and their names as Robert Gatliff's list gives them (see docs/openings.md).
const KNOWN: [(&str, &str); 13] = [
    ("f5d6", "Perpendicular"),
    ("f5f6", "Diagonal"),
    ("f5f4", "Parallel"),
    ("f5d6c3d3c4", "Tiger"),
    ("f5d6c4d3c5", "Cat"),
    ("f5d6c5f4d3", "Horse"),
    ("f5d6c5f4e3c6d3f6e6d7", "Rose"),
    ("f5d6c3d3c4f4c5b3c2", "Rose-Bill"),
    ("f5f6e6d6c3", "Buffalo"),
    ("f5f6e6d6c5", "Cow"),
    ("f5f6e6d6e7", "Heath"),
    ("f5f6e6d6f7", "Snake"),
    ("f5f6e6d6d7", "Raccoon Dog"),
];

/// The Tiger turned by a half turn: C4 for F5.
const TIGER_TURNED: &str = "c4e3f6e6f5";

/// Where square `sq` goes under symmetry `s`: bit 2 transposes, bit 1 mirrors the rows, bit
/// 0 the files (the tests' own arithmetic on files and rows).
fn image(sq: u32, s: u32) -> u32 {
    let (mut file, mut row) = (sq % 8, sq / 8);
    if s & 4 != 0 {
        (file, row) = (row, file);
    }
    if s & 2 != 0 {
        row = 7 - row;
    }
    if s & 1 != 0 {
        file = 7 - file;
    }
    row * 8 + file
}

fn squares(transcript: &str) -> Vec<u32> {
    (0..transcript.len())
        .step_by(2)
        .map(|i| square(&transcript[i..i + 2]).unwrap())
        .collect()
}

fn transcript(moves: &[u32]) -> String {
    moves
        .iter()
        .map(|&sq| name(Some(sq)).to_lowercase())
        .collect()
}

/// The line under symmetry `s`.
fn turned(line: &str, s: u32) -> String {
    let moves: Vec<u32> = squares(line).into_iter().map(|sq| image(sq, s)).collect();
    transcript(&moves)
}

/// The position a line reaches, by the tests' own rules.
fn reached(line: &str) -> Pos {
    let mut pos = Pos::start();
    for sq in squares(line) {
        pos.play(Some(sq));
    }
    pos
}

fn image_of_discs(discs: u64, s: u32) -> u64 {
    (0..64)
        .filter(|sq| discs >> sq & 1 != 0)
        .fold(0, |acc, sq| acc | 1 << image(sq, s))
}

/// Whether two lines reach the same position, or images of one position.
fn same_position(a: &str, b: &str) -> bool {
    let (a, b) = (reached(a), reached(b));
    (0..8).any(|s| {
        image_of_discs(a.black, s) == b.black
            && image_of_discs(a.white, s) == b.white
            && a.black_to_move == b.black_to_move
    })
}

/// The start position under symmetry `s`, as `setboard` reads it: the images that mirror
/// only files or only rows swap the colours of the centre, so a line played from there is the
/// line's mirror image, which no game from the standard start reaches.
fn start_image(s: u32) -> String {
    let start = Pos::start();
    let (black, white) = (
        image_of_discs(start.black, s),
        image_of_discs(start.white, s),
    );
    (0..64)
        .map(|sq| match (black >> sq & 1, white >> sq & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect()
}

/// The opening named after `line` played from `start` by alternate sides.
fn opening_from(gtp: &mut Gtp, start: &str, line: &str) -> String {
    gtp.ok(&format!("setboard {start} black"));
    for (i, sq) in squares(line).into_iter().enumerate() {
        let color = if i % 2 == 0 { "black" } else { "white" };
        gtp.ok(&format!("play {color} {}", name(Some(sq))));
    }
    gtp.ok("oxello-opening")
}

fn opening_of(gtp: &mut Gtp, line: &str) -> String {
    gtp.ok(&format!("oxello-game {line}"));
    gtp.ok("oxello-opening")
}

#[test]
fn gtp_names_every_known_line_in_all_eight_orientations() {
    let mut gtp = Gtp::start();
    let mut from_the_start = 0;
    for (line, expected) in KNOWN {
        for s in 0..8 {
            let image = turned(line, s);
            let start = start_image(s);
            assert_eq!(
                opening_from(&mut gtp, &start, &image),
                expected,
                "{s} {image}"
            );
            if start == start_image(0) {
                assert_eq!(opening_of(&mut gtp, &image), expected, "{image}");
                from_the_start += 1;
            }
        }
    }
    // Half the images start from the standard position (the turns and the diagonal mirrors).
    assert_eq!(from_the_start, KNOWN.len() * 4);
    assert_eq!(turned("f5d6c3d3c4", 3), TIGER_TURNED);
}

#[test]
fn gtp_names_transposed_move_orders_and_nothing_off_the_lines() {
    // Each pair reaches one position by two different move orders.
    let transposed = [
        ("f5d6c3d3c4", "f5d6c4d3c3", "Tiger"),
        ("f5f6e6d6e7", "e6f6f5d6e7", "Heath"),
        ("f5f6e6d6c3", "f5f6e6f4c3", "Buffalo"),
    ];
    let mut gtp = Gtp::start();
    for (line, other, expected) in transposed {
        assert!(same_position(line, other), "{line} {other}");
        assert!((0..8).all(|s| turned(line, s) != other));
        assert_eq!(opening_of(&mut gtp, other), expected, "{other}");
        assert_eq!(opening_of(&mut gtp, &turned(other, 4)), expected);
    }
    // The start, and a first move, lie on every line before any name.
    gtp.ok("clear_board");
    assert_eq!(gtp.ok("oxello-opening"), "none");
    assert_eq!(opening_of(&mut gtp, "d3"), "none");
    // The Tiger stays in force along its continuations (F4, towards the Rose-Bill) ...
    assert_eq!(opening_of(&mut gtp, "f5d6c3d3c4f4"), "Tiger");
    // ... and a move off every named line leaves them, undo coming back.
    assert_eq!(opening_of(&mut gtp, &format!("{TIGER_TURNED}b4")), "none");
    gtp.ok("undo");
    assert_eq!(gtp.ok("oxello-opening"), "Tiger");
    assert_eq!(
        gtp.err("oxello-opening now"),
        "syntax error: usage: oxello-opening"
    );
}

/// A field of a JSON line, as its text (strings without their quotes).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let key = format!("\"{key}\":");
    let rest = &line[line.find(&key).unwrap() + key.len()..];
    rest[..rest.find([',', '}']).unwrap()].trim_matches('"')
}

fn review(args: &[&str]) -> String {
    let out = run(&[&["review"], args].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn review_names_the_games_opening_and_the_moves_that_reach_a_name() {
    // The turned Tiger, then a move off the named lines.
    let game = format!("{TIGER_TURNED}b4");
    let table = review(&[&game, "--level", "1"]);
    let header = table.lines().next().unwrap();
    assert!(header.ends_with(", opening Tiger (move 5)"), "{header}");
    let json = review(&[&game, "--level", "1", "--json"]);
    let named: Vec<(&str, &str)> = json
        .lines()
        .map(|row| (field(row, "ply"), field(row, "opening")))
        .filter(|(_, opening)| *opening != "null")
        .collect();
    assert_eq!(named, [("2", "Perpendicular"), ("5", "Tiger")]);
    let rows: Vec<&str> = table.lines().skip(2).take(6).collect();
    assert!(
        rows[1].ends_with(" Perpendicular") && rows[4].ends_with(" Tiger"),
        "{rows:?}"
    );
    let csv = review(&[&game, "--level", "1", "--csv"]);
    assert!(csv.lines().next().unwrap().ends_with(",opening"));
    assert!(csv.lines().nth(5).unwrap().ends_with(",Tiger"));
    assert!(csv.lines().nth(6).unwrap().ends_with(','));
    // A game that never reaches a name says so.
    let none = review(&["f5", "--level", "1"]);
    assert!(none.lines().next().unwrap().ends_with(", no named opening"));
}

/// What a `go` from the end of `line` writes up to its move.
fn nboard_go(line: &str) -> Vec<String> {
    let mut e = NBoard::start(&[]);
    e.send("nboard 2");
    e.send("set depth 1");
    e.send(&format!("set game {}", ggf(line, 60).0));
    e.ping(1);
    e.send("go");
    let seen = e.until(|l| l.starts_with("==="));
    e.finish();
    seen
}

#[test]
fn nboard_says_the_opening_at_go_while_the_game_is_in_a_named_line() {
    let heath = turned("e6f6f5d6e7", 7);
    for (line, expected) in [(TIGER_TURNED, "Tiger"), (heath.as_str(), "Heath")] {
        let seen = nboard_go(line);
        assert_eq!(seen[0], format!("status opening: {expected}"), "{seen:?}");
    }
    let off = nboard_go(&format!("{TIGER_TURNED}b4"));
    assert!(off.iter().all(|l| !l.contains("opening")), "{off:?}");
}
