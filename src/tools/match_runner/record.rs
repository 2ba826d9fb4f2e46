//! Game records in GGF, the Generic Game Format of the Othello servers.

use super::outcome::{Forfeit, GameResult};
use crate::engine::board::{Color, Position};
use crate::engine::gamefile::{ggf_board, ggf_move};
use crate::engine::ggf::escape;

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
        "(;GM[Othello]PC[oxello match]PB[{}]PW[{}]RE[{:+}.000{mark}]TY[8]BO[{}]",
        escape(black),
        escape(white),
        result.black_score,
        ggf_board(&Position::start())
    );
    for &(c, mv, secs) in &result.moves {
        let tag = if c == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}//{secs:.2}]", ggf_move(mv)));
    }
    out.push_str(";)");
    out
}
