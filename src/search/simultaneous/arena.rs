//! The stacked matrix tree's arena: the [`Node`] and [`Cell`] layout, adding a node, the
//! index ranges of a node's actions, and moving the root (tree reuse).

use super::policy::ActionStats;
use super::SimSearch;
use crate::game::Player;
use crate::search::{Evaluator, SimGame, TreePolicy};

/// `Cell::child` of a joint move that has no node yet.
pub(super) const NO_CHILD: u32 = u32::MAX;
pub(super) const ROOT: u32 = 0;
/// The value of a joint move never tried, in Regret Matching's regrets. The paper starts
/// the matrix at zero on a zero-sum reward scale, i.e. a draw; on our `0..=1` scale a draw
/// is one half, which keeps unexplored moves neutral for both players.
pub(super) const UNTRIED_CELL_VALUE: f32 = 0.5;

/// One node of the stacked matrix tree.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// First index in `moves` and `stats`: player 0's `n0` actions, then player 1's `n1`.
    pub(super) actions: u32,
    /// First index in `cells`: `n0 × n1` joint moves, row-major by player 0's action.
    pub(super) cells: u32,
    pub(super) n0: u16,
    pub(super) n1: u16,
    /// Simulations that went through this node (the `nⱼ` of the UCB formulas).
    pub(super) visits: u32,
    /// Player 0's exact reward when the game is over here; no play-out is needed then.
    pub(super) terminal: Option<f32>,
}

/// One joint move of a node: its child and the entry `X_{m,n}` of the matrix M of Eq. (4).
#[derive(Clone, Copy, Debug)]
pub(super) struct Cell {
    pub(super) child: u32,
    pub(super) visits: u32,
    /// Sum of player 0's rewards after this joint move.
    pub(super) reward0_sum: f32,
}

impl Cell {
    pub(super) const EMPTY: Cell = Cell {
        child: NO_CHILD,
        visits: 0,
        reward0_sum: 0.0,
    };

    /// Player 0's mean reward `X̄_{m,n}` after this joint move.
    #[inline]
    pub(super) fn mean0(&self) -> f32 {
        if self.visits == 0 {
            UNTRIED_CELL_VALUE
        } else {
            self.reward0_sum / self.visits as f32
        }
    }
}

impl<G: SimGame, E: Evaluator<G> + TreePolicy<G>> SimSearch<G, E> {
    /// Moves the root to `new_root`. When a joint move leads there from the current root
    /// and the tree holds its subtree, the subtree is kept (compacted into fresh arenas)
    /// and `true` is returned; otherwise the tree restarts from `new_root`.
    pub fn reroot(&mut self, new_root: &G) -> bool {
        let kept = self.child_at(new_root);
        self.root_state = new_root.clone();
        match kept {
            Some(child) => {
                self.keep_subtree(child);
                true
            }
            None => {
                self.restart();
                false
            }
        }
    }

    /// The root's child whose position is `position`, if the tree has one.
    fn child_at(&self, position: &G) -> Option<u32> {
        let root = self.nodes[ROOT as usize];
        let (moves0, moves1) = (
            self.player_actions(ROOT, 0).0,
            self.player_actions(ROOT, 1).0,
        );
        let cells = &self.cells[root.cells as usize..][..moves0.len() * moves1.len()];
        cells
            .iter()
            .enumerate()
            .filter(|(_, cell)| cell.child != NO_CHILD)
            .find_map(|(joint, cell)| {
                let mut after = self.root_state.clone();
                after.play_joint(moves0[joint / moves1.len()], moves1[joint % moves1.len()]);
                (after == *position).then_some(cell.child)
            })
    }

    /// Forgets the tree and starts over from the root state.
    pub(super) fn restart(&mut self) {
        self.nodes.clear();
        self.moves.clear();
        self.stats.clear();
        self.cells.clear();
        let root_state = self.root_state.clone();
        self.push_node(&root_state);
    }

    /// Rebuilds the arenas with only the subtree of `new_root`, breadth first, so that
    /// `new_root` becomes node 0 and the freed space is reclaimed.
    fn keep_subtree(&mut self, new_root: u32) {
        let mut nodes = Vec::new();
        let mut moves = Vec::new();
        let mut stats = Vec::new();
        let mut cells = Vec::new();
        // A node's new index is its position in this queue.
        let mut queue = vec![new_root];
        let mut next = 0;
        while next < queue.len() {
            let old = self.nodes[queue[next] as usize];
            next += 1;
            let action_range =
                old.actions as usize..old.actions as usize + old.n0 as usize + old.n1 as usize;
            let cell_range =
                old.cells as usize..old.cells as usize + old.n0 as usize * old.n1 as usize;
            nodes.push(Node {
                actions: moves.len() as u32,
                cells: cells.len() as u32,
                ..old
            });
            moves.extend_from_slice(&self.moves[action_range.clone()]);
            stats.extend_from_slice(&self.stats[action_range]);
            for cell in &self.cells[cell_range] {
                let mut cell = *cell;
                if cell.child != NO_CHILD {
                    queue.push(cell.child);
                    cell.child = (queue.len() - 1) as u32;
                }
                cells.push(cell);
            }
        }
        self.nodes = nodes;
        self.moves = moves;
        self.stats = stats;
        self.cells = cells;
    }

    /// Appends a node for `state`: terminal with its exact reward, or with both players'
    /// legal moves, fresh statistics and an empty joint-move matrix.
    pub(super) fn push_node(&mut self, state: &G) -> u32 {
        let index = self.nodes.len() as u32;
        let actions = self.moves.len() as u32;
        let cells = self.cells.len() as u32;
        if let Some(outcome) = self.outcome(state) {
            self.nodes.push(Node {
                actions,
                cells,
                n0: 0,
                n1: 0,
                visits: 0,
                terminal: Some(self.reward0(outcome)),
            });
            return index;
        }
        let mut counts = [0u16; 2];
        for (player, count) in counts.iter_mut().enumerate() {
            let moves = state.legal_moves(player as Player).into_iter();
            assert!(
                moves.len() > 0,
                "a SimGame that is not over must give every player a move"
            );
            *count = u16::try_from(moves.len()).expect("at most 65535 moves");
            self.moves.extend(moves);
        }
        let [n0, n1] = counts;
        let n_actions = (n0 + n1) as usize;
        self.stats
            .resize(self.stats.len() + n_actions, ActionStats::default());
        self.cells
            .resize(self.cells.len() + n0 as usize * n1 as usize, Cell::EMPTY);
        self.nodes.push(Node {
            actions,
            cells,
            n0,
            n1,
            visits: 0,
            terminal: None,
        });
        index
    }

    /// Index range in `moves` and `stats` of `player`'s actions at `node`.
    #[inline]
    pub(super) fn action_range(&self, node: u32, player: Player) -> std::ops::Range<usize> {
        let n = self.nodes[node as usize];
        let start = n.actions as usize + if player == 0 { 0 } else { n.n0 as usize };
        let len = if player == 0 { n.n0 } else { n.n1 } as usize;
        start..start + len
    }

    pub(super) fn player_actions(&self, node: u32, player: Player) -> (&[G::Move], &[ActionStats]) {
        let range = self.action_range(node, player);
        (&self.moves[range.clone()], &self.stats[range])
    }
}
