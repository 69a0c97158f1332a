//! Light Riders wired: its options ([`options`]: flags, defaults, help section), its
//! searcher ([`searcher`]: what the options build, and which search plays each move), its
//! player for the engines' protocol ([`player`]), and CodinGame's Tron Battle player
//! ([`battle`], on its own for the one-file CodinGame build).

pub mod battle;
pub mod options;
pub mod player;
pub mod searcher;

pub use options::{TronConfig, TronSearchKind};
pub use player::{plan, Plan, TronPlayer};
pub use searcher::{Choice, Evidence, RootMove, TronSearcher};
