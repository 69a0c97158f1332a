//! The UTTT search as the options build it: MCTS-UCT (root-parallel trees, Liang 2017's
//! play-outs and RAVE) or alpha-beta over Liang 2017's evaluation. Shared by the engines'
//! player, the CodinGame player and the bench.

use crate::bot::uttt::codingame::TurnSearch;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, SearchResult};
use crate::search::minimax_uct::MinimaxUct;
use crate::search::parallel::RootParallel;
use crate::search::tree::{MoveInfo, Proof, Selection, TreeConfig};
use crate::search::{FinalMove, Limits, Search, SearchStats};
use crate::uttt::alphabeta::KeyedBoard;
use crate::uttt::evaluate::{EvalKind, Weights};
use crate::uttt::network_children::MINIMAX_UCT;
use crate::uttt::{Board, EarlyTermination, Move, Playout};
use crate::uttt::{NetworkChildren, NetworkValue};

/// The UTTT search: UCT with C = 0.5, leaves expanded after 16 play-outs (as strong as 2,
/// with five times fewer nodes), the max-robust final move, MCTS-Solver, and new nodes
/// starting with 5 visits of the tactical prior ([`UTTT_PRIOR_BIAS`]); 4 million nodes of
/// 24 bytes. Each choice and its measurement: docs/uttt.md, "Why the defaults are what
/// they are".
pub const UTTT_SEARCH: TreeConfig = TreeConfig {
    exploration: 0.5,
    selection: Selection::Ucb1,
    expand_visits: 16,
    max_nodes: 4_000_000,
    final_move: FinalMove::MaxRobust,
    solver: true,
    rave: None,
    grave_reference: 0,
    prior_visits: 5,
    guidance: crate::search::Guidance::Uct,
    // A draw is worth 0.3 to the bot: playing on for a win from a level position scores
    // more against a weaker side than taking the draw (docs/uttt.md).
    contempt: 0.2,
};

/// The default tactical prior's bias, with 5 prior visits (measured against no prior in
/// docs/uttt.md).
pub const UTTT_PRIOR_BIAS: f32 = 0.2;

/// A new node's prior visits when the network values it: its value is worth more than
/// the tactical points alone (10 against 5 in docs/uttt.md).
pub const NETWORK_PRIOR_VISITS: u32 = 10;

/// Which search plays UTTT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtttSearchKind {
    Mcts,
    /// Iterative-deepening alpha-beta over the evaluation (Liang 2017's minimax).
    AlphaBeta,
    /// UCT with minimax backups, every new child valued by the network
    /// ([`crate::search::minimax_uct`]).
    MinimaxUct,
}

/// The UTTT search beyond the tree's settings: which search, the evaluation alpha-beta
/// and early play-out termination use, and the play-outs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UtttPlay {
    pub search: UtttSearchKind,
    /// Liang 2017's evaluation: alpha-beta's, and early play-out termination's.
    pub weights: Weights,
    /// Alpha-beta: search exactly this deep (Liang 2017's "minimax N"), the clock allowing.
    pub depth: Option<u32>,
    /// Play a move that wins the game at once whenever a play-out has one.
    pub win_first: bool,
    /// Early play-out termination: play-out moves and the evaluation's draw bound.
    pub early_termination: Option<(u32, f32)>,
    /// MCTS leaves valued by the embedded network: its share of a leaf's value, the rest
    /// from one random play-out (1: the network alone); `None`: play-outs only.
    pub network: Option<f32>,
    /// Heuristic node initialisation: the tactical prior's bias
    /// ([`crate::uttt::prior::tactical_prior`]), given [`TreeConfig::prior_visits`] visits.
    pub prior_bias: Option<f32>,
    /// The prior visits of a new node the network values (with `network`), in place of
    /// [`TreeConfig::prior_visits`]; `None` (after `--prior` or `--no-prior`): those.
    pub network_prior_visits: Option<u32>,
    /// A position whose player to move can win the game with one move counts as won for
    /// it ([`crate::uttt::Board::mover_wins_at_once`]).
    pub wins_at_once: bool,
}

