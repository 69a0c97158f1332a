//! Decoupled MCTS for simultaneous-move games over any [`super::SimGame`].
