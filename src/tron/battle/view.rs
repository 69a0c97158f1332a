//! The search's view of a Tron Battle: [`Paranoid`], one rider against all the others
//! as one player (the paranoid reduction of the game to two players), as the
//! [`Game`] and [`AlphaBetaGame`] that alpha-beta searches; and [`Found`], what such a
//! search reports.

use super::rules::Battle;
use crate::game::{Outcome, Player};
use crate::search::alphabeta::{AlphaBetaGame, Score};
use crate::search::{Game, SearchStats};
use crate::tron::direction::Direction;
use crate::tron::grid::splitmix64;

/// A Tron Battle position as the rider `me` searches it: a two-player game between `me`
/// (player 0) and every other rider (player 1, who may move several times in a row).
/// `me` wins once it is the last rider left and loses once it is out.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Paranoid {
    pub battle: Battle,
    pub me: usize,
    /// Riders left out of the search (bit `r`: rider `r`): their turns are skipped, their
    /// trails stay as walls, their regions are not counted.
    pub frozen: u8,
}

impl Paranoid {
    /// `me` against every other rider.
    pub fn all(battle: Battle, me: usize) -> Paranoid {
        Paranoid {
            battle,
            me,
            frozen: 0,
        }
    }

    /// `me` against the riders it can still meet ([`Battle::rivals_in_reach`]); the
    /// others are frozen.
    pub fn nearby(battle: Battle, me: usize) -> Paranoid {
        let rivals = battle.rivals_in_reach(me);
        Paranoid::against(battle, me, rivals)
    }

    /// `me` against the riders of the mask `rivals`; the others are frozen.
    fn against(battle: Battle, me: usize, rivals: u8) -> Paranoid {
        let frozen = battle.alive & !(1 << me) & !rivals;
        let mut position = Paranoid { battle, me, frozen };
        position.battle.skip_riders(frozen);
        position
    }

    /// The rivals the search plays: every other rider still in and not frozen.
    pub fn rivals(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.battle.riders()).filter(move |&r| r != self.me && self.is_searched(r))
    }

    /// Whether the search plays `rider`: still in, and us or a rival not frozen.
    pub(super) fn is_searched(&self, rider: usize) -> bool {
        self.battle.is_alive(rider) && (rider == self.me || self.frozen >> rider & 1 == 0)
    }

    /// The riders the search moves: `me` and its rivals.
    pub fn searched(&self) -> u32 {
        self.battle.alive_count() - self.frozen.count_ones()
    }
}

impl Game for Paranoid {
    type Move = Direction;

    fn to_move(&self) -> Player {
        Player::from(self.battle.to_move() != self.me)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.battle.is_alive(self.me) {
            Some(Outcome::Win(1))
        } else if self.battle.alive_count() == 1 {
            Some(Outcome::Win(0))
        } else {
            None
        }
    }

    /// The safe moves; a rider without one gets `Up`, which takes it out.
    fn legal_moves(&self, moves: &mut Vec<Direction>) {
        let rider = self.battle.to_move();
        let safe = self.battle.safe_moves(rider);
        if safe.is_empty() {
            moves.push(Direction::Up);
        } else {
            moves.extend(safe.iter());
        }
    }

    fn play(&mut self, mv: Direction) {
        self.battle.play(mv);
        self.battle.skip_riders(self.frozen);
    }
}

impl AlphaBetaGame for Paranoid {
    const MOVE_SLOTS: usize = 4;

    /// The trails' cells, the heads, who is in, who moves and who is left out.
    fn key(&self) -> u64 {
        let b = &self.battle;
        let mut rest = b.heads.iter().fold(0u64, |k, &h| k << 10 | h as u64)
            | (b.alive as u64) << 40
            | (b.to_move as u64) << 44
            | (self.frozen as u64) << 48;
        b.blocked.zobrist_key() ^ splitmix64(&mut rest)
    }

    /// Whole rounds only: `me` to move, every other rider having answered its last move.
    fn is_quiet(&self) -> bool {
        self.battle.to_move() == self.me
    }

    fn settled(&self, _player: Player) -> Option<Score> {
        None
    }

    fn move_slot(&self, mv: Direction) -> usize {
        mv.index()
    }
}

/// What a Tron Battle search found for the rider to move at the root: its move (`None`
/// if no search finished), its value for that rider, the depth in plies of the search it
/// comes from, and the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: Option<Direction>,
    pub score: Score,
    pub depth: u32,
    pub stats: SearchStats,
}
