//! The node arena: the [`Node`] layout, the arrays kept beside it (squared means,
//! AMAF statistics), growing it by child blocks and moving its root (tree reuse).

use super::{Selection, Tree};
use crate::game::Player;
use crate::search::root_move::Proof;
use crate::search::{moves_between, reward_for, Evaluator, Game, LeafNote, TreePolicy};

/// A node's all-moves-as-first statistics (RAVE): the mean reward for its mover of the
/// iterations in which its move was played later, by the same player, below its parent.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Amaf {
    pub(super) mean: f32,
    pub(super) visits: u32,
}

const NO_CHILDREN: u32 = u32::MAX;

/// One node of the arena. Selection reads `mean` and `inv_sqrt_visits` of every child
/// and then `first_child` of the one it picks, so all of them share the node's 24 bytes:
/// one cache-line group per tree level when the tree outgrows the caches.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<M> {
    /// Mean reward for `mover`; −∞ once proven lost for `mover`, so that selection never
    /// picks it without looking at the proof.
    pub(super) mean: f32,
    /// 1/√visits, infinite while unvisited (so an unvisited child is tried first).
    pub(super) inv_sqrt_visits: f32,
    pub(super) first_child: u32,
    pub(super) visits: u32,
    pub(super) child_count: u16,
    /// The player who made `mv`.
    pub(super) mover: Player,
    pub(super) proof: Proof,
    pub(super) mv: M,
    /// The evaluator's note on this node's position ([`LeafNote`]; in the node's spare
    /// bytes where the move is a byte).
    pub(super) note: LeafNote,
}

// The note fits the node's spare bytes: a byte-sized move keeps it at 24 bytes.
const _: () = assert!(std::mem::size_of::<Node<u8>>() == 24);

impl<M> Node<M> {
    pub(super) fn new(mv: M, mover: Player) -> Self {
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

    pub(super) fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.child_count as usize
    }

    pub(super) fn is_expanded(&self) -> bool {
        self.first_child != NO_CHILDREN
    }
}

/// The plies between two of a player's turns in an alternating game (its move and the
/// reply): how far [`Tree::reroot`] looks for the new root.
pub const REROOT_PLIES: usize = 2;

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Tree<G, E> {
    pub(super) fn tracks_squares(&self) -> bool {
        self.config.selection == Selection::Ucb1Tuned
    }

    pub(super) fn tracks_amaf(&self) -> bool {
        self.config.rave.is_some()
    }

    /// Starts an empty tree at `root_state`. A finished position gets no root node: there
    /// is nothing to search.
    pub(super) fn reset_root(&mut self) {
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
    pub(super) fn descendant(&self, moves: &[G::Move]) -> Option<(usize, G)> {
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

    /// Creates the children of `node`; false if the tree has no room for them.
    #[inline(never)]
    pub(super) fn expand(&mut self, node: usize, state: &G) -> bool {
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
                    new.mean = reward_for(mover, reward0);
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
}
