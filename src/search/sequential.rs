//! Sequential view of a simultaneous-move game: one player commits first inside the tree.
//!
//! This is the "sequential tree model" of seed 003 (Lanctot et al., Section 2.1), used by
//! sequential UCT in Tron: inside the tree the searching player moves first and the other
//! player answers knowing that move; play-outs stay simultaneous. The searching player
//! thereby assumes the opponent can react to it, which makes its choices safe (Section 5.2).
use std::any::Any;
use std::cell::RefCell;

use super::{random_below, FastRng, Game, SimGame};
use crate::game::{Outcome, Player};

/// A [`SimGame`] seen as an alternating-move [`Game`] (seed 003's sequential UCT):
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

impl<G: SimGame> Game for Sequentialized<G>
where
    G::Move: 'static,
{
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
        self.game.legal_moves(self.to_move(), moves);
    }

    fn play(&mut self, mv: Self::Move) {
        match self.pending {
            None => self.pending = Some(mv),
            Some(first_move) => self.play_with_pending(first_move, mv),
        }
    }

    /// Finishes a half-played step with a uniformly random reply, then runs the game's
    /// own (simultaneous) play-out.
    fn playout(&mut self, rng: &mut FastRng) -> f32 {
        if let Some(first_move) = self.pending {
            let reply = with_move_buffer(|moves: &mut Vec<G::Move>| {
                self.game.legal_moves(self.second(), moves);
                moves[random_below(rng, moves.len() as u32) as usize]
            });
            self.play_with_pending(first_move, reply);
        }
        self.game.playout(rng)
    }
}

thread_local! {
    /// One reusable move list per thread, so that play-outs do not allocate. Type-erased
    /// because a `thread_local` cannot be generic over the move type.
    static MOVE_BUFFER: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's cleared move buffer for move type `M`.
fn with_move_buffer<M: 'static, R>(f: impl FnOnce(&mut Vec<M>) -> R) -> R {
    let mut buffer: Box<Vec<M>> = MOVE_BUFFER
        .with(|cell| cell.borrow_mut().take())
        .and_then(|any| any.downcast().ok())
        .unwrap_or_default();
    buffer.clear();
    let result = f(&mut buffer);
    MOVE_BUFFER.with(|cell| *cell.borrow_mut() = Some(buffer));
    result
}
