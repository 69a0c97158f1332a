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
    let mut play = config.uttt.play;
    // The default leaves (not play-outs asked for by a play-out flag) are CodinGame's own.
    if !config.uttt.leaf_eval_chosen && play.network.is_some() {
        play.network = options::CODINGAME_NETWORK_SHARE;
    }
    codingame::Settings {
        tree: config.uttt.tree,
        play,
        threads: config.common.threads,
        seed: config.common.seed_or_clock(),
        safety_margin_ms: config
            .common
            .safety_margin_ms
            .unwrap_or(crate::protocol::codingame::SAFETY_MS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn network_on_codingame(args: &[&str]) -> Option<f32> {
        let config = Config::from_args(args).expect("valid flags");
        codingame_settings(&config).play.network
    }

    #[test]
    fn codingame_takes_its_own_default_leaves_unless_told() {
        assert_eq!(network_on_codingame(&[]), options::CODINGAME_NETWORK_SHARE);
        assert_ne!(
            options::CODINGAME_NETWORK_SHARE,
            options::DEFAULT_NETWORK_SHARE
        );
        assert_eq!(
            network_on_codingame(&["--uttt-eval", "blend:0.3"]),
            Some(0.3)
        );
        assert_eq!(network_on_codingame(&["--uttt-eval", "playout"]), None);
        // a play-out flag alone asks for play-outs, on CodinGame too
        assert_eq!(network_on_codingame(&["--playout", "win-first"]), None);
    }
}
