//! Decoupled MCTS for simultaneous-move games over any [`super::SimGame`]: the stacked
//! matrix model of Lanctot et al. (2013, Section 2.1), in which every node holds a
//! matrix of joint moves and each player runs its own bandit over its own moves.
//!
//! The tree is an arena: nodes in a `Vec` addressed by `u32`, each node's moves and
//! per-player statistics in flat `Vec`s (player 0's actions, then player 1's), and one
//! cell per joint move holding the child index and the matrix entry that Regret
//! Matching needs. A child is created once its joint move has been tried
//! [`SimConfig::expand_visits`] times, until [`SimConfig::max_nodes`]; before that, and
//! after, the search plays out from the frontier.
//! States are not stored: each iteration replays the joint moves from a copy of the root.
//!
//! The parts: `arena` (nodes, cells and tree reuse), `policy` (each player's bandit) and
//! `answer` (the root's moves and the move to play); here, the settings and the iteration.

mod answer;
mod arena;
mod policy;
pub mod root_parallel;

pub use answer::RootAction;
pub use policy::SimPolicy;

use super::{
    reward_for, Contempt, Evaluator, FastRng, FinalMove, Guidance, Limits, SearchStats, SimGame,
    TreePolicy,
};
use crate::game::{Outcome, Player};
use arena::{Cell, Node, NO_CHILD, ROOT};
use policy::{ActionStats, Guide};

/// Which selection rule and final-move rule the search uses, and its memory bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimConfig {
    pub policy: SimPolicy,
    pub final_move: FinalMove,
    /// The most nodes the tree may hold; when reached, the search stops expanding.
    pub max_nodes: usize,
    /// Visits a joint move needs before its child node is created; until then the
    /// iteration plays out from the position it reaches (1 = expand at once).
    pub expand_visits: u32,
    /// How each player's UCB selection uses the evaluator's move values (the UCB
    /// policies only: see [`SimPolicy::can_be_guided`]).
    pub guidance: Guidance,
    /// What a drawn game is worth, by the contempt for draws of the player the search
    /// plays for (the search itself treats both players alike).
    pub contempt: Contempt,
}

impl SimConfig {
    /// `policy` with the final-move rule that goes with it, at most `max_nodes` nodes,
    /// each joint move expanded at once.
    pub fn new(policy: SimPolicy, max_nodes: usize) -> Self {
        SimConfig {
            policy,
            final_move: policy.default_final_move(),
            expand_visits: 1,
            max_nodes,
            guidance: Guidance::Uct,
            contempt: Contempt::NONE,
        }
    }
}

/// One joint move chosen during selection, remembered for backpropagation.
#[derive(Clone, Copy, Debug)]
struct Step {
    node: u32,
    action0: u16,
    action1: u16,
    /// The probabilities the actions were sampled with (Exp3 divides rewards by them).
    sigma0: f32,
    sigma1: f32,
}

/// Decoupled simultaneous-move MCTS (DUCT, DUCB1T, Exp3, Regret Matching) from one root,
/// valuing leaves with `E`.
pub struct SimSearch<G: SimGame, E> {
    root_state: G,
    evaluator: E,
    /// The evaluator is deterministic: a joint move's value at the frontier is reused
    /// rather than evaluated again on each visit before its node is created.
    reuses_values: bool,
    config: SimConfig,
    rng: FastRng,
    nodes: Vec<Node>,
    moves: Vec<G::Move>,
    stats: Vec<ActionStats>,
    cells: Vec<Cell>,
    // Scratch buffers, kept so that iterations never allocate.
    path: Vec<Step>,
    sigma: Vec<f32>,
    /// The evaluator's values of one player's actions, for [`SimConfig::guidance`].
    guide_values: Vec<f32>,
}

impl<G: SimGame, E: Evaluator<G> + TreePolicy<G>> SimSearch<G, E> {
    /// A tree holding only `root`. The search's own random choices come from `rng`.
    pub fn new(root: G, config: SimConfig, evaluator: E, rng: FastRng) -> Self {
        let mut search = SimSearch {
            root_state: root,
            reuses_values: evaluator.is_deterministic(),
            evaluator,
            config,
            rng,
            nodes: Vec::new(),
            moves: Vec::new(),
            stats: Vec::new(),
            cells: Vec::new(),
            path: Vec::new(),
            sigma: Vec::new(),
            guide_values: Vec::new(),
        };
        search.restart();
        search
    }

    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The rules' outcome, or one the evaluator is certain of.
    #[inline(always)]
    fn outcome(&self, state: &G) -> Option<Outcome> {
        self.evaluator.outcome(state, state.outcome())
    }

