//! Command-line options of the bot (`mctsbot --help`) and the settings they make: the
//! UTTT tree's, and the Light Riders search's with the variants of Lanctot et al. (2013)
//! and the play-outs of Kang (2012). The defaults are the strongest settings measured
//! (the README gives the figures).

use crate::cli::{number, positive};
use crate::search::simultaneous::{SimConfig, SimPolicy};
use crate::search::tree::{Selection, TreeConfig};
use crate::search::{FinalMove, Guidance};
use crate::timeman::TimeControl;
use crate::tron::learned::{Extraction, MoveKnowledge};
use crate::tron::playout::SpaceScore;
use crate::tron::{EvalCutoff, Learning, PlayoutPolicy, TronPlayout, TronState};
use crate::uttt::evaluate::{EvalKind, Weights};
use crate::uttt::search::UtttPlay;
pub use crate::uttt::search::UTTT_SEARCH;
use crate::uttt::EndRule;
use std::str::FromStr;

/// Which game the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Detect it from the engine's first lines.
    Auto,
    Uttt,
    Tron,
}

/// Which protocol the bot speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// CodinGame when the first line is two integers, else the engines'.
    Auto,
    /// TheAIGames / riddles.io (`settings`, `update game`, `action move`).
    Engine,
    /// CodinGame's UTTT (`row col` lines, its end rule and clock).
    CodinGame,
}

/// Everything the bot can be told on its command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub game: GameChoice,
    pub protocol: ProtocolChoice,
    /// Seed of the search's random numbers; `None` seeds from the clock.
    pub seed: Option<u64>,
    /// The UTTT search.
    pub uttt: TreeConfig,
    /// The UTTT search's kind, evaluation and play-outs.
    pub uttt_play: UtttPlay,
    /// The Light Riders search.
    pub tron: TronConfig,
    /// Milliseconds kept back from the timebank; `None` keeps each game's default.
    pub safety_margin_ms: Option<u64>,
    /// Our moves over which the timebank surplus is spread; `None` keeps the default.
    pub time_horizon: Option<u32>,
    /// UTTT search threads, one tree each (root parallelism).
    pub threads: usize,
    /// Search on while the opponent thinks (UTTT).
    pub ponder: bool,
    /// How a UTTT game the engines' protocol describes ends without a line of small
    /// boards (the protocol does not say; CodinGame's own protocol always counts boards).
    pub end_rule: EndRule,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            game: GameChoice::Auto,
            protocol: ProtocolChoice::Auto,
            seed: None,
            uttt: UTTT_SEARCH,
            uttt_play: UtttPlay::default(),
            tron: TronConfig::default(),
            safety_margin_ms: None,
            time_horizon: None,
            threads: 1,
            ponder: false,
            end_rule: EndRule::Draw,
        }
    }
}

/// Weights kept for the rest of the run (options are read once per process).
fn leak(weights: Weights) -> &'static Weights {
    Box::leak(Box::new(weights))
}

/// `--uttt-eval playout|nn|blend:W`: the network's share of a leaf's value.
fn uttt_eval(text: &str) -> Result<Option<f32>, String> {
    let err = || format!("--uttt-eval: playout, nn or blend:W with 0 < W < 1, not {text:?}");
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
fn early_termination(text: &str) -> Result<(u32, f32), String> {
    let err = || format!("--ept needs MOVES,BOUND (such as 50,0.7), not {text:?}");
    let (moves, bound) = text.split_once(',').ok_or_else(err)?;
    let moves = moves.trim().parse().map_err(|_| err())?;
    let bound: f32 = bound.trim().parse().map_err(|_| err())?;
    if !(bound >= 0.0 && bound.is_finite()) {
        return Err(err());
    }
    Ok((moves, bound))
}

/// `--prior VISITS,BIAS`.
fn prior(text: &str) -> Result<(u32, f32), String> {
    let err = || format!("--prior needs VISITS,BIAS (such as 10,0.2), not {text:?}");
    let (visits, bias) = text.split_once(',').ok_or_else(err)?;
    let visits: u32 = visits.trim().parse().map_err(|_| err())?;
    let bias: f32 = bias.trim().parse().map_err(|_| err())?;
    if visits == 0 || !(0.0..=0.5).contains(&bias) {
        return Err(err());
    }
    Ok((visits, bias))
}

/// `--contempt X`: a draw's worth below one half for the bot, in `-0.5..=0.5`.
fn contempt(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(x) if (-0.5..=0.5).contains(&x) => Ok(x),
        _ => Err(format!(
            "--contempt needs a number from -0.5 to 0.5, not {text:?}"
        )),
    }
}

/// `--eval-weights W1,…,W14` (the order of [`Weights::to_vec`]).
fn eval_weights(text: &str) -> Result<Weights, String> {
    let values: Result<Vec<f32>, _> = text.split(',').map(|v| v.trim().parse::<f32>()).collect();
    values
        .ok()
        .filter(|v| v.iter().all(|x| x.is_finite()))
        .and_then(|v| Weights::from_slice(&v))
        .ok_or_else(|| format!("--eval-weights needs 14 comma-separated numbers, not {text:?}"))
}

