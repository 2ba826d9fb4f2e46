//! The bitboard move generator, flips and symmetries against plain per-square references.

use oxello::engine::board::{flips, legal_moves, Board, Squares};
use oxello::engine::symmetry::{canonical, transform, transform_board, transform_square};
use proptest::prelude::*;

use crate::common::{random_walk, reference_flips, reference_moves};

fn random_position(seed: u64, plies: u32) -> Board {
    random_walk(Board::START, seed, plies)
}

fn reference_transform_square(sq: u32, s: usize) -> u32 {
    let (mut x, mut y) = (sq % 8, sq / 8);
    if s & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    if s & 2 != 0 {
        y = 7 - y;
    }
    if s & 1 != 0 {
        x = 7 - x;
    }
    y * 8 + x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_and_flips_match_the_reference(seed in any::<u64>(), plies in 0u32..64) {
        let b = random_position(seed, plies);
        prop_assert_eq!(legal_moves(b.player, b.opponent), reference_moves(b.player, b.opponent));
        for sq in 0..64 {
            if b.moves() >> sq & 1 == 1 {
                prop_assert_eq!(flips(b.player, b.opponent, sq), reference_flips(b.player, b.opponent, sq));
            }
        }
    }

    #[test]
    fn flips_match_the_reference_on_arbitrary_bitboards(p in any::<u64>(), o in any::<u64>(), sq in 0u32..64) {
        let o = o & !p;
        let (p, o) = (p & !(1 << sq), o & !(1 << sq));
        prop_assert_eq!(flips(p, o, sq), reference_flips(p, o, sq));
        prop_assert_eq!(legal_moves(p, o), reference_moves(p, o));
    }

    #[test]
    fn move_generation_commutes_with_the_symmetries(seed in any::<u64>(), plies in 0u32..64) {
        let b = random_position(seed, plies);
        for s in 0..8 {
            let t = transform_board(&b, s);
            prop_assert_eq!(t.moves(), transform(b.moves(), s));
            prop_assert_eq!(canonical(&t), canonical(&b));
            for sq in Squares(b.moves()) {
                let moved = transform_board(&b.play(sq).unwrap(), s);
                prop_assert_eq!(t.play(transform_square(sq, s)).unwrap(), moved);
            }
        }
    }

    #[test]
    fn symmetries_match_a_square_by_square_reference(x in any::<u64>(), s in 0usize..8) {
        let expected = (0..64u32)
            .filter(|&sq| x >> sq & 1 == 1)
            .fold(0u64, |m, sq| m | 1 << reference_transform_square(sq, s));
        prop_assert_eq!(transform(x, s), expected);
    }
}

#[test]
fn the_eight_symmetries_are_distinct_and_closed() {
    let b = random_position(12345, 20);
    let images: std::collections::HashSet<_> = (0..8).map(|s| transform_board(&b, s)).collect();
    assert_eq!(images.len(), 8);
    for s in 0..8 {
        assert!(images.contains(&transform_board(&transform_board(&b, s), 3)));
    }
}

#[test]
fn squares_iterates_set_bits_in_order() {
    let bits = 0x8000_0000_0000_0421u64;
    assert_eq!(Squares(bits).collect::<Vec<_>>(), vec![0, 5, 10, 63]);
}

#[test]
fn hash_differs_between_sides_and_positions() {
    let b = Board::START;
    assert_ne!(b.hash(), b.pass().hash());
    let hashes: std::collections::HashSet<_> = (0..500)
        .map(|i| random_position(i * 7 + 1, 30).hash())
        .collect();
    let boards: std::collections::HashSet<_> =
        (0..500).map(|i| random_position(i * 7 + 1, 30)).collect();
    assert_eq!(hashes.len(), boards.len());
}