    /// Player 0's reward for a finished game, a draw's with the configured contempt.
    #[inline(always)]
    fn reward0(&self, outcome: Outcome) -> f32 {
        match outcome {
            Outcome::Draw => self.config.contempt.draw_reward0(),
            won => won.reward_for(0),
        }
    }

    pub fn root(&self) -> &G {
        &self.root_state
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Simulations through the root, kept across [`SimSearch::advance`].
    pub fn root_visits(&self) -> u32 {
        self.nodes[ROOT as usize].visits
    }

    /// Runs simulations until `limits` says stop. Does nothing when the root is terminal.
    pub fn search(&mut self, limits: Limits) -> SearchStats {
        let start = std::time::Instant::now();
        let mut stats = SearchStats::default();
        if self.nodes[ROOT as usize].terminal.is_none() {
            while !limits.reached(stats.iterations) {
                let (played_out, refused_expansion) = self.iterate();
                stats.iterations += 1;
                stats.playouts += played_out as u64;
                stats.tree_full |= refused_expansion;
            }
        }
        stats.elapsed = start.elapsed();
        stats.nodes = self.nodes.len();
        stats
    }

    /// Picks `player`'s action at `node`, whose position is `state`, with the configured
    /// policy and guidance.
    #[inline]
    fn select(&mut self, node: u32, player: Player, state: &G) -> (u16, f32) {
        let range = self.action_range(node, player);
        let parent_visits = self.nodes[node as usize].visits;
        let guidance = self.config.guidance;
        // UCT-ULM reads the values only while the player has an untried action.
        let needs_values = self.config.policy.can_be_guided()
            && match guidance {
                Guidance::Uct => false,
                Guidance::UntriedByValue => self.stats[range.clone()].iter().any(|s| s.visits == 0),
                Guidance::ProgressiveBias { .. } => true,
            };
        let guide = if !needs_values {
            Guide::NONE
        } else {
            self.guide_values.clear();
            for &mv in &self.moves[range.clone()] {
                let value = self.evaluator.sim_move_value(state, player, mv);
                self.guide_values.push(value.unwrap_or(0.5));
            }
            Guide {
                guidance,
                values: &self.guide_values,
            }
        };
        let (action, sigma) = self.config.policy.select(
            &mut self.stats[range],
            parent_visits,
            &mut self.sigma,
            &mut self.rng,
            guide,
        );
        (action as u16, sigma)
    }

    /// One simulation: select joint moves down the tree, expand one node (if the budget
    /// allows), evaluate it exactly or by a play-out, and back the reward up.
    /// Returns whether a play-out ran and whether an expansion was refused.
    fn iterate(&mut self) -> (bool, bool) {
        let mut state = self.root_state.clone();
        self.path.clear();
        let mut node = ROOT;
        let mut refused_expansion = false;
        let leaf_state_reward = loop {
            let current = self.nodes[node as usize];
            if let Some(reward0) = current.terminal {
                self.nodes[node as usize].visits += 1;
                break Some(reward0);
            }
            let (action0, sigma0) = self.select(node, 0, &state);
            let (action1, sigma1) = self.select(node, 1, &state);
            self.path.push(Step {
                node,
                action0,
                action1,
                sigma0,
                sigma1,
            });
            let mv0 = self.moves[current.actions as usize + action0 as usize];
            let mv1 = self.moves[(current.actions + current.n0 as u32) as usize + action1 as usize];
            state.play_joint(mv0, mv1);
            let cell =
                current.cells as usize + action0 as usize * current.n1 as usize + action1 as usize;
            let child = self.cells[cell].child;
            if child != NO_CHILD {
                node = child;
                continue;
            }
            // A deterministic evaluator would give this position the value it gave the
            // joint move's earlier visits: their mean.
            let known = (self.reuses_values && self.cells[cell].visits > 0)
                .then(|| self.cells[cell].mean0());
            if self.cells[cell].visits + 1 < self.config.expand_visits {
                break known.or_else(|| self.outcome(&state).map(|o| self.reward0(o)));
            }
            if self.nodes.len() < self.config.max_nodes {
                let child = self.push_node(&state);
                self.cells[cell].child = child;
                let new_node = &mut self.nodes[child as usize];
                new_node.visits += 1;
                break new_node.terminal.or(known);
            }
            refused_expansion = true;
            break known.or_else(|| self.outcome(&state).map(|o| self.reward0(o)));
        };
        let (reward0, played_out) = match leaf_state_reward {
            Some(reward0) => (reward0, false),
            None => (self.evaluator.evaluate(&mut state, &mut self.rng), true),
        };
        self.backpropagate(reward0);
        (played_out, refused_expansion)
    }

    /// Updates every node on the path with player 0's reward (player 1 gets `1 − r`).
    fn backpropagate(&mut self, reward0: f32) {
        let path = std::mem::take(&mut self.path);
        let policy = self.config.policy;
        for step in &path {
            let node = &mut self.nodes[step.node as usize];
            node.visits += 1;
            let node = *node;
            let cell = &mut self.cells[node.cells as usize
                + step.action0 as usize * node.n1 as usize
                + step.action1 as usize];
            cell.visits += 1;
            cell.reward0_sum += reward0;
            for (player, action, sigma) in [
                (0, step.action0, step.sigma0),
                (1, step.action1, step.sigma1),
            ] {
                let reward = reward_for(player, reward0);
                let index = self.action_range(step.node, player).start + action as usize;
                let stats = &mut self.stats[index];
                stats.add_reward(reward);
                policy.exp3_update(stats, reward, sigma);
            }
            if let SimPolicy::RegretMatching { .. } = policy {
                self.update_regrets(node, step, reward0);
            }
        }
        self.path = path;
    }

    /// Regret Matching's update, Eq. (4): each action's regret grows by what it would have
    /// earned against the other player's actual move (the sampled reward `r` for the move
    /// taken, the matrix mean `X̄` for the others) minus `r`.
    fn update_regrets(&mut self, node: Node, step: &Step, reward0: f32) {
        let (n0, n1) = (node.n0 as usize, node.n1 as usize);
        let (a0, a1) = (step.action0 as usize, step.action1 as usize);
        let row = node.cells as usize;
        let cells = &self.cells[row..row + n0 * n1];
        let stats = &mut self.stats[node.actions as usize..node.actions as usize + n0 + n1];
        let (stats0, stats1) = stats.split_at_mut(n0);
        for (i, s) in stats0.iter_mut().enumerate() {
            if i != a0 {
                s.score += f64::from(cells[i * n1 + a1].mean0() - reward0);
            }
        }
        for (j, s) in stats1.iter_mut().enumerate() {
            if j != a1 {
                s.score +=
                    f64::from(reward_for(1, cells[a0 * n1 + j].mean0()) - reward_for(1, reward0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::arena::UNTRIED_CELL_VALUE;
    use super::*;
    use crate::game::Outcome;
    use rand::SeedableRng;

    /// One joint move with 2 moves for player 0 and 3 for player 1, then a draw.
    #[derive(Clone, PartialEq)]
    struct OneShot(bool);

    impl SimGame for OneShot {
        type Move = u8;
        type Moves = std::ops::Range<u8>;
        fn outcome(&self) -> Option<Outcome> {
            self.0.then_some(Outcome::Draw)
        }
        fn legal_moves(&self, player: Player) -> std::ops::Range<u8> {
            0..2 + player
        }
        fn play_joint(&mut self, _: u8, _: u8) {
            self.0 = true;
        }
    }

    /// Values every position as a draw.
    struct Even;

    impl TreePolicy<OneShot> for Even {}

    impl Evaluator<OneShot> for Even {
        fn evaluate(&mut self, _: &mut OneShot, _: &mut FastRng) -> f32 {
            0.5
        }
    }

    #[test]
    fn regret_update_follows_equation_4() {
        let config = SimConfig::new(SimPolicy::RegretMatching { gamma: 0.3 }, 100);
        let mut search = SimSearch::new(OneShot(false), config, Even, FastRng::seed_from_u64(0));
        let root = search.nodes[ROOT as usize];
        let cell = |row: usize, col: usize| root.cells as usize + row * 3 + col;
        // X̄ for player 0: (0, 2) = 0.25, (1, 0) = 0.9; (1, 1) never tried.
        search.cells[cell(0, 2)] = Cell {
            child: NO_CHILD,
            visits: 4,
            reward0_sum: 1.0,
        };
        search.cells[cell(1, 0)] = Cell {
            child: NO_CHILD,
            visits: 10,
            reward0_sum: 9.0,
        };
        let step = Step {
            node: ROOT,
            action0: 1,
            action1: 2,
            sigma0: 1.0,
            sigma1: 1.0,
        };
        let reward0 = 0.75;
        search.update_regrets(root, &step, reward0);
        let regrets: Vec<f64> = search.stats[..5].iter().map(|s| s.score).collect();
        let expected = [
            0.25 - 0.75,               // player 0's move 0 against player 1's move 2
            0.0,                       // the move taken regrets nothing
            (1.0 - 0.9) - 0.25,        // player 1's move 0 against player 0's move 1
            UNTRIED_CELL_VALUE - 0.25, // an untried joint move counts as a draw
            0.0,
        ];
        for (got, want) in regrets.iter().zip(expected) {
            assert!(
                (got - f64::from(want)).abs() < 1e-6,
                "{regrets:?} vs {expected:?}"
            );
        }
    }
}
