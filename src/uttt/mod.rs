//! Ultimate Tic-Tac-Toe rules on bitboards, matching the official TheAIGames / riddles.io
//! engine.
//!
//! - [`Move`]: a cell as `board * 9 + cell`, convertible to engine coordinates.
//! - [`Board`]: the position (per-player 9-bit masks per micro board, won and drawn
//!   board masks, the target board, the player to move) and the rules.
//! - [`Board::from_engine`], [`Board::engine_field`], [`Board::engine_macroboard`],
//!   [`detect_dialect`]: the engine's `field` / `macroboard` values in both dialects.
//! - [`perft`]: move-generator check against the reference counts.
//!
//! The play-out ([`RandomPlayout`], the search's evaluator), which dominates search
//! time, runs on its own working copy of the position with table lookups only (see
//! `playout.rs`).

pub mod alphabeta;
mod board;
pub mod codingame;
mod engine;
pub mod evaluate;
pub mod network_children;
pub mod nn;
mod playout;
pub mod prior;
pub mod symmetry;
mod tables;

pub use board::{perft, Board, EndRule, Move};
pub use engine::{
    detect_dialect, empty_token, field_has_uttt_only_value, format_place_move, parse_place_move,
    Dialect, PositionError,
};
pub use network_children::NetworkChildren;
pub use playout::{EarlyTermination, NetworkValue, Playout, RandomPlayout};

use crate::game::{Outcome, Player};
use crate::search::Game;

impl Game for Board {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.turn()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        Board::outcome(self)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.for_each_legal_move(|mv| moves.push(mv));
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    #[inline]
    fn amaf_slot(mv: Move) -> u32 {
        mv.0 as u32
    }
}

#[cfg(test)]
pub(crate) mod tests;
