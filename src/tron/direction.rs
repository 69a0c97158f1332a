//! A rider's four moves and small sets of them: shared by Light Riders and Tron Battle.

/// A rider's move. The engine keeps the current direction when a bot reverses, so the
/// search only ever considers these four; reversing runs into the rider's own trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The position in [`Direction::ALL`] (and the bit in a [`DirSet`]).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The (dx, dy) of one step (y grows downwards, as in the engine field).
    pub fn offset(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }
}

/// A set of directions as a 4-bit mask (bit = [`Direction::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DirSet(pub u8);

/// `NTH_BIT[mask][k]`: the index of the `k`-th set bit of a 4-bit mask (for picking a
/// random safe move with one random number and no loop).
pub(crate) const NTH_BIT: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut b = 0;
        while b < 4 {
            if m & (1 << b) != 0 {
                t[m][k] = b as u8;
                k += 1;
            }
            b += 1;
        }
        m += 1;
    }
    t
};

impl DirSet {
    #[inline]
    pub fn contains(self, d: Direction) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `k`-th direction in the set (`k < len()`).
    #[inline]
    pub fn nth(self, k: u32) -> Direction {
        Direction::ALL[NTH_BIT[self.0 as usize][k as usize] as usize]
    }

    pub fn iter(self) -> DirSetIter {
        DirSetIter(self.0)
    }
}

impl IntoIterator for DirSet {
    type Item = Direction;
    type IntoIter = DirSetIter;

    fn into_iter(self) -> DirSetIter {
        DirSetIter(self.0)
    }
}

/// The directions of a [`DirSet`] in [`Direction::ALL`] order.
#[derive(Clone, Copy, Debug)]
pub struct DirSetIter(u8);

impl Iterator for DirSetIter {
    type Item = Direction;

    #[inline]
    fn next(&mut self) -> Option<Direction> {
        if self.0 == 0 {
            return None;
        }
        let d = Direction::ALL[self.0.trailing_zeros() as usize];
        self.0 &= self.0 - 1;
        Some(d)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for DirSetIter {}
