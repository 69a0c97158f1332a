//! The evaluation's cell sets: [`Cells`], a set in as many words as the board needs (the
//! [`Bitboard`] layout), so that a fill step is a handful of word operations, and
//! [`PerCell`], one value per bit of such a set.

use crate::tron::grid::Bitboard;
use crate::tron::space::CellSet;

/// A cell set in `N` words, the [`Bitboard`] layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Cells<const N: usize>(pub(super) [u64; N]);

impl<const N: usize> Cells<N> {
    pub(super) const EMPTY: Self = Cells([0; N]);

    pub(super) fn from_bitboard(b: &Bitboard) -> Self {
        let mut words = [0; N];
        words.copy_from_slice(&b.bits[..N]);
        Cells(words)
    }

    pub(super) fn single(index: usize) -> Self {
        let mut c = Self::EMPTY;
        c.0[index >> 6] |= 1 << (index & 63);
        c
    }

    #[inline(always)]
    pub(super) fn contains(&self, index: usize) -> bool {
        (self.0[index >> 6] >> (index & 63)) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn and(self, other: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    #[inline(always)]
    pub(super) fn or(self, other: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    #[inline(always)]
    pub(super) fn and_not(self, other: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |any, &w| any | w) == 0
    }

    #[inline(always)]
    pub(super) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The set moved by `delta` bits against the index: bit `i` of the result is bit
    /// `i + delta` of the set (so a cell is in `toward(d)` when its neighbour at `d` is
    /// in the set). `|delta| < 64`.
    #[inline(always)]
    pub(super) fn toward(&self, delta: isize) -> Self {
        let b = &self.0;
        let k = delta.unsigned_abs() as u32;
        Cells(std::array::from_fn(|i| {
            let w = b[i];
            if delta >= 0 {
                let next = if i + 1 < N { b[i + 1] } else { 0 };
                w >> k | next.checked_shl(64 - k).unwrap_or(0)
            } else {
                let prev = if i > 0 { b[i - 1] } else { 0 };
                w << k | prev.checked_shr(64 - k).unwrap_or(0)
            }
        }))
    }

    /// The set's cells by their number of neighbours in the set (at `deltas`), 0 to 4.
    #[inline(always)]
    pub(super) fn degrees(&self, deltas: &[isize; 4]) -> [Self; 5] {
        let [a, b, c, d] = deltas.map(|delta| self.toward(delta));
        // the count's bits, summed in bit slices
        let (x0, x1) = (a.xor(b), a.and(b));
        let (y0, y1) = (c.xor(d), c.and(d));
        let (bit0, carry) = (x0.xor(y0), x0.and(y0));
        let bit1 = x1.xor(y1).xor(carry);
        let bit2 = x1.and(y1).or(x1.xor(y1).and(carry));
        std::array::from_fn(|count| {
            let pick = |bit: Self, on: usize| if on != 0 { bit } else { bit.not() };
            self.and(pick(bit0, count & 1))
                .and(pick(bit1, count & 2))
                .and(pick(bit2, count & 4))
        })
    }

    #[inline(always)]
    pub(super) fn xor(self, other: Self) -> Self {
        Cells(std::array::from_fn(|i| self.0[i] ^ other.0[i]))
    }

    #[inline(always)]
    pub(super) fn not(self) -> Self {
        Cells(std::array::from_fn(|i| !self.0[i]))
    }

    /// The lowest index in the set.
    #[inline(always)]
    pub(super) fn first(&self) -> Option<usize> {
        let i = self.0.iter().position(|&w| w != 0)?;
        Some(i * 64 + self.0[i].trailing_zeros() as usize)
    }

    /// The middle index in the set (of an even count, the higher of the two).
    #[inline(always)]
    pub(super) fn middle(&self) -> Option<usize> {
        let mut rank = self.count() / 2;
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones();
            if rank < ones {
                // the bit of that rank, by halves
                let (mut rest, mut at) = (word, 0);
                for half in [32, 16, 8, 4, 2, 1] {
                    let low = (rest & ((1 << half) - 1)).count_ones();
                    if rank >= low {
                        (rank, rest, at) = (rank - low, rest >> half, at + half);
                    }
                }
                return Some(i * 64 + at);
            }
            rank -= ones;
        }
        None
    }

    /// The cells of `within` joined to the set through `within` (the set included).
    #[inline(always)]
    pub(super) fn fill(self, within: &Self, stride: usize) -> Self {
        let (mut all, mut frontier) = (self, self);
        loop {
            frontier = frontier.spread(stride).and(*within).and_not(all);
            if frontier.is_empty() {
                return all;
            }
            all = all.or(frontier);
        }
    }

    /// The indices of the set's bits, lowest first.
    #[inline(always)]
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }

    /// The cells next to a cell of the set, padding bits included (callers mask them).
    #[inline(always)]
    pub(super) fn spread(&self, stride: usize) -> Self {
        let b = &self.0;
        Cells(std::array::from_fn(|i| {
            let w = b[i];
            let prev = if i > 0 { b[i - 1] } else { 0 };
            let next = if i + 1 < N { b[i + 1] } else { 0 };
            (w << 1)
                | (prev >> 63)
                | (w >> 1)
                | (next << 63)
                | (w << stride)
                | (prev >> (64 - stride))
                | (w >> stride)
                | (next << (64 - stride))
        }))
    }
}

impl<const N: usize> CellSet for Cells<N> {
    #[inline(always)]
    fn none(&self) -> Self {
        Self::EMPTY
    }
    #[inline(always)]
    fn union(self, other: Self) -> Self {
        Cells::or(self, other)
    }
    #[inline(always)]
    fn intersection(self, other: Self) -> Self {
        Cells::and(self, other)
    }
    #[inline(always)]
    fn difference(self, other: Self) -> Self {
        Cells::and_not(self, other)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        Cells::is_empty(self)
    }
}

/// One value per bit of an `N`-word set (indexed like the bits).
pub(super) struct PerCell<T, const N: usize>(pub(super) [[T; 64]; N]);

impl<T: Copy, const N: usize> PerCell<T, N> {
    #[inline(always)]
    pub(super) fn new(value: T) -> Self {
        PerCell([[value; 64]; N])
    }
}
