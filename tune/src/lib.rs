//! Tools that tune and train what the bot knows, kept out of the bot's build: CMA-ES over
//! the seed's evaluation weights (`tune-eval`), self-play game records for a learned
//! evaluation (`uttt-selfplay`, [`games`]) and the value network's training
//! (`uttt-train`, [`net`]).

pub mod args;
pub mod games;
pub mod net;
pub mod symmetry;
