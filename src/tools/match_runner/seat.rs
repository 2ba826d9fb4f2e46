//! An engine as the referee sees it: a seat holds one engine's process, started on demand and
//! dropped when it misbehaves, and turns every failure to answer into a [`Forfeit`]. Before a
//! match, [`check_engines`] starts each engine once to see that it answers at all.

use super::client::{Client, ClientError};
use super::config::{EngineSpec, MatchConfig};
use super::outcome::Forfeit;
use std::time::Duration;

/// Bound on every command other than `genmove`.
pub const COMMAND_PATIENCE: Duration = Duration::from_secs(20);

/// An engine process of a worker.
pub struct Seat {
    spec: EngineSpec,
    client: Option<Client>,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat { spec, client: None }
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn client(&mut self) -> Result<&mut Client, Forfeit> {
        if self.client.is_none() {
            self.client = Some(Client::start(&self.spec.command).map_err(|_| Forfeit::Crashed)?);
        }
        self.client.as_mut().ok_or(Forfeit::Crashed)
    }

    /// A command that must succeed; a failure forfeits (and a dead or hung engine is dropped).
    pub fn must(&mut self, command: &str, patience: Duration) -> Result<String, Forfeit> {
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
    pub fn may(&mut self, command: &str) -> Result<(), Forfeit> {
        match self.must(command, COMMAND_PATIENCE) {
            Ok(_) | Err(Forfeit::ErrorReply(_)) => Ok(()),
            Err(e) => Err(e),
        }
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
