//! The review's searches: one row per move, each position searched twice at the level (its
//! best move, then the move played alone), on one-thread searches with a table cleared before
//! each, so that a row is a pure function of the position, the level and the table size.

use crate::engine::board::{Color, Position};
use crate::engine::eval::DISC;
use crate::engine::game::{Game, Move};
use crate::engine::notation::{format_position, parse_position};
use crate::engine::openings::openings;
use crate::engine::search::{search, Level, Limits, Report};
use crate::engine::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The search of a review level, as the level table says (`oxello levels`), on one thread.
/// Every level of the review goes through here.
fn level_limits(level: Level) -> Limits {
    Limits {
        level: Some(level),
        threads: 1,
        ..Limits::default()
    }
}

/// A move to review: where it was played from, and by whom.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game's index in its file.
    pub game: usize,
    /// 1-based move number, passes not counted.
    pub ply: usize,
    pub position: Position,
    pub played: u32,
}

/// One reviewed move; values in whole discs for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub game: usize,
    pub ply: usize,
    pub empties: u32,
    pub color: Color,
    pub position: String,
    pub played: u32,
    pub played_value: i32,
    pub best: u32,
    pub best_value: i32,
    /// `best_value - played_value`, never below 0 (a midgame search of the played move alone
    /// can score it above the best search's value).
    pub loss: i32,
    /// Both values are the solver's.
    pub exact: bool,
}

impl Row {
    /// The named opening whose position this row's move reaches, if one is.
    pub fn opening(&self) -> Option<&'static str> {
        let after = parse_position(&self.position).ok()?.play(self.played)?;
        openings().named_at(&after).map(|o| o.name)
    }
}

/// The moves of a game to review, forced passes left out.
pub fn jobs(game: &Game, index: usize) -> Vec<Job> {
    let mut replay = Game::new(*game.start());
    let mut jobs = Vec::new();
    for (color, mv) in game.record() {
        if let Move::Play(sq) = mv {
            let before = *replay.position();
            let position = if before.side == color {
                before
            } else {
                before.pass()
            };
            jobs.push(Job {
                game: index,
                ply: jobs.len() + 1,
                position,
                played: sq,
            });
            let _ = replay.play(color, sq);
        } else {
            let _ = replay.pass(color);
        }
    }
    jobs
}

/// Whole discs from the search's centi-discs.
fn discs(report: &Report) -> i32 {
    (report.score as f64 / f64::from(DISC)).round() as i32
}

/// Reviews one move: the best search, then (unless it chose the played move) the played
/// move's, each on a cleared table.
fn review(tt: &mut TranspositionTable, job: &Job, level: Level) -> Row {
    let stop = AtomicBool::new(false);
    let board = job.position.board;
    let limits = level_limits(level);
    tt.clear();
    let best = search(tt, &stop, &board, &limits, |_| {});
    let best_move = best.best_move().unwrap_or(job.played);
    let played = if best_move == job.played {
        best.clone()
    } else {
        tt.clear();
        let only = Limits {
            root_moves: Some(1u64 << job.played),
            ..limits
        };
        search(tt, &stop, &board, &only, |_| {})
    };
    let (best_value, played_value) = (discs(&best), discs(&played));
    Row {
        game: job.game,
        ply: job.ply,
        empties: board.empty_count(),
        color: job.position.side,
        position: format_position(&job.position),
        played: job.played,
        played_value,
        best: best_move,
        best_value,
        loss: (best_value - played_value).max(0),
        exact: best.exact && played.exact,
    }
}

/// Reviews `jobs` on `threads` workers, each with its own table of `hash` MiB, the biggest
/// positions first; `done` hears of every row as it is found. The rows come back in the
/// jobs' order.
pub fn review_all(
    jobs: &[Job],
    level: Level,
    threads: usize,
    hash: usize,
    done: &(dyn Fn(&Row) + Sync),
) -> Vec<Row> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].position.board.empty_count()));
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            s.spawn(|| {
                let mut tt = TranspositionTable::new(hash);
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let row = review(&mut tt, &jobs[i], level);
                    done(&row);
                    rows.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(row);
                }
            });
        }
    });
    let rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    rows.into_iter().flatten().collect()
}