impl Default for UtttPlay {
    fn default() -> Self {
        UtttPlay {
            search: UtttSearchKind::Mcts,
            // Liang 2017's comprehensive evaluation, the strongest of its four there
            // (Table 2.8).
            weights: EvalKind::Comprehensive.seed_weights(),
            depth: None,
            win_first: false,
            early_termination: None,
            network: None,
            prior_bias: Some(UTTT_PRIOR_BIAS),
            network_prior_visits: Some(NETWORK_PRIOR_VISITS),
            // Such a position's value is known without play-outs, which find the winning
            // reply only by chance (measured in docs/uttt.md).
            wins_at_once: true,
        }
    }
}

impl UtttPlay {
    /// The MCTS evaluator these options ask for; `for_rave` records the play-outs' moves.
    pub fn playout(&self, for_rave: bool) -> Playout {
        let early_termination = self
            .early_termination
            .map(|(moves, bound)| EarlyTermination {
                moves,
                bound,
                weights: self.weights,
            });
        let mut playout =
            Playout::new(self.win_first, early_termination, for_rave).with_prior(self.prior_bias);
        playout.wins_at_once = self.wins_at_once;
        playout
    }
}

/// The UTTT search: MCTS-UCT trees (searched in parallel when there are several), or
/// alpha-beta over Liang 2017's evaluation.
pub enum UtttSearch {
    Mcts(RootParallel<Board, Playout>),
    /// MCTS whose leaves the network values.
    Network(RootParallel<Board, NetworkValue>),
    /// UCT with minimax backups of the network's values (one thread).
    Minimax(Box<MinimaxUct<Board, NetworkChildren>>),
    AlphaBeta {
        /// Kept for the whole game: its transposition table holds for later positions.
        search: Box<AlphaBeta<KeyedBoard, Weights>>,
        root: KeyedBoard,
        /// What the last search found.
        result: Option<SearchResult<Move>>,
    },
}

impl UtttSearch {
    /// The search `play` asks for, rooted at `board`: MCTS with the tree settings `tree`
    /// on `threads` threads, or alpha-beta.
    pub fn new(tree: TreeConfig, play: &UtttPlay, threads: usize, board: Board, seed: u64) -> Self {
        match (play.search, play.network) {
            // The network alone gives a leaf the same value at every visit: expand at the
            // first one (`--expand-visits` is for play-outs). New children start with the
            // network's value (and the tactical prior's bias) for the prior's visits;
            // `--no-prior` leaves them empty.
            (UtttSearchKind::Mcts, Some(share)) => {
                let expand_visits = if share >= 1.0 { 1 } else { tree.expand_visits };
                let prior_visits = play.network_prior_visits.unwrap_or(tree.prior_visits);
                let mut evaluator = NetworkValue::new(share);
                if prior_visits > 0 {
                    evaluator = evaluator.with_priors(play.prior_bias.unwrap_or(0.0));
                }
                evaluator.wins_at_once = play.wins_at_once;
                UtttSearch::Network(RootParallel::new(
                    board,
                    TreeConfig {
                        expand_visits,
                        prior_visits,
                        ..tree
                    },
                    evaluator,
                    seed,
                    threads,
                ))
            }
            (UtttSearchKind::Mcts, None) => UtttSearch::Mcts(RootParallel::new(
                board,
                tree,
                play.playout(tree.rave.is_some()),
                seed,
                threads,
            )),
            (UtttSearchKind::MinimaxUct, _) => {
                let values = NetworkChildren::new(play.wins_at_once);
                UtttSearch::Minimax(Box::new(MinimaxUct::new(board, MINIMAX_UCT, values)))
            }
            (UtttSearchKind::AlphaBeta, _) => UtttSearch::AlphaBeta {
                search: Box::new(AlphaBeta::new(
                    AlphaBetaConfig {
                        max_depth: play.depth,
                        ..AlphaBetaConfig::default()
                    },
                    play.weights,
                )),
                root: KeyedBoard::new(board),
                result: None,
            },
        }
    }

