//! The game-control layer under every front end (GTP, NBoard): the game with its passes and
//! undo, the clocks and strength settings, the search thread, and the input read while a
//! search runs. Front ends translate lines into calls on [`Play`] and format what it returns;
//! they hold no game state of their own.

use crate::board::{Board, Color, Squares};
use crate::engine::{Engine, Event};
use crate::frontend::Input;
use crate::game::{Game, GameError};
use crate::search::{Limits, Report};
use crate::timeman::{solvable_empties, Clock, Remaining};
use crossbeam_channel::{select, Receiver};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Deepest analysis when no time is given (it goes on until stopped or the exact solve).
const MAX_ANALYSIS_DEPTH: u32 = 60;

/// Start-up settings of an engine session.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mib: usize,
    /// Fixed search depth per move.
    pub depth: Option<u32>,
    /// Fixed time per move in seconds.
    pub move_time: Option<f64>,
    /// Threads of every search.
    pub threads: usize,
}

/// The lines of input, read ahead while a search runs and handed out in order.
pub struct Inbox {
    input: Receiver<Input>,
    pending: VecDeque<Input>,
    closed: bool,
}

impl Inbox {
    pub fn new(input: Receiver<Input>) -> Inbox {
        Inbox {
            input,
            pending: VecDeque::new(),
            closed: false,
        }
    }

    /// The next line, or EOF.
    pub fn next_line(&mut self) -> Input {
        match self.pending.pop_front() {
            Some(input) => input,
            None if self.closed => Input::Eof,
            None => self.input.recv().unwrap_or(Input::Eof),
        }
    }

    /// Hands `input` out before anything else.
    pub fn push_front(&mut self, input: Input) {
        self.pending.push_front(input);
    }

    /// Whether a line already read, not yet handed out, satisfies `test`.
    pub fn has_pending(&self, test: impl Fn(&Input) -> bool) -> bool {
        self.pending.iter().any(test)
    }

    fn close(&mut self) {
        if !self.closed {
            self.closed = true;
            self.pending.push_back(Input::Eof);
        }
    }
}

/// The move a side should play, and the search that chose it (none when the move was forced).
#[derive(Clone, Debug)]
pub struct Choice {
    /// `None`: the side has to pass (or the game is over).
    pub square: Option<u32>,
    pub report: Option<Report>,
}

