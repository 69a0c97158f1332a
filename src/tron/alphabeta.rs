//! Light Riders for alpha-beta: the simultaneous game as alternating plies is
//! [`Sequentialized<TronState>`] (the searching rider commits first, the other replies,
//! then the joint move is played, so reaching the same cell is the draw of the rules).
//! Positions are evaluated between rounds only, by [`super::evaluate`] ([`SpaceEvaluation`]
//! beside them).

use super::evaluate;
use super::grid::splitmix64;
use super::{Direction, TronState};
use crate::game::Player;
use crate::search::alphabeta::{AlphaBetaGame, Evaluate, Score};
use crate::search::Sequentialized;

/// The key of a Light Riders position seen as alternating plies: the Zobrist key of the
/// blocked cells, mixed with both heads, the rider who commits first and its pending
/// half-move.
pub fn position_key(position: &Sequentialized<TronState>) -> u64 {
    let state = position.game();
    let key = state.blocked().zobrist_key();
    let pending = position.pending().map_or(0, |d| 1 + d.index() as u64);
    let mut rest = state.head_index(0) as u64
        | (state.head_index(1) as u64) << 16
        | (position.first() as u64) << 32
        | pending << 36;
    key ^ splitmix64(&mut rest)
}

impl AlphaBetaGame for Sequentialized<TronState> {
    const PLIES_PER_ROUND: u32 = 2;
    const MOVE_SLOTS: usize = 4;

    fn key(&self) -> u64 {
        position_key(self)
    }

    /// Between rounds: no half-move waits for its reply.
    fn is_quiet(&self) -> bool {
        self.pending().is_none()
    }

    /// Separated riders: the game is decided by who can run longer.
    fn settled(&self, player: Player) -> Option<Score> {
        evaluate::settled(self.game(), player)
    }

    fn move_slot(&self, mv: Direction) -> usize {
        mv.index()
    }
}

/// Light Riders' static evaluation for alpha-beta: [`evaluate::evaluate`] (the riders'
/// space and edges) of the position between rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpaceEvaluation;

impl Evaluate<Sequentialized<TronState>> for SpaceEvaluation {
    fn evaluate(&mut self, position: &Sequentialized<TronState>, player: Player) -> Score {
        evaluate::evaluate(position.game(), player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Game;

    #[test]
    fn keys_tell_positions_apart() {
        let start = Sequentialized::new(TronState::light_riders_start(), 0);
        let mut keys = vec![position_key(&start)];
        keys.push(position_key(&Sequentialized::new(
            TronState::light_riders_start(),
            1,
        )));
        for first in Direction::ALL {
            let mut half = start.clone();
            half.play(first);
            keys.push(position_key(&half));
            for reply in Direction::ALL {
                let mut round = half.clone();
                round.play(reply);
                if round.game().outcome().is_none() {
                    keys.push(position_key(&round));
                }
            }
        }
        let distinct: std::collections::HashSet<u64> = keys.iter().copied().collect();
        assert_eq!(distinct.len(), keys.len());
    }

    #[test]
    fn a_position_rebuilt_from_its_engine_field_keeps_its_key() {
        // the bot rebuilds every position from the engine, and finds the table's entries
        // from its last search again
        let mut state = TronState::light_riders_start();
        for (d0, d1) in [
            (Direction::Up, Direction::Down),
            (Direction::Left, Direction::Down),
            (Direction::Left, Direction::Right),
        ] {
            state.step(d0, d1);
        }
        let rebuilt = TronState::from_engine(16, 16, &state.engine_field()).unwrap();
        for first in [0, 1] {
            assert_eq!(
                position_key(&Sequentialized::new(state.clone(), first)),
                position_key(&Sequentialized::new(rebuilt.clone(), first))
            );
        }
    }
}
