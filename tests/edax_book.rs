//! Edax's book format both ways: `oxello book import-edax` and `export-edax` run through the
//! binary on a book Edax built, checked against what Edax printed for it and against a
//! parser of the format written here apart from the library's.
//!
//! tests/data/edax-book.dat was made by Edax 4.6 (built from its public source, with the
//! all-zero evaluation of `edax-zero-eval.py`, so that only its exact endgame values mean
//! anything) with the console commands in docs/book.md ("Edax books"): `book new 10 60`,
//! 40 moves of a WTHOR game (`play f5d6...c1g1`), `book store`, `book deviate 2 4`,
//! `book save`. Its `book info` printed: "Positions: 853 (moves = 975 links + 505 leaves);
//! Level 10 : 853 nodes".

use crate::common;
use crate::common::{reference_moves, run as oxello};

use oxello::play::book::{Book, Depth, Key};
use std::collections::BTreeSet;
use std::path::Path;

/// The moves of the WTHOR game to the book's root (20 empties, black to move).
const ROOT: &str =
    "f5d6c3d3c4f4c5b3c2e3d2b6b4e6c6a4b5a5d7f7f6e2f8g5a6a7a2c7c8e7f1e1d1b1g6d8e8h6c1g1";
const PASS: u8 = 64;
const NO_MOVE: u8 = 65;

/// One position of an Edax book file, read by this test's own parser.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    player: u64,
    opponent: u64,
    value: i16,
    level: u8,
    /// (square, score), in any order.
    links: BTreeSet<(u8, i8)>,
    leaf: (u8, i8),
    /// Where the record begins in the file.
    offset: usize,
}

fn le<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes[at..at + N].try_into().unwrap()
}

/// The header's position count and the positions of an Edax book: a 42-byte header, then
/// 40-byte records (boards, 4 counts, 3 scores, link count, level), each followed by its
/// links and its leaf as (score, square) byte pairs.
fn parse(bytes: &[u8]) -> (u32, Vec<Position>) {
    assert_eq!(
        &bytes[..8],
        b"XADEKOOB",
        "EDAX BOOK as two little-endian words"
    );
    assert_eq!(bytes[8], 4, "version");
    let mut positions = Vec::new();
    let mut at = 42;
    while at < bytes.len() {
        let links = usize::from(bytes[at + 38]);
        let pair = |i: usize| (bytes[at + 41 + 2 * i], bytes[at + 40 + 2 * i] as i8);
        positions.push(Position {
            player: u64::from_le_bytes(le(bytes, at)),
            opponent: u64::from_le_bytes(le(bytes, at + 8)),
            value: i16::from_le_bytes(le(bytes, at + 32)),
            level: bytes[at + 39],
            links: (0..links).map(pair).collect(),
            leaf: pair(links),
            offset: at,
        });
        at += 42 + 2 * links;
    }
    assert_eq!(at, bytes.len());
    (u32::from_le_bytes(le(bytes, 38)), positions)
}

fn edax_book() -> Vec<u8> {
    std::fs::read(common::data_path("edax-book.dat")).unwrap()
}

/// Runs `oxello book ARGS`, asserting success; returns stdout.
fn book_ok(args: &[&str]) -> String {
    let out = oxello(&[&["book"], args].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "oxello book {args:?}: {text}{err}");
    text
}

/// Whether the side to move has a move, must pass, or the game is over.
fn turn(p: &Position) -> &'static str {
    if reference_moves(p.player, p.opponent) != 0 {
        "moves"
    } else if reference_moves(p.opponent, p.player) != 0 {
        "pass"
    } else {
        "over"
    }
}

fn import(dir: &Path) -> (String, std::path::PathBuf) {
    let imported = dir.join("imported.bin");
    let data = common::data_path("edax-book.dat");
    let out = book_ok(&["import-edax", &data, common::path_str(&imported)]);
    (out, imported)
}

#[test]
fn the_test_book_is_what_edax_reported() {
    let (count, positions) = parse(&edax_book());
    assert_eq!((count, positions.len()), (853, 853));
    let links: usize = positions.iter().map(|p| p.links.len()).sum();
    let leaves = positions.iter().filter(|p| p.leaf.0 != NO_MOVE).count();
    assert_eq!((links, leaves), (975, 505));
    assert!(positions.iter().all(|p| p.level == 10));
}

