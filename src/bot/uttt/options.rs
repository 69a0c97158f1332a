//! The UTTT options: the tree's settings ([`TreeConfig`]), the search's kind, evaluation
//! and play-outs ([`UtttPlay`]) and the engines' end rule, with their flags and their
//! sections of `--help`.

use super::searcher::{UtttPlay, UtttSearchKind, UTTT_SEARCH};
use crate::bot::flags::{
    bad_value, contempt, final_move, numbers, on_off, unknown, Expected, Flag, OptionError, Section,
};
use crate::search::tree::TreeConfig;
use crate::search::FinalMove;
use crate::uttt::evaluate::{EvalKind, Weights};
use crate::uttt::EndRule;
use std::str::FromStr;

/// Everything the UTTT flags set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UtttConfig {
    /// The MCTS tree's settings.
    pub tree: TreeConfig,
    /// The search's kind, evaluation and play-outs.
    pub play: UtttPlay,
    /// How a game the engines' protocol describes ends without a line of small boards
    /// (the protocol does not say; CodinGame's own protocol always counts boards).
    pub end_rule: EndRule,
    /// Whether `--uttt-eval` chose the leaf values; otherwise play-out flags choose
    /// play-outs ([`UtttConfig::settle_leaf_eval`]).
    pub leaf_eval_chosen: bool,
    /// Whether `--uttt-search` chose the search; otherwise CodinGame's protocol plays its
    /// own ([`CODINGAME_SEARCH`]).
    pub search_chosen: bool,
    /// Under CodinGame's protocol, our first turns played at random (`--random-turns`).
    pub random_turns: u32,
    /// Under CodinGame's protocol, the game played through a symmetry picked by the seed
    /// (`--random-symmetry`).
    pub random_symmetry: bool,
}

/// The network's share of a leaf's value over the engines' protocol unless `--uttt-eval`
/// says otherwise: a play-out still sees tactics the network misses, so a blend beats
/// either alone in self-play, and 0.3 beat 0.5 (docs/uttt.md, "UTTT, the value network").
pub const DEFAULT_NETWORK_SHARE: Option<f32> = Some(0.3);

/// The share on CodinGame's 100 ms turns unless `--uttt-eval` says otherwise: the network
/// alone, which runs no play-out, against an outside Legend bot where the blend lost more
/// (docs/uttt.md, "Settings and the clock tried against the Legend bot").
pub const CODINGAME_NETWORK_SHARE: Option<f32> = Some(1.0);

/// The search on CodinGame's 100 ms turns unless `--uttt-search` says otherwise: UCT with
/// minimax backups of the network's values of every child, which against the outside
/// Legend bot scored far above the network's MCTS on games that differ from one another
/// (docs/uttt.md, "UCT with minimax backups against the Legend bot, on games that
/// differ").
pub const CODINGAME_SEARCH: UtttSearchKind = UtttSearchKind::MinimaxUct;

impl Default for UtttConfig {
    fn default() -> Self {
        UtttConfig {
            tree: UTTT_SEARCH,
            play: UtttPlay {
                network: DEFAULT_NETWORK_SHARE,
                ..UtttPlay::default()
            },
            end_rule: EndRule::Draw,
            leaf_eval_chosen: false,
            search_chosen: false,
            random_turns: 0,
            random_symmetry: false,
        }
    }
}

impl UtttConfig {
    /// Play-out flags without `--uttt-eval` ask for play-out leaves (the engines' default
    /// is the blend, which runs none of them); beside `--uttt-eval nn` or `blend:W` they
    /// are refused rather than silently ignored.
    pub fn settle_leaf_eval(&mut self) -> Result<(), OptionError> {
        let playout_flag = [
            (self.play.win_first, "--playout win-first"),
            (self.play.early_termination.is_some(), "--ept"),
            (self.tree.rave.is_some(), "--rave"),
        ]
        .into_iter()
        .find_map(|(set, flag)| set.then_some(flag));
        match (playout_flag, self.play.network) {
            (Some(_), Some(_)) if !self.leaf_eval_chosen => self.play.network = None,
            (Some(flag), Some(_)) => return Err(OptionError::PlayoutsNotRun { flag }),
            _ => {}
        }
        Ok(())
    }

