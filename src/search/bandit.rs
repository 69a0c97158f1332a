//! The bandit formulas that selection uses, shared by the sequential and the
//! simultaneous trees.

/// The bandit formula that picks a child during selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// UCB1 (UCT): `mean + C·√(ln N / n)`.
    Ucb1,
    /// UCB1-Tuned ([`ucb1_tuned_bonus`]): the exploration term scaled by the rewards'
    /// variance; needs each node's mean squared reward.
    Ucb1Tuned,
}

/// UCB1 (Auer et al. 2002): the bonus `C·√(ln N / n)` of an arm tried `visits > 0` times.
#[inline]
pub fn ucb1_bonus(c: f32, ln_parent: f32, visits: u32) -> f32 {
    c * (ln_parent / visits as f32).sqrt()
}

/// UCB1-Tuned (Auer et al. 2002; Eq. 2 of Lanctot et al. 2013):
/// `c·√(min(¼, Var) · ln N / n)` with `Var = s² + √(2 ln N / n)`, for an arm tried
/// `visits > 0` times whose rewards have mean `mean` and mean square `mean_square` (`s²`
/// is their sample variance, never below zero although rounding can make
/// `mean_square − mean²` slightly negative). The formula has no constant (`c = 1`);
/// `c` scales the bonus for tuning.
#[inline]
pub fn ucb1_tuned_bonus(c: f32, ln_parent: f32, visits: u32, mean: f32, mean_square: f32) -> f32 {
    let n = visits as f32;
    let sample_variance = (mean_square - mean * mean).max(0.0);
    let variance_bound = sample_variance + (2.0 * ln_parent / n).sqrt();
    c * (variance_bound.min(0.25) * ln_parent / n).sqrt()
}

/// RAVE's weight of the AMAF mean for a child with `visits` visits and `amaf_visits`
/// AMAF updates: Gelly and Silver's minimum-MSE schedule as Liang 2017 gives it,
/// `β = ñ / (n + ñ + R·n·ñ)` (1 for an unvisited child, falling towards 0).
#[inline]
pub fn rave_beta(constant: f32, visits: u32, amaf_visits: u32) -> f32 {
    let (n, amaf) = (visits as f32, amaf_visits as f32);
    if amaf_visits == 0 {
        0.0
    } else {
        amaf / (n + amaf + constant * n * amaf)
    }
}

/// `C·√(ln N)` from `ln N`, at least the smallest positive float (see
/// `Tree::exploration_term`); `ln 0 = −∞` gives that smallest value too.
pub fn exploration_from_ln(exploration: f32, ln_visits: f32) -> f32 {
    (exploration * ln_visits.max(0.0).sqrt()).max(f32::MIN_POSITIVE)
}

/// ln(x) for x ≥ 1 to about 1.3e-4, from the float's exponent and a short polynomial on
/// its mantissa: selection takes it once per level, and libm's `ln` is several times
/// slower. UCT only needs √ln N to a few digits.
#[inline(always)]
pub fn fast_ln(x: f32) -> f32 {
    let bits = x.to_bits();
    let exponent = ((bits >> 23) & 0xff) as f32 - 127.0;
    // The mantissa as m in [1, 2); ln m by a least-squares fit on that interval.
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let t = m - 1.0;
    let ln_m = t * (0.997_115_9 + t * (-0.469_948_7 + t * (0.224_200_4 + t * -0.058_348_2)));
    exponent * std::f32::consts::LN_2 + ln_m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucb1_tuned_matches_its_definition() {
        // 4 visits with rewards 1, 1, 0, 0: mean 0.5, sample variance 0.25.
        let ln_n = (20f32).ln();
        let var = 0.25 + (2.0 * ln_n / 4.0).sqrt();
        let expected = (var.min(0.25) * ln_n / 4.0).sqrt();
        assert!((ucb1_tuned_bonus(1.0, ln_n, 4, 0.5, 0.5) - expected).abs() < 1e-6);
        // A zero-variance arm still gets the √(2 ln n / n) term inside the min.
        let ln_n = (1000f32).ln();
        let expected = ((2.0 * ln_n / 100.0).sqrt().min(0.25) * ln_n / 100.0).sqrt();
        assert!((ucb1_tuned_bonus(1.0, ln_n, 100, 1.0, 1.0) - expected).abs() < 1e-6);
        // Rounding below zero counts as no variance; the constant scales the bonus.
        let tiny = (2.0 * ln_n / 100.0).sqrt();
        let expected = (tiny.min(0.25) * ln_n / 100.0).sqrt();
        assert!((ucb1_tuned_bonus(1.0, ln_n, 100, 0.5, 0.25 - 1e-6) - expected).abs() < 1e-6);
        assert!((ucb1_tuned_bonus(2.0, ln_n, 100, 0.5, 0.25) - 2.0 * expected).abs() < 1e-6);
    }

    #[test]
    fn ucb1_shrinks_with_visits_and_grows_with_the_parent() {
        let ln = (100f32).ln();
        assert!((ucb1_bonus(1.5, ln, 4) - 1.5 * (ln / 4.0).sqrt()).abs() < 1e-6);
        assert!(ucb1_bonus(1.5, ln, 9) < ucb1_bonus(1.5, ln, 4));
        assert!(ucb1_bonus(1.5, (1000f32).ln(), 4) > ucb1_bonus(1.5, ln, 4));
    }
}
