//! The opening book in play, for every front end: the book's state in a session (on or off,
//! the randomness, the file the user named), the policy "which book move, if any, to play
//! now", the book moves as `analyze` shows them, and learning a finished game.
//!
//! A book move is played without a search when the book's depth for it is at least the depth
//! the search would reach (the [`need`]): the fixed depth (exact where the level solves), or
//! with a clock the depth of the session's last search (when that was at a position with at
//! least as many empties, so a new game starts in the book again). The shipped book is used
//! when no file is named; only a named file is ever written (by [`Opening::learn`]).

use crate::base::rng::Rng;
use crate::engine::board::Board;
use crate::engine::eval::DISC;
use crate::engine::game::Game;
use crate::engine::search::{Level, Plan, Selectivity};
use crate::play::book::{Book, BookError, BookMove, Depth};
use crate::play::format::{format_score, vertex_name};
use std::fmt;
use std::path::{Path, PathBuf};

/// The midgame depth of [`Opening::learn`] when the named book holds no midgame search.
pub const LEARN_DEPTH: u32 = 8;

/// The largest randomness, in discs (a whole board).
pub use crate::play::values::MAX_DISCS as MAX_RANDOMNESS;

/// The book settings a session starts with.
#[derive(Clone, Debug)]
pub struct BookSettings {
    book: Book,
    /// The file the book came from, the only one `learn` writes; `None` for the shipped book.
    file: Option<PathBuf>,
    enabled: bool,
    /// Centi-discs.
    randomness: i32,
}

/// Why the book settings cannot be used.
#[derive(Debug)]
pub enum BookSettingsError {
    Book(PathBuf, BookError),
    Shipped(BookError),
    Randomness(f64),
}

impl fmt::Display for BookSettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookSettingsError::Book(path, e) => write!(f, "book {}: {e}", path.display()),
            BookSettingsError::Shipped(e) => write!(f, "the shipped book: {e}"),
            BookSettingsError::Randomness(r) => {
                write!(f, "book randomness {r} is outside 0-{MAX_RANDOMNESS} discs")
            }
        }
    }
}

/// Randomness in discs as centi-discs, if it is in range.
fn centi_discs(discs: f64) -> Option<i32> {
    (0.0..=MAX_RANDOMNESS)
        .contains(&discs)
        .then(|| (discs * f64::from(DISC)).round() as i32)
}

impl BookSettings {
    /// The book of `file` (the shipped one when `None`), on or off, with `randomness` discs.
    pub fn load(
        file: Option<&Path>,
        enabled: bool,
        randomness: f64,
    ) -> Result<BookSettings, BookSettingsError> {
        let randomness =
            centi_discs(randomness).ok_or(BookSettingsError::Randomness(randomness))?;
        let book = match file {
            Some(path) => {
                Book::open(path).map_err(|e| BookSettingsError::Book(path.to_path_buf(), e))?
            }
            None => Book::embedded().map_err(BookSettingsError::Shipped)?,
        };
        Ok(BookSettings {
            book,
            file: file.map(Path::to_path_buf),
            enabled,
            randomness,
        })
    }
}

/// Why a game was not learnt.
#[derive(Debug)]
pub enum LearnError {
    /// Only the shipped book is loaded, and it is never written.
    NoFile,
    Save(BookError),
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::NoFile => f.write_str(
                "the game was not learnt: no book file was named (start with --book FILE)",
            ),
            LearnError::Save(e) => write!(f, "the game was not learnt: {e}"),
        }
    }
}

/// The depth a search of `level` reaches at `empties`: its midgame depth, the empties for a
/// selective endgame search, or the end.
fn level_depth(level: Level, empties: u32) -> Depth {
    match level.plan(empties) {
        Plan::Midgame { depth } => Depth::searched(depth, false),
        Plan::Endgame(sel) => Depth::searched(empties, sel == Selectivity::Exact),
    }
}

/// How many more empties than a search's a position may have for that search's depth to
/// still tell what the clock reaches there: a book of 10 or 12 plies leads to a game's first
/// search about this many moves after the book's first position.
const REACH_EMPTIES: u32 = 12;

/// How deep a book move must be to be played at `empties`: with a fixed depth, what that
/// depth reaches; by the clock, the depth of the search in `reach` (its empties and depth),
/// from a position with at most [`REACH_EMPTIES`] fewer empties (the clock reaches about as
/// deep in the opening, deeper as the board fills); `None`: any depth will do.
pub fn need(level: Option<Level>, reach: Option<(u32, Depth)>, empties: u32) -> Option<Depth> {
    match level {
        Some(level) => Some(level_depth(level, empties)),
        None => reach
            .filter(|&(e, _)| e + REACH_EMPTIES >= empties)
            .map(|(_, d)| d),
    }
}