    /// Refuses values the flags cannot take together.
    pub fn validate(&self) -> Result<(), OptionError> {
        let too_small = |flag, least| Err(OptionError::TooSmall { flag, least });
        if self.tree.expand_visits == 0 {
            return too_small("--expand-visits", 1);
        }
        if self.tree.grave_reference > 0 && self.tree.rave.is_none() {
            return Err(OptionError::Conflict("--grave needs --rave"));
        }
        if self.play.depth == Some(0) {
            return too_small("--uttt-depth", 1);
        }
        if self.tree.max_nodes < 100 {
            return too_small("--max-nodes", 100);
        }
        if self.tree.final_move == FinalMove::Mix {
            return Err(OptionError::Conflict(
                "--final mix: the UTTT tree has no mixed strategy",
            ));
        }
        // UCT with minimax backups values every child by the network alone: leaves asked
        // for otherwise (`--uttt-eval playout` or `blend:W`, a play-out flag) would be
        // silently ignored. Its default, the engines' blend, stands for the network.
        let other_leaves = self.play.network.is_none()
            || (self.leaf_eval_chosen && self.play.network != Some(1.0));
        if self.play.search == UtttSearchKind::MinimaxUct {
            if other_leaves {
                return Err(OptionError::Conflict(
                    "--uttt-search minimax-uct values leaves by the network alone (--uttt-eval nn)",
                ));
            }
            if let Some(flags) = self.unused_by_minimax_uct() {
                return Err(OptionError::Conflict(flags));
            }
        }
        Ok(())
    }

    /// The flags set here that UCT with minimax backups does not read (it has its own
    /// tree settings and no alpha-beta), named for an error or a warning; `None` if none.
    pub fn unused_by_minimax_uct(&self) -> Option<&'static str> {
        let defaults = UtttPlay::default();
        if self.tree != UTTT_SEARCH {
            Some(
                "the MCTS tree flags (--c, --expand-visits, --max-nodes, --final, --no-solver, \
                 --prior, --no-prior, --contempt) do not apply to --uttt-search minimax-uct",
            )
        } else if self.play.depth.is_some() || self.play.weights != defaults.weights {
            Some(
                "the alpha-beta flags (--eval, --eval-weights, --uttt-depth) do not apply to \
                 --uttt-search minimax-uct",
            )
        } else {
            None
        }
    }
}

// The names' parsers live with their flags, not beside the types in files the CodinGame
// bundle takes whole.
impl FromStr for UtttSearchKind {
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "mcts" => Ok(UtttSearchKind::Mcts),
            "alphabeta" => Ok(UtttSearchKind::AlphaBeta),
            "minimax-uct" => Ok(UtttSearchKind::MinimaxUct),
            _ => Err(unknown(
                "UTTT search",
                name,
                "mcts, alphabeta or minimax-uct",
            )),
        }
    }
}

impl FromStr for EvalKind {
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        Ok(match name {
            "simple" => EvalKind::Simple,
            "connecting" => EvalKind::Connecting,
            "advanced" => EvalKind::Advanced,
            "comprehensive" => EvalKind::Comprehensive,
            _ => {
                let choices = "simple, connecting, advanced or comprehensive";
                return Err(unknown("evaluation", name, choices));
            }
        })
    }
}

/// `--uttt-eval playout|nn|blend:W`: the network's share of a leaf's value.
pub fn uttt_eval(text: &str) -> Result<Option<f32>, OptionError> {
    let err = || {
        let choices = "playout, nn or blend:W with 0 < W < 1";
        bad_value("--uttt-eval", text, Expected::OneOf(choices))
    };
    match text {
        "playout" => Ok(None),
        "nn" => Ok(Some(1.0)),
        _ => {
            let share: f32 = text
                .strip_prefix("blend:")
                .and_then(|w| w.parse().ok())
                .ok_or_else(err)?;
            if share > 0.0 && share < 1.0 {
                Ok(Some(share))
            } else {
                Err(err())
            }
        }
    }
}

/// `--ept MOVES,BOUND`.
fn early_termination(text: &str) -> Result<(u32, f32), OptionError> {
    let err = || {
        bad_value(
            "--ept",
            text,
            Expected::Form("MOVES,BOUND (such as 50,0.7)"),
        )
    };
    let (moves, bound) = text.split_once(',').ok_or_else(err)?;
    let moves = moves.trim().parse().map_err(|_| err())?;
    let bound: f32 = bound.trim().parse().map_err(|_| err())?;
    if !(bound >= 0.0 && bound.is_finite()) {
        return Err(err());
    }
    Ok((moves, bound))
}

