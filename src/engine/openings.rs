//! The named openings (Tiger, Rose, Buffalo, Heath, ...): the table of `openings.txt`,
//! replayed from the start position when first used, and matched by position under the 8
//! symmetries, so that a mirrored line (C4 for F5) and a transposed move order that reaches
//! the same position get the same name.
//!
//! A position *lies on a named line* when some named line, or one of its images, goes
//! through it. The name *in force* there is that of the deepest named position at or before
//! it on the line (Tiger from F5 D6 C3 D3 C4 until the next name). A game leaves the named
//! lines at its first position that lies on none.

use crate::engine::board::{Board, Color, Position};
use crate::engine::game::Game;
use crate::engine::notation::{parse_transcript, square_name};
use crate::engine::symmetry::canonical;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table's text, one opening a line: its moves, then its name.
const TABLE: &str = include_str!("openings.txt");

/// A named opening: its name and its moves from the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name: &'static str,
    pub moves: Vec<u32>,
}

impl Opening {
    /// The move number at which the opening's position is reached.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
}

/// A position the same for all its 8 images: the canonical board and the side to move.
type Key = (Board, Color);

fn key(position: &Position) -> Key {
    (canonical(&position.board), position.side)
}

/// The openings and two maps by position: the named positions, and every position on a named
/// line with the opening in force there (`None` before the first name).
pub struct Openings {
    openings: Vec<Opening>,
    named: HashMap<Key, usize>,
    on_line: HashMap<Key, Option<usize>>,
}

impl Openings {
    fn empty() -> Openings {
        Openings {
            openings: Vec::new(),
            named: HashMap::new(),
            on_line: HashMap::new(),
        }
    }

    /// Reads a table (see `openings.txt`): replays every line from the start position and
    /// says which line is wrong, if one is.
    fn parse(text: &'static str) -> Result<Openings, String> {
        let mut table = Openings::empty();
        let lines = text.lines().enumerate();
        for (i, line) in lines.filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
            let opening = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            let positions = replay(&opening.moves).map_err(|e| format!("line {}: {e}", i + 1))?;
            table.add(opening, &positions)?;
        }
        table.mark_lines();
        Ok(table)
    }

    /// Adds one opening, reached through `positions`, refusing a second name for a position.
    fn add(&mut self, opening: Opening, positions: &[Position]) -> Result<(), String> {
        let end = key(positions.last().unwrap_or(&Position::start()));
        if let Some(&other) = self.named.get(&end) {
            return Err(format!(
                "{} and {} name the same position",
                self.openings[other].name, opening.name
            ));
        }
        self.named.insert(end, self.openings.len());
        self.openings.push(opening);
        Ok(())
    }

    /// Walks every line, recording at each of its positions the opening in force; where
    /// lines cross (a transposition), the deeper opening wins.
    fn mark_lines(&mut self) {
        for opening in &self.openings {
            let mut in_force = None;
            for position in replay(&opening.moves).unwrap_or_default() {
                let k = key(&position);
                in_force = self.named.get(&k).copied().or(in_force);
                let entry = self.on_line.entry(k).or_insert(in_force);
                let deeper = |i: Option<usize>| i.map(|i| self.openings[i].ply());
                if deeper(in_force) > deeper(*entry) {
                    *entry = in_force;
                }
            }
        }
    }

    /// The opening named exactly at `position`, under any symmetry.
    pub fn named_at(&self, position: &Position) -> Option<&Opening> {
        self.named.get(&key(position)).map(|&i| &self.openings[i])
    }

    /// The opening in force at `position` when it lies on a named line; `None` off the lines
    /// and before the first name.
    fn in_force(&self, position: &Position) -> Option<&Opening> {
        self.on_line
            .get(&key(position))
            .copied()
            .flatten()
            .map(|i| &self.openings[i])
    }

    /// Whether `position` lies on a named line.
    fn on_line(&self, position: &Position) -> bool {
        self.on_line.contains_key(&key(position))
    }

    /// The game's opening: the one in force at the game's deepest position on a named line.
    pub fn of_game(&self, game: &Game) -> Option<&Opening> {
        game.positions()
            .into_iter()
            .rev()
            .find(|p| self.on_line(p))
            .and_then(|p| self.in_force(&p))
    }

    /// The opening of the game's current line: the one in force at its position, while it
    /// lies on a named line.
    pub fn current(&self, game: &Game) -> Option<&Opening> {
        self.in_force(game.position())
    }
}

/// `<moves> <name>`.
fn parse_line(line: &'static str) -> Result<Opening, String> {
    let (moves, name) = line
        .trim()
        .split_once(' ')
        .ok_or("expected the moves and a name")?;
    let moves = parse_transcript(moves).map_err(|e| e.to_string())?;
    Ok(Opening {
        name: name.trim(),
        moves,
    })
}

/// The positions after each of `moves` from the start position, the start included.
fn replay(moves: &[u32]) -> Result<Vec<Position>, String> {
    let mut positions = vec![Position::start()];
    for (i, &sq) in moves.iter().enumerate() {
        let before = positions[positions.len() - 1];
        let after = before
            .play(sq)
            .ok_or_else(|| format!("move {} ({}) is illegal", i + 1, square_name(sq)))?;
        positions.push(after);
    }
    Ok(positions)
}

/// The table of `openings.txt`, read once. Its lines are checked by the tests; were one
/// wrong, the table would be empty and say so in the log rather than stop the engine.
pub fn openings() -> &'static Openings {
    static TABLE_READ: OnceLock<Openings> = OnceLock::new();
    TABLE_READ.get_or_init(|| {
        Openings::parse(TABLE).unwrap_or_else(|e| {
            log::error!("openings.txt: {e}");
            Openings::empty()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_table_is_legal_and_names_its_own_position() {
        let table = Openings::parse(TABLE).expect("the table reads");
        assert_eq!(table.openings.len(), 73);
        for opening in &table.openings {
            let end = *replay(&opening.moves).unwrap().last().unwrap();
            assert_eq!(table.named_at(&end), Some(opening));
            assert_eq!(table.in_force(&end), Some(opening));
            // The review writes names into JSON strings and CSV fields as they are.
            assert!(!opening.name.contains(['"', '\\', ',']), "{}", opening.name);
        }
    }

    #[test]
    fn a_wrong_line_is_refused_with_its_number() {
        let illegal = Openings::parse("# c\nf5d6 Perpendicular\nf5f5 Twice\n");
        assert_eq!(illegal.err().unwrap(), "line 3: move 2 (f5) is illegal");
        let same = Openings::parse("f5d6 A\nd3c5 B\n");
        assert_eq!(same.err().unwrap(), "A and B name the same position");
        assert!(Openings::parse("f5d6\n").is_err());
    }
}
