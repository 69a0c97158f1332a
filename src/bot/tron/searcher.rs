//! [`TronSearcher`]: the Light Riders search the options ask for, built the same way for
//! the player, the bench and the arena.

use super::options::{TronConfig, TronSearchKind};
use crate::game::Player;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Score, SearchResult};
use crate::search::simultaneous::root_parallel::SimRootParallel;
use crate::search::simultaneous::RootAction;
use crate::search::tree::{Proof, Tree};
use crate::search::{
    FastRng, FinalMove, Limits, Search, SearchStats, SequentialEvaluator, Sequentialized,
};
use crate::tron::alphabeta::SpaceEvaluation;
use crate::tron::{Direction, TronPlayout, TronState};
use std::fmt;

/// The Light Riders search for one rider: MCTS with the sequential tree (the rider
/// commits first) or the decoupled one, each valuing leaves by the configured play-out
/// policy; or alpha-beta over the rounds seen as alternating plies.
// One searcher a game, kept whole: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum TronSearcher {
    Sequential(Tree<Sequentialized<TronState>, SequentialEvaluator<TronPlayout>>),
    Decoupled {
        /// One search per `--threads` (root parallelism).
        search: SimRootParallel<TronState, TronPlayout>,
        /// The rider the search plays for.
        me: Player,
    },
    AlphaBeta {
        /// Kept for the whole game: its transposition table holds for later positions.
        search: Box<AlphaBeta<Sequentialized<TronState>, SpaceEvaluation>>,
        root: Sequentialized<TronState>,
        /// What the last search found.
        result: Option<SearchResult<Direction>>,
    },
}

/// The move a search chose and what it knows of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub mv: Direction,
    pub evidence: Evidence,
}

/// What a search knows of the move it chose.
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    Mcts {
        /// Mean reward for the rider that plays it.
        value: f32,
        visits: u32,
        /// Proven value (sequential tree only).
        proof: Proof,
    },
    AlphaBeta {
        /// The plies of the iteration the move comes from.
        depth: u32,
        /// The score for the rider that plays it.
        score: Score,
        /// The line the search expects, this move first.
        line: Vec<Direction>,
    },
}

impl fmt::Display for Evidence {
    /// The fields of the per-move log line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Mcts {
                value,
                visits,
                proof,
            } => write!(f, "value={value:.3} visits={visits} proof={proof:?}"),
            Evidence::AlphaBeta { depth, score, line } => {
                write!(f, "depth={depth} score={score} line={line:?}")
            }
        }
    }
}

/// A root move of the searching rider and what MCTS found of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove {
    pub mv: Direction,
    /// Mean reward for the rider, 0..1.
    pub value: f32,
    pub visits: u32,
}

impl TronSearcher {
    /// The search `config` asks for, rooted at `root`, playing for `me`; the decoupled
    /// variants on `threads` threads (the others on one).
    pub fn new(
        config: &TronConfig,
        root: TronState,
        me: Player,
        seed: u64,
        threads: usize,
    ) -> TronSearcher {
        let config = &config.for_rider(me);
        if config.search == TronSearchKind::AlphaBeta {
            return TronSearcher::AlphaBeta {
                search: Box::new(AlphaBeta::new(AlphaBetaConfig::default(), SpaceEvaluation)),
                root: Sequentialized::new(root, me),
                result: None,
            };
        }
        let evaluator = config.playout();
        match config.sim_config() {
            Some(sim) => TronSearcher::Decoupled {
                search: SimRootParallel::new(root, sim, evaluator, seed, threads),
                me,
            },
            None => TronSearcher::Sequential(Tree::new(
                Sequentialized::new(root, me),
                config.tree_config(),
                SequentialEvaluator(evaluator),
                seed,
            )),
        }
    }

    /// Which search this is.
    pub fn kind(&self) -> TronSearchKind {
        match self {
            TronSearcher::AlphaBeta { .. } => TronSearchKind::AlphaBeta,
            _ => TronSearchKind::Mcts,
        }
    }

