//! Drives the built `oxello` binary in NBoard mode, as the NBoard GUI does: lines out,
//! lines back on a channel, and GGF records of transcripts with their passes written out.

use super::oracle::Pos;
use super::PATIENCE;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::time::{Duration, Instant};

pub const START_BO: &str =
    "BO[8 ---------------------------O*------*O--------------------------- *]";

pub struct NBoard {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
}

impl NBoard {
    pub fn start(args: &[&str]) -> NBoard {
        // NBoard shows stderr as errors: nothing may reach it when RUST_LOG is unset.
        let (child, stdin, lines) = super::spawn_with_lines(args, Stdio::piped(), None);
        NBoard {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Writes bytes as they are (a line needs its own `\n`), invalid UTF-8 included.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let end = done(&line);
                    seen.push(line);
                    if end {
                        return seen;
                    }
                }
                Err(e) => panic!("no answer ({e:?}) after {seen:?}"),
            }
        }
    }

    /// Whatever arrives within `wait`.
    pub fn drain(&self, wait: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        let end = Instant::now() + wait;
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return seen
                }
            }
        }
    }

    pub fn ping(&mut self, n: u64) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        self.until(|l| l == pong)
    }

    /// Closes stdin and waits for a clean exit; returns what stderr got.
    pub fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let mut err = String::new();
        std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err).unwrap();
        err
    }
}

pub fn square(name: &str) -> Option<u32> {
    let b = name.as_bytes();
    if name.eq_ignore_ascii_case("pa") {
        return None;
    }
    Some(u32::from(b[1] - b'1') * 8 + u32::from(b[0].to_ascii_lowercase() - b'a'))
}

pub fn name(sq: Option<u32>) -> String {
    sq.map_or("PA".into(), |s| {
        format!("{}{}", (b'A' + (s % 8) as u8) as char, s / 8 + 1)
    })
}

/// A GGF record of the first `plies` moves of `transcript` (passes written out as NBoard
/// does), and the positions it goes through.
pub fn ggf(transcript: &str, plies: usize) -> (String, Vec<Pos>) {
    let mut pos = Pos::start();
    let mut seen = vec![pos];
    let mut moves = String::new();
    for i in 0..plies.min(transcript.len() / 2) {
        if pos.moves() == 0 {
            moves += &format!("{}[PA]", if pos.black_to_move { "B" } else { "W" });
            pos.play(None);
            seen.push(pos);
        }
        let sq = square(&transcript[2 * i..2 * i + 2]);
        moves += &format!(
            "{}[{}/1.00/0.5]",
            if pos.black_to_move { "B" } else { "W" },
            name(sq).to_lowercase()
        );
        pos.play(sq);
        seen.push(pos);
    }
    (
        format!(
            "(;GM[Othello]PC[NBoard]DT[2026-11-30 03:03:52 GMT]PB[]PW[]RE[?]TI[5:00]TY[8]{START_BO}{moves};)"
        ),
        seen,
    )
}

impl Drop for NBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
