//! The endgame filler: once the riders are separated each plays alone, and the longer
//! path wins. A depth-first search for the longest self-avoiding path from our head,
//! pruned by the checkerboard parity bound of the space still reachable, within a node
//! and time budget.

use super::grid::Bitboard;
use super::space::{neighbour_deltas, parity_bound, reachable_from};
use super::{Direction, TronState};
use crate::game::Player;
use crate::search::Limits;

/// What [`fill_longest`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillResult {
    /// The first move of the longest path found; `None` if every move crashes.
    pub first: Option<Direction>,
    /// Moves along that path before the rider must crash.
    pub length: u32,
    /// Whether the path is proven longest (search finished or met the bound).
    pub exact: bool,
    /// Nodes searched.
    pub nodes: u64,
}

struct Filler {
    blocked: Bitboard,
    deltas: [isize; 4],
    best: u32,
    best_first: Option<Direction>,
    root_bound: u32,
    current_first: Option<Direction>,
    nodes: u64,
    /// Each node (path extension) counts as one iteration.
    limits: Limits,
    aborted: bool,
}

impl Filler {
    /// Searches on from head `h` after `depth` moves.
    fn search(&mut self, h: usize, depth: u32) {
        self.nodes += 1;
        if depth > self.best {
            self.best = depth;
            self.best_first = self.current_first;
        }
        if self.best >= self.root_bound {
            return;
        }
        if self.limits.reached(self.nodes) {
            self.aborted = true;
            return;
        }
        let free = self.blocked.inverted();
        let region = reachable_from(&free, h);
        if depth + parity_bound(h, &region) <= self.best {
            return;
        }
        // Warnsdorff order: fewest onward exits first, which finds long paths early.
        let mut children: [(u32, usize, usize); 4] = [(0, 0, 0); 4];
        let mut n = 0;
        for (k, d) in self.deltas.iter().enumerate() {
            let c = h.wrapping_add_signed(*d);
            if self.blocked.get_index(c) {
                continue;
            }
            let exits = self
                .deltas
                .iter()
                .filter(|&&e| !self.blocked.get_index(c.wrapping_add_signed(e)))
                .count() as u32;
            children[n] = (exits, k, c);
            n += 1;
        }
        children[..n].sort_unstable();
        for &(_, k, c) in &children[..n] {
            if depth == 0 {
                self.current_first = Some(Direction::ALL[k]);
            }
            self.blocked.set_index(c);
            self.search(c, depth + 1);
            self.blocked.clear_index(c);
            if self.aborted || self.best >= self.root_bound {
                return;
            }
        }
    }
}

/// The longest path `player` can run from its head, ignoring the opponent except as a
/// wall (meant for separated positions). Stops when `limits` say (a node is an
/// iteration), returning the best path so far.
pub fn fill_longest(state: &TronState, player: Player, limits: Limits) -> FillResult {
    fill_longest_from(state.blocked(), state.head_index(player), limits)
}

/// [`fill_longest`] for any board: the longest path from the cell `head` through the
/// cells clear in `blocked` (which must block the padding around the board).
pub fn fill_longest_from(blocked: &Bitboard, head: usize, limits: Limits) -> FillResult {
    let grid = blocked.grid();
    let region = reachable_from(&blocked.inverted(), head);
    let mut f = Filler {
        blocked: *blocked,
        deltas: neighbour_deltas(grid),
        best: 0,
        best_first: None,
        root_bound: parity_bound(head, &region),
        current_first: None,
        nodes: 0,
        limits,
        aborted: false,
    };
    f.search(head, 0);
    FillResult {
        first: f.best_first,
        length: f.best,
        exact: !f.aborted,
        nodes: f.nodes,
    }
}

/// The longest path length by exhaustive search with no pruning: exponential, for
/// checking [`fill_longest`] on tiny boards.
pub fn longest_path_exact(state: &TronState, player: Player) -> u32 {
    fn go(blocked: &mut Bitboard, deltas: &[isize; 4], h: usize) -> u32 {
        let mut best = 0;
        for d in deltas {
            let c = h.wrapping_add_signed(*d);
            if !blocked.get_index(c) {
                blocked.set_index(c);
                best = best.max(1 + go(blocked, deltas, c));
                blocked.clear_index(c);
            }
        }
        best
    }
    let mut blocked = *state.blocked();
    go(
        &mut blocked,
        &neighbour_deltas(state.grid()),
        state.head_index(player),
    )
}
