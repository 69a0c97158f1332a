//! Per-player bandit statistics and the selection and final-move rules of Lanctot,
//! Wittlinger, Winands and Den Teuling, "Monte Carlo Tree Search for Simultaneous Move
//! Games: A Case Study in the Game of Tron" (2013), Section 4.
//!
//! Everything here works on one player's action slice of one node, so the tree in
//! [`super`] stays ignorant of which rule it runs.

use crate::search::bandit::{ucb1_bonus, ucb1_tuned_bonus};
use crate::search::{progressive_bias, random_below, FastRng, FinalMove, Guidance};
use rand::RngCore;

/// How each player picks its half of the joint move at a node (Lanctot et al. 2013, Section 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SimPolicy {
    /// Decoupled UCT (Section 4.3): UCB1, Eq. (1), once per player on that player's
    /// own statistics: `argmax X̄ᵢ + C·√(ln nⱼ / nᵢ)`, every action tried once first.
    DecoupledUct { c: f32 },
    /// Decoupled UCB1-Tuned (Section 4.3 with Eq. (2)):
    /// `argmax X̄ᵢ + c·√(min(¼, s²ᵢ + √(2 ln nⱼ / nᵢ)) · ln nⱼ / nᵢ)`.
    /// The paper's formula has no constant (`c = 1`); `c` scales the bonus for tuning.
    DecoupledUcb1Tuned { c: f32 },
    /// Exp3 (Section 4.4, Eq. (3)), sampling from `σ = (1−γ)·P + γ/|K|`.
    Exp3 { gamma: f32 },
    /// Regret Matching (Section 4.5, Eq. (4)), sampling from `σ = (1−γ)·P + γ/|K|`
    /// where `P` normalises the positive cumulative regrets.
    RegretMatching { gamma: f32 },
}

impl SimPolicy {
    /// The final-move rule that goes with this policy (Lanctot et al. 2013): most visits
    /// for the deterministic ones (DUCT(max) and DUCB1T(max) beat their mix versions,
    /// Table 3), a mixed strategy for the stochastic ones (Exp3: visit counts, Section
    /// 4.4; RM: average strategy, Section 4.5).
    pub const fn default_final_move(self) -> FinalMove {
        match self {
            SimPolicy::DecoupledUct { .. } | SimPolicy::DecoupledUcb1Tuned { .. } => {
                FinalMove::MostVisits
            }
            SimPolicy::Exp3 { .. } | SimPolicy::RegretMatching { .. } => FinalMove::Mix,
        }
    }
}

/// One player's statistics for one of its actions at one node.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ActionStats {
    /// Times this action was part of the selected joint move.
    pub visits: u32,
    /// Sum of this player's rewards (the mean X̄ of Eqs. (1) and (2)).
    pub reward_sum: f32,
    /// Sum of squared rewards, for the sample variance s² of UCB1-Tuned, Eq. (2).
    pub reward_sq_sum: f32,
    /// Exp3: the estimated reward sum X̂ of Eq. (3). Regret Matching: the cumulative
    /// regret R of Eq. (4). Unused by the UCB rules. `f64` because both grow with the
    /// visits (X̂ by up to |K|/γ a visit) while their small differences drive selection.
    pub score: f64,
    /// Regret Matching: the sum of the probabilities σ this action had over all
    /// simulations, whose normalisation is the final mixed strategy (Section 4.5).
    pub strategy_sum: f32,
}

impl ActionStats {
    #[inline]
    pub fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward_sum / self.visits as f32
        }
    }

    /// Records one simulation through this action with this player's reward.
    #[inline]
    pub fn add_reward(&mut self, reward: f32) {
        self.visits += 1;
        self.reward_sum += reward;
        self.reward_sq_sum += reward * reward;
    }
}

/// A uniform float in `[0, 1)` from 24 random bits.
#[inline]
fn unit_float(rng: &mut FastRng) -> f32 {
    (rng.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32)
}

