//! Board geometry and a fixed-size bitset over it.
//!
//! Layout: row-major with stride `width + 1` and one padding row above and below the
//! board. Cell `(x, y)` has bit index `(y + 1) * stride + x`. The extra column (`x ==
//! width`) and the padding rows are never board cells, so
//! - shifting a set of board cells left/right/up/down never wraps onto another board
//!   cell (it lands in the padding, which the caller masks away), and
//! - a wall set that marks every non-board bit as blocked lets a rider's move be checked
//!   with one bit test, off-board moves included (see `TronState`).

use super::direction::Direction;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor};
use std::sync::OnceLock;

/// Words in every [`Bitboard`]: enough for 32x32 ((32 + 2) * 33 = 1122 bits).
pub const WORDS: usize = 18;
/// Bits in every [`Bitboard`].
pub const MAX_BITS: usize = WORDS * 64;

/// A board size no [`Bitboard`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSizeError {
    pub width: usize,
    pub height: usize,
}

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported board size {}x{}", self.width, self.height)
    }
}

/// The geometry of a board: its size and the bit layout derived from it. `Copy`, 4 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    width: u8,
    height: u8,
    stride: u8,
    words: u8,
}

impl Grid {
    /// A board of `width` x `height` cells. Any size with `1 <= width <= 62`, `height >= 1`
    /// and `(height + 2) * (width + 1) <= 1152` fits (so everything up to 32x32).
    pub fn new(width: usize, height: usize) -> Result<Grid, BoardSizeError> {
        let bits = (height + 2) * (width + 1);
        if width == 0 || height == 0 || width > 62 || bits > MAX_BITS {
            return Err(BoardSizeError { width, height });
        }
        Ok(Grid {
            width: width as u8,
            height: height as u8,
            stride: (width + 1) as u8,
            words: bits.div_ceil(64) as u8,
        })
    }

    #[inline]
    pub fn width(self) -> usize {
        self.width as usize
    }

    #[inline]
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Bit distance between vertically adjacent cells.
    #[inline]
    pub fn stride(self) -> usize {
        self.stride as usize
    }

    /// Words of a [`Bitboard`] that this geometry uses (the rest stay zero).
    #[inline]
    pub fn words(self) -> usize {
        self.words as usize
    }

    /// Number of board cells.
    #[inline]
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// Whether `(x, y)` is on the board.
    #[inline]
    pub fn contains(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height()
    }

    /// The bit index of board cell `(x, y)` (which must be on the board).
    #[inline]
    pub fn index(self, x: usize, y: usize) -> usize {
        debug_assert!(x < self.width() && y < self.height());
        (y + 1) * self.stride() + x
    }

    /// The cell of bit `index`, or `None` for a padding bit.
    #[inline]
    pub fn coords(self, index: usize) -> Option<(usize, usize)> {
        let (row, x) = (index / self.stride(), index % self.stride());
        if row == 0 || row > self.height() || x >= self.width() {
            None
        } else {
            Some((x, row - 1))
        }
    }

    /// The cell of bit `index`, which must be a board cell.
    #[inline]
    pub fn xy(self, index: usize) -> (usize, usize) {
        (index % self.stride(), index / self.stride() - 1)
    }

    /// The bit offset of a one-cell step in direction `d`.
    #[inline]
    pub fn delta(self, d: Direction) -> isize {
        match d {
            Direction::Up => -(self.stride as isize),
            Direction::Down => self.stride as isize,
            Direction::Left => -1,
            Direction::Right => 1,
        }
    }

    /// All board cells: each row a run of `width` bits, set a word at a time (the shifts
    /// and the Tron Battle evaluation ask for it in their inner loops).
    pub fn board_mask(self) -> Bitboard {
        let mut b = Bitboard::empty(self);
        for y in 0..self.height() {
            let mut start = self.index(0, y);
            let end = start + self.width();
            while start < end {
                let bits = (end - start).min(64 - (start & 63));
                b.bits[start >> 6] |= (u64::MAX >> (64 - bits)) << (start & 63);
                start += bits;
            }
        }
        b
    }

    /// The board cells with `(x + y)` odd: the "white" squares of the checkerboard.
    pub fn white_mask(self) -> Bitboard {
        let mut b = Bitboard::empty(self);
        if self.stride % 2 == 1 {
            // index = (y + 1) * stride + x has the parity of x + y + 1: even bits are white.
            for w in b.bits[..self.words()].iter_mut() {
                *w = 0x5555_5555_5555_5555;
            }
            b & self.board_mask()
        } else {
            for y in 0..self.height() {
                for x in 0..self.width() {
                    if (x + y) % 2 == 1 {
                        b.set_index(self.index(x, y));
                    }
                }
            }
            b
        }
    }

