//! Every example of README.md and every transcript of protocol.md, run as written through the
//! binary and compared with what the document shows. A line `...` stands for any lines;
//! where a search decides (its moves, scores, node counts and times), numbers and moves are
//! masked; everything else must match byte for byte. protocol.md's command tables list
//! exactly the commands of the GTP command table, each with its usage.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdout, Command};

fn repo_file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The fenced blocks of a markdown text, each as its lines without the fence's indentation.
fn fenced_blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, Vec<String>)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((indent, info.to_string(), Vec::new()));
                }
            }
            Some((at, info, lines)) if trimmed == "```" => {
                let _ = at;
                blocks.push((info, lines));
            }
            Some((at, info, mut lines)) => {
                lines.push(line.get(at..).unwrap_or("").to_string());
                open = Some((at, info, lines));
            }
        }
    }
    blocks
}

/// Numbers (with an optional unit `s`) become `N`, a run of moves `M` (also moves joined by
/// `-`, as NBoard's lines write them), runs of spaces inside the line one space; trailing
/// spaces stay. NBoard's `MOVE/eval/time` is masked part by part.
fn mask(line: &str) -> String {
    let is_move = |t: &str| {
        t == "PA"
            || t.len() == 2
                && matches!(t.as_bytes()[0], b'A'..=b'H')
                && matches!(t.as_bytes()[1], b'1'..=b'8')
    };
    let mask_part = |part: &str| {
        let number = part.trim_end_matches('s');
        // A depth with its selectivity (`14@68%`) is a number too (tests/levels.rs checks
        // the selectivities).
        let number = number.split_once('@').map_or(number, |(depth, sel)| {
            let percent = sel.strip_suffix('%').and_then(|p| p.parse::<u8>().ok());
            if percent.is_some() {
                depth
            } else {
                number
            }
        });
        if !number.is_empty() && number.parse::<f64>().is_ok() {
            "N".to_string()
        } else if !part.is_empty() && part.split('-').all(is_move) {
            "M".to_string()
        } else {
            part.to_string()
        }
    };
    let mut tokens: Vec<String> = Vec::new();
    for token in line.split_whitespace() {
        let masked = token
            .split('/')
            .map(mask_part)
            .collect::<Vec<_>>()
            .join("/");
        if !(masked == "M" && tokens.last().is_some_and(|t| t == "M")) {
            tokens.push(masked);
        }
    }
    let trailing = &line[line.trim_end().len()..];
    tokens.join(" ") + trailing
}

/// Which lines of a reply are compared masked.
#[derive(Clone, Copy)]
enum Masking {
    None,
    All,
    /// The NBoard lines a search decides.
    SearchLines,
}

impl Masking {
    fn applies(self, expected: &str) -> bool {
        match self {
            Masking::None => false,
            Masking::All => true,
            Masking::SearchLines => NBOARD_SEARCHING.iter().any(|p| expected.starts_with(p)),
        }
    }
}

