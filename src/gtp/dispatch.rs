//! The GTP dispatcher: answers commands strictly in order, runs searches on the engine thread
//! and, while one runs, keeps reading input so that `stop`, `quit` and EOF act at once.

use super::parse::{parse_request, preprocess, Command, CommandError, Request, Vertex, COMMANDS};
use super::{Input, MAX_LINE};
use crate::board::{Board, Color, Squares};
use crate::engine::{Engine, Event};
use crate::eval::evaluate;
use crate::game::{Game, GameError};
use crate::perft::{perft, PerftMode};
use crate::report::{best_line, format_score, info_lines, vertex_name};
use crate::search::{Limits, Report};
use crate::timeman::{solvable_empties, Clock, Remaining};
use crossbeam_channel::{select, Receiver};
use std::collections::VecDeque;
use std::io::Write;
use std::time::{Duration, Instant};

/// Deepest analysis when no time is given (it goes on until `stop` or the exact solve).
const MAX_ANALYSIS_DEPTH: u32 = 60;

pub struct Session<W: Write> {
    input: Receiver<Input>,
    /// Lines read while a search ran, answered after it.
    pending: VecDeque<Input>,
    input_closed: bool,
    out: W,
    engine: Engine,
    game: Game,
    komi: f64,
    clock: Clock,
    left: [Option<Remaining>; 2],
    fixed_depth: Option<u32>,
    move_time: Option<f64>,
    /// The longest a search has answered after its hard deadline, kept back from clocks.
    lag: Duration,
    /// Threads of every search.
    threads: usize,
}

enum Flow {
    Continue,
    Quit,
}

