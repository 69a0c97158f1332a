//! Behaviour of the decoupled simultaneous-move search on tiny games whose answers are known.

use mctsbot::game::{Outcome, Player};
use mctsbot::search::simultaneous::{SimConfig, SimPolicy, SimSearch};
use mctsbot::search::{Contempt, Evaluator, FastRng, FinalMove, Limits, SimGame, TreePolicy};
use rand::SeedableRng;

// The settings Lanctot et al. (2013) tuned for Tron (Table 4).
const DUCT: SimPolicy = SimPolicy::DecoupledUct { c: 1.5 };
const DUCB1T: SimPolicy = SimPolicy::DecoupledUcb1Tuned { c: 1.0 };
const EXP3: SimPolicy = SimPolicy::Exp3 { gamma: 0.3 };
const RM: SimPolicy = SimPolicy::RegretMatching { gamma: 0.3 };
/// A node budget no test reaches unless it asks for a smaller one.
const MAX_NODES: usize = 300_000;

const ALL_POLICIES: [SimPolicy; 4] = [DUCT, DUCB1T, EXP3, RM];

/// A one-shot matrix game: both players pick a row and a column, player 0 gets `payoff`.
/// Payoffs of 0, ½ and 1 end the game (win, draw, loss). Other payoffs cannot be an
/// [`Outcome`], so those positions only say their value through the play-out; tests with
/// such payoffs cap the tree at the root, which makes the search a pure matrix bandit.
#[derive(Clone, PartialEq, Debug)]
struct MatrixGame {
    payoff: &'static [&'static [f32]],
    played: Option<(u8, u8)>,
}

impl MatrixGame {
    fn new(payoff: &'static [&'static [f32]]) -> Self {
        MatrixGame {
            payoff,
            played: None,
        }
    }

    fn value(&self) -> Option<f32> {
        self.played
            .map(|(row, col)| self.payoff[row as usize][col as usize])
    }
}

impl SimGame for MatrixGame {
    type Move = u8;
    type Moves = std::ops::Range<u8>;

    fn outcome(&self) -> Option<Outcome> {
        match self.value()? {
            1.0 => Some(Outcome::Win(0)),
            0.0 => Some(Outcome::Win(1)),
            0.5 => Some(Outcome::Draw),
            _ => None,
        }
    }

    fn legal_moves(&self, player: Player) -> std::ops::Range<u8> {
        let count = match (self.played, player) {
            (Some(_), _) => 1, // a pass, only for payoffs that are not outcomes
            (None, 0) => self.payoff.len(),
            (None, _) => self.payoff[0].len(),
        };
        0..count as u8
    }

    fn play_joint(&mut self, mv0: u8, mv1: u8) {
        if self.played.is_none() {
            self.played = Some((mv0, mv1));
        }
    }
}

/// The value of a matrix game once the joint move is played.
struct Payoff;

impl TreePolicy<MatrixGame> for Payoff {}

impl Evaluator<MatrixGame> for Payoff {
    fn evaluate(&mut self, game: &mut MatrixGame, _rng: &mut FastRng) -> f32 {
        game.value()
            .expect("the play-out of a matrix game starts after the joint move")
    }
}

const MATCHING_PENNIES: &[&[f32]] = &[&[1.0, 0.0], &[0.0, 1.0]];

/// Matching pennies where a match on heads pays twice as much as on tails (a draw instead
/// of a win): both players' unique equilibrium is (⅓, ⅔).
const BIASED_PENNIES: &[&[f32]] = &[&[1.0, 0.0], &[0.0, 0.5]];

/// Player 0's action 2 and player 1's action 0 strictly dominate every other action.
/// Deliberately asymmetric: in a game that looks the same to both players under some
/// relabeling of moves, deterministic decoupled UCB with deterministic rewards can mirror
/// itself forever (each trying a move exactly when the other tries its mirror image) and
/// never see the payoff differences.
const DOMINANT: &[&[f32]] = &[&[0.0, 0.5], &[0.0, 0.5], &[0.5, 1.0]];
const DOMINANT_ACTION: [u8; 2] = [2, 0];

