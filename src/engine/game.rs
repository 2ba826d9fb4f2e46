//! A game record: a start position and the moves played, with implied passes, undo and scoring.

use crate::engine::board::{Color, Position};
use crate::engine::notation::{parse_transcript, square_name, ParseError};
use std::fmt;

/// A move of the record or of a command: a square or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Play(u32),
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move does not flip anything, the square is taken, or it is not that colour's turn.
    Illegal,
    /// Nothing to undo.
    NoHistory,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameError::Illegal => "illegal move",
            GameError::NoHistory => "cannot undo",
        })
    }
}

/// One move of the record and the position it was played from (before any implied pass),
/// so that undo restores the position exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ply {
    before: Position,
    color: Color,
    mv: Move,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    current: Position,
    history: Vec<Ply>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            current: start,
            history: Vec::new(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.current
    }

    pub fn is_over(&self) -> bool {
        self.current.is_game_over()
    }

    /// The colour whose move it is once forced passes are taken: the side to move if it can
    /// move, else the other side; `None` when the game is over.
    pub fn next_to_play(&self) -> Option<Color> {
        let pos = &self.current;
        if pos.board.moves() != 0 {
            Some(pos.side)
        } else if pos.board.opponent_moves() != 0 {
            Some(pos.side.opposite())
        } else {
            None
        }
    }

    /// `color` plays on `sq`. When `color` is not to move but the side to move has no legal move,
    /// the pass is implied. Nothing changes when the move is illegal.
    pub fn play(&mut self, color: Color, sq: u32) -> Result<(), GameError> {
        let before = self.current;
        let from = if before.side == color {
            before
        } else if before.board.moves() == 0 {
            before.pass()
        } else {
            return Err(GameError::Illegal);
        };
        let after = from.play(sq).ok_or(GameError::Illegal)?;
        self.history.push(Ply {
            before,
            color,
            mv: Move::Play(sq),
        });
        self.current = after;
        Ok(())
    }

    /// An explicit pass by `color`, accepted only when `color` is to move and has no legal move.
    pub fn pass(&mut self, color: Color) -> Result<(), GameError> {
        if self.current.side != color || self.current.board.moves() != 0 {
            return Err(GameError::Illegal);
        }
        self.history.push(Ply {
            before: self.current,
            color,
            mv: Move::Pass,
        });
        self.current = self.current.pass();
        Ok(())
    }

    /// Takes back the last move (with the pass it implied, if any).
    pub fn undo(&mut self) -> Result<(), GameError> {
        let ply = self.history.pop().ok_or(GameError::NoHistory)?;
        self.current = ply.before;
        Ok(())
    }

    /// The moves played, passes left out, as square indices.
    pub fn moves(&self) -> Vec<u32> {
        self.history
            .iter()
            .filter_map(|p| match p.mv {
                Move::Play(sq) => Some(sq),
                Move::Pass => None,
            })
            .collect()
    }

    /// Every position the game went through, in order, the current one last: the position
    /// each move was played from and, where a side had to pass, the position after the pass
    /// too (also after the current position, when play goes on from there).
    pub fn positions(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.history.len() + 2);
        let befores = self.history.iter().map(|ply| ply.before);
        for pos in befores.chain([self.current]) {
            positions.push(pos);
            if pos.board.moves() == 0 && !pos.is_game_over() {
                positions.push(pos.pass());
            }
        }
        // An explicit pass is recorded from the position its implied pass already added.
        positions.dedup();
        positions
    }

    /// The record as `(colour, move)` pairs, explicit passes included.
    pub fn record(&self) -> Vec<(Color, Move)> {
        self.history.iter().map(|p| (p.color, p.mv)).collect()
    }

    /// Replays a transcript (passes omitted) from `start`, each move by whoever can play it.
    pub fn replay(start: Position, moves: &[u32]) -> Result<Game, String> {
        let mut game = Game::new(start);
        for (i, &sq) in moves.iter().enumerate() {
            let color = game.next_to_play().ok_or_else(|| {
                format!(
                    "move {} ({}): the game is already over",
                    i + 1,
                    square_name(sq)
                )
            })?;
            game.play(color, sq)
                .map_err(|_| format!("move {} ({}) is illegal", i + 1, square_name(sq)))?;
        }
        Ok(game)
    }

    /// Replays a transcript string such as `f5d6c3` from the start position.
    pub fn from_transcript(s: &str) -> Result<Game, String> {
        let moves = parse_transcript(s).map_err(|ParseError(e)| e)?;
        Game::replay(Position::start(), &moves)
    }
}
