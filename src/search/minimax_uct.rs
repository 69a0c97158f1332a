//! UCT with minimax backups for a static evaluation: a best-first search in which a node,
//! at its first visit, is expanded and all its children are valued at once by the
//! evaluation, and each node's value is the minimax of its children's (`1 − the best
//! child's`) instead of a mean of play-outs. Selection is UCB over those values. This is
//! the limit `α = 1` of Lanctot et al. 2014's implicit minimax backups and the form the
//! network-guided CodinGame bots take: with an evaluation whose error is smaller than a
//! play-out's noise, the minimax of many valued leaves is worth more than their mean, and
//! every iteration costs one expansion and no play-out.
//!
//! Values are in `0..=1` for the player who moved into the node; a proven result is kept
//! outside that range ([`WIN`], [`LOSS`]), so `1 − max` carries it up the tree as
//! MCTS-Solver would: a child proven won makes its parent proven lost for the player to
//! move there, and a node whose children are all lost is won.

use super::root_move::{MoveInfo, Proof};
use super::{Game, Limits, Search, SearchStats};
use crate::game::Outcome;
use std::time::Instant;

/// A node proven won for the player who moved into it.
pub const WIN: f32 = 2.0;
/// A node proven lost for the player who moved into it (`1 − WIN`).
pub const LOSS: f32 = 1.0 - WIN;

/// The evaluation of a [`MinimaxUct`] search: every child of a node valued together, so
/// that an incremental evaluation (a network's first layer) is computed once per parent.
pub trait ChildValues<G: Game> {
    /// Values, for the player to move in `parent`, of each of `children` (positions one
    /// move after `parent`, none of them finished), in `0.0..=1.0`, written to `values`.
    fn value_children(&mut self, parent: &G, children: &[G], values: &mut [f32]);

    /// An outcome certain in a position the rules have not ended yet (a win at once for
    /// its player to move): the search treats the position as finished. None by default.
    fn certain_outcome(&self, _state: &G) -> Option<Outcome> {
        None
    }
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinimaxConfig {
    /// UCB's exploration constant `C` in `value + C·√(ln N / n)`.
    pub exploration: f32,
    /// The exploration term of a child never visited (its value is the evaluation's).
    pub first_play_urgency: f32,
    /// Nodes the tree may hold; once full, leaves stay as the evaluation valued them.
    pub max_nodes: usize,
}

/// A node's children are not generated yet.
const UNEXPANDED: u16 = u16::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// Value for the player who moved into the node ([`WIN`]/[`LOSS`] when proven).
    value: f32,
    visits: u32,
    first_child: u32,
    /// [`UNEXPANDED`], or the number of children (0: finished, or treated as such).
    children: u16,
    mv: M,
}

impl<M> Node<M> {
    fn is_expanded(&self) -> bool {
        self.children != UNEXPANDED
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first
            ..first
                + if self.is_expanded() {
                    self.children as usize
                } else {
                    0
                }
    }
}

/// Whether a value is a proof ([`WIN`] or [`LOSS`]).
fn is_proven(value: f32) -> bool {
    !(0.0..=1.0).contains(&value)
}

/// The value of a finished position for the player who moved into it.
fn finished_value<G: Game>(state: &G, outcome: Outcome) -> f32 {
    match outcome.reward_for(1 - state.to_move()) {
        r if r >= 1.0 => WIN,
        r if r <= 0.0 => LOSS,
        r => r,
    }
}

/// The search tree: nodes in one vector, each node's children side by side.
pub struct MinimaxUct<G: Game, V> {
    config: MinimaxConfig,
    values: V,
    root_state: G,
    nodes: Vec<Node<G::Move>>,
    /// Scratch for an expansion: moves, child positions, the finished ones' values, the
    /// open ones, and their values.
    moves: Vec<G::Move>,
    children: Vec<G>,
    finished: Vec<Option<f32>>,
    open_children: Vec<G>,
    child_values: Vec<f32>,
    path: Vec<u32>,
    /// Where a kept subtree is copied (kept, with its capacity, from turn to turn).
    spare: Vec<Node<G::Move>>,
}