    /// Moves the root to `state`, keeping what the search knows of it: the subtree of
    /// the round played if the tree holds it, or alpha-beta's table (always). Returns
    /// whether anything was kept.
    pub fn reroot(&mut self, state: &TronState) -> bool {
        match self {
            TronSearcher::Sequential(tree) => {
                let me = tree.root_state().first();
                tree.reroot(Sequentialized::new(state.clone(), me))
            }
            TronSearcher::Decoupled { search, .. } => search.reroot(state),
            TronSearcher::AlphaBeta { root, result, .. } => {
                *root = Sequentialized::new(state.clone(), root.first());
                *result = None;
                true
            }
        }
    }

    /// The move to play under the final-move rule (`rng` samples mixed strategies).
    pub fn best_move(&self, rng: &mut FastRng) -> Option<Choice> {
        match self {
            TronSearcher::Sequential(tree) => tree.best_move().map(|m| Choice {
                mv: m.mv,
                evidence: Evidence::Mcts {
                    value: m.value,
                    visits: m.visits,
                    proof: m.proof,
                },
            }),
            TronSearcher::Decoupled { search, me } => {
                let mv = search.best_move(*me, rng)?;
                let action = search.root_actions(*me).into_iter().find(|a| a.mv == mv)?;
                Some(Choice {
                    mv,
                    evidence: Evidence::Mcts {
                        value: action.mean,
                        visits: action.visits,
                        proof: Proof::Unknown,
                    },
                })
            }
            TronSearcher::AlphaBeta { result, .. } => {
                let result = result.as_ref()?;
                Some(Choice {
                    mv: result.best?,
                    evidence: Evidence::AlphaBeta {
                        depth: result.depth,
                        score: result.score,
                        line: result.line.clone(),
                    },
                })
            }
        }
    }

    /// Every root move of the searching rider with its mean and visits, to compare the
    /// move played with the one chosen (MCTS; alpha-beta scores its best move only, so
    /// none).
    pub fn root_moves(&self) -> Vec<RootMove> {
        match self {
            TronSearcher::Sequential(tree) => tree
                .root_moves()
                .into_iter()
                .map(|m| RootMove {
                    mv: m.mv,
                    value: m.value,
                    visits: m.visits,
                })
                .collect(),
            TronSearcher::Decoupled { search, me } => search
                .root_actions(*me)
                .into_iter()
                .map(|a| RootMove {
                    mv: a.mv,
                    value: a.mean,
                    visits: a.visits,
                })
                .collect(),
            TronSearcher::AlphaBeta { .. } => Vec::new(),
        }
    }
}

impl Search for TronSearcher {
    /// Runs the search; alpha-beta's nodes count as iterations.
    fn search(&mut self, limits: Limits) -> SearchStats {
        match self {
            TronSearcher::Sequential(tree) => tree.search(limits),
            TronSearcher::Decoupled { search, .. } => search.search(limits),
            TronSearcher::AlphaBeta {
                search,
                root,
                result,
            } => search.search_into(root, limits, result),
        }
    }

    fn final_move_settled(&self) -> bool {
        match self {
            TronSearcher::Sequential(tree) => tree.final_move_settled(),
            TronSearcher::Decoupled { search, me } => {
                search.config().final_move != FinalMove::MaxRobust || search.max_robust_found(*me)
            }
            TronSearcher::AlphaBeta { .. } => true,
        }
    }

    /// The decoupled search only: its move is decided when the final-move rule plays it
    /// for certain and it leads every other root move by more than `remaining` visits.
    fn decided_within(&self, remaining_iterations: u64) -> bool {
        match self {
            TronSearcher::Decoupled { search, me } => {
                decided_within(&search.root_actions(*me), remaining_iterations)
            }
            _ => false,
        }
    }
}

/// Whether the root move the final-move rule plays for certain is the most visited, ahead
/// of every other by more than `remaining` visits (no if the rule mixes its moves).
fn decided_within(actions: &[RootAction<Direction>], remaining: u64) -> bool {
    let Some(chosen) = actions.iter().find(|a| a.final_probability > 0.999) else {
        return false;
    };
    actions
        .iter()
        .filter(|a| a.mv != chosen.mv)
        .all(|a| u64::from(a.visits) + remaining < u64::from(chosen.visits))
}

