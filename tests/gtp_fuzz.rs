//! Random and malformed input through the binary: every line gets exactly one well-formed
//! response (none for blank or comment lines), nothing panics, and a rejected command leaves
//! the game as it was.

use crate::common::Gtp;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// What GTP preprocessing leaves of a line, written independently of the engine's parser:
/// ASCII control characters other than tab go, `#` starts a comment.
fn expects_response(line: &[u8]) -> bool {
    let kept = line.split(|&b| b == b'#').next().unwrap_or(&[]);
    kept.iter().any(|&b| b > b' ' && b != 0x7F)
}

const NAMES: &[&str] = &[
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "boardsize",
    "komi",
    "clear_board",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "setboard",
    "known_command",
    "list_games",
    "name",
    "version",
    "protocol_version",
    "list_commands",
    "eval",
    "stop",
    "perft",
    "frobnicate",
    "PLAY",
    "play-",
];
const WORDS: &[&str] = &[
    "black",
    "white",
    "b",
    "w",
    "B",
    "WHITE",
    "x",
    "pass",
    "PASS",
    "d3",
    "C4",
    "f5",
    "e6",
    "a1",
    "h8",
    "i9",
    "a0",
    "0",
    "1",
    "2",
    "8",
    "-1",
    "3.5",
    "1e9",
    "99999999999999999999999999",
    "nan",
    "inf",
    "Othello",
    "#",
    "\t",
    "---------------------------OX------XO--------------------------- X",
    "O",
    "\r",
];

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    let words = proptest::sample::select(WORDS).prop_map(|w| w.as_bytes().to_vec());
    let command = (
        proptest::option::of(0u64..1000),
        proptest::sample::select(NAMES),
        proptest::collection::vec(words, 0..4),
    )
        .prop_map(|(id, name, args)| {
            let mut line = id.map(|i| format!("{i} ")).unwrap_or_default().into_bytes();
            line.extend_from_slice(name.as_bytes());
            for a in args {
                line.push(b' ');
                line.extend(a);
            }
            line
        });
    // Random bytes: ASCII and a few invalid UTF-8 bytes, never a newline.
    let byte = prop_oneof![0u8..=0x7F, Just(0xFFu8), Just(0xC3u8)]
        .prop_filter("no newline", |&b| b != b'\n');
    let noise = proptest::collection::vec(byte, 0..80);
    prop_oneof![6 => command, 3 => noise]
}

#[test]
fn random_lines_get_one_response_each_and_rejections_change_nothing() {
    let mut gtp = Gtp::start();
    // Searches stay short: genmove thinks one ply.
    gtp.ok("oxello-depth 1");
    let mut runner = TestRunner::new(Config::with_cases(1));
    let lines = proptest::collection::vec(line_strategy(), 4000);
    let lines = lines.new_tree(&mut runner).unwrap().current();
    let mut board = gtp.ok("showboard");
    let mut answered = 0;
    for line in lines {
        let mut bytes = line.clone();
        bytes.push(b'\n');
        gtp.send_raw(&bytes);
        if !expects_response(&line) {
            continue;
        }
        let r = gtp.response();
        answered += 1;
        let after = gtp.ok("showboard");
        if !r.ok {
            assert_eq!(
                after,
                board,
                "rejected {:?} changed the board",
                String::from_utf8_lossy(&line)
            );
        }
        board = after;
    }
    assert!(answered > 2500);
    // Nothing is left over: the next command's response is the next thing out.
    assert_eq!(gtp.ok("name"), "Oxello");
    assert!(gtp.silent_for(std::time::Duration::from_millis(200)));
}

#[test]
fn huge_lines_and_numbers_are_rejected_cleanly() {
    let mut gtp = Gtp::start();
    let mut huge = b"play black ".to_vec();
    huge.extend(std::iter::repeat_n(b'a', 1 << 20));
    huge.push(b'\n');
    gtp.send_raw(&huge);
    assert!(gtp.response().text.starts_with("syntax error"));
    let mut junk = vec![b'x'; 1 << 20];
    junk.push(b'\n');
    gtp.send_raw(&junk);
    assert!(!gtp.response().ok);
    assert!(gtp
        .err(&format!("komi {}", "9".repeat(5000)))
        .starts_with("syntax error"));
    assert!(gtp
        .err(&format!("time_left black {} 0", "9".repeat(400)))
        .starts_with("syntax error"));
    assert!(gtp
        .err("play black d3 d3 d3 d3 d3")
        .starts_with("syntax error"));
    assert!(gtp.err("play \"black\" d3").starts_with("syntax error"));
    assert_eq!(gtp.ok("protocol_version"), "2");
}

#[test]
fn huge_but_finite_times_do_not_break_the_clock() {
    let mut gtp = Gtp::start();
    gtp.ok(&format!("time_settings {} 0 0", "9".repeat(300)));
    gtp.ok("oxello-depth 2");
    gtp.ok(&format!("time_left black {} 0", "9".repeat(300)));
    gtp.ok("time_left white 0 0");
    assert!(["D3", "C4", "F5", "E6"].contains(&gtp.ok("genmove black").as_str()));
    let reply = gtp.ok("genmove white");
    assert_eq!(reply.len(), 2);
}
