//! Perft counts against the published table in tests/data/perft.txt (conventions A and C).

use crate::common;

use oxello::engine::board::Board;
use oxello::engine::perft::{perft, perft_parallel, PerftMode};

const PASS_IS_PLY: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
];
const PASS_IS_FREE: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005320, 24571420, 212260880,
];

#[test]
fn perft_convention_a_depths_1_to_11() {
    for (i, &expected) in PASS_IS_PLY.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(&Board::START, depth, PerftMode::PassIsPly),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn perft_convention_c_depths_1_to_11() {
    for (i, &expected) in PASS_IS_FREE.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(&Board::START, depth, PerftMode::PassIsFree),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn parallel_perft_counts_the_same() {
    assert_eq!(
        perft_parallel(&Board::START, 10, PerftMode::PassIsPly, 2),
        24571284
    );
    assert_eq!(
        perft_parallel(&Board::START, 10, PerftMode::PassIsFree, 3),
        24571420
    );
}

#[test]
fn perft_subcommand_prints_the_count() {
    let out = common::run(&["perft", "9", "--mode", "c"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("perft 9: 3005320"), "{text}");
    assert!(text.contains("leaves/s"), "{text}");
}