/// The exploration constant C of UCB1 tuned for Tron (Lanctot et al. 2013, Table 4).
pub const LANCTOT_UCT_C: f32 = 1.5;
/// The exploration rate γ of Exp3 and Regret Matching tuned for Tron (Lanctot et al.
/// 2013, Table 4).
pub const LANCTOT_GAMMA: f32 = 0.3;
/// The N-Gram play-out's ε, Laschet 2012's best (Table 1).
pub const NGRAM_EPSILON: f32 = 0.3;
/// The Light Riders tree's node budget: about 400 bytes a node with the decoupled
/// variants (measured as resident memory), so near 120 MB on a 16x16 board.
pub const TRON_MAX_NODES: usize = 300_000;

/// Which search plays the open Light Riders game (separated riders always go to the
/// endgame filler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronSearchKind {
    /// Monte-Carlo Tree Search with the configured variant.
    Mcts,
    /// Iterative-deepening alpha-beta with the space evaluation.
    AlphaBeta,
}

impl FromStr for TronSearchKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "mcts" => Ok(TronSearchKind::Mcts),
            "alphabeta" => Ok(TronSearchKind::AlphaBeta),
            other => Err(format!("unknown Tron search {other:?}")),
        }
    }
}

/// The Light Riders search variant (Lanctot et al. 2013).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronVariant {
    /// Sequential UCT: we commit first inside the tree.
    SequentialUct,
    /// Sequential UCB1-Tuned.
    SequentialUcb1Tuned,
    DecoupledUctMax,
    DecoupledUctMix,
    DecoupledUcb1TunedMax,
    DecoupledUcb1TunedMix,
    Exp3,
    RegretMatching,
}

impl FromStr for TronVariant {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Ok(match name {
            "suct" => TronVariant::SequentialUct,
            "suct-tuned" => TronVariant::SequentialUcb1Tuned,
            "duct-max" => TronVariant::DecoupledUctMax,
            "duct-mix" => TronVariant::DecoupledUctMix,
            "ducb1t-max" => TronVariant::DecoupledUcb1TunedMax,
            "ducb1t-mix" => TronVariant::DecoupledUcb1TunedMix,
            "exp3" => TronVariant::Exp3,
            "rm" => TronVariant::RegretMatching,
            other => return Err(format!("unknown Tron variant {other:?}")),
        })
    }
}

/// How play-outs choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutChoice {
    Random,
    /// Avoid an immediate crash when a safe move exists.
    Safe,
    /// Learned from earlier play-outs (Laschet 2012), safe moves by default.
    Learned(Learning),
}

impl FromStr for PlayoutChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "random" => Ok(PlayoutChoice::Random),
            "safe" => Ok(PlayoutChoice::Safe),
            "ngram" => Ok(PlayoutChoice::Learned(Learning::NGram)),
            "lgr" => Ok(PlayoutChoice::Learned(Learning::Lgr)),
            "lgrf" => Ok(PlayoutChoice::Learned(Learning::Lgrf)),
            "ngram-lgr" => Ok(PlayoutChoice::Learned(Learning::NGramLgr)),
            other => Err(format!("unknown play-out policy {other:?}")),
        }
    }
}

impl FromStr for Extraction {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "simultaneous" => Ok(Extraction::Simultaneous),
            "sequential" => Ok(Extraction::Sequential),
            other => Err(format!("unknown N-Gram extraction {other:?}")),
        }
    }
}

/// How the Light Riders tree selects among a node's moves (Laschet 2012, Omondi et al.).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronSelection {
    /// Plain UCT (or UCB1-Tuned): untried moves first in the tree's order.
    Uct,
    /// UCT-ULM: untried moves ranked by their N-Gram value.
    Ulm,
    /// Progressive Bias with the N-Gram value, W = [`PROGRESSIVE_BIAS_WEIGHT`].
    ProgressiveBias,
    /// Omondi et al.'s lean-LGRF: the untried move that is the last good reply first.
    LeanLgrf,
}

/// Laschet 2012's Progressive Bias weight W.
pub const PROGRESSIVE_BIAS_WEIGHT: f32 = 10.0;

impl FromStr for TronSelection {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "uct" => Ok(TronSelection::Uct),
            "ulm" => Ok(TronSelection::Ulm),
            "pb" => Ok(TronSelection::ProgressiveBias),
            "lean-lgrf" => Ok(TronSelection::LeanLgrf),
            other => Err(format!("unknown Tron selection {other:?}")),
        }
    }
}

impl TronSelection {
    /// How the tree uses move values.
    pub fn guidance(self) -> Guidance {
        match self {
            TronSelection::Uct => Guidance::Uct,
            TronSelection::Ulm | TronSelection::LeanLgrf => Guidance::UntriedByValue,
            TronSelection::ProgressiveBias => Guidance::ProgressiveBias {
                weight: PROGRESSIVE_BIAS_WEIGHT,
            },
        }
    }