    /// The checkerboard colour of a cell: 1 for white (`x + y` odd), 0 for gray.
    #[inline]
    pub fn colour(self, index: usize) -> usize {
        let (x, y) = self.xy(index);
        (x + y) & 1
    }
}

/// A set of cells of one [`Grid`] (or of padding bits, for wall sets). Fixed size, no
/// allocation, so positions that hold bitboards copy cheaply.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard {
    pub(crate) bits: [u64; WORDS],
    grid: Grid,
}

impl Bitboard {
    /// The empty set.
    #[inline]
    pub fn empty(grid: Grid) -> Bitboard {
        Bitboard {
            bits: [0; WORDS],
            grid,
        }
    }

    /// The set holding only `index`.
    #[inline]
    pub fn single(grid: Grid, index: usize) -> Bitboard {
        let mut b = Bitboard::empty(grid);
        b.set_index(index);
        b
    }

    #[inline]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    #[inline]
    pub fn get_index(&self, index: usize) -> bool {
        (self.bits[index >> 6] >> (index & 63)) & 1 != 0
    }

    #[inline]
    pub fn set_index(&mut self, index: usize) {
        self.bits[index >> 6] |= 1 << (index & 63);
    }

    #[inline]
    pub fn clear_index(&mut self, index: usize) {
        self.bits[index >> 6] &= !(1 << (index & 63));
    }

    /// Whether board cell `(x, y)` is in the set.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.get_index(self.grid.index(x, y))
    }

    /// Adds (`on`) or removes board cell `(x, y)`.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        let i = self.grid.index(x, y);
        if on {
            self.set_index(i)
        } else {
            self.clear_index(i)
        }
    }

    /// Number of bits set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.bits[..self.grid.words()]
            .iter()
            .map(|w| w.count_ones())
            .sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits[..self.grid.words()].iter().all(|&w| w == 0)
    }

    /// Whether the two sets share a bit.
    #[inline]
    pub fn intersects(&self, other: &Bitboard) -> bool {
        self.bits[..self.grid.words()]
            .iter()
            .zip(&other.bits)
            .any(|(a, b)| a & b != 0)
    }

    /// The lowest set bit index, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.bits[..self.grid.words()]
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// `self` without the bits of `other`.
    #[inline]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (a, b) in out.bits[..self.grid.words()].iter_mut().zip(&other.bits) {
            *a &= !b;
        }
        out
    }

    /// Every bit of the used words flipped, padding bits included (so the inverse of a
    /// board set holds every non-board bit: the off-board part of a wall set).
    #[inline]
    pub fn inverted(&self) -> Bitboard {
        let mut out = *self;
        for w in out.bits[..self.grid.words()].iter_mut() {
            *w = !*w;
        }
        out
    }

    /// The board cells not in the set.
    pub fn complement(&self) -> Bitboard {
        self.grid.board_mask().and_not(self)
    }

    /// The set bit indices, ascending.
    pub fn iter(&self) -> BitIter<'_> {
        BitIter {
            words: &self.bits[..self.grid.words()],
            word: 0,
            current: self.bits[0],
        }
    }

    /// The set board cells as `(x, y)`, row by row.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let grid = self.grid;
        self.iter().filter_map(move |i| grid.coords(i))
    }

    #[inline]
    fn shl(&self, s: usize) -> Bitboard {
        let n = self.grid.words();
        let mut out = Bitboard::empty(self.grid);
        out.bits[0] = self.bits[0] << s;
        for i in 1..n {
            out.bits[i] = (self.bits[i] << s) | (self.bits[i - 1] >> (64 - s));
        }
        out
    }

    #[inline]
    fn shr(&self, s: usize) -> Bitboard {
        let n = self.grid.words();
        let mut out = Bitboard::empty(self.grid);
        for i in 0..n - 1 {
            out.bits[i] = (self.bits[i] >> s) | (self.bits[i + 1] << (64 - s));
        }
        out.bits[n - 1] = self.bits[n - 1] >> s;
        out
    }

    /// Every cell moved one row up; cells leaving the board vanish.
    pub fn shift_up(&self) -> Bitboard {
        self.shr(self.grid.stride()) & self.grid.board_mask()
    }

    /// Every cell moved one row down; cells leaving the board vanish.
    pub fn shift_down(&self) -> Bitboard {
        self.shl(self.grid.stride()) & self.grid.board_mask()
    }

    /// Every cell moved one column left; cells leaving the board vanish.
    pub fn shift_left(&self) -> Bitboard {
        self.shr(1) & self.grid.board_mask()
    }

    /// Every cell moved one column right; cells leaving the board vanish.
    pub fn shift_right(&self) -> Bitboard {
        self.shl(1) & self.grid.board_mask()
    }

    /// The edges between two cells of the set (pairs of neighbours both in it). No board
    /// mask is needed: a pair straddling the padding has a padding bit, never in a set of
    /// board cells.
    #[inline]
    pub fn inner_edges(&self) -> u32 {
        (*self & self.shl(1)).count() + (*self & self.shl(self.grid.stride())).count()
    }

    /// The cells of `within` next to a cell of `self`. One pass over the words, no board
    /// mask needed as long as `within` holds board cells only (the shifts spill only into
    /// padding bits). This is the inner loop of every flood fill.
    #[inline]
    pub fn neighbours(&self, within: &Bitboard) -> Bitboard {
        let n = self.grid.words();
        let s = self.grid.stride();
        let mut out = Bitboard::empty(self.grid);
        let b = &self.bits;
        for i in 0..n {
            let w = b[i];
            let prev = if i > 0 { b[i - 1] } else { 0 };
            let next = if i + 1 < n { b[i + 1] } else { 0 };
            let spread = (w << 1)
                | (prev >> 63)
                | (w >> 1)
                | (next << 63)
                | (w << s)
                | (prev >> (64 - s))
                | (w >> s)
                | (next << (64 - s));
            out.bits[i] = spread & within.bits[i];
        }
        out
    }

    /// The cells of `within` connected to `self` through `within` (4-neighbourhood);
    /// `self`'s own bits are kept only where they lie in `within`.
    pub fn fill(&self, within: &Bitboard) -> Bitboard {
        let mut region = *self & *within;
        let mut frontier = self.neighbours(within).and_not(&region);
        while !frontier.is_empty() {
            region |= frontier;
            frontier = frontier.neighbours(within).and_not(&region);
        }
        region
    }
}

