//! What games and matches produce: why an engine forfeits, one finished game (its moves, score,
//! forfeit and times), and the report of a whole match.

use super::stats::{Sprt, SprtVerdict, Tally};
use crate::engine::board::Color;
use crate::engine::game::Move;

/// Why an engine lost a game before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    IllegalMove(String),
    Malformed(String),
    FalsePass,
    Resigned,
    Late,
    Crashed,
    Hung,
    ErrorReply(String),
}

impl Forfeit {
    /// A short name for summaries.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::IllegalMove(_) => "illegal move",
            Forfeit::Malformed(_) => "malformed reply",
            Forfeit::FalsePass => "pass with legal moves",
            Forfeit::Resigned => "resigned",
            Forfeit::Late => "out of time",
            Forfeit::Crashed => "crashed",
            Forfeit::Hung => "no answer",
            Forfeit::ErrorReply(_) => "error reply",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: usize,
    /// Which engine (0 or 1) had black.
    pub black: usize,
    /// Every move with its thinking time (0 for opening moves), passes included.
    pub moves: Vec<(Color, Move, f64)>,
    /// Black's disc differential (WOF rule), or +-64 for a forfeit.
    pub black_score: i32,
    /// The engine that forfeited, and why.
    pub forfeit: Option<(usize, Forfeit)>,
    /// Longest think of each engine (by engine index).
    pub longest_move: [f64; 2],
    /// Each engine's thinking time in the game, summed over its moves (by engine index):
    /// from each request for a move to its answer, as the referee measures it.
    pub thinking: [f64; 2],
    /// Seconds left on each engine's game clock at the end (by engine index), for engines
    /// playing on a game clock.
    pub final_clock: [Option<f64>; 2],
}

impl GameResult {
    /// Game `index`, not yet played, with engine `black` as black.
    pub fn new(index: usize, black: usize) -> GameResult {
        GameResult {
            index,
            black,
            moves: Vec::new(),
            black_score: 0,
            forfeit: None,
            longest_move: [0.0; 2],
            thinking: [0.0; 2],
            final_clock: [None; 2],
        }
    }

    /// Records `c`'s move on `sq` after `secs` of thought, with the pass of the other side
    /// first when the rules implied it (the recorded moves alternate colours, Black first).
    pub fn record_move(&mut self, c: Color, sq: u32, secs: f64) {
        let to_move = self
            .moves
            .last()
            .map_or(Color::Black, |&(last, _, _)| last.opposite());
        if to_move != c {
            self.moves.push((to_move, Move::Pass, 0.0));
        }
        self.moves.push((c, Move::Play(sq), secs));
    }

    /// Ends the game early: `loser` forfeits for `reason`.
    pub fn forfeit(&mut self, loser: usize, reason: Forfeit) {
        self.black_score = if loser == self.black { -64 } else { 64 };
        self.forfeit = Some((loser, reason));
    }

    /// Points of engine 0: 1, 1/2 or 0.
    pub fn points_of_first(&self) -> f64 {
        let black_points = match self.black_score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        if self.black == 0 {
            black_points
        } else {
            1.0 - black_points
        }
    }

    /// Disc differential from engine 0's view.
    pub fn first_disc_difference(&self) -> i32 {
        if self.black == 0 {
            self.black_score
        } else {
            -self.black_score
        }
    }
}

/// What the match produced.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    pub results: Vec<GameResult>,
    pub tally: Tally,
    pub sprt: Option<(SprtVerdict, f64)>,
}

impl MatchReport {
    /// Counts a finished game, and the SPRT (if any) over the games so far; whether the SPRT
    /// has decided, so that the match stops.
    pub fn add(&mut self, game: GameResult, sprt: Option<&Sprt>) -> bool {
        self.tally.add(game.points_of_first());
        self.results.push(game);
        let Some(sprt) = sprt else { return false };
        let verdict = sprt.verdict(&self.tally);
        self.sprt = Some((verdict, self.tally.llr(sprt.elo0, sprt.elo1)));
        verdict != SprtVerdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::super::openings::Opening;
    use super::GameResult;
    use crate::engine::game::{Game, Move};
    use crate::engine::notation::parse_transcript;

    const WTHOR: &str = include_str!("../../../tests/data/wthor_2024_2025_transcripts.txt");

    /// Whole tournament games as openings: their record, with the passes made explicit, must
    /// replay move by move, each move by the side to move, to the same end.
    #[test]
    fn recorded_moves_alternate_with_explicit_passes() {
        let mut passes = 0;
        for line in WTHOR.lines().filter(|l| !l.starts_with('#')).take(300) {
            let transcript = line.split_whitespace().nth(2).unwrap();
            let opening = Opening::new(&parse_transcript(transcript).unwrap()).unwrap();
            let mut result = GameResult::new(0, 0);
            for (c, sq) in opening.plays() {
                result.record_move(c, sq, 0.0);
            }
            let mut game = Game::default();
            for &(c, mv, _) in &result.moves {
                assert_eq!(game.position().side, c, "{transcript}");
                match mv {
                    Move::Play(sq) => game.play(c, sq).unwrap(),
                    Move::Pass => {
                        passes += 1;
                        game.pass(c).unwrap()
                    }
                }
            }
            assert_eq!(game.position(), opening.game().position(), "{transcript}");
        }
        assert!(passes > 0, "no game with a pass among those replayed");
    }
}