impl<G: Game, V: ChildValues<G>> MinimaxUct<G, V> {
    /// A tree of one unexpanded root.
    pub fn new(root: G, config: MinimaxConfig, values: V) -> Self {
        let root_move = {
            // The root's move is never read; any move of the type serves.
            let mut moves = Vec::new();
            root.legal_moves(&mut moves);
            moves.first().copied()
        };
        let mut tree = MinimaxUct {
            config,
            values,
            root_state: root,
            // Reserved (not touched) up front: a vector growing by copies mid-turn costs
            // milliseconds the clock does not have.
            nodes: Vec::with_capacity(config.max_nodes),
            moves: Vec::new(),
            children: Vec::new(),
            finished: Vec::new(),
            open_children: Vec::new(),
            child_values: Vec::new(),
            path: Vec::new(),
            spare: Vec::with_capacity(config.max_nodes),
        };
        tree.reset_root(root_move);
        tree
    }

    fn reset_root(&mut self, mv: Option<G::Move>) {
        self.nodes.clear();
        if let Some(mv) = mv {
            self.nodes.push(Node {
                value: 0.5,
                visits: 0,
                first_child: 0,
                children: UNEXPANDED,
                mv,
            });
        }
    }

    pub fn config(&self) -> &MinimaxConfig {
        &self.config
    }

    pub fn values(&self) -> &V {
        &self.values
    }

