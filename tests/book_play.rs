//! The opening book in play, through the binary: book moves in `genmove` (without a search, within the
//! randomness, and only when deep enough for the clock or depth), `--no-book` and
//! `oxello-book off`, start-up errors, `analyze`'s and `hint`'s book lines, and NBoard's
//! `learn` into a named book, each checked against the book read by the library.

use crate::common;
use crate::common::nboard::{ggf, NBoard};
use crate::common::Gtp;
use oxello::engine::board::{Board, Position};
use oxello::engine::notation::{parse_square, parse_transcript, square_name};
use oxello::play::book::{Book, BookMove, Depth, Key};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::Stdio;

fn shipped() -> Book {
    Book::embedded().unwrap()
}

fn board_after(transcript: &str) -> Board {
    let mut board = Position::start().board;
    for sq in parse_transcript(transcript).unwrap() {
        board = board.play(sq).unwrap();
    }
    board
}

fn upper(sq: u32) -> String {
    square_name(sq).to_uppercase()
}

/// The engine's replies and its log (at `info`) for a GTP script, sent a line at a time,
/// each after the previous reply, so that no search is cut short by the end of input.
fn run_logged(args: &[&str], script: &str) -> (String, String) {
    let mut child = common::engine_command(args, Some("info"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut replies = String::new();
    for line in script.lines() {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        // A reply ends with an empty line.
        let mut text = String::new();
        while stdout.read_line(&mut text).unwrap() > 0 && !text.ends_with("\n\n") {}
        replies += &text;
    }
    drop(stdin);
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    child.wait().unwrap();
    (replies, log)
}

fn book_moves_logged(stderr: &str) -> usize {
    stderr.matches("book move ").count() - stderr.matches("searching").count()
}

#[test]
fn genmove_plays_the_best_book_move_without_searching() {
    let book = shipped();
    let script = "genmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let (replies, log) = run_logged(&["--threads", "1"], script);
    assert_eq!(book_moves_logged(&log), 6, "{log}");
    assert!(!log.contains("INFO depth"), "a search ran: {log}");
    let mut board = Position::start().board;
    let mut moves = String::new();
    for reply in replies.split_terminator("\n\n") {
        let sq = parse_square(&reply.trim_start_matches("= ").to_lowercase()).unwrap();
        // Randomness 0 chooses among the moves of the best value only.
        let book_moves = book.moves(&board);
        let played = book_moves.iter().find(|m| m.square == sq);
        assert_eq!(
            played.map(|m| m.value),
            Some(book_moves[0].value),
            "after '{moves}'"
        );
        board = board.play(sq).unwrap();
        moves += &square_name(sq);
    }
    assert_eq!(moves.len(), 12, "{replies}");
}

#[test]
fn randomness_varies_within_its_discs() {
    let board = board_after("f5");
    let book_moves = shipped().moves(&board);
    let best = book_moves[0].value;
    let mut gtp = Gtp::start_with(&["--book-randomness", "2"]);
    gtp.ok("play b f5");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let reply = gtp.ok("genmove w");
        gtp.ok("undo");
        let sq = parse_square(&reply.to_lowercase()).unwrap();
        let m = book_moves
            .iter()
            .find(|m| m.square == sq)
            .expect("a book move");
        assert!(m.value >= best - 200, "{reply} is more than 2 discs worse");
        seen.insert(sq);
    }
    let choices = book_moves.iter().filter(|m| m.value >= best - 200).count();
    assert_eq!(seen.len(), choices, "60 draws among {choices} moves");
    // Randomness 0 (set over GTP) plays the best only.
    gtp.ok("oxello-book-randomness 0");
    for _ in 0..5 {
        assert_eq!(gtp.ok("genmove w"), upper(book_moves[0].square));
        gtp.ok("undo");
    }
}

#[test]
fn no_book_and_book_off_search_instead() {
    let (out, err) = run_logged(&["--no-book", "--depth", "2"], "genmove b\n");
    assert!(out.starts_with("= "), "{out}");
    assert_eq!(book_moves_logged(&err), 0, "{err}");
    let script = "genmove b\noxello-book off\nclear_board\ngenmove b\noxello-book on\n\
                  clear_board\ngenmove b\n";
    let (_, err) = run_logged(&["--depth", "2"], script);
    assert_eq!(book_moves_logged(&err), 2, "{err}");
}

#[test]
fn a_fixed_depth_deeper_than_the_book_searches() {
    let depth = match shipped().moves(&board_after("f5"))[0].depth {
        Depth::Plies(d) => u32::from(d),
        Depth::Exact => panic!("the shipped book is not exact here"),
    };
    let script = "play b f5\ngenmove w\n";
    let (_, err) = run_logged(&["--depth", &depth.to_string()], script);
    assert_eq!(
        book_moves_logged(&err),
        1,
        "exact depth is deep enough: {err}"
    );
    let (_, err) = run_logged(&["--depth", &(depth + 1).to_string()], script);
    assert_eq!(book_moves_logged(&err), 0, "{err}");
    assert!(err.contains("searching"), "{err}");
}

#[test]
fn a_clock_that_reaches_deeper_than_the_book_keeps_its_games_out_of_it() {
    // Half a second reaches well past a book searched 4 plies deep.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shallow.bin");
    let file = path.to_str().unwrap();
    let built = common::run(&[
        "book",
        "build",
        file,
        "--plies",
        "3",
        "--depth",
        "4",
        "--threads",
        "1",
    ]);
    assert!(built.status.success(), "{built:?}");
    // The new game under the same clock declines the shallow book too; a new clock starts
    // from the book again, as nothing tells yet how deep it reaches.
    let script = "oxello-move_time 0.5\nplay b f5\noxello-book off\ngenmove w\noxello-book on\n\
                  genmove b\nclear_board\ngenmove b\nclear_board\noxello-move_time 0.4\n\
                  genmove b\n";
    let (_, err) = run_logged(
        &["--threads", "1", "--book", path.to_str().unwrap()],
        script,
    );
    assert_eq!(err.matches("searching").count(), 2, "{err}");
    assert_eq!(book_moves_logged(&err), 1, "{err}");
}

#[test]
fn start_up_errors_are_clear() {
    for args in [
        &["--book", "no-such-book.bin"][..],
        &["--book-randomness", "65"],
        &["--book", "x.bin", "--no-book"],
    ] {
        let mut child = common::spawn_engine(args);
        drop(child.stdin.take());
        let status = child.wait().unwrap();
        assert!(!status.success(), "{args:?} started");
    }
    let out = common::run(&["--book", "no-such-book.bin"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("book no-such-book.bin"));
}

fn book_line(m: &BookMove, line: usize) -> String {
    let kind = if m.leaf { "book leaf" } else { "book" };
    let score = format!("{:+.2}", f64::from(m.value) / 100.0);
    let pv = upper(m.square);
    format!(
        "info {kind} depth {} line {line} score {score} pv {pv}",
        m.depth
    )
}

#[test]
fn analyze_shows_book_moves_first() {
    let moves = shipped().moves(&board_after("f5d6"));
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    gtp.ok("play b f5");
    gtp.ok("play w d6");
    let reply = gtp.ok("analyze 2 0.1");
    let lines: Vec<&str> = reply.lines().filter(|l| !l.is_empty()).collect();
    let expected: Vec<String> = (0..2).map(|i| book_line(&moves[i], i + 1)).collect();
    assert_eq!(lines[..2], expected[..], "{reply}");
    assert!(lines[2].starts_with("info depth "), "{reply}");
    gtp.ok("oxello-book off");
    let reply = gtp.ok("analyze 2 0.1");
    assert!(!reply.contains("info book"), "{reply}");
}

/// An NBoard session past its handshake.
fn nboard(args: &[&str]) -> NBoard {
    let mut nboard = NBoard::start(args);
    nboard.send("nboard 2");
    nboard.until(|l| l.starts_with("set myname"));
    nboard
}

/// Sets the game of `transcript` (passes written out where they fall).
fn set_game(nboard: &mut NBoard, transcript: &str) {
    nboard.send(&format!("set game {}", ggf(transcript, usize::MAX).0));
}

/// Lines up to and including the first starting with `prefix`.
fn until(nboard: &NBoard, prefix: &str) -> Vec<String> {
    nboard.until(|l| l.starts_with(prefix))
}

#[test]
fn nboard_hint_shows_book_moves() {
    let moves = shipped().moves(&board_after("f5d6"));
    let mut nboard = nboard(&["--threads", "1"]);
    nboard.send("set depth 4");
    set_game(&mut nboard, "f5d6");
    nboard.send("hint 3");
    nboard.send("ping 1");
    let lines = until(&nboard, "pong 1");
    let book: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    let expected: Vec<String> = moves
        .iter()
        .take(3)
        .map(|m| {
            let value = format!("{:.2}", f64::from(m.value) / 100.0);
            format!("book {} {value} 0 {}", upper(m.square), m.depth)
        })
        .collect();
    assert_eq!(book, expected.iter().collect::<Vec<_>>(), "{lines:?}");
}

/// The positions with a move to make along `transcript`, and the one after it.
fn positions(transcript: &str) -> Vec<Board> {
    let mut boards = vec![Position::start().board];
    for sq in parse_transcript(transcript).unwrap() {
        let next = boards.last().unwrap().play(sq).unwrap();
        boards.push(next);
    }
    boards
}

#[test]
fn nboard_learn_adds_the_game_to_the_named_book() {
    let dir = std::env::temp_dir().join(format!("oxello-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.book");
    Book::new(shipped().evaluation()).save(&path).unwrap();
    let game = "f5d6c3d3c4f4f6f3e6e7";
    let mut nboard = nboard(&["--threads", "1", "--book", path.to_str().unwrap()]);
    set_game(&mut nboard, game);
    nboard.send("learn");
    let status = until(&nboard, "status").pop().unwrap();
    let boards = positions(game);
    assert!(
        status.starts_with(&format!("status learned the game: {} new", boards.len())),
        "{status}"
    );
    let learnt = Book::open(&path).unwrap();
    for board in &boards {
        let entry = learnt.get(&Key::of(board)).expect("every position learnt");
        assert_eq!(entry.scores.len() as u32, board.moves().count_ones());
    }
    // The session plays from what it learnt: the book now knows the start position.
    set_game(&mut nboard, "");
    nboard.send("hint 1");
    nboard.send("ping 2");
    assert!(until(&nboard, "pong 2")
        .iter()
        .any(|l| l.starts_with("book ")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nboard_learn_never_writes_the_shipped_book() {
    let mut nboard = nboard(&["--threads", "1"]);
    set_game(&mut nboard, "f5d6");
    nboard.send("learn");
    let status = until(&nboard, "status").pop().unwrap();
    assert_eq!(
        status,
        "status the game was not learnt: no book file was named (start with --book FILE)"
    );
}
