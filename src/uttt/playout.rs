//! Uniformly random play-outs, the inner loop of the search.
//!
//! The play-out keeps its own working form of the position: `free[board]` is the mask of
//! empty cells of each *open* board (0 for a closed one) and `free_total` their sum. Then
//! "is the target board closed?" is `free[target] == 0`, "is the game drawn?" is
//! `free_total == 0`, and a uniformly random move is one `random_below` plus one table
//! load: no allocation and no move list.

use super::board::{Board, Move, ANY};
use super::tables::{count9, is_line, nth_set_bit};
use crate::search::{random_below, FastRng, Outcome, Player};

/// The play-out's working copy of a [`Board`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlayoutState {
    marks: [[u16; 9]; 2],
    won: [u16; 2],
    /// Empty cells of each open board; 0 for a won or full board.
    free: [u16; 9],
    /// Sum of the popcounts of `free`: the legal moves when any board is playable.
    free_total: u32,
    /// The board the player to move must play in, or [`ANY`]; never a closed board.
    target: u8,
    turn: Player,
}

impl PlayoutState {
    /// The working copy of a position that is not over.
    #[inline]
    pub(crate) fn new(board: &Board) -> Self {
        let open = board.open_boards();
        let mut free = [0u16; 9];
        let mut free_total = 0;
        for (index, slot) in free.iter_mut().enumerate() {
            if open >> index & 1 == 1 {
                *slot = board.empty_cells(index);
                free_total += count9(*slot);
            }
        }
        PlayoutState {
            marks: board.marks,
            won: board.won,
            free,
            free_total,
            target: board.target,
            turn: board.turn,
        }
    }

    /// How many moves the player to move can choose from.
    #[inline(always)]
    pub(crate) fn choice_count(&self) -> u32 {
        if self.target == ANY {
            self.free_total
        } else {
            count9(self.free[self.target as usize])
        }
    }

    /// The `index`-th legal move (`index < choice_count()`), boards and cells in
    /// increasing order, like [`Board`]'s legal move generation.
    #[inline(always)]
    pub(crate) fn nth_choice(&self, index: u32) -> Move {
        if self.target != ANY {
            let cell = nth_set_bit(self.free[self.target as usize], index);
            return Move::from_board_cell(self.target, cell);
        }
        // Walk the open boards until the one holding the index-th free cell.
        let mut rest = index;
        let mut board = 0;
        loop {
            let count = count9(self.free[board]);
            if rest < count || board == 8 {
                return Move::from_board_cell(board as u8, nth_set_bit(self.free[board], rest));
            }
            rest -= count;
            board += 1;
        }
    }

    /// Plays a legal move; returns the outcome if the game ends with it.
    #[inline(always)]
    pub(crate) fn apply(&mut self, mv: Move) -> Option<Outcome> {
        let (board, cell) = (mv.board() as usize, mv.cell());
        let player = self.turn as usize;
        let bit = 1u16 << cell;
        self.free[board] &= !bit;
        self.free_total -= 1;
        let mine = self.marks[player][board] | bit;
        self.marks[player][board] = mine;
        self.turn ^= 1;
        if is_line(mine) {
            // A won board closes: its remaining empty cells leave the pool.
            self.free_total -= count9(self.free[board]);
            self.free[board] = 0;
            self.won[player] |= 1 << board;
            if is_line(self.won[player]) {
                return Some(Outcome::Win(player as Player));
            }
        }
        if self.free_total == 0 {
            return Some(Outcome::Draw);
        }
        self.target = if self.free[cell as usize] != 0 {
            cell
        } else {
            ANY
        };
        None
    }

    /// Writes the position back into `board`, in canonical form.
    #[inline]
    pub(crate) fn store(&self, board: &mut Board, last_cell: u8) {
        board.marks = self.marks;
        board.won = self.won;
        let mut drawn = 0;
        for index in 0..9 {
            let full = self.marks[0][index] | self.marks[1][index] == 0x1ff;
            if full && (self.won[0] | self.won[1]) >> index & 1 == 0 {
                drawn |= 1 << index;
            }
        }
        board.drawn = drawn;
        board.turn = self.turn;
        board.target = board.canonical_target(last_cell);
    }
}

/// The reward for player 0 of a finished game.
#[inline(always)]
fn reward_for_player0(outcome: Outcome) -> f32 {
    outcome.reward_for(0)
}

/// Plays uniformly random moves to the end of the game, leaves `board` at the final
/// position and returns the reward for player 0 (1 win, 0.5 draw, 0 loss).
#[inline]
pub(crate) fn random_playout(board: &mut Board, rng: &mut FastRng) -> f32 {
    if let Some(outcome) = board.outcome() {
        return reward_for_player0(outcome);
    }
    let mut state = PlayoutState::new(board);
    loop {
        let mv = state.nth_choice(random_below(rng, state.choice_count()));
        if let Some(outcome) = state.apply(mv) {
            state.store(board, mv.cell());
            return reward_for_player0(outcome);
        }
    }
}