    pub fn root_state(&self) -> &G {
        &self.root_state
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Moves the root to `new_root`, a position up to four plies below the current one,
    /// keeping the subtree under it (copied to the front, the rest dropped); a new tree
    /// if the tree does not reach it. Whether anything was kept.
    pub fn reroot(&mut self, new_root: G) -> bool {
        // Shallowest first: the position is usually two plies down, and a deeper search
        // first would walk much of the tree's top.
        let found = if self.nodes.is_empty() {
            None
        } else {
            let root = self.root_state.clone();
            (0..=4).find_map(|plies| self.find(0, &root, &new_root, plies))
        };
        self.root_state = new_root;
        let Some(index) = found else {
            let mut moves = Vec::new();
            self.root_state.legal_moves(&mut moves);
            self.reset_root(moves.first().copied());
            return false;
        };
        self.keep_subtree(index);
        // A position the evaluation called finished is searched when it is the root.
        if self.nodes[0].children == 0 && self.root_state.outcome().is_none() {
            self.nodes[0].children = UNEXPANDED;
        }
        true
    }

    /// The node of `target`, exactly `plies` below `index` through expanded nodes.
    fn find(&self, index: usize, state: &G, target: &G, plies: usize) -> Option<usize> {
        if plies == 0 {
            return (state == target).then_some(index);
        }
        self.nodes[index].children().find_map(|child| {
            let mut next = state.clone();
            next.play(self.nodes[child].mv);
            self.find(child, &next, target, plies - 1)
        })
    }

    /// Makes `index` the root: its subtree copied breadth first into the spare vector
    /// (each node's children stay side by side), which then becomes the tree's.
    fn keep_subtree(&mut self, index: usize) {
        if index == 0 {
            return;
        }
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        kept.push(self.nodes[index]);
        let mut next = 0;
        while next < kept.len() {
            let node = kept[next];
            if node.is_expanded() && node.children > 0 {
                kept[next].first_child = kept.len() as u32;
                kept.extend_from_slice(&self.nodes[node.children()]);
            }
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.nodes, kept);
    }

    /// Whether the root's value is proven.
    pub fn root_proven(&self) -> bool {
        self.nodes
            .first()
            .is_some_and(|root| root.is_expanded() && root.children > 0 && is_proven(root.value))
    }

    /// The child of `parent` with the best UCB score.
    #[inline]
    fn select(&self, parent: &Node<G::Move>) -> usize {
        let log_visits = (parent.visits.max(1) as f32).ln();
        let mut best = parent.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in parent.children() {
            let node = &self.nodes[child];
            let explore = if node.visits == 0 {
                self.config.first_play_urgency
            } else {
                self.config.exploration * (log_visits / node.visits as f32).sqrt()
            };
            let score = node.value + explore;
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// Generates and values the children of `index`, whose position is `state`; false
    /// if the tree has no room for them.
    fn expand(&mut self, index: usize, state: &G) -> bool {
        self.moves.clear();
        state.legal_moves(&mut self.moves);
        if self.nodes.len() + self.moves.len() > self.config.max_nodes {
            return false;
        }
        self.children.clear();
        self.finished.clear();
        for &mv in &self.moves {
            let mut child = state.clone();
            child.play(mv);
            let finished = child
                .outcome()
                .or_else(|| self.values.certain_outcome(&child))
                .map(|outcome| finished_value(&child, outcome));
            self.finished.push(finished);
            self.children.push(child);
        }
        let first_child = self.nodes.len() as u32;
        let mut open = Vec::with_capacity(self.moves.len());
        for i in 0..self.moves.len() {
            let finished = self.finished[i];
            self.nodes.push(Node {
                value: finished.unwrap_or(0.5),
                visits: 0,
                first_child: 0,
                children: if finished.is_some() { 0 } else { UNEXPANDED },
                mv: self.moves[i],
            });
            if finished.is_none() {
                open.push((self.nodes.len() - 1, i));
            }
        }
        self.open_children.clear();
        self.open_children
            .extend(open.iter().map(|&(_, i)| self.children[i].clone()));
        self.child_values.clear();
        self.child_values.resize(open.len(), 0.5);
        self.values
            .value_children(state, &self.open_children, &mut self.child_values);
        for (&(child, _), &value) in open.iter().zip(&self.child_values) {
            self.nodes[child].value = value.clamp(0.0, 1.0);
        }
        let node = &mut self.nodes[index];
        node.first_child = first_child;
        node.children = self.moves.len() as u16;
        true
    }

    /// One iteration: descend by UCB to a node not yet expanded (or finished), expand it,
    /// and back the minimax values up the path. Whether the tree was too full to expand.
    fn iterate(&mut self) -> bool {
        let mut state = self.root_state.clone();
        self.path.clear();
        let mut index = 0;
        self.path.push(0);
        while self.nodes[index].is_expanded() && self.nodes[index].children > 0 {
            index = self.select(&self.nodes[index]);
            state.play(self.nodes[index].mv);
            self.path.push(index as u32);
        }
        let full = !self.nodes[index].is_expanded() && !self.expand(index, &state);
        for &at in self.path.iter().rev() {
            let node = self.nodes[at as usize];
            if node.is_expanded() && node.children > 0 {
                let best = self.nodes[node.children()]
                    .iter()
                    .map(|c| c.value)
                    .fold(f32::NEG_INFINITY, f32::max);
                self.nodes[at as usize].value = 1.0 - best;
            }
            self.nodes[at as usize].visits += 1;
        }
        full
    }

    /// The root's moves with their visits, values for the player to move, and proofs.
    pub fn root_moves(&self) -> Vec<MoveInfo<G::Move>> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        self.nodes[root.children()]
            .iter()
            .map(|node| MoveInfo {
                mv: node.mv,
                visits: node.visits,
                value: node.value.clamp(0.0, 1.0),
                proof: match node.value {
                    v if v >= WIN => Proof::Win,
                    v if v <= LOSS => Proof::Loss,
                    _ if node.children == 0 && node.value == 0.5 => Proof::Draw,
                    _ => Proof::Unknown,
                },
            })
            .collect()
    }

    /// The move to play: a proven win, else the most visited move (ties to the better
    /// value); the minimax backups send the visits to the best-valued move.
    pub fn best_move(&self) -> Option<MoveInfo<G::Move>> {
        let key = |m: &MoveInfo<G::Move>| (m.proof == Proof::Win, m.visits, m.value);
        self.root_moves().into_iter().max_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }

    /// The root's value for its player to move.
    pub fn root_value(&self) -> f32 {
        self.nodes
            .first()
            .map_or(0.5, |root| 1.0 - root.value.clamp(0.0, 1.0))
    }
}

impl<G: Game, V: ChildValues<G>> Search for MinimaxUct<G, V> {
    fn search(&mut self, limits: Limits) -> SearchStats {
        let start = Instant::now();
        let mut stats = SearchStats::default();
        if self.nodes.is_empty() || self.root_state.outcome().is_some() {
            return stats;
        }
        while !limits.reached(stats.iterations) && !self.root_proven() {
            // A full tree still iterates (its leaves' values are final) until the limit.
            stats.tree_full |= self.iterate();
            stats.iterations += 1;
        }
        stats.elapsed = start.elapsed();
        stats.nodes = self.nodes.len();
        stats
    }

    fn final_move_settled(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_game::TicTacToe;

    /// A flat evaluation: every open child worth 0.5, so only proofs decide.
    struct Flat;
    impl ChildValues<TicTacToe> for Flat {
        fn value_children(&mut self, _: &TicTacToe, _: &[TicTacToe], values: &mut [f32]) {
            values.fill(0.5);
        }
    }

    const CONFIG: MinimaxConfig = MinimaxConfig {
        exploration: 0.5,
        first_play_urgency: 0.4,
        max_nodes: 1_000_000,
    };

    #[test]
    fn finds_the_winning_move_and_proves_it() {
        // x to move wins on cell 2 (top row).
        let root = TicTacToe::from_picture("xx.oo....");
        let mut tree = MinimaxUct::new(root, CONFIG, Flat);
        tree.search(Limits::iterations(1));
        let best = tree.best_move().expect("expanded");
        assert_eq!((best.mv, best.proof), (2, Proof::Win));
        assert!(tree.root_proven());
    }

    #[test]
    fn a_forced_loss_is_proven_and_the_block_is_played() {
        // o to move must block cell 2 or lose at once.
        let root = TicTacToe::from_picture("xx..o....");
        let mut tree = MinimaxUct::new(root, CONFIG, Flat);
        tree.search(Limits::iterations(2_000));
        let moves = tree.root_moves();
        let best = tree.best_move().expect("expanded");
        assert_eq!(best.mv, 2, "{moves:?}");
        // Every other move lets x win at once: proven lost.
        for m in moves.iter().filter(|m| m.mv != 2) {
            assert_eq!(m.proof, Proof::Loss, "{m:?}");
        }
    }

    #[test]
    fn solves_the_empty_board_as_a_draw() {
        let mut tree = MinimaxUct::new(TicTacToe::new(), CONFIG, Flat);
        tree.search(Limits::iterations(200_000));
        assert!((tree.root_value() - 0.5).abs() < 1e-6);
        assert!(tree.root_moves().iter().all(|m| m.proof != Proof::Win));
    }

    #[test]
    fn rerooting_keeps_the_subtree_of_the_moves_played() {
        let root = TicTacToe::new();
        let mut tree = MinimaxUct::new(root, CONFIG, Flat);
        tree.search(Limits::iterations(5_000));
        let mut after = root;
        after.play(4);
        after.play(0);
        let kept_visits = {
            let centre = tree.root_moves().into_iter().find(|m| m.mv == 4).unwrap();
            centre.visits
        };
        assert!(tree.reroot(after));
        assert_eq!(tree.root_state(), &after);
        let visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
        assert!(
            visits > 0 && visits < kept_visits,
            "{visits} of {kept_visits}"
        );
        // The kept tree is consistent: searching on from it still finds no win for x.
        tree.search(Limits::iterations(50_000));
        assert!(tree.best_move().is_some());
        // A position the tree does not reach starts afresh.
        let far = TicTacToe::from_picture("xo.xo....");
        assert!(!tree.reroot(far));
        assert_eq!(tree.node_count(), 1);
    }

    #[test]
    fn a_full_tree_keeps_searching_without_growing() {
        let config = MinimaxConfig {
            max_nodes: 40,
            ..CONFIG
        };
        let mut tree = MinimaxUct::new(TicTacToe::new(), config, Flat);
        let stats = tree.search(Limits::iterations(500));
        assert!(stats.tree_full);
        assert!(tree.node_count() <= 40);
        assert_eq!(stats.iterations, 500);
    }
}
