//! The search's answer at the root: each player's moves with their statistics, the
//! final-move rule's distribution over them (worst-reply blends included) and the move
//! to play.

use super::arena::ROOT;
use super::policy::{final_distribution, sample_index};
use super::SimSearch;
use crate::game::Player;
use crate::search::{reward_for, Evaluator, FastRng, FinalMove, SimGame, TreePolicy};

/// A reply counts in a worst-reply value once it has this share of the action's visits
/// (as a divisor: 1/50): fewer say little about it.
const REPLY_SHARE_DIVISOR: u32 = 50;

/// What the search knows about one of a player's root moves, for logs and tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootAction<M> {
    pub mv: M,
    pub visits: u32,
    /// The mean reward of this move for the player who makes it.
    pub mean: f32,
    /// The probability that [`SimSearch::best_move`] plays it under the final-move rule.
    pub final_probability: f32,
}

impl<G: SimGame, E: Evaluator<G> + TreePolicy<G>> SimSearch<G, E> {
    /// The root move for `player` under the configured final-move rule (`rng` samples
    /// the mixed strategies). `None` when the root is terminal.
    pub fn best_move(&self, player: Player, rng: &mut FastRng) -> Option<G::Move> {
        let (moves, _) = self.player_actions(ROOT, player);
        if moves.is_empty() {
            return None;
        }
        let mut distribution = Vec::with_capacity(moves.len());
        self.root_distribution(player, &mut distribution);
        Some(moves[sample_index(&distribution, rng)])
    }

    /// `player`'s root moves with their statistics and final-move probabilities.
    pub fn root_actions(&self, player: Player) -> Vec<RootAction<G::Move>> {
        let (moves, stats) = self.player_actions(ROOT, player);
        let mut distribution = Vec::with_capacity(moves.len());
        self.root_distribution(player, &mut distribution);
        moves
            .iter()
            .zip(stats)
            .zip(distribution)
            .map(|((&mv, s), final_probability)| RootAction {
                mv,
                visits: s.visits,
                mean: s.mean(),
                final_probability,
            })
            .collect()
    }

    /// The probability of each of `player`'s root moves under the final-move rule.
    fn root_distribution(&self, player: Player, out: &mut Vec<f32>) {
        let (_, stats) = self.player_actions(ROOT, player);
        let rule = self.config.final_move;
        final_distribution(rule, self.config.policy, stats, out);
        if let FinalMove::WorstReply { weight } = rule {
            self.worst_reply_distribution(player, weight, out);
        }
    }

    /// [`FinalMove::WorstReply`]: the probability of each of `player`'s root moves, from
    /// the blend of its mean and its worst reply's value, among the moves with at least a
    /// tenth of the most visited one's visits: the best blend (ties to more visits).
    /// Unchanged before any visit.
    fn worst_reply_distribution(&self, player: Player, weight: f32, out: &mut [f32]) {
        let (_, stats) = self.player_actions(ROOT, player);
        let Some(most_visits) = stats.iter().map(|s| s.visits).max().filter(|&v| v > 0) else {
            return;
        };
        let candidates: Vec<(f32, u32, usize)> = (0..stats.len())
            .filter(|&a| stats[a].visits * 10 >= most_visits)
            .map(|a| {
                (
                    self.worst_reply_blend(ROOT, player, a, weight),
                    stats[a].visits,
                    a,
                )
            })
            .collect();
        let Some(&(_, _, best)) = candidates
            .iter()
            .max_by(|x, y| (x.0, x.1).partial_cmp(&(y.0, y.1)).unwrap())
        else {
            return;
        };
        out.fill(0.0);
        out[best] = 1.0;
    }

    /// `(1 − weight)` times the mean of `player`'s `action` at `node` plus `weight` times
    /// its [`Self::worst_reply_value`].
    fn worst_reply_blend(&self, node: u32, player: Player, action: usize, weight: f32) -> f32 {
        let mean = self.stats[self.action_range(node, player).start + action].mean();
        (1.0 - weight) * mean + weight * self.worst_reply_value(node, player, action)
    }

    /// `player`'s value of its `action` at `node` after the opponent's reply that leaves
    /// it least, among the replies tried with a 50th of the action's visits, at most the
    /// action's mean (the mean when no reply counts).
    fn worst_reply_value(&self, node: u32, player: Player, action: usize) -> f32 {
        let n = self.nodes[node as usize];
        let stats = self.stats[self.action_range(node, player).start + action];
        if stats.visits == 0 {
            return stats.mean(); // no reply of it has been tried
        }
        let (n0, n1) = (n.n0 as usize, n.n1 as usize);
        let cells = &self.cells[n.cells as usize..][..n0 * n1];
        let replies = if player == 0 { n1 } else { n0 };
        (0..replies)
            .map(|reply| match player {
                0 => cells[action * n1 + reply],
                _ => cells[reply * n1 + action],
            })
            .filter(|cell| cell.visits > 0 && cell.visits * REPLY_SHARE_DIVISOR >= stats.visits)
            .map(|cell| reward_for(player, cell.mean0()))
            .fold(stats.mean(), f32::min)
    }

    /// Whether `player`'s most visited root move also has the best mean (the max-robust
    /// move): while it has not, [`FinalMove::MaxRobust`] asks for more search.
    pub fn max_robust_found(&self, player: Player) -> bool {
        let (_, stats) = self.player_actions(ROOT, player);
        let Some(robust) = stats.iter().max_by(|a, b| {
            (a.visits, a.mean())
                .partial_cmp(&(b.visits, b.mean()))
                .unwrap()
        }) else {
            return true;
        };
        stats
            .iter()
            .filter(|s| s.visits > 0)
            .all(|s| s.mean() <= robust.mean())
    }
}
