//! The sequential MCTS tree (UCT, MCTS-Solver, tree reuse) over any [`super::Game`].
