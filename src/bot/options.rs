//! Command-line options of the bot (`mctsbot --help`). Parsed by hand: a handful of
//! `--flag value` pairs do not justify a dependency on a competition server that builds
//! from source.

use super::tron::TronConfig;
use crate::search::simultaneous::FinalMove as SimFinalMove;
use crate::search::tree::{FinalMove, TreeConfig};
use crate::timeman::TimeControl;

/// Which game the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Detect it from the engine's first lines.
    Auto,
    Uttt,
    Tron,
}

/// Everything the bot can be told on its command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub game: GameChoice,
    /// Seed of the search's random numbers; `None` seeds from the clock.
    pub seed: Option<u64>,
    /// The UTTT search.
    pub tree: TreeConfig,
    /// The Light Riders search.
    pub tron: TronConfig,
    /// Milliseconds kept back from the timebank; `None` keeps each game's default.
    pub safety_margin_ms: Option<u64>,
    /// Our moves over which the timebank surplus is spread; `None` keeps the default.
    pub time_horizon: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            game: GameChoice::Auto,
            seed: None,
            tree: TreeConfig::default(),
            tron: TronConfig::default(),
            safety_margin_ms: None,
            time_horizon: None,
        }
    }
}

pub const USAGE: &str = "\
mctsbot: a Monte-Carlo Tree Search bot for Ultimate Tic-Tac-Toe and Light Riders (Tron).

USAGE:
    mctsbot [OPTIONS]                 play: engine commands on stdin, answers on stdout
    mctsbot bench [--game uttt|tron] [--ms N | --iterations N] [OPTIONS]
                                      search fixed positions for N ms [1000] or exactly
                                      N iterations (repeatable), one JSON line each
    mctsbot perft [DEPTH]             UTTT move-generation counts from the empty board

