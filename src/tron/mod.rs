//! Light Riders (Tron) rules on bitboards, the space evaluation and the play-outs.
//!
//! - [`grid`]: board geometry and the [`Bitboard`] cell set.
//! - `state`: [`TronState`] (the riddles.io rules) and its `SimGame` implementation;
//!   [`direction`]: [`Direction`] and sets of them.
//! - `engine`: the engine's field, diagrams and pictures of a [`TronState`];
//!   `position_error`: [`PositionError`] (the path written out in [`TronState::new`], so
//!   that the one-file Tron Battle build, which follows paths, carries it).
//! - [`space`]: flood fills, separation, checkerboard bounds, Voronoi, articulation points,
//!   Tree of Chambers, [`space::evaluate`].
//! - [`playout`]: random play-outs with optional cut-offs, the MCTS evaluator.
//! - [`evaluate`]: the static space evaluation (Voronoi, tree of chambers, parity) and
//!   [`alphabeta`]: the position keys and the alpha-beta view of the game.
//! - [`endgame`]: longest-path space filling once the riders are separated.
//! - [`battle`]: CodinGame's Tron Battle (2–4 riders in seat order) and its paranoid
//!   alpha-beta view.

pub mod alphabeta;
pub mod battle;
pub mod codingame;
pub mod direction;
pub mod endgame;
mod engine;
pub mod evaluate;
pub mod grid;
pub mod learned;
pub mod playout;
mod position_error;
pub mod space;
mod state;

pub use direction::{DirSet, DirSetIter, Direction};
pub use engine::{field_has_tron_only_value, parse_tron_answer, TronAnswer};
pub use grid::{Bitboard, Grid};
pub use learned::{Learning, TronPlayout};
pub use playout::{EvalCutoff, Heuristic, PlayoutPolicy};
pub use position_error::PositionError;
pub use state::TronState;
