//! An engine run as a child process: lines sent, lines read with a deadline, and GTP's
//! exchange of a command and its framed response on top.

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// Why a command got no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// No complete response before the deadline.
    Timeout,
    /// The engine closed its output or exited.
    Closed,
}

/// A GTP response: success or failure, and its text (id stripped, lines joined by `\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub ok: bool,
    pub text: String,
}

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    /// Starts `command_line` through `sh -c`, so quoting and arguments work as in a shell.
    pub fn start(command_line: &str) -> Result<Client, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command_line}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{command_line}': {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Ok(Client {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        log::debug!("-> {line}");
        writeln!(self.stdin, "{line}").map_err(|_| ClientError::Closed)?;
        self.stdin.flush().map_err(|_| ClientError::Closed)
    }

    /// The next line the engine writes (without its `\r`), if it comes before `deadline`.
    pub fn line(&mut self, deadline: Instant) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l.replace('\r', "")),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Closed),
        }
    }

    /// Sends one GTP command and waits at most `patience` for its whole response. Lines
    /// before a response (engine chatter) are skipped.
    pub fn ask(&mut self, command: &str, patience: Duration) -> Result<Response, ClientError> {
        self.send(command)?;
        let deadline = Instant::now() + patience;
        let mut response: Option<Response> = None;
        loop {
            let line = self.line(deadline)?;
            match response.as_mut() {
                None => {
                    let ok = match line.chars().next() {
                        Some('=') => true,
                        Some('?') => false,
                        _ => continue,
                    };
                    let text = line[1..]
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim()
                        .to_string();
                    response = Some(Response { ok, text });
                }
                Some(r) if line.is_empty() => {
                    log::debug!("<- {}{}", if r.ok { "= " } else { "? " }, r.text);
                    return Ok(response.take().unwrap_or(Response {
                        ok: false,
                        text: String::new(),
                    }));
                }
                Some(r) => {
                    r.text.push('\n');
                    r.text.push_str(&line);
                }
            }
        }
    }

    /// Asks politely to quit, then makes sure the process is gone.
    pub fn shutdown(mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}