OPTIONS:
    --game auto|uttt|tron   the game; auto detects it from the engine's lines [auto]
    --seed N                seed of the random numbers, for reproducible games [clock]
    --safety-ms N           milliseconds kept back from the timebank for pipes and
                            scheduling [40 UTTT, 30 Tron]
    --time-horizon N        our moves over which the timebank surplus is spread
                            [30 UTTT, cells/4 Tron]
  UTTT search (MCTS-UCT):
    --c X                   UCT exploration constant, rewards in 0..1 [0.5]
    --expand-visits N       play-outs a leaf gets before its children are created [16]
    --max-nodes N           memory bound of the tree in nodes (about 24 bytes each);
                            when full, search goes on without expanding [4000000]
    --final robust|max-robust
                            final move: most visits, or most visits and best value,
                            searching on (up to twice the budget) until both agree
                            [max-robust]
    --no-solver             do not prove wins and losses (MCTS-Solver)
  Light Riders search:
    --tron-search mcts|alphabeta
                            MCTS with the variant below, or iterative-deepening
                            alpha-beta with the Voronoi / tree-of-chambers space
                            evaluation (the options below are MCTS only) [mcts]
    --tron-variant NAME     suct | suct-tuned | duct-max | duct-mix | ducb1t-max |
                            ducb1t-mix | exp3 | rm: sequential UCT / UCB1-Tuned,
                            decoupled UCT / UCB1-Tuned with max or mix final move,
                            Exp3, Regret Matching (seed 003) [ducb1t-max, the
                            strongest in the arena]
    --tron-c X              exploration constant of the UCB variants
                            [1.5 UCT, 1.0 UCB1-Tuned]
    --tron-gamma X          exploration rate of Exp3 and Regret Matching [0.3]
    --tron-final max|mix|secure
                            final move of the decoupled variants: most visits, sampled
                            from the visits or average strategy, or best v - 1/sqrt(n)
                            [the variant's own]
    --tron-playout random|safe
                            play-out policy: uniform, or avoiding immediate crashes [safe]
    --tron-separation K     every K play-out steps, stop if the riders are separated and
                            decide by space; 0 = never [0]
    --tron-cutoff none|voronoi|chambers
                            end play-outs early by an evaluation (seed 002: Voronoi after
                            20 steps, Tree of Chambers after 15, win threshold 1) [none]
    --tron-pes              Predictive Expansion Strategy: the search treats separated
                            positions with a certain winner as finished [off]
    --tron-max-nodes N      memory bound of the Tron tree in nodes (about 400 bytes
                            each with the decoupled variants, 130 MB) [300000]
    --tron-expand-visits N  visits a (joint) move needs before its node is created [4]
    --no-endgame            keep using MCTS once the riders are separated

    -h, --help              this text

Logs go to stderr; set RUST_LOG=debug for more, RUST_LOG=warn for less [info].
";

impl Config {
    /// The game's time control for the engine's `settings` (10 s bank and
    /// `default_per_move` when not sent), with this configuration's overrides.
    pub fn time_control(
        &self,
        settings: &super::Settings,
        game_default: impl Fn(u64, u64) -> TimeControl,
        default_per_move: u64,
    ) -> TimeControl {
        let mut tc = game_default(
            settings.timebank_ms.unwrap_or(10_000),
            settings.time_per_move_ms.unwrap_or(default_per_move),
        );
        if let Some(ms) = self.safety_margin_ms {
            tc.safety_margin_ms = ms;
        }
        if let Some(moves) = self.time_horizon {
            tc.horizon_moves = moves;
        }
        tc
    }

    /// Parses the options (without the program name and any subcommand).
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<Config, String> {
        let mut config = Config::default();
        let mut args = args.iter().map(|a| a.as_ref());
        while let Some(flag) = args.next() {
            let mut value = |what: &str| {
                args.next()
                    .ok_or_else(|| format!("{flag} needs {what}"))
                    .map(str::to_owned)
            };
            match flag {
                "--game" => {
                    config.game = match value("a game")?.as_str() {
                        "auto" => GameChoice::Auto,
                        "uttt" => GameChoice::Uttt,
                        "tron" | "lightriders" => GameChoice::Tron,
                        other => return Err(format!("unknown game {other:?}")),
                    }
                }
                "--seed" => config.seed = Some(number(flag, &value("a number")?)?),
                "--safety-ms" => config.safety_margin_ms = Some(number(flag, &value("ms")?)?),
                "--time-horizon" => config.time_horizon = Some(number(flag, &value("moves")?)?),
                "--c" => config.tree.exploration = positive(flag, &value("a number")?)?,
                "--expand-visits" => config.tree.expand_visits = number(flag, &value("visits")?)?,
                "--max-nodes" => config.tree.max_nodes = number(flag, &value("nodes")?)?,
                "--final" => {
                    config.tree.final_move = match value("robust or max-robust")?.as_str() {
                        "robust" => FinalMove::Robust,
                        "max-robust" => FinalMove::MaxRobust,
                        other => return Err(format!("unknown final-move rule {other:?}")),
                    }
                }
                "--no-solver" => config.tree.solver = false,
                "--tron-search" => config.tron.search = value("mcts or alphabeta")?.parse()?,
                "--tron-variant" => {
                    config.tron.variant = value("a variant")?.parse()?;
                }
                "--tron-c" => config.tron.exploration = Some(positive(flag, &value("a number")?)?),
                "--tron-gamma" => config.tron.gamma = positive(flag, &value("a number")?)?,
                "--tron-playout" => config.tron.playout = value("a policy")?.parse()?,
                "--tron-cutoff" => config.tron.cutoff = value("an evaluation")?.parse()?,
                "--tron-separation" => {
                    config.tron.separation_check = number(flag, &value("steps")?)?
                }
                "--tron-final" => {
                    config.tron.final_move = Some(match value("max, mix or secure")?.as_str() {
                        "max" => SimFinalMove::Max,
                        "mix" => SimFinalMove::Mix,
                        "secure" => SimFinalMove::Secure { a: 1.0 },
                        other => return Err(format!("unknown final-move rule {other:?}")),
                    })
                }
                "--tron-max-nodes" => config.tron.max_nodes = number(flag, &value("nodes")?)?,
                "--tron-expand-visits" => {
                    config.tron.expand_visits = number(flag, &value("visits")?)?
                }
                "--no-endgame" => config.tron.endgame = false,
                "--tron-pes" => config.tron.predictive_expansion = true,
                other => return Err(format!("unknown option {other:?} (see --help)")),
            }
        }
        if config.tree.expand_visits == 0 || config.tron.expand_visits == 0 {
            return Err("--expand-visits and --tron-expand-visits must be at least 1".into());
        }
        if config.tree.max_nodes < 100 {
            return Err("--max-nodes must be at least 100".into());
        }
        Ok(config)
    }
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} needs a non-negative whole number, got {text:?}"))
}

fn positive(flag: &str, text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{flag} needs a positive number, got {text:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ])
        .unwrap();
        assert_eq!(config.game, GameChoice::Uttt);
        assert_eq!(config.seed, Some(42));
        assert_eq!(config.tree.exploration, 0.7);
        assert_eq!(config.tree.final_move, FinalMove::Robust);
        assert!(!config.tree.solver);
        assert_eq!(config.tree.max_nodes, 1000);
        assert_eq!(config.tree.expand_visits, 3);
        assert_eq!(config.safety_margin_ms, Some(60));
    }

    #[test]
    fn the_tron_search_is_chosen_by_name() {
        use super::super::tron::TronSearchKind;
        assert_eq!(Config::default().tron.search, TronSearchKind::Mcts);
        let config = Config::from_args(&["--tron-search", "alphabeta"]).unwrap();
        assert_eq!(config.tron.search, TronSearchKind::AlphaBeta);
        assert!(Config::from_args(&["--tron-search", "minimax"]).is_err());
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
            &["--final", "best"],
        ] {
            let err = Config::from_args(bad).unwrap_err();
            assert!(!err.is_empty(), "{bad:?}");
        }
    }
}
