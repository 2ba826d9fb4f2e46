//! The book store: one entry per symmetry class of positions, keyed by the class's canonical
//! board, each holding the searched score of every move (in the canonical orientation) and
//! the position's value negamaxed over the book.
//!
//! A move whose successor is in the book is a book move, worth the successor's value (with
//! the sign of whoever is to move there); the best other move is the leaf, worth its searched
//! score. A position's value is the best of both, so [`Book::negamax`] needs nothing but the
//! entries: after any change it makes the whole book consistent again.

use crate::base::rng::Rng;
use crate::engine::board::{Board, Squares};
use crate::engine::symmetry::{self, inverse, transform_square};
use std::collections::BTreeMap;
use std::fmt;

/// A position's identity under the 8 symmetries: its canonical (player, opponent) pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub player: u64,
    pub opponent: u64,
}

impl Key {
    /// The key of `board`'s class.
    pub fn of(board: &Board) -> Key {
        orient(board).0
    }

    /// The key of a board already in canonical form.
    fn from_canonical(board: Board) -> Key {
        Key {
            player: board.player,
            opponent: board.opponent,
        }
    }

    /// The canonical board.
    pub fn board(&self) -> Board {
        Board::new(self.player, self.opponent)
    }

    /// Moves played to reach the position from the start, passes aside: its discs minus 4.
    pub fn ply(&self) -> u32 {
        (self.player | self.opponent).count_ones().saturating_sub(4)
    }
}

/// The canonical key of `board` and the symmetry that maps `board` onto it.
fn orient(board: &Board) -> (Key, usize) {
    let (canonical, s) = symmetry::orient(board);
    (Key::from_canonical(canonical), s)
}

/// The search depth behind a score.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Depth {
    /// A midgame search of this many plies.
    Plies(u8),
    /// Solved to the end of the game.
    Exact,
}

impl Depth {
    /// The deepest midgame search a depth holds: the book file keeps 255 for exact.
    pub const MAX_PLIES: u8 = 254;

    /// The depth of a search that reached `plies` plies, or the end when `exact`.
    pub fn searched(plies: u32, exact: bool) -> Depth {
        if exact {
            Depth::Exact
        } else {
            Depth::Plies(plies.min(u32::from(Depth::MAX_PLIES)) as u8)
        }
    }

    /// Whether a search of this depth is worth at least a `plies`-ply one.
    pub fn covers(self, plies: u32) -> bool {
        match self {
            Depth::Exact => true,
            Depth::Plies(d) => u32::from(d) >= plies,
        }
    }
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Plies(d) => write!(f, "{d}"),
            Depth::Exact => f.write_str("exact"),
        }
    }
}

/// One move of a stored position and its searched score (centi-discs, mover's view).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scored {
    /// In the canonical orientation.
    pub square: u32,
    pub score: i32,
}

/// A stored position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The negamax over the book (centi-discs, side to move's view).
    pub value: i32,
    /// The depth of the search that scored the moves.
    pub depth: Depth,
    /// The scored moves, best first (ties by square): every legal move of Oxello's searches;
    /// the links and leaf of a position imported from Edax, whose other moves searched no
    /// better than its leaf.
    pub scores: Vec<Scored>,
}

impl Entry {
    /// An entry from a search's scores; its value is the best score until the next negamax.
    pub fn searched(depth: Depth, mut scores: Vec<Scored>) -> Entry {
        scores.sort_by_key(|s| (-s.score, s.square));
        Entry {
            value: scores.first().map_or(0, |s| s.score),
            depth,
            scores,
        }
    }

    /// The best searched score.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.first().map(|s| s.score)
    }

    /// Which of two entries of one position to keep: the deeper search, then (for entries
    /// from different evaluations) the smaller scores, so that the choice is the same
    /// whatever the order they come in.
    pub fn better_than(&self, other: &Entry) -> bool {
        (self.depth, std::cmp::Reverse(&self.scores))
            > (other.depth, std::cmp::Reverse(&other.scores))
    }
}

