//! The sequential MCTS tree (UCT, MCTS-Solver, tree reuse) over any [`Game`].
//!
//! Nodes live in one arena addressed by `u32`; the children of a node are one contiguous
//! block, created together when the node has been visited `expand_visits` times (a new
//! leaf first gets play-outs of its own, which keeps the tree small at millions of
//! iterations per second). Each node keeps its mean reward and 1/√visits up to date during
//! back-propagation, so choosing among the root's 81 UTTT children is one multiply-add
//! per child.

use super::bandit::{exploration_from_ln, fast_ln, ucb1_tuned_bonus};
pub use super::bandit::{rave_beta, Selection};
pub(crate) use super::root_move::proof_value;
pub use super::root_move::{candidates, choose, is_max_robust, MoveInfo, Proof};
use super::{
    moves_between, progressive_bias, Evaluator, FastRng, FinalMove, Game, Guidance, LeafNote,
    Limits, Search, SearchStats, TreePolicy,
};
use crate::game::{Outcome, Player};
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
    /// RAVE with this constant R in the minimum-MSE schedule (see [`rave_beta`]); the
    /// evaluator must report its play-outs' moves ([`Evaluator::played_slots`]).
    pub rave: Option<f32>,
    /// GRAVE (Cazenave 2015): a node with fewer visits than this takes its AMAF values
    /// from the nearest ancestor with the same player to move that has this many (0:
    /// every node its own, plain RAVE). Only with `rave`.
    pub grave_reference: u32,
    /// Heuristic node initialisation: a new child starts as if it had been visited this
    /// often with the value [`TreePolicy::prior`] gives it (0: off, children start empty).
    pub prior_visits: u32,
    /// How selection uses the evaluator's move values (with UCB1 or UCB1-Tuned, not RAVE).
    pub guidance: Guidance,
    /// Contempt for a draw: the player to move where the tree was made (the bot) counts
    /// one as 0.5 − this, the opponent as 0.5 + this (0: half a win to both). A reward of
    /// exactly one half (a drawn play-out or position, a proven draw) is taken for a draw.
    pub contempt: f32,
}

/// A node's all-moves-as-first statistics (RAVE): the mean reward for its mover of the
/// iterations in which its move was played later, by the same player, below its parent.
#[derive(Clone, Copy, Debug, Default)]
struct Amaf {
    mean: f32,
    visits: u32,
}

const NO_CHILDREN: u32 = u32::MAX;

/// The plies between two of a player's turns in an alternating game (its move and the
/// reply): how far [`Tree::reroot`] looks for the new root.
pub const REROOT_PLIES: usize = 2;

/// One node of the arena. Selection reads `mean` and `inv_sqrt_visits` of every child
/// and then `first_child` of the one it picks, so all of them share the node's 24 bytes:
/// one cache-line group per tree level when the tree outgrows the caches.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// Mean reward for `mover`; −∞ once proven lost for `mover`, so that selection never
    /// picks it without looking at the proof.
    mean: f32,
    /// 1/√visits, infinite while unvisited (so an unvisited child is tried first).
    inv_sqrt_visits: f32,
    first_child: u32,
    visits: u32,
    child_count: u16,
    /// The player who made `mv`.
    mover: Player,
    proof: Proof,
    mv: M,
    /// The evaluator's note on this node's position ([`LeafNote`]; in the node's spare
    /// bytes where the move is a byte).
    note: LeafNote,
}

// The note fits the node's spare bytes: a byte-sized move keeps it at 24 bytes.
const _: () = assert!(std::mem::size_of::<Node<u8>>() == 24);

