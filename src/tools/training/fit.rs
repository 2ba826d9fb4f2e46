//! Fitting the pattern weights to labelled positions: least squares by Adam, full-batch or
//! over shuffled mini-batches, one phase at a time.
//!
//! A phase's weights learn from the positions of its own empties and of the two counts on
//! either side (so thin phases borrow from their neighbours, and neighbouring phases agree;
//! a whole phase on either side blurred them: see the README's "Which labels").
//! A configuration and its mirror image share one parameter ([`patterns::Shape::mirror`]).
//! A fit starts from zero, or from other weights to fine-tune them on new records ([`Start`]):
//! the L2 penalty then pulls each weight towards its starting value instead of towards zero.
//! One position in ten, chosen by a hash of its canonical form, is held out to measure the
//! validation error. The phases are independent and fit on as many threads as asked; each
//! turns only the records of its empties into samples (a few hundred bytes each), so the
//! whole data stays in its compact records. Everything is deterministic: the same records give
//! the same weights, whatever the threads.

use super::record::{Label, Record};
use crate::base::rng::shuffle;
use crate::engine::eval::patterns::{self, INSTANCES, OFFSETS, PHASE_WEIGHTS, SHAPES};
use crate::engine::eval::weights::{BIAS, PHASES, PHASE_WIDTH, WEIGHTS_PER_PHASE};
use crate::engine::eval::{
    count_indices, scalar_features, COUNT_TABLES, COUNT_WEIGHTS, DISC, SCALAR_FEATURES,
};

/// Empties borrowed from each neighbouring phase.
const PHASE_OVERLAP: u32 = 2;
/// One position in this many is held out for validation.
const VALIDATION_EVERY: u64 = 10;

/// Where a fit starts: each phase's weights, as a weights file holds them (centi-discs,
/// `WEIGHTS_PER_PHASE` per phase), or all zero.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    Zero,
    From(&'a [i16]),
}

impl Start<'_> {
    /// The parameters of `phase` to start from, in discs, laid out as [`parameter_map`]'s:
    /// a configuration and its mirror hold one value in a weights file, so either gives it.
    fn phase(self, phase: usize, map: &[u32]) -> Vec<f32> {
        let mut params = vec![0f32; WEIGHTS_PER_PHASE];
        if let Start::From(values) = self {
            let w = &values[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
            let discs = |v: i16| f32::from(v) / DISC as f32;
            for (&p, &v) in map.iter().zip(w) {
                params[p as usize] = discs(v);
            }
            for (param, &v) in params[BIAS..].iter_mut().zip(&w[BIAS..]) {
                *param = discs(v);
            }
        }
        params
    }
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    /// Adam's step, in discs; it decays linearly to a tenth over the epochs.
    pub learning_rate: f64,
    /// L2 penalty on every weight's distance from its start (discs^-2 per sample), which keeps
    /// rare configurations near where they started: 0, or the weights fine-tuned.
    pub l2: f64,
    /// The weight of a `played` record's error against an `exact` one's (1): a game's result
    /// is a noisier label than the solver's value.
    pub played_weight: f64,
    /// The weight of a `searched` (backed-up) record's error against an `exact` one's.
    pub searched_weight: f64,
    /// Samples per Adam step; 0 for the whole phase (full batch).
    pub batch: usize,
    pub threads: usize,
}

/// The parameters a position reads: its pattern instances', then its count tables'.
const PARAMS: usize = INSTANCES + COUNT_TABLES.len();

/// A position made ready to fit: its parameters, its score in discs, its empties, and
/// whether it is held out.
struct Sample {
    params: [u32; PARAMS],
    scalars: [f32; SCALAR_FEATURES],
    target: f32,
    empties: u8,
    validation: bool,
    label: Label,
}

/// The errors of one phase after fitting, in discs.
#[derive(Clone, Debug)]
pub struct PhaseFit {
    pub phase: usize,
    pub train: usize,
    pub validation: usize,
    pub train_mae: f64,
    pub validation_mae: f64,
    /// Whether a weight went to infinity or NaN (the fit diverged): its file value would be
    /// a meaningless saturated or zero number.
    pub diverged: bool,
}

