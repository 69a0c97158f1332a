//! The learned play-outs' tables, [`Tables`]: the N-Grams' average rewards
//! ([`NGramEntry`], in rows laid out by [`StepSlots`]) and the last good replies, each an
//! array over the board's cells, so that a look-up is an address.

use super::{Extraction, Kept, NGramContext, UNKNOWN};
use crate::game::Player;
use crate::tron::Grid;

/// 3-gram entries for one `(first move, opponent's last)` pair: one per step from the
/// first move to the move (two steps under the simultaneous extraction, one under the
/// sequential; see [`StepSlots`]).
pub const THREE_GRAM_ROW: usize = 8;
/// An LGR entry with no reply.
pub(super) const NO_REPLY: u16 = u16::MAX;
/// A step no 3-gram row holds.
const NO_SLOT: u8 = u8::MAX;

/// One move sequence's average reward in 4 bytes, so that a 3-gram row is half a cache
/// line and a new table is zeroed memory that the system maps as it is touched: the
/// play-outs averaged in the high 16 bits (at most [`NGRAM_MEMORY`]; 0: never seen), the average
/// reward in units of 1/[`MEAN_ONE`] in the low 16.
pub(super) type NGramEntry = u32;

/// Play-outs a sequence's average counts in full: past them it becomes a moving average
/// of about this many, so that the tables, kept for the whole game, follow the positions
/// the game reaches rather than those of its first moves.
pub(super) const NGRAM_MEMORY: u16 = 1024;

/// An average reward of 1 in [`NGramEntry`]'s units.
pub(super) const MEAN_ONE: f32 = u16::MAX as f32;

/// Play-outs an entry averages (0: the sequence was never seen).
#[inline(always)]
pub(super) fn ngram_count(entry: NGramEntry) -> u32 {
    entry >> 16
}

/// An entry's average reward in units of 1/[`MEAN_ONE`].
#[inline(always)]
fn ngram_mean(entry: NGramEntry) -> u32 {
    entry & 0xffff
}

/// The average reward of a sequence, if it was seen.
#[inline(always)]
pub(super) fn ngram_reward(entry: NGramEntry) -> Option<f32> {
    (ngram_count(entry) != 0).then(|| ngram_mean(entry) as f32 / MEAN_ONE)
}

/// Adds one play-out's reward to a sequence's running average (past [`NGRAM_MEMORY`]
/// play-outs, a moving average).
#[inline(always)]
pub(super) fn ngram_add(entry: &mut NGramEntry, reward: f32) {
    let count = (ngram_count(*entry) as u16 + 1).min(NGRAM_MEMORY);
    let mean = ngram_mean(*entry) as f32;
    // Rounded by adding one half (the mean is never negative): `f32::round` is a libm
    // call on the baseline x86-64 target.
    let mean = (mean + (reward * MEAN_ONE - mean) / count as f32 + 0.5) as u32;
    *entry = (count as u32) << 16 | mean;
}

/// Where a 3-gram's move lies in its row: the slot of each bit step from the 3-gram's
/// first move to its move. The simultaneous extraction's moves are two steps from the
/// first (the rider's own move lies between), the sequential one's one step (the first
/// is the rider's own last move); a step back onto the first move is a crash into the
/// rider's own trail, never a safe move, so it has no slot and is never learned.
#[derive(Clone, Copy, Debug)]
pub(super) struct StepSlots {
    /// The extraction whose steps these are.
    pub(super) extraction: Extraction,
    /// `slot[step + 2 * stride + 1]`: the row slot of a bit step, or [`NO_SLOT`].
    slot: [u8; StepSlots::SPAN],
    /// `2 * stride + 1`: the offset of a step of zero.
    zero: isize,
}

impl StepSlots {
    /// Every step of at most two cells: `|step| <= 2 * stride + 1` with a stride of at
    /// most 63.
    const SPAN: usize = 4 * 63 + 3;

    pub(super) fn new(extraction: Extraction, stride: isize) -> StepSlots {
        let steps: Vec<isize> = match extraction {
            Extraction::Simultaneous => vec![
                -2 * stride,
                -stride - 1,
                -stride + 1,
                -2,
                2,
                stride - 1,
                stride + 1,
                2 * stride,
            ],
            Extraction::Sequential => vec![-stride, -1, 1, stride],
        };
        let zero = 2 * stride + 1;
        let mut slot = [NO_SLOT; StepSlots::SPAN];
        for (k, step) in steps.into_iter().enumerate() {
            // Two cells wide, a diagonal step's bits equal a two-column step's, which never
            // joins two board cells: the one slot serves the diagonal.
            slot[(zero + step) as usize] = k as u8;
        }
        StepSlots {
            extraction,
            slot,
            zero,
        }
    }

    /// The row slot of the step from `first` to `mv`.
    #[inline(always)]
    pub(super) fn of(&self, first: u16, mv: u16) -> Option<usize> {
        let index = self.zero + mv as isize - first as isize;
        let slot = *self.slot.get(usize::try_from(index).ok()?)?;
        (slot != NO_SLOT).then_some(slot as usize)
    }
}