/// `--prior VISITS,BIAS`.
fn prior(text: &str) -> Result<(u32, f32), OptionError> {
    let err = || {
        bad_value(
            "--prior",
            text,
            Expected::Form("VISITS,BIAS (such as 10,0.2)"),
        )
    };
    let (visits, bias) = text.split_once(',').ok_or_else(err)?;
    let visits: u32 = visits.trim().parse().map_err(|_| err())?;
    let bias: f32 = bias.trim().parse().map_err(|_| err())?;
    if visits == 0 || !(0.0..=0.5).contains(&bias) {
        return Err(err());
    }
    Ok((visits, bias))
}

/// `--eval-weights W1,…,W14` (the order of [`Weights::to_vec`]).
fn eval_weights(text: &str) -> Result<Weights, OptionError> {
    let values = numbers::<14>("--eval-weights", text)?;
    Ok(Weights::from_slice(&values).expect("14 numbers are a set of weights"))
}

/// The UTTT flags: the MCTS search's, then alpha-beta's and the evaluation's.
pub const SECTIONS: &[Section<UtttConfig>] = &[
    Section {
        title: "UTTT search (MCTS-UCT):",
        flags: MCTS_FLAGS,
    },
    Section {
        title: "UTTT alpha-beta (Liang 2017's minimax) and the evaluation:",
        flags: ALPHABETA_FLAGS,
    },
];