/// For each weight index of a phase's tables, the parameter it reads: for a pattern, the
/// smaller of its configuration and its mirror image's; for a count, its own.
pub fn parameter_map() -> Vec<u32> {
    let mut map = Vec::with_capacity(BIAS);
    for (shape, def) in SHAPES.iter().enumerate() {
        let n = def.squares.len();
        for config in 0..patterns::shape_size(def) {
            let digits: Vec<usize> = (0..n).map(|i| config / 3usize.pow(i as u32) % 3).collect();
            let mirrored = def.mirror.map_or(config, |order| {
                (0..n)
                    .map(|i| digits[order[i]] * 3usize.pow(i as u32))
                    .sum()
            });
            map.push((OFFSETS[shape] + config.min(mirrored)) as u32);
        }
    }
    map.extend((PHASE_WEIGHTS..PHASE_WEIGHTS + COUNT_WEIGHTS).map(|i| i as u32));
    map
}

/// A record made ready to fit, with the parameters of `map`.
fn sample(r: &Record, map: &[u32]) -> Sample {
    let board = &r.position.board;
    let mut params = [0; PARAMS];
    let indices = patterns::indices(board).into_iter();
    for (p, i) in params.iter_mut().zip(indices.chain(count_indices(board))) {
        *p = map[i as usize];
    }
    Sample {
        params,
        scalars: scalar_features(&r.position.board).map(|f| f as f32),
        target: r.score as f32,
        empties: r.position.board.empty_count() as u8,
        validation: is_validation(r),
        label: r.label,
    }
}

/// Whether a record is held out, by a hash of its canonical form.
fn is_validation(r: &Record) -> bool {
    let (player, opponent) = r.key();
    let mix = (player ^ opponent.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mix >> 32).is_multiple_of(VALIDATION_EVERY)
}

/// Fits every phase from `start`, `config.threads` at a time; returns the weights file's
/// values (centi-discs, `WEIGHTS_PER_PHASE` per phase) and the errors of each phase. The
/// records stay as they are; each phase makes the samples of its own empties while it fits.
pub fn fit(records: &[Record], config: &FitConfig, start: Start) -> (Vec<i16>, Vec<PhaseFit>) {
    let map = parameter_map();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, Vec<i16>, PhaseFit)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let phase = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if phase >= PHASES {
                            return done;
                        }
                        let start = start.phase(phase, &map);
                        let (values, fit) = fit_phase(records, phase, config, &map, start);
                        done.push((phase, values, fit));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a fitting thread"))
            .collect()
    });
    results.sort_by_key(|r| r.0);
    let values = results.iter().flat_map(|r| r.1.iter().copied()).collect();
    (values, results.into_iter().map(|r| r.2).collect())
}

/// The empties a phase learns from.
fn phase_empties(phase: usize) -> std::ops::RangeInclusive<u32> {
    let low = phase as u32 * PHASE_WIDTH;
    low.saturating_sub(PHASE_OVERLAP)..=low + PHASE_WIDTH - 1 + PHASE_OVERLAP
}

fn fit_phase(
    records: &[Record],
    phase: usize,
    config: &FitConfig,
    map: &[u32],
    start: Vec<f32>,
) -> (Vec<i16>, PhaseFit) {
    let range = phase_empties(phase);
    let own = phase as u32 * PHASE_WIDTH..(phase as u32 + 1) * PHASE_WIDTH;
    let all: Vec<Sample> = records
        .iter()
        .filter(|r| range.contains(&r.position.board.empty_count()))
        .map(|r| sample(r, map))
        .collect();
    let train: Vec<&Sample> = all.iter().filter(|s| !s.validation).collect();
    // Validation measures the phase's own empties only.
    let validation: Vec<&Sample> = all
        .iter()
        .filter(|s| s.validation && own.contains(&u32::from(s.empties)))
        .collect();
    let weights = adam(&train, config, phase, start);
    let mae = |set: &[&Sample]| {
        let total: f64 = set
            .iter()
            .map(|s| f64::from((predict(&weights, s) - s.target).abs()))
            .sum();
        total / set.len().max(1) as f64
    };
    let fit = PhaseFit {
        phase,
        train: train.len(),
        validation: validation.len(),
        train_mae: mae(&train),
        validation_mae: mae(&validation),
        diverged: weights.iter().any(|w| !w.is_finite()),
    };
    let centi = |w: f32| (w * DISC as f32).round().clamp(-32000.0, 32000.0) as i16;
    let mut values: Vec<i16> = map.iter().map(|&p| centi(weights[p as usize])).collect();
    values.extend(weights[BIAS..].iter().map(|&w| centi(w)));
    debug_assert_eq!(values.len(), WEIGHTS_PER_PHASE);
    (values, fit)
}

