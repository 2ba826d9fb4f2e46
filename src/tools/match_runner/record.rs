//! Game records in GGF, the Generic Game Format of the Othello servers: the record of a finished
//! game, and the game so far as NBoard's `set game` sends it.

use super::outcome::{Forfeit, GameResult};
use crate::engine::board::{Color, Position};
use crate::engine::game::Move;
use crate::engine::gamefile::{ggf_board, ggf_move};
use crate::engine::ggf::escape;

/// One game as a GGF record. `RE` is black's disc differential under the WOF rule; a forfeit
/// is marked `:t` (time) or `:r` (any other forfeit, as a resignation).
pub fn ggf(result: &GameResult, names: [&str; 2]) -> String {
    let mark = match &result.forfeit {
        None => "",
        Some((_, Forfeit::Late)) => ":t",
        Some(_) => ":r",
    };
    let re = format!("{:+}.000{mark}", result.black_score);
    let head = format!("RE[{re}]");
    record(result, names, &head, &result.moves)
}

/// The game so far, with `next` to move, as NBoard's `set game` wants it: every move from the
/// start position with its thinking time, passes written `PA` (the pass `next`'s opponent
/// must make before `next` plays again included), `RE[?]`, and `TI` for the clock of `next`
/// if it has one (see [`SideClock::ggf_time`](super::clock::SideClock::ggf_time)).
pub fn in_progress(
    result: &GameResult,
    names: [&str; 2],
    next: Color,
    clock: Option<String>,
) -> String {
    let mut moves = result.moves.clone();
    let last = moves.last().map_or(Color::White, |&(c, _, _)| c);
    if last == next {
        moves.push((next.opposite(), Move::Pass, 0.0));
    }
    let head = match clock {
        Some(ti) => format!("RE[?]TI[{ti}]"),
        None => "RE[?]".into(),
    };
    record(result, names, &head, &moves)
}

/// A record with `head` (its result and clock tags) after the players.
fn record(
    result: &GameResult,
    names: [&str; 2],
    head: &str,
    moves: &[(Color, Move, f64)],
) -> String {
    let (black, white) = if result.black == 0 {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    let mut out = format!(
        "(;GM[Othello]PC[oxello match]PB[{}]PW[{}]{head}TY[8]BO[{}]",
        escape(black),
        escape(white),
        ggf_board(&Position::start())
    );
    for &(c, mv, secs) in moves {
        let tag = if c == Color::Black { 'B' } else { 'W' };
        out.push_str(&format!("{tag}[{}//{secs:.2}]", ggf_move(mv)));
    }
    out.push_str(";)");
    out
}
