//! The local engine: referees UTTT and Light Riders games between bot processes, the way
//! the official TheAIGames / riddles.io engines do, and runs tournaments between them.

pub mod json;
pub mod maps;
pub mod process;
pub mod stats;
pub mod timebank;
