//! The search core shared by both games; it knows no game.
//!
//! A game plugs in its rules through [`Game`] (alternating moves, used by UTTT and by
//! sequential UCT for Tron) or [`SimGame`] (simultaneous moves, used by the decoupled
//! Tron variants), and how leaves are valued through an [`Evaluator`] that the search
//! owns. The trees live in [`tree`] and [`simultaneous`], the bandit formulas in
//! [`bandit`]; [`think`] drives any [`Search`] to its deadlines and final-move rule;
//! [`parallel`] runs several trees at once (root parallelism).
//! [`alphabeta`] is the other search: iterative-deepening alpha-beta over a [`Game`]
//! that can also evaluate itself.

pub mod alphabeta;
pub mod bandit;
pub mod early_stop;
pub mod minimax_uct;
pub mod parallel;
pub mod root_move;
pub mod sequential;
pub mod simultaneous;
#[cfg(test)]
pub(crate) mod test_game;
pub mod tree;

pub use sequential::{SequentialEvaluator, Sequentialized};

use crate::game::{Outcome, Player};
use rand::{RngCore, SeedableRng};
use std::time::{Duration, Instant};

/// The random number generator used everywhere in search: fast, small and seedable.
/// Xoshiro256++ makes 64 bits a step, which the UTTT play-out splits between two moves.
pub type FastRng = rand_xoshiro::Xoshiro256PlusPlus;

/// The reward for `player` of a result given as player 0's reward (rewards are zero-sum
/// in `0.0..=1.0`).
#[inline(always)]
pub fn reward_for(player: Player, reward0: f32) -> f32 {
    if player == 0 {
        reward0
    } else {
        1.0 - reward0
    }
}

/// Contempt for draws, as what a draw is worth: one half, moved by the contempt of the
/// player the search plays for, who counts a draw as 0.5 − contempt (the opponent as
/// 0.5 + contempt). Fixed for that player, so that a search rooted at the opponent's turn
/// (pondering) keeps the bot's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contempt {
    draw_reward0: f32,
}

impl Contempt {
    /// No contempt: a draw is half a win to both.
    pub const NONE: Contempt = Contempt { draw_reward0: 0.5 };

    /// `plays_for` counts a draw as `0.5 − contempt`.
    pub fn new(contempt: f32, plays_for: Player) -> Self {
        Contempt {
            draw_reward0: reward_for(plays_for, 0.5 - contempt),
        }
    }

    /// Player 0's reward for a draw.
    #[inline(always)]
    pub fn draw_reward0(self) -> f32 {
        self.draw_reward0
    }
}

/// A uniformly random number in `0..n` (`n > 0`), by multiply-shift: one multiplication,
/// no division, a bias below 2^-24 for the small ranges that games use.
#[inline(always)]
pub fn random_below(rng: &mut FastRng, n: u32) -> u32 {
    scale_below(rng.next_u32(), n)
}

/// Maps 32 uniformly random bits to `0..n` (`n > 0`) by multiply-shift (see
/// [`random_below`]); for loops that split one 64-bit draw between two choices.
#[inline(always)]
pub fn scale_below(bits: u32, n: u32) -> u32 {
    debug_assert!(n > 0);
    ((bits as u64 * n as u64) >> 32) as u32
}

/// A two-player, zero-sum game with alternating moves, as the sequential tree sees it.
///
/// Only the rules: how a leaf is valued is the search's [`Evaluator`]. `Clone` copies a
/// position for each iteration, so it should be cheap (bitboards); `PartialEq` lets a
/// search find the moves between two positions to reuse its tree.
pub trait Game: Clone + PartialEq {
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// The player whose move it is.
    fn to_move(&self) -> Player;

    /// `Some` once the game is over (then there are no legal moves).
    fn outcome(&self) -> Option<Outcome>;

    /// Appends every legal move to `moves` (which the caller has cleared).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a legal move for the player to move.
    fn play(&mut self, mv: Self::Move);

    /// RAVE: the move's slot in the all-moves-as-first statistics (below 128), the same
    /// for the same move in any position. Games without RAVE keep the default.
    fn amaf_slot(_mv: Self::Move) -> u32 {
        0
    }
}

