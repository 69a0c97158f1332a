//! [`TronState`]: a Light Riders position under the riddles.io rules (both riders move at
//! once), and the search's view of it as a simultaneous-move game.

use super::position_error::{self, PositionError};
use super::{Bitboard, DirSet, Direction, Grid};
use crate::game::{Outcome, Player};
use crate::search::SimGame;

/// A Light Riders position: which cells are blocked, both heads, and who is alive.
///
/// `blocked` is the set of bits a rider may not enter: engine walls, every old head
/// cell, both current head cells (they become walls as soon as the riders move) and
/// every padding bit around the board, so a move is legal iff one bit is clear.
#[derive(Clone, PartialEq, Debug)]
pub struct TronState {
    // Read by the engine conversion and the endgame filler, the tron room's other files.
    pub(super) blocked: Bitboard,
    pub(super) heads: [u16; 2],
    pub(super) alive: [bool; 2],
}

impl TronState {
    /// A position with the given walls (board cells) and heads `[(x, y); 2]`, both alive.
    pub fn new(
        width: usize,
        height: usize,
        walls: impl IntoIterator<Item = (usize, usize)>,
        heads: [(usize, usize); 2],
    ) -> Result<TronState, position_error::PositionError> {
        let grid = Grid::new(width, height)?;
        let mut board_walls = Bitboard::empty(grid);
        for (x, y) in walls {
            if x >= width || y >= height {
                return Err(PositionError::OffBoard { x, y });
            }
            board_walls.set(x, y, true);
        }
        for &(x, y) in &heads {
            if x >= width || y >= height {
                return Err(PositionError::OffBoard { x, y });
            }
        }
        if heads[0] == heads[1] {
            return Err(PositionError::SameCell);
        }
        let h = heads.map(|(x, y)| grid.index(x, y) as u16);
        Ok(Self::from_parts(board_walls, h, [true, true]))
    }

    /// Builds the blocked set from board walls (padding bits and heads added here).
    pub(crate) fn from_parts(
        board_walls: Bitboard,
        heads: [u16; 2],
        alive: [bool; 2],
    ) -> TronState {
        let grid = board_walls.grid();
        let mut blocked = board_walls | grid.board_mask().inverted();
        blocked.set_index(heads[0] as usize);
        blocked.set_index(heads[1] as usize);
        TronState {
            blocked,
            heads,
            alive,
        }
    }

    /// The standard empty Light Riders start: 16x16, riders at (3, 7) and (12, 7).
    pub fn light_riders_start() -> TronState {
        TronState::new(16, 16, [], [(3, 7), (12, 7)]).expect("valid start")
    }

    #[inline]
    pub fn grid(&self) -> Grid {
        self.blocked.grid()
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.grid().width()
    }

    #[inline]
    pub fn height(&self) -> usize {
        self.grid().height()
    }

    /// `(x, y)` of `player`'s head (its last cell if it crashed).
    pub fn head(&self, player: Player) -> (usize, usize) {
        self.grid().xy(self.heads[player as usize] as usize)
    }

    /// Bit index of `player`'s head.
    #[inline]
    pub fn head_index(&self, player: Player) -> usize {
        self.heads[player as usize] as usize
    }

    #[inline]
    pub fn is_alive(&self, player: Player) -> bool {
        self.alive[player as usize]
    }

    /// The blocked set: board walls, old and current head cells, and padding bits.
    #[inline]
    pub fn blocked(&self) -> &Bitboard {
        &self.blocked
    }

    /// The empty board cells (heads excluded).
    #[inline]
    pub fn free(&self) -> Bitboard {
        self.blocked.inverted()
    }

    /// Whether board cell `(x, y)` is a wall or a head.
    pub fn is_blocked(&self, x: usize, y: usize) -> bool {
        self.blocked.get(x, y)
    }

    /// The moves of `player` that do not run into a wall, a head or off the board. (Both
    /// riders stepping onto the same free cell is not excluded: that is the opponent's
    /// choice too.)
    #[inline]
    pub fn safe_moves(&self, player: Player) -> DirSet {
        let h = self.heads[player as usize] as usize;
        let s = self.grid().stride();
        let w = &self.blocked;
        let free = |i: usize| (!w.get_index(i)) as u8;
        DirSet(free(h - s) | free(h + s) << 1 | free(h - 1) << 2 | free(h + 1) << 3)
    }

    /// Plays one round: both riders move at once, their old head cells become walls; a
    /// rider entering a wall, a head cell or the padding crashes, and two riders entering
    /// the same cell both crash. A crashed rider stays on its last cell.
    #[inline]
    pub fn step(&mut self, d0: Direction, d1: Direction) {
        let g = self.grid();
        let next0 = (self.heads[0] as isize + g.delta(d0)) as usize;
        let next1 = (self.heads[1] as isize + g.delta(d1)) as usize;
        self.step_to(next0, next1);
    }

    /// Moves the riders to bits `next0` and `next1` (one step from their heads); the
    /// play-outs step by bits.
    #[inline(always)]
    pub(super) fn step_to(&mut self, next0: usize, next1: usize) {
        let collide = next0 == next1;
        let ok0 = self.alive[0] && !collide && !self.blocked.get_index(next0);
        let ok1 = self.alive[1] && !collide && !self.blocked.get_index(next1);
        if ok0 {
            self.blocked.set_index(next0);
            self.heads[0] = next0 as u16;
        }
        if ok1 {
            self.blocked.set_index(next1);
            self.heads[1] = next1 as u16;
        }
        self.alive = [ok0, ok1];
    }

    /// `None` while both riders live; otherwise the survivor wins, or a draw.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.alive {
            [true, true] => None,
            [true, false] => Some(Outcome::Win(0)),
            [false, true] => Some(Outcome::Win(1)),
            [false, false] => Some(Outcome::Draw),
        }
    }
}

impl SimGame for TronState {
    type Move = Direction;
    type Moves = DirSet;

    /// The rules' outcome: how the search values positions is its evaluator's business.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        TronState::outcome(self)
    }

    /// The safe moves; a rider without one gets the single (crashing) move `Up`.
    #[inline]
    fn legal_moves(&self, player: Player) -> DirSet {
        let safe = self.safe_moves(player);
        if safe.is_empty() {
            DirSet(1 << Direction::Up.index())
        } else {
            safe
        }
    }

    fn play_joint(&mut self, mv0: Direction, mv1: Direction) {
        self.step(mv0, mv1);
    }
}
