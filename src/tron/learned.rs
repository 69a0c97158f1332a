//! Play-outs that learn from the play-outs before them (Laschet 2012, after Tak et al.
//! 2012): N-Grams, Last-Good-Reply (LGR-1 and LGR-2, with forgetting: LGRF) and the
//! LGR-then-N-Gram combination. A move is the cell a rider moves to.
//!
//! Tron is simultaneous, so a move's context is the previous round's moves, never the
//! opponent's move of the same round (Laschet 2012's "simultaneous" extraction, which beat the
//! sequential one 63.4% to 54.0%): for rider `p` moving to `m(t)` in round `t`,
//! - the 2-gram is `(opponent's m(t−1), m(t))`, the 3-gram `(m(t−2), opponent's m(t−1),
//!   m(t))` (Laschet 2012's Figure 3: the rider's own `m(t−1)` lies between `m(t−2)` and `m(t)`);
//! - LGR-1 answers the opponent's `m(t−1)`, LGR-2 the pair `(m(t−1), opponent's m(t−1))`.
//!
//! Laschet 2012's other N-Gram extraction ([`Extraction::Sequential`], for its Table 2) reads
//! the play-out as if rider 0 moved before rider 1 in each round: sequences are consecutive
//! moves of that list, so rider 1's context holds rider 0's move of the same round.
//!
//! Only the play-out's own rounds are learned from (the search does not tell its
//! evaluator the moves of the tree); the position a play-out starts from gives the first
//! context: the riders' heads are their moves of the round before.
//!
//! The tables belong to the search that owns the play-out, so they survive from move to
//! move while the search is kept, and they are bounded by the board: every table is an
//! array indexed by the cells of its sequence, so a look-up is an address, never a hash
//! or a key compare. A 2-gram `(opponent's last, move)` is one [`NGramEntry`] of a
//! `cells × cells` array; a 3-gram's move lies within two steps of its first move, so the
//! 3-grams of one `(first move, opponent's last)` are one row of [`THREE_GRAM_ROW`]
//! entries, indexed by the step from the first move to the move: the candidate moves of
//! one choice read one cache line. Cells are numbered row by row for the tables (every
//! bit off the board, where a random play-out may crash, is one more number): on the
//! 16×16 board 0.25 MiB of 2-grams and 2 MiB of 3-grams a rider, on 13×13 0.11 and
//! 0.9 MiB (pages never touched are never resident). The LGR tables are arrays over the
//! cells too.

use super::direction::NTH_BIT;
use super::playout::PlayoutPolicy;
use super::space;
use super::{Direction, Grid, TronState};
use crate::game::Player;
use crate::search::{random_below, Evaluator, FastRng, TreePolicy};

/// Which learned move choice a play-out uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// The best-rewarded move by the 2- and 3-grams, ε-greedy.
    NGram,
    /// The last good reply, LGR-2 before LGR-1.
    Lgr,
    /// LGR with forgetting: a reply that lost is deleted.
    Lgrf,
    /// LGR first, then the N-Grams (Laschet 2012's "combo").
    NGramLgr,
}

impl Learning {
    fn uses_ngrams(self) -> bool {
        matches!(self, Learning::NGram | Learning::NGramLgr)
    }

    fn uses_replies(self) -> bool {
        !matches!(self, Learning::NGram)
    }
}

/// What the tree's selection asks of the tables ([`crate::search::Guidance`]): the value
/// of a move in a position, for UCT-ULM and Progressive Bias (Laschet 2012) or Omondi et al.'s
/// lean-LGRF ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKnowledge {
    /// The move's 2-gram reward. (Laschet 2012 averages the 2- and 3-gram; a tree position
    /// does not know the riders' cells of the round before the last, so the tree has
    /// only the 2-gram: the opponent's head, then the move.)
    NGram,
    /// 1 if the move is the rider's LGR-1 last good reply to the opponent's head (with
    /// forgetting, as Omondi et al.), else 0.
    LastGoodReply,
}

/// How the N-Grams read a play-out's moves as sequences (Laschet 2012, section 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extraction {
    /// The opponent's move of the round before, never of the same round (Figure 3).
    Simultaneous,
    /// The moves in one list, rider 0's before rider 1's in each round.
    Sequential,
}

/// What a rider's N-Gram sequences hold before its move: the 3-gram's first move
/// ([`UNKNOWN`] before the play-out's history) and the opponent's move.
#[derive(Clone, Copy, Debug)]
struct NGramContext {
    older: u16,
    opponent: u16,
}

