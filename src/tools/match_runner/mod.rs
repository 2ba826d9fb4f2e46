//! `oxello match`: engine-vs-engine matches between any two GTP Othello engines.
//!
//! The runner is the referee: it keeps its own board and clocks and trusts no engine. A move
//! that is illegal, malformed, a pass while a move exists, or too late loses the game; so does
//! an engine that crashes or stops answering (it is restarted for the next game).

pub mod client;
pub mod record;
pub mod stats;
pub mod summary;

use client::{Client, ClientError};
use crossbeam_channel::unbounded;
use oxello::board::{Color, Squares};
use oxello::game::{Game, Move};
use oxello::notation::{parse_square, parse_transcript, square_name};
use oxello::rng::{shuffle, Rng};
use stats::{Sprt, SprtVerdict, Tally};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bound on every command other than `genmove`.
const COMMAND_PATIENCE: Duration = Duration::from_secs(20);

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

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
    pub clock: ClockSpec,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Opening transcripts; game `2k` and `2k + 1` play opening `k` with colours swapped.
    pub openings: Vec<Vec<u32>>,
    pub games: usize,
    pub concurrency: usize,
    /// Longest wait for a move when the engine has no clock.
    pub move_timeout: Duration,
    /// Lateness forgiven beyond the clock (pipes, process scheduling).
    pub grace: Duration,
    pub sprt: Option<Sprt>,
}

/// Why an engine lost a game before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    IllegalMove(String),
    Malformed(String),
    FalsePass,
    Resigned,
    Late,
    Crashed,
    Hung,
    ErrorReply(String),
}

impl Forfeit {
    /// A short name for summaries.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::IllegalMove(_) => "illegal move",
            Forfeit::Malformed(_) => "malformed reply",
            Forfeit::FalsePass => "pass with legal moves",
            Forfeit::Resigned => "resigned",
            Forfeit::Late => "out of time",
            Forfeit::Crashed => "crashed",
            Forfeit::Hung => "no answer",
            Forfeit::ErrorReply(_) => "error reply",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: usize,
    /// Which engine (0 or 1) had black.
    pub black: usize,
    /// Every move with its thinking time (0 for opening moves), passes included.
    pub moves: Vec<(Color, Move, f64)>,
    /// Black's disc differential (WOF rule), or +-64 for a forfeit.
    pub black_score: i32,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, Forfeit)>,
    /// Longest think of each engine (by engine index).
    pub longest_move: [f64; 2],
    /// Seconds left on each engine's game clock at the end (by engine index), for engines
    /// playing on a game clock.
    pub final_clock: [Option<f64>; 2],
}

impl GameResult {
    /// Points of engine 0: 1, 1/2 or 0.
    pub fn points_of_first(&self) -> f64 {
        let black_points = match self.black_score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        if self.black == 0 {
            black_points
        } else {
            1.0 - black_points
        }
    }

    /// Disc differential from engine 0's view.
    pub fn first_disc_difference(&self) -> i32 {
        if self.black == 0 {
            self.black_score
        } else {
            -self.black_score
        }
    }
}

/// The openings of a file, one transcript per line (blank and `#`/`%` lines skipped), each
/// checked by replaying it; shuffled with `seed` if given.
pub fn load_openings(text: &str, seed: Option<u64>) -> Result<Vec<Vec<u32>>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        let moves = parse_transcript(word).map_err(|e| format!("line {}: {e}", n + 1))?;
        Game::replay(oxello::board::Position::start(), &moves)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err("no openings".into());
    }
    if let Some(seed) = seed {
        shuffle(&mut openings, seed);
    }
    Ok(openings)
}

/// `count` random legal openings of `plies` moves (shorter if a game ends first).
pub fn random_openings(count: usize, plies: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut game = Game::default();
            while game.moves().len() < plies {
                let Some(c) = game.next_to_play() else { break };
                let moves: Vec<u32> = Squares(game.position().moves_of(c)).collect();
                // Every move offered is legal, so the play cannot fail.
                let _ = game.play(c, moves[rng.below(moves.len())]);
            }
            game.moves()
        })
        .collect()
}

/// An engine process of a worker, started on demand and dropped when it misbehaves.
struct Seat {
    spec: EngineSpec,
    client: Option<Client>,
}

impl Seat {
    fn client(&mut self) -> Result<&mut Client, Forfeit> {
        if self.client.is_none() {
            self.client = Some(Client::start(&self.spec.command).map_err(|_| Forfeit::Crashed)?);
        }
        self.client.as_mut().ok_or(Forfeit::Crashed)
    }

    /// A command that must succeed; a failure forfeits (and a dead or hung engine is dropped).
    fn must(&mut self, command: &str, patience: Duration) -> Result<String, Forfeit> {
        let result = self.client()?.ask(command, patience);
        match result {
            Ok(r) if r.ok => Ok(r.text),
            Ok(r) => Err(Forfeit::ErrorReply(format!("{command}: {}", r.text))),
            Err(e) => {
                self.client = None;
                Err(match e {
                    ClientError::Timeout => Forfeit::Hung,
                    ClientError::Closed => Forfeit::Crashed,
                })
            }
        }
    }