/// Whether `actual` is `expected`, where a line `...` in `expected` stands for any lines.
fn matches(expected: &[String], actual: &[String], masking: Masking) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|k| matches(rest, &actual[k..], masking))
        }
        Some((e, rest)) => actual.split_first().is_some_and(|(a, more)| {
            let same = if masking.applies(e) {
                mask(e) == mask(a)
            } else {
                e == a
            };
            same && matches(rest, more, masking)
        }),
    }
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// A README command with `oxello` pointing at the built binary: every word `oxello` (or
/// `"oxello`, a command inside quotes).
fn with_binary(command: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_oxello");
    command
        .split(' ')
        .map(|word| match word {
            "oxello" => bin.to_string(),
            "\"oxello" => format!("\"{bin}"),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn readme_examples_run_as_written() {
    let mut ran = 0;
    for (info, block) in fenced_blocks(&repo_file("README.md")) {
        if info != "sh" {
            continue;
        }
        let mut i = 0;
        while i < block.len() {
            let Some(command) = block[i].strip_prefix("$ ") else {
                panic!("a README sh block line that is not a command: {}", block[i]);
            };
            let end = (i + 1..block.len())
                .find(|&j| block[j].starts_with("$ "))
                .unwrap_or(block.len());
            let expected = block[i + 1..end].to_vec();
            let out = Command::new("sh")
                .arg("-c")
                .arg(with_binary(command))
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{command}: {:?}", out.status);
            assert!(
                matches(&expected, &lines(&stdout), Masking::All),
                "{command}\nexpected:\n{}\nactual:\n{stdout}",
                expected.join("\n")
            );
            ran += 1;
            i = end;
        }
    }
    assert!(ran >= 6, "only {ran} README examples found");
}

/// Commands whose replies a search decides: compared with numbers and moves masked.
const SEARCHING: [&str; 4] = ["genmove", "reg_genmove", "analyze", "solve"];

/// Replays the transcripts of protocol.md whose lines to the engine start with `prefix`, each
/// in a fresh engine: every such line is sent, and `answer` reads the engine's reply to it,
/// given the transcript's lines after it, returning (expected, actual, masking). Returns how
/// many lines were replayed.
fn replay_transcripts(
    prefix: &str,
    answer: impl Fn(&str, &[String], &mut BufReader<ChildStdout>) -> (Vec<String>, Vec<String>, Masking),
) -> usize {
    let mut replayed = 0;
    for (_, block) in fenced_blocks(&repo_file("protocol.md")) {
        if !block.first().is_some_and(|l| l.starts_with(prefix)) {
            continue;
        }
        let mut child = common::spawn_engine(&[]);
        let mut stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut i = 0;
        while i < block.len() {
            let command = block[i].strip_prefix(prefix).expect("a line to the engine");
            let end = (i + 1..block.len())
                .find(|&j| block[j].starts_with(prefix))
                .unwrap_or(block.len());
            writeln!(stdin, "{command}").unwrap();
            stdin.flush().unwrap();
            let (expected, actual, masking) = answer(command, &block[i + 1..end], &mut out);
            assert!(
                matches(&expected, &actual, masking),
                "{prefix}{command}\nexpected:\n{}\nactual:\n{}",
                expected.join("\n"),
                actual.join("\n")
            );
            replayed += 1;
            i = end;
        }
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }
    replayed
}

/// NBoard replies that a search decides.
const NBOARD_SEARCHING: [&str; 5] = ["search ", "status ", "nodestats ", "=== ", "analysis "];

fn read_line(out: &mut BufReader<ChildStdout>, command: &str) -> String {
    let mut line = String::new();
    assert!(out.read_line(&mut line).unwrap() > 0, "{command}: EOF");
    line.trim_end_matches('\n').to_string()
}

#[test]
fn protocol_transcripts_replay_byte_for_byte() {
    let replayed = replay_transcripts("> ", |command, shown, out| {
        let mut expected = shown.to_vec();
        while expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        // A response ends with an empty line.
        let actual = std::iter::from_fn(|| Some(read_line(out, command)))
            .take_while(|l| !l.is_empty())
            .collect();
        let name = command
            .split_whitespace()
            .find(|w| w.parse::<u64>().is_err());
        let masked = name.is_some_and(|n| SEARCHING.contains(&n));
        (
            expected,
            actual,
            if masked { Masking::All } else { Masking::None },
        )
    });
    assert!(replayed >= 15, "only {replayed} transcript commands found");
}

#[test]
fn nboard_transcripts_replay_line_for_line() {
    let replayed = replay_transcripts("<< ", |command, shown, out| {
        let expected: Vec<String> = shown
            .iter()
            .map(|l| {
                l.strip_prefix(">> ")
                    .expect("a line from the engine")
                    .to_string()
            })
            .collect();
        // NBoard has no framing: read as many lines as the transcript shows.
        let actual = (0..expected.len())
            .map(|_| read_line(out, command))
            .collect();
        // Only what a search decides is masked; `pong`, `set myname` must match exactly.
        (expected, actual, Masking::SearchLines)
    });
    assert!(
        replayed >= 8,
        "only {replayed} NBoard transcript lines found"
    );
}

/// The commands of protocol.md's tables (the first cell of each row of its "Standard
/// commands" and "Extensions" sections), as written there.
fn documented_commands() -> Vec<String> {
    let mut section = String::new();
    let mut commands = Vec::new();
    for line in repo_file("protocol.md").lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = title.to_string();
        } else if section == "Standard commands" || section == "Extensions" {
            let cell = line.strip_prefix("| `").and_then(|l| l.split_once("` |"));
            if let Some((command, _)) = cell {
                commands.push(command.to_string());
            }
        }
    }
    commands
}

#[test]
fn protocol_md_lists_every_gtp_command_with_its_usage() {
    let documented = documented_commands();
    let table: Vec<String> = oxello::front::gtp::parse::COMMANDS
        .iter()
        .map(|c| c.usage())
        .collect();
    assert_eq!(documented, table);
    // And the binary lists the same names.
    let mut gtp = common::Gtp::start();
    let listed = gtp.ok("list_commands");
    let names: Vec<&str> = documented
        .iter()
        .map(|c| c.split(' ').next().unwrap())
        .collect();
    assert_eq!(listed.lines().collect::<Vec<_>>(), names);
}