/// Samples an index from `weights` (non-negative, positive sum; need not be normalised).
pub(crate) fn sample_index(weights: &[f32], rng: &mut FastRng) -> usize {
    let total: f32 = weights.iter().sum();
    let mut target = unit_float(rng) * total;
    for (i, &w) in weights.iter().enumerate() {
        if target < w {
            return i;
        }
        target -= w;
    }
    // Rounding left the target past the last positive weight.
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// Exp3, Eq. (3): `P_k = exp(η·ω_k) / Σᵢ exp(η·ωᵢ)` with `ω_k = X̂_k − maxᵢ X̂ᵢ` (the
/// numerically stable form the paper uses) and `η = γ/|K|`, then
/// `σ_k = (1−γ)·P_k + γ/|K|`. Writes σ into `sigma`.
pub(crate) fn exp3_strategy(gamma: f32, stats: &[ActionStats], sigma: &mut Vec<f32>) {
    let k = stats.len() as f32;
    let eta = gamma / k;
    let max_score = stats
        .iter()
        .map(|s| s.score)
        .fold(f64::NEG_INFINITY, f64::max);
    sigma.clear();
    sigma.extend(
        stats
            .iter()
            .map(|s| (eta * (s.score - max_score) as f32).exp()),
    );
    let total: f32 = sigma.iter().sum();
    for p in sigma.iter_mut() {
        *p = (1.0 - gamma) * *p / total + gamma / k;
    }
}

/// Regret Matching, Section 4.5: `P` normalises the positive cumulative regrets (uniform
/// when none is positive), then `σ_k = (1−γ)·P_k + γ/|K|`. Writes σ into `sigma`.
pub(crate) fn regret_matching_strategy(gamma: f32, stats: &[ActionStats], sigma: &mut Vec<f32>) {
    let k = stats.len() as f32;
    let positive_total: f64 = stats.iter().map(|s| s.score.max(0.0)).sum();
    sigma.clear();
    if positive_total > 0.0 {
        sigma.extend(
            stats
                .iter()
                .map(|s| (1.0 - gamma) * (s.score.max(0.0) / positive_total) as f32 + gamma / k),
        );
    } else {
        sigma.resize(stats.len(), 1.0 / k);
    }
}

/// Selection guidance at one node for one player: the rule and the evaluator's values of
/// the player's actions (empty under [`Guidance::Uct`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guide<'a> {
    pub guidance: Guidance,
    pub values: &'a [f32],
}

impl Guide<'_> {
    /// No guidance: plain UCB.
    pub const NONE: Guide<'static> = Guide {
        guidance: Guidance::Uct,
        values: &[],
    };
}

impl SimPolicy {
    /// Whether the rule has untried actions and scores that [`Guidance`] can steer: the
    /// UCB rules.
    pub const fn can_be_guided(self) -> bool {
        matches!(
            self,
            SimPolicy::DecoupledUct { .. } | SimPolicy::DecoupledUcb1Tuned { .. }
        )
    }

    /// Picks one player's action at a node that has been through `parent_visits`
    /// simulations. Returns the action index and the probability σ it was sampled with
    /// (1 for the deterministic rules), which Exp3's update divides by.
    /// `sigma` is scratch space, kept by the caller so that selection never allocates.
    /// `guide` steers the UCB rules (the others ignore it).
    pub(crate) fn select(
        self,
        stats: &mut [ActionStats],
        parent_visits: u32,
        sigma: &mut Vec<f32>,
        rng: &mut FastRng,
        guide: Guide,
    ) -> (usize, f32) {
        match self {
            SimPolicy::DecoupledUct { c } => (
                select_ucb(stats, parent_visits, rng, guide, |ln, s| {
                    ucb1_bonus(c, ln, s.visits)
                }),
                1.0,
            ),
            SimPolicy::DecoupledUcb1Tuned { c } => (
                select_ucb(stats, parent_visits, rng, guide, |ln, s| {
                    let n = s.visits as f32;
                    ucb1_tuned_bonus(c, ln, s.visits, s.reward_sum / n, s.reward_sq_sum / n)
                }),
                1.0,
            ),
            SimPolicy::Exp3 { gamma } => {
                exp3_strategy(gamma, stats, sigma);
                let i = sample_index(sigma, rng);
                (i, sigma[i])
            }
            SimPolicy::RegretMatching { gamma } => {
                regret_matching_strategy(gamma, stats, sigma);
                // The final strategy averages every σ used (Section 4.5).
                for (s, &p) in stats.iter_mut().zip(sigma.iter()) {
                    s.strategy_sum += p;
                }
                let i = sample_index(sigma, rng);
                (i, sigma[i])
            }
        }
    }

