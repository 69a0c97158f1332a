//! [`TronPlayout`], the Light Riders search's play-out evaluator: play-outs whose moves a
//! [`Learning`] policy chooses from the tables, which every play-out then updates, and
//! the move values the tree's selection reads from them.

use super::tables::{ngram_reward, Tables, NO_REPLY};
use super::{Extraction, Kept, Learning, MoveKnowledge, UNKNOWN};
use crate::game::Player;
use crate::search::{random_below, Evaluator, FastRng, TreePolicy};
use crate::tron::direction::NTH_BIT;
use crate::tron::playout::PlayoutPolicy;
use crate::tron::space;
use crate::tron::{Direction, TronState};

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
    pub(super) tables: Option<Box<Tables>>,
    /// The current play-out's rounds: both riders' cells, the start's heads first.
    pub(super) rounds: Vec<[u16; 2]>,
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
    pub(super) fn kept(&self) -> Option<Kept> {
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
    pub(super) fn learn(&mut self, kept: Kept, reward0: f32) {
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
