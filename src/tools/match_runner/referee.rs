//! One refereed game: the runner keeps its own board and clocks, sets both engines up, plays
//! the opening on their boards (GTP) or sends it with every request (NBoard), then asks the
//! side to move for each move and checks it. The
//! first engine to fail (an illegal, malformed or late move, a false pass, a crash or silence)
//! forfeits the game.

use super::clock::SideClock;
use super::config::MatchConfig;
use super::openings::Opening;
use super::outcome::{Forfeit, GameResult};
use super::record;
use super::seat::Seat;
use crate::engine::board::Color;
use crate::engine::game::Game;
use crate::engine::notation::{parse_square, square_name};
use std::time::Duration;

/// A failure to play on: which engine (0 or 1) forfeits, and why.
type Failure = (usize, Forfeit);

/// Plays game `index` from `opening` between `seats[black]` (black) and the other seat.
pub fn play_game(
    seats: &mut [Seat; 2],
    black: usize,
    opening: &Opening,
    index: usize,
    config: &MatchConfig,
) -> GameResult {
    let mut result = GameResult::new(index, black);
    let mut clocks = seats.each_ref().map(|s| SideClock::new(s.spec().clock));
    let mut game = opening.game().clone();
    let outcome = set_up(seats, &clocks)
        .and_then(|()| play_opening(seats, opening, &mut result))
        .and_then(|()| play_out(seats, &mut clocks, &mut game, config, &mut result));
    result.final_clock = clocks.map(|c| c.game_time_left());
    match outcome {
        Ok(()) => result.black_score = game.position().black_final_score(),
        Err((loser, reason)) => {
            log::info!(
                "game {}: {} forfeits: {reason:?}",
                index + 1,
                seats[loser].spec().name
            );
            if matches!(reason, Forfeit::Hung | Forfeit::Crashed | Forfeit::Late) {
                // A late or silent engine may still answer later: start it afresh.
                seats[loser].restart();
            }
            result.forfeit(loser, reason);
        }
    }
    result
}

/// Readies both engines for a new game, each on its clock.
fn set_up(seats: &mut [Seat; 2], clocks: &[SideClock; 2]) -> Result<(), Failure> {
    for (i, (seat, clock)) in seats.iter_mut().zip(clocks).enumerate() {
        seat.new_game(clock).map_err(|f| (i, f))?;
    }
    Ok(())
}

/// Plays the opening on both engines' boards; its moves are recorded with no thinking time.
fn play_opening(
    seats: &mut [Seat; 2],
    opening: &Opening,
    result: &mut GameResult,
) -> Result<(), Failure> {
    for (c, sq) in opening.plays() {
        result.record_move(c, sq, 0.0);
        for (i, seat) in seats.iter_mut().enumerate() {
            seat.tell(c, sq).map_err(|f| (i, f))?;
        }
    }
    Ok(())
}

/// Asks for moves until the game is over: each one checked, played, then shown to the other.
fn play_out(
    seats: &mut [Seat; 2],
    clocks: &mut [SideClock; 2],
    game: &mut Game,
    config: &MatchConfig,
    result: &mut GameResult,
) -> Result<(), Failure> {
    let names = seats.each_ref().map(|s| s.spec().name.clone());
    while let Some(c) = game.next_to_play() {
        let mover = if c == Color::Black {
            result.black
        } else {
            1 - result.black
        };
        let clock = clocks[mover].ggf_time();
        let so_far = || record::in_progress(result, [&names[0], &names[1]], c, clock);
        seats[mover]
            .prepare_move(c, &clocks[mover], so_far)
            .map_err(|f| (mover, f))?;
        let sq = ask_move(
            &mut seats[mover],
            &mut clocks[mover],
            game,
            (c, mover),
            config,
            result,
        )
        .map_err(|f| (mover, f))?;
        game.play(c, sq)
            .map_err(|_| (mover, Forfeit::IllegalMove(square_name(sq))))?;
        seats[1 - mover].tell(c, sq).map_err(|f| (1 - mover, f))?;
    }
    Ok(())
}

/// Asks the mover (colour `c`, engine `engine`) for its move and checks it; `Ok` is a legal move.
fn ask_move(
    seat: &mut Seat,
    clock: &mut SideClock,
    game: &Game,
    (c, engine): (Color, usize),
    config: &MatchConfig,
    result: &mut GameResult,
) -> Result<u32, Forfeit> {
    let allowance = clock.allowance(config.move_timeout, config.grace);
    // Wait a little past the allowance, so that a late answer is told from no answer.
    let (reply, used) = seat.genmove(c, allowance + Duration::from_secs(2));
    result.longest_move[engine] = result.longest_move[engine].max(used);
    result.thinking[engine] += used;
    let reply = match reply {
        Err(Forfeit::Hung) if !clock.is_unlimited() => return Err(Forfeit::Late),
        other => other?,
    };
    if used > allowance.as_secs_f64() {
        return Err(Forfeit::Late);
    }
    clock.charge(used);
    let sq = parse_move(&reply, game, c)?;
    result.record_move(c, sq, used);
    Ok(sq)
}

/// The square of a `genmove` reply, if it is a legal move of `c`.
fn parse_move(reply: &str, game: &Game, c: Color) -> Result<u32, Forfeit> {
    let word = reply.split_whitespace().next().unwrap_or("");
    if word.eq_ignore_ascii_case("resign") {
        return Err(Forfeit::Resigned);
    }
    if word.eq_ignore_ascii_case("pass") {
        return Err(Forfeit::FalsePass);
    }
    let sq = parse_square(word).map_err(|_| Forfeit::Malformed(reply.to_string()))?;
    if game.position().moves_of(c) >> sq & 1 == 0 {
        return Err(Forfeit::IllegalMove(word.to_string()));
    }
    Ok(sq)
}