impl fmt::Debug for TronSearcher {
    /// The settings the search runs with (not its tree): what the options built.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TronSearcher::Sequential(tree) => f
                .debug_struct("Sequential")
                .field("config", tree.config())
                .field("evaluator", tree.evaluator())
                .finish(),
            TronSearcher::Decoupled { search, me } => f
                .debug_struct("Decoupled")
                .field("config", search.config())
                .field("evaluator", search.evaluator())
                .field("threads", &search.threads())
                .field("me", me)
                .finish(),
            TronSearcher::AlphaBeta { search, root, .. } => f
                .debug_struct("AlphaBeta")
                .field("config", search.config())
                .field("me", &root.first())
                .finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::Config;

    #[test]
    fn root_moves_are_the_safe_moves_with_the_chosen_ones_figures() {
        use rand::SeedableRng;
        let state = TronState::from_diagram("....\n0..#\n...1").unwrap();
        let safe: Vec<Direction> = state.safe_moves(0).iter().collect();
        for args in [&[][..], &["--tron-variant", "suct"]] {
            let config = Config::from_args(args).unwrap().tron;
            let mut searcher = TronSearcher::new(&config, state.clone(), 0, 7, 1);
            searcher.search(Limits::iterations(2_000));
            let moves = searcher.root_moves();
            let mut found: Vec<Direction> = moves.iter().map(|m| m.mv).collect();
            found.sort_by_key(|d| d.index());
            assert_eq!(found, safe, "{args:?}");
            let choice = searcher.best_move(&mut FastRng::seed_from_u64(1)).unwrap();
            let Evidence::Mcts { value, visits, .. } = choice.evidence else {
                panic!("MCTS evidence");
            };
            let chosen = moves.iter().find(|m| m.mv == choice.mv).unwrap();
            assert_eq!((chosen.value, chosen.visits), (value, visits), "{args:?}");
        }
        let config = Config::from_args(&["--tron-search", "alphabeta"])
            .unwrap()
            .tron;
        let mut alphabeta = TronSearcher::new(&config, state, 0, 7, 1);
        alphabeta.search(Limits::iterations(2_000));
        assert!(alphabeta.root_moves().is_empty());
    }

    #[test]
    fn a_move_is_decided_when_the_runner_up_cannot_catch_up() {
        let action = |mv, visits, final_probability| RootAction {
            mv,
            visits,
            mean: 0.5,
            final_probability,
        };
        let (up, left, right) = (Direction::Up, Direction::Left, Direction::Right);
        let led = [
            action(up, 1_000, 1.0),
            action(left, 300, 0.0),
            action(right, 100, 0.0),
        ];
        assert!(decided_within(&led, 699));
        assert!(!decided_within(&led, 700));
        // The rule plays a less visited move: more search may change it.
        let against_visits = [action(up, 1_000, 0.0), action(left, 300, 1.0)];
        assert!(!decided_within(&against_visits, 0));
        // A mixed strategy is never decided.
        let mixed = [action(up, 1_000, 0.9), action(left, 10, 0.1)];
        assert!(!decided_within(&mixed, 0));
        // One move: nothing to decide.
        assert!(decided_within(&[action(up, 0, 1.0)], u64::MAX - 1));
    }

    #[test]
    fn only_the_decoupled_search_decides_early() {
        let state = TronState::from_diagram("....\n0..#\n...1").unwrap();
        for (args, can_decide) in [
            (&[][..], true),
            (&["--tron-variant", "suct"][..], false),
            (&["--tron-search", "alphabeta"][..], false),
        ] {
            let config = Config::from_args(args).unwrap().tron;
            let mut searcher = TronSearcher::new(&config, state.clone(), 0, 7, 1);
            searcher.search(Limits::iterations(5_000));
            assert_eq!(searcher.decided_within(0), can_decide, "{args:?}");
        }
    }
}
