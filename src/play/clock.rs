//! Time management: turns the GTP clock (`time_settings`, `time_left`) into a soft deadline
//! (do not start another iteration) and a hard one (stop at once) for each move.

use std::time::Duration;

/// Kept back from a clock: this share of the time it gives (main time plus one byo-yomi
/// period), for pipes, the controller's own lag and a slower machine...
const RESERVE_SHARE: f64 = 0.04;
/// ...and never less than this many seconds, nor less than twice the engine's own measured
/// lag (from a search's hard deadline to its reply).
const MIN_RESERVE: f64 = 0.01;
/// A move's soft deadline, as a share of its planned time: an iteration that ends before it
/// is followed by another that the hard deadline may cut. The search's root stretches it by
/// how settled its best move is (`search::root`), so a move spends from 0.7 of this share up
/// to all of its time.
const SOFT_SHARE: f64 = 0.8;
/// Thinking time per move when no clock was set.
pub const DEFAULT_MOVE_TIME: f64 = 1.0;
/// How long an analysis with no time or depth of its own runs when nothing can stop it.
pub const DEFAULT_ANALYSIS_SECONDS: f64 = 10.0;
/// No budget is ever planned above this (a day), whatever the controller says.
pub use crate::play::values::MAX_SECONDS;

/// The clock of one side, as `time_settings` and `time_left` describe it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Clock {
    /// No time limit announced: think for a default time per move.
    Untimed,
    /// GTP's "no time limit" (`byoyomi > 0, stones == 0`).
    Unlimited,
    /// `main` seconds for the game, then `byoyomi` seconds for every `stones` moves
    /// (`stones == 0` and `byoyomi == 0`: absolute time).
    Timed {
        main: f64,
        byoyomi: f64,
        stones: u64,
    },
}

/// Time left for one side: seconds, and the stones that time must cover (0 = main time).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Remaining {
    pub seconds: f64,
    pub stones: u64,
}

impl Clock {
    pub fn from_settings(main: f64, byoyomi: f64, stones: u64) -> Clock {
        // GTP: byo-yomi time with no stones means no limit; so does a clock of all zeros.
        if (byoyomi > 0.0 && stones == 0) || (main == 0.0 && byoyomi == 0.0) {
            Clock::Unlimited
        } else {
            Clock::Timed {
                main: main.min(MAX_SECONDS),
                byoyomi: byoyomi.min(MAX_SECONDS),
                stones,
            }
        }
    }

    /// What a side has at the start of the game.
    pub fn initial(&self) -> Option<Remaining> {
        match *self {
            Clock::Timed {
                main: 0.0,
                byoyomi,
                stones,
            } => Some(Remaining {
                seconds: byoyomi,
                stones,
            }),
            Clock::Timed { main, .. } => Some(Remaining {
                seconds: main,
                stones: 0,
            }),
            _ => None,
        }
    }

    /// What is left after a move that took `used` seconds.
    pub fn after_move(&self, left: Remaining, used: f64) -> Remaining {
        let seconds = left.seconds - used;
        match *self {
            Clock::Timed {
                byoyomi, stones, ..
            } if left.stones == 0 && seconds <= 0.0 && stones > 0 => {
                // Main time ran out: a byo-yomi period starts.
                Remaining {
                    seconds: byoyomi,
                    stones,
                }
            }
            Clock::Timed {
                byoyomi, stones, ..
            } if left.stones == 1 => Remaining {
                seconds: byoyomi,
                stones,
            },
            _ => Remaining {
                seconds: seconds.max(0.0),
                stones: left.stones.saturating_sub(1),
            },
        }
    }

    /// Soft and hard time for the next move with `left` on the clock and `empties` empty
    /// squares, for an engine whose replies have come up to `lag` after a hard deadline.
    pub fn budget(
        &self,
        left: Option<Remaining>,
        empties: u32,
        lag: Duration,
    ) -> (Duration, Duration) {
        let seconds = |s: f64| Duration::from_secs_f64(s.clamp(0.01, MAX_SECONDS));
        match (*self, left) {
            (Clock::Untimed, _) | (Clock::Unlimited, _) | (_, None) => {
                (seconds(DEFAULT_MOVE_TIME), seconds(DEFAULT_MOVE_TIME * 1.5))
            }
            (
                Clock::Timed {
                    main,
                    byoyomi,
                    stones,
                },
                Some(left),
            ) => {
                let reserve = (RESERVE_SHARE * (main + byoyomi))
                    .max(MIN_RESERVE)
                    .max(2.0 * lag.as_secs_f64());
                let (soft, hard) = plan(left, byoyomi, stones, empties, reserve);
                (seconds(soft), seconds(hard))
            }
        }
    }
}

/// Splits the time left, less `reserve`, over the moves still to come, spending more in the
/// midgame.
fn plan(left: Remaining, byoyomi: f64, stones: u64, empties: u32, reserve: f64) -> (f64, f64) {
    let usable = (left.seconds.min(MAX_SECONDS) - reserve).max(0.0);
    if left.stones > 0 {
        // Byo-yomi: this period's time covers `stones` moves, each its even share.
        let per_move = usable / left.stones as f64;
        return (per_move * SOFT_SHARE, per_move);
    }
    // Main time, with a byo-yomi period behind it as a cushion.
    let my_moves_left = f64::from(empties.div_ceil(2).max(1));
    let cushion = if stones > 0 {
        (byoyomi - reserve).max(0.0) / stones as f64
    } else {
        0.0
    };
    // Midgame moves (20-44 empties) get up to twice the average; the endgame is solved fast.
    let phase = if (20..=44).contains(&empties) {
        1.6
    } else {
        1.0
    };
    let share = usable / (my_moves_left * 0.9 + 1.0) * phase + cushion * 0.5;
    let hard = (share * 3.0).min(usable * 0.4 + cushion * 0.9);
    (share.min(hard), hard)
}

/// The most empties an exact solve is taken to finish at within `soft`: 20 empties in a
/// second, one more for each 1.7 times the time. A cautious model: positions from games
/// against NTest solve at 22 and 24 empties in 0.32 s and 1.5 s at the median, 0.93 s and
/// 2.9 s at the 90th percentile, but solving earlier by the median (with the clock's time
/// moved to the midgame) did not play better (docs/results.md, "Where the clock goes").
pub fn solvable_empties(soft: Duration) -> u32 {
    let secs = soft.as_secs_f64().max(0.01);
    (20.0 + 1.3 * secs.log2()).clamp(10.0, 40.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_spending_each_soft_share_stays_on_its_clock_and_spends_most_in_the_midgame() {
        let clock = Clock::from_settings(11.0, 0.0, 0);
        let mut left = clock.initial();
        let mut spent = Vec::new();
        for empties in (1..=52).rev().step_by(2) {
            let (soft, hard) = clock.budget(left, empties, Duration::ZERO);
            assert!(soft <= hard);
            spent.push((empties, soft.as_secs_f64()));
            left = left.map(|l| clock.after_move(l, soft.as_secs_f64()));
        }
        let reserve = RESERVE_SHARE * 11.0;
        let total: f64 = spent.iter().map(|&(_, s)| s).sum();
        assert!(
            total <= 11.0 - reserve && total > 11.0 - 2.0 * reserve,
            "{total}"
        );
        let at = |e: u32| spent.iter().find(|&&(empties, _)| empties == e).unwrap().1;
        assert!(
            at(40) > at(50) && at(34) > at(28) && at(28) > at(18),
            "{spent:?}"
        );
    }
}