    /// The Exp3 update of Eq. (3), `X̂_k ← X̂_k + r / σ_k`, for the action taken with
    /// probability `sigma` and this player's reward `reward`. Other rules do nothing here
    /// (Regret Matching's update needs the whole matrix and lives in the tree).
    #[inline]
    pub(crate) fn exp3_update(self, stats: &mut ActionStats, reward: f32, sigma: f32) {
        if let SimPolicy::Exp3 { .. } = self {
            stats.score += f64::from(reward / sigma);
        }
    }
}

/// The UCB rules: a random untried action, else `argmax X̄ᵢ + bonus`. Ties are broken at
/// random: with a fixed order both players' bandits would pick the same index on ties and
/// stay in lockstep (in matching pennies they would never try a mismatched joint move).
/// Under UCT-ULM the untried action is the best valued one (ties at random); Progressive
/// Bias adds its term to the score.
#[inline]
fn select_ucb(
    stats: &[ActionStats],
    parent_visits: u32,
    rng: &mut FastRng,
    guide: Guide,
    bonus: impl Fn(f32, &ActionStats) -> f32,
) -> usize {
    let untried = stats.iter().filter(|s| s.visits == 0).count() as u32;
    if untried > 0 {
        if guide.guidance == Guidance::UntriedByValue {
            let untried_values = stats
                .iter()
                .zip(guide.values)
                .enumerate()
                .filter(|(_, (s, _))| s.visits == 0)
                .map(|(i, (_, &value))| (i, value));
            return argmax_random_ties(untried_values, rng);
        }
        let pick = random_below(rng, untried) as usize;
        return stats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.visits == 0)
            .nth(pick)
            .map_or(0, |(i, _)| i);
    }
    let ln_parent = (parent_visits.max(1) as f32).ln();
    let bias = |i: usize, s: &ActionStats| match guide.guidance {
        Guidance::ProgressiveBias { weight } => {
            progressive_bias(weight, guide.values[i], s.visits, s.mean())
        }
        _ => 0.0,
    };
    let scores = stats
        .iter()
        .enumerate()
        .map(|(i, s)| (i, s.mean() + bonus(ln_parent, s) + bias(i, s)));
    argmax_random_ties(scores, rng)
}

/// The index with the largest value, ties broken at random (reservoir sampling: each of
/// the tied indices ends up chosen with equal odds); 0 for none.
#[inline]
fn argmax_random_ties(values: impl Iterator<Item = (usize, f32)>, rng: &mut FastRng) -> usize {
    let mut best = 0;
    let mut best_value = f32::NEG_INFINITY;
    let mut ties = 0;
    for (i, value) in values {
        if value > best_value {
            best = i;
            best_value = value;
            ties = 1;
        } else if value == best_value {
            // Reservoir sampling: each of the tied actions ends up chosen with equal odds.
            ties += 1;
            if random_below(rng, ties) == 0 {
                best = i;
            }
        }
    }
    best
}

