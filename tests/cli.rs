//! The batch subcommands, run through the binary as a user would.

use std::process::{Command, Output};

fn oxello(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .output()
        .expect("run oxello")
}

/// Random-game position 8 of `random22.obf` (value -30): Edax names F2, Oxello finds A8,
/// which ties.
const RANDOM22_8: &str = "---O-----XXOX----XXOOX-X-X-XOXXXX-OXXOXX-XOXXXX-OOXXXXXO---XXXX- X";

/// Solves a one-line `.obf` file with the given annotations; returns the exit status and output.
fn solve_with(annotations: &str) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("oxello-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.obf", annotations.len()));
    std::fs::write(&file, format!("{RANDOM22_8}; {annotations}\n")).unwrap();
    let out = oxello(&["solve", file.to_str().unwrap()]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn solve_accepts_a_tying_move_the_file_does_not_list() {
    let (ok, text) = solve_with("F2:-30;");
    assert!(ok, "{text}");
    assert!(text.contains("-30") && !text.contains("MISMATCH"), "{text}");
}

#[test]
fn solve_flags_a_wrong_value() {
    let (ok, text) = solve_with("F2:-28;");
    assert!(!ok, "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
}

#[test]
fn solve_flags_a_move_the_file_scores_lower() {
    let (ok, text) = solve_with("F2:-30; A8:-32;");
    assert!(!ok, "{text}");
    assert!(text.contains("MISMATCH"), "{text}");
}
