//! Tron Battle's rules: [`Battle`], every rider's trail and head, who is in and who
//! moves next, and the moves, crashes and referee's reports that change them. The
//! search's view and evaluation read it; nothing here knows of a search.

use crate::tron::direction::{DirSet, Direction};
use crate::tron::grid::{Bitboard, BoardSizeError, Grid};
use crate::tron::space::reachable_from;
use std::fmt;

/// CodinGame's grid.
pub const WIDTH: usize = 30;
pub const HEIGHT: usize = 20;
/// Riders in a game, at most.
pub const MAX_RIDERS: usize = 4;

/// Why starts make no game, or a referee's report does not follow from the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BattleError {
    /// The grid's size is not one the bitboards hold.
    Grid(BoardSizeError),
    /// A game of this many riders.
    RiderCount(usize),
    StartOffGrid {
        rider: usize,
        x: usize,
        y: usize,
    },
    SharedStart {
        x: usize,
        y: usize,
    },
    HeadOffGrid {
        rider: usize,
        x: usize,
        y: usize,
    },
    /// A rider reported in the game after it went out.
    ReportedOut {
        rider: usize,
        x: usize,
        y: usize,
    },
    /// A head that is not one step from the last onto a free cell.
    NotAStep {
        rider: usize,
        x: usize,
        y: usize,
        from: (usize, usize),
    },
}

impl fmt::Display for BattleError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BattleError::Grid(e) => write!(f, "{e}"),
            BattleError::RiderCount(n) => write!(f, "{n} riders: 2 to {MAX_RIDERS} play"),
            BattleError::StartOffGrid { rider, x, y } => {
                write!(f, "rider {rider} starts off the grid at {x} {y}")
            }
            BattleError::SharedStart { x, y } => write!(f, "two riders start on {x} {y}"),
            BattleError::HeadOffGrid { rider, x, y } => {
                write!(f, "rider {rider}'s head {x} {y} is off the grid")
            }
            BattleError::ReportedOut { rider, x, y } => {
                write!(f, "rider {rider} is reported at {x} {y}, but it is out")
            }
            BattleError::NotAStep { rider, x, y, from } => write!(
                f,
                "rider {rider} is reported at {x} {y}, which is not a free step from {from:?}"
            ),
        }
    }
}

impl std::error::Error for BattleError {}

/// A Tron Battle position: every rider's trail and head, who is in, and who moves next.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Battle {
    /// Every trail (heads included) and the padding around the board: a move is legal
    /// iff its cell is clear here.
    pub(super) blocked: Bitboard,
    trails: [Bitboard; MAX_RIDERS],
    pub(super) heads: [u16; MAX_RIDERS],
    riders: u8,
    /// Bit `r`: rider `r` is still in.
    pub(super) alive: u8,
    pub(super) to_move: u8,
}

impl Battle {
    /// The start of a game on a `width`×`height` grid, one rider on each of `starts`,
    /// rider 0 to move.
    pub fn new(
        width: usize,
        height: usize,
        starts: &[(usize, usize)],
    ) -> Result<Battle, BattleError> {
        let starts: Vec<_> = starts.iter().copied().map(Some).collect();
        Battle::with_riders_out(width, height, &starts)
    }

    /// [`Battle::new`] where the riders whose start is `None` are already out (the bot's
    /// first turn may come after some rider's crash).
    pub fn with_riders_out(
        width: usize,
        height: usize,
        starts: &[Option<(usize, usize)>],
    ) -> Result<Battle, BattleError> {
        let grid = Grid::new(width, height).map_err(BattleError::Grid)?;
        if !(2..=MAX_RIDERS).contains(&starts.len()) {
            return Err(BattleError::RiderCount(starts.len()));
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
                return Err(BattleError::StartOffGrid { rider, x, y });
            }
            let cell = grid.index(x, y);
            if battle.blocked.get_index(cell) {
                return Err(BattleError::SharedStart { x, y });
            }
            battle.occupy(rider, cell);
        }
        Ok(battle)
    }

    /// The start of a game on CodinGame's 30×20 grid.
    pub fn codingame(starts: &[(usize, usize)]) -> Result<Battle, BattleError> {
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

    /// The bit of `rider`'s head.
    pub fn head_index(&self, rider: usize) -> usize {
        self.heads[rider] as usize
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

    /// Passes the turn on while it is with a rider of the mask `skipped` (bit `r`: rider
    /// `r`), as if those riders stood still; nothing happens if no other rider is in.
    pub fn skip_riders(&mut self, skipped: u8) {
        if self.alive & !skipped == 0 {
            return;
        }
        while skipped >> self.to_move & 1 != 0 {
            self.pass_turn();
        }
    }

    /// The free cells `rider` can reach from its head (the head excluded).
    pub fn reachable(&self, rider: usize) -> Bitboard {
        reachable_from(&self.blocked.inverted(), self.heads[rider] as usize)
    }

    /// The other riders still in that `rider` can meet: those whose head borders its
    /// head or the free cells it can reach (bit `r`: rider `r`).
    pub fn rivals_in_reach(&self, rider: usize) -> u8 {
        let grid = self.grid();
        let mut area = self.reachable(rider);
        area.set_index(self.heads[rider] as usize);
        let touched = area | area.neighbours(&grid.board_mask());
        (0..self.riders())
            .filter(|&r| r != rider && self.is_alive(r))
            .filter(|&r| touched.get_index(self.heads[r] as usize))
            .fold(0, |mask, r| mask | 1 << r)
    }

    /// What the referee reports of `rider` at a turn: its head `Some((x, y))`, or `None`
    /// once it is out. A head one step from the last extends the trail; an error says
    /// where the report does not follow from the position (the report is taken anyway).
    pub fn observe(
        &mut self,
        rider: usize,
        head: Option<(usize, usize)>,
    ) -> Result<(), BattleError> {
        let Some((x, y)) = head else {
            self.eliminate(rider);
            return Ok(());
        };
        if x >= self.grid().width() || y >= self.grid().height() {
            return Err(BattleError::HeadOffGrid { rider, x, y });
        }
        if !self.is_alive(rider) {
            return Err(BattleError::ReportedOut { rider, x, y });
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
            Err(BattleError::NotAStep {
                rider,
                x,
                y,
                from: self.grid().xy(head),
            })
        }
    }
}