type Reply = Result<String, String>;

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl<W: Write> Session<W> {
    pub fn new(input: Receiver<Input>, out: W, options: &super::Options) -> Session<W> {
        Session {
            input,
            pending: VecDeque::new(),
            input_closed: false,
            out,
            engine: Engine::new(options.hash_mib),
            game: Game::default(),
            komi: 0.0,
            clock: Clock::Untimed,
            left: [None, None],
            fixed_depth: options.depth.filter(|&d| d > 0),
            move_time: options.move_time,
            lag: Duration::ZERO,
            threads: options.threads,
        }
    }

    /// Answers commands until `quit` or the end of input.
    pub fn run(&mut self) {
        loop {
            let input = match self.pending.pop_front() {
                Some(i) => i,
                None if self.input_closed => return,
                None => self.input.recv().unwrap_or(Input::Eof),
            };
            let (line, overlong) = match input {
                Input::Eof => return,
                Input::Line(line, overlong) => (line, overlong),
            };
            let Some(text) = preprocess(&line) else {
                continue;
            };
            log::debug!("<- {text}");
            let mut request = parse_request(&text);
            if overlong {
                request.command = Err(CommandError::Syntax(format!(
                    "line longer than {MAX_LINE} bytes"
                )));
            }
            if let Flow::Quit = self.execute(request) {
                return;
            }
        }
    }

    fn write_raw(&mut self, text: &str) {
        // Output that cannot be written means the controller is gone: end as at EOF.
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|_| self.out.flush());
        if written.is_err() && !self.input_closed {
            self.engine.stop();
            self.input_closed = true;
            self.pending.push_back(Input::Eof);
        }
    }

    fn respond(&mut self, id: &Option<String>, reply: Reply) {
        let id = id.as_deref().unwrap_or("");
        let text = match &reply {
            Ok(s) if s.is_empty() => format!("={id}\n\n"),
            Ok(s) => format!("={id} {s}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
        log::debug!("-> {}", text.trim_end());
        self.write_raw(&text);
    }

    fn execute(&mut self, request: Request) -> Flow {
        let Request { id, command } = request;
        let command = match command {
            Ok(c) => c,
            Err(e) => {
                self.respond(&id, Err(e.to_string()));
                return Flow::Continue;
            }
        };
        let quit = command == Command::Quit;
        if let Some(reply) = self.answer(&id, command) {
            self.respond(&id, reply);
        }
        if quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// The reply to a command, or `None` when the command streamed its own reply.
    fn answer(&mut self, id: &Option<String>, command: Command) -> Option<Reply> {
        use Command::*;
        Some(match command {
            Quit => Ok(String::new()),
            Analyze { lines, seconds } => {
                self.analyze(id, lines, seconds);
                return None;
            }
            ProtocolVersion => Ok("2".into()),
            Name => Ok("Oxello".into()),
            Version => Ok(env!("CARGO_PKG_VERSION").into()),
            KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            ListCommands => Ok(COMMANDS.join("\n")),
            Boardsize(8) => Ok(String::new()),
            Boardsize(_) => Err("unacceptable size".into()),
            ClearBoard => {
                self.game = Game::default();
                self.left = [self.clock.initial(); 2];
                Ok(String::new())
            }
            Komi(k) => {
                self.komi = k;
                Ok(String::new())
            }
            Play(color, vertex) => {
                let result = match vertex {
                    Vertex::Pass => self.game.pass(color),
                    Vertex::Square(sq) => self.game.play(color, sq),
                };
                result.map(|_| String::new()).map_err(|e| e.to_string())
            }
            Genmove(color) => self.genmove(color, true),
            RegGenmove(color) => self.genmove(color, false),
            Undo => self
                .game
                .undo()
                .map(|_| String::new())
                .map_err(|e| e.to_string()),
            FinalScore => self.final_score(),
            Showboard => Ok(format!("\n{}", self.game.position())),
            TimeSettings {
                main,
                byoyomi,
                stones,
            } => {
                self.clock = Clock::from_settings(main, byoyomi, stones);
                self.left = [self.clock.initial(); 2];
                Ok(String::new())
            }
            TimeLeft {
                color,
                time,
                stones,
            } => {
                self.left[index(color)] = Some(Remaining {
                    seconds: time,
                    stones,
                });
                Ok(String::new())
            }
            ListGames => Ok("Othello".into()),
            SetGame(name) if name.eq_ignore_ascii_case("othello") => Ok(String::new()),
            SetGame(_) => Err("unsupported game".into()),
            Setboard(position) => {
                self.game = Game::new(position);
                Ok(String::new())
            }
            // Nothing is running between commands: a stop that arrives then has nothing to end.
            Stop => Ok(String::new()),
            Perft(depth) => {
                Ok(perft(&self.game.position().board, depth, PerftMode::PassIsPly).to_string())
            }
            Solve => self.solve(),
            Eval => Ok(format_score(evaluate(&self.game.position().board), false)),
            Depth(d) => {
                self.fixed_depth = (d > 0).then_some(d);
                Ok(String::new())
            }
            MoveTime(s) => {
                self.move_time = (s > 0.0).then_some(s);
                Ok(String::new())
            }
            Hash(mib) => {
                self.engine.resize(mib);
                Ok(String::new())
            }
            Threads(n) => {
                self.threads = n;
                Ok(String::new())
            }
        })
    }

    /// The board `color` moves on: the current one, or after an implied pass of the other side.
    /// `Ok(None)` when `color` has to pass (or the game is over).
    fn board_for(&self, color: Color) -> Result<Option<Board>, String> {
        let pos = self.game.position();
        let mover = match self.game.next_to_play() {
            None => return Ok(None),
            Some(c) => c,
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

    fn genmove(&mut self, color: Color, play: bool) -> Reply {
        let Some(board) = self.board_for(color)? else {
            // A forced pass is recorded so that the turn moves on.
            if play && !self.game.is_over() {
                self.game.pass(color).map_err(|e| e.to_string())?;
            }
            return Ok("pass".into());
        };
        let moves = board.moves();
        let best = if moves.count_ones() == 1 {
            // Only one move: no need to think about it.
            Squares(moves).next()
        } else {
            let limits = self.move_limits(color, board.empty_count());
            let report = self.think(board, limits, |_, _| {});
            if play {
                self.charge_clock(color, report.elapsed);
            }
            report.best_move().or_else(|| Squares(moves).next())
        };
        let sq = best.ok_or_else(|| "no legal move".to_string())?;
        if play {
            self.game
                .play(color, sq)
                .map_err(|e: GameError| e.to_string())?;
        }
        Ok(vertex_name(Some(sq)))
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

    fn charge_clock(&mut self, color: Color, used: Duration) {
        let i = index(color);
        if let Some(left) = self.left[i] {
            self.left[i] = Some(self.clock.after_move(left, used.as_secs_f64()));
        }
    }

    fn final_score(&self) -> Reply {
        if !self.game.is_over() {
            return Err("cannot score".into());
        }
        let score = f64::from(self.game.position().black_final_score()) - self.komi;
        let amount = if score.fract() == 0.0 {
            format!("{}", score.abs())
        } else {
            format!("{:.1}", score.abs())
        };
        Ok(if score > 0.0 {
            format!("B+{amount}")
        } else if score < 0.0 {
            format!("W+{amount}")
        } else {
            "0".into()
        })
    }

    fn solve(&mut self) -> Reply {
        let board = self.game.position().board;
        let report = self.think(board, Limits::default(), |_, _| {});
        if !report.exact {
            return Err("stopped before the end".into());
        }
        Ok(format!(
            "{} {}",
            vertex_name(report.best_move()),
            format_score(report.score, true)
        ))
    }

    fn analyze(&mut self, id: &Option<String>, lines: usize, seconds: Option<f64>) {
        let board = self.game.position().board;
        let time = seconds.map(|s| Duration::from_secs_f64(s.min(86_400.0)));
        let limits = Limits {
            depth: Some(MAX_ANALYSIS_DEPTH),
            soft_time: time,
            hard_time: time,
            lines,
            ..Limits::default()
        };
        self.write_raw(&format!("={}\n", id.as_deref().unwrap_or("")));
        let report = self.think(board, limits, |session, r| {
            session.write_raw(&info_lines(r))
        });
        self.write_raw(&(best_line(&report) + "\n"));
    }

    /// Runs a search to its end while reading input: `stop`, `quit` and EOF stop the search at
    /// once; every line read is kept to be answered afterwards, in order.
    fn think(
        &mut self,
        board: Board,
        limits: Limits,
        mut progress: impl FnMut(&mut Self, &Report),
    ) -> Report {
        let started = Instant::now();
        let hard = limits.hard_time;
        let limits = Limits {
            threads: self.threads,
            ..limits
        };
        let report = self.wait_for_search(board, limits, &mut progress);
        if let Some(hard) = hard {
            self.lag = self.lag.max(started.elapsed().saturating_sub(hard));
        }
        report
    }

    fn wait_for_search(
        &mut self,
        board: Board,
        limits: Limits,
        progress: &mut impl FnMut(&mut Self, &Report),
    ) -> Report {
        self.engine.start(board, limits);
        // A stop, quit or EOF already read (behind this command) ends this search too.
        if self.pending.iter().any(interrupts) {
            self.engine.stop();
        }
        let events = self.engine.events().clone();
        let input = self.input.clone();
        loop {
            if self.input_closed {
                match events.recv() {
                    Ok(Event::Progress(r)) => progress(self, &r),
                    Ok(Event::Done(r)) => return r,
                    Ok(_) => {}
                    Err(_) => return Report::default(),
                }
                continue;
            }
            select! {
                recv(events) -> event => match event {
                    Ok(Event::Progress(r)) => progress(self, &r),
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
                        self.input_closed = true;
                    }
                    self.pending.push_back(line);
                }
            }
        }
    }
}

/// Input that ends a running search: EOF, `stop` and `quit`.
fn interrupts(input: &Input) -> bool {
    match input {
        Input::Eof => true,
        Input::Line(line, _) => preprocess(line)
            .map(|t| parse_request(&t).command)
            .is_some_and(|c| matches!(c, Ok(Command::Stop) | Ok(Command::Quit))),
    }
}