const MCTS_FLAGS: &[Flag<UtttConfig>] = &[
    Flag {
        name: "--c",
        value: "X",
        needs: "a number",
        help: &["UCT exploration constant, rewards in 0..1 [0.5]"],
        set: |c, v| {
            c.tree.exploration = v.positive()?;
            Ok(())
        },
    },
    Flag {
        name: "--expand-visits",
        value: "N",
        needs: "visits",
        help: &["play-outs a leaf gets before its children are created [16]"],
        set: |c, v| {
            c.tree.expand_visits = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--max-nodes",
        value: "N",
        needs: "nodes",
        help: &[
            "memory bound of the tree in nodes (about 24 bytes each);",
            "when full, search goes on without expanding [4000000]",
        ],
        set: |c, v| {
            c.tree.max_nodes = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--final",
        value: "robust|max-robust|secure",
        needs: "a final-move rule",
        help: &[
            "final move: most visits; most visits and best value,",
            "searching on (up to twice the budget) until both agree;",
            "or the best mean - 1/sqrt(visits) [max-robust]",
        ],
        set: |c, v| {
            c.tree.final_move = final_move(v.text)?;
            Ok(())
        },
    },
    Flag {
        name: "--no-solver",
        value: "",
        needs: "",
        help: &["do not prove wins and losses (MCTS-Solver)"],
        set: |c, _| {
            c.tree.solver = false;
            Ok(())
        },
    },
    Flag {
        name: "--uttt-eval",
        value: "playout|nn|blend:W",
        needs: "playout, nn or blend:W",
        help: &[
            "MCTS leaves valued by play-outs, by the embedded value",
            "network of the game's end rule (src/uttt/nn_weights*.bin,",
            "tune/README.md), or W network and 1-W one play-out",
            "[blend:0.3; nn under CodinGame's protocol]",
        ],
        set: |c, v| {
            c.play.network = uttt_eval(v.text)?;
            c.leaf_eval_chosen = true;
            Ok(())
        },
    },
    Flag {
        name: "--rave",
        value: "R",
        needs: "a number",
        help: &[
            "RAVE with the minimum-MSE schedule's constant R (Liang",
            "2017: 0.1); AMAF values steer selection early [off]",
        ],
        set: |c, v| {
            c.tree.rave = Some(v.positive()?);
            Ok(())
        },
    },
    Flag {
        name: "--grave",
        value: "REF",
        needs: "visits",
        help: &[
            "GRAVE (Cazenave 2015), with --rave: a node with fewer than",
            "REF visits steers by the AMAF values of its nearest",
            "ancestor (same player to move) with REF [off]",
        ],
        set: |c, v| {
            c.tree.grave_reference = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--prior",
        value: "VISITS,BIAS",
        needs: "VISITS,BIAS",
        help: &[
            "heuristic node initialisation: a new node starts with",
            "VISITS visits valued 0.5 + BIAS per tactical point (wins",
            "a small board +1, lets the opponent win one -1, gives it",
            "a free choice -0.5), the network's value in place of 0.5",
            "with --uttt-eval nn|blend; they count towards",
            "--expand-visits [5,0.2; 10,0.2 with the network]",
        ],
        set: |c, v| {
            let (visits, bias) = prior(v.text)?;
            c.tree.prior_visits = visits;
            c.play.prior_bias = Some(bias);
            c.play.network_prior_visits = None;
            Ok(())
        },
    },
    Flag {
        name: "--no-prior",
        value: "",
        needs: "",
        help: &["new nodes start empty"],
        set: |c, _| {
            c.tree.prior_visits = 0;
            c.play.prior_bias = None;
            c.play.network_prior_visits = None;
            Ok(())
        },
    },
    Flag {
        name: "--end-rule",
        value: "draw|boards",
        needs: "draw or boards",
        help: &[
            "UTTT over the engines' protocol: a game without a line of",
            "small boards is a draw (TheAIGames, riddles.io) or goes",
            "to the player with more of them (CodinGame's rule; its",
            "own protocol always plays it) [draw]",
        ],
        set: |c, v| {
            // EndRule's own error is a String: the bundle and the arena parse it too.
            c.end_rule = v
                .text
                .parse()
                .map_err(|_| v.bad(Expected::OneOf("draw or boards")))?;
            Ok(())
        },
    },
    Flag {
        name: "--random-turns",
        value: "N",
        needs: "turns",
        help: &[
            "testing, CodinGame's protocol: the bot's first N turns",
            "answered by a uniformly random valid action (picked by",
            "--seed), so that a series against a deterministic bot",
            "is not the same few games over and over [0]",
        ],
        set: |c, v| {
            c.random_turns = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--random-symmetry",
        value: "",
        needs: "",
        help: &[
            "testing, CodinGame's protocol: the game played through one",
            "of the board's eight symmetries (picked by --seed), the",
            "same play seen from another side, so that a deterministic",
            "bot answers with other lines, without a random move [off]",
        ],
        set: |c, _| {
            c.random_symmetry = true;
            Ok(())
        },
    },
    Flag {
        name: "--contempt",
        value: "X",
        needs: "a number",
        help: &[
            "a draw is worth 0.5-X to the bot and 0.5+X to its",
            "opponent in the search (-0.5..0.5) [0.2]",
        ],
        set: |c, v| {
            c.tree.contempt = contempt("--contempt", v.text)?;
            Ok(())
        },
    },
    Flag {
        name: "--playout",
        value: "random|win-first",
        needs: "a play-out",
        help: &[
            "play-outs: uniformly random moves, or a move that wins",
            "the game at once whenever there is one [random]",
        ],
        set: |c, v| {
            c.play.win_first = match v.text {
                "random" => false,
                "win-first" => true,
                other => return Err(unknown("play-out", other, "random or win-first")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--win-at-once",
        value: "on|off",
        needs: "on or off",
        help: &[
            "MCTS: a position whose player to move can win the game",
            "with one move counts as won, so the solver proves the",
            "move that allowed it lost at once [on]",
        ],
        set: |c, v| {
            c.play.wins_at_once = on_off("--win-at-once", v.text)?;
            Ok(())
        },
    },
    Flag {
        name: "--ept",
        value: "MOVES,BOUND",
        needs: "MOVES,BOUND",
        help: &[
            "early play-out termination: after MOVES play-out moves the",
            "evaluation decides, a draw within +-BOUND (Liang 2017:",
            "50,0.7) [off]",
        ],
        set: |c, v| {
            c.play.early_termination = Some(early_termination(v.text)?);
            Ok(())
        },
    },
];

const ALPHABETA_FLAGS: &[Flag<UtttConfig>] = &[
    Flag {
        name: "--uttt-search",
        value: "mcts|alphabeta|minimax-uct",
        needs: "mcts, alphabeta or minimax-uct",
        help: &[
            "MCTS-UCT, iterative-deepening alpha-beta with a Zobrist",
            "transposition table (timed by Liang 2017's Table 4.1), or",
            "UCT with minimax backups of the network's values [mcts]",
        ],
        set: |c, v| {
            c.play.search = v.parse()?;
            c.search_chosen = true;
            Ok(())
        },
    },
    Flag {
        name: "--uttt-depth",
        value: "N",
        needs: "plies",
        help: &[
            "alpha-beta: search exactly N plies (Liang 2017's minimax",
            "N), the clock allowing [iterative deepening]",
        ],
        set: |c, v| {
            c.play.depth = Some(v.number()?);
            Ok(())
        },
    },
    Flag {
        name: "--eval",
        value: "simple|connecting|advanced|comprehensive",
        needs: "an evaluation",
        help: &[
            "Liang 2017's evaluation for alpha-beta and --ept, with",
            "its CMA-ES-tuned weights [comprehensive]",
        ],
        set: |c, v| {
            let kind: EvalKind = v.parse()?;
            c.play.weights = kind.seed_weights();
            Ok(())
        },
    },
    Flag {
        name: "--eval-weights",
        value: "W1,...,W14",
        needs: "14 weights",
        help: &[
            "the evaluation's weights: won boards (middle, corner, side),",
            "macro two-in-a-row, micro two-in-a-row, then marks by board",
            "class (middle, corner, side) and cell class (tune-eval)",
        ],
        set: |c, v| {
            c.play.weights = eval_weights(v.text)?;
            Ok(())
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Config;

    #[test]
    fn evaluation_names_parse() {
        assert_eq!("advanced".parse::<EvalKind>(), Ok(EvalKind::Advanced));
        assert!("clever".parse::<EvalKind>().is_err());
    }

    #[test]
    fn liang_2017s_uttt_options_parse_and_bad_values_are_refused() {
        let config = Config::from_args(&[
            "--uttt-search",
            "alphabeta",
            "--eval",
            "advanced",
            "--uttt-depth",
            "7",
            "--playout",
            "win-first",
            "--ept",
            "50,0.7",
        ])
        .unwrap();
        let play = config.uttt.play;
        assert_eq!(play.search, UtttSearchKind::AlphaBeta);
        assert_eq!(play.weights, EvalKind::Advanced.seed_weights());
        assert_eq!(play.depth, Some(7));
        assert!(play.win_first);
        assert_eq!(play.early_termination, Some((50, 0.7)));
        let weights = Config::from_args(&["--eval-weights", "1,2,3,4,5,6,7,8,9,10,11,12,13,14"])
            .unwrap()
            .uttt
            .play
            .weights;
        assert_eq!(weights.micro_marks[2], [12.0, 13.0, 14.0]);
        let eval = |text: &str| {
            Config::from_args(&["--uttt-eval", text])
                .unwrap()
                .uttt
                .play
                .network
        };
        assert_eq!(eval("playout"), None);
        assert_eq!(eval("blend:0.3"), Config::default().uttt.play.network);
        assert_eq!(eval("blend:0.5"), Some(0.5));
        assert_eq!(eval("nn"), Some(1.0));
        for minimax in [
            &["--uttt-search", "minimax-uct"][..],
            &["--uttt-search", "minimax-uct", "--uttt-eval", "nn"],
            &["--uttt-search", "minimax-uct", "--threads", "1"],
            // CodinGame's default search is warned of, not refused: threads for the
            // engines' protocol, where UTTT's default is MCTS.
            &["--threads", "2"],
        ] {
            assert!(Config::from_args(minimax).is_ok(), "{minimax:?} refused");
        }
        for args in [
            &["--playout", "win-first"][..],
            &["--ept", "50,0.7"],
            &["--rave", "0.1"],
        ] {
            let config = Config::from_args(args).unwrap();
            assert_eq!(
                config.uttt.play.network, None,
                "{args:?} asks for play-outs"
            );
            let with_blend = [args, &["--uttt-eval", "blend:0.5"]].concat();
            assert!(
                Config::from_args(&with_blend).is_err(),
                "{with_blend:?} accepted"
            );
        }
        for bad in [
            &["--uttt-search", "minimax"][..],
            &["--uttt-search", "minimax-uct", "--uttt-eval", "playout"],
            &["--uttt-search", "minimax-uct", "--uttt-eval", "blend:0.5"],
            &["--uttt-search", "minimax-uct", "--playout", "win-first"],
            &["--uttt-search", "minimax-uct", "--c", "0.7"],
            &["--uttt-search", "minimax-uct", "--uttt-depth", "5"],
            &["--uttt-search", "minimax-uct", "--threads", "2"],
            &["--eval", "clever"],
            &["--eval-weights", "1,2,3"],
            &["--eval-weights", "1,2,3,4,5,6,7,8,9,10,11,12,13,x"],
            &["--uttt-depth", "0"],
            &["--playout", "heavy"],
            &["--win-at-once", "yes"],
            &["--ept", "50"],
            &["--ept", "50,-1"],
            &["--uttt-eval", "blend:1.5"],
            &["--uttt-eval", "blend"],
            &["--uttt-eval", "policy"],
        ] {
            assert!(Config::from_args(bad).is_err(), "{bad:?} accepted");
        }
    }
}
