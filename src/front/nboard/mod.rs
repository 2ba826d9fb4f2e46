//! The NBoard front end: NBoard's line protocol (see protocol.md) translated into calls on the
//! game-control layer ([`Play`]). Replies carry no framing; a line the engine cannot take is
//! answered with a `status` line that says why, and changes nothing.
//!
//! Every request that searches (`go`, `hint`, `analyze`) is stopped by the next `ping` (or a
//! closed output); its answer is then dropped, so that nothing older than a `pong` follows
//! it. Everything else, `quit` and the end of input included, waits its turn.

pub mod parse;

use crate::base::io::{Input, Output, MAX_LINE};
use crate::engine::board::Squares;
use crate::engine::eval::DISC;
use crate::engine::notation::square_name;
use crate::engine::openings::openings;
use crate::engine::search::{Level, Report};
use crate::play::book::Depth;
use crate::play::session::{Choice, Play, Settings};
use crossbeam_channel::Receiver;
use parse::{parse_command, Command};
use std::io::Write;

/// The level until NBoard sets one.
const DEFAULT_LEVEL: u32 = 12;

/// Runs an NBoard session on `out` until `quit` or EOF, `first` being the first line read.
pub fn run(first: Input, input: Receiver<Input>, out: impl Write, options: &Settings) {
    // NBoard shows whatever reaches stderr as an engine error: logging only when asked for.
    crate::base::io::mute_stderr_unless_asked();
    let mut session = Session::new(input, out, options);
    session.play.inbox.push_front(first);
    session.run();
}

pub struct Session<W: Write> {
    play: Play,
    out: Output<W>,
}

/// Input that ends a running search: `ping`.
fn interrupts(input: &Input) -> bool {
    match input {
        Input::Eof | Input::Closed => false,
        Input::Line(line, _) => line.split_whitespace().next() == Some("ping"),
    }
}

/// A score in discs as NBoard reads it: side to move's view, two decimals.
fn discs(centi: i32) -> String {
    format!("{:.2}", f64::from(centi) / f64::from(DISC))
}

/// A move as NBoard writes it: upper case, `PA` for a pass.
fn move_name(sq: Option<u32>) -> String {
    sq.map_or_else(|| "PA".into(), |s| square_name(s).to_uppercase())
}

/// A search's depth as NBoard's hint lines carry it: `100%` for an exact solve (as for exact
/// book moves), `26@95%` for a selective one, the midgame's as `20@68%`.
fn hint_depth(r: &Report) -> String {
    if r.exact {
        "100%".into()
    } else {
        r.depth_at().to_string()
    }
}

impl<W: Write> Session<W> {
    pub fn new(input: Receiver<Input>, out: W, options: &Settings) -> Session<W> {
        let mut play = Play::new(input, options, interrupts);
        play.set_level(options.level.or(Level::new(DEFAULT_LEVEL)));
        Session {
            play,
            out: Output::new(out),
        }
    }

    /// Answers lines until `quit` or the end of input.
    pub fn run(&mut self) {
        loop {
            let (line, overlong) = match self.play.next_line() {
                Input::Eof | Input::Closed => return,
                Input::Line(line, overlong) => (line, overlong),
            };
            if line.trim().is_empty() {
                continue;
            }
            let command = if overlong {
                Err(format!("line longer than {MAX_LINE} bytes ignored"))
            } else {
                parse_command(&line)
            };
            match command {
                Ok(Command::Quit) => return,
                Ok(command) => self.execute(command),
                Err(e) => self.status(&format!("ignored: {e}")),
            }
        }
    }

    fn send(&mut self, line: &str) {
        if !self.out.write(&format!("{line}\n")) {
            self.play.output_failed();
        }
    }

    fn status(&mut self, text: &str) {
        self.send(&format!("status {text}"));
    }

    /// Whether input read during the last search makes its answer stale.
    fn superseded(&self) -> bool {
        self.play.interrupted()
    }

    fn execute(&mut self, command: Command) {
        match command {
            Command::Hello(_) => {
                self.send(&format!("set myname Oxello {}", env!("CARGO_PKG_VERSION")))
            }
            Command::SetGame(game) => self.play.set_game(game),
            Command::SetDepth(level) => {
                self.play.set_level(Some(level));
                // As NTest and Edax do, so that saved games record the level.
                self.send(&format!("set myname Oxello{level}"));
            }
            Command::SetContempt(centi_discs) => self.set_contempt(centi_discs),
            Command::Move(mv) => {
                let side = self.play.game().position().side;
                if let Err(e) = self.play.play_move(side, mv) {
                    self.status(&format!("move ignored: {e}"));
                }
            }
            Command::Ping(n) => self.send(&format!("pong {n}")),
            Command::Go => self.go(),
            Command::Hint(n) => self.hint(n),
            Command::Learn => {
                self.play.stop_ponder();
                self.learn()
            }
            Command::Analyze => self.analyze(),
            Command::Quit => {}
        }
    }

