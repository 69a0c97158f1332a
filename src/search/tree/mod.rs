//! The sequential MCTS tree (UCT, MCTS-Solver, tree reuse) over any [`Game`]: the
//! [`Tree`] and its iteration (descend, expand, evaluate, back up).
//!
//! Nodes live in one arena addressed by `u32`; the children of a node are one contiguous
//! block, created together when the node has been visited `expand_visits` times (a new
//! leaf first gets play-outs of its own, which keeps the tree small at millions of
//! iterations per second). Each node keeps its mean reward and 1/√visits up to date during
//! back-propagation, so choosing among the root's 81 UTTT children is one multiply-add
//! per child.
//!
//! Here: the settings, the tree's iteration and its answer at the root (the
//! root's moves and the move to play). The parts: `arena` (the node arrays, expansion
//! and tree reuse), `selection` (the rule that scores children) and `backup`
//! (back-propagation and the solver's proofs).

mod arena;
mod backup;
mod selection;

pub use self::arena::REROOT_PLIES;
use self::arena::{Amaf, Node};
use self::backup::proof_of;
use self::selection::{SelectionRule, EXPLORATION_TABLE};
use super::bandit::exploration_from_ln;
pub use super::bandit::{rave_beta, Selection};
pub(crate) use super::root_move::proof_value;
pub use super::root_move::{candidates, choose, is_max_robust, MoveInfo, Proof};
use super::{
    Contempt, Evaluator, FastRng, FinalMove, Game, Guidance, Limits, Search, SearchStats,
    TreePolicy,
};
use crate::game::Outcome;
use rand::SeedableRng;
use std::time::Instant;

/// Search settings of the sequential tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeConfig {
    /// UCT exploration constant C in `mean + C·√(ln N / n)` with rewards in 0..1.
    pub exploration: f32,
    pub selection: Selection,
    /// Visits a leaf needs before its children are created.
    pub expand_visits: u32,
    /// The most nodes the tree may hold; when full, search goes on without expanding.
    pub max_nodes: usize,
    pub final_move: FinalMove,
    /// Prove wins, losses and draws (MCTS-Solver) and play proven wins at once.
    pub solver: bool,
    /// RAVE with this constant R in the minimum-MSE schedule (see [`rave_beta`]);
    /// the evaluator must report its play-outs' moves
    /// ([`crate::search::Evaluator::played_slots`]).
    pub rave: Option<f32>,
    /// GRAVE (Cazenave 2015): a node with fewer visits than this takes its AMAF values
    /// from the nearest ancestor with the same player to move that has this many (0:
    /// every node its own, plain RAVE). Only with `rave`.
    pub grave_reference: u32,
    /// Heuristic node initialisation: a new child starts as if it had been visited this
    /// often with the value [`crate::search::TreePolicy::prior`] gives it (0: off,
    /// children start empty).
    pub prior_visits: u32,
    /// How selection uses the evaluator's move values (with UCB1 or UCB1-Tuned, not RAVE).
    pub guidance: Guidance,
    /// Contempt for a draw: the player to move where the tree was made (the bot) counts
    /// one as 0.5 − this, the opponent as 0.5 + this (0: half a win to both), as the
    /// tree's [`crate::search::Contempt`]. A reward of exactly one half (a drawn play-out
    /// or position, a proven draw) is taken for a draw.
    pub contempt: f32,
}

