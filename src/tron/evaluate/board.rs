//! A position as the evaluation's cell sets, [`Board`], and all it computes: whether the
//! riders are separated, their Voronoi regions, and the two searches for the best chain
//! of chambers in a region ([`Board::chambers`] on the contracted region, else
//! [`Board::fillable`] cell by cell). Its methods stay in this one file: the one-file
//! CodinGame build (`cg-bundle`) finds a file only by a path that names it, never by a
//! method call.

use std::cell::Cell;

use super::cells::{Cells, PerCell};
use super::chain::{close_block, Chain};
use super::chambers::{Doors, CELLS_A_DOOR};
use super::score::Space;
use super::scratch::{Frame, Node, Scratch, SCRATCH};
use crate::tron::grid::{Bitboard, Grid};
use crate::tron::space::{grow_voronoi, neighbour_deltas};
use crate::tron::TronState;

/// A position as `N`-word sets.
pub(super) struct Board<const N: usize> {
    pub(super) free: Cells<N>,
    pub(super) heads: [usize; 2],
    pub(super) stride: usize,
    pub(super) deltas: [isize; 4],
    /// The white cells (`x + y` odd), for the parity counts.
    pub(super) white: Cells<N>,
}

impl<const N: usize> Board<N> {
    pub(super) fn new(state: &TronState) -> Self {
        let grid = state.grid();
        debug_assert!(grid.words() <= N);
        Board {
            free: Cells::from_bitboard(&state.free()),
            heads: [state.head_index(0), state.head_index(1)],
            stride: grid.stride(),
            deltas: neighbour_deltas(grid),
            white: Cells::from_bitboard(&white_cells(grid)),
        }
    }

    /// Whether no free path joins the riders: the two fills stop as soon as they meet.
    pub(super) fn separated(&self) -> bool {
        let mut reached = self.heads.map(Cells::<N>::single);
        let mut frontier = reached;
        loop {
            let next = [0, 1].map(|p| frontier[p].spread(self.stride).and(self.free));
            if !next[0].and(reached[1].or(next[1])).is_empty()
                || !next[1].and(reached[0]).is_empty()
            {
                return false;
            }
            frontier = [0, 1].map(|p| next[p].and_not(reached[p]));
            if frontier[0].is_empty() || frontier[1].is_empty() {
                return true;
            }
            reached = [0, 1].map(|p| reached[p].or(frontier[p]));
        }
    }

    /// The Voronoi regions (whole components when separated) and what fills them.
    pub(super) fn space(&self) -> Space {
        let mut reached = self.heads.map(Cells::<N>::single);
        grow_voronoi(
            reached,
            self.free,
            |cells, within| cells.spread(self.stride).and(*within),
            |new, _| reached = [0, 1].map(|p| reached[p].or(new[p])),
        );
        // The cells both reach in the same step are the battlefront. The riders touch when
        // they share a cell or a free cell of one borders the other's.
        let front = reached[0].and(reached[1]);
        let bordering = reached[0]
            .spread(self.stride)
            .and(reached[1])
            .and(self.free);
        let touching = !front.is_empty() || !bordering.is_empty();
        let owned = [0, 1].map(|p| {
            let head = Cells::single(self.heads[p]);
            reached[p].and_not(reached[1 - p]).and_not(head)
        });
        let chains = SCRATCH.with(|scratch| {
            let scratch = &mut *scratch.borrow_mut();
            [0, 1].map(|p| {
                let (region, head) = (&owned[p], self.heads[p]);
                self.chambers(region, head, scratch)
                    .unwrap_or_else(|| self.fillable(region, head, scratch))
            })
        });
        Space {
            separated: !touching,
            territory: owned.map(|o| o.count()),
            fillable: chains.map(Chain::moves),
            edges: chains.map(|c| c.edges() / 2),
        }
    }

    /// [`Board::fillable`] on a smaller graph, or `None` where it could differ (or would
    /// take longer).
    ///
    /// A cell whose neighbours in the region (the head counted in) all join up through
    /// the eight cells around it is no articulation point: every path through it can go
    /// round. The other cells, the *doors* (on a corridor, at a narrow pass, beside a
    /// pillar), are few, and they cut the rest of the region into a few *pieces*, each
    /// found by one fill. A piece holds no articulation point, so it lies inside one
    /// block: the search runs on the graph of the head, the doors and the pieces, each
    /// piece one node with its cells' counts. The doors that are articulation points are
    /// found as before (a door stays one whether the pieces are contracted or not). A
    /// piece can become a cut of the smaller graph without being one of the region (a
    /// two-cell-wide corridor), so no block closes at a piece: what returns to it stays
    /// in the block around it.
    ///
    /// The blocks, the doors' blocks in the order the cell search closes them (a door's
    /// neighbours are tried in the same order) and so every value are the cell search's,
    /// except where it picks the chain below a block from equals by the order it found
    /// the doors: where two different chains tie there, this gives up.
    fn chambers(&self, region: &Cells<N>, head: usize, scratch: &mut Scratch) -> Option<Chain> {
        let doors = self.doors(region, head)?;
        if doors.cells.is_empty() && !doors.head_cut {
            // no door, and the head's neighbours join up round it: one block
            return Some(doors.counts(region));
        }
        self.contract(region, head, &doors, scratch);
        scratch.search_nodes()
    }