    /// Which move values the play-outs learn for it.
    pub fn knowledge(self) -> Option<MoveKnowledge> {
        match self {
            TronSelection::Uct => None,
            TronSelection::Ulm | TronSelection::ProgressiveBias => Some(MoveKnowledge::NGram),
            TronSelection::LeanLgrf => Some(MoveKnowledge::LastGoodReply),
        }
    }
}

/// The evaluation that may end a play-out early: Kang's (2012) thresholds, or the space
/// evaluation on a logistic curve after a fixed number of rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffChoice {
    None,
    Voronoi,
    TreeOfChambers,
    Space,
}

impl FromStr for CutoffChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "none" => Ok(CutoffChoice::None),
            "voronoi" => Ok(CutoffChoice::Voronoi),
            "chambers" => Ok(CutoffChoice::TreeOfChambers),
            "space" => Ok(CutoffChoice::Space),
            other => Err(format!("unknown play-out cut-off {other:?}")),
        }
    }
}

/// Settings of the Light Riders search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TronConfig {
    pub search: TronSearchKind,
    /// The Monte-Carlo variant (`search` = MCTS).
    pub variant: TronVariant,
    /// Exploration constant of the UCB variants; `None` keeps each one's default
    /// ([`LANCTOT_UCT_C`] for UCT; 1.0 for UCB1-Tuned, whose formula has none).
    pub exploration: Option<f32>,
    /// Exploration rate of Exp3 and Regret Matching.
    pub gamma: f32,
    pub playout: PlayoutChoice,
    pub selection: TronSelection,
    /// The N-Gram play-out's chance of a random safe move (Laschet 2012: 0.3).
    pub epsilon: f32,
    /// How the N-Grams read a play-out's moves as sequences.
    pub ngram_extraction: Extraction,
    /// Every this many play-out steps, end the play-out if the riders are separated
    /// and decide by space (0 = never).
    pub separation_check: u16,
    pub cutoff: CutoffChoice,
    /// The space cut-off: play-out rounds before the evaluation, and its logistic scale.
    pub space_score: SpaceScore,
    /// Overrides the variant's final-move rule.
    pub final_move: Option<FinalMove>,
    /// Switch to the space-filling search once the riders are separated.
    pub endgame: bool,
    /// Predictive Expansion Strategy: certain separated positions count as finished.
    pub predictive_expansion: bool,
    /// Memory bound of the tree in nodes.
    pub max_nodes: usize,
    /// Visits a move (joint move, decoupled) needs before its node is created.
    pub expand_visits: u32,
    /// Hand a Monte-Carlo search over to alpha-beta once at most this percentage of
    /// the board's cells is free (0 = never): the late middle game is tactical.
    pub alphabeta_at_free_percent: u8,
}

impl Default for TronConfig {
    /// Decoupled UCT with the max final move, crash-avoiding moves scored at once by the
    /// space evaluation (the strongest Monte-Carlo setting in the arena, and as strong as
    /// the alpha-beta engine: see the README), nodes created after 4 visits, and the
    /// endgame filler once the riders are separated.
    fn default() -> Self {
        TronConfig {
            search: TronSearchKind::Mcts,
            variant: TronVariant::DecoupledUctMax,
            exploration: None,
            gamma: LANCTOT_GAMMA,
            playout: PlayoutChoice::Safe,
            selection: TronSelection::Uct,
            epsilon: NGRAM_EPSILON,
            ngram_extraction: Extraction::Simultaneous,
            separation_check: 0,
            cutoff: CutoffChoice::Space,
            space_score: SpaceScore {
                steps: 0,
                scale: 400.0,
            },
            final_move: None,
            endgame: true,
            predictive_expansion: false,
            max_nodes: TRON_MAX_NODES,
            expand_visits: 4,
            alphabeta_at_free_percent: 0,
        }
    }
}

impl TronConfig {
    /// The search for `state`: the configured one, or alpha-beta once the board has
    /// filled up to the hand-over point.
    pub fn search_for(&self, state: &TronState) -> TronSearchKind {
        let free = state.free().count() as usize;
        let cells = state.width() * state.height();
        let threshold = usize::from(self.alphabeta_at_free_percent);
        if threshold > 0 && free * 100 <= cells * threshold {
            TronSearchKind::AlphaBeta
        } else {
            self.search
        }
    }

    /// The play-out policy, the search's evaluator, these settings ask for.
    pub fn playout_policy(&self) -> PlayoutPolicy {
        let base = match self.playout {
            PlayoutChoice::Random => PlayoutPolicy::random(),
            PlayoutChoice::Safe | PlayoutChoice::Learned(_) => PlayoutPolicy::avoid_crash(),
        };
        let eval = match self.cutoff {
            CutoffChoice::None | CutoffChoice::Space => None,
            CutoffChoice::Voronoi => Some(EvalCutoff::VORONOI),
            CutoffChoice::TreeOfChambers => Some(EvalCutoff::TREE_OF_CHAMBERS),
        };
        let space = (self.cutoff == CutoffChoice::Space).then_some(self.space_score);
        base.with_separation_check(self.separation_check)
            .with_eval(eval)
            .with_space_score(space)
            .with_predictive_expansion(self.predictive_expansion)
    }