    /// Moves the root to `board`, keeping what the search knows (see
    /// [`RootParallel::reroot`]; alpha-beta keeps its table); whether anything was kept.
    pub fn reroot(&mut self, board: Board) -> bool {
        match self {
            UtttSearch::Mcts(trees) => trees.reroot(board),
            UtttSearch::Network(trees) => trees.reroot(board),
            UtttSearch::Minimax(tree) => tree.reroot(board),
            UtttSearch::AlphaBeta { root, result, .. } => {
                *root = KeyedBoard::new(board);
                *result = None;
                true
            }
        }
    }

    /// The move to play and what the search knows of it. Alpha-beta's value is 1, 0.5
    /// or 0 for a proven result, else 0.5 plus the score's sign times a quarter; its
    /// visits are the depth reached.
    pub fn best_move(&self) -> Option<MoveInfo<Move>> {
        match self {
            UtttSearch::Mcts(trees) => trees.best_move(),
            UtttSearch::Network(trees) => trees.best_move(),
            UtttSearch::Minimax(tree) => tree.best_move(),
            UtttSearch::AlphaBeta { result, .. } => {
                let result = result.as_ref()?;
                let proven = result.is_proven();
                Some(MoveInfo {
                    mv: result.best?,
                    visits: result.depth,
                    value: 0.5 + result.score.signum() as f32 * if proven { 0.5 } else { 0.25 },
                    proof: match (proven, result.score.signum()) {
                        (false, _) => Proof::Unknown,
                        (true, 1) => Proof::Win,
                        (true, -1) => Proof::Loss,
                        _ => Proof::Draw,
                    },
                })
            }
        }
    }

    /// The root's moves, most visited first (alpha-beta: its best move alone).
    pub fn root_moves(&self) -> Vec<MoveInfo<Move>> {
        match self {
            UtttSearch::Mcts(trees) => trees.root_moves(),
            UtttSearch::Network(trees) => trees.root_moves(),
            UtttSearch::Minimax(tree) => tree.root_moves(),
            UtttSearch::AlphaBeta { .. } => self.best_move().into_iter().collect(),
        }
    }

    /// Search threads: one tree each for MCTS, one for alpha-beta.
    pub fn threads(&self) -> usize {
        match self {
            UtttSearch::Mcts(trees) => trees.threads(),
            UtttSearch::Network(trees) => trees.threads(),
            UtttSearch::Minimax(_) | UtttSearch::AlphaBeta { .. } => 1,
        }
    }

    /// Alpha-beta's depth and score, for the log.
    pub fn detail(&self) -> String {
        match self {
            UtttSearch::AlphaBeta {
                result: Some(result),
                ..
            } => format!(" depth={} score={}", result.depth, result.score),
            _ => String::new(),
        }
    }
}

impl TurnSearch for UtttSearch {
    fn reroot(&mut self, board: Board) -> bool {
        UtttSearch::reroot(self, board)
    }

    fn best_move(&self) -> Option<MoveInfo<Move>> {
        UtttSearch::best_move(self)
    }
}

impl std::fmt::Debug for UtttSearch {
    /// The settings, not the tree: what the options built.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UtttSearch::Mcts(trees) => f
                .debug_struct("Mcts")
                .field("config", trees.config())
                .field("threads", &trees.threads())
                .field("playout", trees.evaluator())
                .finish(),
            UtttSearch::Network(trees) => f
                .debug_struct("Network")
                .field("config", trees.config())
                .field("evaluator", trees.evaluator())
                .field("threads", &trees.threads())
                .finish(),
            UtttSearch::Minimax(tree) => f
                .debug_struct("Minimax")
                .field("config", tree.config())
                .field("values", tree.values())
                .finish(),
            UtttSearch::AlphaBeta { search, .. } => f
                .debug_struct("AlphaBeta")
                .field("config", search.config())
                .field("weights", search.evaluator())
                .finish(),
        }
    }
}