    /// The doors of `region` with `head` (see [`Board::chambers`]) and what counting its
    /// cells needs, or `None` where there are so many that the cell search is quicker.
    #[inline(always)]
    fn doors(&self, region: &Cells<N>, head: usize) -> Option<Doors<N>> {
        let near = region.or(Cells::single(head));
        // the eight neighbours: bit `v` of `up` is the cell above `v`, ...
        let [up, down, left, right] = self.deltas.map(|d| near.toward(d));
        let [up_left, up_right] = [-1, 1].map(|d| up.toward(d));
        let [down_left, down_right] = [-1, 1].map(|d| down.toward(d));
        // going round clockwise, the neighbours after which the way round is broken
        let ends = [
            up.and_not(up_right.and(right)),
            right.and_not(down_right.and(down)),
            down.and_not(down_left.and(left)),
            left.and_not(up_left.and(up)),
        ];
        let (either, both) = (ends[0].or(ends[1]), ends[0].and(ends[1]));
        let (either2, both2) = (ends[2].or(ends[3]), ends[2].and(ends[3]));
        let cut = both.or(both2).or(either.and(either2));
        let doors = region.and(cut);
        if doors.count() * CELLS_A_DOOR > region.count() {
            // doors everywhere (walls scattered like noise): the cell search is quicker
            return None;
        }

        let head_white = self.white.contains(head);
        let first_colour = if head_white {
            region.and_not(self.white)
        } else {
            region.and(self.white)
        };
        // the same without the head
        let in_region = std::array::from_fn::<_, 4, _>(|k| {
            let d = self.deltas[k];
            [up, down, left, right][k].and_not(Cells::single(head.wrapping_add_signed(-d)))
        });
        Some(Doors {
            near,
            cells: doors,
            head_cut: cut.contains(head),
            first_colour,
            in_region,
        })
    }

    /// Fills `scratch`'s nodes, their neighbours and `node_of` with the graph of the head
    /// (node 0), the doors and the pieces the doors cut `region` into.
    #[inline(always)]
    fn contract(&self, region: &Cells<N>, head: usize, doors: &Doors<N>, scratch: &mut Scratch) {
        let Scratch {
            node_of,
            nodes,
            adjacent,
            ..
        } = scratch;
        nodes.clear();
        adjacent.clear();
        node_of.resize(N * 64, 0);
        // the head and the doors, their neighbours filled in once the pieces are known
        let cell_nodes = doors.cells.or(Cells::single(head));
        for (cell, inc) in std::iter::once((head, Chain::default())).chain(
            doors
                .cells
                .iter()
                .map(|door| (door, doors.door_counts(door))),
        ) {
            node_of[cell] = nodes.len() as u16;
            nodes.push(Node {
                inc,
                piece: false,
                adjacent: 0..0,
            });
        }
        let next_to_cell_nodes = cell_nodes.spread(self.stride);
        let mut rest = region.and_not(doors.cells);
        // the first fill from the middle cell, most likely in the largest piece, which a
        // fill from its middle covers in fewer steps than from its corner
        let mut next_seed = rest.middle();
        while let Some(seed) = next_seed.take().or_else(|| rest.first()) {
            let piece = Cells::single(seed).fill(&rest, self.stride);
            rest = rest.and_not(piece);
            let id = nodes.len() as u16;
            for cell in piece.and(next_to_cell_nodes).iter() {
                node_of[cell] = id;
            }
            let start = adjacent.len() as u32;
            for cell in piece.spread(self.stride).and(cell_nodes).iter() {
                adjacent.push(node_of[cell]);
            }
            nodes.push(Node {
                inc: doors.counts(&piece),
                piece: true,
                adjacent: start..adjacent.len() as u32,
            });
        }
        // outside the region, a door's neighbour is a node found long ago
        let outside = nodes.len() as u16;
        for (id, cell) in std::iter::once(head).chain(doors.cells.iter()).enumerate() {
            let start = adjacent.len() as u32;
            adjacent.extend(self.deltas.map(|d| {
                let next = cell.wrapping_add_signed(d);
                if doors.near.contains(next) {
                    node_of[next]
                } else {
                    outside
                }
            }));
            nodes[id].adjacent = start..adjacent.len() as u32;
        }
    }