    /// A command an engine may not know (`set_game`): only a dead engine matters.
    fn may(&mut self, command: &str) -> Result<(), Forfeit> {
        match self.must(command, COMMAND_PATIENCE) {
            Ok(_) | Err(Forfeit::ErrorReply(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn shutdown(&mut self) {
        if let Some(c) = self.client.take() {
            c.shutdown();
        }
    }
}

/// The clock of one side during a game.
struct SideClock {
    spec: ClockSpec,
    left: f64,
}

impl SideClock {
    fn new(spec: ClockSpec) -> SideClock {
        let left = match spec {
            ClockSpec::Game { main, .. } => main,
            ClockSpec::PerMove(s) => s,
            ClockSpec::Unlimited => 0.0,
        };
        SideClock { spec, left }
    }

    fn settings(&self) -> Option<String> {
        match self.spec {
            ClockSpec::Unlimited => None,
            ClockSpec::PerMove(s) => Some(format!("time_settings 0 {s} 1")),
            ClockSpec::Game { main, .. } => Some(format!("time_settings {main} 0 0")),
        }
    }

    /// GTP's `time_left`, in whole seconds as the standard has it (rounded down, so that an
    /// engine never believes it has more than it has). A per-move time under a second is sent
    /// as it is: only engines that read fractions (as oxello does) can play at such speeds.
    fn time_left(&self, c: Color) -> Option<String> {
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

    /// Seconds left on a game clock.
    fn game_time_left(&self) -> Option<f64> {
        matches!(self.spec, ClockSpec::Game { .. }).then_some(self.left)
    }

    /// How long the next move may take before it is late (grace included).
    fn allowance(&self, move_timeout: Duration, grace: Duration) -> Duration {
        match self.spec {
            ClockSpec::Unlimited => move_timeout,
            _ => Duration::from_secs_f64(self.left.max(0.0)) + grace,
        }
    }

    fn charge(&mut self, used: f64) {
        if let ClockSpec::Game { increment, .. } = self.spec {
            self.left = self.left - used + increment;
        }
    }
}

/// Plays one game between `seats[black]` (black) and the other seat.
fn play_game(
    seats: &mut [Seat; 2],
    black: usize,
    opening: &[u32],
    index: usize,
    config: &MatchConfig,
) -> GameResult {
    let mut result = GameResult {
        index,
        black,
        moves: Vec::new(),
        black_score: 0,
        forfeit: None,
        longest_move: [0.0; 2],
        final_clock: [None; 2],
    };
    let seat_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let mut clocks = [
        SideClock::new(seats[0].spec.clock),
        SideClock::new(seats[1].spec.clock),
    ];
    let mut game = Game::default();
    let outcome = (|| -> Result<(), (usize, Forfeit)> {
        for (i, seat) in seats.iter_mut().enumerate() {
            let setup = |seat: &mut Seat| -> Result<(), Forfeit> {
                seat.may("set_game Othello")?;
                seat.must("boardsize 8", COMMAND_PATIENCE)?;
                seat.must("clear_board", COMMAND_PATIENCE)?;
                if let Some(ts) = clocks[i].settings() {
                    seat.must(&ts, COMMAND_PATIENCE)?;
                }
                Ok(())
            };
            setup(seat).map_err(|f| (i, f))?;
        }
        for &m in opening {
            let c = game.next_to_play().ok_or((black, Forfeit::Crashed))?;
            record_move(&mut result.moves, &game, c, m, 0.0);
            game.play(c, m).map_err(|_| (black, Forfeit::Crashed))?;
            for (i, seat) in seats.iter_mut().enumerate() {
                seat.must(
                    &format!("play {} {}", c.name(), square_name(m)),
                    COMMAND_PATIENCE,
                )
                .map_err(|f| (i, f))?;
            }
        }
        while let Some(c) = game.next_to_play() {
            let mover = seat_of(c);
            let other = 1 - mover;
            let sq = ask_move(
                &mut seats[mover],
                &mut clocks[mover],
                &game,
                (c, mover),
                config,
                &mut result,
            )
            .map_err(|f| (mover, f))?;
            game.play(c, sq)
                .map_err(|_| (mover, Forfeit::IllegalMove(square_name(sq))))?;
            seats[other]
                .must(
                    &format!("play {} {}", c.name(), square_name(sq)),
                    COMMAND_PATIENCE,
                )
                .map_err(|f| (other, f))?;
        }
        Ok(())
    })();
    result.final_clock = clocks.map(|c| c.game_time_left());
    match outcome {
        Ok(()) => result.black_score = game.position().black_final_score(),
        Err((loser, reason)) => {
            log::info!(
                "game {}: {} forfeits: {reason:?}",
                index + 1,
                seats[loser].spec.name
            );
            if matches!(reason, Forfeit::Hung | Forfeit::Crashed | Forfeit::Late) {
                // A late or silent engine may still answer later: start it afresh.
                seats[loser].client = None;
            }
            result.black_score = if loser == black { -64 } else { 64 };
            result.forfeit = Some((loser, reason));
        }
    }
    result
}

/// Records `c`'s move on `sq`, with a pass of the other side first when it was implied.
fn record_move(moves: &mut Vec<(Color, Move, f64)>, game: &Game, c: Color, sq: u32, secs: f64) {
    if game.position().side != c {
        moves.push((c.opposite(), Move::Pass, 0.0));
    }
    moves.push((c, Move::Play(sq), secs));
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
    if let Some(tl) = clock.time_left(c) {
        seat.must(&tl, COMMAND_PATIENCE)?;
    }
    let allowance = clock.allowance(config.move_timeout, config.grace);
    let asked = Instant::now();
    // Wait a little past the allowance, so that a late answer is told from no answer.
    let reply = seat.must(
        &format!("genmove {}", c.name()),
        allowance + Duration::from_secs(2),
    );
    let used = asked.elapsed().as_secs_f64();
    result.longest_move[engine] = result.longest_move[engine].max(used);
    let reply = match reply {
        Err(Forfeit::Hung) if clock.spec != ClockSpec::Unlimited => return Err(Forfeit::Late),
        other => other?,
    };
    if used > allowance.as_secs_f64() {
        return Err(Forfeit::Late);
    }
    clock.charge(used);
    let word = reply.split_whitespace().next().unwrap_or("").to_string();
    if word.eq_ignore_ascii_case("resign") {
        return Err(Forfeit::Resigned);
    }
    if word.eq_ignore_ascii_case("pass") {
        return Err(Forfeit::FalsePass);
    }
    let sq = parse_square(&word).map_err(|_| Forfeit::Malformed(reply.clone()))?;
    if game.position().moves_of(c) >> sq & 1 == 0 {
        return Err(Forfeit::IllegalMove(word));
    }
    record_move(&mut result.moves, game, c, sq, used);
    Ok(sq)
}

/// Starts every engine once and asks for its name, before any game: an engine that cannot be
/// started, or that exits or stays silent instead of answering, is a set-up error (which
/// engine, and why), not a string of lost games.
pub fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for (i, spec) in config.engines.iter().enumerate() {
        let which = format!("engine {} ('{}')", i + 1, spec.command);
        let mut client = Client::start(&spec.command).map_err(|e| format!("{which}: {e}"))?;
        let reply = client.ask("name", COMMAND_PATIENCE);
        client.shutdown();
        match reply {
            Ok(_) => {}
            Err(ClientError::Closed) => {
                return Err(format!(
                    "{which} exited before answering its first command: is the command right?"
                ))
            }
            Err(ClientError::Timeout) => {
                return Err(format!(
                    "{which} gave no GTP answer to 'name' within {} s",
                    COMMAND_PATIENCE.as_secs()
                ))
            }
        }
    }
    Ok(())
}

/// What the match produced.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub results: Vec<GameResult>,
    pub tally: Tally,
    pub sprt: Option<(SprtVerdict, f64)>,
}

/// Runs the match; `progress` sees each game as it finishes (in finishing order).
pub fn run_match(
    config: &MatchConfig,
    mut progress: impl FnMut(&GameResult, &Tally),
) -> MatchReport {
    let (jobs_tx, jobs) = unbounded::<usize>();
    for i in 0..config.games {
        let _ = jobs_tx.send(i);
    }
    drop(jobs_tx);
    let (results_tx, results) = unbounded::<GameResult>();
    let halt = AtomicBool::new(false);
    let mut report = MatchReport {
        results: Vec::new(),
        tally: Tally::default(),
        sprt: None,
    };
    std::thread::scope(|s| {
        for _ in 0..config.concurrency.clamp(1, config.games.max(1)) {
            let (jobs, results_tx, halt) = (jobs.clone(), results_tx.clone(), &halt);
            s.spawn(move || {
                let mut seats = [
                    Seat {
                        spec: config.engines[0].clone(),
                        client: None,
                    },
                    Seat {
                        spec: config.engines[1].clone(),
                        client: None,
                    },
                ];
                for i in jobs.iter() {
                    if halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let opening = &config.openings[(i / 2) % config.openings.len()];
                    let game = play_game(&mut seats, i % 2, opening, i, config);
                    if results_tx.send(game).is_err() {
                        break;
                    }
                }
                seats.iter_mut().for_each(Seat::shutdown);
            });
        }
        drop(results_tx);
        for game in results.iter() {
            report.tally.add(game.points_of_first());
            progress(&game, &report.tally);
            report.results.push(game);
            if let Some(sprt) = &config.sprt {
                let verdict = sprt.verdict(&report.tally);
                report.sprt = Some((verdict, report.tally.llr(sprt.elo0, sprt.elo1)));
                if verdict != SprtVerdict::Continue {
                    halt.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    report.results.sort_by_key(|g| g.index);
    report
}
