//! Uniformly random play-outs, the inner loop of the search.
//!
//! The play-out keeps its own working form of the position: `free[board]` lists the empty
//! cells of each *open* board as a packed cell list (see `tables::CELL_LISTS`; 0 for a
//! closed board) and `free_total` counts them all. Then "is the board I am sent to
//! closed?" is `free[cell] == 0`, "is the game drawn?" is `free_total == 0`, and a
//! uniformly random move is one `random_below` and a shift: no allocation, no move list.
//! The only load between choosing a cell and choosing the next one is the list of the
//! board the cell sends to; that chain of dependent steps sets the play-out's speed.
//!
//! Arrays have 16 slots (9 used) and are indexed with `& 15`, so the compiler can prove
//! every index in bounds without a check and without `unsafe`.

use super::board::{Board, ANY};
use super::tables::{cell_list, is_line, list_len, list_mask, list_nth, ALL9};
use crate::search::{random_below, FastRng, Outcome, Player};

/// The play-out's working copy of a [`Board`] (the caller keeps the target, as the board
/// the player to move is sent to and its free-cell list).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayoutState {
    marks: [[u16; 16]; 2],
    won: [u16; 2],
    /// Packed lists of the empty cells of each open board; 0 for a won or full board.
    free: [u64; 16],
    /// Sum of the lengths of `free`: the number of legal moves when any board is playable.
    free_total: u32,
    turn: Player,
}

impl PlayoutState {
    /// The working copy of `board` and the target as `(target board, its free-cell list)`;
    /// an empty list means "any open board".
    #[inline]
    pub(crate) fn new(board: &Board) -> (Self, u8, u64) {
        let open = board.open_boards();
        let mut state = PlayoutState {
            marks: [[0; 16]; 2],
            won: board.won,
            free: [0; 16],
            free_total: 0,
            turn: board.turn,
        };
        for index in 0..9 {
            state.marks[0][index] = board.marks[0][index];
            state.marks[1][index] = board.marks[1][index];
            if open >> index & 1 == 1 {
                state.free[index] = cell_list(board.empty_cells(index));
                state.free_total += list_len(state.free[index]);
            }
        }
        let target = board.target().unwrap_or(ANY);
        (state, target, state.free[target as usize & 15])
    }

    /// How many moves the player to move can choose from, given the free-cell list of the
    /// board they are sent to (empty: any open board).
    #[inline(always)]
    pub(crate) fn choice_count(&self, target_free: u64) -> u32 {
        if target_free != 0 {
            list_len(target_free)
        } else {
            self.free_total
        }
    }

    /// The `index`-th legal move (`index < choice_count(target_free)`) as (board, cell),
    /// boards and cells in increasing order like [`Board`]'s move generation.
    #[inline(always)]
    pub(crate) fn nth_choice(&self, target: u8, target_free: u64, index: u32) -> (u8, u8) {
        if target_free != 0 {
            return (target, list_nth(target_free, index));
        }
        // Any open board: walk the boards until the one holding the index-th free cell.
        let mut rest = index;
        let mut board = 0;
        loop {
            let free = self.free[board & 15];
            let count = list_len(free);
            if rest < count || board >= 8 {
                return (board as u8, list_nth(free, rest));
            }
            rest -= count;
            board += 1;
        }
    }

    /// Plays a legal move; returns the outcome if the game ends with it.
    #[inline(always)]
    pub(crate) fn apply(&mut self, board: u8, cell: u8) -> Option<Outcome> {
        let board = board as usize & 15;
        let player = self.turn as usize & 1;
        let bit = 1u16 << (cell & 15);
        self.free[board] = cell_list(list_mask(self.free[board]) & !bit);
        self.free_total -= 1;
        let mine = self.marks[player][board] | bit;
        self.marks[player][board] = mine;
        self.turn ^= 1;
        if is_line(mine) {
            // A won board closes: its remaining empty cells leave the pool.
            self.free_total -= list_len(self.free[board]);
            self.free[board] = 0;
            self.won[player] |= 1 << board;
            if is_line(self.won[player]) {
                return Some(Outcome::Win(player as Player));
            }
        }
        if self.free_total == 0 {
            return Some(Outcome::Draw);
        }
        None
    }

    /// The free-cell list of `board` (empty if it is closed).
    #[inline(always)]
    pub(crate) fn free_cells(&self, board: u8) -> u64 {
        self.free[board as usize & 15]
    }

    /// Writes the position back into `board`, in canonical form; `last_cell` is the cell
    /// of the last move (it names the board the player to move is sent to).
    #[inline]
    pub(crate) fn store(&self, board: &mut Board, last_cell: u8) {
        let mut drawn = 0;
        for index in 0..9 {
            board.marks[0][index] = self.marks[0][index];
            board.marks[1][index] = self.marks[1][index];
            let full = self.marks[0][index] | self.marks[1][index] == ALL9;
            if full && (self.won[0] | self.won[1]) >> index & 1 == 0 {
                drawn |= 1 << index;
            }
        }
        board.won = self.won;
        board.drawn = drawn;
        board.turn = self.turn;
        board.target = board.canonical_target(last_cell);
    }
}

/// Plays uniformly random moves to the end of the game, leaves `board` at the final
/// position and returns the reward for player 0 (1 win, 0.5 draw, 0 loss).
#[inline]
pub(crate) fn random_playout(board: &mut Board, rng: &mut FastRng) -> f32 {
    if let Some(outcome) = board.outcome() {
        return outcome.reward_for(0);
    }
    let (mut state, mut target, mut target_free) = PlayoutState::new(board);
    loop {
        // `target_free` is loaded right after the previous move and used directly, so the
        // "is the target open?" test is a predicted branch, not a data dependency.
        let index = random_below(rng, state.choice_count(target_free));
        let (board_index, cell) = state.nth_choice(target, target_free, index);
        if let Some(outcome) = state.apply(board_index, cell) {
            state.store(board, cell);
            return outcome.reward_for(0);
        }
        target = cell;
        target_free = state.free_cells(cell);
    }
}
