//! A phase's pattern weights at carried indices, summed eight instances at a time by AVX2
//! gathers. Built when the target processor has AVX2, and tested against the portable sum in
//! [`super::patterns`], which other processors run. A node's children's evaluations are
//! about half the midgame's time, and these 70 lookups are most of each: one at a time they
//! cost a load of the lane, an add of its offset, a bounds check and the load of the weight.

use super::patterns::{Carried, INSTANCES, LANES, LANE_OFFSETS, PHASE_WEIGHTS};
use super::weights::{PhaseWeights, WEIGHTS_PER_PHASE};
use std::arch::x86_64::*;

// The gathers read a weight and the one after it, at indices below PHASE_WEIGHTS.
const _: () = assert!(WEIGHTS_PER_PHASE > PHASE_WEIGHTS);

/// -1 in the lanes of an instance, 0 in the idle ones.
const LIVE: [i32; LANES] = {
    let mut live = [0; LANES];
    let mut lane = 0;
    while lane < INSTANCES {
        live[lane] = -1;
        lane += 1;
    }
    live
};

/// [`super::pattern_sum`].
#[inline]
pub fn pattern_sum(w: &PhaseWeights, lanes: &Carried) -> i32 {
    // SAFETY: this module is built only for processors with AVX2 (see `eval`).
    unsafe { pattern_sum_avx2(w, lanes) }
}

/// The sum of `w` at `lanes` and their offsets. Safety: AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn pattern_sum_avx2(w: &PhaseWeights, lanes: &Carried) -> i32 {
    let base = w.as_ptr().cast::<i32>();
    let last = _mm256_set1_epi32(PHASE_WEIGHTS as i32 - 1);
    let mut sum = _mm256_setzero_si256();
    for k in (0..LANES).step_by(8) {
        // SAFETY (the three loads): `lanes`, LANE_OFFSETS and LIVE hold LANES items, a
        // multiple of 8, so each reads 8 of them within bounds.
        let digits = _mm_loadu_si128(lanes.as_ptr().add(k).cast());
        let offsets = _mm256_loadu_si256(LANE_OFFSETS.as_ptr().add(k).cast());
        let live = _mm256_loadu_si256(LIVE.as_ptr().add(k).cast());
        // Clamped below the tables' end, so that no lane reads beyond `w`, whatever it holds.
        let index = _mm256_min_epu32(
            _mm256_add_epi32(_mm256_cvtepu16_epi32(digits), offsets),
            last,
        );
        // SAFETY: each lane reads bytes 2 * index to 2 * index + 3, within `w` since
        // index < PHASE_WEIGHTS < WEIGHTS_PER_PHASE (asserted above). The low half is the
        // weight; the shifts sign it.
        let pairs = _mm256_i32gather_epi32::<2>(base, index);
        let weights = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(pairs));
        sum = _mm256_add_epi32(sum, _mm256_and_si256(weights, live));
    }
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si32(quarter) + _mm_extract_epi32::<1>(quarter)
}

#[cfg(test)]
mod tests {
    use super::super::pattern_sum_portable;
    use super::super::patterns::carried;
    use super::super::weights::WEIGHTS_PER_PHASE;
    use crate::base::rng::Rng;
    use crate::engine::board::random_boards;

    /// The gathered sum against the portable one, on random weights (the full range of i16,
    /// so that the signs' extension shows) and the indices of random positions.
    #[test]
    fn gathered_sums_match_the_portable_sum() {
        let mut rng = Rng::new(7);
        let w: Box<[i16; WEIGHTS_PER_PHASE]> = (0..WEIGHTS_PER_PHASE)
            .map(|_| rng.bits() as i16)
            .collect::<Vec<_>>()
            .try_into()
            .expect("WEIGHTS_PER_PHASE weights");
        for board in random_boards(8, 20_000) {
            let lanes = carried(&board);
            assert_eq!(
                super::pattern_sum(&w, &lanes),
                pattern_sum_portable(&w, &lanes)
            );
        }
    }
}
