//! ProbCut's error models: how far a shallow search's score lies from a deeper one's, so that
//! a shallow search far enough beyond a bound predicts the deep one's fail. The endgame's model
//! predicts the exact score; the midgame's (Multi-ProbCut) a deeper midgame search. Both are
//! measured by `oxello fit-probcut endgame|midgame` on WTHOR games; each is fitted to one set
//! of weights and names it, and is fitted again whenever the weights change (a test compares
//! the names with the embedded weights, and the engine warns when others are loaded).

use crate::engine::eval::DISC;

/// The depth of the endgame's shallow search: even, as the evaluation is biased the same way at
/// even depths, and about a quarter of the empties, as in Edax (6 plies from 22 empties instead
/// of 24 cost FFO #56-#59 2.7% more time).
pub(crate) fn endgame_shallow_depth(empties: u32) -> u32 {
    if empties >= 24 {
        6
    } else if empties >= 16 {
        4
    } else {
        2
    }
}

/// The endgame's model, in centi-discs: the standard deviation of (exact score - shallow
/// search score), a linear function of the shallow depth whatever the empties, and how much
/// the exact score lies above an even-depth search's on average.
#[derive(Copy, Clone, Debug)]
pub(crate) struct EndgameModel {
    /// The checksum of the weights it was fitted to (`eval::id`).
    pub(crate) weights: u64,
    pub(crate) intercept: i32,
    pub(crate) per_ply: i32,
    pub(crate) bias: i32,
}

impl EndgameModel {
    /// The standard deviation, centi-discs, of the exact score less a `depth` search's.
    #[inline]
    pub(crate) fn sigma(&self, depth: u32) -> i32 {
        self.intercept + self.per_ply * depth as i32
    }
}

/// The endgame model, as `oxello fit-probcut endgame` prints it: about 7.7 discs less 0.47 a
/// ply on WTHOR positions of 10 to 22 empties (those of `84a45b3acac3285c`, without the count
/// tables, erred by 7.8 less 0.47; those of `e3691a5a74c68633`, before the searched labels,
/// gave the same coefficients).
pub(crate) const ENDGAME_MODEL: EndgameModel = EndgameModel {
    weights: 0x8fccbf656e3ffb43,
    intercept: 774,
    per_ply: -47,
    bias: 90,
};

/// The shallowest midgame node that tries Multi-ProbCut. A node of depth 2 tests with its own
/// evaluation (a shallow depth of 0), as Edax does, at the deviation the model extrapolates
/// there ([`MIDGAME_MODEL`] is fitted to depths 3 to 10): depth 19 on 40 midgame positions in
/// two thirds of the time, and against NTest at depth 20 on the same 200 XOT games, 60.2%
/// where the tests from depth 3 scored 56.2% (docs/results.md).
pub const MIDGAME_MIN_DEPTH: u32 = 2;

/// The depth of the shallow search that tests a midgame node of `depth` plies: about half as
/// deep, of the same parity (the evaluation is biased alike at depths of one parity), as in
/// Edax.
pub fn midgame_shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The standard deviation of (depth search - shallow search), a linear function of the shallow
/// depth, the depth and the empties; coefficients in centi-discs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct MidgameModel {
    /// The checksum of the weights it was fitted to (`eval::id`).
    pub(crate) weights: u64,
    pub(crate) intercept: i32,
    pub(crate) per_shallow_ply: i32,
    pub(crate) per_ply: i32,
    pub(crate) per_empty: i32,
}

/// The smallest standard deviation the model answers, whatever its extrapolation: half a disc.
const MIN_SIGMA: i32 = DISC / 2;

impl MidgameModel {
    /// The standard deviation, centi-discs, of a `depth` search's score less that of its
    /// `shallow` test, at `empties` empties.
    pub(crate) fn sigma(&self, shallow: u32, depth: u32, empties: u32) -> i32 {
        let linear = self.intercept
            + self.per_shallow_ply * shallow as i32
            + self.per_ply * depth as i32
            + self.per_empty * empties as i32;
        linear.max(MIN_SIGMA)
    }
}

/// The models (`"endgame"`, `"midgame"`, as `oxello fit-probcut` names them) fitted to other
/// weights than those named `id` (`eval::id`). With other weights ProbCut still cuts, on a
/// wrong estimate of their error.
pub fn unfitted_models(id: u64) -> impl Iterator<Item = &'static str> {
    [
        ("endgame", ENDGAME_MODEL.weights),
        ("midgame", MIDGAME_MODEL.weights),
    ]
    .into_iter()
    .filter(move |&(_, weights)| weights != id)
    .map(|(name, _)| name)
}

/// How far beyond the window a shallow search must land for a midgame cut, in tenths of the
/// model's standard deviation. One deviation beat 1.5 by +74 Elo (95%: +12 to +141) over 100
/// games at 0.2 s/move on XOT openings, `--threads 1` each.
pub(crate) const MIDGAME_MARGIN: i32 = 10;

/// The midgame model, as `oxello fit-probcut midgame` prints it:
/// 100 WTHOR positions at each of 20, 24, ..., 48 empties, depths 3 to 10 (a standard deviation
/// of 1.5 to 5 discs, larger nearer the end and for a larger gap between the depths).
pub(crate) const MIDGAME_MODEL: MidgameModel = MidgameModel {
    weights: 0x8fccbf656e3ffb43,
    intercept: 461,
    per_shallow_ply: -44,
    per_ply: 20,
    per_empty: -5,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_models_were_fitted_to_the_embedded_weights() {
        let unfitted: Vec<_> = unfitted_models(crate::engine::eval::id()).collect();
        assert!(
            unfitted.is_empty(),
            "the weights changed: fit the models again with `oxello fit-probcut {unfitted:?}`"
        );
    }

    #[test]
    fn shallow_searches_are_about_half_as_deep_with_the_same_parity() {
        for depth in MIDGAME_MIN_DEPTH..=60 {
            let shallow = midgame_shallow_depth(depth);
            assert_eq!(shallow % 2, depth % 2, "depth {depth}");
            assert!(
                shallow < depth && 2 * shallow + 3 >= depth,
                "depth {depth}: {shallow}"
            );
        }
    }

    #[test]
    fn the_midgame_sigma_never_falls_below_half_a_disc() {
        for depth in MIDGAME_MIN_DEPTH..=60 {
            for empties in depth + 1..=60 {
                let sigma = MIDGAME_MODEL.sigma(midgame_shallow_depth(depth), depth, empties);
                assert!(
                    sigma >= DISC / 2,
                    "depth {depth}, {empties} empties: {sigma}"
                );
            }
        }
    }
}
