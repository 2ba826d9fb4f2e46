//! The specialised last-empties solver against a plain minimax over the rules, on random
//! positions with 1 to 7 empties, with open and narrow windows (fail-soft bounds must hold).

use oxello::engine::board::Board;
use oxello::engine::search::endgame::last::{last_flip_count, odd_quadrants, solve_shallow};
use proptest::prelude::*;

use crate::common::oracle::Pos;
use crate::common::random_walk;

/// The exact final score by the tests' own rules and a plain minimax.
fn minimax(b: &Board) -> i32 {
    Pos::to_move(b.player, b.opponent).minimax()
}

/// A random position with `empties` empty squares (or fewer, when a game ends before).
fn position(seed: u64, empties: u32) -> Board {
    random_walk(Board::START, seed, 60 - empties)
}

fn solve(b: &Board, alpha: i32, beta: i32) -> i32 {
    let mut nodes = 0;
    solve_shallow(
        b.player,
        b.opponent,
        alpha,
        beta,
        odd_quadrants(b.empties()),
        &mut nodes,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn exact_with_an_open_window(seed in any::<u64>(), empties in 1u32..=7) {
        let b = position(seed, empties);
        prop_assert_eq!(solve(&b, -64, 64), minimax(&b));
    }

    #[test]
    fn fail_soft_bounds_hold(seed in any::<u64>(), empties in 1u32..=7, alpha in -64i32..64, width in 1i32..4) {
        let b = position(seed, empties);
        let beta = (alpha + width).min(64);
        let exact = minimax(&b);
        let v = solve(&b, alpha, beta);
        if v <= alpha {
            prop_assert!(exact <= v, "fail low {} above exact {}", v, exact);
        } else if v >= beta {
            prop_assert!(exact >= v, "fail high {} below exact {}", v, exact);
        } else {
            prop_assert_eq!(v, exact);
        }
    }

    #[test]
    fn last_flip_count_matches_the_move(seed in any::<u64>()) {
        // A full board but one square: each side's flips there, counted without moving.
        let b = position(seed, 1);
        prop_assume!(b.empty_count() == 1);
        let sq = b.empties().trailing_zeros();
        for (p, o) in [(b.player, b.opponent), (b.opponent, b.player)] {
            prop_assert_eq!(last_flip_count(p, sq), oxello::engine::board::flips(p, o, sq).count_ones());
        }
    }
}
