//! The Light Riders options: the search's kind, the variants of Lanctot et al. (2013),
//! the play-outs and cut-offs of Kang (2012), the learned play-outs and selections of
//! Laschet 2012 and Omondi et al., and the settings they make ([`TronConfig`]); their
//! flags and section of `--help` are [`super::flags`]. The defaults are the strongest
//! settings measured (the README gives the figures).

use crate::bot::flags::{unknown, OptionError};
use crate::game::Player;
use crate::search::simultaneous::{SimConfig, SimPolicy};
use crate::search::tree::{Selection, TreeConfig};
use crate::search::{Contempt, FinalMove, Guidance};
use crate::tron::learned::{Extraction, MoveKnowledge};
use crate::tron::playout::{SpaceScore, DEFAULT_SPACE_WEIGHTS};
use crate::tron::{EvalCutoff, Learning, PlayoutPolicy, TronPlayout};
use std::str::FromStr;

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
/// What a draw costs the bot in the Light Riders Monte-Carlo searches (issue 34): 0.4
/// for it, 0.6 for its opponent, so that it plays on for a win on symmetric boards.
pub const LIGHT_RIDERS_CONTEMPT: f32 = 0.1;
/// The Light Riders search answers once its move would stand even if all the iterations
/// left went to the runner-up (issue 34): the time saved goes to the undecided moves.
pub const LIGHT_RIDERS_EARLY_STOP: f32 = 1.0;
/// The share of the bank a round with the heads side by side is searched for (stop 91):
/// the first meeting's turn is a near-tie that the early answer's 170 ms left to chance
/// against alcides, and a search of seconds settles.
pub const LIGHT_RIDERS_SIDE_BY_SIDE: f32 = 0.25;

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
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "mcts" => Ok(TronSearchKind::Mcts),
            "alphabeta" => Ok(TronSearchKind::AlphaBeta),
            other => Err(unknown("Tron search", other, "")),
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
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        Ok(match name {
            "suct" => TronVariant::SequentialUct,
            "suct-tuned" => TronVariant::SequentialUcb1Tuned,
            "duct-max" => TronVariant::DecoupledUctMax,
            "duct-mix" => TronVariant::DecoupledUctMix,
            "ducb1t-max" => TronVariant::DecoupledUcb1TunedMax,
            "ducb1t-mix" => TronVariant::DecoupledUcb1TunedMix,
            "exp3" => TronVariant::Exp3,
            "rm" => TronVariant::RegretMatching,
            other => return Err(unknown("Tron variant", other, "")),
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
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "random" => Ok(PlayoutChoice::Random),
            "safe" => Ok(PlayoutChoice::Safe),
            "ngram" => Ok(PlayoutChoice::Learned(Learning::NGram)),
            "lgr" => Ok(PlayoutChoice::Learned(Learning::Lgr)),
            "lgrf" => Ok(PlayoutChoice::Learned(Learning::Lgrf)),
            "ngram-lgr" => Ok(PlayoutChoice::Learned(Learning::NGramLgr)),
            other => Err(unknown("play-out policy", other, "")),
        }
    }
}

impl FromStr for Extraction {
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "simultaneous" => Ok(Extraction::Simultaneous),
            "sequential" => Ok(Extraction::Sequential),
            other => Err(unknown("N-Gram extraction", other, "")),
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
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "uct" => Ok(TronSelection::Uct),
            "ulm" => Ok(TronSelection::Ulm),
            "pb" => Ok(TronSelection::ProgressiveBias),
            "lean-lgrf" => Ok(TronSelection::LeanLgrf),
            other => Err(unknown("Tron selection", other, "")),
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
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "none" => Ok(CutoffChoice::None),
            "voronoi" => Ok(CutoffChoice::Voronoi),
            "chambers" => Ok(CutoffChoice::TreeOfChambers),
            "space" => Ok(CutoffChoice::Space),
            other => Err(unknown("play-out cut-off", other, "")),
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
    /// A draw is worth 0.5 − contempt to the bot in the Monte-Carlo searches (a
    /// head-on crash, or separated riders with equal space).
    pub contempt: f32,
    /// Answer before the budget's target once the decoupled search's move would stand
    /// even if this share of the iterations left went to the runner-up (0 = never):
    /// the time stays in the bank for undecided moves.
    pub early_stop: f32,
    /// A round whose heads are side by side (one cell apart) is searched for this share
    /// of the usable bank, never less than its budget, with no early answer (0 = no
    /// such round): the first meeting decides most games.
    pub side_by_side: f32,
}

