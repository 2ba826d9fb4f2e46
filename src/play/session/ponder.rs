//! Pondering: after the engine's move, the session searches on the opponent's time the
//! position after the reply its search expects. When that reply is played the search goes on
//! and becomes the next move's search, with the time a normal search of that move would get
//! on top of the time pondered (the opponent's); any other move, and any change of the game
//! or the settings, stops it at once and drops it. Its reports only reach the log.

use super::{Choice, Play, Progress};
use crate::base::io::Input;
use crate::engine::board::{Board, Color, Position};
use crate::engine::search::{DepthAt, Limits, Report};
use crate::play::format::{iteration_line, vertex_name};
use crate::play::thread::Event;
use crossbeam_channel::select;
use std::time::{Duration, Instant};

/// A search of the engine's next move on the opponent's time.
pub(super) struct Ponder {
    /// The position after the engine's move: NBoard plays it after the search started.
    after: Position,
    /// The reply the engine's search expects.
    reply: u32,
    /// The position searched, after the expected reply.
    expected: Position,
    /// When the search's clock started.
    started: Instant,
    /// The last iteration finished.
    reached: Option<DepthAt>,
    /// The search's result, once it is over.
    done: Option<Report>,
}

impl Ponder {
    /// The depth the search stands at, for the log.
    fn standing(&self) -> String {
        self.reached
            .map_or("before its first iteration".into(), |d| {
                format!("after depth {d}")
            })
    }
}

impl Play {
    /// Thinks on the opponent's time from the engine's next move on (`false`: stops now).
    pub fn set_pondering(&mut self, on: bool) {
        self.pondering = on;
        if !on {
            self.stop_ponder();
        }
    }

    /// Starts thinking on the opponent's time after `color`'s move `choice`, played or about
    /// to be, if pondering is on and the search expects a reply that leaves a choice.
    pub fn ponder(&mut self, color: Color, choice: &Choice) {
        if !self.pondering {
            return;
        }
        let Some((after, reply, expected)) = self.expectation(color, choice) else {
            return;
        };
        let limits = Limits {
            soft_time: None,
            hard_time: None,
            ..self.move_limits(color, expected.board.empty_count())
        };
        log::info!("ponder on {}", vertex_name(Some(reply)));
        let started = self.start(expected.board, limits);
        self.ponder = Some(Ponder {
            after,
            reply,
            expected,
            started,
            reached: None,
            done: None,
        });
    }

    /// The position after `color`'s searched move, the reply its line expects and the
    /// position after that, if `color` then has more than one move.
    fn expectation(&self, color: Color, choice: &Choice) -> Option<(Position, u32, Position)> {
        let Choice::Searched(square, report) = choice else {
            return None;
        };
        let reply = *report.lines.first()?.pv.get(1)?;
        let now = *self.game.position();
        let after = if now.side == color {
            now.play(*square)?
        } else {
            now
        };
        let expected = after.play(reply)?;
        (expected.board.moves().count_ones() > 1).then_some((after, reply, expected))
    }

    /// After a move (`None`: a pass) was played: the ponder search goes on if the game is on
    /// its way (the engine's own move, or the expected reply: a hit); any other move drops it.
    pub(super) fn follow_ponder(&mut self, played: Option<u32>) {
        self.take_reports();
        let now = *self.game.position();
        let Some(ponder) = &self.ponder else {
            return;
        };
        if now == ponder.after {
            return;
        }
        let expected = vertex_name(Some(ponder.reply));
        if now == ponder.expected {
            log::info!(
                "ponder hit: {expected} expected, continuing {}",
                ponder.standing()
            );
            return;
        }
        log::info!(
            "ponder miss: expected {expected}, got {}",
            vertex_name(played)
        );
        self.stop_ponder();
    }

    /// The ponder search if it searches `board`, the engine's move now (after a hit); any
    /// other is stopped and dropped.
    pub(super) fn take_ponder(&mut self, board: &Board) -> Option<Ponder> {
        match self.ponder.take() {
            Some(p) if p.expected.board == *board && *self.game.position() == p.expected => Some(p),
            other => {
                self.ponder = other;
                self.stop_ponder();
                None
            }
        }
    }

    /// Stops and drops the ponder search, if any, once its last report is in.
    pub fn stop_ponder(&mut self) {
        let Some(ponder) = self.ponder.take() else {
            return;
        };
        if ponder.done.is_none() {
            self.engine.stop();
            let events = self.engine.events();
            while let Ok(event) = events.recv() {
                if let Event::Done(_) = event {
                    break;
                }
            }
        }
    }

    /// Goes on with the ponder search after a hit as the move's search: it gets `limits`'
    /// times from now on, on top of the time pondered, which was the opponent's.
    pub(super) fn resume(
        &mut self,
        ponder: Ponder,
        limits: &Limits,
        mut progress: impl FnMut(Progress<'_>) -> bool,
    ) -> Report {
        let standing = ponder.standing();
        if let Some(report) = ponder.done {
            log::info!("ponder search over {standing}: its move is played");
            return report;
        }
        let (asked, pondered) = (Instant::now(), ponder.started.elapsed());
        let after_pondering = |t: Option<Duration>| t.map(|t| t + pondered);
        self.engine.arm(
            after_pondering(limits.soft_time),
            after_pondering(limits.hard_time),
        );
        self.stop_if_interrupted();
        let report = self.wait(None, &mut progress);
        self.note_lag(asked, limits.hard_time);
        report
    }

    /// The next input for the front end. While a ponder search runs, its reports are taken
    /// meanwhile (to the log only).
    pub fn next_line(&mut self) -> Input {
        while self.ponder.as_ref().is_some_and(|p| p.done.is_none())
            && !self.inbox.has_pending(|_| true)
        {
            let Some(input) = self.inbox.source() else {
                break;
            };
            let events = self.engine.events().clone();
            select! {
                recv(events) -> event => self.pondered(event.ok()),
                recv(input) -> line => self.inbox.keep(line.unwrap_or(Input::Eof)),
            }
        }
        self.inbox.next_line()
    }

    /// The ponder search's reports that have arrived, taken without waiting.
    fn take_reports(&mut self) {
        if self.ponder.as_ref().is_some_and(|p| p.done.is_none()) {
            let events = self.engine.events().clone();
            for event in events.try_iter() {
                self.pondered(Some(event));
            }
        }
    }

    /// A report of the ponder search (`None`: the search thread is gone).
    fn pondered(&mut self, event: Option<Event>) {
        let Some(ponder) = self.ponder.as_mut() else {
            return;
        };
        match event {
            Some(Event::Progress(r)) => {
                log::info!("ponder {}", iteration_line(&r));
                ponder.reached = Some(r.depth_at());
            }
            Some(Event::Done(r)) => ponder.done = Some(r),
            Some(_) => {}
            None => ponder.done = Some(Report::default()),
        }
    }
}
