//! What a match is: the two engines (command, protocol, name, clock, level), the openings, how many games and
//! how many at once, the referee's patience, and the SPRT that may stop it early.

use super::openings::Opening;
use super::stats::Sprt;
use std::time::Duration;

/// How an engine's thinking time is limited.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ClockSpec {
    /// No clock: only the runner's hang limit applies.
    Unlimited,
    /// This many seconds for every move (GTP `time_settings 0 S 1`).
    PerMove(f64),
    /// Main time for the game plus an increment after each move (sent as absolute time).
    Game { main: f64, increment: f64 },
}

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The Go Text Protocol with the Othello conventions (`genmove`, `play`, `time_left`).
    Gtp,
    /// NBoard's protocol (`set game`, `ping`, `go`, `=== MOVE`), as NTest and Edax speak it.
    Nboard,
}

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub protocol: Protocol,
    pub clock: ClockSpec,
    /// The strength setting sent to an NBoard engine (`set depth N`), if any.
    pub level: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Game `2k` and `2k + 1` play opening `k` (cycling) with colours swapped.
    pub openings: Vec<Opening>,
    pub games: usize,
    pub concurrency: usize,
    /// Longest wait for a move when the engine has no clock.
    pub move_timeout: Duration,
    /// Lateness forgiven beyond the clock (pipes, process scheduling).
    pub grace: Duration,
    pub sprt: Option<Sprt>,
}
