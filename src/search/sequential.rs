//! Sequential view of a simultaneous-move game: one player commits first inside the tree.
//!
//! This is the "sequential tree model" of Lanctot et al. (2013, Section 2.1), used by
//! sequential UCT in Tron: inside the tree the searching player moves first and the other
//! player answers knowing that move; play-outs stay simultaneous. The searching player
//! thereby assumes the opponent can react to it, which makes its choices safe (Section 5.2).
use super::{random_below, Evaluator, FastRng, Game, SimGame, TreePolicy};
use crate::game::{Outcome, Player};

/// A [`SimGame`] seen as an alternating-move [`Game`] (the sequential UCT of Lanctot et al. 2013):
/// `first` moves, then the other player, then the joint move is played.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequentialized<G: SimGame> {
    game: G,
    first: Player,
    /// `first`'s move, waiting for the other player's.
    pending: Option<G::Move>,
}

impl<G: SimGame> Sequentialized<G> {
    /// `game` with no move pending; `first` (usually the searching player) moves first.
    pub fn new(game: G, first: Player) -> Self {
        debug_assert!(first <= 1);
        Sequentialized {
            game,
            first,
            pending: None,
        }
    }

    /// The simultaneous-move position (before any pending move is applied).
    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn into_game(self) -> G {
        self.game
    }

    /// The player who commits first at every step.
    pub fn first(&self) -> Player {
        self.first
    }

    /// `first`'s move of the current step, if it has been chosen.
    pub fn pending(&self) -> Option<G::Move> {
        self.pending
    }

    fn second(&self) -> Player {
        1 - self.first
    }

    /// Plays `first`'s pending move together with the second player's `reply`.
    fn play_with_pending(&mut self, first_move: G::Move, reply: G::Move) {
        self.pending = None;
        if self.first == 0 {
            self.game.play_joint(first_move, reply);
        } else {
            self.game.play_joint(reply, first_move);
        }
    }
}

impl<G: SimGame> Game for Sequentialized<G> {
    type Move = G::Move;

    fn to_move(&self) -> Player {
        match self.pending {
            None => self.first,
            Some(_) => self.second(),
        }
    }

    /// Only between steps: a step with a pending move is never over.
    fn outcome(&self) -> Option<Outcome> {
        match self.pending {
            None => self.game.outcome(),
            Some(_) => None,
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        moves.extend(self.game.legal_moves(self.to_move()));
    }

    fn play(&mut self, mv: Self::Move) {
        match self.pending {
            None => self.pending = Some(mv),
            Some(first_move) => self.play_with_pending(first_move, mv),
        }
    }
}

/// The [`Evaluator`] of a [`Sequentialized`] game from the evaluator `E` of the
/// simultaneous one: a half-played step is finished with a uniformly random reply, then
/// `E` values the position (play-outs stay simultaneous).
#[derive(Clone, Debug, PartialEq)]
pub struct SequentialEvaluator<E>(pub E);

impl<G: SimGame, E: TreePolicy<G>> TreePolicy<Sequentialized<G>> for SequentialEvaluator<E> {
    /// Both players' moves of a step are valued in the position before it.
    fn move_value(
        &self,
        state: &Sequentialized<G>,
        mv: <Sequentialized<G> as Game>::Move,
    ) -> Option<f32> {
        self.0.sim_move_value(&state.game, state.to_move(), mv)
    }
}

impl<G: SimGame, E: Evaluator<G>> Evaluator<Sequentialized<G>> for SequentialEvaluator<E> {
    /// Only between steps: a step with a pending move is never over.
    #[inline]
    fn certain_outcome(&self, state: &Sequentialized<G>) -> Option<Outcome> {
        match state.pending {
            None => self.0.certain_outcome(&state.game),
            Some(_) => None,
        }
    }

    fn evaluate(&mut self, state: &mut Sequentialized<G>, rng: &mut FastRng) -> f32 {
        if let Some(first_move) = state.pending {
            let mut replies = state.game.legal_moves(state.second()).into_iter();
            let pick = random_below(rng, replies.len() as u32) as usize;
            let reply = replies
                .nth(pick)
                .expect("a player who has to move has a move");
            state.play_with_pending(first_move, reply);
        }
        self.0.evaluate(&mut state.game, rng)
    }
}