/// One engine session: the game, its settings and the search thread.
pub struct Play {
    pub inbox: Inbox,
    engine: Engine,
    game: Game,
    clock: Clock,
    left: [Option<Remaining>; 2],
    /// A fixed midgame depth n is also a level as Edax's: the root solves exactly once the
    /// empties are at most 2n.
    fixed_depth: Option<u32>,
    move_time: Option<f64>,
    /// How late searches answer after their hard deadline (the latest, halved at every
    /// search since), kept back from clocks.
    lag: Duration,
    threads: usize,
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Play {
    pub fn new(input: Receiver<Input>, options: &Options) -> Play {
        Play {
            inbox: Inbox::new(input),
            engine: Engine::new(options.hash_mib),
            game: Game::default(),
            clock: Clock::Untimed,
            left: [None, None],
            fixed_depth: options.depth.filter(|&d| d > 0),
            move_time: options.move_time,
            lag: Duration::ZERO,
            threads: options.threads,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Replaces the game (a new one, a set-up position or a whole record); the clocks restart.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.left = [self.clock.initial(); 2];
    }

    pub fn play(&mut self, color: Color, sq: u32) -> Result<(), GameError> {
        self.game.play(color, sq)
    }

    pub fn pass(&mut self, color: Color) -> Result<(), GameError> {
        self.game.pass(color)
    }

    pub fn undo(&mut self) -> Result<(), GameError> {
        self.game.undo()
    }

    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
        self.left = [self.clock.initial(); 2];
    }

    pub fn set_time_left(&mut self, color: Color, left: Remaining) {
        self.left[index(color)] = Some(left);
    }

    /// A fixed midgame depth per move (`None`: play by the clock).
    pub fn set_depth(&mut self, depth: Option<u32>) {
        self.fixed_depth = depth.filter(|&d| d > 0);
    }

    pub fn set_move_time(&mut self, seconds: Option<f64>) {
        self.move_time = seconds.filter(|&s| s > 0.0);
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    pub fn resize_hash(&self, mib: usize) {
        self.engine.resize(mib);
    }

    /// Forgets what earlier searches left in the table.
    pub fn clear_hash(&self) {
        self.engine.clear();
    }

    /// The depth of a fixed-depth session, if it is one.
    pub fn fixed_depth(&self) -> Option<u32> {
        self.fixed_depth
    }

    /// The flag that stops the running search, for a callback that must stop it.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.engine.stop_flag()
    }

    /// The front end can no longer write: the session ends as at EOF.
    pub fn output_failed(&mut self) {
        self.engine.stop();
        self.inbox.close();
    }

    /// The board `color` moves on: the current one, or after an implied pass of the other side.
    /// `Ok(None)` when `color` has to pass (or the game is over).
    fn board_for(&self, color: Color) -> Result<Option<Board>, String> {
        let pos = self.game.position();
        let Some(mover) = self.game.next_to_play() else {
            return Ok(None);
        };
        if mover != color {
            return if pos.side == color {
                Ok(None)
            } else {
                Err(format!("illegal move: {} is to move", mover.name()))
            };
        }
        Ok(Some(if pos.side == color {
            pos.board
        } else {
            pos.board.pass()
        }))
    }

    /// The move `color` should play now, found within the clock or the fixed depth or time;
    /// `charge` takes the time used off `color`'s clock. A single legal move is played at
    /// once. Input that `interrupts` stops the search early.
    pub fn choose_move(
        &mut self,
        color: Color,
        charge: bool,
        interrupts: fn(&Input) -> bool,
        progress: impl FnMut(&Report),
    ) -> Result<Choice, String> {
        let Some(board) = self.board_for(color)? else {
            return Ok(Choice {
                square: None,
                report: None,
            });
        };
        let moves = board.moves();
        if moves.count_ones() == 1 {
            return Ok(Choice {
                square: Squares(moves).next(),
                report: None,
            });
        }
        let limits = self.move_limits(color, board.empty_count());
        let report = self.think(board, limits, interrupts, progress);
        if charge {
            let i = index(color);
            if let Some(left) = self.left[i] {
                self.left[i] = Some(self.clock.after_move(left, report.elapsed.as_secs_f64()));
            }
        }
        Ok(Choice {
            square: report.best_move().or_else(|| Squares(moves).next()),
            report: Some(report),
        })
    }

    fn move_limits(&self, color: Color, empties: u32) -> Limits {
        let (soft, hard) = match self.move_time {
            Some(t) => {
                let t = Duration::from_secs_f64(t);
                (t, t)
            }
            None => self
                .clock
                .budget(self.left[index(color)], empties, self.lag),
        };
        // A fixed depth without a fixed time plays at that depth, however long it takes.
        let timed = self.fixed_depth.is_none() || self.move_time.is_some();
        Limits {
            depth: self.fixed_depth,
            soft_time: timed.then_some(soft),
            hard_time: timed.then_some(hard),
            exact_empties: timed.then(|| solvable_empties(soft)),
            ..Limits::default()
        }
    }

    /// Solves the current position exactly.
    pub fn solve(&mut self, interrupts: fn(&Input) -> bool) -> Report {
        let board = self.game.position().board;
        self.think(board, Limits::default(), interrupts, |_| {})
    }

    /// Searches the current position for its `lines` best moves, to `depth` (default: as deep
    /// as it goes), for `seconds` or until stopped, with `progress` after every iteration.
    pub fn analyze(
        &mut self,
        lines: usize,
        depth: Option<u32>,
        seconds: Option<f64>,
        interrupts: fn(&Input) -> bool,
        progress: impl FnMut(&Report),
    ) -> Report {
        let board = self.game.position().board;
        let time = seconds.map(|s| Duration::from_secs_f64(s.min(86_400.0)));
        let limits = Limits {
            depth: Some(depth.unwrap_or(MAX_ANALYSIS_DEPTH).min(MAX_ANALYSIS_DEPTH)),
            soft_time: time,
            hard_time: time,
            lines,
            ..Limits::default()
        };
        self.think(board, limits, interrupts, progress)
    }

    /// Searches `board` at the session's fixed depth and level (its exact solve where the
    /// level reaches), for a value of a position that is not the current one.
    pub fn evaluate_position(&mut self, board: Board, interrupts: fn(&Input) -> bool) -> Report {
        let limits = Limits {
            depth: self.fixed_depth,
            ..Limits::default()
        };
        self.think(board, limits, interrupts, |_| {})
    }

    /// Runs a search to its end while reading input: input that `interrupts` stops the search
    /// at once; every line read is kept to be handed out afterwards, in order.
    pub fn think(
        &mut self,
        board: Board,
        limits: Limits,
        interrupts: fn(&Input) -> bool,
        mut progress: impl FnMut(&Report),
    ) -> Report {
        let started = Instant::now();
        let hard = limits.hard_time;
        let limits = Limits {
            threads: self.threads,
            clock_start: Some(started),
            ..limits
        };
        self.engine.start(board, limits);
        // Input already read (behind this request) that interrupts ends this search too.
        if self.inbox.has_pending(interrupts) {
            self.engine.stop();
        }
        let report = self.wait(interrupts, &mut progress);
        if let Some(hard) = hard {
            // A lag seen again keeps its reserve; a one-off delay is forgotten within a few
            // moves instead of eating every later move's time.
            let late = started.elapsed().saturating_sub(hard);
            self.lag = late.max(self.lag / 2);
        }
        report
    }

    fn wait(
        &mut self,
        interrupts: fn(&Input) -> bool,
        progress: &mut impl FnMut(&Report),
    ) -> Report {
        let events = self.engine.events().clone();
        let input = self.inbox.input.clone();
        loop {
            if self.inbox.closed {
                match events.recv() {
                    Ok(Event::Progress(r)) => progress(&r),
                    Ok(Event::Done(r)) => return r,
                    Ok(_) => {}
                    Err(_) => return Report::default(),
                }
                continue;
            }
            select! {
                recv(events) -> event => match event {
                    Ok(Event::Progress(r)) => progress(&r),
                    Ok(Event::Done(r)) => return r,
                    Ok(_) => {}
                    Err(_) => return Report::default(),
                },
                recv(input) -> line => {
                    let line = line.unwrap_or(Input::Eof);
                    if interrupts(&line) {
                        self.engine.stop();
                    }
                    if line == Input::Eof {
                        self.inbox.closed = true;
                    }
                    self.inbox.pending.push_back(line);
                }
            }
        }
    }
}
