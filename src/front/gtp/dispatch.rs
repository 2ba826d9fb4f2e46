//! The GTP dispatcher: answers commands strictly in order on the game-control layer
//! ([`Play`]), which runs searches on the engine thread and, while one runs, keeps reading
//! input so that `stop` (and a closed output) act at once; everything else, `quit` and the
//! end of input included, waits its turn.

use super::parse::{find, parse_request, preprocess, Command, CommandError, Request, COMMANDS};
use crate::base::datafile::write_atomically;
use crate::base::io::{Input, Output, MAX_LINE};
use crate::engine::board::Color;
use crate::engine::eval::evaluate;
use crate::engine::game::{Game, Move};
use crate::engine::gamefile::{
    read_named, read_one, write_ggf, write_transcript, ReadError, Record,
};
use crate::engine::openings::openings;
use crate::engine::perft::PerftMode;
use crate::engine::search::Level;
use crate::play::clock::{Clock, Remaining};
use crate::play::format::{best_line, format_score, info_lines, vertex_name};
use crate::play::review::{jobs, report, review_all, REVIEW_HASH_MIB};
use crate::play::session::{Play, Settings};
use crossbeam_channel::Receiver;
use std::io::Write;

pub struct Session<W: Write> {
    play: Play,
    out: Output<W>,
}

enum Flow {
    Continue,
    Quit,
}

type Reply = Result<String, String>;

impl<W: Write> Session<W> {
    pub fn new(input: Receiver<Input>, out: W, options: &Settings) -> Session<W> {
        Session {
            play: Play::new(input, options, interrupts),
            out: Output::new(out),
        }
    }

    /// Answers `input` before anything else (the line read to choose the protocol).
    pub fn push_front(&mut self, input: Input) {
        self.play.inbox.push_front(input);
    }

