//! An engine as the referee sees it, whatever protocol it speaks: a seat holds one engine's
//! process, started (and greeted) on demand and dropped when it misbehaves, and turns every
//! failure to answer into a [`Forfeit`]. A GTP engine is told each move (`play`) and asked with
//! `genmove`; an NBoard engine is sent the whole game with every request (`set game`, then
//! `ping`/`pong`, then `go`). Before a match, [`check_engines`] starts each engine once to see
//! that it answers at all, and learns the name it gives.

use super::client::{Client, ClientError};
use super::clock::SideClock;
use super::config::{EngineSpec, MatchConfig, Protocol};
use super::nboard::Session;
use super::outcome::Forfeit;
use crate::engine::board::Color;
use crate::engine::notation::square_name;
use std::time::{Duration, Instant};

/// Bound on every command other than `genmove` or `go`.
pub const COMMAND_PATIENCE: Duration = Duration::from_secs(20);

/// An engine process of a worker.
pub struct Seat {
    spec: EngineSpec,
    client: Option<Client>,
    session: Session,
    /// The name the engine gave when it was last started.
    reported: Option<String>,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            client: None,
            session: Session::default(),
            reported: None,
        }
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Starts and greets the engine unless it runs: GTP's `name`, NBoard's `nboard 2` and level.
    fn start(&mut self) -> Result<(), ClientError> {
        if self.client.is_some() {
            return Ok(());
        }
        let mut client = Client::start(&self.spec.command).map_err(|_| ClientError::Closed)?;
        self.reported = match self.spec.protocol {
            Protocol::Gtp => client
                .ask("name", COMMAND_PATIENCE)
                .map(|r| (r.ok && !r.text.is_empty()).then_some(r.text))?,
            Protocol::Nboard => {
                self.session = Session::default();
                self.session
                    .hello(&mut client, self.spec.level, COMMAND_PATIENCE)?
            }
        };
        self.client = Some(client);
        Ok(())
    }

    /// Runs an exchange with the engine (started if need be); a dead or hung engine is
    /// dropped and forfeits.
    fn run<T>(
        &mut self,
        exchange: impl FnOnce(&mut Client, &mut Session) -> Result<T, ClientError>,
    ) -> Result<T, Forfeit> {
        let result = self.start().and_then(|()| match self.client.as_mut() {
            Some(client) => exchange(client, &mut self.session),
            None => Err(ClientError::Closed),
        });
        result.map_err(|e| {
            self.client = None;
            match e {
                ClientError::Timeout => Forfeit::Hung,
                ClientError::Closed => Forfeit::Crashed,
            }
        })
    }

    /// A GTP command that must succeed; a failure forfeits.
    fn must(&mut self, command: &str, patience: Duration) -> Result<String, Forfeit> {
        let reply = self.run(|client, _| client.ask(command, patience))?;
        if reply.ok {
            Ok(reply.text)
        } else {
            Err(Forfeit::ErrorReply(format!("{command}: {}", reply.text)))
        }
    }

    /// A GTP command an engine may not know (`set_game`): only a dead engine matters.
    fn may(&mut self, command: &str) -> Result<(), Forfeit> {
        match self.must(command, COMMAND_PATIENCE) {
            Ok(_) | Err(Forfeit::ErrorReply(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Readies the engine for a new game on `clock`. An NBoard engine is only started: it
    /// gets the whole game with every request.
    pub fn new_game(&mut self, clock: &SideClock) -> Result<(), Forfeit> {
        if self.spec.protocol == Protocol::Nboard {
            return self.run(|_, _| Ok(()));
        }
        self.may("set_game Othello")?;
        self.must("boardsize 8", COMMAND_PATIENCE)?;
        self.must("clear_board", COMMAND_PATIENCE)?;
        match clock.settings() {
            Some(ts) => self.must(&ts, COMMAND_PATIENCE).map(drop),
            None => Ok(()),
        }
    }

    /// Shows `c`'s move on `sq` to a GTP engine.
    pub fn tell(&mut self, c: Color, sq: u32) -> Result<(), Forfeit> {
        if self.spec.protocol == Protocol::Nboard {
            return Ok(());
        }
        let command = format!("play {} {}", c.name(), square_name(sq));
        self.must(&command, COMMAND_PATIENCE).map(drop)
    }

    /// Readies a request for `c`'s move: GTP's `time_left`, or NBoard's `set game` with the
    /// game so far (`game` makes its GGF) and a `ping` answered.
    pub fn prepare_move(
        &mut self,
        c: Color,
        clock: &SideClock,
        game: impl FnOnce() -> String,
    ) -> Result<(), Forfeit> {
        match self.spec.protocol {
            Protocol::Gtp => match clock.time_left(c) {
                Some(tl) => self.must(&tl, COMMAND_PATIENCE).map(drop),
                None => Ok(()),
            },
            Protocol::Nboard => self.run(|client, session| {
                client.send(&format!("set game {}", game()))?;
                session.sync(client, COMMAND_PATIENCE).map(drop)
            }),
        }
    }

    /// Asks for `c`'s move, waiting at most `patience`: the move's word (`pass` for a pass)
    /// and the seconds from the request to the answer, or the failure.
    pub fn genmove(&mut self, c: Color, patience: Duration) -> (Result<String, Forfeit>, f64) {
        let asked = Instant::now();
        let reply = match self.spec.protocol {
            Protocol::Gtp => self.must(&format!("genmove {}", c.name()), patience),
            Protocol::Nboard => self
                .run(|client, _| Session::go(client, patience))
                .map(|mv| if mv == "PA" { "pass".into() } else { mv }),
        };
        (reply, asked.elapsed().as_secs_f64())
    }

    /// Drops the process, so that the next command starts the engine afresh.
    pub fn restart(&mut self) {
        self.client = None;
    }

    pub fn shutdown(&mut self) {
        if let Some(c) = self.client.take() {
            c.shutdown();
        }
    }
}

/// Starts every engine once, before any game, and answers the names they give (GTP's `name`,
/// NBoard's `set myname`): an engine that cannot be started, or that exits or stays silent
/// instead of answering, is a set-up error (which engine, and why), not a string of lost games.
pub fn check_engines(config: &MatchConfig) -> Result<[Option<String>; 2], String> {
    let mut names = [None, None];
    for (i, spec) in config.engines.iter().enumerate() {
        let which = format!("engine {} ('{}')", i + 1, spec.command);
        let mut seat = Seat::new(spec.clone());
        let started = seat.start();
        seat.shutdown();
        names[i] = seat.reported;
        let first = match spec.protocol {
            Protocol::Gtp => "no GTP answer to 'name'",
            Protocol::Nboard => "no 'pong 1' to 'nboard 2' and 'ping 1'",
        };
        match started {
            Ok(()) => {}
            Err(ClientError::Closed) => {
                return Err(format!(
                    "{which} exited before answering its first command: is the command right?"
                ))
            }
            Err(ClientError::Timeout) => {
                return Err(format!(
                    "{which} gave {first} within {} s",
                    COMMAND_PATIENCE.as_secs()
                ))
            }
        }
    }
    Ok(names)
}
