//! The generic Monte-Carlo Tree Search core shared by both games.
//!
//! A game plugs in through [`Game`] (alternating moves, used by UTTT and by sequential
//! UCT for Tron) or [`SimGame`] (simultaneous moves, used by the decoupled Tron variants).
//! The trees live in [`tree`] and [`simultaneous`]; neither knows which game it searches.

pub mod alphabeta;
pub mod sequential;
pub mod simultaneous;
pub mod tree;

pub use sequential::Sequentialized;

use rand::RngCore;

/// The random number generator used everywhere in search: fast, small and seedable.
/// Xoshiro256++ makes 64 bits a step, which the UTTT play-out splits between two moves.
pub type FastRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A player index: 0 or 1 (the first and the second player of the engine).
pub type Player = u8;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The reward of this outcome for `player`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[inline]
    pub fn reward_for(self, player: Player) -> f32 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

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
/// `Clone` copies a position for each iteration, so it should be cheap (bitboards);
/// `PartialEq` lets the bot find the moves between two positions to reuse its tree.
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

    /// Plays the game out from here with the game's play-out policy and returns the
    /// reward for player 0 in `0.0..=1.0` (1 = player 0 wins, 0.5 = draw). A play-out may
    /// stop early and return an evaluation instead of a final result.
    fn playout(&mut self, rng: &mut FastRng) -> f32;
}

/// A two-player, zero-sum game in which both players move at once (Tron).
pub trait SimGame: Clone + PartialEq {
    type Move: Copy + PartialEq + std::fmt::Debug;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends `player`'s moves to `moves` (cleared by the caller). Never empty while the
    /// game goes on: a player with no safe move still has its (losing) moves.
    fn legal_moves(&self, player: Player, moves: &mut Vec<Self::Move>);

    /// Plays both players' moves at once.
    fn play_joint(&mut self, mv0: Self::Move, mv1: Self::Move);

    /// Plays the game out and returns the reward for player 0 in `0.0..=1.0`.
    fn playout(&mut self, rng: &mut FastRng) -> f32;
}

/// When a search must stop: at a deadline, after a number of iterations, or whichever
/// comes first. The clock is read every [`CLOCK_CHECK_INTERVAL`] iterations. (No
/// `Default`: a search without any limit would never stop.)
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub deadline: Option<std::time::Instant>,
    pub max_iterations: Option<u64>,
}

/// Iterations between two reads of the clock (a read costs about as much as 20 play-out moves).
pub const CLOCK_CHECK_INTERVAL: u64 = 32;

impl Limits {
    /// Stop `ms` milliseconds from now.
    pub fn millis(ms: u64) -> Self {
        Limits {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(ms)),
            max_iterations: None,
        }
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
            Some(deadline) if iterations % CLOCK_CHECK_INTERVAL == 0 => {
                std::time::Instant::now() >= deadline
            }
            _ => false,
        }
    }
}

/// What one search did, for the per-move log line and the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub iterations: u64,
    pub playouts: u64,
    pub elapsed: std::time::Duration,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Whether the tree was full and expansion stopped.
    pub tree_full: bool,
}

/// The moves that lead from `from` to `to` in at most `max_plies` plies, if any (the
/// shortest such sequence). The bot uses it to find what happened since its last search
/// and keep the matching part of its tree.
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
