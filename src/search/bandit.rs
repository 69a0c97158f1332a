//! The bandit formulas that selection uses, shared by the sequential and the
//! simultaneous trees.

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