/// Rock-paper-scissors where rock beats scissors by twice as much: the zero-sum payoffs
/// `[[0,-1,2],[1,0,-1],[-2,1,0]]` mapped to `(a+2)/4`. Both players' unique equilibrium
/// is (¼, ½, ¼).
const BIASED_RPS: &[&[f32]] = &[&[0.5, 0.25, 1.0], &[0.75, 0.5, 0.25], &[0.0, 0.75, 0.5]];

const SAFE: u8 = 0;
const GREEDY: u8 = 1;

/// Player 0 first picks SAFE or GREEDY (player 1 only passes). After SAFE both players get
/// three moves and the game is drawn whatever they do. After GREEDY player 0 passes and
/// player 1 loses with two of its three replies but wins with reply 0. Random play-outs
/// rate GREEDY ⅔ and SAFE ½; only looking at player 1's reply shows GREEDY loses.
#[derive(Clone, PartialEq, Debug, Default)]
struct TrapGame {
    first: Option<u8>,
    reply: Option<u8>,
}

impl SimGame for TrapGame {
    type Move = u8;
    type Moves = std::ops::Range<u8>;

    fn outcome(&self) -> Option<Outcome> {
        match (self.first?, self.reply?) {
            (SAFE, _) => Some(Outcome::Draw),
            (_, 0) => Some(Outcome::Win(1)),
            _ => Some(Outcome::Win(0)),
        }
    }

    fn legal_moves(&self, player: Player) -> std::ops::Range<u8> {
        let count = match (self.first, player) {
            (None, 0) => 2,
            (None, _) => 1,
            (Some(GREEDY), 0) => 1,
            (Some(_), _) => 3,
        };
        0..count
    }

    fn play_joint(&mut self, mv0: u8, mv1: u8) {
        match self.first {
            None => self.first = Some(mv0),
            Some(_) => self.reply = Some(mv1),
        }
    }
}

/// Uniformly random joint moves to the end of the game.
struct RandomJointMoves;

impl TreePolicy<TrapGame> for RandomJointMoves {}

impl Evaluator<TrapGame> for RandomJointMoves {
    fn evaluate(&mut self, game: &mut TrapGame, rng: &mut FastRng) -> f32 {
        while game.outcome().is_none() {
            let [mv0, mv1] = [0, 1].map(|player| {
                let mut moves = game.legal_moves(player);
                let pick = mctsbot::search::random_below(rng, moves.len() as u32);
                moves.nth(pick as usize).unwrap()
            });
            game.play_joint(mv0, mv1);
        }
        game.outcome().unwrap().reward_for(0)
    }
}

/// The evaluator each test game is searched with.
trait TestGame: SimGame + Sized {
    type Playout: Evaluator<Self> + TreePolicy<Self>;
    fn playout() -> Self::Playout;
}

impl TestGame for MatrixGame {
    type Playout = Payoff;
    fn playout() -> Payoff {
        Payoff
    }
}

impl TestGame for TrapGame {
    type Playout = RandomJointMoves;
    fn playout() -> RandomJointMoves {
        RandomJointMoves
    }
}

fn rng(seed: u64) -> FastRng {
    FastRng::seed_from_u64(seed)
}

fn new_search<G: TestGame>(game: G, config: SimConfig, seed: u64) -> SimSearch<G, G::Playout> {
    SimSearch::new(game, config, G::playout(), rng(seed))
}

fn searched<G: TestGame>(game: G, config: SimConfig, iterations: u64) -> SimSearch<G, G::Playout> {
    let mut search = new_search(game, config, 42);
    let stats = search.search(Limits::iterations(iterations));
    assert_eq!(stats.iterations, iterations);
    search
}

fn final_probabilities<G: TestGame>(search: &SimSearch<G, G::Playout>, player: Player) -> Vec<f32> {
    search
        .root_actions(player)
        .iter()
        .map(|a| a.final_probability)
        .collect()
}

fn assert_near(actual: &[f32], expected: &[f32], tolerance: f32, what: &str) {
    let close = actual
        .iter()
        .zip(expected)
        .all(|(a, e)| (a - e).abs() <= tolerance);
    assert!(
        close,
        "{what}: {actual:?} is not within {tolerance} of {expected:?}"
    );
}