/// What the learned play-outs know, per rider.
#[derive(Clone)]
pub(super) struct Tables {
    /// The board the tables index (a new board, or another extraction, starts them
    /// afresh).
    pub(super) grid: Grid,
    /// `cell_index[bit]`: the table index of a board cell's bit, numbered row by row;
    /// every other bit (a crash off the board) is `cells - 1`.
    cell_index: Vec<u16>,
    /// The board's cells and the one index off it.
    pub(super) cells: usize,
    /// `two_grams[p][opponent's last * cells + move]`, cells by their index.
    pub(super) two_grams: [Vec<NGramEntry>; 2],
    /// `three_grams[p][(first * cells + opponent's last) * THREE_GRAM_ROW + slot]`, the
    /// slot of the step from the first move to the move.
    pub(super) three_grams: [Vec<NGramEntry>; 2],
    pub(super) steps: StepSlots,
    /// `lgr1[p][opponent's last]`: `p`'s reply (a bit; the context by its index).
    pub(super) lgr1: [Vec<u16>; 2],
    /// `lgr2[p][p's last * cells + opponent's last]`: `p`'s reply (the context by its
    /// cells' indices).
    pub(super) lgr2: [Vec<u16>; 2],
}

impl Tables {
    pub(super) fn new(grid: Grid, kept: Kept, extraction: Extraction) -> Self {
        let off_board = grid.cells() as u16;
        let mut cell_index = vec![off_board; grid.words() * 64];
        for (index, (x, y)) in (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
            .enumerate()
        {
            cell_index[grid.index(x, y)] = index as u16;
        }
        let cells = grid.cells() + 1;
        let ngrams = |size: usize| {
            if kept.ngrams {
                vec![0; size]
            } else {
                Vec::new()
            }
        };
        let replies = |size: usize| {
            if kept.replies {
                vec![NO_REPLY; size]
            } else {
                Vec::new()
            }
        };
        let three = cells * cells * THREE_GRAM_ROW;
        Tables {
            grid,
            cell_index,
            cells,
            two_grams: [ngrams(cells * cells), ngrams(cells * cells)],
            three_grams: [ngrams(three), ngrams(three)],
            steps: StepSlots::new(extraction, grid.stride() as isize),
            lgr1: [replies(cells), replies(cells)],
            lgr2: [replies(cells * cells), replies(cells * cells)],
        }
    }

    /// The table index of the cell at `bit`.
    #[inline(always)]
    pub(super) fn index(&self, bit: u16) -> usize {
        self.cell_index[bit as usize] as usize
    }

    /// Where `player`'s 2-gram `(opponent_last, mv)` is in `two_grams`.
    #[inline(always)]
    fn two_gram_at(&self, opponent_last: u16, mv: u16) -> usize {
        self.index(opponent_last) * self.cells + self.index(mv)
    }

    /// The entry of `player`'s 2-gram `(opponent_last, mv)`.
    #[inline(always)]
    pub(super) fn two_gram(&self, player: Player, opponent_last: u16, mv: u16) -> NGramEntry {
        self.two_grams[player as usize][self.two_gram_at(opponent_last, mv)]
    }

    /// Where the 3-gram of `mv` after `context` is in `three_grams`: its
    /// `(first, opponent's last)` row and the slot of the step to `mv`. `None` when the
    /// context has no first move or no row holds the move.
    #[inline(always)]
    fn three_gram_at(&self, context: &NGramContext, mv: u16) -> Option<usize> {
        if context.older == UNKNOWN {
            return None;
        }
        let slot = self.steps.of(context.older, mv)?;
        let row = self.index(context.older) * self.cells + self.index(context.opponent);
        Some(row * THREE_GRAM_ROW + slot)
    }

    /// The entry of `player`'s 3-gram of `mv` after `context`, if a row holds it.
    #[inline(always)]
    pub(super) fn three_gram(
        &self,
        player: Player,
        context: &NGramContext,
        mv: u16,
    ) -> Option<NGramEntry> {
        Some(self.three_grams[player as usize][self.three_gram_at(context, mv)?])
    }

    /// Adds a play-out's reward to `player`'s 2-gram after `context` and, when the
    /// context has a first move, its 3-gram.
    pub(super) fn add_ngrams(
        &mut self,
        player: Player,
        context: &NGramContext,
        mv: u16,
        reward: f32,
    ) {
        let me = player as usize;
        let two = self.two_gram_at(context.opponent, mv);
        ngram_add(&mut self.two_grams[me][two], reward);
        if let Some(three) = self.three_gram_at(context, mv) {
            ngram_add(&mut self.three_grams[me][three], reward);
        }
    }

    /// The N-Gram score of `player` moving to `mv` after `context`: the average of the
    /// 2-gram's and 3-gram's rewards that the tables hold (a 3-gram is learned with its
    /// 2-gram, so the 2-gram is known whenever the 3-gram is), doubled, in
    /// [`NGramEntry`]'s units, plus one; 0 when neither is known. An integer, so that a
    /// play-out's choice needs no division.
    #[inline(always)]
    pub(super) fn ngram_score(&self, player: Player, context: &NGramContext, mv: u16) -> u32 {
        let two = self.two_gram(player, context.opponent, mv);
        if ngram_count(two) == 0 {
            return 0;
        }
        let three = self.three_gram(player, context, mv).unwrap_or(0);
        let other = if ngram_count(three) == 0 { two } else { three };
        1 + ngram_mean(two) + ngram_mean(other)
    }

    /// `player`'s last good reply to the riders' moves of the round before, `last`:
    /// LGR-2's, else LGR-1's.
    #[inline(always)]
    pub(super) fn reply(&self, player: Player, last: [u16; 2]) -> Option<u16> {
        let (me, them) = (player as usize, 1 - player as usize);
        let (mine, theirs) = (self.index(last[me]), self.index(last[them]));
        let two = self.lgr2[me][mine * self.cells + theirs];
        let reply = if two != NO_REPLY {
            two
        } else {
            self.lgr1[me][theirs]
        };
        (reply != NO_REPLY).then_some(reply)
    }
}
