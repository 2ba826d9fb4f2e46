//! Game rules against recorded games: wipe-outs, shortest draws, games ending with empties,
//! and every WTHOR 2024-2025 tournament game replayed to its recorded WOF score.

use crate::common::data;
use crate::common::oracle::Pos;
use oxello::engine::board::{Color, Position};
use oxello::engine::game::Game;
use oxello::engine::gamefile::read_line;

fn edge_cases(kind: &str) -> Vec<Vec<String>> {
    data("rules_edge_cases.txt")
        .lines()
        .filter(|l| l.starts_with(&format!("{kind} ")))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn the_228_nine_move_wipeouts_end_the_game_64_0() {
    let games = edge_cases("A");
    assert_eq!(games.len(), 228);
    for fields in games {
        let game = Game::from_transcript(&fields[1]).expect(&fields[1]);
        assert!(game.is_over(), "{}", fields[1]);
        assert_eq!(game.position().black_final_score(), 64, "{}", fields[1]);
        assert_eq!(game.position().white().count_ones(), 0);
        assert_eq!(game.position().black().count_ones(), 13);
    }
}

#[test]
fn shortest_draws_score_32_32() {
    let games = edge_cases("B");
    assert_eq!(games.len(), 10);
    for fields in games {
        let game = Game::from_transcript(&fields[1]).expect(&fields[1]);
        assert!(game.is_over());
        assert_eq!(game.position().black_final_score(), 0, "{}", fields[1]);
        assert_eq!(game.position().board.empty_count(), 40);
    }
}

#[test]
fn the_13_games_with_empties_give_them_to_the_winner() {
    let games = edge_cases("C");
    assert_eq!(games.len(), 13);
    for fields in games {
        // C <source> <black score> <final b-w> <empties> <transcript>
        let black: i32 = fields[2].parse().unwrap();
        let empties: u32 = fields[4].parse().unwrap();
        let game = Game::from_transcript(&fields[5]).expect(&fields[5]);
        assert!(game.is_over());
        assert_eq!(game.position().board.empty_count(), empties);
        assert_eq!(
            game.position().black_final_score(),
            2 * black - 64,
            "{}",
            fields[5]
        );
    }
}

/// The game lines of a WTHOR-style file: comments and blank lines left out.
fn wthor_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
}

#[test]
fn all_wthor_games_replay_to_their_recorded_score() {
    let text = data("wthor_2024_2025_transcripts.txt");
    let mut count = 0;
    for line in wthor_lines(&text) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let black: i32 = fields[1].parse().unwrap();
        let game = Game::from_transcript(fields[2]).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(game.is_over(), "{line}");
        assert_eq!(
            game.position().black_final_score(),
            2 * black - 64,
            "{line}"
        );
        count += 1;
    }
    assert_eq!(count, 4843);
}

#[test]
fn undo_restores_positions_across_implied_passes() {
    // The first draw listed has passes in it; undoing every move returns to the start.
    let fields = &edge_cases("B")[0];
    let mut game = Game::from_transcript(&fields[1]).unwrap();
    let mut seen = vec![*game.position()];
    while game.undo().is_ok() {
        seen.push(*game.position());
    }
    assert_eq!(*game.position(), oxello::engine::board::Position::start());
    assert_eq!(seen.len(), 21);
}

/// The positions a game of `moves` goes through by the tests' own rules, as
/// [`Game::positions`] lists them: each position a move is played from, the position after
/// each pass, and the last position (with its pass when play goes on after one).
fn oracle_positions(moves: &[u32]) -> Vec<(u64, u64, bool)> {
    let mut pos = Pos::start();
    let mut seen = Vec::new();
    let visit = |pos: &mut Pos, seen: &mut Vec<(u64, u64, bool)>| {
        seen.push((pos.black, pos.white, pos.black_to_move));
        if pos.moves() == 0 && !pos.over() {
            pos.play(None);
            seen.push((pos.black, pos.white, pos.black_to_move));
        }
    };
    for &sq in moves {
        visit(&mut pos, &mut seen);
        pos.play(Some(sq));
    }
    visit(&mut pos, &mut seen);
    seen
}

fn as_tuple(pos: &Position) -> (u64, u64, bool) {
    (pos.black(), pos.white(), pos.side == Color::Black)
}

#[test]
fn a_games_positions_are_those_it_went_through_passes_included() {
    let text = data("wthor_2024_2025_transcripts.txt");
    let mut with_passes = 0;
    for line in wthor_lines(&text) {
        let game = read_line(line, 1)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .game;
        let moves = game.moves();
        // The whole game and two starts of it (some end just before a pass).
        for n in [moves.len(), moves.len() * 2 / 3, moves.len() - 1] {
            let part = Game::replay(*game.start(), &moves[..n]).unwrap();
            let positions: Vec<_> = part.positions().iter().map(as_tuple).collect();
            assert_eq!(
                positions,
                oracle_positions(&moves[..n]),
                "{line}, {n} moves"
            );
        }
        with_passes += usize::from(game.positions().len() > moves.len() + 1);
    }
    assert_eq!(
        with_passes, 3087,
        "games with a pass (rules_edge_cases.txt [D])"
    );
}
