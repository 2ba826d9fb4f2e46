//! The game-control layer under every front end (GTP, NBoard): the game with its passes and
//! undo, the clocks and strength settings, the search thread, and the input read while a
//! search runs. Front ends translate lines into calls on [`Play`] and format what it returns;
//! they hold no game state of their own. While a search runs, its caller hears of every
//! finished iteration and, whenever half a second has passed without one, of the stage under
//! way ([`Progress`]). With pondering on (see [`ponder`]), the session searches on the
//! opponent's time the reply it expects.

mod ponder;

use crate::base::io::{Inbox, Input};
use crate::engine::board::{Board, Color};
use crate::engine::game::{Game, GameError, Move};
use crate::engine::perft::PerftMode;
use crate::engine::search::{Level, Limits, Report, Running, MAX_CONTEMPT};
use crate::play::book::policy::{self, Opening};
use crate::play::book::{BookMove, Depth};
use crate::play::clock::{
    solvable_empties, Clock, Remaining, DEFAULT_ANALYSIS_SECONDS, MAX_SECONDS,
};
use crate::play::format::{format_score, iteration_line, stage_line, vertex_name};
use crate::play::thread::{Event, SearchThread};
use crossbeam_channel::{at, never, select, Receiver};
use std::time::{Duration, Instant};

/// Deepest analysis when no time is given (it goes on until stopped or the exact solve).
const MAX_ANALYSIS_DEPTH: u32 = 60;

/// The longest a running search goes without telling its caller (and the log) anything: a
/// stage that runs longer is reported at this interval.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(500);

