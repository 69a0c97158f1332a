//! Sequential view of a simultaneous-move game: one player commits first inside the tree.
use super::SimGame;

/// A [`SimGame`] seen as an alternating-move game (seed 003's sequential UCT).
#[derive(Clone, PartialEq)]
pub struct Sequentialized<G: SimGame> {
    pub game: G,
}
