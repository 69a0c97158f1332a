//! What both chain-of-chambers searches count, [`Chain`]: a chain's cells by colour and
//! its edges in one word, and how a finished block joins the best chain of its cut vertex
//! ([`close_block`]).

/// Cells of a chain of chambers by colour, relative to the head that fills them, and
/// their edges, 16 bits each in one word (so that chains add and subtract as numbers):
/// cells of the colour of the head's first step (the other colour), cells of the head's
/// colour, and neighbours inside the region summed over the cells (each edge twice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Chain(pub(super) u64);

impl Chain {
    pub(super) const FIRST: u64 = 1;
    pub(super) const SECOND: u64 = 1 << 16;
    pub(super) const EDGE: u64 = 1 << 32;

    #[inline(always)]
    pub(super) fn first(self) -> u32 {
        (self.0 & 0xffff) as u32
    }

    #[inline(always)]
    pub(super) fn second(self) -> u32 {
        (self.0 >> 16 & 0xffff) as u32
    }

    #[inline(always)]
    pub(super) fn edges(self) -> u32 {
        (self.0 >> 32 & 0xffff) as u32
    }

    /// The checkerboard parity bound on the moves that fill the chain.
    #[inline(always)]
    pub(super) fn moves(self) -> u32 {
        let (a, b) = (self.first(), self.second());
        2 * a.min(b) + u32::from(a > b)
    }

    /// What ranks chains: more moves, then more cells.
    #[inline(always)]
    pub(super) fn key(self) -> u32 {
        self.moves() << 16 | (self.first() + self.second())
    }
}

/// Closes a block of either low-point search: its value is what was found since its
/// first cell (`found` back to `parent_found`) plus the best chain `below` it, and the
/// cut vertex keeps the better of that and its `best` so far.
#[inline(always)]
pub(super) fn close_block(found: &mut Chain, parent_found: Chain, below: Chain, best: &mut Chain) {
    let chain = Chain(found.0 - parent_found.0 + below.0);
    *found = parent_found;
    if chain.key() > best.key() {
        *best = chain;
    }
}
