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

use super::board::{certain_win, Board, EndRule, ANY};
use super::evaluate::Weights;
use super::nn;
use super::prior;
use super::tables::{
    cell_list, is_line, list_len, list_mask, list_nth, still_open_mask, winning_cells,
};
use crate::game::{Outcome, Player};
use crate::search::{scale_below, Evaluator, FastRng, LeafNote, TreePolicy};
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
    end_rule: EndRule,
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
    #[inline(always)]
    pub(crate) fn new(board: &Board) -> (Self, u8, u64) {
        let open = board.open_boards();
        let mut state = PlayoutState {
            marks: [0; 32],
            won: board.won,
            free: [0; 16],
            free_total: 0,
            board_counts: 0,
            turn: board.turn as usize & 1,
            end_rule: board.end_rule,
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
    /// else no cell is left and the end rule decides.
    #[inline]
    pub(crate) fn final_outcome(&self) -> Outcome {
        let last_mover = self.turn ^ 1;
        if is_line(self.won[last_mover]) {
            Outcome::Win(last_mover as Player)
        } else {
            self.end_rule.lineless_outcome(self.won)
        }
    }

    /// The free-cell list of `board` (empty if it is closed).
    #[inline(always)]
    pub(crate) fn free_cells(&self, board: u8) -> u64 {
        self.free[board as usize & 15]
    }

    /// A move that wins the game at once for the player to move, if there is one: a cell
    /// that completes a line in a micro board that completes a line of won boards.
    #[inline]
    pub(crate) fn winning_move(&self, target: u8, target_free: u64) -> Option<(u8, u8)> {
        let me = self.turn;
        let mut boards = winning_cells(self.won[me]);
        if target_free != 0 {
            boards &= 1 << target;
        }
        while boards != 0 {
            let board = boards.trailing_zeros() as u8;
            boards &= boards - 1;
            let free = list_mask(self.free_cells(board));
            let cells = winning_cells(self.marks[(me << 4 | board as usize) & 31]) & free;
            if cells != 0 {
                return Some((board, cells.trailing_zeros() as u8));
            }
        }
        None
    }

    /// `weights`' evaluation of this (unfinished) position from player 0's view.
    fn evaluate(&self, weights: &Weights) -> f32 {
        let mut marks = [[0; 9]; 2];
        marks[0].copy_from_slice(&self.marks[..9]);
        marks[1].copy_from_slice(&self.marks[16..25]);
        let closed = (0..9).fold(0, |closed, board| {
            closed | ((self.free[board] == 0) as u16) << board
        });
        weights.evaluate_parts(&marks, self.won, closed)
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

impl TreePolicy<Board> for RandomPlayout {}

impl Evaluator<Board> for RandomPlayout {
    /// Leaves the position as it is: the play-out runs on its own working copy.
    #[inline]
    fn evaluate(&mut self, board: &mut Board, rng: &mut FastRng) -> f32 {
        random_playout(board, rng)
    }
}

/// Early play-out termination (Liang 2017, section 3.3): after `moves` play-out moves,
/// the evaluation decides: a win above `bound`, a loss below `−bound`, else a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EarlyTermination {
    pub moves: u32,
    pub bound: f32,
    pub weights: Weights,
}

/// The play-outs Liang 2017 compares (section 3): uniformly random moves, or a move that
/// wins the game at once whenever there is one ("win-first"); either can be cut short by
/// an evaluation, and either can record its moves for RAVE. The plain random play-out
/// keeps its own loop, the fastest.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Playout {
    pub win_first: bool,
    pub early_termination: Option<EarlyTermination>,
    /// Record each player's moves ([`Evaluator::played_slots`]).
    pub record_moves: bool,
    /// The last play-out's moves per player, as bits `board * 9 + cell`.
    played: [u128; 2],
    /// Heuristic node initialisation: the bias of [`prior::tactical_prior`].
    pub prior_bias: Option<f32>,
    /// A position whose mover can win at once counts as won ([`certain_win`]).
    pub wins_at_once: bool,
}

impl Playout {
    pub fn new(
        win_first: bool,
        early_termination: Option<EarlyTermination>,
        record_moves: bool,
    ) -> Self {
        Playout {
            win_first,
            early_termination,
            record_moves,
            played: [0; 2],
            prior_bias: None,
            wins_at_once: false,
        }
    }

    /// Adds (or removes) the tactical prior of new nodes.
    pub fn with_prior(mut self, bias: Option<f32>) -> Self {
        self.prior_bias = bias;
        self
    }
}

impl Evaluator<Board> for Playout {
    #[inline(always)]
    fn certain_outcome(&self, board: &Board) -> Option<Outcome> {
        certain_win(board, self.wins_at_once)
    }

    #[inline]
    fn evaluate(&mut self, board: &mut Board, rng: &mut FastRng) -> f32 {
        if !self.win_first && self.early_termination.is_none() && !self.record_moves {
            return random_playout(board, rng);
        }
        self.played = [0; 2];
        if let Some(outcome) = board.outcome() {
            return outcome.reward_for(0);
        }
        let limit = self.early_termination.map_or(u32::MAX, |ept| ept.moves);
        let (mut state, mut target, mut target_free) = PlayoutState::new(board);
        for _ in 0..limit {
            let bits = rng.next_u32();
            let (board_index, cell) = self
                .win_first
                .then(|| state.winning_move(target, target_free))
                .flatten()
                .unwrap_or_else(|| state.random_choice(target, target_free, bits));
            if self.record_moves {
                self.played[state.turn & 1] |= 1 << (board_index * 9 + cell);
            }
            if state.apply(board_index, cell) {
                return state.final_outcome().reward_for(0);
            }
            target = cell;
            target_free = state.free_cells(cell);
        }
        let ept = self
            .early_termination
            .expect("only a cut-off ends the loop early");
        let value = state.evaluate(&ept.weights);
        if value > ept.bound {
            1.0
        } else if value < -ept.bound {
            0.0
        } else {
            0.5
        }
    }

    fn played_slots(&self) -> [u128; 2] {
        self.played
    }
}

/// Heuristic node initialisation: the tactical prior.
impl TreePolicy<Board> for Playout {
    fn prior(&self, parent: &Board, child: &Board) -> Option<f32> {
        if let Some(outcome) = self.certain_outcome(child) {
            return Some(outcome.reward_for(0));
        }
        Some(prior::tactical_prior(parent, child, self.prior_bias?))
    }
}

/// Plays uniformly random moves from `board` to the end of the game and returns the
/// reward for player 0 (1 win, 0.5 draw, 0 loss).
#[inline(always)]
pub(crate) fn random_playout(board: &Board, rng: &mut FastRng) -> f32 {
    match board.outcome() {
        Some(outcome) => outcome,
        None => {
            let (mut state, target, target_free) = PlayoutState::new(board);
            state.play_to_end(target, target_free, rng);
            state.final_outcome()
        }
    }
    .reward_for(0)
}

/// Plays uniformly random moves from `board` (a game not over) to the end; returns the
/// final working state.
#[cfg(test)]
pub(crate) fn play_to_end(board: &Board, rng: &mut FastRng) -> PlayoutState {
    let (mut state, target, target_free) = PlayoutState::new(board);
    state.play_to_end(target, target_free, rng);
    state
}

impl PlayoutState {
    /// Plays uniformly random moves to the end of the game, in place (returning the
    /// state by value costs a copy of it on every play-out).
    #[inline(always)]
    fn play_to_end(&mut self, mut target: u8, mut target_free: u64, rng: &mut FastRng) {
        loop {
            let bits = rng.next_u64();
            for choice_bits in [bits as u32, (bits >> 32) as u32] {
                let (board_index, cell) = self.random_choice(target, target_free, choice_bits);
                if self.apply(board_index, cell) {
                    return;
                }
                target = cell;
                target_free = self.free_cells(cell);
            }
        }
    }
}

/// MCTS leaves valued by the network (finished games by their result), blended with one
/// random play-out when `share` is below 1. The network alone is deterministic, so the
/// tree then reuses a leaf's value until it is expanded. With priors on, every new child
/// starts with the network's value of it (heuristic node initialisation), moved by the
/// tactical prior's bias where there is one; a finished child starts with its result.
///
/// The positions are plain boards: the search's descent plays moves without touching the
/// network. A node's children are valued from its own first-layer sums, computed once
/// per expansion and kept here for the node's children that follow ([`nn::child_accumulator`]).
#[derive(Clone)]
pub struct NetworkValue {
    /// The network's share of a leaf's value; the rest is a random play-out's result.
    pub share: f32,
    /// New children start with the network's value ([`TreePolicy::prior`]).
    pub priors: bool,
    /// The tactical prior's bias added to the network's prior ([`prior::tactical_value`]).
    pub tactical_bias: f32,
    /// A position whose mover can win at once counts as won ([`certain_win`]).
    pub wins_at_once: bool,
    /// The last parent whose children were valued, and its sums as its opponent sees it
    /// (none before the first).
    parent: std::cell::RefCell<Option<(Board, nn::Accumulator)>>,
}

impl NetworkValue {
    /// The embedded network's value with this share, no priors.
    pub fn new(share: f32) -> Self {
        NetworkValue {
            share,
            priors: false,
            tactical_bias: 0.0,
            wins_at_once: false,
            parent: std::cell::RefCell::new(None),
        }
    }

    /// New children valued by the network, moved by `tactical_bias` per tactical point.
    pub fn with_priors(self, tactical_bias: f32) -> Self {
        NetworkValue {
            priors: true,
            tactical_bias,
            ..self
        }
    }

    /// The network's value for player 0 of the player to move's value `value`.
    #[inline]
    fn for_player0(state: &Board, value: f32) -> f32 {
        crate::search::reward_for(state.turn(), value)
    }
}

/// The settings (the network is always the embedded one).
impl std::fmt::Debug for NetworkValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NetworkValue")
            .field("share", &self.share)
            .field("priors", &self.priors)
            .field("tactical_bias", &self.tactical_bias)
            .field("wins_at_once", &self.wins_at_once)
            .finish()
    }
}

