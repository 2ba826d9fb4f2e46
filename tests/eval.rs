//! The evaluation's bit tricks against plain references: the board's neighbours (which
//! potential mobility counts), every pattern instance's index, the count tables' entries,
//! and stable discs (which must
//! survive any continuation of the game); the weights file's checks; the symmetry of the
//! evaluation.

use oxello::base::datafile::{checksum, FrameError};
use oxello::engine::board::{flips, neighbours, Board, Squares};
use oxello::engine::eval::patterns::{
    after_move, after_own_move, carried, indices, offset_indices, Shape, INSTANCES, OFFSETS, SHAPES,
};
use oxello::engine::eval::weights::{Weights, WeightsError, PHASES, SCALARS, WEIGHTS_PER_PHASE};
use oxello::engine::eval::{count_indices, evaluate, Children, COUNT_TABLES};
use oxello::engine::stability::stable_discs;
use oxello::engine::symmetry::transform_square;
use proptest::prelude::*;

use crate::common::random_walk;

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

/// Base-3 index of `squares` (0 empty, 1 player, 2 opponent), the first the lowest digit.
fn reference_index(b: &Board, squares: &[u32]) -> usize {
    squares.iter().rev().fold(0, |acc, &sq| {
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

/// The squares of a shape's instance: reading the shape on the board turned by symmetry `s`
/// reads the squares that `s` brings to the shape's squares.
fn instance_squares(shape: &Shape, s: usize) -> Vec<u32> {
    shape
        .squares
        .iter()
        .map(|name| {
            let target = oxello::engine::notation::parse_square(name).unwrap();
            (0..64).find(|&q| transform_square(q, s) == target).unwrap()
        })
        .collect()
}

fn reference_indices(b: &Board) -> Vec<u32> {
    let mut out = Vec::new();
    for (shape, def) in SHAPES.iter().enumerate() {
        for &s in def.symmetries {
            let squares = instance_squares(def, s);
            out.push((OFFSETS[shape] + reference_index(b, &squares)) as u32);
        }
    }
    out
}

#[test]
fn every_instance_reads_its_own_squares() {
    let b = Board::START;
    assert_eq!(reference_indices(&b).len(), INSTANCES);
    // Each shape's instances sit on distinct square sets (no instance counted twice).
    for def in &SHAPES {
        let mut sets: Vec<Vec<u32>> = def
            .symmetries
            .iter()
            .map(|&s| {
                let mut set = instance_squares(def, s);
                set.sort();
                set
            })
            .collect();
        let before = sets.len();
        sets.sort();
        sets.dedup();
        assert_eq!(sets.len(), before, "{}: an instance repeats", def.name);
    }
}

#[test]
fn every_mirror_reads_its_shape_reflected_onto_itself() {
    for def in &SHAPES {
        let Some(order) = def.mirror else { continue };
        let squares: Vec<u32> = def
            .squares
            .iter()
            .map(|name| oxello::engine::notation::parse_square(name).unwrap())
            .collect();
        let reflected =
            |s| (0..squares.len()).all(|i| transform_square(squares[i], s) == squares[order[i]]);
        assert!(
            (1..8).any(reflected),
            "{}: its mirror is no reflection",
            def.name
        );
    }
}

#[test]
fn the_embedded_weights_pass_their_checks() {
    assert!(oxello::engine::eval::load(None).is_ok());
}

fn weights_file() -> Vec<u8> {
    let values: Vec<i16> = (0..PHASES * WEIGHTS_PER_PHASE)
        .map(|i| (i % 7) as i16 - 3)
        .collect();
    Weights::to_bytes(&values)
}

#[test]
fn a_weights_file_round_trips_and_every_corruption_is_named() {
    let good = weights_file();
    let w = Weights::from_bytes(&good).unwrap();
    assert_eq!(w.phase(1)[0], ((WEIGHTS_PER_PHASE % 7) as i16) - 3);
    assert_eq!(w.checksum(), checksum(&good[32..]));

    let mut flipped = good.clone();
    flipped[1000] ^= 1;
    assert!(matches!(
        Weights::from_bytes(&flipped),
        Err(WeightsError::Frame(FrameError::Checksum { .. }))
    ));
    assert!(matches!(
        Weights::from_bytes(&good[..good.len() - 2]),
        Err(WeightsError::Frame(FrameError::Length { .. }))
    ));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(
        Weights::from_bytes(&magic).err(),
        Some(WeightsError::Frame(FrameError::Magic))
    );
    let mut version = good.clone();
    version[8] = 9;
    assert_eq!(
        Weights::from_bytes(&version).err(),
        Some(WeightsError::Frame(FrameError::Version {
            found: 9,
            expected: 1
        }))
    );
    let mut set = good.clone();
    set[12] = 1;
    assert_eq!(
        Weights::from_bytes(&set).err(),
        Some(WeightsError::FeatureSet(1))
    );
    assert_eq!(
        Weights::from_bytes(&good[..10]).err(),
        Some(WeightsError::Frame(FrameError::TooShort(10)))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn neighbours_match_the_reference(x in any::<u64>()) {
        prop_assert_eq!(neighbours(x), reference_neighbours(x));
    }

    #[test]
    fn pattern_indices_match_a_plain_reading_of_their_squares(seed in any::<u64>(), plies in 0u32..60) {
        let b = random_walk(Board::START, seed | 1, plies);
        prop_assert_eq!(indices(&b).to_vec(), reference_indices(&b));
    }

    #[test]
    fn indices_carried_over_a_move_match_a_plain_reading(seed in any::<u64>(), plies in 0u32..59) {
        let b = random_walk(Board::START, seed | 1, plies);
        let passed = carried(&b.pass());
        let children = Children::of(&b);
        for sq in Squares(b.moves()) {
            let flipped = flips(b.player, b.opponent, sq);
            let child = b.apply(sq, flipped);
            let lanes = after_move(&passed, sq, flipped);
            let carried: Vec<u32> = offset_indices(&lanes).collect();
            prop_assert_eq!(carried, reference_indices(&child));
            prop_assert!(lanes[INSTANCES..].iter().all(|&l| l == 0));
            prop_assert_eq!(children.evaluate(sq, &child), evaluate(&child));
        }
    }

    #[test]
    fn indices_carried_over_the_movers_own_move_match_a_plain_reading(seed in any::<u64>(), plies in 0u32..59) {
        let b = random_walk(Board::START, seed | 1, plies);
        let own = carried(&b);
        for sq in Squares(b.moves()) {
            let flipped = flips(b.player, b.opponent, sq);
            let child = b.apply(sq, flipped);
            let lanes = after_own_move(&own, sq, flipped);
            let carried: Vec<u32> = offset_indices(&lanes).collect();
            prop_assert_eq!(carried, reference_indices(&child.pass()));
            prop_assert!(lanes[INSTANCES..].iter().all(|&l| l == 0));
            let (grandchildren, plain) = (Children::carried(&child, &lanes), Children::of(&child));
            for reply in Squares(child.moves()) {
                let grandchild = child.apply(reply, flips(child.player, child.opponent, reply));
                prop_assert_eq!(grandchildren.evaluate(reply, &grandchild), plain.evaluate(reply, &grandchild));
                prop_assert_eq!(plain.evaluate(reply, &grandchild), evaluate(&grandchild));
            }
        }
    }

    #[test]
    fn count_tables_read_plain_counts(seed in any::<u64>(), plies in 0u32..60) {
        let b = random_walk(Board::START, seed | 1, plies);
        let moves = |me: u64, other: u64| (0..64).filter(|&sq| (me | other) >> sq & 1 == 0 && flips(me, other, sq) != 0).count();
        let empty = !(b.player | b.opponent);
        let potential = |other: u64| (reference_neighbours(other) & empty).count_ones() as usize;
        let counts = [
            moves(b.player, b.opponent),
            moves(b.opponent, b.player),
            potential(b.opponent),
            potential(b.player),
            b.player.count_ones() as usize,
        ];
        let mut offset = OFFSETS[SHAPES.len()];
        for ((count, &(name, size)), index) in counts.into_iter().zip(&COUNT_TABLES).zip(count_indices(&b)) {
            prop_assert_eq!(index as usize, offset + count.min(size as usize - 1), "{}", name);
            offset += size as usize;
        }
        prop_assert_eq!(offset + SCALARS, WEIGHTS_PER_PHASE);
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
            prop_assert_eq!(evaluate(&oxello::engine::symmetry::transform_board(&b, s)), e);
        }
    }
}
