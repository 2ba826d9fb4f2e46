//! The openings a match plays from: read from a file, each checked by replaying it (so that a
//! bad line is an error of the match's set-up, reported before any game), or drawn at random.

use crate::base::rng::{shuffle, Rng};
use crate::engine::board::{Color, Squares};
use crate::engine::game::{Game, Move};
use crate::engine::gamefile::read_line;

/// An opening known to be legal: the game its moves lead to.
#[derive(Clone, Debug)]
pub struct Opening {
    game: Game,
}

impl Opening {
    /// Checks `moves` (passes implied) by replaying them from the start position.
    #[cfg(test)]
    pub fn new(moves: &[u32]) -> Result<Opening, String> {
        Game::replay(crate::engine::board::Position::start(), moves).map(|game| Opening { game })
    }

    /// The moves, each with the colour that plays it.
    pub fn plays(&self) -> impl Iterator<Item = (Color, u32)> {
        self.game
            .record()
            .into_iter()
            .filter_map(|(c, mv)| match mv {
                Move::Play(sq) => Some((c, sq)),
                Move::Pass => None,
            })
    }

    /// The game after the opening.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

/// The openings of a file, one transcript per line (blank and `#`/`%` lines skipped), each
/// checked by replaying it; shuffled with `seed` if given.
pub fn load_openings(text: &str, seed: Option<u64>) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let record = read_line(line, n + 1).map_err(|e| e.to_string())?;
        openings.push(Opening { game: record.game });
    }
    if openings.is_empty() {
        return Err("no openings".into());
    }
    if let Some(seed) = seed {
        shuffle(&mut openings, seed);
    }
    Ok(openings)
}

/// `count` random legal openings of `plies` moves (shorter if a game ends first).
pub fn random_openings(count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut game = Game::default();
            while game.moves().len() < plies {
                let Some(c) = game.next_to_play() else { break };
                let moves: Vec<u32> = Squares(game.position().moves_of(c)).collect();
                // Every move offered is legal, so the play cannot fail.
                let _ = game.play(c, moves[rng.below(moves.len())]);
            }
            Opening { game }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::load_openings;

    #[test]
    fn an_opening_that_is_not_legal_names_its_line_and_move() {
        let error = |text: &str| load_openings(text, None).unwrap_err();
        assert_eq!(
            error("f5d6\n\nf5d6d6\n"),
            "line 3: move 3 (d6): illegal move"
        );
        // The shortest game ends after 9 moves.
        assert_eq!(
            error("% comment\nd3c3b3d2e1d6d7e3f4a1\n"),
            "line 2: move 10 (a1): the game is already over"
        );
        assert!(error("f5z9\n").starts_with("line 1: "));
        assert_eq!(error("# nothing\n"), "no openings");
        assert_eq!(load_openings("f5d6\nf5f6\n", None).unwrap().len(), 2);
    }
}