#[test]
fn stochastic_policies_mix_matching_pennies_evenly() {
    for policy in [EXP3, RM] {
        let search = searched(
            MatrixGame::new(MATCHING_PENNIES),
            SimConfig::new(policy, MAX_NODES),
            20_000,
        );
        for player in 0..2 {
            let mix = final_probabilities(&search, player);
            assert_near(
                &mix,
                &[0.5, 0.5],
                0.05,
                &format!("{policy:?} player {player}"),
            );
        }
    }
}

#[test]
fn stochastic_policies_find_the_biased_pennies_equilibrium() {
    // Guards the test above, which a bandit that never learns would pass too.
    for policy in [EXP3, RM] {
        let search = searched(
            MatrixGame::new(BIASED_PENNIES),
            SimConfig::new(policy, MAX_NODES),
            20_000,
        );
        // What each player actually plays, exploration included, makes the other
        // indifferent; so the final mixes are the equilibrium itself.
        for player in 0..2 {
            let mix = final_probabilities(&search, player);
            let what = format!("{policy:?} player {player}");
            assert_near(&mix, &[1.0 / 3.0, 2.0 / 3.0], 0.03, &what);
        }
    }
}

#[test]
fn terminal_children_are_scored_without_playouts() {
    let mut search = new_search(
        MatrixGame::new(MATCHING_PENNIES),
        SimConfig::new(DUCT, MAX_NODES),
        1,
    );
    let stats = search.search(Limits::iterations(500));
    assert_eq!(stats.playouts, 0);
    assert_eq!(search.node_count(), 5);
    // Terminal values are exact: every action's mean is what the matrix says on average.
    let total_visits: u32 = search.root_actions(0).iter().map(|a| a.visits).sum();
    assert_eq!(total_visits, 500);
}

#[test]
fn every_variant_finds_a_strictly_dominant_action_for_both_players() {
    for policy in ALL_POLICIES {
        for final_move in [
            policy.default_final_move(),
            FinalMove::MostVisits,
            FinalMove::Mix,
            FinalMove::Secure { a: 1.0 },
        ] {
            let config = SimConfig {
                final_move,
                ..SimConfig::new(policy, MAX_NODES)
            };
            let search = searched(MatrixGame::new(DOMINANT), config, 3_000);
            for player in 0..2 {
                let what = format!("{policy:?} {final_move:?} player {player}");
                let probabilities = final_probabilities(&search, player);
                let dominant = DOMINANT_ACTION[player as usize];
                assert!(
                    probabilities[dominant as usize] > 0.7,
                    "{what}: {probabilities:?}"
                );
                if final_move != FinalMove::Mix {
                    assert_eq!(
                        search.best_move(player, &mut rng(3)),
                        Some(dominant),
                        "{what}"
                    );
                }
            }
        }
    }
}

#[test]
fn regret_matching_finds_the_biased_rock_paper_scissors_equilibrium() {
    // Root-only tree: a matrix bandit, since the payoffs are not outcomes (see MatrixGame).
    let config = SimConfig {
        max_nodes: 1,
        ..SimConfig::new(RM, MAX_NODES)
    };
    let search = searched(MatrixGame::new(BIASED_RPS), config, 50_000);
    for player in 0..2 {
        let mix = final_probabilities(&search, player);
        assert_near(&mix, &[0.25, 0.5, 0.25], 0.03, &format!("player {player}"));
    }
}

#[test]
fn the_trap_fools_a_one_step_search() {
    // Guards the next test: without looking at player 1's reply, GREEDY looks better.
    let config = SimConfig {
        max_nodes: 1,
        ..SimConfig::new(DUCT, MAX_NODES)
    };
    let search = searched(TrapGame::default(), config, 3_000);
    assert_eq!(search.best_move(0, &mut rng(3)), Some(GREEDY));
}