/// A two-player, zero-sum game in which both players move at once (Tron). Only the
/// rules, like [`Game`].
pub trait SimGame: Clone + PartialEq {
    type Move: Copy + PartialEq + std::fmt::Debug;
    /// One player's moves: a small value (Tron: a set of four bits), no allocation.
    type Moves: IntoIterator<Item = Self::Move, IntoIter: ExactSizeIterator>;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// `player`'s moves. Never empty while the game goes on: a player with no safe move
    /// still has its (losing) moves.
    fn legal_moves(&self, player: Player) -> Self::Moves;

    /// Plays both players' moves at once.
    fn play_joint(&mut self, mv0: Self::Move, mv1: Self::Move);
}

/// How a search values the positions where its tree ends: a play-out to the end of the
/// game, a play-out cut short by an evaluation, a static evaluation. The search owns it
/// (as the `mcts` crate splits `GameState` from `Evaluator`), so a position stays only a
/// position and per-search state such as play-out statistics has a home.
/// Leaf evaluation for the MCTS: a position's value, the ends it is certain of, and what
/// the last evaluation played (RAVE). The tree policy is [`TreePolicy`]'s.
pub trait Evaluator<G> {
    /// An outcome this evaluator is certain of in a position that the rules have not
    /// ended yet (the Predictive Expansion Strategy); the search then treats the position
    /// as finished. None by default.
    #[inline(always)]
    fn certain_outcome(&self, _state: &G) -> Option<Outcome> {
        None
    }

    /// What a search sees as the end of the game: the rules' outcome `rules` of `state`,
    /// else one this evaluator is certain of.
    #[inline(always)]
    fn outcome(&self, state: &G, rules: Option<Outcome>) -> Option<Outcome> {
        rules.or_else(|| self.certain_outcome(state))
    }

    /// Player 0's reward in `0.0..=1.0` for `state` (1 = player 0 wins, 0.5 = draw; a
    /// finished position gets its result). May play moves on `state`, the search's
    /// scratch copy.
    fn evaluate(&mut self, state: &mut G, rng: &mut FastRng) -> f32;

    /// [`Evaluator::evaluate`] for a tree node whose [`LeafNote`] is `note`, which the
    /// evaluator may read and write: what it kept of the node's position the last time
    /// ([`TreePolicy::prior_noted`] or an earlier call). Ignores the note by default.
    #[inline(always)]
    fn evaluate_noted(&mut self, state: &mut G, rng: &mut FastRng, _note: &mut LeafNote) -> f32 {
        self.evaluate(state, rng)
    }

    /// RAVE: the AMAF slots ([`Game::amaf_slot`]) of the moves each player made in the
    /// last [`Evaluator::evaluate`], as one bit set per player. None by default.
    fn played_slots(&self) -> [u128; 2] {
        [0; 2]
    }

    /// Whether [`Evaluator::evaluate`] gives a position the same value every time (no
    /// random play-out): a search may then reuse a value it has instead of evaluating
    /// the same position again. False by default.
    fn is_deterministic(&self) -> bool {
        false
    }
}

/// What an evaluator keeps in a tree node for that node's later evaluations: the
/// deterministic part of its value (a network's, beside a random play-out's), so that a
/// leaf visited again before it is expanded is not valued afresh. 0: nothing kept.
pub type LeafNote = u16;

/// The tree policy an MCTS takes from its evaluator: what it knows of moves before any
/// play-out, for building and choosing among a node's children (heuristic node
/// initialisation, selection guidance). Apart from [`Evaluator`], which values the leaves:
/// a searcher asks for both (usually of the same object, whose play-outs may teach it
/// the moves' values); an evaluator without a policy implements it empty.
pub trait TreePolicy<G> {
    /// Heuristic node initialisation: player 0's reward that a new node for `child`, one
    /// move after `parent`, starts with ([`tree::TreeConfig::prior_visits`] visits of
    /// it); `None` leaves it empty. None by default. (A deterministic evaluator's leaf
    /// values are reused from a node's mean, so such an evaluator gives no priors.)
    fn prior(&self, _parent: &G, _child: &G) -> Option<f32> {
        None
    }

    /// [`TreePolicy::prior`] and the [`LeafNote`] the new node starts with (0 by
    /// default), for an evaluator that learns something of `child` on the way.
    #[inline(always)]
    fn prior_noted(&self, parent: &G, child: &G) -> (Option<f32>, LeafNote) {
        (self.prior(parent, child), 0)
    }

    /// Selection guidance ([`Guidance`]) in an alternating-move tree: the evaluator's
    /// value in `0.0..=1.0`, for the player to move in `state`, of playing `mv` there;
    /// `None` when it knows nothing of it. None by default.
    fn move_value(&self, _state: &G, _mv: <G as Game>::Move) -> Option<f32>
    where
        G: Game,
    {
        None
    }

