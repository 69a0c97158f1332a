//! Uniformly random play-outs, the inner loop of the search.
//!
//! The play-out keeps its own working form of the position: `free[board]` lists the empty
//! cells of each *open* board as a packed cell list (see `tables::CELL_LISTS`; 0 for a
//! closed board) and `free_total` counts them all. Then "is the board I am sent to
//! closed?" is `free[cell] == 0`, "is the game drawn?" is `free_total == 0`, and a
//! uniformly random move is a multiply and a shift: no allocation, no move list.
//!
//! Each move is a chain of dependent steps (load the list of the board the last cell
//! sends to, multiply, shift, load the next list: about 13 cycles), the rest of the loop
//! must fit beside that chain, and a mispredicted branch costs more than a dozen
//! instructions. So one 64-bit random draw serves two moves, the marks are one flat array,
//! a won micro board closes without a branch (one move in eight, at random), the new list
//! of the played board is masked after its lookup (a move sent back to the same board
//! waits for one load, not two), and the "any board" pick is branch-free over per-board
//! counts kept in one word. The one unpredictable branch left is "is the board I am sent
//! to closed?" (about one move in seven).
//!
//! Arrays have 16 slots per player (9 used) and are indexed with `& 15` / `& 31`, so the
//! compiler can prove every index in bounds without a check and without `unsafe`.

use super::board::{Board, ANY};
use super::tables::{cell_list, is_line, list_len, list_mask, list_nth, still_open_mask};
use crate::game::{Outcome, Player};
use crate::search::{scale_below, Evaluator, FastRng};
use rand::RngCore;

/// The play-out's working copy of a [`Board`] (the caller keeps the target, as the board
/// the player to move is sent to and its free-cell list).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayoutState {
    /// `marks[player * 16 + board]`: the player's 9-bit mask in that micro board.
    marks: [u16; 32],
    won: [u16; 2],
    /// Packed lists of the empty cells of each open board; 0 for a won or full board.
    free: [u64; 16],
    /// Sum of the lengths of `free`: the number of legal moves when any board is playable.
    free_total: u32,
    /// The lengths of `free[0..8]`, one per byte (board 8's is the rest of `free_total`).
    board_counts: u64,
    turn: usize,
}

/// `COUNT_UNIT[board]`: one in `board`'s byte of `board_counts`; 0 for board 8.
const COUNT_UNIT: [u64; 16] = {
    let mut units = [0; 16];
    let mut board = 0;
    while board < 8 {
        units[board] = 1 << (8 * board);
        board += 1;
    }
    units
};

impl PlayoutState {
    /// The working copy of `board` and the target as `(target board, its free-cell list)`;
    /// an empty list means "any open board".
    #[inline]
    pub(crate) fn new(board: &Board) -> (Self, u8, u64) {
        let open = board.open_boards();
        let mut state = PlayoutState {
            marks: [0; 32],
            won: board.won,
            free: [0; 16],
            free_total: 0,
            board_counts: 0,
            turn: board.turn as usize & 1,
        };
        for index in 0..9 {
            state.marks[index] = board.marks[0][index];
            state.marks[16 + index] = board.marks[1][index];
            // Without a branch: which boards are open differs from one leaf to the next.
            let open_mask = (open as u64 >> index & 1).wrapping_neg();
            state.free[index] = cell_list(board.empty_cells(index)) & open_mask;
            state.free_total += list_len(state.free[index]);
        }
        state.board_counts = state.free[..8]
            .iter()
            .zip(COUNT_UNIT)
            .map(|(&list, unit)| list_len(list) as u64 * unit)
            .sum();
        let target = board.target().unwrap_or(ANY);
        (state, target, state.free[target as usize & 15])
    }

    /// How many moves the player to move can choose from, given the free-cell list of the
    /// board they are sent to (empty: any open board).
    #[cfg(test)]
    pub(crate) fn choice_count(&self, target_free: u64) -> u32 {
        if target_free != 0 {
            list_len(target_free)
        } else {
            self.free_total
        }
    }

    /// The `index`-th legal move (`index < choice_count(target_free)`) as (board, cell),
    /// boards and cells in increasing order like [`Board`]'s move generation.
    #[cfg(test)]
    pub(crate) fn nth_choice(&self, target: u8, target_free: u64, index: u32) -> (u8, u8) {
        if target_free != 0 {
            (target, list_nth(target_free, index))
        } else {
            self.nth_any(index)
        }
    }

    /// A uniformly random legal move, from 32 random `bits`: the same move as
    /// `nth_choice(target, target_free, scale_below(bits, choice_count(target_free)))`.
    #[inline(always)]
    pub(crate) fn random_choice(&self, target: u8, target_free: u64, bits: u32) -> (u8, u8) {
        if target_free != 0 {
            (
                target,
                list_nth(target_free, scale_below(bits, list_len(target_free))),
            )
        } else {
            self.nth_any(scale_below(bits, self.free_total))
        }
    }

