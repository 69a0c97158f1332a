//! The contracted region of [`Board::chambers`]: its doors ([`Doors`], the cells that may
//! be articulation points, and the counts of the pieces they cut the region into), and
//! Tarjan's low points on the graph of the head, the doors and the pieces
//! ([`Scratch::search_nodes`]).
//!
//! [`Board::chambers`]: super::board::Board::chambers

use super::cells::Cells;
use super::chain::{close_block, Chain};
use super::scratch::{NodeFrame, Scratch};

/// The fewest cells a door for which [`Board::chambers`] contracts the region: with more
/// doors, the fills of its many small pieces take longer than the cell search (measured on
/// boards with random walls; trails, even late in a game, stay well below).
///
/// [`Board::chambers`]: super::board::Board::chambers
pub(super) const CELLS_A_DOOR: u32 = 8;

/// [`Board::chambers`]'s `node_disc` of a node not found yet.
///
/// [`Board::chambers`]: super::board::Board::chambers
const NOT_FOUND: u16 = u16::MAX;

/// The doors of a region (see [`Board::chambers`]) and what counting its cells needs.
///
/// [`Board::chambers`]: super::board::Board::chambers
pub(super) struct Doors<const N: usize> {
    /// The region and the head.
    pub(super) near: Cells<N>,
    /// The doors: the cells of the region whose eight neighbours do not prove them no
    /// articulation point.
    pub(super) cells: Cells<N>,
    /// Whether the head's neighbours do not join up round it.
    pub(super) head_cut: bool,
    /// The region's cells of the colour of the head's first step.
    pub(super) first_colour: Cells<N>,
    /// The cells with a neighbour in the region at each of the deltas (the head left out).
    pub(super) in_region: [Cells<N>; 4],
}

impl<const N: usize> Doors<N> {
    /// The counts of `cells` of the region: cells by colour and their edges.
    #[inline(always)]
    pub(super) fn counts(&self, cells: &Cells<N>) -> Chain {
        let first = u64::from(cells.and(self.first_colour).count());
        let second = u64::from(cells.count()) - first;
        let edges: u64 = self
            .in_region
            .iter()
            .map(|r| u64::from(cells.and(*r).count()))
            .sum();
        Chain(first * Chain::FIRST + second * Chain::SECOND + edges * Chain::EDGE)
    }

    /// The counts of one door.
    #[inline(always)]
    pub(super) fn door_counts(&self, door: usize) -> Chain {
        let colour = if self.first_colour.contains(door) {
            Chain::FIRST
        } else {
            Chain::SECOND
        };
        let edges = self.in_region.iter().filter(|r| r.contains(door)).count() as u64;
        Chain(colour + edges * Chain::EDGE)
    }
}

impl Scratch {
    /// Tarjan's low points on the graph [`Board::contract`] built, from the head, as in
    /// [`Board::fillable`]: the best chain, or `None` where two different chains tie
    /// below a block.
    ///
    /// [`Board::contract`]: super::board::Board::contract
    /// [`Board::fillable`]: super::board::Board::fillable
    #[inline(always)]
    pub(super) fn search_nodes(&mut self) -> Option<Chain> {
        let Scratch {
            rich,
            nodes,
            adjacent,
            node_disc,
            node_frames,
            ..
        } = self;
        rich.clear();
        node_frames.clear();
        node_disc.clear();
        node_disc.resize(nodes.len() + 1, NOT_FOUND);
        node_disc[0] = 0;
        node_disc[nodes.len()] = NOT_FOUND - 1;
        let mut time = 0u16;
        let (mut v, mut disc_v, mut low_v, mut best_v) = (0usize, 0u16, 0u16, Chain::default());
        let mut next = nodes[0].adjacent.clone();
        let mut found = Chain::default();
        'search: loop {
            while let Some(k) = next.next() {
                let u = adjacent[k as usize] as usize;
                let disc_u = node_disc[u];
                if disc_u == NOT_FOUND {
                    node_frames.push(NodeFrame {
                        node: v as u16,
                        disc: disc_v,
                        low: low_v,
                        next: next.clone(),
                        found,
                        best: best_v,
                    });
                    time += 1;
                    node_disc[u] = time;
                    found.0 += nodes[u].inc.0;
                    (v, disc_v, low_v, best_v) = (u, time, time, Chain::default());
                    next = nodes[u].adjacent.clone();
                    continue 'search;
                }
                low_v = low_v.min(disc_u);
            }
            let Some(parent) = node_frames.pop() else {
                break 'search Some(best_v);
            };
            let (child_disc, child_low, child_best) = (disc_v, low_v, best_v);
            (v, disc_v, best_v, next) =
                (parent.node as usize, parent.disc, parent.best, parent.next);
            low_v = parent.low.min(child_low);
            if child_low >= disc_v && !nodes[v].piece {
                let Some(below) = untied_below(rich, child_disc, child_best) else {
                    break 'search None;
                };
                close_block(&mut found, parent.found, below, &mut best_v);
            } else if child_best != Chain::default() {
                rich.push((child_disc, child_best));
            }
        }
    }
}

/// [`Scratch::search_nodes`]' best chain below a block closing at a door: the most moves
/// and cells of the child's best and of the `rich` nodes found since `child_disc` (taken
/// off), or `None` where two different chains tie.
#[inline(always)]
fn untied_below(rich: &mut Vec<(u16, Chain)>, child_disc: u16, child_best: Chain) -> Option<Chain> {
    let mut below = (0, Chain::default());
    let mut tie = false;
    let mut consider = |chain: Chain| {
        let key = chain.key();
        if key > below.0 {
            (below, tie) = ((key, chain), false);
        } else if key == below.0 && chain != below.1 {
            tie = true;
        }
    };
    if child_best != Chain::default() {
        consider(child_best);
    }
    while let Some(&(found_at, chain)) = rich.last() {
        if found_at < child_disc {
            break;
        }
        rich.pop();
        consider(chain);
    }
    (!tie).then_some(below.1)
}
