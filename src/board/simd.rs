//! Move generation and flips with vector instructions: the four directions of a move's lines
//! side by side in one 256-bit register. Built when the target processor has AVX2 (and
//! AVX-512 VL and CD for the flips, for their 64-bit leading-zero count and lane masks);
//! each routine is tested against its portable twin in [`super`], which other processors run.
//! The vector forms pay in the endgame solver, where these two take a third of the time.

use super::NOT_EDGE_FILES;
use std::arch::x86_64::*;

/// [`super::legal_moves`]: the doubling fill of `moves_along`, one lane a direction.
#[inline]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    // SAFETY: this module is built only for processors with AVX2 (see `board`).
    unsafe { legal_moves_avx2(p, o) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn legal_moves_avx2(p: u64, o: u64) -> u64 {
    // Lanes, low to high: sideways, vertical, and the two diagonals; runs off the vertical
    // may only pass through discs off the a- and h-files.
    let inner = (o & NOT_EDGE_FILES) as i64;
    let mask = _mm256_set_epi64x(inner, inner, o as i64, inner);
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let and_shl = |m, x, s| _mm256_and_si256(m, _mm256_sllv_epi64(x, s));
    let and_shr = |m, x, s| _mm256_and_si256(m, _mm256_srlv_epi64(x, s));
    let pv = _mm256_set1_epi64x(p as i64);
    let mut up = and_shl(mask, pv, shift);
    let mut down = and_shr(mask, pv, shift);
    up = _mm256_or_si256(up, and_shl(mask, up, shift));
    down = _mm256_or_si256(down, and_shr(mask, down, shift));
    // Pairs of adjacent mask discs let the fill jump two squares at a time.
    let pair_up = and_shl(mask, mask, shift);
    let pair_down = _mm256_srlv_epi64(pair_up, shift);
    for _ in 0..2 {
        up = _mm256_or_si256(up, and_shl(pair_up, up, shift2));
        down = _mm256_or_si256(down, and_shr(pair_down, down, shift2));
    }
    let landing = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    or_lanes(landing) & !(p | o)
}

/// [`super::flips`]: the four rays towards higher bits in one register, the four towards
/// lower bits in another.
#[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    // SAFETY: built only for processors with these features (the cfg above).
    unsafe { flips_avx512(p, o, sq) }
}

#[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
fn flips_avx512(p: u64, o: u64, sq: u32) -> u64 {
    let r = &super::RAYS[sq as usize];
    let rays = |i: usize| {
        _mm256_set_epi64x(
            r[i + 3] as i64,
            r[i + 2] as i64,
            r[i + 1] as i64,
            r[i] as i64,
        )
    };
    let (up, down) = (rays(0), rays(4));
    let pv = _mm256_set1_epi64x(p as i64);
    let ov = _mm256_set1_epi64x(o as i64);
    let one = _mm256_set1_epi64x(1);
    // Towards higher bits: adding 1 to (o | !ray) carries through the opponent's run to the
    // first square that is not the opponent's; it outflanks if it is ours.
    let carry = _mm256_add_epi64(
        _mm256_or_si256(ov, _mm256_xor_si256(up, _mm256_set1_epi64x(-1))),
        one,
    );
    let outflank_up = _mm256_and_si256(_mm256_and_si256(carry, pv), up);
    let found = _mm256_test_epi64_mask(outflank_up, outflank_up);
    let flipped_up = _mm256_maskz_and_epi64(found, _mm256_sub_epi64(outflank_up, one), up);
    // Towards lower bits: the nearest square that is not the opponent's is the highest bit
    // of !o & ray (a shift by 64 for none gives nothing); it outflanks if it is ours.
    let nearest = _mm256_lzcnt_epi64(_mm256_andnot_si256(ov, down));
    let outflank_down =
        _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), nearest), pv);
    // -outflank sets the outflank bit and every bit above; shifting once keeps those above.
    let above = _mm256_slli_epi64(_mm256_sub_epi64(_mm256_setzero_si256(), outflank_down), 1);
    let flipped_down = _mm256_and_si256(above, down);
    or_lanes(_mm256_or_si256(flipped_up, flipped_down))
}

/// The four 64-bit lanes of `x` or-ed together.
#[target_feature(enable = "avx2")]
#[inline]
fn or_lanes(x: __m256i) -> u64 {
    let half = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    (_mm_cvtsi128_si64(half) | _mm_extract_epi64(half, 1)) as u64
}

#[cfg(test)]
mod tests {
    use crate::rng::Rng;

    /// Random boards of every density, with disjoint sides.
    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut rng = Rng::new(11);
        (0..200_000).map(move |_| {
            let (a, b, c) = (rng.bits(), rng.bits(), rng.bits());
            let filled = a | b;
            (filled & c, filled & !c)
        })
    }

    #[test]
    fn legal_moves_match_the_portable_version() {
        for (p, o) in boards() {
            assert_eq!(
                super::legal_moves(p, o),
                super::super::legal_moves_portable(p, o)
            );
        }
    }

    #[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
    #[test]
    fn flips_match_the_portable_version() {
        for (p, o) in boards() {
            for sq in 0..64 {
                let (p, o) = (p & !(1 << sq), o & !(1 << sq));
                assert_eq!(
                    super::flips(p, o, sq),
                    super::super::flips_portable(p, o, sq)
                );
            }
        }
    }
}