/// The position after the canonical `key` plays `square`, as the next position with a move:
/// its key, and whether the side to move there is the one who moved (the other had to pass).
/// `None` when the move is illegal or ends the game.
pub fn successor(key: &Key, square: u32) -> Option<(Key, bool)> {
    let child = key.board().play(square)?;
    if child.moves() != 0 {
        Some((Key::of(&child), false))
    } else if child.opponent_moves() != 0 {
        Some((Key::of(&child.pass()), true))
    } else {
        None
    }
}

/// A move the book knows, in the orientation it was asked in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub square: u32,
    /// Centi-discs, from the view of the side to move.
    pub value: i32,
    /// The depth of the search behind the value: the successor's for a book move, the
    /// position's own for the leaf.
    pub depth: Depth,
    /// The best move leaving the book, valued by the position's search.
    pub leaf: bool,
}

/// Positions, one per symmetry class, and the evaluation that searched them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    pub(crate) entries: BTreeMap<Key, Entry>,
    /// The checksum of the evaluation weights the searches used.
    pub(crate) evaluation: u64,
}

impl Book {
    /// An empty book for positions searched by the evaluation named `evaluation`.
    pub fn new(evaluation: u64) -> Book {
        Book {
            entries: BTreeMap::new(),
            evaluation,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The checksum of the evaluation weights that searched the book.
    pub fn evaluation(&self) -> u64 {
        self.evaluation
    }

    /// Names the evaluation that searches what is added from now on.
    pub fn set_evaluation(&mut self, evaluation: u64) {
        self.evaluation = evaluation;
    }

    /// Every entry, by key.
    pub fn entries(&self) -> impl Iterator<Item = (&Key, &Entry)> {
        self.entries.iter()
    }

    pub fn get(&self, key: &Key) -> Option<&Entry> {
        self.entries.get(key)
    }

    /// The entry of `board`'s class.
    pub fn entry(&self, board: &Board) -> Option<&Entry> {
        self.entries.get(&Key::of(board))
    }

    /// Stores an entry, replacing any of the same position; call [`Book::negamax`] after.
    pub fn insert(&mut self, key: Key, entry: Entry) {
        self.entries.insert(key, entry);
    }

    /// What a stored move is worth to the mover: its successor's value when that is in the
    /// book (with the successor's depth), else its searched score (`None` for the depth).
    pub fn move_value(&self, key: &Key, scored: &Scored) -> (i32, Option<Depth>) {
        match successor(key, scored.square).and_then(|(k, same)| Some((self.get(&k)?, same))) {
            Some((child, same)) => (
                if same { child.value } else { -child.value },
                Some(child.depth),
            ),
            None => (scored.score, None),
        }
    }

    /// The value `key`'s entry should hold: the best over its book moves and its leaf.
    pub fn negamax_value(&self, key: &Key, entry: &Entry) -> i32 {
        entry
            .scores
            .iter()
            .map(|s| self.move_value(key, s).0)
            .max()
            .unwrap_or(entry.value)
    }

    /// Recomputes every value from the deepest plies up: a book move always adds a disc, so
    /// every successor is valued before the positions that lead to it.
    pub fn negamax(&mut self) {
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        keys.sort_by_key(|k| std::cmp::Reverse(k.ply()));
        for key in keys {
            let value = self.negamax_value(&key, &self.entries[&key]);
            if let Some(entry) = self.entries.get_mut(&key) {
                entry.value = value;
            }
        }
    }

    /// The book moves of `board` (in its own orientation) and its leaf, best first; empty
    /// when the position is not in the book.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let (key, s) = orient(board);
        let Some(entry) = self.get(&key) else {
            return Vec::new();
        };
        let back = inverse(s);
        let mut leaf_seen = false;
        let mut moves: Vec<BookMove> = entry
            .scores
            .iter()
            .filter_map(|scored| {
                let (value, child_depth) = self.move_value(&key, scored);
                let leaf = child_depth.is_none();
                if leaf && std::mem::replace(&mut leaf_seen, true) {
                    return None;
                }
                Some(BookMove {
                    square: transform_square(scored.square, back),
                    value,
                    depth: child_depth.unwrap_or(entry.depth),
                    leaf,
                })
            })
            .collect();
        moves.sort_by_key(|m| (-m.value, m.leaf, m.square));
        moves
    }

    /// A move to play from `board`: the best, or with `randomness` (centi-discs) > 0 any of
    /// those within `randomness` of the best, each as likely. `None` out of the book.
    pub fn choose(&self, board: &Board, randomness: i32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(board);
        let best = moves.first()?.value;
        let close = moves
            .iter()
            .take_while(|m| m.value >= best - randomness.max(0))
            .count();
        moves.get(rng.below(close)).copied()
    }

    /// Adds every entry of `other`, keeping the deeper search where both have a position; call
    /// [`Book::negamax`] after the last merge.
    pub fn merge(&mut self, other: Book) {
        for (key, entry) in other.entries {
            match self.entries.get(&key) {
                Some(mine) if !entry.better_than(mine) => {}
                _ => {
                    self.entries.insert(key, entry);
                }
            }
        }
    }

    /// Checks every entry: its key is canonical, it stores at least one move, each legal and
    /// once, and its value is the negamax of its book moves and leaf.
    pub fn check(&self) -> Result<usize, Inconsistency> {
        let mut moves = 0;
        for (key, entry) in &self.entries {
            let board = key.board();
            if Key::of(&board) != *key || board.player & board.opponent != 0 {
                return Err(Inconsistency::NotCanonical(*key));
            }
            let stored = entry.scores.iter().fold(0u64, |m, s| m | 1 << s.square);
            let legal = board.moves();
            if stored == 0 || stored & !legal != 0 || entry.scores.len() != Squares(stored).count()
            {
                return Err(Inconsistency::Moves(*key));
            }
            let negamax = self.negamax_value(key, entry);
            if negamax != entry.value {
                return Err(Inconsistency::Value {
                    key: *key,
                    stored: entry.value,
                    negamax,
                });
            }
            moves += entry.scores.len();
        }
        Ok(moves)
    }
}

/// What [`Book::check`] found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    NotCanonical(Key),
    /// A stored move is illegal or stored twice, or no move is stored.
    Moves(Key),
    Value {
        key: Key,
        stored: i32,
        negamax: i32,
    },
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = |k: &Key| format!("{:016x}/{:016x}", k.player, k.opponent);
        match self {
            Inconsistency::NotCanonical(k) => {
                write!(f, "position {} is not in canonical form", board(k))
            }
            Inconsistency::Moves(k) => {
                write!(
                    f,
                    "position {}: a stored move is illegal or repeated, or none is stored",
                    board(k)
                )
            }
            Inconsistency::Value {
                key,
                stored,
                negamax,
            } => write!(
                f,
                "position {}: value {stored} but its moves negamax to {negamax}",
                board(key)
            ),
        }
    }
}

