//! Score, confidence interval and Elo difference of a series, in the usual way of
//! engine testers (cutechess-cli, fastchess, fishtest): the score is A's mean points per
//! game, its 95 % interval comes from the sample variance of the per-sample points
//! (normal approximation), and the Elo interval maps the score interval's ends through
//! the logistic Elo curve. A sample is a game (trinomial model: win, draw, loss) or a
//! pair of games with colours swapped (pentanomial model: 0, ½, 1, 1½ or 2 points),
//! whose variance leaves out what the colour and the opening decide.
//!
//! [`Sprt`] is the sequential probability ratio test of fishtest, with the same
//! normal approximation of the log-likelihood ratio (written here: no Rust crate has it).

use statrs::distribution::{ContinuousCDF, Normal};

/// Two-sided 95 % quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of player A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// What a series says about A against B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub games: u32,
    /// A's points per game, 0..1 (a draw counts one half).
    pub score: f64,
    /// Half-width of the 95 % interval of `score`.
    pub score_ci95: f64,
    /// Elo difference A − B; infinite when A won or lost every game.
    pub elo: f64,
    /// Elo of the interval's ends (`score ± score_ci95`, clamped to 0..1).
    pub elo_low: f64,
    pub elo_high: f64,
}

impl Summary {
    /// Half-width of the Elo interval, as `±` in the table (infinite if an end is).
    pub fn elo_ci95(&self) -> f64 {
        if !(self.elo_high.is_finite() && self.elo_low.is_finite()) {
            return f64::INFINITY;
        }
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// The number of samples and the mean and variance of their scores (each in 0..1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub samples: u32,
    pub mean: f64,
    pub variance: f64,
}

impl Moments {
    /// The moments of `counts[k]` samples scoring `k / (counts.len() − 1)` each, plus
    /// `prior` samples split between the two extremes; `None` without samples.
    fn of(counts: &[u32], prior: f64) -> Option<Moments> {
        let samples: u32 = counts.iter().sum();
        if samples == 0 {
            return None;
        }
        let top = (counts.len() - 1) as f64;
        let (mut sum, mut sum_sq) = (prior / 2.0, prior / 2.0);
        for (k, &c) in counts.iter().enumerate() {
            let x = k as f64 / top;
            sum += c as f64 * x;
            sum_sq += c as f64 * x * x;
        }
        let n = samples as f64 + prior;
        let mean = sum / n;
        Some(Moments {
            samples,
            mean,
            variance: (sum_sq / n - mean * mean).max(0.0),
        })
    }

    /// Score, interval and Elo of `games` games whose samples have these moments.
    fn summary(&self, games: u32) -> Summary {
        let score = self.mean;
        let ci = Z95 * (self.variance / self.samples as f64).sqrt();
        Summary {
            games,
            score,
            score_ci95: ci,
            elo: elo_from_score(score),
            elo_low: elo_from_score((score - ci).max(0.0)),
            elo_high: elo_from_score((score + ci).min(1.0)),
        }
    }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Per game, losses first: the trinomial samples.
    pub fn moments(&self) -> Option<Moments> {
        Moments::of(&[self.losses, self.draws, self.wins], 0.0)
    }

    /// Score, interval and Elo; `None` before any game.
    pub fn summary(&self) -> Option<Summary> {
        Some(self.moments()?.summary(self.games()))
    }

    /// The likelihood of superiority: the chance that A is the stronger, from the
    /// decisive games alone (draws say nothing of which is stronger), as cutechess-cli
    /// and fastchess report it; `None` without a decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0)
            .then(|| normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt()))
    }
}

/// Φ, the standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    Normal::new(0.0, 1.0).expect("a valid normal").cdf(x)
}

/// How many pairs of games (colours swapped) gave A 0, ½, 1, 1½ and 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair in which A scored `half_points` / 2 points (0..=4).
    pub fn add(&mut self, half_points: u32) {
        self.0[half_points.min(4) as usize] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Per pair, A's points over two: the pentanomial samples.
    pub fn moments(&self) -> Option<Moments> {
        Moments::of(&self.0, 0.0)
    }

    /// The same with one more pair split between a sweep and a whitewash, the prior the
    /// SPRT uses: without it a run of equal pairs has no variance, and the test could not
    /// accept a bot that wins every pair (or would accept one after a single pair).
    pub fn moments_for_test(&self) -> Option<Moments> {
        Moments::of(&self.0, 1.0)
    }

    /// Score, interval and Elo from the pairs; `None` before any pair.
    pub fn summary(&self) -> Option<Summary> {
        Some(self.moments()?.summary(2 * self.pairs()))
    }
}

