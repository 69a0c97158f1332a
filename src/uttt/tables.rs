//! Lookup tables over 9-bit micro-board masks, computed at compile time.
//!
//! Every per-move question the play-out asks ("is this a line?", "which cell is the
//! n-th empty one?") is a single load from one of these tables, so the hot loop has no
//! inner loops over cells.

/// The eight winning lines of a 3x3 board as 9-bit masks (bit = row * 3 + column).
pub(crate) const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const fn build_winning_cells() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut cell = 0;
        while cell < 9 {
            let with = mask | 1 << cell;
            let mut line = 0;
            while line < LINES.len() {
                if with != mask && with & LINES[line] as usize == LINES[line] as usize {
                    table[mask] |= 1 << cell;
                }
                line += 1;
            }
            cell += 1;
        }
        mask += 1;
    }
    table
}

/// `WINNING_CELLS[mask]`: the squares outside the 9-bit `mask` that would complete a line
/// of it (whether they are free is the caller's question).
static WINNING_CELLS: [u16; 512] = build_winning_cells();

/// The squares that would complete a line of the 9-bit `mask` (see [`WINNING_CELLS`]).
#[inline(always)]
pub(crate) fn winning_cells(mask: u16) -> u16 {
    WINNING_CELLS[(mask & ALL9) as usize]
}

/// All nine cells (or boards) of a 3x3 grid.
pub(crate) const ALL9: u16 = 0x1ff;

const fn build_wins() -> [bool; 512] {
    let mut table = [false; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut line = 0;
        while line < LINES.len() {
            if mask & LINES[line] as usize == LINES[line] as usize {
                table[mask] = true;
            }
            line += 1;
        }
        mask += 1;
    }
    table
}

/// `WINS[mask]`: whether the 9-bit `mask` contains a complete line.
pub(crate) static WINS: [bool; 512] = build_wins();

const fn build_still_open() -> [i8; 512] {
    let wins = build_wins();
    let mut table = [0; 512];
    let mut mask = 0;
    while mask < 512 {
        table[mask] = if wins[mask] { 0 } else { -1 };
        mask += 1;
    }
    table
}

/// `STILL_OPEN[marks]`: −1 (all bits set) while a player with these marks has no line in
/// the micro board, 0 once they have (the board closes).
static STILL_OPEN: [i8; 512] = build_still_open();

/// All ones while a micro board in which the mover now has `marks` stays open, 0 if the
/// move won it: a mask for the board's free-cell list, so that closing a won board needs
/// no branch.
#[inline(always)]
pub(crate) fn still_open_mask(marks: u16) -> u64 {
    STILL_OPEN[(marks & ALL9) as usize] as i64 as u64
}

/// Whether the 9-bit `mask` contains a complete line.
#[inline(always)]
pub(crate) fn is_line(mask: u16) -> bool {
    WINS[(mask & ALL9) as usize]
}

const fn build_cell_lists() -> [u64; 512] {
    let mut table = [0u64; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut count = 0u64;
        let mut bit = 0u64;
        let mut entry = 0u64;
        while bit < 9 {
            if mask >> bit & 1 == 1 {
                entry |= bit << (4 * count);
                count += 1;
            }
            bit += 1;
        }
        table[mask] = entry | (mask as u64) << 40 | count << 60;
        mask += 1;
    }
    table
}

/// `CELL_LISTS[mask]`: the set bits of the 9-bit `mask` packed in one word: each set
/// bit's index in 4 bits, lowest first (bits 0..36), the mask itself (bits 40..49, so a
/// list can be updated without keeping the mask), and their number (bits 60..64).
///
/// Picking a random empty cell is then one load, a multiply and a shift. Separate count
/// and select tables would put two dependent loads on the play-out's critical path, and
/// `count_ones` is a dozen instructions on the default x86-64 target (no `popcnt`).
static CELL_LISTS: [u64; 512] = build_cell_lists();

/// The packed list of the set bits of the 9-bit `mask` (see [`CELL_LISTS`]); 0 for 0.
#[inline(always)]
pub(crate) fn cell_list(mask: u16) -> u64 {
    CELL_LISTS[(mask & ALL9) as usize]
}

/// The number of cells in a packed list.
#[inline(always)]
pub(crate) fn list_len(list: u64) -> u32 {
    (list >> 60) as u32
}

/// The `n`-th cell of a packed list (`n < list_len(list)`).
#[inline(always)]
pub(crate) fn list_nth(list: u64, n: u32) -> u8 {
    debug_assert!(n < list_len(list));
    (list.wrapping_shr(4 * (n & 15)) & 15) as u8
}

/// The 9-bit mask a packed list was made from.
#[inline(always)]
pub(crate) fn list_mask(list: u64) -> u16 {
    (list >> 40) as u16 & ALL9
}

/// The number of set bits of the 9-bit `mask`.
#[inline(always)]
pub(crate) fn count9(mask: u16) -> u32 {
    list_len(cell_list(mask))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_table_matches_brute_force_over_lines() {
        for mask in 0u16..512 {
            let has = |row: u16, column: u16| mask >> (row * 3 + column) & 1 == 1;
            let brute = (0..3).any(|i| (0..3).all(|j| has(i, j)))
                || (0..3).any(|j| (0..3).all(|i| has(i, j)))
                || (0..3).all(|i| has(i, i))
                || (0..3).all(|i| has(i, 2 - i));
            assert_eq!(is_line(mask), brute, "mask {mask:#011b}");
        }
        assert!(is_line(0b111_000_000) && is_line(0b101_010_100));
        assert!(!is_line(0) && !is_line(0b110_001_110));
    }

    #[test]
    fn still_open_mask_is_all_ones_without_a_line_and_zero_with_one() {
        for mask in 0u16..512 {
            let expected = if is_line(mask) { 0 } else { u64::MAX };
            assert_eq!(still_open_mask(mask), expected, "mask {mask:#011b}");
        }
    }

    #[test]
    fn winning_cells_are_the_free_squares_that_complete_a_line() {
        for mask in 0u16..512 {
            for cell in 0..9 {
                let completes = mask >> cell & 1 == 0 && is_line(mask | 1 << cell);
                assert_eq!(winning_cells(mask) >> cell & 1 == 1, completes);
            }
        }
    }

    #[test]
    fn count9_matches_count_ones() {
        for mask in 0u16..512 {
            assert_eq!(count9(mask), mask.count_ones());
        }
    }

    #[test]
    fn cell_lists_hold_each_set_bit_in_order_and_the_mask() {
        for mask in 0u16..512 {
            let bits: Vec<u8> = (0..9).filter(|b| mask >> b & 1 == 1).collect();
            for (n, &bit) in bits.iter().enumerate() {
                assert_eq!(list_nth(cell_list(mask), n as u32), bit);
            }
            assert_eq!(list_mask(cell_list(mask)), mask);
            assert_eq!(cell_list(mask) == 0, mask == 0);
        }
    }
}