    /// The same for `player`'s move `mv` in a simultaneous-move `state`.
    fn sim_move_value(&self, _state: &G, _player: Player, _mv: <G as SimGame>::Move) -> Option<f32>
    where
        G: SimGame,
    {
        None
    }
}

/// How selection uses the tree policy's knowledge of moves ([`TreePolicy::move_value`]):
/// Laschet 2012's UCT-ULM and Progressive Bias (in Tron), and Omondi et al.'s lean-LGRF
/// ordering (UCT-ULM with a last-good-reply value). Only the UCB rules have it (Exp3 and Regret Matching
/// sample from a strategy with neither untried moves first nor a score to bias).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Guidance {
    /// Plain UCT: untried moves first, in the tree's own order.
    Uct,
    /// UCT-ULM: while a node has untried moves, the one with the best value (unknown
    /// counts as 0.5); plain UCT once all are tried.
    UntriedByValue,
    /// Progressive Bias: `weight · value / (losses + 1)` added to each tried move's UCB
    /// score, `losses` its mover's lost play-outs (a draw half a loss).
    ProgressiveBias { weight: f32 },
}

/// Progressive Bias's term for a move with `visits` visits of mean reward `mean` (for its
/// mover) and heuristic `value`.
#[inline]
pub fn progressive_bias(weight: f32, value: f32, visits: u32, mean: f32) -> f32 {
    let losses = visits as f32 * (1.0 - mean);
    weight * value / (losses + 1.0)
}

/// The plain play-out for any [`Game`]: uniformly random legal moves to the end.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformPlayout<M> {
    moves: Vec<M>,
}

impl<M> Default for UniformPlayout<M> {
    fn default() -> Self {
        UniformPlayout { moves: Vec::new() }
    }
}

impl<G: Game> TreePolicy<G> for UniformPlayout<G::Move> {}

impl<G: Game> Evaluator<G> for UniformPlayout<G::Move> {
    fn evaluate(&mut self, state: &mut G, rng: &mut FastRng) -> f32 {
        loop {
            if let Some(outcome) = state.outcome() {
                return outcome.reward_for(0);
            }
            self.moves.clear();
            state.legal_moves(&mut self.moves);
            let pick = random_below(rng, self.moves.len() as u32);
            state.play(self.moves[pick as usize]);
        }
    }
}

/// When a search must stop: at a deadline, after a number of iterations, or whichever
/// comes first. The clock is read every [`CLOCK_CHECK_INTERVAL`] iterations. (No
/// `Default`: a search without any limit would never stop.)
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub max_iterations: Option<u64>,
}

/// Iterations between two reads of the clock (a read costs about as much as 20 play-out moves).
pub const CLOCK_CHECK_INTERVAL: u64 = 32;

impl Limits {
    /// Stop at `deadline`.
    pub fn until(deadline: Instant) -> Self {
        Limits {
            deadline: Some(deadline),
            max_iterations: None,
        }
    }

    /// Stop `ms` milliseconds from now.
    pub fn millis(ms: u64) -> Self {
        Limits::until(Instant::now() + Duration::from_millis(ms))
    }

    /// Stop after exactly `n` iterations (reproducible searches in tests).
    pub fn iterations(n: u64) -> Self {
        Limits {
            deadline: None,
            max_iterations: Some(n),
        }
    }

    /// Whether a search that has run `iterations` iterations must stop now.
    #[inline]
    pub fn reached(&self, iterations: u64) -> bool {
        if self.max_iterations.is_some_and(|n| iterations >= n) {
            return true;
        }
        match self.deadline {
            Some(deadline) if iterations % CLOCK_CHECK_INTERVAL == 0 => Instant::now() >= deadline,
            _ => false,
        }
    }
}

/// What one search did, for the per-move log line and the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub iterations: u64,
    pub playouts: u64,
    pub elapsed: Duration,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Whether the tree was full and expansion stopped.
    pub tree_full: bool,
}

impl SearchStats {
    /// Adds the counts of a later search of the same tree (its node count is the newest).
    pub fn absorb(&mut self, later: SearchStats) {
        self.iterations += later.iterations;
        self.playouts += later.playouts;
        self.tree_full |= later.tree_full;
        self.nodes = later.nodes;
    }
}