    /// The search's evaluator: [`Self::playout_policy`], with the learned move choice.
    pub fn playout(&self) -> TronPlayout {
        let learning = match self.playout {
            PlayoutChoice::Learned(learning) => Some(learning),
            PlayoutChoice::Random | PlayoutChoice::Safe => None,
        };
        TronPlayout::new(self.playout_policy(), learning, self.epsilon)
            .with_extraction(self.ngram_extraction)
            .with_knowledge(self.selection.knowledge())
    }

    /// The decoupled search settings of a decoupled variant; `None` for a sequential one.
    pub fn sim_config(&self) -> Option<SimConfig> {
        let c = |default: f32| self.exploration.unwrap_or(default);
        let policy = match self.variant {
            TronVariant::SequentialUct | TronVariant::SequentialUcb1Tuned => return None,
            TronVariant::DecoupledUctMax | TronVariant::DecoupledUctMix => {
                SimPolicy::DecoupledUct {
                    c: c(LANCTOT_UCT_C),
                }
            }
            TronVariant::DecoupledUcb1TunedMax | TronVariant::DecoupledUcb1TunedMix => {
                SimPolicy::DecoupledUcb1Tuned { c: c(1.0) }
            }
            TronVariant::Exp3 => SimPolicy::Exp3 { gamma: self.gamma },
            TronVariant::RegretMatching => SimPolicy::RegretMatching { gamma: self.gamma },
        };
        let variant_final = match self.variant {
            TronVariant::DecoupledUctMix | TronVariant::DecoupledUcb1TunedMix => FinalMove::Mix,
            _ => policy.default_final_move(),
        };
        Some(SimConfig {
            policy,
            final_move: self.final_move.unwrap_or(variant_final),
            max_nodes: self.max_nodes,
            expand_visits: self.expand_visits,
            guidance: self.selection.guidance(),
        })
    }

    /// The sequential tree settings (sequential variants).
    pub fn tree_config(&self) -> TreeConfig {
        let selection = match self.variant {
            TronVariant::SequentialUcb1Tuned => Selection::Ucb1Tuned,
            _ => Selection::Ucb1,
        };
        TreeConfig {
            exploration: self.exploration.unwrap_or(match selection {
                Selection::Ucb1 => LANCTOT_UCT_C,
                Selection::Ucb1Tuned => 1.0,
            }),
            selection,
            expand_visits: self.expand_visits,
            max_nodes: self.max_nodes,
            final_move: self.final_move.unwrap_or(FinalMove::MostVisits),
            solver: true,
            rave: None,
            grave_reference: 0,
            prior_visits: 0,
            guidance: self.selection.guidance(),
            contempt: 0.0,
        }
    }
}

/// A final-move rule by its option name.
fn final_move(name: &str) -> Result<FinalMove, String> {
    Ok(match name {
        "robust" | "max" => FinalMove::MostVisits,
        "max-robust" => FinalMove::MaxRobust,
        "mix" => FinalMove::Mix,
        "secure" => FinalMove::Secure { a: 1.0 },
        other => return Err(format!("unknown final-move rule {other:?}")),
    })
}

pub const USAGE: &str = "\
mctsbot: a Monte-Carlo Tree Search bot for Ultimate Tic-Tac-Toe and Light Riders (Tron).

USAGE:
    mctsbot [OPTIONS]                 play: engine commands on stdin, answers on stdout
    mctsbot bench [--game uttt|tron|tron-battle] [--ms N | --iterations N] [--playouts] [OPTIONS]
                                      search fixed positions for N ms [1000] or exactly
                                      N iterations (repeatable), one JSON line each;
                                      --playouts: Light Riders once per play-out policy
    mctsbot perft [DEPTH]             UTTT move-generation counts from the empty board
    mctsbot --version                 the version