    /// The `index`-th free cell of all open boards (`index < free_total`) as (board, cell).
    ///
    /// Branch-free: a loop over the boards would end at a random board and cost a
    /// mispredicted branch. The counts of boards 0..8 go one per byte; multiplying by
    /// `0x0101…01` gives each byte the running total up to its board (at most 72, so the
    /// top bit of every byte stays clear); adding `127 − index` to every byte then sets
    /// the top bit exactly where that total exceeds `index`, and the first such byte is
    /// the board (none: board 8).
    #[inline(always)]
    fn nth_any(&self, index: u32) -> (u8, u8) {
        const BYTES: u64 = 0x0101_0101_0101_0101;
        let running = self.board_counts.wrapping_mul(BYTES);
        let above = (running + (127 - index as u64) * BYTES) & (BYTES << 7);
        let board = above.trailing_zeros() / 8;
        // Free cells on the boards before `board`: the running total one byte lower.
        let before = ((running as u128) << 8 >> (8 * board)) as u8 as u32;
        (
            board as u8,
            list_nth(self.free[board as usize & 15], index - before),
        )
    }

    /// Plays a legal move; returns whether the game is over (see [`Self::final_outcome`]).
    #[inline(always)]
    pub(crate) fn apply(&mut self, board: u8, cell: u8) -> bool {
        let board = board as usize & 15;
        let player = self.turn;
        let bit = 1u16 << (cell & 15);
        let mine = self.marks[(player << 4 | board) & 31] | bit;
        self.marks[(player << 4 | board) & 31] = mine;
        self.turn ^= 1;
        // The board's empty cells after the move: none once it is won (it closes, and its
        // remaining cells leave the pool with the played one).
        let still_open = still_open_mask(mine);
        let before = self.free[board];
        // Masked after the lookup, not before, so that the lookup need not wait for the
        // "won?" lookup: the next move reads this list when it is sent to the same board.
        let after = cell_list(list_mask(before) ^ bit) & still_open;
        self.free[board] = after;
        let removed = list_len(before) - list_len(after);
        self.free_total -= removed;
        self.board_counts -= removed as u64 * COUNT_UNIT[board];
        let won_boards = self.won[player] | ((still_open == 0) as u16) << board;
        self.won[player] = won_boards;
        is_line(won_boards) || self.free_total == 0
    }

    /// The result of a finished game: the last mover won if they have a line of boards,
    /// else it is drawn (no cell left).
    #[inline]
    pub(crate) fn final_outcome(&self) -> Outcome {
        let last_mover = self.turn ^ 1;
        if is_line(self.won[last_mover]) {
            Outcome::Win(last_mover as Player)
        } else {
            Outcome::Draw
        }
    }

    /// The free-cell list of `board` (empty if it is closed).
    #[inline(always)]
    pub(crate) fn free_cells(&self, board: u8) -> u64 {
        self.free[board as usize & 15]
    }

    /// Writes the position back into `board`, in canonical form; `last_cell` is the cell
    /// of the last move (it names the board the player to move is sent to).
    #[cfg(test)]
    pub(crate) fn store(&self, board: &mut Board, last_cell: u8) {
        let mut drawn = 0;
        for index in 0..9 {
            board.marks[0][index] = self.marks[index];
            board.marks[1][index] = self.marks[16 + index];
            let full = self.marks[index] | self.marks[16 + index] == super::tables::ALL9;
            if full && (self.won[0] | self.won[1]) >> index & 1 == 0 {
                drawn |= 1 << index;
            }
        }
        board.won = self.won;
        board.drawn = drawn;
        board.turn = self.turn as Player;
        board.target = board.canonical_target(last_cell);
    }
}

/// The UTTT search's evaluator: a uniformly random play-out to the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomPlayout;

impl Evaluator<Board> for RandomPlayout {
    /// Leaves the position as it is: the play-out runs on its own working copy.
    #[inline]
    fn evaluate(&mut self, board: &mut Board, rng: &mut FastRng) -> f32 {
        random_playout(board, rng)
    }
}

/// Plays uniformly random moves from `board` to the end of the game and returns the
/// reward for player 0 (1 win, 0.5 draw, 0 loss).
#[inline]
pub(crate) fn random_playout(board: &Board, rng: &mut FastRng) -> f32 {
    match board.outcome() {
        Some(outcome) => outcome,
        None => play_to_end(board, rng).final_outcome(),
    }
    .reward_for(0)
}

/// Plays uniformly random moves from `board` (a game not over) to the end; returns the
/// final working state.
#[inline(always)]
pub(crate) fn play_to_end(board: &Board, rng: &mut FastRng) -> PlayoutState {
    let (mut state, mut target, mut target_free) = PlayoutState::new(board);
    loop {
        let bits = rng.next_u64();
        for choice_bits in [bits as u32, (bits >> 32) as u32] {
            let (board_index, cell) = state.random_choice(target, target_free, choice_bits);
            if state.apply(board_index, cell) {
                return state;
            }
            target = cell;
            target_free = state.free_cells(cell);
        }
    }
}