/// How the move to play is chosen from the root's statistics once the search is over.
/// Both trees know every rule except [`FinalMove::Mix`], which only a simultaneous-move
/// search has (the sequential tree keeps no mixed strategy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FinalMove {
    /// The most visited move (the robust child; DUCT(max)), ties to the better mean.
    MostVisits,
    /// The most visited move, once it also has the best mean (the max-robust child,
    /// Liang 2017, §4.3): [`think`] searches on in short slices, up to its hard limit,
    /// until there is one, and otherwise plays the most visited move.
    MaxRobust,
    /// A move sampled from the root's mixed strategy: the normalised visit counts, or
    /// Regret Matching's average strategy (Lanctot et al. 2013, Sections 4.3–4.5).
    Mix,
    /// The "secure" move `argmax mean − a/√visits`, a lower confidence bound
    /// (Chaslot et al. 2008).
    Secure { a: f32 },
}

/// A search that can be run again on the same tree: what [`think`] drives.
pub trait Search {
    /// Runs iterations until `limits` says stop.
    fn search(&mut self, limits: Limits) -> SearchStats;

    /// Whether the final-move rule is content with what the search knows: always, except
    /// under [`FinalMove::MaxRobust`] while the most visited move is not the best valued.
    fn final_move_settled(&self) -> bool;

    /// Whether the move to play would stay the same if `remaining_iterations` more
    /// iterations ran, all of them on the runner-up
    /// ([`early_stop::think_stopping_early`]). Searches that cannot tell say no.
    fn decided_within(&self, _remaining_iterations: u64) -> bool {
        false
    }
}

/// Searches until `target`; then, while the final-move rule is not settled, on in slices
/// of a tenth of the time so far (at least 5 ms) until `hard`. Returns the statistics of
/// all slices together, with the time elapsed since `start`.
pub fn think<S: Search>(
    search: &mut S,
    start: Instant,
    target: Instant,
    hard: Instant,
) -> SearchStats {
    let stats = search.search(Limits::until(target));
    let slice = thinking_slice(start, target);
    extend_while_unsettled(search, stats, start, slice, target, hard)
}

/// How long one pondering step searches before the bot looks for input again: the most
/// an answer can wait for pondering (its budget counts from the line's arrival anyway).
pub const PONDER_SLICE: Duration = Duration::from_millis(2);

/// A tenth of the time from `start` to `target`, at least 5 ms.
fn thinking_slice(start: Instant, target: Instant) -> Duration {
    (target.saturating_duration_since(start) / 10).max(Duration::from_millis(5))
}

/// After the search to `from`: on in slices of `slice` until `hard` while the final-move
/// rule is not settled; `stats` then also holds those slices and the time since `start`.
fn extend_while_unsettled<S: Search>(
    search: &mut S,
    mut stats: SearchStats,
    start: Instant,
    slice: Duration,
    from: Instant,
    hard: Instant,
) -> SearchStats {
    let mut until = from;
    while until < hard && !search.final_move_settled() {
        until = (until + slice).min(hard);
        stats.absorb(search.search(Limits::until(until)));
    }
    stats.elapsed = start.elapsed();
    stats
}

/// Plays `plies` uniformly random moves from `start` with a fixed seed: the same
/// position on every machine and every run (the bench's mid-game positions).
pub fn seeded_position<G: Game>(start: G, plies: usize, seed: u64) -> G {
    let mut rng = FastRng::seed_from_u64(seed);
    let mut game = start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = random_below(&mut rng, moves.len() as u32) as usize;
        game.play(moves[pick]);
    }
    game
}

/// The moves that lead from `from` to `to` in at most `max_plies` plies, if any (the
/// shortest such sequence): what happened since a search, to keep its tree.
pub fn moves_between<G: Game>(from: &G, to: &G, max_plies: usize) -> Option<Vec<G::Move>> {
    fn search<G: Game>(from: &G, to: &G, plies: usize, path: &mut Vec<G::Move>) -> bool {
        if from == to {
            return true;
        }
        if plies == 0 || from.outcome().is_some() {
            return false;
        }
        let mut moves = Vec::new();
        from.legal_moves(&mut moves);
        for mv in moves {
            let mut next = from.clone();
            next.play(mv);
            path.push(mv);
            if search(&next, to, plies - 1, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    (0..=max_plies).find_map(|plies| {
        let mut path = Vec::new();
        search(from, to, plies, &mut path).then_some(path)
    })
}
