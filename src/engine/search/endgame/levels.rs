//! The endgame's selectivity levels: ProbCut passes of growing margins, then the exact one;
//! which levels a root solve goes through; and how a result's level is kept in the table,
//! within the depth it is stored at.

/// Endgame searches come in levels of selectivity, the last one exact.
const LEVELS: u8 = 4;
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

/// ProbCut margins of the selective levels, in tenths of a standard deviation of the shallow
/// search's error; the level after the last margin is exact.
pub(super) const MARGINS: [i32; LEVELS as usize - 1] = [10, 15, 20];

/// Positions with fewer empties are solved exactly at once: selective passes would not pay.
const SELECTIVE_EMPTIES: u32 = 20;

/// Depths from here on mark endgame results: deeper than any midgame search.
const ENDGAME_BASE: u8 = 64;

/// The levels the root goes through for a position with `empties` empties: selective passes
/// first when it is big enough for their better move order to pay, then the exact one.
pub(crate) fn endgame_levels(empties: u32) -> std::ops::RangeInclusive<u8> {
    let first = if empties >= SELECTIVE_EMPTIES {
        0
    } else {
        EXACT_LEVEL
    };
    first..=EXACT_LEVEL
}

/// The depth stored for an endgame result with `empties` empty squares, searched at selectivity
/// `level`. Ranking by empties lets replacement keep the results that saved the most work; for
/// one position, a more exact result ranks above a less exact one.
#[inline]
pub(super) fn endgame_depth(empties: u32, level: u8) -> u8 {
    // 47 empties keep the largest depth within a byte; beyond, the rank no longer grows.
    ENDGAME_BASE + LEVELS * empties.min(47) as u8 + level
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
                if (1..=47).contains(&empties) {
                    assert!(d > endgame_depth(empties - 1, LEVELS - 1));
                }
            }
        }
    }
}
