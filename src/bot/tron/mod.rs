//! Light Riders wired: its options ([`options`]: choices and defaults; [`flags`]: the
//! flags and help section), its searcher ([`searcher`]: what the options build, and which
//! search plays each move) and its player for the engines' protocol ([`player`]). CodinGame's Tron Battle is its own
//! player, [`super::tron_battle`].

pub mod flags;
pub mod options;
pub mod player;
pub mod searcher;

pub use options::{TronConfig, TronSearchKind};
pub use player::{plan, Plan, TronPlayer};
pub use searcher::{Choice, Evidence, RootMove, TronSearcher};
