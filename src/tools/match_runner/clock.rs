//! The referee's clock of one side during a game: what the engine is told (GTP's
//! `time_settings` and `time_left`, or the `TI` of the GGF record NBoard's `set game` sends),
//! how long its next move may take, and what it used.

use super::config::ClockSpec;
use crate::engine::board::Color;
use std::time::Duration;

pub struct SideClock {
    spec: ClockSpec,
    left: f64,
}

impl SideClock {
    pub fn new(spec: ClockSpec) -> SideClock {
        let left = match spec {
            ClockSpec::Game { main, .. } => main,
            ClockSpec::PerMove(s) => s,
            ClockSpec::Unlimited => 0.0,
        };
        SideClock { spec, left }
    }

    pub fn is_unlimited(&self) -> bool {
        self.spec == ClockSpec::Unlimited
    }

    pub fn settings(&self) -> Option<String> {
        match self.spec {
            ClockSpec::Unlimited => None,
            ClockSpec::PerMove(s) => Some(format!("time_settings 0 {s} 1")),
            ClockSpec::Game { main, .. } => Some(format!("time_settings {main} 0 0")),
        }
    }

    /// GTP's `time_left`, in whole seconds as the standard has it (rounded down, so that an
    /// engine never believes it has more than it has). A per-move time under a second is sent
    /// as it is: only engines that read fractions (as oxello does) can play at such speeds.
    pub fn time_left(&self, c: Color) -> Option<String> {
        match self.spec {
            ClockSpec::Unlimited => None,
            ClockSpec::PerMove(s) if s < 1.0 => Some(format!("time_left {} {s} 1", c.name())),
            ClockSpec::PerMove(s) => Some(format!("time_left {} {} 1", c.name(), s.floor())),
            ClockSpec::Game { .. } => Some(format!(
                "time_left {} {} 0",
                c.name(),
                self.left.max(0.0).floor()
            )),
        }
    }

    /// The clock as a GGF `TI` value, `main[/increment]` in `m:ss` (a per-move time is an
    /// increment on no main time), as the NBoard GUI tells its engines; none without a clock.
    /// The engine works out what is left from the times of its moves in the record.
    pub fn ggf_time(&self) -> Option<String> {
        let clock = |secs: f64| {
            let minutes = (secs / 60.0).floor();
            let rest = secs - 60.0 * minutes;
            if rest.fract() == 0.0 {
                format!("{minutes}:{rest:02}")
            } else {
                format!("{minutes}:{rest:05.2}")
            }
        };
        match self.spec {
            ClockSpec::Unlimited => None,
            ClockSpec::PerMove(s) => Some(format!("0:00/{}", clock(s))),
            ClockSpec::Game {
                main,
                increment: 0.0,
            } => Some(clock(main)),
            ClockSpec::Game { main, increment } => {
                Some(format!("{}/{}", clock(main), clock(increment)))
            }
        }
    }

    /// Seconds left on a game clock.
    pub fn game_time_left(&self) -> Option<f64> {
        matches!(self.spec, ClockSpec::Game { .. }).then_some(self.left)
    }

    /// How long the next move may take before it is late (grace included).
    pub fn allowance(&self, move_timeout: Duration, grace: Duration) -> Duration {
        match self.spec {
            ClockSpec::Unlimited => move_timeout,
            _ => Duration::from_secs_f64(self.left.max(0.0)) + grace,
        }
    }

    pub fn charge(&mut self, used: f64) {
        if let ClockSpec::Game { increment, .. } = self.spec {
            self.left = self.left - used + increment;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ClockSpec, SideClock};

    #[test]
    fn clocks_read_as_ggf_time() {
        let ti = |spec| SideClock::new(spec).ggf_time();
        let game = |main, increment| ClockSpec::Game { main, increment };
        assert_eq!(ti(ClockSpec::Unlimited), None);
        assert_eq!(ti(game(1.0, 0.0)).as_deref(), Some("0:01"));
        assert_eq!(ti(game(300.0, 2.0)).as_deref(), Some("5:00/0:02"));
        assert_eq!(ti(game(90.5, 0.0)).as_deref(), Some("1:30.50"));
        assert_eq!(ti(ClockSpec::PerMove(0.5)).as_deref(), Some("0:00/0:00.50"));
    }
}