impl PartialEq for NetworkValue {
    fn eq(&self, other: &Self) -> bool {
        let settings = |v: &Self| (v.share, v.priors, v.tactical_bias, v.wins_at_once);
        settings(self) == settings(other)
    }
}

/// Every new child valued from its parent's sums at once (the network's first-play
/// value, which also orders the moves); a finished child exactly.
impl TreePolicy<Board> for NetworkValue {
    fn prior(&self, parent: &Board, child: &Board) -> Option<f32> {
        self.prior_noted(parent, child).0
    }

    /// The prior, and the network's value of `child` as its note: with play-outs in the
    /// blend, a leaf is evaluated six times before it is expanded (16 visits, 10 of them
    /// the prior's), and its sums from scratch were a sixth of the blend's time.
    #[inline]
    fn prior_noted(&self, parent: &Board, child: &Board) -> (Option<f32>, LeafNote) {
        if !self.priors {
            return (None, 0);
        }
        if let Some(outcome) = Evaluator::outcome(self, child, child.outcome()) {
            return (Some(outcome.reward_for(0)), 0);
        }
        let mover = parent.turn();
        let net = nn::embedded(parent.end_rule);
        let mut cached = self.parent.borrow_mut();
        let (_, parent_sums) = match &mut *cached {
            Some(kept) if kept.0 == *parent => kept,
            slot => slot.insert((*parent, nn::accumulator_for(net, parent, 1 - mover))),
        };
        let sums = nn::child_accumulator(net, parent, parent_sums, child);
        // The network values the child for its player to move, the mover's opponent.
        let child_value = net.value(&sums);
        let judged = 1.0 - child_value;
        let tactical = if self.tactical_bias == 0.0 {
            0.0
        } else {
            self.tactical_bias * prior::tactical_value(parent, child)
        };
        let prior = crate::search::reward_for(mover, (judged + tactical).clamp(0.01, 0.99));
        (Some(prior), note_of(child_value))
    }
}