/// The probability with which `rule` plays each action, given one player's root
/// statistics, written into `out`. Deterministic rules put 1 on their choice. With no
/// statistics yet (no simulation), every rule falls back to the uniform strategy.
pub(crate) fn final_distribution(
    rule: FinalMove,
    policy: SimPolicy,
    stats: &[ActionStats],
    out: &mut Vec<f32>,
) {
    out.clear();
    out.resize(stats.len(), 0.0);
    if stats.is_empty() {
        return;
    }
    let chosen = match rule {
        FinalMove::Mix => {
            let use_strategy = matches!(policy, SimPolicy::RegretMatching { .. });
            for (p, s) in out.iter_mut().zip(stats) {
                *p = if use_strategy {
                    s.strategy_sum
                } else {
                    s.visits as f32
                };
            }
            let total: f32 = out.iter().sum();
            if total > 0.0 {
                out.iter_mut().for_each(|p| *p /= total);
            } else {
                out.fill(1.0 / stats.len() as f32);
            }
            return;
        }
        FinalMove::MostVisits | FinalMove::MaxRobust => {
            argmax_by(stats, |s| (s.visits as f32, s.mean()))
        }
        FinalMove::Secure { a } => argmax_by(stats, |s| {
            let lower_bound = if s.visits == 0 {
                f32::NEG_INFINITY
            } else {
                s.mean() - a / (s.visits as f32).sqrt()
            };
            (lower_bound, s.visits as f32)
        }),
    };
    match chosen {
        Some(i) => out[i] = 1.0,
        None => out.fill(1.0 / stats.len() as f32),
    }
}

