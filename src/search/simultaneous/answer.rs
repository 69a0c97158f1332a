//! The search's answer at the root: each player's moves with their statistics, the
//! final-move rule's distribution over them and the move to play.

use super::arena::ROOT;
use super::policy::{final_distribution, sample_index};
use super::SimSearch;
use crate::game::Player;
use crate::search::{Evaluator, FastRng, SimGame, TreePolicy};

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
        final_distribution(self.config.final_move, self.config.policy, stats, out);
    }

    /// Whether `player`'s most visited root move also has the best mean (the max-robust
    /// move): while it has not, [`crate::search::FinalMove::MaxRobust`] asks for more
    /// search.
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