impl Default for TronConfig {
    /// Decoupled UCB1-Tuned with the most visited move played (the strongest setting
    /// against the outside riddles.io bots: docs/light-riders.md), crash-avoiding moves
    /// scored at once by the space evaluation, nodes created after 4 visits, a contempt
    /// for draws ([`LIGHT_RIDERS_CONTEMPT`]), an answer as soon as the move is decided
    /// ([`LIGHT_RIDERS_EARLY_STOP`]) but a quarter of the bank for a round with the
    /// heads side by side ([`LIGHT_RIDERS_SIDE_BY_SIDE`]), and the endgame filler once
    /// the riders are separated.
    fn default() -> Self {
        TronConfig {
            search: TronSearchKind::Mcts,
            variant: TronVariant::DecoupledUcb1TunedMax,
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
                weights: DEFAULT_SPACE_WEIGHTS,
                contempt: Contempt::NONE,
            },
            final_move: None,
            endgame: true,
            predictive_expansion: false,
            max_nodes: TRON_MAX_NODES,
            expand_visits: 4,
            contempt: LIGHT_RIDERS_CONTEMPT,
            early_stop: LIGHT_RIDERS_EARLY_STOP,
            side_by_side: LIGHT_RIDERS_SIDE_BY_SIDE,
        }
    }
}