/// A reusable MCTS-UCT search over positions of `G`, valuing leaves with `E`.
pub struct Tree<G: Game, E> {
    root_state: G,
    evaluator: E,
    /// The evaluator is deterministic: a leaf's value is reused on its later visits
    /// before it is expanded, rather than evaluated again.
    reuses_values: bool,
    nodes: Vec<Node<G::Move>>,
    /// Mean squared reward of each node, kept only for [`Selection::Ucb1Tuned`].
    square_means: Vec<f32>,
    /// Each node's AMAF statistics, kept only with RAVE.
    amaf: Vec<Amaf>,
    config: TreeConfig,
    /// The selection rule of `config`.
    rule: SelectionRule,
    /// UCT-ULM ([`TreeConfig::guidance`]): untried children by the evaluator's values.
    untried_by_value: bool,
    /// `exploration_terms[n]`: [`Self::exploration_term`] for `n < EXPLORATION_TABLE`.
    exploration_terms: Vec<f32>,
    rng: FastRng,
    path: Vec<u32>,
    moves: Vec<G::Move>,
    /// GRAVE: for each player to move, the node of the current descent whose AMAF values
    /// that player's choices use (see [`TreeConfig::grave_reference`]).
    grave_sources: [u32; 2],
    /// [`TreeConfig::contempt`] for the player to move where the tree was made.
    contempt: Contempt,
}

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Tree<G, E> {
    pub fn new(root: G, config: TreeConfig, evaluator: E, seed: u64) -> Self {
        let contempt = Contempt::new(config.contempt, root.to_move());
        let mut tree = Tree {
            root_state: root,
            reuses_values: evaluator.is_deterministic(),
            evaluator,
            nodes: Vec::new(),
            square_means: Vec::new(),
            amaf: Vec::new(),
            config,
            rule: SelectionRule::of(&config),
            untried_by_value: config.guidance == Guidance::UntriedByValue,
            exploration_terms: (0..EXPLORATION_TABLE)
                .map(|n| exploration_from_ln(config.exploration, (n as f32).ln()))
                .collect(),
            rng: FastRng::seed_from_u64(seed),
            path: Vec::with_capacity(128),
            moves: Vec::with_capacity(128),
            grave_sources: [0; 2],
            contempt,
        };
        tree.reset_root();
        tree
    }

    pub fn root_state(&self) -> &G {
        &self.root_state
    }

    pub fn config(&self) -> &TreeConfig {
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

    /// [`Tree::outcome`] of the position at `node`, except that the root ends only by the
    /// rules: it is searched for a move even when the evaluator is certain of it.
    #[inline(always)]
    fn leaf_outcome(&self, node: usize, state: &G) -> Option<Outcome> {
        if node == 0 {
            state.outcome()
        } else {
            self.outcome(state)
        }
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Runs iterations until `limits` says stop (or the root is proven) and reports them.
    pub fn search(&mut self, limits: Limits) -> SearchStats {
        let start = Instant::now();
        let mut stats = SearchStats::default();
        if self.nodes.is_empty() {
            return stats;
        }
        // Reserve the whole bound at once: pages are only touched when used, and the
        // arena never copies millions of nodes to grow.
        self.nodes
            .reserve(self.config.max_nodes.saturating_sub(self.nodes.len()));
        while !limits.reached(stats.iterations) {
            if self.config.solver && self.nodes[0].proof != Proof::Unknown {
                break;
            }
            let played_out = self.iterate(&mut stats.tree_full);
            stats.iterations += 1;
            stats.playouts += played_out as u64;
        }
        stats.elapsed = start.elapsed();
        stats.nodes = self.nodes.len();
        stats
    }

    /// One iteration: select, expand, play out, back-propagate. Returns whether a
    /// play-out ran (rather than a terminal or proven position being scored).
    fn iterate(&mut self, tree_full: &mut bool) -> bool {
        let mut state = self.root_state.clone();
        let mut node = self.descend(&mut state);
        let reward0;
        let mut played_out = false;
        let mut played_slots = [0u128; 2];
        if let Some(proven) = self.proven_reward0(node) {
            reward0 = proven;
        } else if let Some(outcome) = self.leaf_outcome(node, &state) {
            reward0 = outcome.reward_for(0);
            if self.config.solver {
                let mover = self.nodes[node].mover;
                self.nodes[node].proof = proof_of(outcome, mover);
                self.propagate_proof();
            }
        } else {
            if node == 0 || self.nodes[node].visits >= self.config.expand_visits {
                if self.expand(node, &state) {
                    let parent = &self.nodes[node];
                    node = if self.untried_by_value {
                        self.select_child(node, &state)
                    } else if self.reuses_values
                        && self.nodes[parent.first_child as usize].visits > 0
                    {
                        // The children start with the evaluator's values (its priors):
                        // back up the best one's (a one-ply minimax), not a random one's.
                        self.best_child_by_mean(node)
                    } else {
                        parent.first_child as usize
                            + super::random_below(&mut self.rng, parent.child_count as u32) as usize
                    };
                    state.play(self.nodes[node].mv);
                    self.path.push(node as u32);
                } else {
                    *tree_full = true;
                }
            }
            let leaf = &self.nodes[node];
            if let Some(outcome) = self.outcome(&state) {
                reward0 = outcome.reward_for(0);
            } else if self.reuses_values && leaf.visits > 0 {
                // A deterministic evaluator gives this leaf the value it gave before.
                reward0 = super::reward_for(leaf.mover, leaf.mean);
            } else {
                let note = &mut self.nodes[node].note;
                reward0 = self
                    .evaluator
                    .evaluate_noted(&mut state, &mut self.rng, note);
                played_out = true;
                if self.tracks_amaf() {
                    played_slots = self.evaluator.played_slots();
                }
            }
        }
        let reward0 = if reward0 == 0.5 {
            self.contempt.draw_reward0()
        } else {
            reward0
        };
        self.backpropagate(reward0);
        if self.tracks_amaf() {
            self.backpropagate_amaf(reward0, played_slots);
        }
        played_out
    }

    /// Selection: from the root down to a node that is not expanded or is proven,
    /// playing the moves on `state` and keeping the path; returns that node. Always
    /// inlined: it is the inner loop's first step, and [`Tree::iterate`] compiles to the
    /// same code as with the loop written in it.
    #[inline(always)]
    fn descend(&mut self, state: &mut G) -> usize {
        self.path.clear();
        let mut node = 0usize;
        self.path.push(0);
        self.grave_sources = [0; 2];
        while self.nodes[node].is_expanded() && self.nodes[node].proof == Proof::Unknown {
            node = self.select_child(node, state);
            state.play(self.nodes[node].mv);
            self.path.push(node as u32);
        }
        node
    }

    /// Visits of the root so far (kept across searches when the tree is reused).
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |root| root.visits)
    }

    /// The root's proven value from the view of the player to move at the root.
    pub fn root_proof(&self) -> Proof {
        // The root node's proof is from its (fictitious) mover's view: flip it.
        match self.nodes.first().map_or(Proof::Unknown, |root| root.proof) {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            other => other,
        }
    }

    /// The root's moves with their statistics, most visited first.
    pub fn root_moves(&self) -> Vec<MoveInfo<G::Move>> {
        let Some(root) = self.nodes.first().filter(|root| root.is_expanded()) else {
            return Vec::new();
        };
        let mut infos: Vec<_> = root
            .children()
            .map(|c| {
                let n = &self.nodes[c];
                MoveInfo {
                    mv: n.mv,
                    visits: n.visits,
                    value: proof_value(n.proof).unwrap_or(n.mean),
                    proof: n.proof,
                }
            })
            .collect();
        infos.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        infos
    }

    /// The move to play under the configured [`FinalMove`] rule (see [`choose`]).
    pub fn best_move(&self) -> Option<MoveInfo<G::Move>> {
        choose(candidates(self.root_moves()), self.config.final_move)
    }

    /// Whether the robust child also has the best mean (it is the max-robust child of
    /// Liang 2017, §4.3). With [`FinalMove::MaxRobust`], [`super::think`] keeps
    /// searching, within a hard limit, until this holds; if it never does, the robust
    /// child is played.
    pub fn max_robust_found(&self) -> bool {
        is_max_robust(&candidates(self.root_moves()))
    }
}

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Search for Tree<G, E> {
    fn search(&mut self, limits: Limits) -> SearchStats {
        Tree::search(self, limits)
    }

    fn final_move_settled(&self) -> bool {
        self.config.final_move != FinalMove::MaxRobust || self.max_robust_found()
    }
}

#[cfg(test)]
mod tests;