#[test]
fn an_edax_book_imports_with_its_moves_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let (out, imported) = import(dir.path());
    let (_, positions) = parse(&edax_book());
    let kinds = |k| positions.iter().filter(|p| turn(p) == k).count();
    let expected = format!(
        "{} positions from 853 Edax positions of {} ({} passes and {} game ends left out, 0 values changed by the negamax)",
        kinds("moves"),
        common::data_path("edax-book.dat"),
        kinds("pass"),
        kinds("over")
    );
    assert_eq!(out.trim(), format!("{}: {expected}", imported.display()));
    let book = Book::open(&imported).unwrap();
    assert_eq!(book.len(), kinds("moves"));
    for p in positions.iter().filter(|p| turn(p) == "moves") {
        let key = Key {
            player: p.player,
            opponent: p.opponent,
        };
        let entry = book
            .get(&key)
            .expect("every position with a move is imported");
        assert_eq!(entry.value, i32::from(p.value) * 100);
        assert_eq!(entry.depth, Depth::Plies(10));
        let moves: BTreeSet<(u8, i32)> = p
            .links
            .iter()
            .chain([&p.leaf])
            .filter(|(square, _)| *square < PASS)
            .map(|&(square, score)| (square, i32::from(score) * 100))
            .collect();
        let stored: BTreeSet<(u8, i32)> = entry
            .scores
            .iter()
            .map(|s| (s.square as u8, s.score))
            .collect();
        assert_eq!(stored, moves);
    }
    let info = book_ok(&["info", common::path_str(&imported)]);
    assert!(info.contains("check: ok"), "{info}");
}

#[test]
fn an_edax_book_exports_back_to_the_same_positions() {
    let dir = tempfile::tempdir().unwrap();
    let (_, imported) = import(dir.path());
    let back = dir.path().join("back.dat");
    let out = book_ok(&[
        "export-edax",
        common::path_str(&imported),
        common::path_str(&back),
    ]);
    assert!(
        out.contains(": 853 Edax positions from the 750 of"),
        "{out}"
    );
    let (count, mut exported) = parse(&std::fs::read(&back).unwrap());
    let (_, mut original) = parse(&edax_book());
    assert_eq!(count, 853);
    for positions in [&mut exported, &mut original] {
        positions.iter_mut().for_each(|p| p.offset = 0);
        positions.sort_by_key(|p| (p.player, p.opponent));
    }
    // Board, value, level, links with their scores and leaf: every record as Edax wrote it
    // (the game counts and score bounds do not map; docs/book.md).
    assert_eq!(exported, original);
}

