//! Ultimate Tic-Tac-Toe wired: its options ([`options`]: flags, defaults, help sections),
//! its searcher ([`searcher`]: MCTS or alpha-beta as the options ask), its player for the
//! engines' protocol ([`player`]), and CodinGame's UTTT player ([`codingame`], which uses
//! nothing else of the bot but the searcher, for the one-file CodinGame build).

pub mod codingame;
pub mod options;
pub mod player;
pub mod searcher;

pub use options::UtttConfig;
pub use player::{new_search, UtttPlayer};
pub use searcher::{UtttPlay, UtttSearch, UtttSearchKind, UTTT_SEARCH};

use crate::bot::Config;

/// What the CodinGame player takes of the options.
pub fn codingame_settings(config: &Config) -> codingame::Settings {
    codingame::Settings {
        tree: config.uttt.tree,
        play: config.uttt.play,
        threads: config.common.threads,
        seed: config.common.seed_or_clock(),
        safety_margin_ms: config
            .common
            .safety_margin_ms
            .unwrap_or(crate::protocol::codingame::SAFETY_MS),
    }
}
