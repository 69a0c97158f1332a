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
//!
//! The files: this one, the settings ([`Learning`], [`MoveKnowledge`], [`Extraction`])
//! and what the tables keep; `tables`: the tables and their entries; `evaluator`:
//! [`TronPlayout`], the play-outs that choose by the tables and learn into them. The
//! tables apart from the play-outs, so that their layout can change without touching
//! the move choice.
//!
//! [`NGramEntry`]: tables::NGramEntry

mod evaluator;
mod tables;
#[cfg(test)]
mod tests;

pub use evaluator::TronPlayout;
pub use tables::THREE_GRAM_ROW;

use crate::game::Player;

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

/// A round before the play-out's history begins.
const UNKNOWN: u16 = u16::MAX;