#[inline]
fn predict(weights: &[f32], s: &Sample) -> f32 {
    let scalars = s
        .scalars
        .iter()
        .zip(&weights[BIAS + 1..])
        .fold(weights[BIAS], |acc, (f, w)| acc + f * w);
    s.params
        .iter()
        .fold(scalars, |acc, &p| acc + weights[p as usize])
}

/// Adam on the mean squared error plus the L2 penalty, from `start`: full-batch, or over
/// shuffled mini-batches of `config.batch` samples (the order a function of the phase and the
/// epoch).
fn adam(train: &[&Sample], config: &FitConfig, phase: usize, start: Vec<f32>) -> Vec<f32> {
    let mut weights = start.clone();
    if train.is_empty() {
        return weights;
    }
    if weights.iter().all(|&w| w == 0.0) {
        // A fit from nothing (a start of all zeros, read or not): start the constant at the
        // mean score, so that the patterns learn the rest.
        weights[BIAS] = train.iter().map(|s| s.target).sum::<f32>() / train.len() as f32;
    }
    let mut optimiser = Adam::new(train, config, start);
    let batch = match config.batch {
        0 => train.len(),
        b => b.min(train.len()),
    };
    let steps = config.epochs * train.len().div_ceil(batch);
    let mut order = train.to_vec();
    for epoch in 0..config.epochs {
        if batch < train.len() {
            shuffle(&mut order, (phase as u64) << 32 | epoch as u64);
        }
        for chunk in order.chunks(batch) {
            let progress = optimiser.t as f64 / steps as f64;
            let rate = config.learning_rate * (1.0 - 0.9 * progress);
            optimiser.step(&mut weights, chunk, rate);
        }
    }
    weights
}

/// Adam's state for one phase's weights.
struct Adam<'a> {
    config: &'a FitConfig,
    /// The first and second moments of each weight's gradient.
    m: Vec<f64>,
    v: Vec<f64>,
    /// Whether some training sample reads the weight: the others stay at their start.
    seen: Vec<bool>,
    /// Where each weight started, which the L2 penalty pulls it back towards.
    start: Vec<f32>,
    gradient: Vec<f64>,
    /// Steps taken.
    t: usize,
}

