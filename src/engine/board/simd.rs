//! Move generation and flips with vector instructions: the four directions of a move's lines
//! side by side in one 256-bit register. Built when the target processor has AVX2; the flips
//! use AVX-512 VL and CD where it has them too (a 64-bit leading-zero count and lane masks),
//! else a form on AVX2 alone. Each routine is tested against its portable twin in [`super`],
//! which other processors run. The vector forms pay in the endgame solver, where these two
//! take a third of the time.

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
/// lower bits in another; with AVX-512 VL and CD where the processor has them, else AVX2.
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    #[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
    // SAFETY: built only for processors with these features (the cfg above).
    return unsafe { flips_avx512(p, o, sq) };
    #[cfg(not(all(target_feature = "avx512vl", target_feature = "avx512cd")))]
    // SAFETY: this module is built only for processors with AVX2 (see `board`).
    return unsafe { flips_avx2(p, o, sq) };
}

/// A move's rays and the two sides' discs as registers: `up` and `down` hold the rays of
/// [`super::RAYS`] towards higher bits (E, S, SE, SW) and towards lower bits (W, N, NW, NE),
/// one a lane; `p` and `o` the discs in every lane.
struct Lines {
    up: __m256i,
    down: __m256i,
    p: __m256i,
    o: __m256i,
}

#[target_feature(enable = "avx2")]
#[inline]
fn lines(p: u64, o: u64, sq: u32) -> Lines {
    let r = &super::RAYS[sq as usize];
    let lanes = |i: usize| {
        _mm256_set_epi64x(
            r[i + 3] as i64,
            r[i + 2] as i64,
            r[i + 1] as i64,
            r[i] as i64,
        )
    };
    Lines {
        up: lanes(0),
        down: lanes(4),
        p: _mm256_set1_epi64x(p as i64),
        o: _mm256_set1_epi64x(o as i64),
    }
}

/// Towards higher bits: adding 1 to (o | !ray) carries through the opponent's run to the
/// first square that is not the opponent's; it outflanks if it is ours. Returns the outflanking
/// discs, one a lane.
#[target_feature(enable = "avx2")]
#[inline]
fn outflanks_up(l: &Lines) -> __m256i {
    let carry = _mm256_add_epi64(
        _mm256_or_si256(l.o, _mm256_xor_si256(l.up, _mm256_set1_epi64x(-1))),
        _mm256_set1_epi64x(1),
    );
    _mm256_and_si256(_mm256_and_si256(carry, l.p), l.up)
}

#[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
fn flips_avx512(p: u64, o: u64, sq: u32) -> u64 {
    let l = lines(p, o, sq);
    let outflank_up = outflanks_up(&l);
    let found = _mm256_test_epi64_mask(outflank_up, outflank_up);
    let below = _mm256_sub_epi64(outflank_up, _mm256_set1_epi64x(1));
    let flipped_up = _mm256_maskz_and_epi64(found, below, l.up);
    // Towards lower bits: the nearest square that is not the opponent's is the highest bit
    // of !o & ray (a shift by 64 for none gives nothing); it outflanks if it is ours.
    let nearest = _mm256_lzcnt_epi64(_mm256_andnot_si256(l.o, l.down));
    let outflank_down = _mm256_and_si256(
        _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), nearest),
        l.p,
    );
    // -outflank sets the outflank bit and every bit above; shifting once keeps those above.
    let above = _mm256_slli_epi64(_mm256_sub_epi64(_mm256_setzero_si256(), outflank_down), 1);
    let flipped_down = _mm256_and_si256(above, l.down);
    or_lanes(_mm256_or_si256(flipped_up, flipped_down))
}

/// [`flips_avx512`] without a 64-bit leading-zero count or lane masks: what AVX2 processors
/// run, tested against the portable version on every build that has AVX2.
#[cfg_attr(
    all(target_feature = "avx512vl", target_feature = "avx512cd"),
    allow(dead_code)
)]
#[target_feature(enable = "avx2")]
#[inline]
fn flips_avx2(p: u64, o: u64, sq: u32) -> u64 {
    let l = lines(p, o, sq);
    let zero = _mm256_setzero_si256();
    let outflank_up = outflanks_up(&l);
    let below = _mm256_and_si256(_mm256_sub_epi64(outflank_up, _mm256_set1_epi64x(1)), l.up);
    let flipped_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank_up, zero), below);
    // Towards lower bits, a lane's ray steps by 1, 8, 9 or 7 squares. Smearing the squares
    // that are not the opponent's down the ray (by 1, 2, then 4 steps) leaves the ray's
    // squares above the nearest of them: the opponent's run next to `sq`.
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let mut smear = _mm256_andnot_si256(l.o, l.down);
    let mut shift = step;
    for _ in 0..3 {
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, shift));
        shift = _mm256_add_epi64(shift, shift);
    }
    let run = _mm256_andnot_si256(smear, l.down);
    // The square one step beyond the run outflanks it if it is ours (and on the ray: a run
    // to the board's edge has none).
    let beyond = _mm256_and_si256(_mm256_srlv_epi64(run, step), l.down);
    let outflank_down = _mm256_and_si256(beyond, l.p);
    let flipped_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank_down, zero), run);
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
    /// Random boards of every density, with disjoint sides.
    fn boards() -> impl Iterator<Item = (u64, u64)> {
        super::super::random_boards(11, 200_000).map(|b| (b.player, b.opponent))
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

    /// `flips` against the portable version, on every square of every board.
    fn assert_flips_match(flips: impl Fn(u64, u64, u32) -> u64) {
        for (p, o) in boards() {
            for sq in 0..64 {
                let (p, o) = (p & !(1 << sq), o & !(1 << sq));
                assert_eq!(flips(p, o, sq), super::super::flips_portable(p, o, sq));
            }
        }
    }

    #[test]
    fn flips_match_the_portable_version() {
        assert_flips_match(super::flips);
    }

    #[test]
    fn avx2_flips_match_the_portable_version() {
        // SAFETY: this module is built only for processors with AVX2.
        assert_flips_match(|p, o, sq| unsafe { super::flips_avx2(p, o, sq) });
    }
}