/// What Edax 4.6 printed for `book show` at the root and four positions after it (docs/book.md
/// has the session), and what `oxello book show` prints from the imported book.
#[test]
fn imported_values_are_the_ones_edax_shows() {
    let edax_shows = [
        ("", "+4", "[F3:+4] <F2:+0>"),
        ("f3", "-4", "[g4:-4] [f2:-6] <g3:-12>"),
        ("f3g4", "+4", "[G2:+4] [G3:+2] <F2:-4>"),
        ("f3f2", "+6", "[H4:+6] <B8:+0>"),
        ("f3g4g2", "-4", "[f2:-4] <h3:-20>"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let (_, imported) = import(dir.path());
    for (line, best, moves) in edax_shows {
        let shown = book_ok(&[
            "show",
            common::path_str(&imported),
            &format!("{ROOT}{line}"),
        ]);
        let mut rows = shown.lines();
        let value = format!("value {best}.00 (searched at depth 10)");
        assert_eq!(rows.next(), Some(value.as_str()), "{shown}");
        let ours: Vec<String> = rows
            .skip(1)
            .map(|row| {
                let cells: Vec<&str> = row.split_whitespace().collect();
                let discs = cells[1].trim_end_matches(".00");
                match cells[3] {
                    "leaf" => format!("<{}:{discs}>", cells[0]),
                    _ => format!("[{}:{discs}]", cells[0]),
                }
            })
            .collect();
        assert_eq!(ours.join(" "), moves.to_uppercase(), "after {line}");
    }
}

/// The test book with `damage` done to its bytes.
fn damaged(damage: impl Fn(&mut Vec<u8>, &[Position])) -> Vec<u8> {
    let mut bytes = edax_book();
    let (_, positions) = parse(&bytes);
    damage(&mut bytes, &positions);
    bytes
}

#[test]
fn corrupt_edax_books_are_refused() {
    let last = |p: &[Position]| p.last().unwrap().offset;
    let cases: Vec<(Vec<u8>, String)> = vec![
        (
            damaged(|b, _| b.truncate(20)),
            "not an Edax book: 20 bytes, shorter than its 42-byte header".into(),
        ),
        (
            damaged(|b, _| b[0] ^= 1),
            "not an Edax book: its header does not begin EDAX BOOK".into(),
        ),
        (
            damaged(|b, _| b[8] = 3),
            "Edax book version 3.6: only version 4 books are known".into(),
        ),
        (
            damaged(|b, p| b.truncate(last(p) + 7)),
            "truncated: the file ends inside position 852".into(),
        ),
        (
            damaged(|b, p| b.truncate(last(p))),
            "truncated or damaged: the header counts 853 positions, the file holds 852".into(),
        ),
        (
            damaged(|b, _| {
                let player = b[42..50].to_vec();
                b[50..58].copy_from_slice(&player);
            }),
            "position 0: a square holds discs of both colours".into(),
        ),
        (
            damaged(|b, p| {
                let at = p[0].offset;
                assert!(!p[0].links.is_empty());
                b[at + 41] = 27; // d4, a centre square
            }),
            "position 0: link d4 is not a legal move".into(),
        ),
        (
            damaged(|b, p| {
                let leaf = p[0].offset + 41 + 2 * p[0].links.len();
                assert!(p[0].leaf.0 < PASS);
                b[leaf] = NO_MOVE;
            }),
            "position 0: leaf none: none while a move is not linked".into(),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (n, (bytes, reason)) in cases.into_iter().enumerate() {
        let file = dir.path().join(format!("bad-{n}.dat"));
        let out_file = dir.path().join(format!("out-{n}.bin"));
        std::fs::write(&file, bytes).unwrap();
        let args = [
            "book",
            "import-edax",
            common::path_str(&file),
            common::path_str(&out_file),
        ];
        let out = oxello(&args);
        assert_eq!(out.status.code(), Some(1), "case {n}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, format!("oxello book: {}: {reason}\n", file.display()));
        assert!(out.stdout.is_empty() && !out_file.exists(), "case {n}");
    }
}

/// A book Oxello built goes to Edax's format: every position with its value (rounded to
/// discs), its book moves as links (through the pass positions Edax keeps), the best other
/// move as the leaf; read back, the values and the check hold.
#[test]
fn an_oxello_book_exports_for_edax() {
    let dir = tempfile::tempdir().unwrap();
    let built = dir.path().join("built.bin");
    let args = [
        "build",
        common::path_str(&built),
        "--plies",
        "4",
        "--depth",
        "3",
    ];
    book_ok(&args);
    let exported = dir.path().join("built.dat");
    book_ok(&[
        "export-edax",
        common::path_str(&built),
        common::path_str(&exported),
    ]);
    let book = Book::open(&built).unwrap();
    let (count, positions) = parse(&std::fs::read(&exported).unwrap());
    assert_eq!(count as usize, positions.len());
    for p in positions.iter().filter(|p| turn(p) == "moves") {
        let key = Key {
            player: p.player,
            opponent: p.opponent,
        };
        let entry = book.get(&key).expect("a position of the book");
        let discs = (f64::from(entry.value) / 100.0).round() as i16;
        assert_eq!(p.value, discs);
        let best = p.links.iter().chain([&p.leaf]).map(|l| l.1).max();
        assert_eq!(
            best.map(i16::from),
            Some(p.value),
            "the value is its best move's"
        );
    }
    assert_eq!(
        positions.iter().filter(|p| turn(p) == "moves").count(),
        book.len()
    );
    let again = dir.path().join("again.bin");
    book_ok(&[
        "import-edax",
        common::path_str(&exported),
        common::path_str(&again),
    ]);
    let info = book_ok(&["info", common::path_str(&again)]);
    assert!(info.contains("check: ok"), "{info}");
    let reread = Book::open(&again).unwrap();
    for (key, entry) in book.entries() {
        let discs = (f64::from(entry.value) / 100.0).round() as i32;
        assert_eq!(reread.get(key).map(|e| e.value), Some(discs * 100));
    }
}