impl TronConfig {
    /// These settings for a search that plays for rider `me`: the contempt for draws
    /// turned into player 0's reward for a draw, where the evaluation and the decoupled
    /// search read it.
    pub fn for_rider(&self, me: Player) -> TronConfig {
        let mut config = *self;
        config.space_score.contempt = Contempt::new(self.contempt, me);
        config
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
            contempt: self.space_score.contempt,
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
            contempt: self.contempt,
        }
    }

    /// Refuses values the flags cannot take together.
    pub fn validate(&self) -> Result<(), OptionError> {
        if self.expand_visits == 0 {
            return Err(OptionError::TooSmall {
                flag: "--tron-expand-visits",
                least: 1,
            });
        }
        if self.selection != TronSelection::Uct {
            if self
                .sim_config()
                .is_some_and(|sim| !sim.policy.can_be_guided())
            {
                return Err(OptionError::Conflict(
                    "--tron-selection needs a UCB --tron-variant (not exp3 or rm)",
                ));
            }
            let tables_learn = self.cutoff != CutoffChoice::Space || self.space_score.steps > 0;
            if !tables_learn {
                return Err(OptionError::Conflict(
                    "--tron-selection learns from play-out rounds: use --tron-cutoff \
                    none|voronoi|chambers or --tron-cutoff-steps K",
                ));
            }
        }
        if self.ngram_extraction == Extraction::Sequential
            && self.selection.knowledge() == Some(MoveKnowledge::NGram)
        {
            // The tree's 2-gram is the opponent's head then the move: simultaneous.
            return Err(OptionError::Conflict(
                "--tron-selection ulm|pb reads simultaneous N-Grams",
            ));
        }
        if self.final_move == Some(FinalMove::Mix) && self.sim_config().is_none() {
            return Err(OptionError::Conflict(
                "--tron-final mix needs a decoupled --tron-variant",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Config;

    #[test]
    fn the_tron_search_is_chosen_by_name() {
        assert_eq!(Config::default().tron.search, TronSearchKind::Mcts);
        let config = Config::from_args(&["--tron-search", "alphabeta"]).unwrap();
        assert_eq!(config.tron.search, TronSearchKind::AlphaBeta);
        assert!(Config::from_args(&["--tron-search", "minimax"]).is_err());
    }

    #[test]
    fn the_early_stop_is_a_share_from_0_to_1() {
        let share =
            |text| Config::from_args(&["--tron-early-stop", text]).map(|c| c.tron.early_stop);
        assert_eq!(Config::default().tron.early_stop, LIGHT_RIDERS_EARLY_STOP);
        assert_eq!(share("0.5"), Ok(0.5));
        let err = share("1.5").unwrap_err().to_string();
        assert!(err.contains("--tron-early-stop"), "{err}");
    }

    #[test]
    fn the_side_by_side_time_is_a_share_from_0_to_1() {
        let share =
            |text| Config::from_args(&["--tron-side-by-side", text]).map(|c| c.tron.side_by_side);
        assert_eq!(
            Config::default().tron.side_by_side,
            LIGHT_RIDERS_SIDE_BY_SIDE
        );
        assert_eq!(share("0"), Ok(0.0));
        assert_eq!(share("0.5"), Ok(0.5));
        let err = share("1.5").unwrap_err().to_string();
        assert!(err.contains("--tron-side-by-side"), "{err}");
    }

    #[test]
    fn contempt_is_a_draws_reward_for_player_0_seen_from_the_rider_searched_for() {
        let tron = Config::from_args(&["--tron-contempt", "0.2"]).unwrap().tron;
        for (me, draw_reward0) in [(0, 0.3), (1, 0.7)] {
            let config = tron.for_rider(me);
            assert!((config.space_score.contempt.draw_reward0() - draw_reward0).abs() < 1e-6);
            assert_eq!(
                config.sim_config().unwrap().contempt,
                config.space_score.contempt
            );
            assert_eq!(config.tree_config().contempt, 0.2);
        }
        let by_default = Config::default().tron.for_rider(1);
        assert!((by_default.space_score.contempt.draw_reward0() - 0.6).abs() < 1e-6);
        let none = Config::from_args(&["--tron-contempt", "0"]).unwrap().tron;
        assert_eq!(none.for_rider(1).space_score.contempt, Contempt::NONE);
        let err = Config::from_args(&["--tron-contempt", "0.7"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("--tron-contempt"), "{err}");
    }

    #[test]
    fn the_max_variants_play_the_most_visited_move_unless_a_flag_sets_another() {
        let final_of = |args: &[&str]| {
            let config = Config::from_args(args).unwrap().tron;
            config.sim_config().map(|sim| sim.final_move)
        };
        // The default, decoupled UCB1-Tuned, plays the most visited move.
        assert_eq!(final_of(&[]), Some(FinalMove::MostVisits));
        let uct = ["--tron-variant", "duct-max"];
        assert_eq!(final_of(&uct), Some(FinalMove::MostVisits));
        let tuned = ["--tron-variant", "ducb1t-max"];
        assert_eq!(final_of(&tuned), Some(FinalMove::MostVisits));
        let secure = ["--tron-variant", "duct-max", "--tron-final", "secure"];
        assert_eq!(final_of(&secure), Some(FinalMove::Secure { a: 1.0 }));
        let mix = ["--tron-variant", "duct-mix"];
        assert_eq!(final_of(&mix), Some(FinalMove::Mix));
        assert_eq!(final_of(&["--tron-variant", "suct"]), None);
        let sequential = Config::from_args(&["--tron-variant", "suct"]).unwrap();
        assert_eq!(
            sequential.tron.tree_config().final_move,
            FinalMove::MostVisits
        );
    }

    #[test]
    fn eval_weights_set_the_space_cut_off_and_refuse_anything_but_four_numbers() {
        let tron = |args: &[&str]| Config::from_args(args).map(|c| c.tron);
        assert_eq!(
            tron(&[]).unwrap().space_score.weights,
            DEFAULT_SPACE_WEIGHTS
        );
        let fitted = tron(&["--tron-eval-weights", "9.5,30,-2,100"]).unwrap();
        assert_eq!(fitted.space_score.weights, [9.5, 30.0, -2.0, 100.0]);
        assert_eq!(fitted.playout_policy().space, Some(fitted.space_score));
        for bad in ["1,2,3", "1,2,3,4,5", "1,2,x,4", "1,2,inf,4", ""] {
            let err = tron(&["--tron-eval-weights", bad]).unwrap_err().to_string();
            assert!(err.contains("--tron-eval-weights"), "{bad}: {err}");
        }
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
        let err = tron(&[&exp3[..], &["--tron-selection", "ulm"]].concat())
            .unwrap_err()
            .to_string();
        assert!(err.contains("UCB"), "{err}");
        let err = tron(&["--tron-selection", "ulm"]).unwrap_err().to_string();
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
        .unwrap_err()
        .to_string();
        assert!(err.contains("simultaneous"), "{err}");
        let playout = tron(&[&sequential[..], &["--tron-playout", "ngram"]].concat())
            .unwrap()
            .playout();
        assert_eq!(playout.extraction, Extraction::Sequential);
        assert!(tron(&["--tron-ngram-extraction", "diagonal"]).is_err());
    }
}
