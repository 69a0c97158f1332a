//! CodinGame's Tron Battle: a 30×20 grid and 2 to 4 riders that move one after another
//! in seat order (not at once, as in Light Riders). A rider that moves off the grid or
//! into any trail, heads included, is out, and its trail vanishes at once; the last rider
//! left wins. So there are no draws.
//!
//! The search sees it through [`Paranoid`]: the searching rider against all the others as
//! one side (Sturtevant's paranoid reduction of a multi-player game to two players), by
//! alpha-beta over [`regions`], the Voronoi partition among all riders.

use super::direction::{DirSet, Direction};
use super::grid::{splitmix64, Bitboard, Grid};
use crate::game::{Outcome, Player};
use crate::search::alphabeta::{AlphaBetaGame, Evaluate, Score};
use crate::search::Game;

/// CodinGame's grid.
pub const WIDTH: usize = 30;
pub const HEIGHT: usize = 20;
/// Riders in a game, at most.
pub const MAX_RIDERS: usize = 4;

/// A Tron Battle position: every rider's trail and head, who is in, and who moves next.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Battle {
    /// Every trail (heads included) and the padding around the board: a move is legal
    /// iff its cell is clear here.
    blocked: Bitboard,
    trails: [Bitboard; MAX_RIDERS],
    heads: [u16; MAX_RIDERS],
    riders: u8,
    /// Bit `r`: rider `r` is still in.
    alive: u8,
    to_move: u8,
}

impl Battle {
    /// The start of a game on a `width`×`height` grid, one rider on each of `starts`,
    /// rider 0 to move.
    pub fn new(width: usize, height: usize, starts: &[(usize, usize)]) -> Result<Battle, String> {
        let starts: Vec<_> = starts.iter().copied().map(Some).collect();
        Battle::with_riders_out(width, height, &starts)
    }

    /// [`Battle::new`] where the riders whose start is `None` are already out (the bot's
    /// first turn may come after some rider's crash).
    pub fn with_riders_out(
        width: usize,
        height: usize,
        starts: &[Option<(usize, usize)>],
    ) -> Result<Battle, String> {
        let grid = Grid::new(width, height).map_err(|e| e.to_string())?;
        if !(2..=MAX_RIDERS).contains(&starts.len()) {
            return Err(format!("{} riders: 2 to {MAX_RIDERS} play", starts.len()));
        }
        let mut battle = Battle {
            blocked: grid.board_mask().inverted(),
            trails: [Bitboard::empty(grid); MAX_RIDERS],
            heads: [0; MAX_RIDERS],
            riders: starts.len() as u8,
            alive: 0,
            to_move: 0,
        };
        for (rider, start) in starts.iter().enumerate() {
            let Some((x, y)) = *start else {
                continue;
            };
            battle.alive |= 1 << rider;
            if x >= width || y >= height {
                return Err(format!("rider {rider} starts off the grid at {x} {y}"));
            }
            let cell = grid.index(x, y);
            if battle.blocked.get_index(cell) {
                return Err(format!("two riders start on {x} {y}"));
            }
            battle.occupy(rider, cell);
        }
        Ok(battle)
    }

    /// The start of a game on CodinGame's 30×20 grid.
    pub fn codingame(starts: &[(usize, usize)]) -> Result<Battle, String> {
        Battle::new(WIDTH, HEIGHT, starts)
    }

    pub fn grid(&self) -> Grid {
        self.blocked.grid()
    }

    /// Riders at the start, those out included.
    pub fn riders(&self) -> usize {
        self.riders as usize
    }