impl<M> Node<M> {
    fn new(mv: M, mover: Player) -> Self {
        Node {
            mean: 0.0,
            inv_sqrt_visits: f32::INFINITY,
            first_child: NO_CHILDREN,
            visits: 0,
            child_count: 0,
            mover,
            proof: Proof::Unknown,
            mv,
            note: 0,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.child_count as usize
    }

    fn is_expanded(&self) -> bool {
        self.first_child != NO_CHILDREN
    }
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
    /// `exploration_terms[n]`: [`Self::exploration_term`] for `n < EXPLORATION_TABLE`.
    exploration_terms: Vec<f32>,
    rng: FastRng,
    path: Vec<u32>,
    moves: Vec<G::Move>,
    /// GRAVE: for each player to move, the node of the current descent whose AMAF values
    /// that player's choices use (see [`TreeConfig::grave_reference`]).
    grave_sources: [u32; 2],
    /// A draw's reward for player 0 with [`TreeConfig::contempt`]. Fixed when the tree is
    /// made, so that pondering, which roots the tree at the opponent's position, keeps
    /// the bot's view.
    draw_reward0: f32,
}

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Tree<G, E> {
    pub fn new(root: G, config: TreeConfig, evaluator: E, seed: u64) -> Self {
        let draw_reward0 = super::reward_for(root.to_move(), 0.5 - config.contempt);
        let mut tree = Tree {
            root_state: root,
            reuses_values: evaluator.is_deterministic(),
            evaluator,
            nodes: Vec::new(),
            square_means: Vec::new(),
            amaf: Vec::new(),
            config,
            exploration_terms: (0..EXPLORATION_TABLE)
                .map(|n| exploration_from_ln(config.exploration, (n as f32).ln()))
                .collect(),
            rng: FastRng::seed_from_u64(seed),
            path: Vec::with_capacity(128),
            moves: Vec::with_capacity(128),
            grave_sources: [0; 2],
            draw_reward0,
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

    fn tracks_squares(&self) -> bool {
        self.config.selection == Selection::Ucb1Tuned
    }

    fn tracks_amaf(&self) -> bool {
        self.config.rave.is_some()
    }

    /// Starts an empty tree at `root_state`. A finished position gets no root node: there
    /// is nothing to search.
    fn reset_root(&mut self) {
        self.nodes.clear();
        self.square_means.clear();
        self.amaf.clear();
        self.moves.clear();
        self.root_state.legal_moves(&mut self.moves);
        // Only the rules' end: a root the evaluator is certain of still needs its move.
        if let (None, Some(&any_move)) = (self.root_state.outcome(), self.moves.first()) {
            // The root's own move is never played; any value of the type does.
            let root_mover = 1 - self.root_state.to_move();
            self.push_nodes(std::iter::once(Node::new(any_move, root_mover)));
        }
    }

    /// Appends nodes with fresh statistics to every array of the arena.
    fn push_nodes(&mut self, nodes: impl ExactSizeIterator<Item = Node<G::Move>>) {
        let count = nodes.len();
        self.nodes.extend(nodes);
        if self.tracks_squares() {
            self.square_means
                .resize(self.square_means.len() + count, 0.0);
        }
        if self.tracks_amaf() {
            self.amaf.resize(self.amaf.len() + count, Amaf::default());
        }
    }

    /// The node reached from the root by `moves`, with its position, if the tree holds it.
    fn descendant(&self, moves: &[G::Move]) -> Option<(usize, G)> {
        let mut state = self.root_state.clone();
        let mut node = 0usize;
        for &mv in moves {
            let parent = self.nodes.get(node)?;
            if !parent.is_expanded() {
                return None;
            }
            node = parent.children().find(|&c| self.nodes[c].mv == mv)?;
            state.play(mv);
        }
        Some((node, state))
    }

    /// Moves the root to `new_root`. When it follows from the current root in at most
    /// [`REROOT_PLIES`] plies and the tree holds that position, its subtree (statistics
    /// included) is kept and `true` returned; otherwise the tree starts afresh.
    pub fn reroot(&mut self, new_root: G) -> bool {
        let reusable = moves_between(&self.root_state, &new_root, REROOT_PLIES)
            .and_then(|moves| self.descendant(&moves))
            .filter(|(_, state)| *state == new_root)
            .map(|(node, _)| node);
        self.root_state = new_root;
        match reusable {
            Some(0) => {}
            Some(node) => self.compact_from(node),
            None => self.reset_root(),
        }
        // A node proven before it was expanded was proven by the evaluator's certainty
        // (the rules' ends have no root node): as the root it must find its move.
        if let Some(root) = self.nodes.first_mut().filter(|root| !root.is_expanded()) {
            root.proof = Proof::Unknown;
        }
        reusable.is_some()
    }

    /// Makes `new_root` the root by copying its subtree into fresh arrays, breadth first,
    /// so that each child block stays contiguous.
    fn compact_from(&mut self, new_root: usize) {
        let mut nodes = vec![self.nodes[new_root]];
        let mut origin = vec![new_root];
        let mut next = 0;
        while next < nodes.len() {
            let old = nodes[next];
            if old.is_expanded() {
                let first = nodes.len() as u32;
                nodes.extend_from_slice(&self.nodes[old.children()]);
                origin.extend(old.children());
                nodes[next].first_child = first;
            }
            next += 1;
        }
        if self.tracks_squares() {
            self.square_means = origin.iter().map(|&i| self.square_means[i]).collect();
        }
        if self.tracks_amaf() {
            self.amaf = origin.iter().map(|&i| self.amaf[i]).collect();
        }
        self.nodes = nodes;
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
                self.nodes[node].proof = match outcome {
                    Outcome::Draw => Proof::Draw,
                    Outcome::Win(p) if p == mover => Proof::Win,
                    Outcome::Win(_) => Proof::Loss,
                };
                self.propagate_proof();
            }
        } else {
            if node == 0 || self.nodes[node].visits >= self.config.expand_visits {
                if self.expand(node, &state) {
                    let parent = &self.nodes[node];
                    node = if self.config.guidance == Guidance::UntriedByValue {
                        self.select_child_guided(node, &state)
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
            self.draw_reward0
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
            node = match self.config.guidance {
                Guidance::Uct => self.select_child(node),
                _ => self.select_child_guided(node, state),
            };
            state.play(self.nodes[node].mv);
            self.path.push(node as u32);
        }
        node
    }

    /// The child of `parent` with the highest mean for its mover (the first of equals).
    fn best_child_by_mean(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let children = p.children();
        let first = children.start;
        children
            .fold((first, f32::NEG_INFINITY), |(best, best_mean), child| {
                let mean = self.nodes[child].mean;
                if mean > best_mean {
                    (child, mean)
                } else {
                    (best, best_mean)
                }
            })
            .0
    }

    /// The reward for player 0 of a proven node, if it is proven.
    fn proven_reward0(&self, node: usize) -> Option<f32> {
        let n = &self.nodes[node];
        // A proof's value is for the mover; as player 0's reward it converts the same way.
        Some(super::reward_for(n.mover, proof_value(n.proof)?))
    }

    /// UCT: the child maximising mean + C·√(ln N)·(1/√n). An unvisited child scores +∞
    /// (its 1/√n is infinite), so the first one is taken; a child proven lost for its
    /// mover has mean −∞. (A child proven won never gets here: its parent is then proven
    /// and not descended into.) One pass over the children, no branch on them.
    #[inline(always)]
    fn select_child(&mut self, parent: usize) -> usize {
        if self.config.selection == Selection::Ucb1Tuned {
            return self.select_child_tuned(parent);
        }
        if let Some(constant) = self.config.rave {
            return self.select_child_rave(parent, constant);
        }
        let p = &self.nodes[parent];
        let exploration = self.exploration_term(p.visits);
        let children = &self.nodes[p.children()];
        let best = if children.len() >= WIDE_SCAN {
            best_ucb_wide(children, exploration)
        } else {
            best_ucb(children, exploration)
        };
        p.first_child as usize + best
    }

    /// `C·√(ln N)` for a parent with `visits` visits, kept above zero so that 0·∞ never
    /// makes an unvisited child's score NaN. Read from a table for the small counts of the
    /// deep nodes: computing it is a chain of about fifty cycles that every level of the
    /// descent would otherwise wait for before scoring its children.
    #[inline(always)]
    fn exploration_term(&self, visits: u32) -> f32 {
        match self.exploration_terms.get(visits as usize) {
            Some(&term) => term,
            None => exploration_from_ln(self.config.exploration, fast_ln(visits as f32)),
        }
    }

    /// UCB1-Tuned: `mean` plus [`ucb1_tuned_bonus`].
    #[inline(never)]
    fn select_child_tuned(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let ln_parent = fast_ln(p.visits.max(1) as f32);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in p.children() {
            if self.nodes[child].visits == 0 {
                return child;
            }
            let score = self.tuned_score(child, ln_parent);
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// A visited child's UCB1-Tuned score (−∞ when proven lost for its mover).
    #[inline]
    fn tuned_score(&self, child: usize, ln_parent: f32) -> f32 {
        let c = &self.nodes[child];
        if c.proof == Proof::Loss {
            return f32::NEG_INFINITY;
        }
        let bonus = ucb1_tuned_bonus(
            self.config.exploration,
            ln_parent,
            c.visits,
            c.mean,
            self.square_means[child],
        );
        c.mean + bonus
    }

    /// Selection with [`TreeConfig::guidance`]; `state` is the parent's position, whose
    /// moves the evaluator values. UCT-ULM takes the untried child of best value while
    /// there is one; Progressive Bias tries untried children first in order, as UCT does,
    /// and then adds its term to the UCB1 (or UCB1-Tuned) score.
    // Kept out of line: the plain descent loop stays as small as it was.
    #[inline(never)]
    fn select_child_guided(&mut self, parent: usize, state: &G) -> usize {
        let p = self.nodes[parent];
        let value = |tree: &Self, child: usize| {
            tree.evaluator
                .move_value(state, tree.nodes[child].mv)
                .unwrap_or(0.5)
        };
        let weight = match self.config.guidance {
            Guidance::Uct => return self.select_child(parent),
            Guidance::UntriedByValue => {
                let mut best = None;
                let mut best_value = f32::NEG_INFINITY;
                for child in p.children().filter(|&c| self.nodes[c].visits == 0) {
                    let v = value(self, child);
                    if v > best_value {
                        best_value = v;
                        best = Some(child);
                    }
                }
                return best.unwrap_or_else(|| self.select_child(parent));
            }
            Guidance::ProgressiveBias { weight } => weight,
        };
        if let Some(untried) = p.children().find(|&c| self.nodes[c].visits == 0) {
            return untried;
        }
        let exploration = self.exploration_term(p.visits);
        let ln_parent = fast_ln(p.visits.max(1) as f32);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in p.children() {
            let c = self.nodes[child];
            let base = match self.config.selection {
                Selection::Ucb1 => ucb_score(&c, exploration),
                Selection::Ucb1Tuned => self.tuned_score(child, ln_parent),
            };
            let score = base + progressive_bias(weight, value(self, child), c.visits, c.mean);
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// RAVE (Liang 2017, §4.3.2): the child maximising `(1 − β)·mean + β·amaf_mean +
    /// C·√(ln N / n)` with [`rave_beta`]. Unvisited children come first, as in UCT, the
    /// one with the best AMAF mean first (Liang 2017's formula leaves their order open).
    /// With GRAVE the AMAF values are those of the same move at the source node.
    #[inline(never)]
    fn select_child_rave(&mut self, parent: usize, constant: f32) -> usize {
        let p = &self.nodes[parent];
        let to_move = (1 - p.mover) as usize & 1;
        let reference = self.config.grave_reference;
        if reference == 0 || p.visits >= reference {
            self.grave_sources[to_move] = parent as u32;
        }
        let source = self.grave_sources[to_move] as usize;
        // GRAVE: the source's AMAF value of each move slot (a parent is its own source,
        // and plain RAVE needs no table).
        let source_amaf = (source != parent).then(|| {
            let mut by_slot = [Amaf::default(); 128];
            for child in self.nodes[source].children() {
                by_slot[G::amaf_slot(self.nodes[child].mv) as usize] = self.amaf[child];
            }
            by_slot
        });
        let exploration = self.exploration_term(p.visits);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        let mut best_unvisited = None;
        for child in p.children() {
            let c = &self.nodes[child];
            let amaf = match &source_amaf {
                None => self.amaf[child],
                Some(by_slot) => by_slot[G::amaf_slot(c.mv) as usize],
            };
            if c.visits == 0 {
                let amaf_mean = if amaf.visits > 0 { amaf.mean } else { 0.5 };
                if best_unvisited.map_or(true, |(_, mean)| amaf_mean > mean) {
                    best_unvisited = Some((child, amaf_mean));
                }
                continue;
            }
            let score = if c.proof == Proof::Loss {
                f32::NEG_INFINITY
            } else {
                let beta = rave_beta(constant, c.visits, amaf.visits);
                (1.0 - beta) * c.mean + beta * amaf.mean + exploration * c.inv_sqrt_visits
            };
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best_unvisited.map_or(best, |(child, _)| child)
    }

    /// RAVE's update after an iteration: from the leaf up, each path node's children
    /// whose move their mover played later in the iteration (below that node in the tree,
    /// or in the play-out: `played`) get the reward in their AMAF statistics.
    fn backpropagate_amaf(&mut self, reward0: f32, played: [u128; 2]) {
        let mut seen = played;
        for depth in (0..self.path.len()).rev() {
            let node = self.nodes[self.path[depth] as usize];
            for child in node.children() {
                let c = &self.nodes[child];
                if seen[c.mover as usize & 1] >> G::amaf_slot(c.mv) & 1 == 1 {
                    let reward = super::reward_for(c.mover, reward0);
                    let amaf = &mut self.amaf[child];
                    amaf.visits += 1;
                    amaf.mean += (reward - amaf.mean) / amaf.visits as f32;
                }
            }
            // The root's own move is fictitious.
            if depth > 0 {
                seen[node.mover as usize & 1] |= 1 << G::amaf_slot(node.mv);
            }
        }
    }

    /// Creates the children of `node`; false if the tree has no room for them.
    #[inline(never)]
    fn expand(&mut self, node: usize, state: &G) -> bool {
        self.moves.clear();
        state.legal_moves(&mut self.moves);
        if self.nodes.len() + self.moves.len() > self.config.max_nodes {
            return false;
        }
        let mover = state.to_move();
        let first = self.nodes.len() as u32;
        let moves = std::mem::take(&mut self.moves);
        self.push_nodes(moves.iter().map(|&mv| Node::new(mv, mover)));
        let prior_visits = self.config.prior_visits;
        if prior_visits > 0 {
            let inv_sqrt_visits = (prior_visits as f32).sqrt().recip();
            for (offset, &mv) in moves.iter().enumerate() {
                let mut child = state.clone();
                child.play(mv);
                let (prior, note) = self.evaluator.prior_noted(state, &child);
                let new = &mut self.nodes[first as usize + offset];
                new.note = note;
                if let Some(reward0) = prior {
                    new.mean = super::reward_for(mover, reward0);
                    new.visits = prior_visits;
                    new.inv_sqrt_visits = inv_sqrt_visits;
                }
            }
        }
        let parent = &mut self.nodes[node];
        parent.first_child = first;
        parent.child_count = moves.len() as u16;
        self.moves = moves;
        true
    }

    fn backpropagate(&mut self, reward0: f32) {
        let track_squares = self.tracks_squares();
        for &index in &self.path {
            let index = index as usize;
            let node = &mut self.nodes[index];
            node.visits += 1;
            // One division a node: the running means step by 1/n, and 1/√n = √(1/n).
            let step = 1.0 / node.visits as f32;
            let reward = super::reward_for(node.mover, reward0);
            node.mean = if node.proof == Proof::Loss {
                f32::NEG_INFINITY
            } else {
                node.mean + (reward - node.mean) * step
            };
            node.inv_sqrt_visits = step.sqrt();
            if track_squares {
                let square = &mut self.square_means[index];
                *square += (reward * reward - *square) * step;
            }
        }
    }

    /// MCTS-Solver: after the last node of the path got a proof, walk up proving
    /// ancestors while their children decide them.
    fn propagate_proof(&mut self) {
        for depth in (0..self.path.len() - 1).rev() {
            let node = self.path[depth] as usize;
            let proof = self.proof_from_children(node);
            if proof == Proof::Unknown {
                break;
            }
            self.nodes[node].proof = proof;
        }
    }

    /// A node's proof from its children's (whose mover is the node's opponent): lost if
    /// the opponent has a winning reply, won if every reply loses, drawn if every reply is
    /// proven and the best is a draw.
    fn proof_from_children(&self, node: usize) -> Proof {
        let mut all_proven = true;
        let mut any_draw = false;
        for child in self.nodes[node].children() {
            match self.nodes[child].proof {
                Proof::Win => return Proof::Loss,
                Proof::Loss => {}
                Proof::Draw => any_draw = true,
                Proof::Unknown => all_proven = false,
            }
        }
        match (all_proven, any_draw) {
            (false, _) => Proof::Unknown,
            (true, true) => Proof::Draw,
            (true, false) => Proof::Win,
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

/// Nodes with at least this many children are scanned by [`best_ucb_wide`].
const WIDE_SCAN: usize = 32;

/// A child's UCT score `mean + exploration·(1/√n)` (`exploration` = `C·√(ln N)`).
#[inline(always)]
fn ucb_score<M>(child: &Node<M>, exploration: f32) -> f32 {
    child.mean + exploration * child.inv_sqrt_visits
}

/// The index of the child with the best [`ucb_score`], the first one on ties.
#[inline(always)]
fn best_ucb<M>(children: &[Node<M>], exploration: f32) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in children.iter().enumerate() {
        let score = ucb_score(child, exploration);
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    best
}

/// The same choice as [`best_ucb`], with four running maxima (child `i` in lane `i % 4`)
/// merged at the end. Each comparison of the single running maximum waits for the one
/// before; four independent chains make the scan of the UTTT root's 81 children about a
/// fifth faster, while few children are faster with the plain loop.
#[inline(always)]
fn best_ucb_wide<M>(children: &[Node<M>], exploration: f32) -> usize {
    const LANES: usize = 4;
    let mut best = [0; LANES];
    let mut best_score = [f32::NEG_INFINITY; LANES];
    let mut consider = |lane: usize, i: usize, child: &Node<M>| {
        let score = ucb_score(child, exploration);
        if score > best_score[lane] {
            best_score[lane] = score;
            best[lane] = i;
        }
    };
    let chunks = children.chunks_exact(LANES);
    let rest_start = children.len() - chunks.remainder().len();
    for (chunk_index, chunk) in chunks.enumerate() {
        for (lane, child) in chunk.iter().enumerate() {
            consider(lane, chunk_index * LANES + lane, child);
        }
    }
    for (lane, child) in children[rest_start..].iter().enumerate() {
        consider(lane, rest_start + lane, child);
    }
    // The best lane; on equal scores the lower index, as the plain loop would find it.
    let mut winner = 0;
    for lane in 1..LANES {
        let (score, index) = (best_score[lane], best[lane]);
        if score > best_score[winner] || (score == best_score[winner] && index < best[winner]) {
            winner = lane;
        }
    }
    best[winner]
}

/// Visit counts below this read `C·√(ln N)` from a table (16 KiB).
const EXPLORATION_TABLE: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_game::{RecordingPlayout, TicTacToe};
    use crate::search::UniformPlayout;

    type TicTacToeTree = Tree<TicTacToe, UniformPlayout<u8>>;

    /// The settings the tests start from, written out here so that the search floor's
    /// tests need nothing from the bot (they were the UTTT bot's defaults when written,
    /// but need not follow them), with a draw worth one half to both players (the tests
    /// compare values with exact ones).
    fn config() -> TreeConfig {
        TreeConfig {
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
            contempt: 0.0,
        }
    }

    fn new_tree(game: TicTacToe, config: TreeConfig, seed: u64) -> TicTacToeTree {
        Tree::new(game, config, UniformPlayout::default(), seed)
    }

    fn searched(game: TicTacToe, config: TreeConfig, iterations: u64) -> TicTacToeTree {
        let mut tree = new_tree(game, config, 7);
        let stats = tree.search(Limits::iterations(iterations));
        assert!(stats.iterations <= iterations);
        tree
    }

    #[test]
    fn fast_ln_is_close_to_ln() {
        for x in [1.0f32, 1.5, 2.0, 3.0, 10.0, 81.0, 1000.0, 123_456.0, 4.0e9] {
            assert!(
                (fast_ln(x) - x.ln()).abs() < 2e-4,
                "ln {x}: {} vs {}",
                fast_ln(x),
                x.ln()
            );
        }
    }

    #[test]
    fn exploration_term_is_c_sqrt_ln_n_on_both_sides_of_the_table() {
        let tree = new_tree(TicTacToe::new(), config(), 1);
        let c = tree.config().exploration;
        assert_eq!(tree.exploration_term(0), f32::MIN_POSITIVE);
        assert_eq!(tree.exploration_term(1), f32::MIN_POSITIVE);
        let limit = EXPLORATION_TABLE as u32;
        for n in [2, 3, 81, limit - 1, limit, limit + 1, 1 << 20, u32::MAX] {
            let exact = c * (n as f64).ln().sqrt() as f32;
            let term = tree.exploration_term(n);
            assert!(
                (term - exact).abs() < 1e-4 * exact,
                "{n}: {term} vs {exact}"
            );
        }
    }

    #[test]
    fn the_wide_scan_picks_the_same_child_as_the_plain_one() {
        let mut rng = FastRng::seed_from_u64(9);
        let mut random = |n: u32| crate::search::random_below(&mut rng, n);
        for case in 0..2000 {
            let count = WIDE_SCAN + random(60) as usize;
            let children: Vec<Node<u8>> = (0..count)
                .map(|i| {
                    let mut node = Node::new(i as u8, 0);
                    // Few distinct values, so that ties are common; some unvisited (+∞
                    // score) and some proven lost (mean −∞).
                    node.mean = match random(8) {
                        0 => f32::NEG_INFINITY,
                        _ => random(4) as f32 / 4.0,
                    };
                    let visits = random(5);
                    if visits > 0 {
                        node.inv_sqrt_visits = 1.0 / (visits as f32).sqrt();
                    }
                    node
                })
                .collect();
            let exploration = random(3) as f32 * 0.5 + f32::MIN_POSITIVE;
            assert_eq!(
                best_ucb_wide(&children, exploration),
                best_ucb(&children, exploration),
                "case {case}"
            );
        }
    }

    #[test]
    fn takes_an_immediate_win() {
        // x x . / o o . / . . .  — x to move wins at 2.
        let tree = searched(TicTacToe::from_picture("xx.oo...."), config(), 2000);
        let best = tree.best_move().unwrap();
        assert_eq!(best.mv, 2);
        assert_eq!(best.proof, Proof::Win);
        assert_eq!(tree.root_proof(), Proof::Win);
    }

    #[test]
    fn blocks_the_only_threat_without_the_solver() {
        // x . . / o o . / x . .  — x to move must block at 5.
        let config = TreeConfig {
            solver: false,
            rave: None,
            grave_reference: 0,
            prior_visits: 0,
            ..config()
        };
        let tree = searched(TicTacToe::from_picture("x..oo.x.."), config, 20_000);
        assert_eq!(tree.best_move().unwrap().mv, 5);
    }

    #[test]
    fn contempt_values_a_draw_below_half_for_the_player_to_move_at_the_root() {
        // x o x / x o o / o x .  — x's last move draws.
        // x o x / x o o / . x .  — o draws at 6 (8 lets x win at 6).
        for (picture, best) in [("xoxxooox.", 8), ("xoxxoo.x.", 6)] {
            for contempt in [0.0, 0.2, -0.1] {
                let config = TreeConfig {
                    solver: false,
                    contempt,
                    ..config()
                };
                let tree = searched(TicTacToe::from_picture(picture), config, 3000);
                let chosen = tree.best_move().unwrap();
                assert_eq!(chosen.mv, best, "{picture} contempt {contempt}");
                assert!(
                    (chosen.value - (0.5 - contempt)).abs() < 1e-4,
                    "{picture} contempt {contempt}: {}",
                    chosen.value
                );
            }
        }
    }

    #[test]
    fn contempt_stays_the_bots_when_the_tree_is_rooted_at_the_opponents_position() {
        // Made with x to move, then rooted at o's move (as pondering does): o's draw at 6
        // is worth 0.5 + contempt to o, as x sees it.
        let config = TreeConfig {
            solver: false,
            contempt: 0.2,
            ..config()
        };
        let mut tree = new_tree(TicTacToe::from_picture("xoxxoo..."), config, 7);
        tree.search(Limits::iterations(500));
        tree.reroot(TicTacToe::from_picture("xoxxoo.x."));
        tree.search(Limits::iterations(3000));
        let chosen = tree.best_move().unwrap();
        assert_eq!(chosen.mv, 6);
        assert!((chosen.value - 0.7).abs() < 1e-4, "{}", chosen.value);
    }

    /// Exact value for the player to move: 1 win, 0.5 draw, 0 loss.
    fn minimax(game: &TicTacToe) -> f32 {
        if let Some(outcome) = game.outcome() {
            return outcome.reward_for(game.to_move());
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut next = *game;
                next.play(mv);
                1.0 - minimax(&next)
            })
            .fold(0.0, f32::max)
    }

    #[test]
    fn proofs_and_chosen_moves_agree_with_minimax() {
        let mut rng = FastRng::seed_from_u64(11);
        let mut proven = 0;
        for _ in 0..40 {
            let mut game = TicTacToe::new();
            for _ in 0..5 {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                if !moves.is_empty() {
                    let pick = crate::search::random_below(&mut rng, moves.len() as u32);
                    game.play(moves[pick as usize]);
                }
            }
            if game.outcome().is_some() {
                continue;
            }
            let tree = searched(game, config(), 30_000);
            let exact = minimax(&game);
            let expected_proof = match exact {
                1.0 => Proof::Win,
                0.0 => Proof::Loss,
                _ => Proof::Draw,
            };
            let root_proof = tree.root_proof();
            if root_proof != Proof::Unknown {
                assert_eq!(root_proof, expected_proof, "{game:?}");
                proven += 1;
            }
            let mut after = game;
            after.play(tree.best_move().unwrap().mv);
            assert_eq!(
                1.0 - minimax(&after),
                exact,
                "a move that throws the game away in {game:?}"
            );
        }
        assert!(proven >= 20, "only {proven} positions proven");
    }

    #[test]
    fn solver_proves_a_lost_position() {
        // x x . / . o . / x . o with o to move: x threatens both 2 (row 0-1-2) and 3
        // (column 0-3-6), and o can block only one.
        let game = TicTacToe::from_picture("xx..o.x.o");
        assert_eq!(game.to_move(), 1);
        let tree = searched(game, config(), 50_000);
        assert_eq!(tree.root_proof(), Proof::Loss);
    }

    #[test]
    fn iteration_limit_is_exact_and_stats_add_up() {
        let mut tree = new_tree(TicTacToe::new(), config(), 3);
        let stats = tree.search(Limits::iterations(500));
        assert_eq!(stats.iterations, 500);
        assert_eq!(tree.root_visits(), 500);
        let child_visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
        assert_eq!(child_visits, 500, "the root is expanded at once");
        assert!(stats.playouts <= stats.iterations);
        assert_eq!(stats.nodes, tree.node_count());
    }

    #[test]
    fn reroot_keeps_the_subtree_of_the_moves_played() {
        let config = TreeConfig {
            solver: false,
            rave: None,
            grave_reference: 0,
            prior_visits: 0,
            ..config()
        };
        let mut tree = new_tree(TicTacToe::new(), config, 5);
        tree.search(Limits::iterations(5000));
        let mut after = TicTacToe::new();
        after.play(4);
        after.play(0);
        let (node, _) = tree
            .descendant(&[4, 0])
            .expect("two plies deep after 5000 iterations");
        let expected_visits = tree.nodes[node].visits;
        assert!(tree.reroot(after));
        assert_eq!(tree.root_visits(), expected_visits);
        assert_eq!(tree.root_state(), &after);
        // Child blocks are intact: the children hold every visit but the play-outs the
        // node had before it was expanded.
        let child_visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
        assert_eq!(child_visits + config.expand_visits, expected_visits);
        tree.search(Limits::iterations(100));
        assert_eq!(tree.root_visits(), expected_visits + 100);
    }

    #[test]
    fn reroot_to_an_unreachable_position_starts_afresh() {
        let mut tree = new_tree(TicTacToe::new(), config(), 5);
        tree.search(Limits::iterations(1000));
        // Three plies away: more than a move and its reply.
        let far = TicTacToe::from_picture("x...o...x");
        assert!(!tree.reroot(far));
        assert_eq!(tree.root_visits(), 0);
        assert_eq!(tree.node_count(), 1);
        assert_eq!(tree.root_state(), &far);
        // From there, a position one ply on is found and searched.
        tree.search(Limits::iterations(1000));
        let mut next = far;
        next.play(2);
        assert!(tree.reroot(next));
        assert!(tree.root_visits() > 0);
    }

    #[test]
    fn the_secure_final_move_prefers_a_sure_value_to_visits() {
        let config = TreeConfig {
            final_move: FinalMove::Secure { a: 1.0 },
            solver: false,
            rave: None,
            grave_reference: 0,
            prior_visits: 0,
            ..config()
        };
        let tree = searched(TicTacToe::new(), config, 3000);
        let best = tree.best_move().unwrap();
        let lower_bound = |m: &MoveInfo<u8>| m.value - 1.0 / (m.visits as f32).sqrt();
        for m in tree.root_moves() {
            assert!(
                lower_bound(&m) <= lower_bound(&best),
                "{m:?} beats {best:?}"
            );
        }
    }

    /// Values a tic-tac-toe position by the marks in the centre and corners, counting
    /// its calls; deterministic when told so.
    struct CountingHeuristic {
        calls: u64,
        deterministic: bool,
    }

    impl TreePolicy<TicTacToe> for CountingHeuristic {}

    impl Evaluator<TicTacToe> for CountingHeuristic {
        fn evaluate(&mut self, game: &mut TicTacToe, _rng: &mut FastRng) -> f32 {
            self.calls += 1;
            let weight = |marks: u16| (marks & 0x155).count_ones() as f32;
            0.5 + (weight(game.marks[0]) - weight(game.marks[1])) / 10.0
        }

        fn is_deterministic(&self) -> bool {
            self.deterministic
        }
    }

    /// Uniform play-outs, and one move the evaluator values highly wherever it is legal.
    struct FavouredMove(u8);

    impl Evaluator<TicTacToe> for FavouredMove {
        fn evaluate(&mut self, game: &mut TicTacToe, rng: &mut FastRng) -> f32 {
            UniformPlayout::default().evaluate(game, rng)
        }
    }

    impl TreePolicy<TicTacToe> for FavouredMove {
        fn move_value(&self, _state: &TicTacToe, mv: u8) -> Option<f32> {
            Some(if mv == self.0 { 1.0 } else { 0.2 })
        }
    }

    fn guided(guidance: Guidance) -> TreeConfig {
        TreeConfig {
            expand_visits: 1,
            solver: false,
            prior_visits: 0,
            guidance,
            ..config()
        }
    }

    #[test]
    fn ulm_tries_the_best_valued_untried_child_first_and_every_child_before_any_twice() {
        let mut tree = Tree::new(
            TicTacToe::new(),
            guided(Guidance::UntriedByValue),
            FavouredMove(7),
            3,
        );
        tree.search(Limits::iterations(1));
        let visited: Vec<u8> = tree
            .root_moves()
            .iter()
            .filter(|m| m.visits > 0)
            .map(|m| m.mv)
            .collect();
        assert_eq!(visited, [7]);
        tree.search(Limits::iterations(8));
        assert!(tree.root_moves().iter().all(|m| m.visits == 1));
    }

    #[test]
    fn progressive_bias_is_weight_times_value_over_losses_and_steers_visits() {
        assert_eq!(progressive_bias(10.0, 0.5, 4, 0.75), 2.5);
        assert_eq!(progressive_bias(10.0, 1.0, 9, 0.0), 1.0);
        let visits_of_edge = |guidance| {
            let mut tree = Tree::new(TicTacToe::new(), guided(guidance), FavouredMove(1), 3);
            tree.search(Limits::iterations(3000));
            tree.root_moves().iter().find(|m| m.mv == 1).unwrap().visits
        };
        let (plain, biased) = (
            visits_of_edge(Guidance::Uct),
            visits_of_edge(Guidance::ProgressiveBias { weight: 10.0 }),
        );
        assert!(biased > 2 * plain, "{biased} vs {plain}");
    }

    #[test]
    fn a_deterministic_evaluator_is_asked_once_per_leaf() {
        let run = |deterministic| {
            let evaluator = CountingHeuristic {
                calls: 0,
                deterministic,
            };
            let mut tree = Tree::new(TicTacToe::new(), config(), evaluator, 11);
            let stats = tree.search(Limits::iterations(5_000));
            (tree.root_moves(), stats.playouts, tree.evaluator().calls)
        };
        let (reused, reused_playouts, reused_calls) = run(true);
        let (fresh, fresh_playouts, fresh_calls) = run(false);
        assert_eq!(reused, fresh, "the same values make the same tree");
        assert_eq!(fresh_calls, fresh_playouts);
        assert_eq!(reused_calls, reused_playouts);
        assert!(
            reused_calls * 4 < fresh_calls,
            "{reused_calls} evaluations against {fresh_calls}"
        );
    }

    /// Notes each position by its marks (in its prior or at its first evaluation) and
    /// checks every note it is handed is that position's.
    #[derive(Default)]
    struct NotingPlayout {
        prior_notes: bool,
        handed: u64,
        noted_here: u64,
    }

    fn note_of(game: &TicTacToe) -> LeafNote {
        1 + (game.marks[0] | game.marks[1] << 9) % 60_000
    }

    impl TreePolicy<TicTacToe> for NotingPlayout {
        fn prior_noted(&self, _parent: &TicTacToe, child: &TicTacToe) -> (Option<f32>, LeafNote) {
            (Some(0.5), if self.prior_notes { note_of(child) } else { 0 })
        }
    }

    impl Evaluator<TicTacToe> for NotingPlayout {
        fn evaluate(&mut self, _game: &mut TicTacToe, _rng: &mut FastRng) -> f32 {
            unreachable!("the tree hands its nodes' notes")
        }

        fn evaluate_noted(
            &mut self,
            game: &mut TicTacToe,
            rng: &mut FastRng,
            note: &mut LeafNote,
        ) -> f32 {
            if *note == 0 {
                *note = note_of(game);
                self.noted_here += 1;
            } else {
                assert_eq!(*note, note_of(game), "a note of another position");
                self.handed += 1;
            }
            UniformPlayout::default().evaluate(game, rng)
        }
    }

    #[test]
    fn a_nodes_note_from_its_prior_or_first_evaluation_comes_back_at_its_later_ones() {
        for prior_notes in [true, false] {
            let evaluator = NotingPlayout {
                prior_notes,
                ..NotingPlayout::default()
            };
            let mut tree = Tree::new(TicTacToe::new(), config(), evaluator, 3);
            let stats = tree.search(Limits::iterations(3_000));
            let NotingPlayout {
                handed, noted_here, ..
            } = *tree.evaluator();
            assert_eq!(handed + noted_here, stats.playouts);
            // With notes from the priors nothing is noted at an evaluation (the root is
            // expanded at once, never evaluated).
            if prior_notes {
                assert_eq!(noted_here, 0);
            } else {
                assert!(
                    noted_here > 50 && handed > 4 * noted_here,
                    "{noted_here} {handed}"
                );
            }
        }
    }

    #[test]
    fn a_full_tree_keeps_searching_without_expanding() {
        let config = TreeConfig {
            max_nodes: 30,
            ..config()
        };
        let mut tree = new_tree(TicTacToe::new(), config, 9);
        let stats = tree.search(Limits::iterations(5000));
        assert_eq!(stats.iterations, 5000);
        assert!(stats.tree_full);
        assert!(tree.node_count() <= 30);
    }

    #[test]
    fn a_finished_position_has_nothing_to_search() {
        let mut tree = new_tree(TicTacToe::from_picture("xxxoo...."), config(), 1);
        let stats = tree.search(Limits::iterations(100));
        assert_eq!(stats.iterations, 0);
        assert!(tree.best_move().is_none());
    }

    #[test]
    fn max_robust_holds_when_the_most_visited_move_is_also_the_best() {
        let tree = searched(TicTacToe::from_picture("x..oo.x.."), config(), 20_000);
        assert!(tree.max_robust_found());
        let best = tree.best_move().unwrap();
        assert_eq!(best.mv, 5);
        let mut not_lost = tree
            .root_moves()
            .into_iter()
            .filter(|m| m.proof != Proof::Loss);
        assert!(not_lost.all(|m| m.value <= best.value));
    }

    #[test]
    fn rave_counts_every_visit_of_a_node_in_its_amaf_statistics_and_more() {
        let config = TreeConfig {
            rave: Some(0.1),
            grave_reference: 0,
            prior_visits: 0,
            expand_visits: 2,
            ..config()
        };
        let mut tree = Tree::new(TicTacToe::new(), config, RecordingPlayout::default(), 3);
        tree.search(Limits::iterations(20_000));
        assert_eq!(tree.amaf.len(), tree.nodes.len());
        // A node's move is always played later in the iterations through it, by its mover.
        for (node, amaf) in tree.nodes.iter().zip(&tree.amaf).skip(1) {
            assert!(amaf.visits >= node.visits, "{node:?} {amaf:?}");
        }
        // Siblings learn from play-outs through other moves: more AMAF updates than visits.
        let root = tree.nodes[0];
        let visits: u32 = root.children().map(|c| tree.nodes[c].visits).sum();
        let amaf: u32 = root.children().map(|c| tree.amaf[c].visits).sum();
        // (x makes three to five moves a game: about four updates a visit.)
        assert!(amaf > 3 * visits, "{amaf} AMAF updates for {visits} visits");
        assert!(tree.best_move().is_some());
    }

    /// A tic-tac-toe tree searched with RAVE, GRAVE's reference `reference` (0: plain RAVE).
    fn rave_tree(reference: u32) -> Tree<TicTacToe, RecordingPlayout> {
        let config = TreeConfig {
            rave: Some(0.1),
            grave_reference: reference,
            expand_visits: 2,
            ..config()
        };
        let mut tree = Tree::new(TicTacToe::new(), config, RecordingPlayout::default(), 5);
        tree.search(Limits::iterations(20_000));
        tree
    }

    #[test]
    fn grave_steers_only_nodes_below_its_reference() {
        // Every node with children has been visited: reference 1 is plain RAVE.
        let rave = rave_tree(0);
        assert_eq!(rave.root_moves(), rave_tree(1).root_moves());
        assert_ne!(rave.root_moves(), rave_tree(1_000).root_moves());
    }

    #[test]
    fn grave_orders_a_young_nodes_new_children_by_its_ancestors_amaf_values() {
        let mut tree = rave_tree(1_000);
        let root = tree.nodes[0];
        // A grandchild of the root (the root's player to move again), young and expanded,
        // with children not yet visited.
        let young = root
            .children()
            .flat_map(|c| tree.nodes[c].children())
            .flat_map(|c| tree.nodes[c].children())
            .find(|&g| {
                let node = tree.nodes[g];
                node.is_expanded()
                    && node.visits < 1_000
                    && node.children().any(|c| tree.nodes[c].visits == 0)
            })
            .expect("a young expanded grandchild");
        let root_amaf = |slot: u32| {
            root.children()
                .find(|&c| TicTacToe::amaf_slot(tree.nodes[c].mv) == slot)
                .map_or(0.5, |c| {
                    let amaf = tree.amaf[c];
                    if amaf.visits > 0 {
                        amaf.mean
                    } else {
                        0.5
                    }
                })
        };
        let expected = tree.nodes[young]
            .children()
            .filter(|&c| tree.nodes[c].visits == 0)
            .map(|c| (c, root_amaf(TicTacToe::amaf_slot(tree.nodes[c].mv))))
            .fold(None, |best: Option<(usize, f32)>, (c, mean)| match best {
                Some((_, best_mean)) if best_mean >= mean => best,
                _ => Some((c, mean)),
            })
            .map(|(c, _)| c);
        // The descent reached the root first: the root is the source for its player.
        tree.grave_sources = [0; 2];
        assert_eq!(Some(tree.select_child_rave(young, 0.1)), expected);
    }

    #[test]
    fn rave_weighs_amaf_fully_at_first_and_less_with_visits() {
        assert_eq!(rave_beta(0.1, 0, 50), 1.0);
        assert_eq!(rave_beta(0.1, 10, 0), 0.0);
        assert!(rave_beta(0.1, 100, 1000) < rave_beta(0.1, 10, 1000));
        assert!((rave_beta(1.0, 10, 10) - 10.0 / 120.0).abs() < 1e-6);
    }

    #[test]
    fn without_rave_no_amaf_statistics_are_kept() {
        let tree = searched(TicTacToe::new(), config(), 2_000);
        assert!(tree.amaf.is_empty());
    }
}
