//! The match's schedule: games handed out to `concurrency` workers, each with its own pair of
//! engine seats, their results gathered in finishing order, and the SPRT (if any) stopping the
//! match once it decides.

use super::config::MatchConfig;
use super::outcome::{GameResult, MatchReport};
use super::referee::play_game;
use super::seat::Seat;
use super::stats::Tally;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs the games of `indices` of the match (all of them, or a shard's); `progress` sees each
/// game as it finishes (in finishing order).
pub fn run_games(
    config: &MatchConfig,
    indices: impl Iterator<Item = usize>,
    mut progress: impl FnMut(&GameResult, &Tally),
) -> MatchReport {
    let (jobs_tx, jobs) = unbounded::<usize>();
    for i in indices {
        let _ = jobs_tx.send(i);
    }
    let games = jobs_tx.len();
    drop(jobs_tx);
    let (results_tx, results) = unbounded::<GameResult>();
    let halt = AtomicBool::new(false);
    let mut report = MatchReport::default();
    std::thread::scope(|s| {
        for _ in 0..config.concurrency.clamp(1, games.max(1)) {
            let (jobs, results_tx, halt) = (jobs.clone(), results_tx.clone(), &halt);
            s.spawn(move || work(config, &jobs, &results_tx, halt));
        }
        drop(results_tx);
        for game in results.iter() {
            let decided = report.add(game, config.sprt.as_ref());
            if let Some(game) = report.results.last() {
                progress(game, &report.tally);
            }
            if decided {
                halt.store(true, Ordering::Relaxed);
            }
        }
    });
    report.results.sort_by_key(|g| g.index);
    report
}

/// One worker: plays the games it takes from `jobs` until none is left or the match halts.
fn work(
    config: &MatchConfig,
    jobs: &Receiver<usize>,
    results: &Sender<GameResult>,
    halt: &AtomicBool,
) {
    let mut seats = config.engines.clone().map(Seat::new);
    for i in jobs.iter() {
        if halt.load(Ordering::Relaxed) {
            break;
        }
        let opening = &config.openings[(i / 2) % config.openings.len()];
        let game = play_game(&mut seats, i % 2, opening, i, config);
        if results.send(game).is_err() {
            break;
        }
    }
    seats.iter_mut().for_each(Seat::shutdown);
}
