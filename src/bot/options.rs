//! The bot's command line (`mctsbot --help`): each flag goes to the part of the bot that
//! owns it (the common options, UTTT's, Light Riders' or Tron Battle's), and `--help` is
//! assembled from their sections. The flags themselves, their defaults and their help
//! live with their owners ([`super::common`], [`super::uttt::options`],
//! [`super::tron::options`], [`super::tron_battle::options`]).

use super::common::{self, CommonConfig};
use super::flags::{self, OptionError, Section};
use super::tron::flags as tron_flags;
use super::tron_battle::{options as battle_options, BattleConfig};
// Re-exported under their old paths for the arena and tune, which name them here.
pub use super::tron::options::{
    CutoffChoice, PlayoutChoice, TronConfig, TronSearchKind, TronSelection, TronVariant,
};
use super::uttt::options as uttt_options;
pub use super::uttt::options::UtttConfig;
pub use super::uttt::searcher::UTTT_SEARCH;
use super::uttt::UtttSearchKind;

/// Everything the bot can be told on its command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The game, protocol, seed, clock overrides, pondering and threads.
    pub common: CommonConfig,
    /// The UTTT search.
    pub uttt: UtttConfig,
    /// The Light Riders search.
    pub tron: TronConfig,
    /// The Tron Battle player.
    pub battle: BattleConfig,
}

/// The top of `--help`: what the program does and its commands.
const HEADER: &str = "\
mctsbot: a Monte-Carlo Tree Search bot for Ultimate Tic-Tac-Toe and Light Riders (Tron).

USAGE:
    mctsbot [OPTIONS]                 play: engine commands on stdin, answers on stdout
    mctsbot bench [--game uttt|tron|tron-battle] [--ms N | --iterations N] [--playouts]
                  [--evaluations] [OPTIONS]
                                      search fixed positions for N ms [1000] or exactly
                                      N iterations (repeatable), one JSON line each;
                                      --playouts: Light Riders once per play-out policy;
                                      --evaluations: Light Riders' alpha-beta, and its
                                      evaluations a second
    mctsbot perft [DEPTH]             UTTT move-generation counts from the empty board
    mctsbot --version                 the version

OPTIONS:
";

/// The bottom of `--help`: the flags `main` answers itself, and the logs.
const FOOTER: &str = "
    -h, --help              this text

Logs go to stderr; set RUST_LOG=debug for more, RUST_LOG=warn for less [info].
";

/// The flags of `bench` (read by `main` before the options): `--help` names them in the
/// header.
pub const BENCH_FLAGS: &[&str] = &["--ms", "--iterations", "--playouts", "--evaluations"];

/// The flags `main` answers before any parsing.
pub const MAIN_FLAGS: &[&str] = &["--help", "--version"];

/// `mctsbot --help`: the header, every section of the common, UTTT and Light Riders
/// flags, and the footer.
pub fn usage() -> String {
    let mut text = HEADER.to_string();
    flags::help(common::SECTIONS, &mut text);
    flags::help(uttt_options::SECTIONS, &mut text);
    flags::help(tron_flags::SECTIONS, &mut text);
    flags::help(battle_options::SECTIONS, &mut text);
    text.push_str(FOOTER);
    text
}

/// Every flag the options parse, in the help's order.
pub fn flag_names() -> Vec<&'static str> {
    flags::names(common::SECTIONS)
        .chain(flags::names(uttt_options::SECTIONS))
        .chain(flags::names(tron_flags::SECTIONS))
        .chain(flags::names(battle_options::SECTIONS))
        .collect()
}

/// Sets `name` in `options` if one of `sections` has it (its value from `args`); `None`
/// when none has.
fn dispatch<'a, C>(
    sections: &[Section<C>],
    options: &mut C,
    name: &str,
    args: &mut impl Iterator<Item = &'a str>,
) -> Option<Result<(), OptionError>> {
    flags::find(sections, name).map(|flag| flag.apply(options, args))
}

