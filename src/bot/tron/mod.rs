//! Light Riders wired: its options ([`options`]: flags, defaults, help section), its
//! searcher ([`searcher`]: what the options build, and which search plays each move), its
//! player for the engines' protocol ([`player`]). CodinGame's Tron Battle is its own
//! player, [`super::tron_battle`].

pub mod options;
pub mod player;
pub mod searcher;

pub use options::{TronConfig, TronSearchKind};
pub use player::{plan, Plan, TronPlayer};
pub use searcher::{Choice, Evidence, RootMove, TronSearcher};