    /// The tree-of-chambers fill of `region` from `head` (see the module notes): one
    /// iterative depth-first search over the region and the head (Tarjan's low points).
    /// When the search returns from `w` to `v` with `low[w] >= disc[v]`, the cells found
    /// since `w` and not yet given to a block form a block hanging off `v`; its value is
    /// its cells plus the best chain hanging off any of them, and `v` keeps the best of
    /// its blocks (the first of equals).
    ///
    /// Shaped for few instructions a cell, all of them on arrays the search writes before
    /// it reads them (nothing to clear but `disc`, filled with [`OUTSIDE`] here: the
    /// search on the contracted region, which needs none, runs first and most often):
    /// - `disc` tells everything about a neighbour: its discovery time once visited,
    ///   [`UNVISITED`] plus its number of neighbours in the region before, [`OUTSIDE`]
    ///   when it is not in the region. One load per neighbour gives the mask of unvisited
    ///   ones and the low point (the smallest discovery time among them: a neighbour
    ///   visited later is a descendant, whose time is larger);
    /// - the cells found but not yet given to a block are only summed, in a running
    ///   [`Chain`] whose value at a child's discovery its parent's frame keeps: the block
    ///   is the difference. A cell's colour is the parity of its depth (every step
    ///   changes colour);
    /// - only the finished cells with blocks hanging off them go on a stack, `rich`, to
    ///   give a block the best chain below it: the one with the most moves and cells, the
    ///   last found of equals (the old search's order, which read the block's cells from
    ///   the last found back).
    fn fillable(&self, region: &Cells<N>, head: usize, scratch: &mut Scratch) -> Chain {
        let mut disc = PerCell::<u16, N>::new(OUTSIDE);
        let disc = disc.0.as_flattened_mut();
        let degree = region.degrees(&self.deltas);
        for (d, cells) in degree.iter().enumerate() {
            for i in cells.iter() {
                disc[i] = UNVISITED + d as u16;
            }
        }
        disc[head] = 0;
        let deltas = self.deltas;
        let Scratch { frames, rich, .. } = scratch;
        frames.clear();
        rich.clear();
        let (mut v, mut disc_v, mut low_v, mut best_v) = (head, 0u16, 0u16, Chain::default());
        let (mut time, mut found, mut colour) = (0u16, Chain::default(), Chain::FIRST);
        loop {
            let near = deltas.map(|d| disc[v.wrapping_add_signed(d)]);
            low_v = low_v.min(near[0].min(near[1]).min(near[2].min(near[3])));
            let fresh = (0..4).fold(0u32, |mask, k| {
                mask | u32::from(near[k].wrapping_sub(UNVISITED) <= 4) << k
            });
            if fresh != 0 {
                let w = v.wrapping_add_signed(deltas[fresh.trailing_zeros() as usize]);
                let degree = u64::from(disc[w] - UNVISITED);
                frames.push(Frame {
                    cell: v as u16,
                    disc: disc_v,
                    low: low_v,
                    found,
                    best: best_v,
                });
                time += 1;
                disc[w] = time;
                found.0 += colour + degree * Chain::EDGE;
                colour ^= Chain::FIRST ^ Chain::SECOND;
                (v, disc_v, low_v, best_v) = (w, time, u16::MAX, Chain::default());
                continue;
            }
            let Some(parent) = frames.pop() else {
                break best_v;
            };
            colour ^= Chain::FIRST ^ Chain::SECOND;
            let (child_disc, child_low, child_best) = (disc_v, low_v, best_v);
            (v, disc_v, best_v) = (parent.cell as usize, parent.disc, parent.best);
            low_v = parent.low.min(child_low);
            if child_low >= disc_v {
                let below = last_best_below(rich, child_disc, child_best);
                close_block(&mut found, parent.found, below, &mut best_v);
            } else if child_best != Chain::default() {
                rich.push((child_disc, child_best));
            }
        }
    }
}

/// [`Board::fillable`]'s `disc` of a cell outside the region.
const OUTSIDE: u16 = u16::MAX;
/// [`Board::fillable`]'s `disc` of an unvisited cell of the region with no neighbour in
/// the region (plus one for each neighbour). Above every discovery time.
const UNVISITED: u16 = u16::MAX - 15;

/// [`Board::fillable`]'s best chain below a block: the most moves and cells of the
/// child's best and of the `rich` cells found since `child_disc` (taken off), the last
/// found of equals.
#[inline(always)]
fn last_best_below(rich: &mut Vec<(u16, Chain)>, child_disc: u16, child_best: Chain) -> Chain {
    let mut below = (0u64, Chain::default());
    let mut consider = |found_at: u16, chain: Chain| {
        let rank = u64::from(chain.key()) << 16 | u64::from(found_at);
        if rank > below.0 {
            below = (rank, chain);
        }
    };
    if child_best != Chain::default() {
        consider(child_disc, child_best);
    }
    while let Some(&(found_at, chain)) = rich.last() {
        if found_at < child_disc {
            break;
        }
        rich.pop();
        consider(found_at, chain);
    }
    below.1
}

/// [`Grid::white_mask`], computed once per board size and thread (it walks every cell).
fn white_cells(grid: Grid) -> Bitboard {
    thread_local! {
        static WHITE: Cell<Option<Bitboard>> = const { Cell::new(None) };
    }
    WHITE.with(|cached| match cached.get() {
        Some(white) if white.grid() == grid => white,
        _ => {
            let white = grid.white_mask();
            cached.set(Some(white));
            white
        }
    })
}
