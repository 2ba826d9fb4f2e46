//! The deviation builder: grows the book from the start position, ply by ply.
//!
//! Every position at ply < `plies` in the book is expanded: the successors of its moves
//! within `width` of its best searched score enter the book, and are searched in turn (so
//! every position up to ply `plies` gets a search, and with it a leaf).
//!
//! With a line budget ([`BuildConfig::line_error`]) the book is built for a player who plays
//! its best moves: a line is followed while one side has played only the best searched move
//! and the other side's moves (each within `width`) lose at most the budget in all. Such a
//! book covers an opponent's reasonable deviations deep into the game at the cost of a
//! narrow tree, where a plain width doubles the positions every ply. A position holds, for
//! each role of the side to move (the book's player or its opponent), the least budget spent
//! on a line to it, so transpositions follow the cheapest line. The first `free_plies` are
//! followed whole and spend nothing, as openings of random moves begin. The set built is a
//! function of the positions' searches alone, which are deterministic ([`crate::play::book::jobs`]): a
//! rerun of the same command over a checkpoint finds the same positions, skips those already
//! searched, and ends with the same book; a rerun with a larger ply, depth or width deepens it.
//!
//! A shard keeps, at its shard ply, only the positions whose key hashes to it: the plies
//! before are built by every shard alike, and every line after goes through exactly one
//! position of the shard ply, so the shards together hold one run's positions. (With a line
//! budget, the shard that holds a position's cheapest line follows what one run follows
//! from it, and no shard spends less than one run, so the union is again one run's.)

use crate::base::datafile::checksum;
use crate::engine::board::Board;
use crate::play::book::store::{successor, Book, Key};
use crate::play::book::{BookError, Jobs};
use std::collections::BTreeMap;
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
    /// Centi-discs: when set, lines are followed for a player of the book's best moves,
    /// against an opponent whose moves lose at most this much in all (see the module's doc).
    pub line_error: Option<i32>,
    /// Plies from the start whose every move is followed, at no cost.
    pub free_plies: u32,
    pub shard: Option<Shard>,
}

impl BuildConfig {
    /// What a move losing `loss` to the best leaves of a line's budget `spent`, when played
    /// by the book's player (`own`) or its opponent; `None` when the line is not followed.
    fn spend(&self, spent: i32, loss: i32, own: bool) -> Option<i32> {
        match self.line_error {
            None => (loss <= self.width).then_some(0),
            Some(_) if own => (loss == 0).then_some(spent),
            Some(budget) => (loss <= self.width && spent + loss <= budget).then_some(spent + loss),
        }
    }
}

/// The least budget spent on a line to a position, for each role of its side to move:
/// `[the book's player, its opponent]`.
type Spent = [Option<i32>; 2];

/// Keeps the cheaper of two lines' spending, role by role.
fn cheapest(a: Spent, b: Spent) -> Spent {
    let min = |x: Option<i32>, y: Option<i32>| x.into_iter().chain(y).min();
    [min(a[0], b[0]), min(a[1], b[1])]
}

/// Grows `book` by deviation search (see the module's doc), then negamaxes it.
pub fn build(book: &mut Book, config: &BuildConfig, jobs: &mut Jobs) -> Result<(), BookError> {
    let mut level = BTreeMap::from([(Key::of(&Board::START), [Some(0), Some(0)])]);
    let mut previous = 1;
    for ply in 0..=config.plies {
        if let Some(shard) = config.shard.filter(|s| s.ply == ply) {
            level.retain(|k, _| shard.owns(k));
        }
        let keys: Vec<Key> = level.keys().copied().collect();
        jobs.progress.ply = Some(ply);
        jobs.progress.later = estimate_later(&keys, previous, config.plies - ply, book, jobs);
        jobs.ensure(book, &keys)?;
        previous = keys.len().max(1);
        if ply == config.plies {
            break;
        }
        let mut next = BTreeMap::new();
        for (key, spent) in &level {
            for (child, child_spent) in followed(book, key, *spent, ply, config) {
                let slot = next.entry(child).or_insert([None, None]);
                *slot = cheapest(*slot, child_spent);
            }
        }
        level = next;
    }
    book.negamax();
    Ok(())
}

/// The successors of `key` (at `ply`, reached by lines that spent `spent`) that are followed,
/// with what the lines to them spent.
fn followed(
    book: &Book,
    key: &Key,
    spent: Spent,
    ply: u32,
    config: &BuildConfig,
) -> Vec<(Key, Spent)> {
    let Some(entry) = book.get(key) else {
        return Vec::new();
    };
    let best = entry.best_score().unwrap_or(0);
    let free = ply < config.free_plies;
    entry
        .scores
        .iter()
        .filter_map(|s| {
            let (child, passed) = successor(key, s.square)?;
            let loss = if free { 0 } else { best - s.score };
            // The roles swap at the child, unless its side to move is the one who moved.
            let by_role = |own: bool| config.spend(spent[usize::from(!own)]?, loss, own);
            let (player, opponent) = (by_role(true), by_role(false));
            let child_spent = if passed {
                [player, opponent]
            } else {
                [opponent, player]
            };
            (child_spent != [None, None]).then_some((child, child_spent))
        })
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