impl Search for UtttSearch {
    /// Alpha-beta's nodes count as iterations.
    fn search(&mut self, limits: Limits) -> SearchStats {
        match self {
            UtttSearch::Mcts(trees) => trees.search(limits),
            UtttSearch::Network(trees) => trees.search(limits),
            UtttSearch::Minimax(tree) => tree.search(limits),
            UtttSearch::AlphaBeta {
                search,
                root,
                result,
            } => search.search_into(root, limits, result),
        }
    }

    fn final_move_settled(&self) -> bool {
        match self {
            UtttSearch::Mcts(trees) => trees.final_move_settled(),
            UtttSearch::Network(trees) => trees.final_move_settled(),
            UtttSearch::Minimax(_) | UtttSearch::AlphaBeta { .. } => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::Tree;
    use crate::search::Game;
    use crate::uttt::tests::x_wins_in_one;

    /// The tree a search is built with: its prior visits.
    fn prior_visits_built(play: &UtttPlay, tree: TreeConfig) -> u32 {
        match UtttSearch::new(tree, play, 1, Board::new(), 1) {
            UtttSearch::Mcts(trees) => trees.config().prior_visits,
            UtttSearch::Network(trees) => trees.config().prior_visits,
            UtttSearch::Minimax(_) | UtttSearch::AlphaBeta { .. } => unreachable!("MCTS asked"),
        }
    }

    #[test]
    fn a_network_valued_node_gets_its_own_prior_visits_unless_chosen() {
        let blend = UtttPlay {
            network: Some(0.5),
            ..UtttPlay::default()
        };
        assert_eq!(
            prior_visits_built(&blend, UTTT_SEARCH),
            NETWORK_PRIOR_VISITS
        );
        assert_ne!(NETWORK_PRIOR_VISITS, UTTT_SEARCH.prior_visits);
        // Play-outs keep the tree's; so does a search told its prior visits.
        assert_eq!(
            prior_visits_built(&UtttPlay::default(), UTTT_SEARCH),
            UTTT_SEARCH.prior_visits
        );
        let told = UtttPlay {
            network_prior_visits: None,
            ..blend
        };
        assert_eq!(
            prior_visits_built(&told, UTTT_SEARCH),
            UTTT_SEARCH.prior_visits
        );
    }

    /// [`x_wins_in_one`] with O to move in the empty board 4: cell 2 sends X to board 2,
    /// where X wins at once, and cells 0, 1 and 3 to a closed board (X chooses board 2).
    fn o_to_move_beside_x_threat() -> Board {
        let mut board = x_wins_in_one();
        board.turn = 1;
        board.target = 4;
        board
    }

    /// Cells 0..=3 of board 4 in [`o_to_move_beside_x_threat`].
    fn lets_x_win(mv: Move) -> bool {
        mv.board() == 4 && mv.cell() <= 3
    }

    /// The play-out search from `root` with `--win-at-once` set to `wins_at_once` and
    /// `prior_visits` prior visits, after `iterations`.
    fn searched(
        root: Board,
        wins_at_once: bool,
        prior_visits: u32,
        iterations: u64,
    ) -> Tree<Board, Playout> {
        let play = UtttPlay {
            wins_at_once,
            ..UtttPlay::default()
        };
        let config = TreeConfig {
            prior_visits,
            ..UTTT_SEARCH
        };
        let mut tree = Tree::new(root, config, play.playout(false), 1);
        tree.search(Limits::iterations(iterations));
        tree
    }

    /// The root's moves that the search has proven lost, in board order.
    fn proven_losses(tree: &Tree<Board, Playout>) -> Vec<Move> {
        let mut moves: Vec<Move> = (tree.root_moves().iter())
            .filter(|m| m.proof == Proof::Loss)
            .map(|m| m.mv)
            .collect();
        moves.sort_by_key(|mv| mv.0);
        moves
    }

    #[test]
    fn with_wins_at_once_a_move_that_lets_the_opponent_win_is_proven_lost_at_its_first_visit() {
        let root = o_to_move_beside_x_threat();
        // No prior: every child is visited once before any is expanded (16 visits).
        let with = searched(root, true, 0, 20);
        let losing: Vec<Move> = (0..4).map(|cell| Move(4 * 9 + cell)).collect();
        assert_eq!(proven_losses(&with), losing);
        assert!(!lets_x_win(with.best_move().unwrap().mv));
        // Without it nothing is proven before the expansions that find X's reply.
        let without = searched(root, false, 0, 20);
        assert_eq!(proven_losses(&without), [], "{:?}", without.root_moves());
    }

    #[test]
    fn with_wins_at_once_a_new_child_that_lets_the_opponent_win_starts_as_a_loss() {
        let root = o_to_move_beside_x_threat();
        let prior_visits = UTTT_SEARCH.prior_visits;
        let start_values = |wins_at_once| -> Vec<f32> {
            let tree = searched(root, wins_at_once, prior_visits, 1);
            let moves = tree.root_moves();
            assert_eq!(moves.len(), 9);
            (moves.iter())
                .filter(|m| lets_x_win(m.mv))
                .inspect(|m| assert_eq!(m.visits, prior_visits))
                .map(|m| m.value)
                .collect()
        };
        assert_eq!(start_values(true), [0.0; 4]);
        // The tactical prior alone: the free choice counts against, but not as a loss.
        assert!(start_values(false).iter().all(|&value| value > 0.0));
    }

    #[test]
    fn a_root_whose_mover_wins_at_once_is_still_searched_for_its_move() {
        // The evaluator is certain of the root; the search must still find the move.
        let tree = searched(x_wins_in_one(), true, 5, 10);
        let best = tree.best_move().expect("the root is searched");
        assert_eq!((best.mv, best.value), (Move(2 * 9 + 2), 1.0));
        // The same after a reroot to a node the certainty proved before it was expanded.
        let mut tree = searched(o_to_move_beside_x_threat(), true, 0, 20);
        let mut after = o_to_move_beside_x_threat();
        after.play(Move(4 * 9 + 2));
        assert!(tree.reroot(after));
        tree.search(Limits::iterations(10));
        assert_eq!(tree.best_move().map(|m| m.mv), Some(Move(2 * 9 + 2)));
    }

    /// The network search on the bot's tree settings ([`UTTT_SEARCH`]): the network's
    /// priors, and its values of new children.
    #[test]
    fn the_network_search_values_every_new_child_and_backs_up_the_best_one() {
        let config = TreeConfig {
            expand_visits: 1,
            prior_visits: 5,
            ..UTTT_SEARCH
        };
        let root = x_wins_in_one();
        // One iteration expands the root: the winning child starts with its result, is
        // the one backed up, and proves the root (a random child: 1 chance in 5).
        let mut tree = Tree::new(root, config, NetworkValue::new(1.0).with_priors(0.2), 1);
        tree.search(Limits::iterations(1));
        let best = tree.best_move().expect("the root is expanded");
        assert_eq!(best.mv, Move(2 * 9 + 2));
        assert_eq!(best.value, 1.0);
        // Without priors the children start empty and one chosen at random is valued.
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let plain = NetworkValue::new(1.0);
        let chosen: std::collections::HashSet<Move> = (0..40)
            .filter_map(|seed| {
                let mut tree = Tree::new(
                    root,
                    TreeConfig {
                        prior_visits: 0,
                        ..config
                    },
                    plain.clone(),
                    seed,
                );
                tree.search(Limits::iterations(1));
                tree.root_moves()
                    .into_iter()
                    .find(|m| m.visits > 0)
                    .map(|m| m.mv)
            })
            .collect();
        assert!(chosen.len() > 1, "{chosen:?} of {moves:?}");
    }
}