impl<'a> Adam<'a> {
    fn new(train: &[&Sample], config: &'a FitConfig, start: Vec<f32>) -> Adam<'a> {
        let n = WEIGHTS_PER_PHASE;
        let mut seen = vec![false; n];
        for s in train {
            for &p in &s.params {
                seen[p as usize] = true;
            }
        }
        seen[BIAS..].iter_mut().for_each(|s| *s = true);
        Adam {
            config,
            m: vec![0.0; n],
            v: vec![0.0; n],
            seen,
            start,
            gradient: vec![0.0; n],
            t: 0,
        }
    }

    /// The weight of a sample's error.
    fn weight(&self, s: &Sample) -> f64 {
        match s.label {
            Label::Exact => 1.0,
            Label::Played => self.config.played_weight,
            Label::Searched => self.config.searched_weight,
        }
    }

    /// One step down the gradient of `batch`'s weighted mean squared error.
    fn step(&mut self, weights: &mut [f32], batch: &[&Sample], rate: f64) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        const EPSILON: f64 = 1e-8;
        let total = self.sum_gradient(weights, batch);
        if total == 0.0 {
            return;
        }
        let scale = 2.0 / total;
        self.t += 1;
        let t = self.t as i32;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        for i in (0..weights.len()).filter(|&i| self.seen[i]) {
            let l2 = if i >= BIAS { 0.0 } else { self.config.l2 };
            let g = self.gradient[i] * scale + 2.0 * l2 * f64::from(weights[i] - self.start[i]);
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * g;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * g * g;
            weights[i] -= (rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + EPSILON)) as f32;
        }
    }

    /// Sums into `self.gradient` the weighted errors of `batch` (half the gradient of their
    /// summed squares); returns the sum of their weights.
    fn sum_gradient(&mut self, weights: &[f32], batch: &[&Sample]) -> f64 {
        self.gradient.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for s in batch {
            let weight = self.weight(s);
            total += weight;
            let error = f64::from(predict(weights, s) - s.target) * weight;
            self.gradient[BIAS] += error;
            for (k, f) in s.scalars.iter().enumerate() {
                self.gradient[BIAS + 1 + k] += error * f64::from(*f);
            }
            for &p in &s.params {
                self.gradient[p as usize] += error;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Game;
    use crate::tools::bench::MIDGAME_OPENINGS;
    use crate::tools::training::record::Label;

    /// The bench's four tournament openings, cut at 18 and at 20 plies: eight positions of 42 and 40
    /// empties, all in phase 10.
    const TARGETS: [i32; 8] = [10, -6, 4, -12, 8, -2, 6, -8];

    fn tiny_problem() -> Vec<Record> {
        let plies = MIDGAME_OPENINGS.iter().flat_map(|o| [&o[..36], *o]);
        plies
            .zip(TARGETS)
            .map(|(transcript, score)| Record {
                position: *Game::from_transcript(transcript).unwrap().position(),
                score,
                label: Label::Exact,
                game: 0,
            })
            .collect()
    }

    /// 300 passes in batches of `batch` samples (0: full batch) on 2 threads, every label
    /// weighed alike, no L2 penalty.
    fn unpenalised(batch: usize) -> FitConfig {
        FitConfig {
            epochs: 300,
            learning_rate: 0.1,
            l2: 0.0,
            played_weight: 1.0,
            searched_weight: 1.0,
            batch,
            threads: 2,
        }
    }

    /// What the weights file's `values` say of `record`'s position, in discs: the sum the
    /// evaluation makes, worked out here from the file's layout.
    fn predicted(values: &[i16], record: &Record) -> f64 {
        let board = &record.position.board;
        let phase = (board.empty_count() / PHASE_WIDTH) as usize;
        let w = &values[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
        let scalars: i32 = scalar_features(board)
            .iter()
            .enumerate()
            .map(|(k, f)| f * i32::from(w[BIAS + 1 + k]))
            .sum();
        let tables: i32 = patterns::indices(board)
            .into_iter()
            .chain(count_indices(board))
            .map(|i| i32::from(w[i as usize]))
            .sum();
        f64::from(i32::from(w[BIAS]) + scalars + tables) / f64::from(DISC)
    }

    #[test]
    fn fit_learns_a_tiny_problem_and_leaves_phases_without_data_at_zero() {
        // Full batch, and mini-batches of 2 of the phase's 5 to 8 training samples.
        for batch in [0, 2] {
            let records = tiny_problem();
            let (values, phases) = fit(&records, &unpenalised(batch), Start::Zero);
            assert_eq!(values.len(), PHASES * WEIGHTS_PER_PHASE);
            assert_eq!(phases[10].train + phases[10].validation, 8);
            assert!(phases[10].train >= 5, "{:?}", phases[10]);
            for record in &records {
                if !is_validation(record) {
                    let miss = predicted(&values, record) - f64::from(record.score);
                    assert!(miss.abs() < 0.5, "batch {batch}: {record} missed by {miss}");
                }
            }
            // Phases 9 and 11 borrow these empties; no other phase sees any position.
            for phase in (0..PHASES).filter(|p| !(9..=11).contains(p)) {
                let w = &values[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
                assert!(w.iter().all(|&v| v == 0), "batch {batch}: phase {phase}");
            }
        }
    }

    #[test]
    fn a_fine_tune_keeps_what_no_record_reads_and_moves_the_rest() {
        let records = tiny_problem();
        let config = unpenalised(0);
        // Start from weights that read every position 3 discs high in every phase: the
        // constants, and a configuration no record reads (its mirror holds the same value).
        let mut start = vec![0i16; PHASES * WEIGHTS_PER_PHASE];
        let map = parameter_map();
        let unread = 5;
        for phase in 0..PHASES {
            start[phase * WEIGHTS_PER_PHASE + BIAS] = 3 * DISC as i16;
            for i in (0..BIAS).filter(|&i| map[i] == map[unread]) {
                start[phase * WEIGHTS_PER_PHASE + i] = 77;
            }
        }
        let (values, _) = fit(&records, &config, Start::From(&start));
        for record in records.iter().filter(|r| !is_validation(r)) {
            let miss = predicted(&values, record) - f64::from(record.score);
            assert!(miss.abs() < 0.5, "{record} missed by {miss}");
        }
        // Phases without records keep their start whole; those with records keep the weight
        // none of them reads.
        for phase in 0..PHASES {
            let w = &values[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
            assert_eq!(w[unread], 77, "phase {phase}");
            if !(9..=11).contains(&phase) {
                let from = &start[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE];
                assert_eq!(w, from, "phase {phase}");
            }
        }
        // A start of zero is the fit from nothing.
        let zero = vec![0i16; PHASES * WEIGHTS_PER_PHASE];
        assert_eq!(
            fit(&records, &config, Start::From(&zero)).0,
            fit(&records, &config, Start::Zero).0
        );
    }
}
