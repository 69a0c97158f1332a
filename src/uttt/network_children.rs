//! The network as [`MinimaxUct`](crate::search::minimax_uct::MinimaxUct)'s evaluation:
//! all children of a node valued from the node's own first-layer sums, a few rows added
//! or removed per child ([`nn::child_accumulator`]) instead of some forty from scratch.

use super::nn::{self, QuantizedNet};
use super::playout::certain_win;
use super::Board;
use crate::game::Outcome;
use crate::search::minimax_uct::ChildValues;

/// The embedded network's values of a node's children.
#[derive(Clone, Copy)]
pub struct NetworkChildren {
    net: &'static QuantizedNet,
    /// A position whose mover can win at once counts as won for it
    /// ([`Board::mover_wins_at_once`]).
    pub wins_at_once: bool,
    /// Until this ply, a move that sends the opponent to a closed board (a free choice of
    /// board) is left out, unless every move does; 0: never.
    pub free_choice_plies: u32,
    /// Until this ply, sent to an empty board, the mover plays only the cell that sends
    /// the opponent back to the same board; 0: never.
    pub same_board_plies: u32,
}

impl NetworkChildren {
    pub fn new(wins_at_once: bool, free_choice_plies: u32) -> Self {
        NetworkChildren {
            net: nn::embedded(),
            wins_at_once,
            free_choice_plies,
            same_board_plies: 0,
        }
    }
}

impl std::fmt::Debug for NetworkChildren {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkChildren")
            .field("wins_at_once", &self.wins_at_once)
            .field("free_choice_plies", &self.free_choice_plies)
            .field("same_board_plies", &self.same_board_plies)
            .finish()
    }
}

impl ChildValues<Board> for NetworkChildren {
    fn value_children(&mut self, parent: &Board, children: &[Board], values: &mut [f32]) {
        // The children's player to move is the parent's mover's opponent: the parent's
        // sums as that player sees it, then each child's from them.
        let parent_sums = nn::accumulator_for(self.net, parent, 1 - parent.turn());
        for (child, value) in children.iter().zip(values) {
            let sums = nn::child_accumulator(self.net, parent, &parent_sums, child);
            *value = 1.0 - self.net.value(&sums);
        }
    }

    fn certain_outcome(&self, state: &Board) -> Option<Outcome> {
        certain_win(state, self.wins_at_once)
    }

    fn prunes(&self, parent: &Board, child: &Board) -> bool {
        let ply = parent.ply();
        let sent_to_empty = parent
            .target()
            .is_some_and(|b| parent.marks[0][b as usize] | parent.marks[1][b as usize] == 0);
        (ply < self.free_choice_plies && child.target().is_none())
            || (ply < self.same_board_plies && sent_to_empty && child.target() != parent.target())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{seeded_position, Game};

    #[test]
    fn each_child_is_valued_as_the_network_values_it_from_scratch() {
        let mut values = NetworkChildren::new(false, 0);
        for seed in 0..20 {
            let parent = seeded_position(Board::new(), (seed % 30) as usize, seed);
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
