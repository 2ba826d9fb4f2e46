//! Backed-up labels, as Logistello trained: a position before the solver's region takes the
//! value of a shallow search whose leaves the evaluation scores, instead of its game's result.
//! Or exact labels, later: a position just before the solver's region takes the solver's score.
//!
//! Trained from the end backwards, phase by phase, each search reaches positions whose phase
//! has already learnt from exact or backed-up labels, so a weak move late in a game no longer
//! mislabels every position before it. Each record is searched from a cleared table, so its
//! label depends on nothing but the position and the weights: not on the other records, their
//! order or the number of threads.

use super::record::{Label, Record};
use crate::engine::board::Board;
use crate::engine::eval::DISC;
use crate::engine::search::{search, Limits};
use crate::engine::tt::TranspositionTable;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Records a worker takes at a time.
const CHUNK: usize = 64;
/// Each worker's table, in MiB, for shallow searches: plenty for a few plies, and quick to
/// clear.
const TABLE_MIB: usize = 1;
/// Each worker's table, in MiB, for exact solves (never cleared: an exact score does not
/// depend on what the table holds).
const SOLVER_TABLE_MIB: usize = 64;

/// What gives the new labels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum By {
    /// A search of this many plies by the evaluation: `searched` labels.
    Depth(u32),
    /// The solver: `exact` labels.
    Solver,
}

impl By {
    /// The label of the records it scores.
    fn label(self) -> Label {
        match self {
            By::Depth(_) => Label::Searched,
            By::Solver => Label::Exact,
        }
    }

    /// Each worker's table, in MiB.
    fn table_mib(self) -> usize {
        match self {
            By::Depth(_) => TABLE_MIB,
            By::Solver => SOLVER_TABLE_MIB,
        }
    }
}

/// What to relabel.
#[derive(Clone, Debug)]
pub struct RelabelConfig {
    /// The empties of the records to relabel; exact records are left as they are.
    pub empties: RangeInclusive<u32>,
    /// What gives the labels.
    pub by: By,
    /// Worker threads, each with its own table.
    pub threads: usize,
}

/// The score of a `depth`-ply search of `board` by the loaded evaluation (the solver's where
/// the search reaches the end), in internal units: what `oxello accuracy --depth` measures.
pub fn searched_score(tt: &TranspositionTable, board: &Board, depth: u32) -> i32 {
    let limits = Limits {
        depth: Some(depth),
        exact_empties: Some(0),
        ..Limits::default()
    };
    search(tt, &AtomicBool::new(false), board, &limits, |_| {}).score
}

/// Whether `config` relabels `record`.
fn chosen(record: &Record, config: &RelabelConfig) -> bool {
    record.label != Label::Exact
        && config
            .empties
            .contains(&record.position.board.empty_count())
}

/// The exact score of `board`, in internal units.
fn solved_score(tt: &TranspositionTable, board: &Board) -> i32 {
    search(
        tt,
        &AtomicBool::new(false),
        board,
        &Limits::default(),
        |_| {},
    )
    .score
}

/// Shard `k` of `n`: the records whose index is `k` modulo `n`, in order.
pub fn shard(records: Vec<Record>, k: u32, n: u32) -> Vec<Record> {
    records
        .into_iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % u64::from(n) == u64::from(k))
        .map(|(_, r)| r)
        .collect()
}

/// Relabels the chosen records in place with searched scores, rounded to whole discs, or
/// exact ones, on `config.threads` threads; returns the indices it relabelled, ascending.
pub fn relabel(records: &mut [Record], config: &RelabelConfig) -> Vec<usize> {
    let label = config.by.label();
    let mut scores = new_scores(records, config);
    scores.sort_unstable();
    for &(i, score) in &scores {
        records[i].score = score;
        records[i].label = label;
    }
    scores.into_iter().map(|(i, _)| i).collect()
}

/// The records at `indices` (ascending), in their order: a relabelled file without the
/// records that kept their labels.
pub fn only(records: Vec<Record>, indices: &[usize]) -> Vec<Record> {
    let mut wanted = indices.iter().copied().peekable();
    records
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| wanted.next_if_eq(&i).is_some())
        .map(|(_, r)| r)
        .collect()
}

/// The index and new score, in whole discs, of every chosen record.
fn new_scores(records: &[Record], config: &RelabelConfig) -> Vec<(usize, i32)> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut tt = TranspositionTable::new(config.by.table_mib());
                    let mut found = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                        if start >= records.len() {
                            return found;
                        }
                        let chunk = records.iter().enumerate().skip(start).take(CHUNK);
                        for (i, r) in chunk.filter(|(_, r)| chosen(r, config)) {
                            let board = &r.position.board;
                            let score = match config.by {
                                By::Depth(depth) => {
                                    tt.clear();
                                    searched_score(&tt, board, depth)
                                }
                                By::Solver => solved_score(&tt, board),
                            };
                            found.push((i, whole_discs(score)));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a relabelling thread"))
            .collect()
    })
}

/// An internal score in whole discs, rounded to the nearest, within -64 to 64.
fn whole_discs(score: i32) -> i32 {
    let disc = f64::from(DISC);
    (f64::from(score) / disc).round().clamp(-64.0, 64.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Game;
    use crate::tools::bench::MIDGAME_OPENINGS;

    /// The positions along the bench's openings, three times over, `played` at 0, and one
    /// `exact` among them.
    fn records() -> Vec<Record> {
        let mut records: Vec<Record> = [MIDGAME_OPENINGS; 3]
            .iter()
            .flatten()
            .flat_map(|o| (2..=o.len()).step_by(2).map(move |n| &o[..n]))
            .map(|transcript| Record {
                position: *Game::from_transcript(transcript).unwrap().position(),
                score: 0,
                label: Label::Played,
                game: 0,
            })
            .collect();
        records[5].label = Label::Exact;
        records
    }

    #[test]
    fn labels_depend_on_the_position_alone() {
        let config = |threads| RelabelConfig {
            empties: 44..=58,
            by: By::Depth(3),
            threads,
        };
        let mut forward = records();
        assert!(forward.len() > 2 * CHUNK, "{} records", forward.len());
        let count = relabel(&mut forward, &config(1)).len();
        let mut backward = records();
        backward.reverse();
        assert_eq!(relabel(&mut backward, &config(3)).len(), count);
        backward.reverse();
        assert_eq!(forward, backward);
        let chosen = |r: &Record| (44..=58).contains(&r.position.board.empty_count());
        for (before, after) in records().iter().zip(&forward) {
            let relabelled = chosen(before) && before.label == Label::Played;
            assert_eq!(after.label == Label::Searched, relabelled, "{after:?}");
            assert_eq!(after.position, before.position);
        }
        assert!(count > CHUNK, "{count} relabelled");
    }
}