impl std::error::Error for Inconsistency {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::symmetry::transform_board;

    /// Squares a1, b1, c1, a2: no symmetry maps this set onto itself.
    const ASYMMETRIC: u64 = 0b111 | 1 << 8;

    #[test]
    fn a_key_is_the_canonical_board_of_every_image() {
        let board = Board::new(ASYMMETRIC, 1 << 63);
        for s in 0..8 {
            let image = transform_board(&board, s);
            assert_eq!(Key::of(&image).board(), symmetry::canonical(&board));
        }
    }

    /// An entry for `key` scoring every move `score(i)`, its i-th legal move.
    fn entry(key: &Key, score: impl Fn(usize) -> i32) -> Entry {
        let scores = Squares(key.board().moves())
            .enumerate()
            .map(|(i, square)| Scored {
                square,
                score: score(i),
            })
            .collect();
        Entry::searched(Depth::Plies(4), scores)
    }

    /// The position after f5 (white to move: d6 and f4, mirror images, and f6), every move
    /// scored -50, with the successors of the given moves (by index) in the book, each
    /// scoring its moves from the given best down.
    fn book_after_f5(children: &[(usize, i32)]) -> (Book, Key, Vec<Key>) {
        let root = Key::of(&Board::START.play(37).unwrap());
        let mut book = Book::new(0);
        book.insert(root, entry(&root, |_| -50));
        let squares: Vec<u32> = Squares(root.board().moves()).collect();
        let keys = children
            .iter()
            .map(|&(i, best)| {
                let (child, _) = successor(&root, squares[i]).unwrap();
                book.insert(child, entry(&child, |j| best - 10 * j as i32));
                child
            })
            .collect();
        book.negamax();
        (book, root, keys)
    }

