//! Malformed squares, boards, transcripts and obf lines give errors, never panics.

use crate::common;

use oxello::engine::board::{Color, Position};
use oxello::engine::game::Game;
use oxello::engine::notation::*;

#[test]
fn squares_parse_in_either_case_and_reject_junk() {
    assert_eq!(parse_square("a1"), Ok(0));
    assert_eq!(parse_square("H8"), Ok(63));
    assert_eq!(parse_square("d3"), Ok(19));
    for bad in ["", "a", "a0", "a9", "i1", "11", "aa", "a10", "é1", "  "] {
        assert!(parse_square(bad).is_err(), "{bad:?}");
    }
    assert_eq!(square_name(19), "d3");
}

#[test]
fn boards_parse_every_alphabet_and_reject_junk() {
    let start = "---------------------------OX------XO--------------------------- X";
    assert_eq!(parse_position(start), Ok(Position::start()));
    let alt = "...........................ox......xo........................... *";
    assert_eq!(parse_position(alt), Ok(Position::start()));
    assert_eq!(format_position(&Position::start()), start);
    assert_eq!(
        parse_position(&start.replace(' ', "")),
        Ok(Position::start())
    );
    let white = parse_position(&start.replace(" X", " O")).unwrap();
    assert_eq!(white.side, Color::White);
    for bad in [
        "",
        "X",
        &start[..63],
        &start.replace(" X", " Z"),
        &start.replace("OX", "OQ"),
        &format!("{start} extra"),
        &"-".repeat(200),
        "é---------------------------------------------------------------- X",
    ] {
        assert!(parse_position(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn transcripts_reject_bad_squares_odd_lengths_and_illegal_moves() {
    assert_eq!(parse_transcript("f5d6"), Ok(vec![37, 43]));
    assert_eq!(parse_transcript("F5D6"), Ok(vec![37, 43]));
    for bad in ["f", "f5d", "f5z9", "f5 d6", "ф5"] {
        assert!(parse_transcript(bad).is_err(), "{bad:?}");
    }
    assert!(Game::from_transcript("a1").is_err());
    assert!(Game::from_transcript("f5f5").is_err());
    // A wipe-out followed by another move: the game is already over.
    assert!(Game::from_transcript("d3c3b3d2e1d6d7e3f4a1").is_err());
}

#[test]
fn obf_lines_parse_scores_and_comments() {
    let line =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; % #1";
    let e = parse_obf_line(line).unwrap().unwrap();
    assert_eq!(e.value(), Some(18));
    assert_eq!(e.best_moves(), vec![parse_square("g8").unwrap()]);
    assert_eq!(e.comment, "#1");
    assert_eq!(parse_obf_line("% only a comment"), Ok(None));
    assert_eq!(parse_obf_line("   "), Ok(None));
    for bad in [
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:x",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; Z8:+2",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+99",
        "--XXXXX X;",
    ] {
        assert!(parse_obf_line(bad).is_err(), "{bad:?}");
    }
    assert!(parse_obf("ok\n").is_err());
}

#[test]
fn the_ffo_files_parse_completely() {
    for (name, count) in [
        ("fforum-1-19.obf", 19),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 20),
    ] {
        let text = common::data(name);
        assert_eq!(parse_obf(&text).unwrap().len(), count, "{name}");
    }
}

#[test]
fn the_board_picture_puts_row_1_on_top_and_marks_moves() {
    let picture = Position::start().to_string();
    let lines: Vec<&str> = picture.lines().collect();
    assert_eq!(lines[0], "  A B C D E F G H");
    assert_eq!(lines[3], "3 - - - . - - - - 3");
    assert_eq!(lines[4], "4 - - . O X - - - 4");
    assert_eq!(lines[5], "5 - - - X O . - - 5");
}