impl Config {
    /// Parses the options (without the program name and any subcommand): each flag goes
    /// to the options that own it, then each part checks its values.
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<Config, OptionError> {
        let mut config = Config::default();
        let mut args = args.iter().map(|a| a.as_ref());
        while let Some(name) = args.next() {
            dispatch(common::SECTIONS, &mut config.common, name, &mut args)
                .or_else(|| dispatch(uttt_options::SECTIONS, &mut config.uttt, name, &mut args))
                .or_else(|| dispatch(tron_flags::SECTIONS, &mut config.tron, name, &mut args))
                .or_else(|| {
                    dispatch(
                        battle_options::SECTIONS,
                        &mut config.battle,
                        name,
                        &mut args,
                    )
                })
                .unwrap_or_else(|| Err(OptionError::UnknownFlag(name.to_string())))?;
        }
        config.common.validate()?;
        config.uttt.settle_leaf_eval()?;
        config.uttt.validate()?;
        config.tron.validate()?;
        if config.uttt.search_chosen
            && config.uttt.play.search == UtttSearchKind::MinimaxUct
            && config.common.threads > 1
        {
            return Err(OptionError::Conflict(
                "--threads: --uttt-search minimax-uct runs on one thread",
            ));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;
    use crate::search::FinalMove;

    #[test]
    fn no_options_give_the_defaults() {
        assert_eq!(Config::from_args::<&str>(&[]).unwrap(), Config::default());
    }

    #[test]
    fn options_set_their_fields() {
        let config = Config::from_args(&[
            "--game",
            "uttt",
            "--seed",
            "42",
            "--c",
            "0.7",
            "--final",
            "robust",
            "--no-solver",
            "--max-nodes",
            "1000",
            "--expand-visits",
            "3",
            "--safety-ms",
            "60",
            "--contempt",
            "-0.1",
        ])
        .unwrap();
        assert_eq!(config.common.game, Some(GameKind::Uttt));
        assert_eq!(config.uttt.tree.contempt, -0.1);
        assert_eq!(config.common.seed, Some(42));
        assert_eq!(config.uttt.tree.exploration, 0.7);
        assert_eq!(config.uttt.tree.final_move, FinalMove::MostVisits);
        assert!(!config.uttt.tree.solver);
        assert_eq!(config.uttt.tree.max_nodes, 1000);
        assert_eq!(config.uttt.tree.expand_visits, 3);
        assert_eq!(config.common.safety_margin_ms, Some(60));
        let tron = Config::from_args(&["--game", "lightriders"]).unwrap();
        assert_eq!(tron.common.game, Some(GameKind::LightRiders));
        assert_eq!(
            Config::from_args(&["--game", "auto"]).unwrap().common.game,
            None
        );
    }

    #[test]
    fn each_protocol_plays_its_own_tron_whichever_tron_is_named() {
        let battle = Config::from_args(&["--game", "tron-battle"]).unwrap();
        assert_eq!(battle.common.game, Some(GameKind::TronBattle));
        for game in [GameKind::LightRiders, GameKind::TronBattle] {
            assert_eq!(game.on_engines(), GameKind::LightRiders);
            assert_eq!(game.on_codingame(), GameKind::TronBattle);
        }
        assert_eq!(GameKind::Uttt.on_engines(), GameKind::Uttt);
        assert_eq!(GameKind::Uttt.on_codingame(), GameKind::Uttt);
    }

    #[test]
    fn bad_options_are_explained() {
        for bad in [
            &["--c"][..],
            &["--c", "-1"],
            &["--c", "abc"],
            &["--seed", "x"],
            &["--game", "chess"],
            &["--frobnicate"],
            &["--expand-visits", "0"],
            &["--tron-expand-visits", "0"],
            &["--threads", "0"],
            &["--contempt", "0.6"],
            &["--contempt", "x"],
            &["--final", "best"],
            &["--final", "mix"],
            &["--tron-variant", "suct", "--tron-final", "mix"],
            &["--tron-final", "worst:0.5"],
        ] {
            let err = Config::from_args(bad).unwrap_err();
            assert!(!err.to_string().is_empty(), "{bad:?}");
        }
    }

    #[test]
    fn a_missing_value_is_named() {
        let err = Config::from_args(&["--seed"]).unwrap_err();
        let missing = OptionError::MissingValue {
            flag: "--seed",
            needs: "a number",
        };
        assert_eq!(err, missing);
        assert_eq!(err.to_string(), "--seed needs a number");
        let err = Config::from_args(&["--tron-variant"]).unwrap_err();
        assert_eq!(err.to_string(), "--tron-variant needs a variant");
    }

    #[test]
    fn every_flag_is_owned_once_and_every_flag_in_the_help_is_parsed() {
        let names = flag_names();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} is owned twice");
        }
        let usage = usage();
        for name in &names {
            assert!(
                usage.contains(&format!("    {name}")),
                "{name} not in --help"
            );
        }
        for word in usage.split_whitespace() {
            let Some(flag) = word.strip_prefix("--").map(|f| format!("--{f}")) else {
                continue;
            };
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            if flag.len() <= 2 {
                continue;
            }
            assert!(
                names.contains(&flag) || BENCH_FLAGS.contains(&flag) || MAIN_FLAGS.contains(&flag),
                "--help names {flag}, which no options parse"
            );
        }
    }
}