    #[test]
    fn a_value_is_the_best_of_the_book_moves_and_the_leaf() {
        // A successor worth +30 to its mover is worth -30 here, better than the leaf's -50.
        let (book, root, children) = book_after_f5(&[(0, 30)]);
        assert_eq!(book.get(&children[0]).unwrap().value, 30);
        assert_eq!(book.get(&root).unwrap().value, -30);
        // At +80 the leaf is the better move.
        let (book, root, _) = book_after_f5(&[(0, 80)]);
        assert_eq!(book.get(&root).unwrap().value, -50);
        assert!(book.check().is_ok());
    }

    #[test]
    fn moves_list_the_book_moves_and_one_leaf() {
        let (book, root, _) = book_after_f5(&[(0, 30)]);
        let moves = book.moves(&root.board());
        let book_moves: Vec<_> = moves.iter().filter(|m| !m.leaf).collect();
        assert!(!book_moves.is_empty() && book_moves.iter().all(|m| m.value == -30));
        assert_eq!(moves.iter().filter(|m| m.leaf).count(), 1);
        assert_eq!(moves.last().map(|m| (m.leaf, m.value)), Some((true, -50)));
    }

    #[test]
    fn check_finds_a_stale_value() {
        let (mut book, root, _) = book_after_f5(&[(0, 30)]);
        book.entries.get_mut(&root).unwrap().value = 0;
        assert!(matches!(book.check(), Err(Inconsistency::Value { .. })));
        book.negamax();
        assert!(book.check().is_ok());
    }

    #[test]
    fn merge_keeps_the_deeper_search_whatever_the_order() {
        let (shallow, root, _) = book_after_f5(&[(0, 30)]);
        let mut deep = shallow.clone();
        let entry = deep.entries.get_mut(&root).unwrap();
        entry.depth = Depth::Plies(9);
        entry.scores[0].score = 70;
        deep.negamax();
        let (mut a, mut b) = (shallow.clone(), deep.clone());
        a.merge(deep.clone());
        b.merge(shallow);
        a.negamax();
        b.negamax();
        assert_eq!(a, b);
        assert_eq!(a.get(&root).unwrap().depth, Depth::Plies(9));
    }

    #[test]
    fn choose_stays_within_the_randomness() {
        // Moves worth -30 (book), -40 (book) and -50 (the leaf).
        let root = Key::of(&Board::START.play(37).unwrap());
        let squares: Vec<u32> = Squares(root.board().moves()).collect();
        let distinct = (1..squares.len())
            .find(|&i| successor(&root, squares[i]) != successor(&root, squares[0]))
            .unwrap();
        let (book, _, _) = book_after_f5(&[(0, 30), (distinct, 40)]);
        let board = root.board();
        let mut rng = Rng::new(1);
        assert_eq!(book.choose(&board, 0, &mut rng).map(|m| m.value), Some(-30));
        let values: std::collections::BTreeSet<i32> = (0..200)
            .filter_map(|_| book.choose(&board, 15, &mut rng))
            .map(|m| m.value)
            .collect();
        assert_eq!(values, [-40, -30].into());
        assert_eq!(book.choose(&Board::START, 100, &mut rng), None);
    }
}