impl Extraction {
    /// The N-Gram context of `player`'s next move after the rounds `before` (at least
    /// one), where rider 0 has moved to `rider0_now` this round (read only for rider 1 by
    /// the sequential extraction).
    #[inline(always)]
    fn context(self, before: &[[u16; 2]], rider0_now: u16, player: Player) -> NGramContext {
        let (me, them) = (player as usize, 1 - player as usize);
        let t = before.len();
        match self {
            Extraction::Simultaneous => NGramContext {
                older: if t >= 2 { before[t - 2][me] } else { UNKNOWN },
                opponent: before[t - 1][them],
            },
            // Rider 0 follows rider 1's move of the round before, rider 1 rider 0's of
            // this round; each rider's own move before that starts the 3-gram.
            Extraction::Sequential => NGramContext {
                older: before[t - 1][me],
                opponent: if player == 1 {
                    rider0_now
                } else {
                    before[t - 1][1]
                },
            },
        }
    }
}

/// Which tables a [`TronPlayout`] keeps: those its play-outs choose moves by and those
/// the tree's selection reads. Every play-out updates them, whatever chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kept {
    ngrams: bool,
    replies: bool,
    /// A reply that lost is deleted (LGRF).
    forgets: bool,
}

impl Kept {
    /// `None` when neither the play-outs nor the tree need any table.
    fn of(learning: Option<Learning>, knowledge: Option<MoveKnowledge>) -> Option<Kept> {
        let ngrams =
            learning.is_some_and(Learning::uses_ngrams) || knowledge == Some(MoveKnowledge::NGram);
        let played_replies = learning.is_some_and(Learning::uses_replies);
        let replies = played_replies || knowledge == Some(MoveKnowledge::LastGoodReply);
        // The play-outs' own rule, else the tree's (Omondi et al. forget).
        let forgets = if played_replies {
            learning == Some(Learning::Lgrf)
        } else {
            replies
        };
        (ngrams || replies).then_some(Kept {
            ngrams,
            replies,
            forgets,
        })
    }
}

/// 3-gram entries for one `(first move, opponent's last)` pair: one per step from the
/// first move to the move (two steps under the simultaneous extraction, one under the
/// sequential; see [`StepSlots`]).
pub const THREE_GRAM_ROW: usize = 8;
/// An LGR entry with no reply.
const NO_REPLY: u16 = u16::MAX;
/// A round before the play-out's history begins.
const UNKNOWN: u16 = u16::MAX;
/// A step no 3-gram row holds.
const NO_SLOT: u8 = u8::MAX;

/// One move sequence's average reward in 4 bytes, so that a 3-gram row is half a cache
/// line and a new table is zeroed memory that the system maps as it is touched: the
/// play-outs averaged in the high 16 bits (at most [`NGRAM_MEMORY`]; 0: never seen), the average
/// reward in units of 1/[`MEAN_ONE`] in the low 16.
type NGramEntry = u32;

/// Play-outs a sequence's average counts in full: past them it becomes a moving average
/// of about this many, so that the tables, kept for the whole game, follow the positions
/// the game reaches rather than those of its first moves.
const NGRAM_MEMORY: u16 = 1024;

/// An average reward of 1 in [`NGramEntry`]'s units.
const MEAN_ONE: f32 = u16::MAX as f32;

/// Play-outs an entry averages (0: the sequence was never seen).
#[inline(always)]
fn ngram_count(entry: NGramEntry) -> u32 {
    entry >> 16
}

/// An entry's average reward in units of 1/[`MEAN_ONE`].
#[inline(always)]
fn ngram_mean(entry: NGramEntry) -> u32 {
    entry & 0xffff
}

/// The average reward of a sequence, if it was seen.
#[inline(always)]
fn ngram_reward(entry: NGramEntry) -> Option<f32> {
    (ngram_count(entry) != 0).then(|| ngram_mean(entry) as f32 / MEAN_ONE)
}

