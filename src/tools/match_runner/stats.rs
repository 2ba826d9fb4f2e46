//! Match statistics: score, Elo difference with a 95% interval, and the SPRT.

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, points: f64) {
        if points > 0.5 {
            self.wins += 1;
        } else if points < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Mean points per game (a win 1, a draw 1/2).
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// Variance of one game's points around the mean.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// Elo difference and its 95% interval (low, high); infinite at a score of 0 or 1.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        let s = self.score();
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let margin = 1.96 * (self.variance() / n).sqrt();
        let clamp = |x: f64| x.clamp(0.0, 1.0);
        let to_elo = |x: f64| {
            if x <= 0.0 {
                f64::NEG_INFINITY
            } else if x >= 1.0 {
                f64::INFINITY
            } else {
                elo_from_score(x)
            }
        };
        (
            to_elo(s),
            to_elo(clamp(s - margin)),
            to_elo(clamp(s + margin)),
        )
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0), with the usual normal
    /// approximation of the game-score distribution.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl Sprt {
    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -50.0, 0.0, 120.0, 700.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn interval_shrinks_with_games_and_contains_the_estimate() {
        let small = Tally {
            wins: 6,
            draws: 2,
            losses: 4,
        };
        let big = Tally {
            wins: 60,
            draws: 20,
            losses: 40,
        };
        let (e1, lo1, hi1) = small.elo();
        let (e2, lo2, hi2) = big.elo();
        assert!((e1 - e2).abs() < 1e-9);
        assert!(lo1 < e1 && e1 < hi1);
        assert!(hi2 - lo2 < hi1 - lo1);
        assert_eq!(
            Tally {
                wins: 5,
                draws: 0,
                losses: 0
            }
            .elo()
            .0,
            f64::INFINITY
        );
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(
            sprt.verdict(&Tally {
                wins: 900,
                draws: 100,
                losses: 500
            }),
            SprtVerdict::AcceptH1
        );
        assert_eq!(
            sprt.verdict(&Tally {
                wins: 400,
                draws: 100,
                losses: 800
            }),
            SprtVerdict::AcceptH0
        );
        assert_eq!(
            sprt.verdict(&Tally {
                wins: 3,
                draws: 1,
                losses: 2
            }),
            SprtVerdict::Continue
        );
    }
}
