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
use crate::uttt::Board;

/// What the CodinGame player takes of the options besides its search.
pub fn codingame_settings(config: &Config) -> codingame::Settings {
    let seed = config.common.seed_or_clock();
    codingame::Settings {
        seed,
        safety_margin_ms: config
            .common
            .safety_margin_ms
            .unwrap_or(crate::protocol::codingame::SAFETY_MS),
        random_turns: config.uttt.random_turns,
        symmetry: if config.uttt.random_symmetry {
            codingame::symmetry_of_seed(seed)
        } else {
            0
        },
    }
}

/// The UTTT play the options ask for under CodinGame's protocol: unless a leaf flag
/// chose otherwise (`--uttt-eval`, or a play-out flag asking for play-outs), CodinGame's
/// own leaves ([`options::CODINGAME_NETWORK_SHARE`]), and with them its own search
/// ([`options::CODINGAME_SEARCH`]) unless `--uttt-search` chose one.
pub fn codingame_play(config: &Config) -> UtttPlay {
    let mut play = config.uttt.play;
    if !config.uttt.leaf_eval_chosen && play.network.is_some() {
        play.network = options::CODINGAME_NETWORK_SHARE;
        if !config.uttt.search_chosen {
            play.search = options::CODINGAME_SEARCH;
        }
    }
    play
}

/// The search of a position, with a seed, that the options ask for under CodinGame's
/// protocol ([`codingame_play`]).
pub fn codingame_search(config: &Config) -> impl Fn(Board, u64) -> UtttSearch {
    let play = codingame_play(config);
    // The options refuse these beside an explicit `--uttt-search minimax-uct`; here the
    // search is CodinGame's default, and they are said to be idle rather than refused.
    if play.search == UtttSearchKind::MinimaxUct {
        if let Some(flags) = config.uttt.unused_by_minimax_uct() {
            log::warn!("{flags}, CodinGame's default search: add --uttt-search mcts to use them");
        }
        if config.common.threads > 1 {
            log::warn!(
                "--threads: UCT with minimax backups, CodinGame's default search, runs on one \
                 thread: add --uttt-search mcts for root-parallel trees"
            );
        }
    }
    let (tree, threads) = (config.uttt.tree, config.common.threads);
    move |board, seed| UtttSearch::new(tree, &play, threads, board, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_codingame(args: &[&str]) -> UtttPlay {
        codingame_play(&Config::from_args(args).expect("valid flags"))
    }

    #[test]
    fn random_symmetry_sets_the_seeds_symmetry_and_is_off_by_default() {
        let symmetry = |args: &[&str]| {
            codingame_settings(&Config::from_args(args).expect("valid flags")).symmetry
        };
        let picked: std::collections::HashSet<usize> = (0..32)
            .map(|seed| symmetry(&["--seed", &seed.to_string(), "--random-symmetry"]))
            .collect();
        assert!(picked.len() > 1, "{picked:?}");
        for seed in 0..32 {
            let seed = seed.to_string();
            assert_eq!(
                symmetry(&["--seed", &seed, "--random-symmetry"]),
                codingame::symmetry_of_seed(seed.parse().unwrap())
            );
            assert_eq!(symmetry(&["--seed", &seed]), 0);
        }
    }

    #[test]
    fn codingame_takes_its_own_default_leaves_and_search_unless_told() {
        let default = on_codingame(&[]);
        assert_eq!(default.network, options::CODINGAME_NETWORK_SHARE);
        assert_eq!(default.search, options::CODINGAME_SEARCH);
        assert_ne!(
            options::CODINGAME_NETWORK_SHARE,
            options::DEFAULT_NETWORK_SHARE
        );
        assert_ne!(options::CODINGAME_SEARCH, UtttPlay::default().search);
        let blend = on_codingame(&["--uttt-eval", "blend:0.3"]);
        assert_eq!(
            (blend.network, blend.search),
            (Some(0.3), UtttSearchKind::Mcts)
        );
        let mcts = on_codingame(&["--uttt-search", "mcts"]);
        assert_eq!(
            (mcts.network, mcts.search),
            (options::CODINGAME_NETWORK_SHARE, UtttSearchKind::Mcts)
        );
        assert_eq!(on_codingame(&["--uttt-eval", "playout"]).network, None);
        // MCTS's tree and alpha-beta's flags are idle beside CodinGame's default search
        // (it warns of them), and none is by default.
        let idle = |args: &[&str]| {
            Config::from_args(args)
                .expect("valid flags")
                .uttt
                .unused_by_minimax_uct()
        };
        assert_eq!(idle(&[]), None);
        assert!(idle(&["--c", "0.7"]).is_some_and(|m| m.contains("--c")));
        assert!(idle(&["--uttt-depth", "5"]).is_some_and(|m| m.contains("--uttt-depth")));
        // a play-out flag alone asks for play-outs, on CodinGame too
        let playouts = on_codingame(&["--playout", "win-first"]);
        assert_eq!(
            (playouts.network, playouts.search),
            (None, UtttSearchKind::Mcts)
        );
    }
}