/// Adds one play-out's reward to a sequence's running average (past [`NGRAM_MEMORY`]
/// play-outs, a moving average).
#[inline(always)]
fn ngram_add(entry: &mut NGramEntry, reward: f32) {
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
struct StepSlots {
    /// The extraction whose steps these are.
    extraction: Extraction,
    /// `slot[step + 2 * stride + 1]`: the row slot of a bit step, or [`NO_SLOT`].
    slot: [u8; StepSlots::SPAN],
    /// `2 * stride + 1`: the offset of a step of zero.
    zero: isize,
}

impl StepSlots {
    /// Every step of at most two cells: `|step| <= 2 * stride + 1` with a stride of at
    /// most 63.
    const SPAN: usize = 4 * 63 + 3;

    fn new(extraction: Extraction, stride: isize) -> StepSlots {
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
    fn of(&self, first: u16, mv: u16) -> Option<usize> {
        let index = self.zero + mv as isize - first as isize;
        let slot = *self.slot.get(usize::try_from(index).ok()?)?;
        (slot != NO_SLOT).then_some(slot as usize)
    }
}

/// What the learned play-outs know, per rider.
#[derive(Clone)]
struct Tables {
    /// The board the tables index (a new board, or another extraction, starts them
    /// afresh).
    grid: Grid,
    /// `cell_index[bit]`: the table index of a board cell's bit, numbered row by row;
    /// every other bit (a crash off the board) is `cells - 1`.
    cell_index: Vec<u16>,
    /// The board's cells and the one index off it.
    cells: usize,
    /// `two_grams[p][opponent's last * cells + move]`, cells by their index.
    two_grams: [Vec<NGramEntry>; 2],
    /// `three_grams[p][(first * cells + opponent's last) * THREE_GRAM_ROW + slot]`, the
    /// slot of the step from the first move to the move.
    three_grams: [Vec<NGramEntry>; 2],
    steps: StepSlots,
    /// `lgr1[p][opponent's last]`: `p`'s reply (a bit; the context by its index).
    lgr1: [Vec<u16>; 2],
    /// `lgr2[p][p's last * cells + opponent's last]`: `p`'s reply (the context by its
    /// cells' indices).
    lgr2: [Vec<u16>; 2],
}

impl Tables {
    fn new(grid: Grid, kept: Kept, extraction: Extraction) -> Self {
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
    fn index(&self, bit: u16) -> usize {
        self.cell_index[bit as usize] as usize
    }

    /// Where `player`'s 2-gram `(opponent_last, mv)` is in `two_grams`.
    #[inline(always)]
    fn two_gram_at(&self, opponent_last: u16, mv: u16) -> usize {
        self.index(opponent_last) * self.cells + self.index(mv)
    }

    /// The entry of `player`'s 2-gram `(opponent_last, mv)`.
    #[inline(always)]
    fn two_gram(&self, player: Player, opponent_last: u16, mv: u16) -> NGramEntry {
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
    fn three_gram(&self, player: Player, context: &NGramContext, mv: u16) -> Option<NGramEntry> {
        Some(self.three_grams[player as usize][self.three_gram_at(context, mv)?])
    }

    /// Adds a play-out's reward to `player`'s 2-gram after `context` and, when the
    /// context has a first move, its 3-gram.
    fn add_ngrams(&mut self, player: Player, context: &NGramContext, mv: u16, reward: f32) {
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
    fn ngram_score(&self, player: Player, context: &NGramContext, mv: u16) -> u32 {
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
    fn reply(&self, player: Player, last: [u16; 2]) -> Option<u16> {
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

/// The play-out evaluator of the Light Riders search: [`PlayoutPolicy`]'s play-outs
/// (cut-offs and all), with moves chosen by a [`Learning`] policy when one is set; and
/// the move values the tree's selection asks for ([`MoveKnowledge`]).
#[derive(Clone)]
pub struct TronPlayout {
    pub policy: PlayoutPolicy,
    pub learning: Option<Learning>,
    /// The N-Gram play-out's chance of a default (random safe) move instead.
    pub epsilon: f32,
    pub extraction: Extraction,
    pub knowledge: Option<MoveKnowledge>,
    tables: Option<Box<Tables>>,
    /// The current play-out's rounds: both riders' cells, the start's heads first.
    rounds: Vec<[u16; 2]>,
}

impl PartialEq for TronPlayout {
    /// The settings; what the tables have learned is not part of them.
    fn eq(&self, other: &Self) -> bool {
        self.policy == other.policy
            && self.learning == other.learning
            && self.epsilon == other.epsilon
            && self.extraction == other.extraction
            && self.knowledge == other.knowledge
    }
}

impl std::fmt::Debug for TronPlayout {
    /// The settings, not the tables.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TronPlayout")
            .field("policy", &self.policy)
            .field("learning", &self.learning)
            .field("epsilon", &self.epsilon)
            .field("extraction", &self.extraction)
            .field("knowledge", &self.knowledge)
            .finish()
    }
}

impl From<PlayoutPolicy> for TronPlayout {
    fn from(policy: PlayoutPolicy) -> Self {
        TronPlayout::new(policy, None, 0.0)
    }
}

impl TronPlayout {
    pub fn new(policy: PlayoutPolicy, learning: Option<Learning>, epsilon: f32) -> Self {
        TronPlayout {
            policy,
            learning,
            epsilon,
            extraction: Extraction::Simultaneous,
            knowledge: None,
            tables: None,
            rounds: Vec::new(),
        }
    }

    /// These play-outs, their N-Grams read by `extraction`.
    pub fn with_extraction(self, extraction: Extraction) -> Self {
        TronPlayout { extraction, ..self }
    }

    /// These play-outs, also learning what the tree's selection asks for.
    pub fn with_knowledge(self, knowledge: Option<MoveKnowledge>) -> Self {
        TronPlayout { knowledge, ..self }
    }

    /// The tables kept, from `learning` and `knowledge`.
    fn kept(&self) -> Option<Kept> {
        Kept::of(self.learning, self.knowledge)
    }

    /// The value in `0.0..=1.0` of `player` moving in `direction` in `state` by the
    /// [`MoveKnowledge`] asked for; `None` when the tables know nothing of it.
    pub fn move_value(
        &self,
        state: &TronState,
        player: Player,
        direction: Direction,
    ) -> Option<f32> {
        let (knowledge, tables) = (self.knowledge?, self.tables.as_deref()?);
        let delta = space::neighbour_deltas(state.grid())[direction.index()];
        let cell = state.head_index(player).wrapping_add_signed(delta) as u16;
        let opponent_head = state.head_index(1 - player);
        match knowledge {
            MoveKnowledge::NGram => {
                ngram_reward(tables.two_gram(player, opponent_head as u16, cell))
            }
            MoveKnowledge::LastGoodReply => {
                let reply = tables.lgr1[player as usize][tables.index(opponent_head as u16)];
                (reply != NO_REPLY).then_some(if reply == cell { 1.0 } else { 0.0 })
            }
        }
    }

    /// Learns from the play-out just finished (`self.rounds`), whose reward for player 0
    /// was `reward0`.
    fn learn(&mut self, kept: Kept, reward0: f32) {
        let tables = self
            .tables
            .as_mut()
            .expect("tables made before the play-out");
        let rewards = [reward0, 1.0 - reward0];
        let (rounds, extraction) = (&self.rounds, self.extraction);
        for t in 1..rounds.len() {
            let (last, now) = (rounds[t - 1], rounds[t]);
            for player in 0..2u8 {
                let (me, them) = (player as usize, 1 - player as usize);
                let mv = now[me];
                if kept.ngrams {
                    let context = extraction.context(&rounds[..t], now[0], player);
                    tables.add_ngrams(player, &context, mv, rewards[me]);
                }
                if kept.replies {
                    let (mine, theirs) = (tables.index(last[me]), tables.index(last[them]));
                    let two = mine * tables.cells + theirs;
                    if rewards[me] >= rewards[them] {
                        tables.lgr1[me][theirs] = mv;
                        tables.lgr2[me][two] = mv;
                    } else if kept.forgets {
                        if tables.lgr1[me][theirs] == mv {
                            tables.lgr1[me][theirs] = NO_REPLY;
                        }
                        if tables.lgr2[me][two] == mv {
                            tables.lgr2[me][two] = NO_REPLY;
                        }
                    }
                }
            }
        }
    }
}

/// The learned move choice of one play-out: what it reads, borrowed from its
/// [`TronPlayout`].
struct Chooser<'a> {
    tables: &'a Tables,
    learning: Learning,
    epsilon: f32,
    extraction: Extraction,
    /// Bit-index steps of the four directions on this board.
    deltas: [isize; 4],
}

impl Chooser<'_> {
    /// The cell `player` moves to after the play-out's rounds `before` (rider 0 having
    /// moved to `rider0_now` this round) by what the tables know (`None`: the default
    /// policy's move): the last good reply if it is safe, else (ε-greedy) the safe move
    /// with the best N-Gram score.
    #[inline(always)]
    fn choose(
        &self,
        state: &TronState,
        player: Player,
        before: &[[u16; 2]],
        rider0_now: u16,
        rng: &mut FastRng,
    ) -> Option<usize> {
        let (tables, learning, deltas) = (self.tables, self.learning, &self.deltas);
        let safe = state.safe_moves(player);
        if safe.is_empty() {
            return None;
        }
        let head = state.head_index(player);
        if safe.len() == 1 {
            // Every policy takes the one way out.
            return Some(head.wrapping_add_signed(deltas[NTH_BIT[safe.0 as usize][0] as usize]));
        }
        let is_safe = |cell: usize| {
            (0..4).any(|k| safe.0 >> k & 1 == 1 && head.wrapping_add_signed(deltas[k]) == cell)
        };
        if learning.uses_replies() {
            if let Some(reply) = tables.reply(player, before[before.len() - 1]) {
                if is_safe(reply as usize) {
                    return Some(reply as usize);
                }
            }
        }
        if !learning.uses_ngrams() || random_below(rng, 1 << 16) < (self.epsilon * 65536.0) as u32 {
            return None;
        }
        let context = self.extraction.context(before, rider0_now, player);
        let mut best = None;
        let mut best_score = 0;
        // Start at a random direction so that equal scores are broken at random.
        let start = random_below(rng, 4) as usize;
        for k in (0..4).map(|i| (start + i) % 4) {
            if safe.0 >> k & 1 == 0 {
                continue;
            }
            let cell = head.wrapping_add_signed(deltas[k]);
            let score = tables.ngram_score(player, &context, cell as u16);
            if score > best_score {
                best_score = score;
                best = Some(cell);
            }
        }
        best
    }
}

/// Selection guidance by the learned tables ([`TronPlayout::move_value`]).
impl TreePolicy<TronState> for TronPlayout {
    fn sim_move_value(&self, state: &TronState, player: Player, mv: Direction) -> Option<f32> {
        self.move_value(state, player, mv)
    }
}

impl Evaluator<TronState> for TronPlayout {
    #[inline]
    fn certain_outcome(&self, state: &TronState) -> Option<crate::game::Outcome> {
        self.policy.certain_outcome(state)
    }

    fn is_deterministic(&self) -> bool {
        self.kept().is_none() && self.policy.is_deterministic()
    }

    #[inline]
    fn evaluate(&mut self, state: &mut TronState, rng: &mut FastRng) -> f32 {
        let Some(kept) = self.kept() else {
            return self.policy.evaluate(state, rng);
        };
        let grid = state.grid();
        let fits = |t: &Tables| t.grid == grid && t.steps.extraction == self.extraction;
        if !self.tables.as_deref().is_some_and(fits) {
            self.tables = Some(Box::new(Tables::new(grid, kept, self.extraction)));
        }
        let deltas = space::neighbour_deltas(state.grid());
        let chooser = self.learning.map(|learning| Chooser {
            tables: self.tables.as_deref().expect("just made"),
            learning,
            epsilon: self.epsilon,
            extraction: self.extraction,
            deltas,
        });
        let heads = [0, 1].map(|p| state.head_index(p) as u16);
        self.rounds.clear();
        self.rounds.push(heads);
        let rounds = &mut self.rounds;
        // Each round rider 0 chooses first; the round is kept once rider 1 has chosen.
        let mut rider0_now = UNKNOWN;
        let reward0 = self.policy.play_out(state, rng, |state, player, rng| {
            let cell = chooser
                .as_ref()
                .and_then(|chooser| chooser.choose(state, player, rounds, rider0_now, rng))
                .unwrap_or_else(|| self.policy.default_move(state, player, &deltas, rng));
            if player == 0 {
                rider0_now = cell as u16;
            } else {
                rounds.push([rider0_now, cell as u16]);
            }
            cell
        });
        self.learn(kept, reward0);
        reward0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn learner(learning: Learning) -> TronPlayout {
        TronPlayout::new(PlayoutPolicy::avoid_crash(), Some(learning), 0.3)
    }

    /// A learner whose tables have seen one play-out of `rounds` with player 0's reward.
    fn taught(learning: Learning, rounds: &[[u16; 2]], reward0: f32) -> TronPlayout {
        taught_with(learner(learning), rounds, reward0)
    }

    /// `playout` after its tables have seen one play-out of `rounds`.
    fn taught_with(mut playout: TronPlayout, rounds: &[[u16; 2]], reward0: f32) -> TronPlayout {
        let kept = playout.kept().expect("a learning play-out keeps tables");
        // Stride 19: the tests' cells 40..=70 are on rows 1 and 2.
        let grid = Grid::new(18, 16).expect("a valid board");
        playout.tables = Some(Box::new(Tables::new(grid, kept, playout.extraction)));
        playout.rounds = rounds.to_vec();
        playout.learn(kept, reward0);
        playout
    }

    const ROUNDS: [[u16; 2]; 3] = [[40, 60], [41, 61], [42, 62]];

    /// `player`'s average reward for the 2-gram `(opponent_last, mv)`, if seen.
    fn two(tables: &Tables, player: Player, opponent_last: u16, mv: u16) -> Option<f32> {
        ngram_reward(tables.two_gram(player, opponent_last, mv))
    }

    /// `player`'s average reward for the 3-gram `(first, opponent_last, mv)`, if seen.
    fn three(
        tables: &Tables,
        player: Player,
        first: u16,
        opponent_last: u16,
        mv: u16,
    ) -> Option<f32> {
        let context = NGramContext {
            older: first,
            opponent: opponent_last,
        };
        tables
            .three_gram(player, &context, mv)
            .and_then(ngram_reward)
    }

    /// [`Tables::ngram_score`] as an average reward (`None`: nothing known).
    fn score_reward(score: u32) -> Option<f32> {
        (score > 0).then(|| (score - 1) as f32 / (2.0 * MEAN_ONE))
    }

    #[test]
    fn each_three_gram_step_has_its_own_slot_of_the_row_and_a_step_back_has_none() {
        let stride = 17;
        let two_steps = [-34, -18, -16, -2, 2, 16, 18, 34];
        let one_step = [-17, -1, 1, 17];
        for (extraction, steps) in [
            (Extraction::Simultaneous, &two_steps[..]),
            (Extraction::Sequential, &one_step[..]),
        ] {
            let slots = StepSlots::new(extraction, stride);
            let first = 200;
            let mut seen: Vec<usize> = steps
                .iter()
                .map(|&step| {
                    let slot = slots.of(first, (first as isize + step) as u16);
                    slot.expect("every step of the extraction has a slot")
                })
                .collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), steps.len(), "{extraction:?}");
            assert!(seen.iter().all(|&slot| slot < THREE_GRAM_ROW));
            assert_eq!(slots.of(first, first), None, "{extraction:?}");
            assert_eq!(slots.of(first, first + 3 * stride as u16), None);
        }
    }

    #[test]
    fn cells_are_numbered_row_by_row_and_every_bit_off_the_board_is_one_more() {
        let grid = Grid::new(13, 13).unwrap();
        let kept = Kept::of(Some(Learning::NGram), None).unwrap();
        let tables = Tables::new(grid, kept, Extraction::Simultaneous);
        assert_eq!(tables.cells, 13 * 13 + 1);
        assert_eq!(tables.index(grid.index(0, 0) as u16), 0);
        assert_eq!(tables.index(grid.index(12, 0) as u16), 12);
        assert_eq!(tables.index(grid.index(0, 1) as u16), 13);
        assert_eq!(tables.index(grid.index(12, 12) as u16), 168);
        for bit in 0..grid.words() * 64 {
            let on_board = grid.coords(bit).is_some();
            assert_eq!(tables.index(bit as u16) == 169, !on_board, "bit {bit}");
        }
        assert_eq!(tables.three_grams[0].len(), 170 * 170 * THREE_GRAM_ROW);
    }

    #[test]
    fn an_entry_keeps_the_average_reward_then_a_moving_average() {
        let mut entry: NGramEntry = 0;
        assert_eq!(ngram_reward(entry), None);
        for reward in [1.0, 0.0, 0.5, 1.0] {
            ngram_add(&mut entry, reward);
        }
        assert!((ngram_reward(entry).unwrap() - 0.625).abs() < 1e-4);
        for _ in 0..NGRAM_MEMORY {
            ngram_add(&mut entry, 1.0);
        }
        assert_eq!(ngram_count(entry), NGRAM_MEMORY as u32);
        let settled = ngram_reward(entry).unwrap();
        assert!(settled > 0.6, "{settled}");
        // A moving average now: the newest play-outs move it by 1/NGRAM_MEMORY each.
        for _ in 0..NGRAM_MEMORY {
            ngram_add(&mut entry, 0.0);
        }
        assert_eq!(ngram_count(entry), NGRAM_MEMORY as u32);
        let moved = ngram_reward(entry).unwrap();
        assert!((moved - settled * (-1.0f32).exp()).abs() < 0.02, "{moved}");
    }

    #[test]
    fn ngrams_learn_each_riders_reward_with_the_previous_rounds_as_context() {
        let playout = taught(Learning::NGram, &ROUNDS, 1.0);
        let tables = playout.tables.as_deref().unwrap();
        // Round 1: rider 0 moved to 11 after the opponent's 20; rider 1 to 21 after 10.
        assert_eq!(two(tables, 0, 60, 41), Some(1.0));
        assert_eq!(two(tables, 1, 40, 61), Some(0.0));
        // Round 2's 3-gram: rider 0's cell two rounds back, the opponent's last, the move.
        assert_eq!(three(tables, 0, 40, 61, 42), Some(1.0));
        assert_eq!(three(tables, 1, 60, 41, 62), Some(0.0));
        // The opponent's move of the same round is no context.
        assert_eq!(two(tables, 0, 61, 41), None);
        assert_eq!(two(tables, 1, 41, 61), None);
        let rounds = &ROUNDS[..];
        let score = |player, mv| {
            let context = Extraction::Simultaneous.context(&rounds[..2], rounds[2][0], player);
            score_reward(tables.ngram_score(player, &context, mv))
        };
        assert_eq!(score(0, 42), Some(1.0));
        assert_eq!(score(1, 62), Some(0.0));
        assert_eq!(score(0, 43), None);
    }

    #[test]
    fn sequential_ngrams_read_rider_zero_before_rider_one_in_each_round() {
        let sequential = learner(Learning::NGram).with_extraction(Extraction::Sequential);
        let playout = taught_with(sequential, &ROUNDS, 1.0);
        let tables = playout.tables.as_deref().unwrap();
        // The list 40 60 41 61 42 62: rider 1's move follows rider 0's of the same round.
        assert_eq!(two(tables, 1, 41, 61), Some(0.0));
        assert_eq!(three(tables, 1, 60, 41, 61), Some(0.0));
        // Rider 0's follows rider 1's of the round before, its own move before that.
        assert_eq!(two(tables, 0, 60, 41), Some(1.0));
        assert_eq!(three(tables, 0, 41, 61, 42), Some(1.0));
        // Not the simultaneous sequences.
        assert_eq!(two(tables, 1, 40, 61), None);
        // A play-out in progress: rider 1 reads rider 0's move of the open round.
        let context = Extraction::Sequential.context(&[[40, 60]], 41, 1);
        assert_eq!((context.older, context.opponent), (60, 41));
        assert_eq!(score_reward(tables.ngram_score(1, &context, 61)), Some(0.0));
    }

    #[test]
    fn ngram_averages_rewards_over_play_outs() {
        let mut playout = taught(Learning::NGram, &ROUNDS, 1.0);
        playout.rounds = ROUNDS.to_vec();
        playout.learn(playout.kept().unwrap(), 0.5);
        let tables = playout.tables.as_deref().unwrap();
        let reward = two(tables, 0, 60, 41).expect("seen twice");
        assert!((reward - 0.75).abs() < 1e-4, "{reward}");
        let three_reward = three(tables, 0, 40, 61, 42).expect("seen twice");
        assert!((three_reward - 0.75).abs() < 1e-4, "{three_reward}");
    }

    #[test]
    fn last_good_replies_are_kept_by_lgr_and_forgotten_by_lgrf_after_a_loss() {
        let context = [41, 61];
        for learning in [Learning::Lgr, Learning::Lgrf] {
            let mut playout = taught(learning, &ROUNDS, 1.0);
            let tables = playout.tables.as_deref().unwrap();
            assert_eq!(tables.reply(0, context), Some(42), "{learning:?}");
            // The loser learns no reply.
            assert_eq!(tables.reply(1, context), None, "{learning:?}");
            // The same moves now lose for rider 0.
            playout.rounds = ROUNDS.to_vec();
            playout.learn(playout.kept().unwrap(), 0.0);
            let tables = playout.tables.as_deref().unwrap();
            let expected = (learning == Learning::Lgr).then_some(42);
            assert_eq!(tables.reply(0, context), expected, "{learning:?}");
            assert_eq!(tables.reply(1, context), Some(62), "{learning:?}");
        }
    }

    #[test]
    fn lgr_two_answers_before_lgr_one() {
        let mut playout = taught(Learning::Lgr, &ROUNDS, 1.0);
        // Another play-out: after (43, 61) rider 0 went to 44, so LGR-1 for 61 says 44.
        playout.rounds = vec![[43, 61], [44, 70]];
        playout.learn(playout.kept().unwrap(), 1.0);
        let tables = playout.tables.as_deref().unwrap();
        assert_eq!(tables.reply(0, [41, 61]), Some(42));
        assert_eq!(tables.reply(0, [50, 61]), Some(44));
    }

    #[test]
    fn learned_play_outs_end_with_a_reward_and_fill_their_tables() {
        let start = TronState::light_riders_start();
        for learning in [
            Learning::NGram,
            Learning::Lgr,
            Learning::Lgrf,
            Learning::NGramLgr,
        ] {
            let mut playout = learner(learning);
            let mut rng = FastRng::seed_from_u64(9);
            for _ in 0..500 {
                let reward = playout.evaluate(&mut start.clone(), &mut rng);
                assert!((0.0..=1.0).contains(&reward), "{learning:?} {reward}");
            }
            let tables = playout.tables.as_deref().unwrap();
            let seen = |table: &[NGramEntry]| table.iter().any(|&entry| entry != 0);
            assert_eq!(
                seen(&tables.two_grams[0]),
                learning.uses_ngrams(),
                "{learning:?}"
            );
            assert_eq!(
                seen(&tables.three_grams[1]),
                learning.uses_ngrams(),
                "{learning:?}"
            );
            let replies = tables.lgr2[0].iter().filter(|&&r| r != NO_REPLY).count();
            assert_eq!(replies > 0, learning.uses_replies(), "{learning:?}");
        }
    }

    #[test]
    fn a_play_out_learns_the_sequences_its_extraction_reads() {
        let start = TronState::light_riders_start();
        for extraction in [Extraction::Simultaneous, Extraction::Sequential] {
            let mut playout = learner(Learning::NGram).with_extraction(extraction);
            let mut rng = FastRng::seed_from_u64(5);
            playout.evaluate(&mut start.clone(), &mut rng);
            let rounds = playout.rounds.clone();
            assert!(rounds.len() > 2 && !rounds.iter().flatten().any(|&m| m == UNKNOWN));
            let tables = playout.tables.as_deref().unwrap();
            // Rider 1's first move after rider 0's start, or after its first move.
            let same_round = two(tables, 1, rounds[1][0], rounds[1][1]);
            let round_before = two(tables, 1, rounds[0][0], rounds[1][1]);
            let expected = extraction == Extraction::Sequential;
            assert_eq!(same_round.is_some(), expected, "{extraction:?}");
            assert_eq!(round_before.is_some(), !expected, "{extraction:?}");
        }
    }

    #[test]
    fn the_tree_reads_a_moves_two_gram_or_whether_it_is_the_last_good_reply() {
        let start = TronState::light_riders_start();
        let heads = [0, 1].map(|p| start.head_index(p) as u16);
        // Rider 0 went right, rider 1 left, and rider 0 won.
        let rounds = [heads, [heads[0] + 1, heads[1] - 1]];
        for (knowledge, right, up) in [
            (MoveKnowledge::NGram, Some(1.0), None),
            (MoveKnowledge::LastGoodReply, Some(1.0), Some(0.0)),
        ] {
            let mut playout =
                TronPlayout::from(PlayoutPolicy::avoid_crash()).with_knowledge(Some(knowledge));
            let kept = playout.kept().expect("the tree's knowledge keeps tables");
            let tables = Tables::new(start.grid(), kept, Extraction::Simultaneous);
            playout.tables = Some(Box::new(tables));
            playout.rounds = rounds.to_vec();
            playout.learn(kept, 1.0);
            let value = |player, direction| playout.move_value(&start, player, direction);
            assert_eq!(value(0, Direction::Right), right, "{knowledge:?}");
            assert_eq!(value(0, Direction::Up), up, "{knowledge:?}");
            let loser = (knowledge == MoveKnowledge::NGram).then_some(0.0);
            assert_eq!(value(1, Direction::Left), loser, "{knowledge:?}");
        }
    }

    /// Asserts that `a` and `b` play the same 100 play-outs from the start (same rewards,
    /// same final positions) from equally seeded generators.
    fn assert_same_play_outs(a: &mut impl Evaluator<TronState>, b: &mut impl Evaluator<TronState>) {
        let start = TronState::light_riders_start();
        let (mut rng_a, mut rng_b) = (FastRng::seed_from_u64(4), FastRng::seed_from_u64(4));
        for _ in 0..100 {
            let (mut x, mut y) = (start.clone(), start.clone());
            assert_eq!(
                a.evaluate(&mut x, &mut rng_a),
                b.evaluate(&mut y, &mut rng_b)
            );
            assert_eq!(x, y);
        }
    }

    #[test]
    fn learning_for_the_tree_leaves_the_play_outs_the_policys() {
        let mut plain = TronPlayout::from(PlayoutPolicy::avoid_crash());
        let mut learning = TronPlayout::from(PlayoutPolicy::avoid_crash())
            .with_knowledge(Some(MoveKnowledge::LastGoodReply));
        assert_same_play_outs(&mut plain, &mut learning);
        let tables = learning
            .tables
            .as_deref()
            .expect("tables made by the play-outs");
        assert!(tables.lgr1[0].iter().any(|&r| r != NO_REPLY));
        assert!(tables.two_grams[0].is_empty() && tables.three_grams[0].is_empty());
    }

    #[test]
    fn without_learning_the_play_out_is_the_policys() {
        let mut plain = TronPlayout::from(PlayoutPolicy::avoid_crash());
        assert_same_play_outs(&mut plain, &mut PlayoutPolicy::avoid_crash());
    }
}