/// The book in a session.
pub struct Opening {
    config: BookSettings,
    rng: Rng,
}

impl Opening {
    /// Random choices are seeded from the clock and the process, so that games vary.
    pub fn new(config: BookSettings) -> Opening {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Opening {
            config,
            rng: Rng::new(nanos ^ u64::from(std::process::id()).rotate_left(32)),
        }
    }

    pub fn set_enabled(&mut self, enabled: bool) {
        self.config.enabled = enabled;
    }

    /// Sets the randomness in discs (unchanged when out of range).
    pub fn set_randomness(&mut self, discs: f64) -> Result<(), BookSettingsError> {
        self.config.randomness = centi_discs(discs).ok_or(BookSettingsError::Randomness(discs))?;
        Ok(())
    }

    /// The book moves of `board`, best first (none when the book is off).
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        if self.config.enabled {
            self.config.book.moves(board)
        } else {
            Vec::new()
        }
    }

    /// The book move to play on `board` now, if the book is on, knows the position, and its
    /// choice (within the randomness of the best) is searched at least as deep as `need`.
    pub fn pick(&mut self, board: &Board, need: Option<Depth>) -> Option<BookMove> {
        if !self.config.enabled {
            return None;
        }
        let chosen = self
            .config
            .book
            .choose(board, self.config.randomness, &mut self.rng)?;
        let deep = need.is_none_or(|d| chosen.depth >= d);
        if !deep {
            log::info!(
                "book move {} (depth {}) is shallower than the search ({}): searching",
                vertex_name(Some(chosen.square)),
                chosen.depth,
                need.map_or(String::new(), |d| d.to_string())
            );
        }
        deep.then_some(chosen)
    }

    /// The depth `learn` searches at: the deepest midgame search in the book, or
    /// [`LEARN_DEPTH`] when it has none.
    pub fn learn_depth(&self) -> u32 {
        self.config
            .book
            .entries()
            .filter_map(|(_, e)| match e.depth {
                Depth::Plies(d) => Some(u32::from(d)),
                Depth::Exact => None,
            })
            .max()
            .unwrap_or(LEARN_DEPTH)
    }

    /// Learns `game` into the named book and saves it atomically: how many positions are
    /// new, and the file.
    pub fn learn(&mut self, game: &Game) -> Result<(usize, PathBuf), LearnError> {
        let path = self.config.file.clone().ok_or(LearnError::NoFile)?;
        let depth = self.learn_depth();
        let added = self.config.book.learn(game, depth);
        self.config.book.save(&path).map_err(LearnError::Save)?;
        Ok((added, path))
    }
}

/// One `info book` line per book move, as `analyze` shows them before its search.
pub fn info_lines(moves: &[BookMove]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "info book{} depth {} line {} score {} pv {}\n",
                if m.leaf { " leaf" } else { "" },
                m.depth,
                i + 1,
                format_score(m.value, false),
                vertex_name(Some(m.square))
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_depth_needs_its_level() {
        assert_eq!(need(Level::new(8), None, 56), Some(Depth::Plies(8)));
        assert_eq!(need(Level::new(8), None, 16), Some(Depth::Exact));
        assert_eq!(need(Level::new(20), None, 26), Some(Depth::Plies(26)));
        assert!(Depth::Exact >= Depth::Plies(60));
    }

    #[test]
    fn clock_needs_what_it_reached_near_these_empties() {
        assert_eq!(need(None, None, 56), None);
        let reach = Some((48, Depth::Plies(22)));
        assert_eq!(need(None, reach, 40), Some(Depth::Plies(22)));
        // The book's positions before the first search of a game.
        assert_eq!(need(None, reach, 60), Some(Depth::Plies(22)));
        // An endgame solve says nothing of the opening.
        let solved = Some((22, Depth::Exact));
        assert_eq!(need(None, solved, 34), Some(Depth::Exact));
        assert_eq!(need(None, solved, 35), None);
    }

    #[test]
    fn randomness_is_bounded() {
        assert_eq!(centi_discs(2.0), Some(200));
        assert_eq!(centi_discs(-1.0), None);
        assert_eq!(centi_discs(65.0), None);
        assert_eq!(centi_discs(f64::NAN), None);
    }
}