    /// Answers commands until `quit` or the end of input.
    pub fn run(&mut self) {
        loop {
            let (line, overlong) = match self.play.next_line() {
                Input::Eof | Input::Closed => return,
                Input::Line(line, overlong) => (line, overlong),
            };
            let Some(text) = preprocess(&line) else {
                continue;
            };
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
        if !self.out.write(text) {
            self.play.output_failed();
        }
    }

    fn respond(&mut self, id: &Option<String>, reply: Reply) {
        let id = id.as_deref().unwrap_or("");
        let text = match &reply {
            Ok(s) if s.is_empty() => format!("={id}\n\n"),
            Ok(s) => format!("={id} {s}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
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
            KnownCommand(name) => Ok(find(&name).is_some().to_string()),
            ListCommands => Ok(COMMANDS
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Boardsize(8) => Ok(String::new()),
            Boardsize(_) => Err("unacceptable size".into()),
            ClearBoard => {
                self.play.set_game(Game::default());
                Ok(String::new())
            }
            Komi(k) => {
                self.play.set_komi(k);
                Ok(String::new())
            }
            Play(color, vertex) => {
                let result = match vertex {
                    Move::Pass => self.play.pass(color),
                    Move::Play(sq) => self.play.play(color, sq),
                };
                result.map(|_| String::new()).map_err(|e| e.to_string())
            }
            Genmove(color) => self.genmove(color, true),
            RegGenmove(color) => self.genmove(color, false),
            Undo => self
                .play
                .undo()
                .map(|_| String::new())
                .map_err(|e| e.to_string()),
            FinalScore => self.final_score(),
            Showboard => Ok(format!("\n{}", self.play.game().position())),
            TimeSettings {
                main,
                byoyomi,
                stones,
            } => {
                self.play
                    .set_clock(Clock::from_settings(main, byoyomi, stones));
                Ok(String::new())
            }
            TimeLeft {
                color,
                time,
                stones,
            } => {
                self.play.set_time_left(
                    color,
                    Remaining {
                        seconds: time,
                        stones,
                    },
                );
                Ok(String::new())
            }
            ListGames => Ok("Othello".into()),
            SetGame(name) if name.eq_ignore_ascii_case("othello") => Ok(String::new()),
            SetGame(_) => Err("unsupported game".into()),
            Setboard(position) => {
                self.play.set_game(Game::new(position));
                Ok(String::new())
            }
            // Nothing is running between commands: a stop that arrives then has nothing to end.
            Stop => Ok(String::new()),
            Perft(depth) => match self.play.perft(depth, PerftMode::PassIsPly) {
                Some(leaves) => Ok(leaves.to_string()),
                None => Err("stopped before the end".into()),
            },
            Solve => self.solve(),
            Eval => Ok(format_score(
                evaluate(&self.play.game().position().board),
                false,
            )),
            Depth(level) => {
                self.play.set_level(level);
                Ok(String::new())
            }
            MoveTime(s) => {
                self.play.set_move_time(Some(s));
                Ok(String::new())
            }
            Hash(mib) => {
                self.play.resize_hash(mib);
                Ok(String::new())
            }
            Threads(n) => {
                self.play.set_threads(n);
                Ok(String::new())
            }
            Book(on) => {
                self.play.stop_ponder();
                self.play.opening.set_enabled(on);
                Ok(String::new())
            }
            BookRandomness(discs) => {
                self.play.stop_ponder();
                self.play
                    .opening
                    .set_randomness(discs)
                    .map(|_| String::new())
                    .map_err(|e| e.to_string())
            }
            GameText(text) => self.set_record(read_one(&text)),
            LoadGgf(path, ply) => self.load_ggf(&path, ply),
            SaveGgf(path) => self.save_ggf(&path),
            Transcript => Ok(write_transcript(self.play.game())),
            Review(level) => Ok(self.review(level)),
            Opening => Ok(openings()
                .current(self.play.game())
                .map_or("none".to_string(), |o| o.name.to_string())),
            Ponder(on) => {
                self.play.set_pondering(on);
                Ok(String::new())
            }
        })
    }

    /// Replaces the game by a record read, or leaves it as it is and says why not.
    fn set_record(&mut self, record: Result<Record, ReadError>) -> Reply {
        let record = record.map_err(|e| e.to_string())?;
        self.play.set_game(record.game);
        Ok(String::new())
    }

    /// The first game of a file (any format `engine::gamefile` reads), to move `ply` if given.
    fn load_ggf(&mut self, path: &str, ply: Option<usize>) -> Reply {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let first = read_named(&bytes, path)
            .map_err(|e| format!("{path}: {e}"))?
            .remove(0);
        let Some(n) = ply else {
            return self.set_record(Ok(first));
        };
        let moves = first.game.moves();
        let played = moves
            .get(..n)
            .ok_or_else(|| format!("{path}: move {n}: the game has {} moves", moves.len()))?;
        let game = Game::replay(*first.game.start(), played)?;
        self.play.set_game(game);
        Ok(String::new())
    }

    /// Writes the game to `path` as one GGF record, replacing the file whole.
    fn save_ggf(&mut self, path: &str) -> Reply {
        let record = Record::of(self.play.game().clone(), 1);
        let text = write_ggf(&record) + "\n";
        write_atomically(std::path::Path::new(path), text.as_bytes())
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(String::new())
    }

    /// The review of the game, as `oxello review` prints it: the rows, then each side's
    /// summary.
    fn review(&mut self, level: Level) -> String {
        self.play.stop_ponder();
        let rows = review_all(
            &jobs(self.play.game(), 1),
            level,
            self.play.threads(),
            REVIEW_HASH_MIB,
            &|_| {},
        );
        format!("\n{}", report(&rows))
    }

    fn genmove(&mut self, color: Color, play: bool) -> Reply {
        let choice = self.play.choose_move(color, play, |_| true)?;
        let Some(sq) = choice.square() else {
            // A forced pass is recorded so that the turn moves on.
            if play && !self.play.game().is_over() {
                self.play.pass(color).map_err(|e| e.to_string())?;
            }
            return Ok("pass".into());
        };
        if play {
            self.play.play(color, sq).map_err(|e| e.to_string())?;
            self.play.ponder(color, &choice);
        }
        Ok(vertex_name(Some(sq)))
    }

    fn final_score(&self) -> Reply {
        let score = self.play.final_score().ok_or("cannot score")?;
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
        let report = self.play.solve();
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
        self.write_raw(&format!("={}\n", id.as_deref().unwrap_or("")));
        let board = self.play.game().position().board;
        let book = self.play.opening.moves(&board);
        self.write_raw(&crate::play::book::policy::info_lines(
            &book[..book.len().min(lines)],
        ));
        let out = &mut self.out;
        let report = self
            .play
            .analyze(lines, None, seconds, |r| out.write(&info_lines(r)));
        self.write_raw(&(best_line(&report) + "\n"));
    }
}

/// Input that ends a running search: `stop`.
fn interrupts(input: &Input) -> bool {
    match input {
        Input::Eof | Input::Closed => false,
        Input::Line(line, _) => preprocess(line)
            .map(|t| parse_request(&t).command)
            .is_some_and(|c| c == Ok(Command::Stop)),
    }
}