    /// The rider to move (always one still in while the game goes on).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    pub fn is_alive(&self, rider: usize) -> bool {
        self.alive >> rider & 1 != 0
    }

    pub fn alive_count(&self) -> u32 {
        self.alive.count_ones()
    }

    /// The last rider left, once only one is.
    pub fn winner(&self) -> Option<usize> {
        (self.alive_count() == 1).then(|| self.alive.trailing_zeros() as usize)
    }

    /// `(x, y)` of `rider`'s head, while it is in.
    pub fn head(&self, rider: usize) -> Option<(usize, usize)> {
        self.is_alive(rider)
            .then(|| self.grid().xy(self.heads[rider] as usize))
    }

    /// `rider`'s trail, its head included (empty once it is out).
    pub fn trail(&self, rider: usize) -> &Bitboard {
        &self.trails[rider]
    }

    /// The cells no rider may enter: trails and the padding around the board.
    pub fn blocked(&self) -> &Bitboard {
        &self.blocked
    }

    /// The moves of `rider` that stay on the grid and off every trail.
    pub fn safe_moves(&self, rider: usize) -> DirSet {
        let head = self.heads[rider] as usize;
        let mut safe = DirSet::default();
        for d in Direction::ALL {
            if !self.blocked.get_index(self.step(head, d)) {
                safe.0 |= 1 << d.index();
            }
        }
        safe
    }

    /// The bit one step from `cell` in direction `d` (padding if off the board).
    fn step(&self, cell: usize, d: Direction) -> usize {
        (cell as isize + self.grid().delta(d)) as usize
    }

    fn occupy(&mut self, rider: usize, cell: usize) {
        self.blocked.set_index(cell);
        self.trails[rider].set_index(cell);
        self.heads[rider] = cell as u16;
    }

    /// The rider to move moves in direction `d`: onto a free cell, or out of the game if
    /// the cell is off the grid or on a trail. Then the next rider still in moves.
    pub fn play(&mut self, d: Direction) {
        let rider = self.to_move();
        let next = self.step(self.heads[rider] as usize, d);
        if self.blocked.get_index(next) {
            self.eliminate(rider);
        } else {
            self.occupy(rider, next);
        }
        self.pass_turn();
    }

    /// The rider to move leaves the game without moving (a referee's verdict: a late or
    /// bad answer); the next rider still in moves.
    pub fn forfeit(&mut self) {
        self.eliminate(self.to_move());
        self.pass_turn();
    }

    /// Takes `rider` out of the game; its trail vanishes. The turn stays where it is.
    pub fn eliminate(&mut self, rider: usize) {
        if self.is_alive(rider) {
            self.blocked = self.blocked.and_not(&self.trails[rider]);
            self.trails[rider] = Bitboard::empty(self.grid());
            self.alive &= !(1 << rider);
            // No trace of it is left: the same position reached otherwise is equal.
            self.heads[rider] = 0;
        }
    }

    /// Hands the turn to the next rider in seat order who is still in.
    fn pass_turn(&mut self) {
        for offset in 1..=self.riders {
            let rider = (self.to_move + offset) % self.riders;
            if self.is_alive(rider as usize) {
                self.to_move = rider;
                return;
            }
        }
    }

    /// Gives the turn to `rider` (the bot's own seat when its turn comes).
    pub fn set_to_move(&mut self, rider: usize) {
        self.to_move = rider as u8;
    }

    /// What the referee reports of `rider` at a turn: its head `Some((x, y))`, or `None`
    /// once it is out. A head one step from the last extends the trail; an error says
    /// where the report does not follow from the position (the report is taken anyway).
    pub fn observe(&mut self, rider: usize, head: Option<(usize, usize)>) -> Result<(), String> {
        let Some((x, y)) = head else {
            self.eliminate(rider);
            return Ok(());
        };
        if x >= self.grid().width() || y >= self.grid().height() {
            return Err(format!("rider {rider}'s head {x} {y} is off the grid"));
        }
        if !self.is_alive(rider) {
            return Err(format!(
                "rider {rider} is reported at {x} {y}, but it is out"
            ));
        }
        let cell = self.grid().index(x, y);
        let head = self.heads[rider] as usize;
        if cell == head {
            return Ok(());
        }
        let one_step = Direction::ALL.iter().any(|&d| self.step(head, d) == cell);
        let free = !self.blocked.get_index(cell);
        self.occupy(rider, cell);
        if one_step && free {
            Ok(())
        } else {
            Err(format!(
                "rider {rider} is reported at {x} {y}, which is not a free step from {:?}",
                self.grid().xy(head)
            ))
        }
    }
}