/// The [`LeafNote`] that keeps a network value (`0.0..=1.0`) to 1/65534.
fn note_of(value: f32) -> LeafNote {
    1 + (value * NOTE_SCALE).round() as LeafNote
}

/// The network value a note other than 0 keeps.
fn value_of_note(note: LeafNote) -> f32 {
    f32::from(note - 1) / NOTE_SCALE
}

const NOTE_SCALE: f32 = (LeafNote::MAX - 1) as f32;

impl Evaluator<Board> for NetworkValue {
    #[inline(always)]
    fn certain_outcome(&self, board: &Board) -> Option<Outcome> {
        certain_win(board, self.wins_at_once)
    }

    fn evaluate(&mut self, state: &mut Board, rng: &mut FastRng) -> f32 {
        self.evaluate_noted(state, rng, &mut 0)
    }

    /// The network's value from the note where there is one, else from scratch, noted.
    #[inline]
    fn evaluate_noted(&mut self, state: &mut Board, rng: &mut FastRng, note: &mut LeafNote) -> f32 {
        if let Some(outcome) = state.outcome() {
            return outcome.reward_for(0);
        }
        if *note == 0 {
            *note = note_of(nn::value_of(state));
        }
        // From the note either way, so that every visit of a leaf gets the same value.
        let value = value_of_note(*note);
        let network = Self::for_player0(state, value);
        let share = self.share;
        if share >= 1.0 {
            return network;
        }
        let playout = random_playout(state, rng);
        share * network + (1.0 - share) * playout
    }

    fn is_deterministic(&self) -> bool {
        self.share >= 1.0
    }
}
