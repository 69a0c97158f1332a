//! Play-outs that learn from the play-outs before them (Tron seed 000, after Tak et al.
//! 2012): N-Grams, Last-Good-Reply (LGR-1 and LGR-2, with forgetting: LGRF) and the
//! LGR-then-N-Gram combination. A move is the cell a rider moves to.
//!
//! Tron is simultaneous, so a move's context is the previous round's moves, never the
//! opponent's move of the same round (the seed's "simultaneous" extraction, which beat the
//! sequential one 63.4% to 54.0%): for rider `p` moving to `m(t)` in round `t`,
//! - the 2-gram is `(opponent's m(t−1), m(t))`, the 3-gram `(m(t−2), opponent's m(t−1),
//!   m(t))` (the seed's Figure 3: the rider's own `m(t−1)` lies between `m(t−2)` and `m(t)`);
//! - LGR-1 answers the opponent's `m(t−1)`, LGR-2 the pair `(m(t−1), opponent's m(t−1))`.
//!
//! The seed's other N-Gram extraction ([`Extraction::Sequential`], for its Table 2) reads
//! the play-out as if rider 0 moved before rider 1 in each round: sequences are consecutive
//! moves of that list, so rider 1's context holds rider 0's move of the same round.
//!
//! Only the play-out's own rounds are learned from (the search does not tell its
//! evaluator the moves of the tree); the position a play-out starts from gives the first
//! context: the riders' heads are their moves of the round before.
//!
//! The tables belong to the search that owns the play-out, so they survive from move to
//! move while the search is kept, and they are bounded: the N-Grams are direct-mapped
//! hash tables of [`NGRAM_SLOTS`] entries per rider (a newer sequence replaces an older
//! one in its slot), the LGR tables are arrays over the board's cells.

use super::playout::PlayoutPolicy;
use super::space;
use super::{Direction, TronState};
use crate::game::Player;
use crate::search::{random_below, Evaluator, FastRng};

/// Which learned move choice a play-out uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// The best-rewarded move by the 2- and 3-grams, ε-greedy.
    NGram,
    /// The last good reply, LGR-2 before LGR-1.
    Lgr,
    /// LGR with forgetting: a reply that lost is deleted.
    Lgrf,
    /// LGR first, then the N-Grams (the seed's "combo").
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
/// of a move in a position, for UCT-ULM and Progressive Bias (seed 000) or seed 004's
/// lean-LGRF ordering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKnowledge {
    /// The move's 2-gram reward. (Seed 000 averages the 2- and 3-gram; a tree position
    /// does not know the riders' cells of the round before the last, so the tree has
    /// only the 2-gram: the opponent's head, then the move.)
    NGram,
    /// 1 if the move is the rider's LGR-1 last good reply to the opponent's head (with
    /// forgetting, as seed 004), else 0.
    LastGoodReply,
}

/// How the N-Grams read a play-out's moves as sequences (seed 000, section 5.2).
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
        // The play-outs' own rule, else the tree's (seed 004 forgets).
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

/// Entries in each rider's N-Gram table (16 bytes each: 1 MiB a rider).
pub const NGRAM_SLOTS: usize = 1 << 16;
/// An LGR entry with no reply.
const NO_REPLY: u16 = u16::MAX;
/// A round before the play-out's history begins.
const UNKNOWN: u16 = u16::MAX;

/// One move sequence's average reward.
#[derive(Clone, Copy, Debug, Default)]
struct NGramEntry {
    /// The sequence (see [`ngram_key`]); 0 for an empty slot.
    key: u64,
    reward_sum: f32,
    count: u32,
}

/// The key of a 2-gram (`older` = [`UNKNOWN`]) or 3-gram; never 0.
#[inline(always)]
fn ngram_key(older: u16, opponent_last: u16, mv: u16) -> u64 {
    (older as u64) << 40 | (opponent_last as u64) << 20 | (mv as u64) << 4 | 1
}

/// What the learned play-outs know, per rider.
#[derive(Clone)]
struct Tables {
    /// The board the tables index (a new board starts them afresh).
    cells: usize,
    ngrams: [Vec<NGramEntry>; 2],
    /// `lgr1[p][opponent's last]`: `p`'s reply.
    lgr1: [Vec<u16>; 2],
    /// `lgr2[p][p's last * cells + opponent's last]`: `p`'s reply.
    lgr2: [Vec<u16>; 2],
}