/// The cells each rider reaches strictly before every other (by shortest free path, all
/// riders stepping at once), by rider; cells reached by two at once belong to nobody.
pub fn regions(battle: &Battle) -> [u32; MAX_RIDERS] {
    let grid = battle.grid();
    let free = battle.blocked().inverted();
    let riders = battle.riders();
    let mut frontier = [Bitboard::empty(grid); MAX_RIDERS];
    let mut reached = Bitboard::empty(grid);
    for (rider, front) in frontier.iter_mut().enumerate().take(riders) {
        if battle.is_alive(rider) {
            *front = Bitboard::single(grid, battle.heads[rider] as usize);
            reached |= *front;
        }
    }
    let mut counts = [0; MAX_RIDERS];
    loop {
        let mut grown = [Bitboard::empty(grid); MAX_RIDERS];
        let mut once = Bitboard::empty(grid);
        let mut twice = Bitboard::empty(grid);
        for rider in 0..riders {
            if frontier[rider].is_empty() {
                continue;
            }
            grown[rider] = frontier[rider].neighbours(&free).and_not(&reached);
            twice |= once & grown[rider];
            once |= grown[rider];
        }
        if once.is_empty() {
            return counts;
        }
        for (count, grown) in counts.iter_mut().zip(&grown) {
            *count += grown.and_not(&twice).count();
        }
        frontier = grown;
        reached |= once;
    }
}

/// A Tron Battle position as the rider `me` searches it: a two-player game between `me`
/// (player 0) and every other rider (player 1, who may move several times in a row).
/// `me` wins once it is the last rider left and loses once it is out.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Paranoid {
    pub battle: Battle,
    pub me: usize,
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
        let safe = self.battle.safe_moves(self.battle.to_move());
        if safe.is_empty() {
            moves.push(Direction::Up);
        } else {
            moves.extend(safe.iter());
        }
    }

    fn play(&mut self, mv: Direction) {
        self.battle.play(mv);
    }
}

impl AlphaBetaGame for Paranoid {
    const MOVE_SLOTS: usize = 4;