    /// Values draws at the contempt, saying so when it had to be brought within range.
    fn set_contempt(&mut self, centi_discs: i64) {
        let used = self.play.set_contempt(centi_discs);
        if i64::from(used) != centi_discs {
            self.status(&format!(
                "contempt {centi_discs} counted as {used}: a draw ranks between a 2-disc loss and a 2-disc win"
            ));
        }
    }

    /// A `status` line for each finished iteration of a search, with its depth, selectivity
    /// and score.
    fn progress_status(out: &mut Output<W>, r: &Report) -> bool {
        let kind = if r.exact { "exact" } else { "depth" };
        let pv = r.lines.first().map_or(String::new(), |l| {
            l.pv.iter()
                .map(|&m| move_name(Some(m)))
                .collect::<Vec<_>>()
                .join("-")
        });
        out.write(&format!(
            "status {kind} {} score {} nodes {} {pv}\n",
            r.depth_at(),
            discs(r.score),
            r.nodes
        ))
    }

    fn go(&mut self) {
        let side = self.play.game().position().side;
        if self.play.game().is_over() {
            self.status("the game is over: no move to make");
            return;
        }
        self.opening_status();
        let out = &mut self.out;
        let choice = self
            .play
            .choose_move(side, false, |r| Self::progress_status(out, r));
        if self.superseded() {
            return;
        }
        match choice {
            Ok(choice) => {
                let mut reply = format!("=== {}", move_name(choice.square()));
                match &choice {
                    Choice::Book(book) => reply += &format!("/{}/0.0", discs(book.value)),
                    Choice::Searched(_, r) => {
                        let seconds = r.elapsed.as_secs_f64();
                        self.send(&format!("nodestats {} {seconds:.2}", r.nodes));
                        reply += &format!("/{}/{seconds:.1}", discs(r.score));
                    }
                    Choice::Forced(_) | Choice::Pass => {}
                }
                self.send(&reply);
                self.play.ponder(side, &choice);
            }
            Err(e) => self.status(&format!("go ignored: {e}")),
        }
    }

    /// `status opening: <name>` while the game is still in a named line (see
    /// `engine::openings`), so that NBoard's status bar names it.
    fn opening_status(&mut self) {
        if let Some(opening) = openings().current(self.play.game()) {
            self.status(&format!("opening: {}", opening.name));
        }
    }

    /// `search <pv> <eval> 0 <depth>` lines for the best `n` moves after every iteration.
    fn hint(&mut self, n: usize) {
        let position = *self.play.game().position();
        if position.moves_of(position.side) == 0 {
            self.status("hint: the side to move has no legal move");
            return;
        }
        let lines = n.min(Squares(position.moves_of(position.side)).count());
        self.book_hints(&position.board, lines);
        let level = self.play.level();
        let out = &mut self.out;
        self.play.analyze(lines, level, None, |r| {
            let text: String = r
                .lines
                .iter()
                .map(|l| {
                    let pv: Vec<String> = l.pv.iter().map(|&m| move_name(Some(m))).collect();
                    let depth = hint_depth(r);
                    format!("search {} {} 0 {depth}\n", pv.join("-"), discs(l.score))
                })
                .collect();
            out.write(&text)
        });
    }

    /// `book <move> <eval> 0 <depth>` for the best `n` book moves of `board`.
    fn book_hints(&mut self, board: &crate::engine::board::Board, n: usize) {
        for m in self.play.opening.moves(board).into_iter().take(n) {
            let depth = match m.depth {
                Depth::Plies(d) => d.to_string(),
                Depth::Exact => "100%".into(),
            };
            let line = format!(
                "book {} {} 0 {depth}",
                move_name(Some(m.square)),
                discs(m.value)
            );
            self.send(&line);
        }
    }

    /// `learn`: the game into the book file the user named, then a `status` line.
    fn learn(&mut self) {
        let game = self.play.game().clone();
        let text = match self.play.opening.learn(&game) {
            Ok((added, path)) => format!(
                "learned the game: {added} new positions in {}",
                path.display()
            ),
            Err(e) => e.to_string(),
        };
        self.status(&text);
    }

    /// `analysis <moveNumber> <eval>` for every position of the game, from the last back to
    /// the first, each searched at the session's level (exactly where it reaches).
    fn analyze(&mut self) {
        let mut game = self.play.game().clone();
        loop {
            let number = game.record().len();
            let position = *game.position();
            let score = if position.is_game_over() {
                position.board.final_score() * DISC
            } else {
                let r = self.play.evaluate_position(position.board);
                if self.superseded() {
                    return;
                }
                r.score
            };
            self.send(&format!("analysis {number} {}", discs(score)));
            if game.undo().is_err() {
                return;
            }
        }
    }
}
