//! The network as [`MinimaxUct`](crate::search::minimax_uct::MinimaxUct)'s evaluation:
//! all children of a node valued from the node's own first-layer sums, a few rows added
//! or removed per child ([`nn::child_accumulator`]) instead of some forty from scratch.

use super::board::certain_win;
use super::nn;
use super::Board;
use crate::game::Outcome;
use crate::search::minimax_uct::{ChildValues, MinimaxConfig};

/// UCT with minimax backups over the network: C = 0.5 as the tree's UCT, an unvisited
/// child's exploration term 0.4, 8 million nodes of 16 bytes (the kept subtree is
/// copied to the front at each turn, so a game never holds more).
pub const MINIMAX_UCT: MinimaxConfig = MinimaxConfig {
    exploration: 0.5,
    first_play_urgency: 0.4,
    max_nodes: 8_000_000,
};

/// The embedded network's values of a node's children (the network of their end rule).
#[derive(Clone, Copy, Debug)]
pub struct NetworkChildren {
    /// A position whose mover can win at once counts as won for it
    /// ([`Board::mover_wins_at_once`]).
    pub wins_at_once: bool,
}

impl NetworkChildren {
    pub fn new(wins_at_once: bool) -> Self {
        NetworkChildren { wins_at_once }
    }
}

impl ChildValues<Board> for NetworkChildren {
    fn value_children(&mut self, parent: &Board, children: &[Board], values: &mut [f32]) {
        // The children's player to move is the parent's mover's opponent: the parent's
        // sums as that player sees it, then each child's from them.
        let net = nn::embedded(parent.end_rule);
        let parent_sums = nn::accumulator_for(net, parent, 1 - parent.turn());
        for (child, value) in children.iter().zip(values) {
            let sums = nn::child_accumulator(net, parent, &parent_sums, child);
            *value = 1.0 - net.value(&sums);
        }
    }

    fn certain_outcome(&self, state: &Board) -> Option<Outcome> {
        certain_win(state, self.wins_at_once)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{seeded_position, Game};
    use crate::uttt::EndRule;

    #[test]
    fn each_child_is_valued_as_the_network_values_it_from_scratch() {
        let mut values = NetworkChildren::new(false);
        for seed in 0..20 {
            // Both end rules: each values with its own network.
            let rule = [EndRule::Draw, EndRule::MoreBoards][seed as usize % 2];
            let parent = seeded_position(Board::with_end_rule(rule), (seed % 30) as usize, seed);
            if parent.outcome().is_some() {
                continue;
            }
            let mut moves = Vec::new();
            parent.legal_moves(&mut moves);
            let children: Vec<Board> = moves
                .iter()
                .map(|&mv| {
                    let mut child = parent;
                    child.play(mv);
                    child
                })
                .filter(|child| child.outcome().is_none())
                .collect();
            let mut got = vec![0.0; children.len()];
            values.value_children(&parent, &children, &mut got);
            for (child, &value) in children.iter().zip(&got) {
                let fresh = 1.0 - nn::value_of(child);
                assert!((value - fresh).abs() < 1e-6, "{value} against {fresh}");
            }
        }
    }
}
