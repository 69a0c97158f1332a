//! The working space of both chain-of-chambers searches, [`Scratch`]: their search paths'
//! frames, the contracted graph's nodes, kept per thread from call to call so that an
//! evaluation allocates nothing.

use std::cell::RefCell;

use super::chain::Chain;

/// A cell on [`Board::fillable`]'s search path.
///
/// [`Board::fillable`]: super::board::Board::fillable
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) cell: u16,
    pub(super) disc: u16,
    pub(super) low: u16,
    /// The cells found before its child on the path.
    pub(super) found: Chain,
    /// The best chain of the blocks hanging off it so far.
    pub(super) best: Chain,
}

/// A node of [`Board::chambers`]' graph: the head, a door or a piece.
///
/// [`Board::chambers`]: super::board::Board::chambers
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Its cells' counts (none for the head).
    pub(super) inc: Chain,
    pub(super) piece: bool,
    /// Its neighbours' range in `Scratch::adjacent`.
    pub(super) adjacent: std::ops::Range<u32>,
}

/// A node on [`Board::chambers`]' search path.
///
/// [`Board::chambers`]: super::board::Board::chambers
#[derive(Clone, Debug)]
pub(super) struct NodeFrame {
    pub(super) node: u16,
    pub(super) disc: u16,
    pub(super) low: u16,
    /// The neighbours left to try.
    pub(super) next: std::ops::Range<u32>,
    /// The cells found before its child on the path.
    pub(super) found: Chain,
    pub(super) best: Chain,
}

/// [`Board::fillable`]'s and [`Board::chambers`]' working space, kept from call to call.
///
/// [`Board::fillable`]: super::board::Board::fillable
/// [`Board::chambers`]: super::board::Board::chambers
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) frames: Vec<Frame>,
    /// The finished cells (nodes) with blocks hanging off them, not yet in a block
    /// themselves: discovery time and best chain.
    pub(super) rich: Vec<(u16, Chain)>,
    /// The node of each door, of the head and of the cells of a piece next to them.
    pub(super) node_of: Vec<u16>,
    pub(super) nodes: Vec<Node>,
    /// The nodes' neighbours: a door's (and the head's) in the order of
    /// [`neighbour_deltas`].
    ///
    /// [`neighbour_deltas`]: crate::tron::space::neighbour_deltas
    pub(super) adjacent: Vec<u16>,
    pub(super) node_disc: Vec<u16>,
    pub(super) node_frames: Vec<NodeFrame>,
}

thread_local! {
    pub(super) static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}
