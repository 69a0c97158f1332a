//! Score, confidence interval and Elo difference of a series, in the usual way of
//! engine testers (cutechess-cli): the score is A's mean points per game, its 95 %
//! interval comes from the sample variance of the per-game points (normal
//! approximation), and the Elo interval maps the score interval's ends through the
//! logistic Elo curve.

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

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score, interval and Elo; `None` before any game.
    pub fn summary(&self) -> Option<Summary> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let score = (self.wins as f64 + 0.5 * self.draws as f64) / nf;
        let mean_sq = (self.wins as f64 + 0.25 * self.draws as f64) / nf;
        let variance = (mean_sq - score * score).max(0.0);
        let ci = Z95 * (variance / nf).sqrt();
        Some(Summary {
            games: n,
            score,
            score_ci95: ci,
            elo: elo_from_score(score),
            elo_low: elo_from_score((score - ci).max(0.0)),
            elo_high: elo_from_score((score + ci).min(1.0)),
        })
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
