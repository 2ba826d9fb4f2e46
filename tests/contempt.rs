//! NBoard's `set contempt` through the binary: a draw is valued at the contempt below 0 for
//! the side to move in the exact endgame, within ±1.99 discs, and the rest is unchanged.

use crate::common::nboard::{square, NBoard};
use crate::common::oracle::Pos;

/// White to move, 9 empties: A3 draws and B2 loses by 2 (checked by the tests' own minimax).
const BOARD: &str = "****-OOO--**OOOO--*O*O**-*OOOO***OOOOOOO*OOO**OO*OOO*OOO---O*OOO";

/// The position with white to move, by the tests' own rules.
fn position() -> Pos {
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in BOARD.chars().enumerate() {
        match c {
            '*' => black |= 1 << i,
            'O' => white |= 1 << i,
            _ => {}
        }
    }
    Pos {
        black,
        white,
        black_to_move: false,
    }
}

/// The exact value of `mv` for the side to move, by the tests' own minimax.
fn value_of(mv: &str) -> i32 {
    let mut pos = position();
    pos.play(square(mv));
    -pos.minimax()
}

/// The evals of the solved `hint` lines, by first move.
fn solved_hint(e: &mut NBoard, n: u64) -> Vec<(String, String)> {
    e.ping(n);
    e.send("hint 4");
    let lines = e.until(|l| l.starts_with("search A4") && l.ends_with(" 100%"));
    lines
        .iter()
        .filter(|l| l.ends_with(" 100%"))
        .map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            let first = fields[1].split('-').next().unwrap().to_string();
            (first, fields[2].to_string())
        })
        .collect()
}

/// The eval the solved hint gives `mv`.
fn eval_of(hint: &[(String, String)], mv: &str) -> String {
    let found = hint.iter().find(|(m, _)| m == mv);
    found
        .unwrap_or_else(|| panic!("{mv} not in {hint:?}"))
        .1
        .clone()
}

#[test]
fn a_draw_is_valued_at_the_contempt_in_the_exact_endgame() {
    assert_eq!((value_of("A3"), value_of("B2")), (0, -2));
    let mut e = NBoard::start(&["-nboard", "-l", "10", "--no-book", "--threads", "1"]);
    e.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 {BOARD} O];)"
    ));
    let cases = [
        (None, "0.00"),
        (Some("150"), "-1.50"),
        (Some("-150"), "1.50"),
        (Some("300"), "-1.99"),
        (Some("0"), "0.00"),
    ];
    for (n, (contempt, draw)) in (1..).zip(cases) {
        if let Some(c) = contempt {
            e.send(&format!("set contempt {c}"));
        }
        let hint = solved_hint(&mut e, n);
        assert_eq!(
            eval_of(&hint, "A3"),
            draw,
            "contempt {contempt:?}: {hint:?}"
        );
        assert_eq!(eval_of(&hint, "B2"), "-2.00", "contempt {contempt:?}");
        assert_eq!(hint[0].0, "A3", "the draw still ranks first: {hint:?}");
    }
    e.ping(10);
    e.send("set contempt 150");
    e.send("go");
    let lines = e.until(|l| l.starts_with("==="));
    assert_eq!(
        lines.last().unwrap().split('/').take(2).collect::<Vec<_>>(),
        ["=== A3", "-1.50"]
    );
    e.send("set contempt 300");
    let said = e.ping(11);
    assert!(
        said.iter()
            .any(|l| l.starts_with("status contempt 300 counted as 199")),
        "{said:?}"
    );
    e.finish();
}
