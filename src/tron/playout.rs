//! Play-outs for the Light Riders search: random (or crash-avoiding) moves for both
//! riders at once, optionally cut short by the separation check or a space evaluation
//! (Kang 2012), and the Predictive Expansion Strategy's certain outcomes. The search owns
//! a [`PlayoutPolicy`] as its [`Evaluator`]; the position stays only a position.

use super::direction::NTH_BIT;
use super::{evaluate, space, TronState};
use crate::game::{Outcome, Player};
use crate::search::alphabeta::Score;
use crate::search::{random_below, Contempt, Evaluator, FastRng, TreePolicy};

/// Which evaluation a play-out cut-off uses while the riders still share space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heuristic {
    Voronoi,
    TreeOfChambers,
}

/// Kang's (2012) play-out evaluation cut-off: the play-out is first stopped after
/// `cutoff_point` moves, then every `interval` moves (5 in the paper); a position counts
/// as won for a rider whose evaluated space exceeds the other's by at least
/// `win_threshold` squares, otherwise the play-out goes on. Separated positions are
/// decided by space instead (the paper switches to the space estimate there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvalCutoff {
    pub heuristic: Heuristic,
    pub cutoff_point: u16,
    pub win_threshold: u16,
    pub interval: u16,
}

impl EvalCutoff {
    /// The paper's tuned Voronoi setting: cut-off point 20, win-threshold 1.
    pub const VORONOI: EvalCutoff = EvalCutoff {
        heuristic: Heuristic::Voronoi,
        cutoff_point: 20,
        win_threshold: 1,
        interval: 5,
    };
    /// The paper's tuned Tree-of-Chambers setting: cut-off point 15, win-threshold 1.
    pub const TREE_OF_CHAMBERS: EvalCutoff = EvalCutoff {
        heuristic: Heuristic::TreeOfChambers,
        cutoff_point: 15,
        win_threshold: 1,
        interval: 5,
    };
}

/// The space cut-off's weights by default: the alpha-beta evaluation's score
/// ([`evaluate::CELL`] a fillable cell, [`evaluate::EDGE`] an edge).
pub const DEFAULT_SPACE_WEIGHTS: [f32; evaluate::FEATURES] =
    [evaluate::CELL as f32, evaluate::EDGE as f32, 0.0, 0.0];

/// A play-out cut after `steps` rounds and scored by the space evaluation
/// ([`evaluate::space`], the one alpha-beta searches with) on a logistic curve instead of
/// a win threshold: player 0's reward is `1 / (1 + e^(−score / scale))` with `score` the
/// weighted sum of rider 0's space leads (by default the evaluation's: fillable cells and
/// their edges). Separated riders get the steep
/// curve of their fill difference (two cells nearly decide).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpaceScore {
    pub steps: u16,
    pub scale: f32,
    /// The weight of each of [`Space::features`](evaluate::Space::features) in the score:
    /// [`DEFAULT_SPACE_WEIGHTS`] is the alpha-beta evaluation's.
    pub weights: [f32; evaluate::FEATURES],
    /// What separated riders with equal space (a draw) are worth, by the contempt for
    /// draws of the rider the search plays for.
    pub contempt: Contempt,
}

impl SpaceScore {
    /// Player 0's reward for `state`, whose riders both live.
    pub fn reward(&self, state: &TronState) -> f32 {
        let space = evaluate::space(state);
        if space.separated {
            let lead = space.fillable[0] as f32 - space.fillable[1] as f32;
            if lead == 0.0 {
                return self.contempt.draw_reward0();
            }
            0.5 + 0.5 * (lead / 2.0).tanh()
        } else {
            let features = space.features();
            let score: f32 = (0..evaluate::FEATURES)
                .map(|i| self.weights[i] * features[i])
                .sum();
            self.logistic(score)
        }
    }

    /// The reward of an evaluation score: the logistic curve of scale `scale`.
    pub fn squash(&self, score: Score) -> f32 {
        self.logistic(score as f32)
    }

    /// The logistic curve of scale `scale` at `score`.
    fn logistic(&self, score: f32) -> f32 {
        evaluate::logistic(score, self.scale)
    }
}

/// How the search values a leaf of the Light Riders tree: a play-out from it, with
/// optional cut-offs, and which separated positions count as decided. Stateless and
/// `Copy`; the search owns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// `false`: uniformly random among the four directions (crashes included);
    /// `true`: uniformly random among the safe moves while there is one.
    pub avoid_crash: bool,
    /// Every this many play-out moves (0 = never), stop if the riders are separated and
    /// decide by reachable (parity-bounded) space: more wins, equal draws (Den Teuling's
    /// play-out cut-off; 5 in Kang 2012 and Lanctot et al. 2013).
    pub separation_check_every: u16,
    /// Evaluation cut-off while the riders are not separated (Kang 2012).
    pub eval: Option<EvalCutoff>,
    /// Cut every play-out after a few rounds and score it by the space evaluation.
    pub space: Option<SpaceScore>,
    /// Predictive Expansion Strategy (Kang 2012, after Den Teuling): the search sees a
    /// separated position whose winner is certain as finished (see
    /// [`space::predicted_outcome`]), so it is neither expanded nor played out.
    pub predictive_expansion: bool,
}

impl Default for PlayoutPolicy {
    fn default() -> Self {
        PlayoutPolicy::avoid_crash()
    }
}

impl PlayoutPolicy {
    /// Uniformly random moves, no cut-offs: the plain baseline.
    pub const fn random() -> Self {
        PlayoutPolicy {
            avoid_crash: false,
            separation_check_every: 0,
            eval: None,
            space: None,
            predictive_expansion: false,
        }
    }

