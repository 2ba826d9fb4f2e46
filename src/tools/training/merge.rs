//! Joining record files: one record per position under the 8 symmetries, sorted by
//! [`Record::key`], so that the result depends on the records given and not on their order.
//!
//! Where several records hold one position, the first by [`precedence`] stays: an `exact` label
//! beats a `searched` one, which beats a `played` one; between two of the same kind, the one
//! from the game of lower index (for the games of one self-play run or one games file, the one
//! that run met first); then the lower score, then the lower stored orientation. Shards of one
//! run thus merge into the file that the run alone writes.

use super::record::{Label, Record};
use crate::engine::board::Color;
use std::collections::btree_map::{BTreeMap, Entry};

/// What a merge kept.
pub struct Merged {
    pub records: Vec<Record>,
    /// Records left out: their position was already there.
    pub duplicates: usize,
}

/// The order in which records of one position are preferred: the least wins.
fn precedence(r: &Record) -> (Label, u32, i32, u64, u64, bool) {
    let b = &r.position.board;
    (
        r.label,
        r.game,
        r.score,
        b.player,
        b.opponent,
        r.position.side == Color::White,
    )
}

/// One record per position, by key.
pub fn merge(records: impl IntoIterator<Item = Record>) -> Merged {
    let mut kept: BTreeMap<(u64, u64), Record> = BTreeMap::new();
    let mut duplicates = 0;
    for record in records {
        match kept.entry(record.key()) {
            Entry::Vacant(slot) => {
                slot.insert(record);
            }
            Entry::Occupied(mut slot) => {
                duplicates += 1;
                if precedence(&record) < precedence(slot.get()) {
                    slot.insert(record);
                }
            }
        }
    }
    Merged {
        records: kept.into_values().collect(),
        duplicates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Game;
    use crate::engine::symmetry::transform_board;

    fn record(transcript: &str, score: i32, label: Label, game: u32) -> Record {
        Record {
            position: *Game::from_transcript(transcript).unwrap().position(),
            score,
            label,
            game,
        }
    }

    #[test]
    fn one_record_per_position_chosen_whatever_the_order() {
        let mut mirrored = record("f5d6", 6, Label::Played, 1);
        mirrored.position.board = transform_board(&mirrored.position.board, 3);
        let all = [
            record("f5d6", 2, Label::Played, 4),
            mirrored,
            record("f5d6c3", -2, Label::Played, 9),
            record("f5d6c3", 0, Label::Exact, 12),
            record("f5d6c3", 4, Label::Searched, 3),
            record("f5d6c3d3", -2, Label::Played, 2),
            record("f5d6c3d3", 4, Label::Searched, 5),
        ];
        let forward = merge(all);
        assert_eq!(forward.duplicates, 4);
        let kept: Vec<(i32, u32)> = forward.records.iter().map(|r| (r.score, r.game)).collect();
        assert_eq!(kept.len(), 3);
        assert!(
            kept.contains(&(6, 1)) && kept.contains(&(0, 12)) && kept.contains(&(4, 5)),
            "{kept:?}"
        );
        let mut reversed = all;
        reversed.reverse();
        assert_eq!(merge(reversed).records, forward.records);
        assert!(forward.records.windows(2).all(|w| w[0].key() < w[1].key()));
    }
}
