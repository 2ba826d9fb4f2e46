//! The deviation builder: grows the book from the start position, ply by ply.
//!
//! Every position at ply < `plies` in the book is expanded: the successors of its moves
//! within `width` of its best searched score enter the book, and are searched in turn (so
//! every position up to ply `plies` gets a search, and with it a leaf). The set built is a
//! function of the positions' searches alone, which are deterministic ([`super::jobs`]): a
//! rerun of the same command over a checkpoint finds the same positions, skips those already
//! searched, and ends with the same book; a rerun with a larger ply, depth or width deepens it.
//!
//! A shard keeps, at its shard ply, only the positions whose key hashes to it: the plies
//! before are built by every shard alike, and every line after goes through exactly one
//! position of the shard ply, so the shards together hold one run's positions.

use super::file::BookError;
use super::jobs::Jobs;
use super::store::{successor, Book, Key};
use crate::board::Board;
use crate::datafile::checksum;
use std::collections::BTreeSet;
use std::fmt;

/// One share of a build split `count` ways by the positions at ply `ply`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
    ply: u32,
}

/// A shard that cannot be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    Index { index: u32, count: u32 },
    Ply { ply: u32, plies: u32 },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Index { index, count } => {
                write!(
                    f,
                    "shard {index}/{count}: shards are numbered 0 to count - 1"
                )
            }
            ShardError::Ply { ply, plies } => {
                write!(f, "shard ply {ply} is beyond the book's {plies} plies")
            }
        }
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// Shard `index` of `count` (0-based), split at ply `ply` of a build of `plies` plies.
    pub fn new(index: u32, count: u32, ply: u32, plies: u32) -> Result<Shard, ShardError> {
        if index >= count {
            return Err(ShardError::Index { index, count });
        }
        if ply > plies {
            return Err(ShardError::Ply { ply, plies });
        }
        Ok(Shard { index, count, ply })
    }

    /// Whether the shard builds `key`, a position at the shard ply: by the high half of
    /// the key's FNV-1a hash (its low bits follow the parity of the bytes' low bits).
    pub fn owns(&self, key: &Key) -> bool {
        let bytes = [key.player.to_le_bytes(), key.opponent.to_le_bytes()].concat();
        (checksum(&bytes) >> 32) % u64::from(self.count) == u64::from(self.index)
    }
}

/// What to build.
#[derive(Copy, Clone, Debug)]
pub struct BuildConfig {
    /// Positions up to this ply enter the book.
    pub plies: u32,
    /// Centi-discs: the moves within this of the best are followed.
    pub width: i32,
    pub shard: Option<Shard>,
}

/// Grows `book` by deviation search (see the module's doc), then negamaxes it.
pub fn build(book: &mut Book, config: &BuildConfig, jobs: &mut Jobs) -> Result<(), BookError> {
    let mut level: BTreeSet<Key> = BTreeSet::from([Key::of(&Board::START)]);
    let mut previous = 1;
    for ply in 0..=config.plies {
        if let Some(shard) = config.shard.filter(|s| s.ply == ply) {
            level.retain(|k| shard.owns(k));
        }
        let keys: Vec<Key> = level.iter().copied().collect();
        jobs.progress.ply = Some(ply);
        jobs.progress.later = estimate_later(&keys, previous, config.plies - ply, book, jobs);
        jobs.ensure(book, &keys)?;
        previous = keys.len().max(1);
        if ply == config.plies {
            break;
        }
        level = keys
            .iter()
            .flat_map(|k| followed(book, k, config.width))
            .collect();
    }
    book.negamax();
    Ok(())
}

/// The successors of `key`'s moves within `width` of its best score.
fn followed(book: &Book, key: &Key, width: i32) -> Vec<Key> {
    let Some(entry) = book.get(key) else {
        return Vec::new();
    };
    let best = entry.best_score().unwrap_or(0);
    entry
        .scores
        .iter()
        .take_while(|s| s.score >= best - width)
        .filter_map(|s| successor(key, s.square).map(|(k, _)| k))
        .collect()
}

/// The searches expected after this ply's: its positions growing by the ratio of this ply
/// to the last over the plies left, in the share of this ply that needs a search.
fn estimate_later(keys: &[Key], previous: usize, left: u32, book: &Book, jobs: &Jobs) -> usize {
    let todo = keys.iter().filter(|k| jobs.needs_search(book, k)).count();
    let growth = keys.len() as f64 / previous as f64;
    let later: f64 = (1..=left)
        .map(|j| keys.len() as f64 * growth.powi(j as i32))
        .sum();
    (later * todo as f64 / keys.len().max(1) as f64).min(1e12) as usize
}