    /// Random safe moves, no cut-offs.
    pub const fn avoid_crash() -> Self {
        PlayoutPolicy {
            avoid_crash: true,
            separation_check_every: 0,
            eval: None,
            space: None,
            predictive_expansion: false,
        }
    }

    /// Adds the separation cut-off every `k` moves (0 switches it off).
    pub const fn with_separation_check(mut self, k: u16) -> Self {
        self.separation_check_every = k;
        self
    }

    /// Adds (or removes) an evaluation cut-off.
    pub const fn with_eval(mut self, eval: Option<EvalCutoff>) -> Self {
        self.eval = eval;
        self
    }

    /// Adds (or removes) the space-scored cut-off; it replaces the other cut-offs.
    pub const fn with_space_score(mut self, space: Option<SpaceScore>) -> Self {
        self.space = space;
        self
    }

    /// Switches the Predictive Expansion Strategy on or off.
    pub const fn with_predictive_expansion(mut self, on: bool) -> Self {
        self.predictive_expansion = on;
        self
    }
}

impl TreePolicy<TronState> for PlayoutPolicy {}

impl Evaluator<TronState> for PlayoutPolicy {
    /// With the Predictive Expansion Strategy, the certain outcome of a separated position.
    #[inline]
    fn certain_outcome(&self, state: &TronState) -> Option<Outcome> {
        if self.predictive_expansion {
            space::predicted_outcome(state)
        } else {
            None
        }
    }

    /// Only the space score without play-out rounds is: every play-out is random.
    fn is_deterministic(&self) -> bool {
        self.space.is_some_and(|score| score.steps == 0)
    }

    /// A play-out under this policy; the reward for player 0.
    fn evaluate(&mut self, state: &mut TronState, rng: &mut FastRng) -> f32 {
        let deltas = space::neighbour_deltas(state.grid());
        let policy = *self;
        self.play_out(state, rng, |state, player, rng| {
            policy.default_move(state, player, &deltas, rng)
        })
    }
}

impl PlayoutPolicy {
    /// The cell `player` moves to under this policy's own move choice (see
    /// [`playout_move`]).
    #[inline(always)]
    pub fn default_move(
        &self,
        state: &TronState,
        player: Player,
        deltas: &[isize; 4],
        rng: &mut FastRng,
    ) -> usize {
        playout_move(state, player, self.avoid_crash, deltas, rng)
    }

    /// A play-out with this policy's cut-offs whose moves `choose` picks: the cell each
    /// rider moves to, asked for player 0 and then player 1 every round. Player 0's
    /// reward.
    #[inline(always)]
    pub fn play_out(
        &self,
        state: &mut TronState,
        rng: &mut FastRng,
        mut choose: impl FnMut(&TronState, Player, &mut FastRng) -> usize,
    ) -> f32 {
        let mut round = |state: &mut TronState, rng: &mut FastRng| {
            let next0 = choose(state, 0, rng);
            let next1 = choose(state, 1, rng);
            state.step_to(next0, next1);
        };
        if let Some(score) = self.space {
            for _ in 0..score.steps {
                if state.alive != [true, true] {
                    break;
                }
                round(state, rng);
            }
            return match state.outcome() {
                Some(Outcome::Draw) => score.contempt.draw_reward0(),
                Some(won) => won.reward_for(0),
                None => score.reward(state),
            };
        }
        let every = self.separation_check_every as u32;
        if every == 0 && self.eval.is_none() {
            // the plain loop, kept free of cut-off bookkeeping
            while state.alive == [true, true] {
                round(state, rng);
            }
            return state.outcome().map_or(0.5, |o| o.reward_for(0));
        }
        let mut steps: u32 = 0;
        loop {
            if let Some(o) = state.outcome() {
                return o.reward_for(0);
            }
            round(state, rng);
            steps += 1;
            if !(state.alive[0] && state.alive[1]) {
                continue;
            }
            let sep_due = every != 0 && steps % every == 0;
            let eval_due = self.eval.is_some_and(|e| {
                steps >= e.cutoff_point as u32
                    && (steps - e.cutoff_point as u32) % (e.interval.max(1) as u32) == 0
            });
            if !(sep_due || eval_due) {
                continue;
            }
            if space::separated(state) {
                return separated_reward(state);
            }
            if let (true, Some(e)) = (eval_due, self.eval) {
                let surplus = match e.heuristic {
                    Heuristic::Voronoi => space::voronoi(state).surplus(),
                    Heuristic::TreeOfChambers => space::tree_of_chambers_surplus(state),
                };
                if surplus >= e.win_threshold as i32 {
                    return 1.0;
                }
                if -surplus >= e.win_threshold as i32 {
                    return 0.0;
                }
            }
        }
    }
}

/// The cell `player` moves to in a play-out: uniformly random among the four directions,
/// or with `avoid_crash` among the safe ones while there is one.
#[inline(always)]
fn playout_move(
    state: &TronState,
    player: Player,
    avoid_crash: bool,
    deltas: &[isize; 4],
    rng: &mut FastRng,
) -> usize {
    let head = state.head_index(player);
    let k = if avoid_crash {
        let safe = state.safe_moves(player);
        match safe.len() {
            0 => 0,
            // a single exit (corridors, walls) needs no random number
            1 => NTH_BIT[safe.0 as usize][0] as usize,
            n => NTH_BIT[safe.0 as usize][random_below(rng, n) as usize] as usize,
        }
    } else {
        random_below(rng, 4) as usize
    };
    head.wrapping_add_signed(deltas[k])
}

/// The reward for player 0 of a separated position: the rider with more
/// (parity-bounded) space wins, equal space draws.
fn separated_reward(state: &TronState) -> f32 {
    let [a, b] = space::fill_estimates(state);
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Less => 0.0,
        std::cmp::Ordering::Equal => 0.5,
    }
}
