//! The referee's side of NBoard's protocol on a [`Client`]: the greeting (`nboard 2`, the
//! level, a `ping` whose `pong` ends it, with the name the engine gives in `set myname`),
//! `ping`/`pong` synchronisation, and `go` with its `=== MOVE[/eval[/time]]` answer. Lines the
//! referee has no use for (`status`, `search`, `nodestats`, `set myname` during a game, a
//! banner, blank lines) are skipped. Nothing is sent between `go` and its answer: NTest, for
//! one, abandons a search on any input.

use super::client::{Client, ClientError};
use std::time::{Duration, Instant};

/// One engine process's NBoard session: the pings sent so far.
#[derive(Default)]
pub struct Session {
    pings: u64,
}

impl Session {
    /// Greets a freshly started engine and sets its `level`; answers the name it gave, if any.
    pub fn hello(
        &mut self,
        client: &mut Client,
        level: Option<u64>,
        patience: Duration,
    ) -> Result<Option<String>, ClientError> {
        client.send("nboard 2")?;
        if let Some(level) = level {
            client.send(&format!("set depth {level}"))?;
        }
        let lines = self.sync(client, patience)?;
        Ok(lines
            .iter()
            .filter_map(|l| l.trim().strip_prefix("set myname"))
            .map(|name| name.trim().to_string())
            .rfind(|name| !name.is_empty()))
    }

    /// Sends `ping n` and reads until `pong n`; answers the lines read before it (stale
    /// output, which the caller may look into but not act on).
    pub fn sync(
        &mut self,
        client: &mut Client,
        patience: Duration,
    ) -> Result<Vec<String>, ClientError> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        client.send(&format!("ping {}", self.pings))?;
        let deadline = Instant::now() + patience;
        let mut before = Vec::new();
        loop {
            let line = client.line(deadline)?;
            if line.trim() == pong {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// Sends `go` and answers the move of the `===` line that follows (`PA` for a pass),
    /// waiting at most `patience`.
    pub fn go(client: &mut Client, patience: Duration) -> Result<String, ClientError> {
        client.send("go")?;
        let deadline = Instant::now() + patience;
        loop {
            let line = client.line(deadline)?;
            if let Some(answer) = line.trim_start().strip_prefix("===") {
                log::debug!("<- ==={answer}");
                return Ok(answer.trim().split('/').next().unwrap_or("").to_string());
            }
        }
    }
}