impl Tables {
    fn new(cells: usize, kept: Kept) -> Self {
        let ngrams = || {
            if kept.ngrams {
                vec![NGramEntry::default(); NGRAM_SLOTS]
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
        Tables {
            cells,
            ngrams: [ngrams(), ngrams()],
            lgr1: [replies(cells), replies(cells)],
            lgr2: [replies(cells * cells), replies(cells * cells)],
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as usize & (NGRAM_SLOTS - 1)
    }

    /// The average reward of a sequence for `player`, if the table holds it.
    #[inline(always)]
    fn ngram(&self, player: Player, key: u64) -> Option<f32> {
        let entry = &self.ngrams[player as usize][Self::slot(key)];
        (entry.key == key).then(|| entry.reward_sum / entry.count as f32)
    }

    fn add_ngram(&mut self, player: Player, key: u64, reward: f32) {
        let entry = &mut self.ngrams[player as usize][Self::slot(key)];
        if entry.key != key {
            *entry = NGramEntry {
                key,
                reward_sum: 0.0,
                count: 0,
            };
        }
        entry.reward_sum += reward;
        entry.count += 1;
    }

    /// The N-Gram score of `player` moving to `mv` after `context`: the average of the
    /// 2-gram's and 3-gram's rewards that the tables hold.
    #[inline(always)]
    fn ngram_score(&self, player: Player, context: &NGramContext, mv: u16) -> Option<f32> {
        let two = self.ngram(player, ngram_key(UNKNOWN, context.opponent, mv));
        let older = context.older;
        let three = (older != UNKNOWN)
            .then(|| self.ngram(player, ngram_key(older, context.opponent, mv)))
            .flatten();
        match (two, three) {
            (Some(a), Some(b)) => Some((a + b) / 2.0),
            (a, b) => a.or(b),
        }
    }

    /// `player`'s last good reply to the riders' moves of the round before, `last`:
    /// LGR-2's, else LGR-1's.
    #[inline(always)]
    fn reply(&self, player: Player, last: [u16; 2]) -> Option<u16> {
        let (me, them) = (player as usize, 1 - player as usize);
        let (mine, theirs) = (last[me] as usize, last[them] as usize);
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
                tables.ngram(player, ngram_key(UNKNOWN, opponent_head as u16, cell))
            }
            MoveKnowledge::LastGoodReply => {
                let reply = tables.lgr1[player as usize][opponent_head];
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
                    let NGramContext { older, opponent } =
                        extraction.context(&rounds[..t], now[0], player);
                    tables.add_ngram(player, ngram_key(UNKNOWN, opponent, mv), rewards[me]);
                    if older != UNKNOWN {
                        tables.add_ngram(player, ngram_key(older, opponent, mv), rewards[me]);
                    }
                }
                if kept.replies {
                    let (mine, theirs) = (last[me] as usize, last[them] as usize);
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
        let mut best_score = f32::NEG_INFINITY;
        // Start at a random direction so that equal scores are broken at random.
        let start = random_below(rng, 4) as usize;
        for k in (0..4).map(|i| (start + i) % 4) {
            if safe.0 >> k & 1 == 0 {
                continue;
            }
            let cell = head.wrapping_add_signed(deltas[k]);
            if let Some(score) = tables.ngram_score(player, &context, cell as u16) {
                if score > best_score {
                    best_score = score;
                    best = Some(cell);
                }
            }
        }
        best
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

    fn sim_move_value(&self, state: &TronState, player: Player, mv: Direction) -> Option<f32> {
        self.move_value(state, player, mv)
    }

    #[inline]
    fn evaluate(&mut self, state: &mut TronState, rng: &mut FastRng) -> f32 {
        let Some(kept) = self.kept() else {
            return self.policy.evaluate(state, rng);
        };
        let cells = state.grid().words() * 64;
        if self.tables.as_ref().map_or(true, |t| t.cells != cells) {
            self.tables = Some(Box::new(Tables::new(cells, kept)));
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
        let mut playout = learner(learning);
        let kept = playout.kept().expect("a learning play-out keeps tables");
        playout.tables = Some(Box::new(Tables::new(320, kept)));
        playout.rounds = rounds.to_vec();
        playout.learn(kept, reward0);
        playout
    }

    const ROUNDS: [[u16; 2]; 3] = [[10, 20], [11, 21], [12, 22]];

    #[test]
    fn ngram_keys_tell_two_grams_from_three_grams_and_are_never_empty() {
        let two = ngram_key(UNKNOWN, 20, 11);
        let three = ngram_key(10, 20, 11);
        assert_ne!(two, three);
        assert_ne!(two, 0);
        assert_ne!(ngram_key(0, 0, 0), 0);
        assert_ne!(ngram_key(10, 20, 11), ngram_key(20, 10, 11));
    }

    #[test]
    fn ngrams_learn_each_riders_reward_with_the_previous_rounds_as_context() {
        let playout = taught(Learning::NGram, &ROUNDS, 1.0);
        let tables = playout.tables.as_deref().unwrap();
        // Round 1: rider 0 moved to 11 after the opponent's 20; rider 1 to 21 after 10.
        assert_eq!(tables.ngram(0, ngram_key(UNKNOWN, 20, 11)), Some(1.0));
        assert_eq!(tables.ngram(1, ngram_key(UNKNOWN, 10, 21)), Some(0.0));
        // Round 2's 3-gram: rider 0's cell two rounds back, the opponent's last, the move.
        assert_eq!(tables.ngram(0, ngram_key(10, 21, 12)), Some(1.0));
        // The opponent's move of the same round is no context.
        assert_eq!(tables.ngram(0, ngram_key(UNKNOWN, 21, 11)), None);
        assert_eq!(tables.ngram(1, ngram_key(UNKNOWN, 11, 21)), None);
        let rounds = &ROUNDS[..];
        let score = |player, mv| {
            let context = Extraction::Simultaneous.context(&rounds[..2], rounds[2][0], player);
            tables.ngram_score(player, &context, mv)
        };
        assert_eq!(score(0, 12), Some(1.0));
        assert_eq!(score(1, 22), Some(0.0));
    }

    #[test]
    fn sequential_ngrams_read_rider_zero_before_rider_one_in_each_round() {
        let mut playout = taught(Learning::NGram, &[], 1.0);
        playout.extraction = Extraction::Sequential;
        playout.rounds = ROUNDS.to_vec();
        playout.learn(playout.kept().unwrap(), 1.0);
        let tables = playout.tables.as_deref().unwrap();
        // The list 10 20 11 21 12 22: rider 1's move follows rider 0's of the same round.
        assert_eq!(tables.ngram(1, ngram_key(UNKNOWN, 11, 21)), Some(0.0));
        assert_eq!(tables.ngram(1, ngram_key(20, 11, 21)), Some(0.0));
        // Rider 0's follows rider 1's of the round before, its own move before that.
        assert_eq!(tables.ngram(0, ngram_key(UNKNOWN, 20, 11)), Some(1.0));
        assert_eq!(tables.ngram(0, ngram_key(11, 21, 12)), Some(1.0));
        // Not the simultaneous sequences.
        assert_eq!(tables.ngram(1, ngram_key(UNKNOWN, 10, 21)), None);
        assert_eq!(tables.ngram(0, ngram_key(10, 21, 12)), None);
        // A play-out in progress: rider 1 reads rider 0's move of the open round.
        let context = Extraction::Sequential.context(&[[10, 20]], 11, 1);
        assert_eq!((context.older, context.opponent), (20, 11));
        assert_eq!(tables.ngram_score(1, &context, 21), Some(0.0));
    }

    #[test]
    fn ngram_averages_rewards_over_play_outs() {
        let mut playout = taught(Learning::NGram, &ROUNDS, 1.0);
        playout.rounds = ROUNDS.to_vec();
        playout.learn(playout.kept().unwrap(), 0.5);
        let tables = playout.tables.as_deref().unwrap();
        assert_eq!(tables.ngram(0, ngram_key(UNKNOWN, 20, 11)), Some(0.75));
    }

    #[test]
    fn last_good_replies_are_kept_by_lgr_and_forgotten_by_lgrf_after_a_loss() {
        let context = [11, 21];
        for learning in [Learning::Lgr, Learning::Lgrf] {
            let mut playout = taught(learning, &ROUNDS, 1.0);
            let tables = playout.tables.as_deref().unwrap();
            assert_eq!(tables.reply(0, context), Some(12), "{learning:?}");
            // The loser learns no reply.
            assert_eq!(tables.reply(1, context), None, "{learning:?}");
            // The same moves now lose for rider 0.
            playout.rounds = ROUNDS.to_vec();
            playout.learn(playout.kept().unwrap(), 0.0);
            let tables = playout.tables.as_deref().unwrap();
            let expected = (learning == Learning::Lgr).then_some(12);
            assert_eq!(tables.reply(0, context), expected, "{learning:?}");
            assert_eq!(tables.reply(1, context), Some(22), "{learning:?}");
        }
    }

    #[test]
    fn lgr_two_answers_before_lgr_one() {
        let mut playout = taught(Learning::Lgr, &ROUNDS, 1.0);
        // Another play-out: after (5, 21) rider 0 went to 6, so LGR-1 for 21 says 6.
        playout.rounds = vec![[5, 21], [6, 30]];
        playout.learn(playout.kept().unwrap(), 1.0);
        let tables = playout.tables.as_deref().unwrap();
        assert_eq!(tables.reply(0, [11, 21]), Some(12));
        assert_eq!(tables.reply(0, [40, 21]), Some(6));
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
            let ngram_entries = tables.ngrams[0].iter().filter(|e| e.key != 0).count();
            assert_eq!(ngram_entries > 0, learning.uses_ngrams(), "{learning:?}");
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
            let same_round = tables.ngram(1, ngram_key(UNKNOWN, rounds[1][0], rounds[1][1]));
            let round_before = tables.ngram(1, ngram_key(UNKNOWN, rounds[0][0], rounds[1][1]));
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
            playout.tables = Some(Box::new(Tables::new(start.grid().words() * 64, kept)));
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
        assert!(tables.ngrams[0].is_empty());
    }

    #[test]
    fn without_learning_the_play_out_is_the_policys() {
        let mut plain = TronPlayout::from(PlayoutPolicy::avoid_crash());
        assert_same_play_outs(&mut plain, &mut PlayoutPolicy::avoid_crash());
    }
}
