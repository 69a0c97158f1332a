//! The local engine: referees UTTT and Light Riders games between bot processes, the way
//! the official TheAIGames / riddles.io engines do, and runs tournaments between them.

pub mod cli;
pub mod game;
pub mod json;
pub mod maps;
pub mod process;
pub mod series;
pub mod stats;
pub mod timebank;
