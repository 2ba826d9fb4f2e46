//! Backed-up labels, as Logistello trained: a position before the solver's region takes the
//! value of a shallow search whose leaves the evaluation scores, instead of its game's result.
//!
//! Trained from the end backwards, phase by phase, each search reaches positions whose phase
//! has already learnt from exact or backed-up labels, so a weak move late in a game no longer
//! mislabels every position before it. Records are searched in fixed blocks, each from a
//! cleared table, so the labels do not depend on the number of threads.

use super::record::{Label, Record};
use oxello::board::Board;
use oxello::eval::DISC;
use oxello::search::{search, Limits};
use oxello::tt::TranspositionTable;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Records searched from one cleared table.
const BLOCK: usize = 1024;
/// Each worker's table, in MiB: plenty for a few plies.
const TABLE_MIB: usize = 2;

/// What to relabel.
#[derive(Clone, Debug)]
pub struct Config {
    /// The empties of the records to relabel; exact records are left as they are.
    pub empties: RangeInclusive<u32>,
    /// Depth of the searches.
    pub depth: u32,
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
fn chosen(record: &Record, config: &Config) -> bool {
    record.label != Label::Exact
        && config
            .empties
            .contains(&record.position.board.empty_count())
}

/// Relabels the chosen records in place with searched scores, rounded to whole discs, on
/// `config.threads` threads; returns how many it relabelled.
pub fn relabel(records: &mut [Record], config: &Config) -> usize {
    let scores = search_blocks(records, config);
    for &(i, score) in &scores {
        records[i].score = score;
        records[i].label = Label::Searched;
    }
    scores.len()
}

/// The index and searched score, in whole discs, of every chosen record.
fn search_blocks(records: &[Record], config: &Config) -> Vec<(usize, i32)> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut tt = TranspositionTable::new(TABLE_MIB);
                    let mut found = Vec::new();
                    loop {
                        let start = next.fetch_add(BLOCK, Ordering::Relaxed);
                        if start >= records.len() {
                            return found;
                        }
                        tt.clear();
                        let block = records.iter().enumerate().skip(start).take(BLOCK);
                        for (i, r) in block.filter(|(_, r)| chosen(r, config)) {
                            let score = searched_score(&tt, &r.position.board, config.depth);
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
