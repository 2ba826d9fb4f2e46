//! The evaluation's bit tricks against plain references: neighbours, edge-pattern indices,
//! and stable discs (which must survive any continuation of the game).

use oxello::board::{Board, Squares};
use oxello::eval::{evaluate, neighbours, pattern_indices, stable_discs, EDGE_CONFIGS};
use proptest::prelude::*;

mod common;
use common::random_walk;

fn reference_neighbours(x: u64) -> u64 {
    let mut n = 0u64;
    for sq in Squares(x) {
        let (cx, cy) = ((sq % 8) as i32, (sq / 8) as i32);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let (nx, ny) = (cx + dx, cy + dy);
                if (dx, dy) != (0, 0) && (0..8).contains(&nx) && (0..8).contains(&ny) {
                    n |= 1 << (ny * 8 + nx);
                }
            }
        }
    }
    n & !x
}

/// Base-3 index of the squares named, in order (0 empty, 1 player, 2 opponent).
fn reference_index(b: &Board, squares: &[&str]) -> usize {
    squares.iter().rev().fold(0, |acc, name| {
        let sq = oxello::notation::parse_square(name).unwrap();
        let state = if b.player >> sq & 1 == 1 {
            1
        } else if b.opponent >> sq & 1 == 1 {
            2
        } else {
            0
        };
        acc * 3 + state
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn neighbours_match_the_reference(x in any::<u64>()) {
        prop_assert_eq!(neighbours(x), reference_neighbours(x));
    }

    #[test]
    fn pattern_indices_read_the_four_edges_and_corners(seed in any::<u64>(), plies in 0u32..60) {
        let b = random_walk(Board::START, seed | 1, plies);
        let expected = [
            reference_index(&b, &["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "g2"]),
            reference_index(&b, &["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "b7", "g7"]),
            reference_index(&b, &["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b2", "b7"]),
            reference_index(&b, &["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "g2", "g7"]),
            EDGE_CONFIGS + reference_index(&b, &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]),
            EDGE_CONFIGS + reference_index(&b, &["h1", "g1", "f1", "h2", "g2", "f2", "h3", "g3", "f3"]),
            EDGE_CONFIGS + reference_index(&b, &["a8", "b8", "c8", "a7", "b7", "c7", "a6", "b6", "c6"]),
            EDGE_CONFIGS + reference_index(&b, &["h8", "g8", "f8", "h7", "g7", "f7", "h6", "g6", "f6"]),
        ];
        prop_assert_eq!(pattern_indices(&b), expected);
    }

    #[test]
    fn stable_discs_survive_every_continuation(seed in any::<u64>(), plies in 20u32..60) {
        let b = random_walk(Board::START, seed | 1, plies);
        let stable = stable_discs(b.player, b.opponent);
        prop_assert_eq!(stable & !b.player, 0);
        // Several random continuations to the end: a stable disc never changes colour.
        for k in 0..8u64 {
            let mut game = b;
            let mut mine = true;
            let mut rng = seed.wrapping_add(k * 0x9E37_79B9) | 1;
            while !game.is_game_over() {
                let next = random_walk(game, rng, 1);
                // One ply of the walk: a move or a pass, either way the sides swap.
                mine = !mine;
                game = next;
                let own = if mine { game.player } else { game.opponent };
                prop_assert_eq!(stable & !own, 0, "a stable disc was flipped");
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric(seed in any::<u64>(), plies in 0u32..55) {
        let b = random_walk(Board::START, seed | 1, plies);
        let e = evaluate(&b);
        for s in 1..8 {
            prop_assert_eq!(evaluate(&oxello::symmetry::transform_board(&b, s)), e);
        }
    }
}
