//! The evaluation as it was before the low-point searches were reshaped: the reference
//! that [`super::space`] must match on every position.

use super::board::Board;
use super::cells::Cells;
use super::{Space, MEDIUM, SMALL, WORDS};
use crate::tron::TronState;

/// [`super::space`], the old way.
pub(crate) fn space(state: &TronState) -> Space {
    sized_board!(state, board => board_space(&board))
}

fn board_space<const N: usize>(board: &Board<N>) -> Space {
    let mut reached = board.heads.map(Cells::<N>::single);
    let mut frontier = reached;
    let mut owned = [Cells::<N>::EMPTY; 2];
    let mut touching = false;
    loop {
        let spread = [0, 1].map(|p| frontier[p].spread(board.stride).and(board.free));
        touching |= !spread[0].and(reached[1]).is_empty();
        let visited = reached[0].or(reached[1]);
        let new = [0, 1].map(|p| spread[p].and_not(visited));
        if new[0].is_empty() && new[1].is_empty() {
            break;
        }
        let both = new[0].and(new[1]);
        touching |= !both.is_empty();
        for p in 0..2 {
            owned[p] = owned[p].or(new[p].and_not(both));
            reached[p] = reached[p].or(new[p]);
        }
        frontier = new;
    }
    let chains = [0, 1].map(|p| fillable(board, &owned[p], board.heads[p]));
    Space {
        separated: !touching,
        territory: owned.map(|o| o.count()),
        fillable: chains.map(|c| c.moves()),
        edges: chains.map(|c| c.edges as u32 / 2),
    }
}

/// The tree-of-chambers fill of `region` from `head` (see the module notes): one
/// iterative depth-first search over the region and the head. When the search returns
/// from `w` to `v` with `low[w] >= disc[v]`, the cells found since `w` form a block
/// hanging off `v`; its value is its cells plus the best chain hanging off any of
/// them, and `v` keeps the best of its blocks.
///
/// Shaped for few mispredicted branches: the next cell to visit comes from a 4-bit
/// mask of unvisited neighbours, and `low` takes the neighbours' discovery times only
/// when a cell is finished (every neighbour is visited by then, and unvisited or
/// outside cells keep the `u16::MAX` they start with).
fn fillable<const N: usize>(this: &Board<N>, region: &Cells<N>, head: usize) -> Chain {
    let head_colour = this.white.contains(head);
    let mut unvisited = *region;
    let mut disc = PerCell::<u16, N>::new(u16::MAX);
    let mut low = PerCell::<u16, N>::new(u16::MAX);
    // the best chain of blocks hanging off each cell
    let mut best = PerCell::<Chain, N>::new(Chain::default());
    // the parents of the cell being searched, and the cells found but not yet
    // assigned to a block
    let mut parents = PerCell::<u16, N>::new(0);
    let mut pending = PerCell::<u16, N>::new(0);
    let (mut depth, mut pending_len) = (0, 0);
    let mut time = 0;
    disc[head] = time;
    low[head] = time;
    let mut v = head;
    loop {
        let fresh = (0..4).fold(0u32, |mask, k| {
            let w = v.wrapping_add_signed(this.deltas[k]);
            mask | (unvisited.contains(w) as u32) << k
        });
        if fresh != 0 {
            let w = v.wrapping_add_signed(this.deltas[fresh.trailing_zeros() as usize]);
            unvisited.0[w >> 6] &= !(1 << (w & 63));
            time += 1;
            disc[w] = time;
            low[w] = time;
            parents[depth] = v as u16;
            depth += 1;
            pending[pending_len] = w as u16;
            pending_len += 1;
            v = w;
            continue;
        }
        if depth == 0 {
            break;
        }
        let back = this
            .deltas
            .iter()
            .map(|&d| disc[v.wrapping_add_signed(d)])
            .min()
            .unwrap_or(u16::MAX);
        let low_v = low[v].min(back);
        depth -= 1;
        let parent = parents[depth] as usize;
        low[parent] = low[parent].min(low_v);
        if low_v >= disc[parent] {
            let mut block = Chain::default();
            let mut below = Chain::default();
            loop {
                pending_len -= 1;
                let u = pending[pending_len] as usize;
                block.add(this.white.contains(u) != head_colour);
                block.edges += this
                    .deltas
                    .iter()
                    .filter(|&&d| region.contains(u.wrapping_add_signed(d)))
                    .count() as u16;
                below = below.better(best[u]);
                if u == v {
                    break;
                }
            }
            best[parent] = best[parent].better(block.join(below));
        }
        v = parent;
    }
    best[head]
}

/// One value per bit of an `N`-word set (indexed like the bits).
struct PerCell<T, const N: usize>([[T; 64]; N]);

impl<T: Copy, const N: usize> PerCell<T, N> {
    #[inline(always)]
    fn new(value: T) -> Self {
        PerCell([[value; 64]; N])
    }
}

impl<T, const N: usize> std::ops::Index<usize> for PerCell<T, N> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i >> 6][i & 63]
    }
}

impl<T, const N: usize> std::ops::IndexMut<usize> for PerCell<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i >> 6][i & 63]
    }
}

/// Cells of a chain of chambers by colour, relative to the head that fills them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Chain {
    /// Cells of the colour of the head's first step (the other colour).
    first: u16,
    /// Cells of the head's colour.
    second: u16,
    /// Neighbours inside the region, summed over the cells (each edge twice).
    edges: u16,
}

impl Chain {
    #[inline(always)]
    fn add(&mut self, other_colour: bool) {
        if other_colour {
            self.first += 1;
        } else {
            self.second += 1;
        }
    }

    #[inline(always)]
    fn join(self, other: Chain) -> Chain {
        Chain {
            first: self.first + other.first,
            second: self.second + other.second,
            edges: self.edges + other.edges,
        }
    }

    /// The checkerboard parity bound on the moves that fill the chain.
    #[inline(always)]
    fn moves(self) -> u32 {
        let (a, b) = (self.first as u32, self.second as u32);
        2 * a.min(b) + u32::from(a > b)
    }

    /// The chain with more moves (more cells on a tie).
    #[inline(always)]
    fn better(self, other: Chain) -> Chain {
        let key = |c: Chain| (c.moves(), c.first + c.second);
        if key(other) > key(self) {
            other
        } else {
            self
        }
    }
}