/// The expected score of a player `elo` points stronger (the logistic Elo curve).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`
/// (logistic Elo) with error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Wald's bounds on the log-likelihood ratio: (accept H0 at or below, accept H1 at
    /// or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after samples with these moments, in the
    /// normal approximation fishtest uses (M. Van den Bergh): with s0, s1 the scores the
    /// hypotheses predict, `N (s1 − s0)(2 mean − s0 − s1) / (2 variance)`; zero without
    /// variance.
    pub fn llr(&self, m: &Moments) -> f64 {
        if m.variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        m.samples as f64 * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance)
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// Parses `elo0=E0 elo1=E1 alpha=A beta=B` (any order, spaces or commas between;
    /// alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in text.split([' ', ',']).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once('=')
                .ok_or(format!("--sprt: {field:?} is not KEY=VALUE"))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or(format!("--sprt: {key} needs a number, got {value:?}"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(format!("--sprt: unknown parameter {key:?}")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=E0 and elo1=E1".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be above elo0".into());
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
            return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(sprt)
    }
}

/// The Elo difference that predicts `score` (0..1): `-400 log10(1/score - 1)`.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn los_counts_the_decisive_games() {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        assert_eq!(wdl(0, 5, 0).los(), None);
        assert!((wdl(5, 9, 5).los().unwrap() - 0.5).abs() < 1e-12);
        // 60 wins to 40: 2 sigma, whatever the draws.
        let los = wdl(60, 33, 40).los().unwrap();
        assert!((los - 0.977_25).abs() < 1e-4, "{los}");
        assert_eq!(wdl(60, 0, 40).los(), wdl(60, 33, 40).los());
    }

    #[test]
    fn six_two_two() {
        // By hand: s = (6 + 1) / 10 = 0.7; E[x²] = (6 + 2/4) / 10 = 0.65; var = 0.16;
        // se = sqrt(0.016) = 0.126491; ci = 1.96 * se = 0.247918.
        // Elo(0.7) = -400 log10(3/7) = 147.19; Elo(0.947918) = 504.03; Elo(0.452082) = -33.40.
        let s = Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        }
        .summary()
        .unwrap();
        assert_eq!(s.games, 10);
        assert!(close(s.score, 0.7, 1e-12));
        assert!(close(s.score_ci95, 0.247918, 1e-5), "{}", s.score_ci95);
        assert!(close(s.elo, 147.19, 0.01), "{}", s.elo);
        assert!(close(s.elo_high, 504.03, 0.01), "{}", s.elo_high);
        assert!(close(s.elo_low, -33.40, 0.01), "{}", s.elo_low);
        assert!(close(s.elo_ci95(), (504.03 + 33.40) / 2.0, 0.01));
    }

    #[test]
    fn even_series_is_zero_elo() {
        // 5 wins, 5 losses: s = 0.5, var = 0.25, se = sqrt(0.025) = 0.158114, ci = 0.309898.
        let s = Wdl {
            wins: 5,
            draws: 0,
            losses: 5,
        }
        .summary()
        .unwrap();
        assert!(close(s.score, 0.5, 1e-12));
        assert!(close(s.elo, 0.0, 1e-9));
        assert!(close(s.score_ci95, 0.309898, 1e-5));
        assert!(close(s.elo_high, -s.elo_low, 1e-9), "symmetric around 0");
    }

    #[test]
    fn pairs_count_points_over_two_games() {
        // Pairs scoring 2, 1½, 1, 1, ½ points: per pair 1, .75, .5, .5, .25.
        // mean 0.6; E[x²] = (1 + .5625 + .25 + .25 + .0625) / 5 = 0.425; var = 0.065;
        // ci = 1.96 sqrt(0.065 / 5) = 0.223468.
        let mut p = Pentanomial::default();
        for half_points in [4, 3, 2, 2, 1] {
            p.add(half_points);
        }
        assert_eq!(p, Pentanomial([0, 1, 2, 1, 1]));
        let s = p.summary().unwrap();
        assert_eq!(s.games, 10);
        assert!(close(s.score, 0.6, 1e-12));
        assert!(close(s.score_ci95, 0.223468, 1e-5), "{}", s.score_ci95);
        assert!(Pentanomial::default().summary().is_none());
    }

    #[test]
    fn pairs_that_split_by_colour_are_tighter_than_their_games() {
        // Every pair 1-1 (each side wins with the first move): the games look like a
        // coin toss, the pairs show no difference at all.
        let games = Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        }
        .summary()
        .unwrap();
        let pairs = Pentanomial([0, 0, 10, 0, 0]).summary().unwrap();
        assert_eq!(games.score, pairs.score);
        assert!(games.score_ci95 > 0.2 && pairs.score_ci95 == 0.0);
    }

    #[test]
    fn the_test_prior_gives_equal_pairs_a_variance() {
        // Ten sweeps and the prior pair (half 2 points, half 0): mean 10.5 / 11,
        // E[x²] the same, variance 0.954545 · 0.045455 = 0.043388.
        let m = Pentanomial([0, 0, 0, 0, 10]).moments_for_test().unwrap();
        assert_eq!(m.samples, 10);
        assert!(close(m.mean, 10.5 / 11.0, 1e-12));
        assert!(close(m.variance, 0.043388, 1e-6), "{}", m.variance);
        let sprt = Sprt::parse("elo0=0 elo1=50").unwrap();
        assert!(sprt.llr(&m) > 0.0);
        let m = Pentanomial([10, 0, 0, 0, 0]).moments_for_test().unwrap();
        assert!(sprt.llr(&m) < 0.0);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        // ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        assert!(close(lower, -2.944439, 1e-6) && close(upper, 2.944439, 1e-6));
        // By hand: s0 = 0.5, s1 = 1/(1 + 10^-0.025) = 0.514387; 1000 games at 60 % with
        // variance 0.2: LLR = 1000 · 0.014387 · (1.2 − 1.014387) / 0.4 = 6.676.
        let m = Moments {
            samples: 1000,
            mean: 0.6,
            variance: 0.2,
        };
        assert!(close(sprt.llr(&m), 6.676, 0.01), "{}", sprt.llr(&m));
        assert_eq!(sprt.state(sprt.llr(&m)), SprtState::AcceptH1);
        // The same at 45 % is far below H0.
        let m = Moments { mean: 0.45, ..m };
        assert_eq!(sprt.state(sprt.llr(&m)), SprtState::AcceptH0);
        let m = Moments {
            mean: 0.507,
            samples: 100,
            ..m
        };
        assert_eq!(sprt.state(sprt.llr(&m)), SprtState::Continue);
        // No variance, no evidence.
        let m = Moments { variance: 0.0, ..m };
        assert_eq!(sprt.llr(&m), 0.0);
    }

    #[test]
    fn sprt_options() {
        let s = Sprt::parse("elo1=5,elo0=-1").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 5.0, 0.05, 0.05));
        for bad in [
            "",
            "elo0=0",
            "elo0=0 elo1=0",
            "elo0=0 elo1=5 alpha=0.7",
            "elo0=0 elo1=x",
            "elo0=0 elo1=5 gamma=1",
            "elo0 0",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad:?}");
        }
        assert!(close(score_from_elo(0.0), 0.5, 1e-12));
        assert!(close(elo_from_score(score_from_elo(123.0)), 123.0, 1e-9));
    }

    #[test]
    fn all_draws_have_no_spread_and_sweeps_are_infinite() {
        let s = Wdl {
            wins: 0,
            draws: 4,
            losses: 0,
        }
        .summary()
        .unwrap();
        assert!(close(s.score, 0.5, 1e-12) && s.score_ci95 == 0.0 && s.elo == 0.0);
        let s = Wdl {
            wins: 3,
            draws: 0,
            losses: 0,
        }
        .summary()
        .unwrap();
        assert_eq!(s.elo, f64::INFINITY);
        assert!(Wdl::default().summary().is_none());
        // 76 % ≈ +200 Elo, the textbook value.
        assert!(close(elo_from_score(0.76), 200.24, 0.01));
    }
}