impl fmt::Debug for Bitboard {
    /// The set as a diagram: `#` in the set, `.` not.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard {}x{}", self.grid.width, self.grid.height)?;
        for y in 0..self.grid.height() {
            for x in 0..self.grid.width() {
                f.write_str(if self.get(x, y) { "#" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Iterator over the set bits of a [`Bitboard`].
pub struct BitIter<'a> {
    words: &'a [u64],
    word: usize,
    current: u64,
}

impl Iterator for BitIter<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            self.word += 1;
            if self.word >= self.words.len() {
                return None;
            }
            self.current = self.words[self.word];
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.word * 64 + bit)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt, $opa:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(mut self, rhs: Bitboard) -> Bitboard {
                let n = self.grid.words();
                for i in 0..n {
                    self.bits[i] $opa rhs.bits[i];
                }
                self
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                *self = *self $op rhs;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &, &=);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |, |=);

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(mut self, rhs: Bitboard) -> Bitboard {
        for i in 0..self.grid.words() {
            self.bits[i] ^= rhs.bits[i];
        }
        self
    }
}

impl Bitboard {
    /// The Zobrist key of the set: the XOR of its cells' random numbers (the same for the
    /// same cells of any board up to 32x32).
    pub fn zobrist_key(&self) -> u64 {
        let table = zobrist_bytes();
        let mut key = 0;
        for (i, word) in self.bits[..self.grid.words()].iter().enumerate() {
            for (j, byte) in word.to_le_bytes().into_iter().enumerate() {
                key ^= table[i * 8 + j][byte as usize];
            }
        }
        key
    }
}

/// Bytes of a blocked-cell set that the key reads.
const KEY_BYTES: usize = MAX_BITS / 8;

/// Zobrist keys eight cells at a time: entry `[i][b]` is the XOR of the random numbers of
/// the cells set in byte value `b` at byte `i` of the blocked set, so the key of a set is
/// one lookup per byte and equals the XOR over its cells.
fn zobrist_bytes() -> &'static [[u64; 256]] {
    static TABLE: OnceLock<Vec<[u64; 256]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut seed = 0x5eed_0f7e_11c0_de00_u64;
        let cells: Vec<u64> = (0..MAX_BITS).map(|_| splitmix64(&mut seed)).collect();
        (0..KEY_BYTES)
            .map(|byte| {
                let mut row = [0u64; 256];
                for value in 1..256usize {
                    let lowest = value.trailing_zeros() as usize;
                    row[value] = row[value & (value - 1)] ^ cells[byte * 8 + lowest];
                }
                row
            })
            .collect()
    })
}

/// SplitMix64's step: mixes a position's other parts into its key.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
