//! The endgame's selectivity levels: ProbCut passes of growing margins, then the exact one;
//! which levels a root solve goes through; and how a result's level is kept in the table,
//! within the depth it is stored at.

use crate::engine::search::level::Selectivity;

/// Endgame searches come in levels of selectivity, the last one exact: those of
/// [`Selectivity::ENDGAME`], least sure first.
const LEVELS: u8 = Selectivity::ENDGAME.len() as u8;
/// The exact level.
pub(crate) const EXACT_LEVEL: u8 = LEVELS - 1;

/// The level of a midgame iteration that cuts by Multi-ProbCut (see `midgame`). The endgame's
/// shallow searches run at its own levels, so they never cut that way.
pub(crate) const MIDGAME_PROBCUT_LEVEL: u8 = LEVELS;

/// The level of a midgame iteration: with Multi-ProbCut or, without, the exact one.
pub(crate) fn midgame_level(probcut: bool) -> u8 {
    if probcut {
        MIDGAME_PROBCUT_LEVEL
    } else {
        EXACT_LEVEL
    }
}

/// The ProbCut margin of a selective level, in tenths of a standard deviation of the shallow
/// search's error (its selectivity's `t`).
pub(super) fn margin(level: u8) -> i32 {
    Selectivity::ENDGAME[level as usize]
        .t_tenths()
        .unwrap_or(i32::MAX / 64)
}

/// The selective passes a root solve aiming at an exact score goes through first: their
/// results order the moves of the next one. The 98% and 99% passes would cost more than they
/// save.
const ORDERING_PASSES: [Selectivity; 3] = [Selectivity::P73, Selectivity::P87, Selectivity::P95];

/// Positions with fewer empties are solved exactly at once: selective passes would not pay.
const SELECTIVE_EMPTIES: u32 = 20;

/// The most empties whose results rank above those of fewer empties in the table.
const RANKED_EMPTIES: u32 = 31;

/// Depths from here on mark endgame results: deeper than any midgame search.
const ENDGAME_BASE: u8 = 64;

/// The levels the root goes through for a position with `empties` empties searched at
/// selectivity `target`: selective passes less sure than the target first when the position
/// is big enough for their better move order to pay, then the target's.
pub(crate) fn endgame_levels(empties: u32, target: Selectivity) -> Vec<u8> {
    let before = ORDERING_PASSES
        .iter()
        .filter(|&&s| empties >= SELECTIVE_EMPTIES && s < target);
    before
        .chain(std::iter::once(&target))
        .map(|s| s.endgame_level())
        .collect()
}

/// The depth stored for an endgame result with `empties` empty squares, searched at selectivity
/// `level`. Ranking by empties lets replacement keep the results that saved the most work; for
/// one position, a more exact result ranks above a less exact one.
#[inline]
pub(super) fn endgame_depth(empties: u32, level: u8) -> u8 {
    // 31 empties keep the largest depth within a byte; beyond, the rank no longer grows.
    ENDGAME_BASE + LEVELS * empties.min(RANKED_EMPTIES) as u8 + level
}

/// The selectivity level of a stored endgame result, or `None` for a midgame one.
#[inline]
pub(super) fn endgame_level(depth: u8) -> Option<u8> {
    (depth >= ENDGAME_BASE).then(|| (depth - ENDGAME_BASE) % LEVELS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endgame_table_depths_decode_and_rank_above_midgame_depths() {
        for depth in 0..60u8 {
            assert_eq!(endgame_level(depth), None);
        }
        for empties in 0..=60 {
            for level in 0..LEVELS {
                let d = endgame_depth(empties, level);
                assert_eq!(
                    endgame_level(d),
                    Some(level),
                    "{empties} empties, level {level}"
                );
                if level > 0 {
                    assert!(d > endgame_depth(empties, level - 1));
                }
                if (1..=RANKED_EMPTIES).contains(&empties) {
                    assert!(d > endgame_depth(empties - 1, LEVELS - 1));
                }
            }
        }
    }
}
