//! Game records in GGF, the Generic Game Format of the Othello servers.

use super::outcome::{Forfeit, GameResult};
use crate::engine::board::Color;
use crate::engine::game::Move;
use crate::engine::notation::square_name;

/// The start position as a GGF board: 8, 64 squares a1..h8 (`*` black, `O` white), side.
const START_BOARD: &str = "8 ---------------------------O*------*O--------------------------- *";

/// One game as a GGF record. `RE` is black's disc differential under the WOF rule; a forfeit
/// is marked `:t` (time) or `:r` (any other forfeit, as a resignation).
pub fn ggf(result: &GameResult, names: [&str; 2]) -> String {
    let (black, white) = if result.black == 0 {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mark = match &result.forfeit {
        None => "",
        Some((_, Forfeit::Late)) => ":t",
        Some(_) => ":r",
    };
    let mut out = format!(
        "(;GM[Othello]PC[oxello match]PB[{}]PW[{}]RE[{:+}.000{mark}]TY[8]BO[{START_BOARD}]",
        escape(black),
        escape(white),
        result.black_score
    );
    for &(c, mv, secs) in &result.moves {
        let tag = if c == Color::Black { 'B' } else { 'W' };
        let text = match mv {
            Move::Play(sq) => square_name(sq).to_uppercase(),
            Move::Pass => "PA".to_string(),
        };
        out.push_str(&format!("{tag}[{text}//{secs:.2}]"));
    }
    out.push_str(";)");
    out
}

/// GGF values end at `]`; a backslash escapes it.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}