/// The index with the lexicographically greatest key, or `None` when nothing was visited.
fn argmax_by(stats: &[ActionStats], key: impl Fn(&ActionStats) -> (f32, f32)) -> Option<usize> {
    if stats.iter().all(|s| s.visits == 0) {
        return None;
    }
    let mut best = 0;
    for i in 1..stats.len() {
        if key(&stats[i]) > key(&stats[best]) {
            best = i;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const DUCT: SimPolicy = SimPolicy::DecoupledUct { c: 1.5 };
    const EXP3: SimPolicy = SimPolicy::Exp3 { gamma: 0.3 };
    const RM: SimPolicy = SimPolicy::RegretMatching { gamma: 0.3 };

    fn stats(visits: u32, reward_sum: f32, reward_sq_sum: f32, score: f64) -> ActionStats {
        ActionStats {
            visits,
            reward_sum,
            reward_sq_sum,
            score,
            strategy_sum: 0.0,
        }
    }

    #[test]
    fn exp3_strategy_matches_equation_3() {
        let gamma = 0.3;
        let arms = [
            stats(0, 0.0, 0.0, 6.0),
            stats(0, 0.0, 0.0, 0.0),
            stats(0, 0.0, 0.0, 3.0),
        ];
        let mut sigma = Vec::new();
        exp3_strategy(gamma, &arms, &mut sigma);
        let eta = gamma / 3.0;
        let weights = [
            (eta * 0.0f32).exp(),
            (eta * -6.0f32).exp(),
            (eta * -3.0f32).exp(),
        ];
        let total: f32 = weights.iter().sum();
        for (p, w) in sigma.iter().zip(weights) {
            assert!((p - ((1.0 - gamma) * w / total + gamma / 3.0)).abs() < 1e-6);
        }
        assert!((sigma.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn regret_matching_normalises_positive_regrets() {
        // The paper's example: regrets 8, 5, −4 give P = (8/13, 5/13, 0).
        let arms = [
            stats(0, 0.0, 0.0, 8.0),
            stats(0, 0.0, 0.0, 5.0),
            stats(0, 0.0, 0.0, -4.0),
        ];
        let mut sigma = Vec::new();
        regret_matching_strategy(0.0, &arms, &mut sigma);
        assert_eq!(sigma, vec![8.0 / 13.0, 5.0 / 13.0, 0.0]);
        regret_matching_strategy(0.3, &arms, &mut sigma);
        assert!((sigma[2] - 0.1).abs() < 1e-6);
        assert!((sigma[0] - (0.7 * 8.0 / 13.0 + 0.1)).abs() < 1e-6);
        let no_regret = [stats(0, 0.0, 0.0, -1.0), stats(0, 0.0, 0.0, 0.0)];
        regret_matching_strategy(0.3, &no_regret, &mut sigma);
        assert_eq!(sigma, vec![0.5, 0.5]);
    }

    #[test]
    fn ucb_tries_every_action_before_comparing() {
        let mut arms = [
            stats(5, 5.0, 5.0, 0.0),
            stats(0, 0.0, 0.0, 0.0),
            stats(1, 0.0, 0.0, 0.0),
        ];
        let mut rng = FastRng::seed_from_u64(1);
        let mut sigma = Vec::new();
        assert_eq!(
            DUCT.select(&mut arms, 6, &mut sigma, &mut rng, Guide::NONE),
            (1, 1.0)
        );
    }

    #[test]
    fn ulm_tries_the_best_valued_untried_action_and_pb_biases_the_tried_ones() {
        let mut rng = FastRng::seed_from_u64(1);
        let mut sigma = Vec::new();
        let mut untried = [
            stats(5, 5.0, 5.0, 0.0),
            stats(0, 0.0, 0.0, 0.0),
            stats(0, 0.0, 0.0, 0.0),
        ];
        let values = [0.9, 0.2, 0.7];
        let ulm = Guide {
            guidance: Guidance::UntriedByValue,
            values: &values,
        };
        for _ in 0..10 {
            assert_eq!(DUCT.select(&mut untried, 5, &mut sigma, &mut rng, ulm).0, 2);
        }
        // Arm 0 wins every time, arm 1 never: UCB picks arm 0; a strong enough bias on
        // the losing arm's value turns that round.
        let mut tried = [stats(10, 10.0, 10.0, 0.0), stats(10, 0.0, 0.0, 0.0)];
        let plain = DUCT
            .select(&mut tried, 20, &mut sigma, &mut rng, Guide::NONE)
            .0;
        assert_eq!(plain, 0);
        let favour_loser = [0.0, 1.0];
        let pb = |weight| Guide {
            guidance: Guidance::ProgressiveBias { weight },
            values: &favour_loser,
        };
        assert_eq!(
            DUCT.select(&mut tried, 20, &mut sigma, &mut rng, pb(1.0)).0,
            0
        );
        assert_eq!(
            DUCT.select(&mut tried, 20, &mut sigma, &mut rng, pb(20.0))
                .0,
            1
        );
    }

    #[test]
    fn final_move_rules() {
        let arms = [
            stats(10, 9.0, 0.0, 0.0),
            stats(30, 15.0, 0.0, 0.0),
            stats(0, 0.0, 0.0, 0.0),
        ];
        let mut out = Vec::new();
        for rule in [FinalMove::MostVisits, FinalMove::MaxRobust] {
            final_distribution(rule, DUCT, &arms, &mut out);
            assert_eq!(out, vec![0.0, 1.0, 0.0]);
        }
        final_distribution(FinalMove::Mix, EXP3, &arms, &mut out);
        assert_eq!(out, vec![0.25, 0.75, 0.0]);
        // Secure: 0.9 − 1/√10 ≈ 0.584 beats 0.5 − 1/√30 ≈ 0.317.
        final_distribution(FinalMove::Secure { a: 1.0 }, DUCT, &arms, &mut out);
        assert_eq!(out, vec![1.0, 0.0, 0.0]);
        let mut rm = arms;
        rm[0].strategy_sum = 1.0;
        rm[1].strategy_sum = 3.0;
        rm[2].strategy_sum = 4.0;
        final_distribution(FinalMove::Mix, RM, &rm, &mut out);
        assert_eq!(out, vec![0.125, 0.375, 0.5]);
    }

    #[test]
    fn sampling_follows_the_weights() {
        let mut rng = FastRng::seed_from_u64(7);
        let weights = [1.0, 0.0, 3.0];
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[sample_index(&weights, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        let share = counts[2] as f32 / 40_000.0;
        assert!((share - 0.75).abs() < 0.01, "{share}");
    }
}