OPTIONS:
    --game auto|uttt|tron   the game; auto detects it from the engine's lines [auto]
    --protocol auto|theaigames|codingame
                            the engines' protocol (TheAIGames and riddles.io), or
                            CodinGame's UTTT (its end rule and 100 ms turns) and
                            Tron Battle (2-4 riders in seat order); auto: CodinGame
                            when the first line is two integers, Tron Battle when
                            the second is four (or as --game says) [auto]
    --seed N                seed of the random numbers, for reproducible games [clock]
    --safety-ms N           milliseconds kept back from the timebank for pipes and
                            scheduling [40 UTTT, 30 Tron, 10 CodinGame (at least
                            a tenth of the turn)]
    --time-horizon N        our moves over which the timebank surplus is spread
                            [30 UTTT, cells/8 but at least 32 Tron]
    --ponder                search on while the opponent thinks (where a server allows
                            it), in 2 ms slices between engine lines; Light Riders:
                            the MCTS tree of the round just answered [off]
    --threads N             search threads, one tree each, their root statistics added
                            up (root parallelism: UTTT's MCTS and the decoupled Light
                            Riders variants; memory grows with N) [1]
  UTTT search (MCTS-UCT):
    --c X                   UCT exploration constant, rewards in 0..1 [0.5]
    --expand-visits N       play-outs a leaf gets before its children are created [16]
    --max-nodes N           memory bound of the tree in nodes (about 24 bytes each);
                            when full, search goes on without expanding [4000000]
    --final robust|max-robust|secure
                            final move: most visits; most visits and best value,
                            searching on (up to twice the budget) until both agree;
                            or the best mean - 1/sqrt(visits) [max-robust]
    --no-solver             do not prove wins and losses (MCTS-Solver)
    --uttt-eval playout|nn|blend:W
                            MCTS leaves valued by play-outs, by the embedded value
                            network (src/uttt/nn_weights.bin, tune/README.md), or W
                            network and 1-W one play-out [playout]
    --rave R                RAVE with the minimum-MSE schedule's constant R (Liang
                            2017: 0.1); AMAF values steer selection early [off]
    --grave REF             GRAVE (Cazenave 2015), with --rave: a node with fewer than
                            REF visits steers by the AMAF values of its nearest
                            ancestor (same player to move) with REF [off]
    --prior VISITS,BIAS     heuristic node initialisation: a new node starts with
                            VISITS visits valued 0.5 + BIAS per tactical point (wins
                            a small board +1, lets the opponent win one -1, gives it
                            a free choice -0.5); they count towards
                            --expand-visits [5,0.2]
    --no-prior              new nodes start empty
    --prior-net W           heuristic node initialisation by the embedded network too:
                            a new node's starting value moves by W times the
                            network's value of it for its mover above or below one
                            half (with the prior's VISITS) [off]
    --end-rule draw|boards  UTTT over the engines' protocol: a game without a line of
                            small boards is a draw (TheAIGames, riddles.io) or goes
                            to the player with more of them (CodinGame's rule; its
                            own protocol always plays it) [draw]
    --contempt X            a draw is worth 0.5-X to the bot and 0.5+X to its
                            opponent in the search (-0.5..0.5) [0.2]
    --playout random|win-first
                            play-outs: uniformly random moves, or a move that wins
                            the game at once whenever there is one [random]
    --ept MOVES,BOUND       early play-out termination: after MOVES play-out moves the
                            evaluation decides, a draw within +-BOUND (Liang 2017:
                            50,0.7) [off]
  UTTT alpha-beta (Liang 2017's minimax) and the evaluation:
    --uttt-search mcts|alphabeta
                            MCTS-UCT, or iterative-deepening alpha-beta with a Zobrist
                            transposition table, timed by Liang 2017's Table 4.1
                            [mcts]
    --uttt-depth N          alpha-beta: search exactly N plies (Liang 2017's minimax
                            N), the clock allowing [iterative deepening]
    --eval simple|connecting|advanced|comprehensive
                            Liang 2017's evaluation for alpha-beta and --ept, with
                            its CMA-ES-tuned weights [comprehensive]
    --eval-weights W1,...,W14
                            the evaluation's weights: won boards (middle, corner, side),
                            macro two-in-a-row, micro two-in-a-row, then marks by board
                            class (middle, corner, side) and cell class (tune-eval)
  Light Riders search:
    --tron-search mcts|alphabeta
                            MCTS with the variant below, or iterative-deepening
                            alpha-beta with the Voronoi / tree-of-chambers space
                            evaluation (the options below are MCTS only) [mcts]
    --tron-variant NAME     suct | suct-tuned | duct-max | duct-mix | ducb1t-max |
                            ducb1t-mix | exp3 | rm: sequential UCT / UCB1-Tuned,
                            decoupled UCT / UCB1-Tuned with max or mix final move,
                            Exp3, Regret Matching (Lanctot et al. 2013)
                            [duct-max, the strongest with the space cut-off]
    --tron-c X              exploration constant of the UCB variants
                            [1.5 UCT, 1.0 UCB1-Tuned]
    --tron-gamma X          exploration rate of Exp3 and Regret Matching [0.3]
    --tron-final max|max-robust|mix|secure
                            final move: most visits; most visits and best value,
                            searching on until both agree; sampled from the visits or
                            average strategy (decoupled variants only); or the best
                            mean - 1/sqrt(visits) [the variant's own]
    --tron-playout random|safe|ngram|lgr|lgrf|ngram-lgr
                            play-out policy: uniform, avoiding immediate crashes, or
                            learned from earlier play-outs (Laschet 2012): the best
                            2- and 3-gram reward (epsilon-greedy), the last good reply
                            (LGR-2, then LGR-1), LGR with forgetting, LGR then
                            N-Grams; the learned ones fall back on safe moves [safe]
    --tron-epsilon E        N-Gram play-outs: chance of a random safe move [0.3]
    --tron-ngram-extraction simultaneous|sequential
                            N-Gram sequences: the opponent's move of the round before,
                            or the moves read as one list, rider 0's before rider 1's
                            in each round (Laschet 2012's Table 2) [simultaneous]
    --tron-selection uct|ulm|pb|lean-lgrf
                            tree selection: plain UCT; untried moves by their 2-gram
                            reward (UCT-ULM, Laschet 2012); Progressive Bias with the
                            2-gram reward, W = 10 (Laschet 2012); the untried move
                            that is the last good reply first (lean-LGRF, Omondi et
                            al.). Needs a UCB variant and play-outs [uct]
    --tron-separation K     every K play-out steps, stop if the riders are separated and
                            decide by space; 0 = never [0]
    --tron-cutoff none|voronoi|chambers|space
                            end play-outs early by an evaluation (Kang 2012: Voronoi
                            after 20 steps, Tree of Chambers after 15, win threshold 1;
                            space: the alpha-beta evaluation on a logistic curve after
                            --tron-cutoff-steps rounds) [space]
    --tron-cutoff-steps K   space cut-off: play-out rounds before the evaluation [0]
    --tron-eval-scale S     space cut-off: the evaluation score that makes a 73%
                            reward (1 / (1 + e^-1)) [400]
    --tron-pes              Predictive Expansion Strategy: the search treats separated
                            positions with a certain winner as finished [off]
    --tron-max-nodes N      memory bound of the Tron tree in nodes (about 400 bytes
                            each with the decoupled variants, 130 MB) [300000]
    --tron-expand-visits N  visits a (joint) move needs before its node is created [4]
    --tron-late-alphabeta P hand MCTS over to alpha-beta once at most P% of the
                            board's cells are free; 0 = never [0]
    --no-endgame            keep using MCTS once the riders are separated

    -h, --help              this text

Logs go to stderr; set RUST_LOG=debug for more, RUST_LOG=warn for less [info].
";

impl Config {
    /// `base`, a game's time control for the engine's settings, with this
    /// configuration's overrides.
    pub fn time_control(&self, base: TimeControl) -> TimeControl {
        let mut tc = base;
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
                "--protocol" => {
                    config.protocol = match value("a protocol")?.as_str() {
                        "auto" => ProtocolChoice::Auto,
                        "theaigames" | "riddles" | "engine" => ProtocolChoice::Engine,
                        "codingame" => ProtocolChoice::CodinGame,
                        other => return Err(format!("unknown protocol {other:?}")),
                    }
                }
                "--seed" => config.seed = Some(number(flag, &value("a number")?)?),
                "--safety-ms" => config.safety_margin_ms = Some(number(flag, &value("ms")?)?),
                "--time-horizon" => config.time_horizon = Some(number(flag, &value("moves")?)?),
                "--ponder" => config.ponder = true,
                "--threads" => config.threads = number(flag, &value("threads")?)?,
                "--c" => config.uttt.exploration = positive(flag, &value("a number")?)?,
                "--expand-visits" => config.uttt.expand_visits = number(flag, &value("visits")?)?,
                "--max-nodes" => config.uttt.max_nodes = number(flag, &value("nodes")?)?,
                "--final" => config.uttt.final_move = final_move(&value("a final-move rule")?)?,
                "--no-solver" => config.uttt.solver = false,
                "--rave" => config.uttt.rave = Some(positive(flag, &value("a number")?)?),
                "--grave" => config.uttt.grave_reference = number(flag, &value("visits")?)?,
                "--prior" => {
                    let (visits, bias) = prior(&value("VISITS,BIAS")?)?;
                    config.uttt.prior_visits = visits;
                    config.uttt_play.prior_bias = Some(bias);
                }
                "--contempt" => config.uttt.contempt = contempt(&value("a number")?)?,
                "--end-rule" => config.end_rule = value("draw or boards")?.parse()?,
                "--prior-net" => {
                    config.uttt_play.network_prior = Some(positive(flag, &value("a weight")?)?)
                }
                "--no-prior" => {
                    config.uttt.prior_visits = 0;
                    config.uttt_play.prior_bias = None;
                }
                "--uttt-search" => config.uttt_play.search = value("mcts or alphabeta")?.parse()?,
                "--uttt-eval" => {
                    config.uttt_play.network = uttt_eval(&value("playout, nn or blend:W")?)?
                }
                "--eval" => {
                    let kind: EvalKind = value("an evaluation")?.parse()?;
                    config.uttt_play.weights = leak(kind.seed_weights());
                }
                "--eval-weights" => {
                    config.uttt_play.weights = leak(eval_weights(&value("14 weights")?)?)
                }
                "--uttt-depth" => config.uttt_play.depth = Some(number(flag, &value("plies")?)?),
                "--playout" => {
                    config.uttt_play.win_first = match value("a play-out")?.as_str() {
                        "random" => false,
                        "win-first" => true,
                        other => {
                            return Err(format!("unknown play-out {other:?}: random or win-first"))
                        }
                    }
                }
                "--ept" => {
                    config.uttt_play.early_termination =
                        Some(early_termination(&value("MOVES,BOUND")?)?)
                }
                "--tron-search" => config.tron.search = value("mcts or alphabeta")?.parse()?,
                "--tron-variant" => {
                    config.tron.variant = value("a variant")?.parse()?;
                }
                "--tron-c" => config.tron.exploration = Some(positive(flag, &value("a number")?)?),
                "--tron-gamma" => config.tron.gamma = positive(flag, &value("a number")?)?,
                "--tron-playout" => config.tron.playout = value("a policy")?.parse()?,
                "--tron-selection" => config.tron.selection = value("a selection")?.parse()?,
                "--tron-epsilon" => {
                    let text = value("a probability")?;
                    config.tron.epsilon = text
                        .parse()
                        .ok()
                        .filter(|epsilon: &f32| (0.0..=1.0).contains(epsilon))
                        .ok_or_else(|| format!("--tron-epsilon needs 0 to 1, not {text:?}"))?;
                }
                "--tron-ngram-extraction" => {
                    config.tron.ngram_extraction = value("an extraction")?.parse()?
                }
                "--tron-cutoff" => config.tron.cutoff = value("an evaluation")?.parse()?,
                "--tron-cutoff-steps" => {
                    config.tron.space_score.steps = number(flag, &value("rounds")?)?
                }
                "--tron-eval-scale" => {
                    config.tron.space_score.scale = positive(flag, &value("a score")?)?
                }
                "--tron-separation" => {
                    config.tron.separation_check = number(flag, &value("steps")?)?
                }
                "--tron-final" => {
                    config.tron.final_move = Some(final_move(&value("a final-move rule")?)?)
                }
                "--tron-max-nodes" => config.tron.max_nodes = number(flag, &value("nodes")?)?,
                "--tron-expand-visits" => {
                    config.tron.expand_visits = number(flag, &value("visits")?)?
                }
                "--tron-late-alphabeta" => {
                    config.tron.alphabeta_at_free_percent = number(flag, &value("a percentage")?)?
                }
                "--no-endgame" => config.tron.endgame = false,
                "--tron-pes" => config.tron.predictive_expansion = true,
                other => return Err(format!("unknown option {other:?} (see --help)")),
            }
        }
        if config.uttt.expand_visits == 0 || config.tron.expand_visits == 0 {
            return Err("--expand-visits and --tron-expand-visits must be at least 1".into());
        }
        if config.tron.alphabeta_at_free_percent > 100 {
            return Err("--tron-late-alphabeta is a percentage, at most 100".into());
        }
        if !(1..=256).contains(&config.threads) {
            return Err("--threads must be between 1 and 256".into());
        }
        if config.uttt.grave_reference > 0 && config.uttt.rave.is_none() {
            return Err("--grave needs --rave".into());
        }
        if config.uttt_play.depth == Some(0) {
            return Err("--uttt-depth must be at least 1".into());
        }
        if config.uttt.max_nodes < 100 {
            return Err("--max-nodes must be at least 100".into());
        }
        if config.uttt.final_move == FinalMove::Mix {
            return Err("--final mix: the UTTT tree has no mixed strategy".into());
        }
        if config.tron.selection != TronSelection::Uct {
            if config
                .tron
                .sim_config()
                .is_some_and(|sim| !sim.policy.can_be_guided())
            {
                return Err("--tron-selection needs a UCB --tron-variant (not exp3 or rm)".into());
            }
            let tables_learn =
                config.tron.cutoff != CutoffChoice::Space || config.tron.space_score.steps > 0;
            if !tables_learn {
                return Err(
                    "--tron-selection learns from play-out rounds: use --tron-cutoff \
                    none|voronoi|chambers or --tron-cutoff-steps K"
                        .into(),
                );
            }
        }
        if config.tron.ngram_extraction == Extraction::Sequential
            && config.tron.selection.knowledge() == Some(MoveKnowledge::NGram)
        {
            // The tree's 2-gram is the opponent's head then the move: simultaneous.
            return Err("--tron-selection ulm|pb reads simultaneous N-Grams".into());
        }
        if config.tron.final_move == Some(FinalMove::Mix) && config.tron.sim_config().is_none() {
            return Err("--tron-final mix needs a decoupled --tron-variant".into());
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_uttt_options_parse_and_bad_values_are_refused() {
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
        let play = config.uttt_play;
        assert_eq!(play.search, crate::uttt::search::UtttSearchKind::AlphaBeta);
        assert_eq!(*play.weights, EvalKind::Advanced.seed_weights());
        assert_eq!(play.depth, Some(7));
        assert!(play.win_first);
        assert_eq!(play.early_termination, Some((50, 0.7)));
        let weights = Config::from_args(&["--eval-weights", "1,2,3,4,5,6,7,8,9,10,11,12,13,14"])
            .unwrap()
            .uttt_play
            .weights;
        assert_eq!(weights.micro_marks[2], [12.0, 13.0, 14.0]);
        let eval = |text: &str| {
            Config::from_args(&["--uttt-eval", text])
                .unwrap()
                .uttt_play
                .network
        };
        assert_eq!(eval("playout"), None);
        assert_eq!(eval("nn"), Some(1.0));
        assert_eq!(eval("blend:0.3"), Some(0.3));
        for bad in [
            &["--uttt-search", "minimax"][..],
            &["--eval", "clever"],
            &["--eval-weights", "1,2,3"],
            &["--eval-weights", "1,2,3,4,5,6,7,8,9,10,11,12,13,x"],
            &["--uttt-depth", "0"],
            &["--playout", "heavy"],
            &["--ept", "50"],
            &["--ept", "50,-1"],
            &["--uttt-eval", "blend:1.5"],
            &["--uttt-eval", "blend"],
            &["--uttt-eval", "policy"],
        ] {
            assert!(Config::from_args(bad).is_err(), "{bad:?} accepted");
        }
    }

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
        assert_eq!(config.game, GameChoice::Uttt);
        assert_eq!(config.uttt.contempt, -0.1);
        assert_eq!(config.seed, Some(42));
        assert_eq!(config.uttt.exploration, 0.7);
        assert_eq!(config.uttt.final_move, FinalMove::MostVisits);
        assert!(!config.uttt.solver);
        assert_eq!(config.uttt.max_nodes, 1000);
        assert_eq!(config.uttt.expand_visits, 3);
        assert_eq!(config.safety_margin_ms, Some(60));
    }

    #[test]
    fn the_tron_search_is_chosen_by_name() {
        assert_eq!(Config::default().tron.search, TronSearchKind::Mcts);
        let config = Config::from_args(&["--tron-search", "alphabeta"]).unwrap();
        assert_eq!(config.tron.search, TronSearchKind::AlphaBeta);
        assert!(Config::from_args(&["--tron-search", "minimax"]).is_err());
    }

    #[test]
    fn alphabeta_takes_over_once_the_board_has_filled() {
        // 4x4 board, 16 cells: 2 heads and 6 walls leave 8 free (50%).
        let state = TronState::from_diagram("0###\n...#\n....\n#.1#").unwrap();
        let with = |percent: &str| Config::from_args(&["--tron-late-alphabeta", percent]).unwrap();
        assert_eq!(
            Config::default().tron.search_for(&state),
            TronSearchKind::Mcts
        );
        assert_eq!(with("0").tron.search_for(&state), TronSearchKind::Mcts);
        assert_eq!(with("49").tron.search_for(&state), TronSearchKind::Mcts);
        assert_eq!(
            with("50").tron.search_for(&state),
            TronSearchKind::AlphaBeta
        );
        let start = TronState::light_riders_start();
        assert_eq!(with("99").tron.search_for(&start), TronSearchKind::Mcts);
        assert_eq!(
            with("100").tron.search_for(&start),
            TronSearchKind::AlphaBeta
        );
    }

    #[test]
    fn tron_selections_set_guidance_and_knowledge_and_need_ucb_and_play_outs() {
        let tron = |args: &[&str]| Config::from_args(args).map(|c| c.tron);
        let pb = tron(&["--tron-cutoff", "none", "--tron-selection", "pb"]).unwrap();
        assert_eq!(
            pb.sim_config().unwrap().guidance,
            Guidance::ProgressiveBias { weight: 10.0 }
        );
        assert_eq!(pb.playout().knowledge, Some(MoveKnowledge::NGram));
        let args = ["--tron-variant", "suct", "--tron-cutoff-steps", "3"];
        let lean = tron(&[&args[..], &["--tron-selection", "lean-lgrf"]].concat()).unwrap();
        assert_eq!(lean.tree_config().guidance, Guidance::UntriedByValue);
        assert_eq!(lean.playout().knowledge, Some(MoveKnowledge::LastGoodReply));
        assert_eq!(tron(&[]).unwrap().playout().knowledge, None);
        let exp3 = ["--tron-variant", "exp3", "--tron-cutoff", "none"];
        let err = tron(&[&exp3[..], &["--tron-selection", "ulm"]].concat()).unwrap_err();
        assert!(err.contains("UCB"), "{err}");
        let err = tron(&["--tron-selection", "ulm"]).unwrap_err();
        assert!(err.contains("play-out rounds"), "{err}");
        assert!(tron(&["--tron-selection", "best"]).is_err());
    }

    #[test]
    fn sequential_ngram_extraction_is_set_and_refused_for_the_trees_ngram_selections() {
        let tron = |args: &[&str]| Config::from_args(args).map(|c| c.tron);
        let sequential = ["--tron-ngram-extraction", "sequential"];
        let err = tron(
            &[
                &sequential[..],
                &["--tron-cutoff", "none", "--tron-selection", "pb"],
            ]
            .concat(),
        )
        .unwrap_err();
        assert!(err.contains("simultaneous"), "{err}");
        let playout = tron(&[&sequential[..], &["--tron-playout", "ngram"]].concat())
            .unwrap()
            .playout();
        assert_eq!(playout.extraction, Extraction::Sequential);
        assert!(tron(&["--tron-ngram-extraction", "diagonal"]).is_err());
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
            &["--contempt", "0.6"],
            &["--contempt", "x"],
            &["--final", "best"],
            &["--final", "mix"],
            &["--tron-variant", "suct", "--tron-final", "mix"],
            &["--tron-late-alphabeta", "101"],
        ] {
            let err = Config::from_args(bad).unwrap_err();
            assert!(!err.is_empty(), "{bad:?}");
        }
    }
}