#[test]
fn every_variant_sees_the_reply_that_refutes_the_greedy_move() {
    for policy in ALL_POLICIES {
        let search = searched(
            TrapGame::default(),
            SimConfig::new(policy, MAX_NODES),
            5_000,
        );
        let actions = search.root_actions(0);
        let what = format!("{policy:?}: {actions:?}");
        assert!(actions[SAFE as usize].final_probability > 0.6, "{what}");
        assert!(actions[GREEDY as usize].mean < 0.4, "{what}");
        let config = SimConfig {
            final_move: FinalMove::MostVisits,
            ..SimConfig::new(policy, MAX_NODES)
        };
        let search = searched(TrapGame::default(), config, 5_000);
        assert_eq!(search.best_move(0, &mut rng(3)), Some(SAFE), "{policy:?}");
    }
}

#[test]
fn reroot_keeps_the_subtree_and_its_visits() {
    let mut search = searched(TrapGame::default(), SimConfig::new(DUCT, MAX_NODES), 2_000);
    let nodes_before = search.node_count();
    let safe_visits = search.root_actions(0)[SAFE as usize].visits;
    let mut after_safe = TrapGame::default();
    after_safe.play_joint(SAFE, 0);

    assert!(search.reroot(&after_safe));
    assert_eq!(search.root(), &after_safe);
    assert_eq!(search.root_visits(), safe_visits);
    // The SAFE node and its nine terminal children; the GREEDY branch is gone.
    assert_eq!(search.node_count(), 10);
    assert!(search.node_count() < nodes_before);
    let actions = search.root_actions(0);
    let child_visits: u32 = actions.iter().map(|a| a.visits).sum();
    // Every simulation through the node but the one that created it chose a joint move.
    assert_eq!(child_visits, safe_visits - 1);
    assert!(actions.iter().all(|a| a.visits > 0 && a.mean == 0.5));

    // The kept tree goes on growing from where it was.
    search.search(Limits::iterations(100));
    assert_eq!(search.root_visits(), safe_visits + 100);
}

#[test]
fn reroot_restarts_when_no_child_is_the_position() {
    let mut search = searched(TrapGame::default(), SimConfig::new(DUCT, MAX_NODES), 200);
    let mut after_greedy = TrapGame::default();
    after_greedy.play_joint(GREEDY, 0);
    let mut finished = after_greedy.clone();
    finished.play_joint(0, 1);
    // Two joint moves away: no child of the root is that position.
    assert!(!search.reroot(&finished));
    assert_eq!(search.node_count(), 1);
    assert_eq!(search.root_visits(), 0);
    assert_eq!(search.root(), &finished);

    // A fresh root has no children yet, so there is nothing to keep.
    let mut fresh = searched(TrapGame::default(), SimConfig::new(DUCT, MAX_NODES), 0);
    assert!(!fresh.reroot(&after_greedy));
    assert_eq!(fresh.root(), &after_greedy);
    assert_eq!(search.best_move(0, &mut rng(3)), None);
    let stats = search.search(Limits::iterations(10));
    assert_eq!(stats.iterations, 0, "a finished game has nothing to search");
}

#[test]
fn a_full_tree_keeps_searching_without_expanding() {
    let config = SimConfig {
        max_nodes: 3,
        ..SimConfig::new(DUCB1T, MAX_NODES)
    };
    let mut search = new_search(TrapGame::default(), config, 5);
    let stats = search.search(Limits::iterations(1_000));
    assert_eq!(stats.iterations, 1_000);
    assert!(stats.tree_full);
    assert_eq!(stats.nodes, 3);
    assert_eq!(search.node_count(), 3);
    assert_eq!(search.root_visits(), 1_000);
    // Only the two new root children were played out; deeper simulations ended in
    // terminal positions, which are scored exactly even when they get no node.
    assert_eq!(stats.playouts, 2);
    // The statistics kept learning below the frontier: player 1's refutation shows.
    assert_eq!(search.best_move(0, &mut rng(3)), Some(SAFE));

    let roomy = searched(
        TrapGame::default(),
        SimConfig::new(DUCB1T, MAX_NODES),
        1_000,
    );
    assert!(roomy.node_count() > 3);
}

