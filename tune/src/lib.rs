//! Tools that tune and train what the bot knows, kept out of the bot's build: CMA-ES over
//! the seed's evaluation weights (`tune-eval`), self-play game records for a learned
//! evaluation (`uttt-selfplay`, [`games`]) and the value network's training
//! (`uttt-train`, [`net`]); Light Riders positions labelled with results and the space
//! evaluation's weights fitted to them (`tron-fit`, [`tron_positions`]).

pub mod args;
pub mod games;
pub mod net;
pub mod selfplay;
pub mod symmetry;
pub mod tron_positions;
