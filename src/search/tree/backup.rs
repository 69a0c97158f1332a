//! Back-propagation: each path node's mean (and squared mean for UCB1-Tuned), RAVE's
//! AMAF statistics, and MCTS-Solver's proofs carried up from a proven leaf.

use super::{proof_value, Proof, Tree};
use crate::game::{Outcome, Player};
use crate::search::{reward_for, Evaluator, Game, TreePolicy};

/// MCTS-Solver's proof of a position the rules (or the evaluator) decided, for `mover`,
/// the player who moved into it.
pub(super) fn proof_of(outcome: Outcome, mover: Player) -> Proof {
    match outcome {
        Outcome::Draw => Proof::Draw,
        Outcome::Win(p) if p == mover => Proof::Win,
        Outcome::Win(_) => Proof::Loss,
    }
}

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Tree<G, E> {
    /// The reward for player 0 of a proven node, if it is proven.
    pub(super) fn proven_reward0(&self, node: usize) -> Option<f32> {
        let n = &self.nodes[node];
        // A proof's value is for the mover; as player 0's reward it converts the same way.
        Some(reward_for(n.mover, proof_value(n.proof)?))
    }

    /// RAVE's update after an iteration: from the leaf up, each path node's children
    /// whose move their mover played later in the iteration (below that node in the tree,
    /// or in the play-out: `played`) get the reward in their AMAF statistics.
    pub(super) fn backpropagate_amaf(&mut self, reward0: f32, played: [u128; 2]) {
        let mut seen = played;
        for depth in (0..self.path.len()).rev() {
            let node = self.nodes[self.path[depth] as usize];
            for child in node.children() {
                let c = &self.nodes[child];
                if seen[c.mover as usize & 1] >> G::amaf_slot(c.mv) & 1 == 1 {
                    let reward = reward_for(c.mover, reward0);
                    let amaf = &mut self.amaf[child];
                    amaf.visits += 1;
                    amaf.mean += (reward - amaf.mean) / amaf.visits as f32;
                }
            }
            // The root's own move is fictitious.
            if depth > 0 {
                seen[node.mover as usize & 1] |= 1 << G::amaf_slot(node.mv);
            }
        }
    }

    pub(super) fn backpropagate(&mut self, reward0: f32) {
        let track_squares = self.tracks_squares();
        for &index in &self.path {
            let index = index as usize;
            let node = &mut self.nodes[index];
            node.visits += 1;
            // One division a node: the running means step by 1/n, and 1/√n = √(1/n).
            let step = 1.0 / node.visits as f32;
            let reward = reward_for(node.mover, reward0);
            node.mean = if node.proof == Proof::Loss {
                f32::NEG_INFINITY
            } else {
                node.mean + (reward - node.mean) * step
            };
            node.inv_sqrt_visits = step.sqrt();
            if track_squares {
                let square = &mut self.square_means[index];
                *square += (reward * reward - *square) * step;
            }
        }
    }

    /// MCTS-Solver: after the last node of the path got a proof, walk up proving
    /// ancestors while their children decide them.
    pub(super) fn propagate_proof(&mut self) {
        for depth in (0..self.path.len() - 1).rev() {
            let node = self.path[depth] as usize;
            let proof = self.proof_from_children(node);
            if proof == Proof::Unknown {
                break;
            }
            self.nodes[node].proof = proof;
        }
    }

    /// A node's proof from its children's (whose mover is the node's opponent): lost if
    /// the opponent has a winning reply, won if every reply loses, drawn if every reply is
    /// proven and the best is a draw.
    fn proof_from_children(&self, node: usize) -> Proof {
        let mut all_proven = true;
        let mut any_draw = false;
        for child in self.nodes[node].children() {
            match self.nodes[child].proof {
                Proof::Win => return Proof::Loss,
                Proof::Loss => {}
                Proof::Draw => any_draw = true,
                Proof::Unknown => all_proven = false,
            }
        }
        match (all_proven, any_draw) {
            (false, _) => Proof::Unknown,
            (true, true) => Proof::Draw,
            (true, false) => Proof::Win,
        }
    }
}