#[test]
fn searches_with_the_same_seed_agree() {
    for policy in ALL_POLICIES {
        let a = searched(
            TrapGame::default(),
            SimConfig::new(policy, MAX_NODES),
            1_000,
        );
        let b = searched(
            TrapGame::default(),
            SimConfig::new(policy, MAX_NODES),
            1_000,
        );
        assert_eq!(a.root_actions(0), b.root_actions(0), "{policy:?}");
        assert_eq!(a.root_actions(1), b.root_actions(1), "{policy:?}");
    }
}

#[test]
fn an_expansion_threshold_creates_fewer_nodes_and_still_finds_the_trap() {
    let at_once = searched(
        TrapGame::default(),
        SimConfig::new(DUCB1T, MAX_NODES),
        5_000,
    );
    let config = SimConfig {
        expand_visits: 4,
        ..SimConfig::new(DUCB1T, MAX_NODES)
    };
    let lazy = searched(TrapGame::default(), config, 5_000);
    assert!(
        lazy.node_count() < at_once.node_count(),
        "{} vs {}",
        lazy.node_count(),
        at_once.node_count()
    );
    assert_eq!(lazy.best_move(0, &mut rng(3)), Some(SAFE));
}

/// The matrix game's payoff, counting its calls; deterministic when told so.
struct CountingPayoff {
    calls: std::rc::Rc<std::cell::Cell<u64>>,
    deterministic: bool,
}

impl TreePolicy<MatrixGame> for CountingPayoff {}

impl Evaluator<MatrixGame> for CountingPayoff {
    fn evaluate(&mut self, game: &mut MatrixGame, rng: &mut FastRng) -> f32 {
        self.calls.set(self.calls.get() + 1);
        Payoff.evaluate(game, rng)
    }

    fn is_deterministic(&self) -> bool {
        self.deterministic
    }
}

#[test]
fn a_deterministic_evaluator_is_asked_once_per_position() {
    let run = |deterministic: bool| {
        let calls = std::rc::Rc::new(std::cell::Cell::new(0));
        let evaluator = CountingPayoff {
            calls: calls.clone(),
            deterministic,
        };
        // The root alone: every simulation ends at one of its four joint moves, none of
        // them the end of the game.
        let config = SimConfig {
            max_nodes: 1,
            ..SimConfig::new(DUCT, MAX_NODES)
        };
        const PAYOFF: &[&[f32]] = &[&[0.6, 0.3], &[0.2, 0.7]];
        let mut search = SimSearch::new(MatrixGame::new(PAYOFF), config, evaluator, rng(4));
        search.search(Limits::iterations(3_000));
        (search.root_actions(0), search.root_actions(1), calls.get())
    };
    let (reused0, reused1, reused_calls) = run(true);
    let (fresh0, fresh1, fresh_calls) = run(false);
    assert_eq!(fresh_calls, 3_000);
    assert_eq!(reused_calls, 4, "one evaluation per joint move");
    // Same values, so the same search.
    assert_eq!((reused0, reused1), (fresh0, fresh1));
}

/// Player 0's first row is a sure draw, its second a sure 0.45 (not an outcome: valued by
/// the play-out).
const DRAW_OR_LESS: &[&[f32]] = &[&[0.5, 0.5], &[0.45, 0.45]];

#[test]
fn contempt_for_draws_prefers_a_slightly_worse_position_to_a_sure_draw() {
    // Draws worth 0.5, 0.4 and 0.55 to player 0.
    for (contempt, expected) in [(0.0, 0), (0.1, 1), (-0.05, 0)] {
        let contempt = Contempt::new(contempt, 0);
        let draw_reward0 = contempt.draw_reward0();
        let config = SimConfig {
            contempt,
            ..SimConfig::new(DUCT, MAX_NODES)
        };
        let search = searched(MatrixGame::new(DRAW_OR_LESS), config, 3_000);
        assert_eq!(
            search.best_move(0, &mut rng(3)),
            Some(expected),
            "a draw worth {draw_reward0} to player 0"
        );
        let draw_row = search.root_actions(0)[0].mean;
        assert!((draw_row - draw_reward0).abs() < 1e-4, "{draw_row}");
    }
}