    /// The trails' cells, the heads, who is in and who moves.
    fn key(&self) -> u64 {
        let b = &self.battle;
        let mut rest = b.heads.iter().fold(0u64, |k, &h| k << 10 | h as u64)
            | (b.alive as u64) << 40
            | (b.to_move as u64) << 44;
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

/// The paranoid search's evaluation: `me`'s region minus the largest other rider's (the
/// Voronoi heuristic; with two riders, exactly it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionLead;

impl Evaluate<Paranoid> for RegionLead {
    fn evaluate(&mut self, position: &Paranoid, player: Player) -> Score {
        let counts = regions(&position.battle);
        let others = (0..position.battle.riders())
            .filter(|&r| r != position.me && position.battle.is_alive(r))
            .map(|r| counts[r])
            .max()
            .unwrap_or(0);
        let score = counts[position.me] as Score - others as Score;
        if player == 0 {
            score
        } else {
            -score
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, PROVEN};
    use crate::search::Limits;

    fn four_riders() -> Battle {
        Battle::codingame(&[(2, 2), (27, 2), (27, 17), (2, 17)]).unwrap()
    }

    #[test]
    fn riders_move_in_seat_order_and_skip_those_out() {
        let mut b = four_riders();
        assert_eq!(b.to_move(), 0);
        b.play(Direction::Right);
        assert_eq!((b.head(0), b.to_move()), (Some((3, 2)), 1));
        b.eliminate(2);
        b.play(Direction::Left);
        assert_eq!(b.to_move(), 3, "rider 2 is out: 3 moves after 1");
        b.play(Direction::Up);
        assert_eq!(b.to_move(), 0);
        assert_eq!(b.alive_count(), 3);
        assert_eq!(b.trail(0).count(), 2);
    }

    #[test]
    fn a_crash_takes_the_rider_out_and_its_trail_vanishes() {
        let mut b = Battle::new(5, 1, &[(0, 0), (2, 0)]).unwrap();
        b.play(Direction::Right); // rider 0 to (1, 0)
        assert_eq!(b.safe_moves(1), DirSet(1 << Direction::Right.index()));
        b.play(Direction::Left); // rider 1 runs into rider 0's head
        assert!(!b.is_alive(1));
        assert_eq!(b.winner(), Some(0));
        assert!(!b.blocked().get(2, 0), "rider 1's trail is gone");
        assert_eq!(b.to_move(), 0);

        let mut b = Battle::new(3, 3, &[(0, 0), (2, 2), (0, 2)]).unwrap();
        b.play(Direction::Up); // off the grid
        assert!(!b.is_alive(0) && b.trail(0).is_empty() && !b.blocked().get(0, 0));
        assert_eq!(b.to_move(), 1);
    }

    #[test]
    fn a_vanished_trail_can_be_crossed_by_the_next_rider() {
        // rider 1 at (1, 0) is walled in by rider 0's trail and the edge; once it is out,
        // rider 2 may move onto its old cell
        let mut b = Battle::new(3, 2, &[(0, 0), (1, 0), (1, 1)]).unwrap();
        b.play(Direction::Down); // rider 0 to (0, 1)
        assert_eq!(b.safe_moves(1), DirSet(1 << Direction::Right.index()));
        b.play(Direction::Up); // rider 1 leaves the grid
        assert_eq!(b.to_move(), 2);
        assert!(b.safe_moves(2).contains(Direction::Up));
        b.play(Direction::Up);
        assert_eq!(b.head(2), Some((1, 0)));
    }

    #[test]
    fn observing_the_referee_rebuilds_the_trails() {
        let mut played = four_riders();
        let mut seen = four_riders();
        for d in [
            Direction::Right,
            Direction::Left,
            Direction::Up,
            Direction::Down,
        ] {
            played.play(d);
        }
        played.eliminate(2);
        for rider in 0..4 {
            seen.observe(rider, played.head(rider)).unwrap();
        }
        seen.set_to_move(played.to_move());
        assert_eq!(seen, played);
        assert!(seen.observe(0, Some((10, 10))).is_err(), "not one step");
        assert!(seen.observe(0, Some((30, 0))).is_err(), "off the grid");
    }

    #[test]
    fn regions_split_the_free_cells_by_who_reaches_them_first() {
        // a 5x1 corridor: riders at both ends, the middle cell reached by both at once
        let b = Battle::new(5, 1, &[(0, 0), (4, 0)]).unwrap();
        assert_eq!(regions(&b)[..2], [1, 1]);
        let b = Battle::new(6, 1, &[(0, 0), (5, 0)]).unwrap();
        assert_eq!(regions(&b)[..2], [2, 2]);
        // four corners of an empty 30x20 grid share it evenly by symmetry
        let counts = regions(&four_riders());
        assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
        assert!(counts[0] > 100);
    }

    fn search(position: &Paranoid, depth: u32) -> (Option<Direction>, Score) {
        let mut ab = AlphaBeta::new(
            AlphaBetaConfig {
                max_depth: Some(depth),
                ..AlphaBetaConfig::default()
            },
            RegionLead,
        );
        let result = ab.search(position, Limits::iterations(u64::MAX));
        (result.best, result.score)
    }

    #[test]
    fn the_search_proves_wins_and_losses_and_avoids_dead_ends() {
        // 0 . 1      rider 0 moves first; wherever rider 1 turns, it is walled in
        // . . .      one move later
        let won = Battle::new(3, 2, &[(0, 0), (2, 0)]).unwrap();
        let (best, score) = search(&Paranoid { battle: won, me: 0 }, 8);
        assert!(best.is_some() && score >= PROVEN, "{score}");
        // 0 . 1 .    rider 0 must step next to rider 1, which escapes to the right
        let lost = Battle::new(4, 1, &[(0, 0), (2, 0)]).unwrap();
        let (_, score) = search(
            &Paranoid {
                battle: lost,
                me: 0,
            },
            8,
        );
        assert!(score <= -PROVEN, "{score}");

        // with four riders, the searcher never steps off the grid or into a trail
        let mut b = four_riders();
        for d in [
            Direction::Up,
            Direction::Up,
            Direction::Down,
            Direction::Down,
        ] {
            b.play(d);
        }
        b.play(Direction::Up); // rider 0 to (2, 0): Up would leave the grid
        b.set_to_move(0);
        let (best, _) = search(
            &Paranoid {
                battle: b.clone(),
                me: 0,
            },
            4,
        );
        assert!(b.safe_moves(0).contains(best.unwrap()));
        assert!(!b.safe_moves(0).contains(Direction::Up));
    }
}