/// What a running search tells its caller.
#[derive(Copy, Clone, Debug)]
pub enum Progress<'a> {
    /// An iteration (or endgame solve) has finished.
    Iteration(&'a Report),
    /// Nothing has finished for [`PROGRESS_INTERVAL`]: the stage under way and the search's
    /// nodes and time so far.
    Running(&'a Running),
}

/// Start-up settings of an engine session.
#[derive(Clone, Debug)]
pub struct Settings {
    pub hash_mib: usize,
    /// The playing level of every move (see `search::level`); `None`: the clock's.
    pub level: Option<Level>,
    /// Fixed time per move in seconds.
    pub move_time: Option<f64>,
    /// Threads of every search.
    pub threads: usize,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// The opening book.
    pub book: policy::BookSettings,
}

/// The move a side should play, and what chose it.
#[derive(Clone, Debug)]
pub enum Choice {
    /// The side has to pass (or the game is over).
    Pass,
    /// The only legal move, played without a search.
    Forced(u32),
    /// A book move, played instead of a search.
    Book(BookMove),
    /// The best move of the search, and the search.
    Searched(u32, Report),
}

impl Choice {
    /// The square to play; `None` for a pass.
    pub fn square(&self) -> Option<u32> {
        match self {
            Choice::Pass => None,
            Choice::Forced(square) | Choice::Searched(square, _) => Some(*square),
            Choice::Book(book) => Some(book.square),
        }
    }
}

/// One engine session: the game, its settings and the search thread.
pub struct Play {
    pub inbox: Inbox,
    /// Input that stops a running search at once (the rest waits its turn).
    interrupts: fn(&Input) -> bool,
    engine: SearchThread,
    game: Game,
    /// Subtracted from black's result by [`Play::final_score`].
    komi: f64,
    clock: Clock,
    left: [Option<Remaining>; 2],
    /// The playing level of every move (see `search::level`), or `None` for the clock.
    level: Option<Level>,
    move_time: Option<f64>,
    /// How late searches answer after their hard deadline (the latest, halved at every
    /// search since), kept back from clocks.
    lag: Duration,
    threads: usize,
    pub opening: Opening,
    /// What the clock reaches, for the book's rule: the empties and depth of the search
    /// with the most empties that chose a move under the current clock and settings. It
    /// outlives the game (a new one is played under the same clock) and is forgotten when
    /// the clock, the move time or the threads change.
    reach: Option<(u32, Depth)>,
    /// What a draw is worth below 0 to the side to move of every search, in centi-discs.
    contempt: i32,
    /// Think on the opponent's time.
    pondering: bool,
    /// The search on the opponent's time, while it may still serve.
    ponder: Option<ponder::Ponder>,
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Play {
    /// A session reading `input`, whose searches stop at once for input that `interrupts`.
    pub fn new(input: Receiver<Input>, options: &Settings, interrupts: fn(&Input) -> bool) -> Play {
        Play {
            inbox: Inbox::new(input),
            interrupts,
            engine: SearchThread::new(options.hash_mib),
            game: Game::default(),
            komi: 0.0,
            clock: Clock::Untimed,
            left: [None, None],
            level: options.level,
            move_time: options.move_time,
            lag: Duration::ZERO,
            threads: options.threads,
            opening: Opening::new(options.book.clone()),
            reach: None,
            contempt: 0,
            pondering: options.ponder,
            ponder: None,
        }
    }

    /// Threads per search.
    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Replaces the game (a new one, a set-up position or a whole record); the clocks restart.
    pub fn set_game(&mut self, game: Game) {
        self.stop_ponder();
        self.game = game;
        self.left = [self.clock.initial(); 2];
    }

    pub fn play(&mut self, color: Color, sq: u32) -> Result<(), GameError> {
        self.game.play(color, sq)?;
        self.follow_ponder(Some(sq));
        Ok(())
    }

    pub fn pass(&mut self, color: Color) -> Result<(), GameError> {
        self.game.pass(color)?;
        self.follow_ponder(None);
        Ok(())
    }

    /// Plays `mv` as a game record reads it (a pass only when `color` has no move).
    pub fn play_move(&mut self, color: Color, mv: Move) -> Result<(), String> {
        crate::engine::ggf::apply(&mut self.game, color, mv)?;
        self.follow_ponder(match mv {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        });
        Ok(())
    }

    pub fn undo(&mut self) -> Result<(), GameError> {
        self.stop_ponder();
        self.game.undo()
    }

    pub fn set_clock(&mut self, clock: Clock) {
        self.stop_ponder();
        if clock != self.clock {
            self.reach = None;
        }
        self.clock = clock;
        self.left = [self.clock.initial(); 2];
    }

    pub fn set_time_left(&mut self, color: Color, left: Remaining) {
        self.left[index(color)] = Some(left);
    }

    /// A playing level for every move (`None`: play by the clock).
    pub fn set_level(&mut self, level: Option<Level>) {
        self.stop_ponder();
        self.level = level;
    }

    pub fn set_move_time(&mut self, seconds: Option<f64>) {
        self.stop_ponder();
        let move_time = seconds.filter(|&s| s > 0.0);
        if move_time != self.move_time {
            self.reach = None;
        }
        self.move_time = move_time;
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.stop_ponder();
        if threads != self.threads {
            self.reach = None;
        }
        self.threads = threads;
    }

    pub fn resize_hash(&mut self, mib: usize) {
        self.stop_ponder();
        self.engine.resize(mib);
    }

    /// Values a draw at `centi_discs` below 0 for the side to move of every search, within
    /// ±[`MAX_CONTEMPT`]; returns the contempt used. The table is emptied when it changes:
    /// its values hold the old one.
    pub fn set_contempt(&mut self, centi_discs: i64) -> i32 {
        self.stop_ponder();
        let bound = i64::from(MAX_CONTEMPT);
        let contempt = centi_discs.clamp(-bound, bound) as i32;
        if contempt != self.contempt {
            self.engine.clear();
        }
        self.contempt = contempt;
        contempt
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// Black's result less komi, once the game is over.
    pub fn final_score(&self) -> Option<f64> {
        self.game
            .is_over()
            .then(|| f64::from(self.game.position().black_final_score()) - self.komi)
    }

    /// The playing level of the session, if it has one.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// Whether input read while the last search ran (not yet handed out) interrupts: what
    /// that search found is then stale.
    pub fn interrupted(&self) -> bool {
        self.inbox.has_pending(self.interrupts)
    }

    /// The front end can no longer write: the session ends as at EOF.
    pub fn output_failed(&mut self) {
        self.stop_ponder();
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
    /// once. `progress` hears of the search (see [`Progress`]) and stops it by answering false.
    pub fn choose_move(
        &mut self,
        color: Color,
        charge: bool,
        progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Result<Choice, String> {
        let choice = self.search_move(color, charge, progress)?;
        self.log_move(color, &choice);
        Ok(choice)
    }

    fn search_move(
        &mut self,
        color: Color,
        charge: bool,
        progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Result<Choice, String> {
        let Some(board) = self.board_for(color)? else {
            return Ok(Choice::Pass);
        };
        let moves = board.moves();
        if moves.count_ones() == 1 {
            self.stop_ponder();
            return Ok(Choice::Forced(moves.trailing_zeros()));
        }
        if let Some(book) = self.book_move(&board) {
            self.stop_ponder();
            return Ok(Choice::Book(book));
        }
        let asked = Instant::now();
        let limits = self.move_limits(color, board.empty_count());
        let report = match self.take_ponder(&board) {
            Some(ponder) => self.resume(ponder, &limits, progress),
            None => self.think(board, limits, None, progress),
        };
        if charge {
            self.charge(color, asked.elapsed());
        }
        let empties = board.empty_count();
        if self.reach.is_none_or(|(most, _)| empties >= most) {
            let depth = Depth::searched(report.depth, report.exact || report.wld);
            self.reach = Some((empties, depth));
        }
        // A finished search always names a root move; the first legal one is a fallback.
        let square = report.best_move().unwrap_or(moves.trailing_zeros());
        Ok(Choice::Searched(square, report))
    }

    /// Takes `used` off `color`'s clock, if it has one.
    fn charge(&mut self, color: Color, used: Duration) {
        let i = index(color);
        if let Some(left) = self.left[i] {
            self.left[i] = Some(self.clock.after_move(left, used.as_secs_f64()));
        }
    }

    /// The log's line for a move chosen: the move, its score, the time used, the time left on
    /// `color`'s clock and the empties it was chosen at (`scripts/clock-use.py` reads them).
    fn log_move(&self, color: Color, choice: &Choice) {
        let left =
            self.left[index(color)].map_or("untimed".to_string(), |l| format!("{:.3}", l.seconds));
        let (score, used) = match choice {
            Choice::Searched(_, r) => (format_score(r.score, r.exact), r.elapsed.as_secs_f64()),
            Choice::Book(book) => (format!("{} (book)", format_score(book.value, false)), 0.0),
            Choice::Forced(_) => ("forced".to_string(), 0.0),
            Choice::Pass => ("pass".to_string(), 0.0),
        };
        log::info!(
            "move {} {} score {score} time {used:.3} left {left} empties {}",
            color.name(),
            vertex_name(choice.square()),
            self.game.position().board.empty_count()
        );
    }

    /// The book move to play on `board` instead of searching, if any (see [`opening`]).
    fn book_move(&mut self, board: &Board) -> Option<BookMove> {
        let need = policy::need(self.level, self.reach, board.empty_count());
        let book = self.opening.pick(board, need)?;
        log::info!(
            "book move {} (value {}, depth {})",
            vertex_name(Some(book.square)),
            format_score(book.value, false),
            book.depth
        );
        Some(book)
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
        // A level without a fixed time plays at that level, however long it takes.
        let timed = self.level.is_none() || self.move_time.is_some();
        Limits {
            level: self.level,
            soft_time: timed.then_some(soft),
            hard_time: timed.then_some(hard),
            exact_empties: timed.then(|| solvable_empties(soft)),
            contempt: self.contempt,
            ..Limits::default()
        }
    }

    /// Counts the current position's perft leaves to `depth` on the search thread, reading
    /// input meanwhile as a search does: `None` when input (`stop`) or a closed output ended it.
    pub fn perft(&mut self, depth: u32, mode: PerftMode) -> Option<u64> {
        self.stop_ponder();
        self.engine.perft(self.game.position().board, depth, mode);
        self.stop_if_interrupted();
        let events = self.engine.events().clone();
        loop {
            let input = self.inbox.source().unwrap_or_else(never);
            select! {
                recv(events) -> event => match event {
                    Ok(Event::Counted(leaves)) => return leaves,
                    Ok(_) => {}
                    Err(_) => return None,
                },
                recv(input) -> line => self.take(line.unwrap_or(Input::Eof)),
            }
        }
    }

    /// Solves the current position exactly.
    pub fn solve(&mut self) -> Report {
        let board = self.game.position().board;
        self.think(board, Limits::default(), None, |_| true)
    }

    /// Searches the current position for its `lines` best moves at `level` (default: as deep
    /// as it goes), for `seconds` or until stopped, telling `progress` of it.
    /// Without level or seconds, nothing could stop it once input has ended: it then takes
    /// [`DEFAULT_ANALYSIS_SECONDS`], as `oxello analyze` does.
    pub fn analyze(
        &mut self,
        lines: usize,
        level: Option<Level>,
        seconds: Option<f64>,
        progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Report {
        let board = self.game.position().board;
        let time = seconds.map(|s| Duration::from_secs_f64(s.min(MAX_SECONDS)));
        let limits = Limits {
            depth: level.is_none().then_some(MAX_ANALYSIS_DEPTH),
            level,
            soft_time: time,
            hard_time: time,
            lines,
            contempt: self.contempt,
            ..Limits::default()
        };
        let after_eof = (level.is_none() && seconds.is_none())
            .then(|| Duration::from_secs_f64(DEFAULT_ANALYSIS_SECONDS));
        self.think(board, limits, after_eof, progress)
    }

    /// Searches `board` at the session's level, for a value of a position that is not the
    /// current one, telling `progress` of it.
    pub fn evaluate_position(
        &mut self,
        board: Board,
        progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Report {
        let limits = Limits {
            level: self.level,
            contempt: self.contempt,
            ..Limits::default()
        };
        self.think(board, limits, None, progress)
    }

    /// Runs a search to its end while reading input: input that interrupts (see
    /// [`Play::new`]) or a closed output stops the search at once; every line read is kept to
    /// be handed out afterwards, in order. `after_eof` bounds a search that only input could
    /// stop, once input has ended.
    fn think(
        &mut self,
        board: Board,
        limits: Limits,
        after_eof: Option<Duration>,
        mut progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Report {
        self.stop_ponder();
        let hard = limits.hard_time;
        let started = self.start(board, limits);
        self.stop_if_interrupted();
        let deadline = after_eof.map(|t| started + t);
        let report = self.wait(deadline, &mut progress);
        self.note_lag(started, hard);
        report
    }

    /// Starts searching `board` on the session's threads; returns when its clock started.
    fn start(&self, board: Board, limits: Limits) -> Instant {
        let started = Instant::now();
        let limits = Limits {
            threads: self.threads,
            clock_start: Some(started),
            ..limits
        };
        self.engine.start(board, limits);
        started
    }

    /// Input already read (behind this request) that interrupts ends the search just started.
    fn stop_if_interrupted(&self) {
        if self.interrupted() || self.inbox.closed() {
            self.engine.stop();
        }
    }

    /// Keeps back from clocks how late the search started at `started` answered after its
    /// `hard` deadline: a lag seen again keeps its reserve; a one-off delay is forgotten
    /// within a few moves instead of eating every later move's time.
    fn note_lag(&mut self, started: Instant, hard: Option<Duration>) {
        if let Some(hard) = hard {
            let late = started.elapsed().saturating_sub(hard);
            self.lag = late.max(self.lag / 2);
        }
    }

    /// Waits for the running search's report, logging and handing `progress` every finished
    /// iteration and, after [`PROGRESS_INTERVAL`] without one, the stage under way (the search
    /// stops when it answers false); keeping the input read meanwhile, and stopping the search
    /// at `after_eof` once input has ended.
    fn wait(
        &mut self,
        mut after_eof: Option<Instant>,
        progress: &mut impl FnMut(Progress<'_>) -> bool,
    ) -> Report {
        let events = self.engine.events().clone();
        let mut quiet_until = Instant::now() + PROGRESS_INTERVAL;
        loop {
            let input = self.inbox.source().unwrap_or_else(never);
            let deadline = match after_eof {
                Some(t) if self.inbox.ended() => at(t),
                _ => never(),
            };
            let quiet = at(quiet_until);
            select! {
                recv(events) -> event => match event {
                    Ok(Event::Progress(r)) => {
                        log::info!("{}", iteration_line(&r));
                        self.tell(progress, Progress::Iteration(&r));
                        quiet_until = Instant::now() + PROGRESS_INTERVAL;
                    }
                    Ok(Event::Done(r)) => return r,
                    Ok(_) => {}
                    Err(_) => return Report::default(),
                },
                recv(input) -> line => self.take(line.unwrap_or(Input::Eof)),
                recv(deadline) -> _ => {
                    self.engine.stop();
                    after_eof = None;
                }
                recv(quiet) -> _ => {
                    if let Some(running) = self.engine.running() {
                        log::info!("{}", stage_line(&running));
                        self.tell(progress, Progress::Running(&running));
                    }
                    quiet_until = Instant::now() + PROGRESS_INTERVAL;
                }
            }
        }
    }

    /// Hands `news` to `progress`, stopping the search when it answers false.
    fn tell(&self, progress: &mut impl FnMut(Progress<'_>) -> bool, news: Progress<'_>) {
        if !progress(news) {
            self.engine.stop();
        }
    }

    /// Input read while a search runs: kept for its turn, and the search stopped if it
    /// interrupts or the output is gone.
    fn take(&mut self, input: Input) {
        if input == Input::Closed || (self.interrupts)(&input) {
            self.engine.stop();
        }
        self.inbox.keep(input);
    }
}
