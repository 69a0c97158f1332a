//! CodinGame's Tron Battle: a 30×20 grid and 2 to 4 riders that move one after another
//! in seat order (not at once, as in Light Riders). A rider that moves off the grid or
//! into any trail, heads included, is out, and its trail vanishes at once; the last rider
//! left wins. So there are no draws.
//!
//! The search sees it through [`Paranoid`]: the searching rider against all the others as
//! one side (Sturtevant's paranoid reduction of a multi-player game to two players), by
//! alpha-beta over [`regions`], the Voronoi partition among all riders. Riders that can no
//! longer reach the searcher's space may be left out of it ([`Battle::rivals_in_reach`]):
//! their moves change nothing the searcher can meet, and skipping them buys depth.

use super::direction::{DirSet, Direction};
use super::evaluate::{self, CELL, EDGE};
use super::grid::{splitmix64, Bitboard, Grid};
use super::space::reachable_from;
use super::TronState;
use crate::game::{Outcome, Player};
use crate::search::alphabeta::{AlphaBetaGame, Evaluate, Score};
use crate::search::{Game, SearchStats};

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

/// How many cells each rider reaches strictly before every other ([`region_cells`]), by
/// rider.
pub fn regions(battle: &Battle) -> [u32; MAX_RIDERS] {
    region_cells(battle).map(|cells| cells.count())
}

/// Each rider's Voronoi region (the cells it reaches strictly first) scored as the Light
/// Riders evaluation scores space: [`CELL`] a cell and [`EDGE`] an edge between two of its
/// cells, so that open space beats a corridor of as many cells.
pub fn region_scores(battle: &Battle) -> [Score; MAX_RIDERS] {
    region_cells(battle).map(|cells| region_score(&cells))
}

/// A region's score: [`CELL`] a cell and [`EDGE`] an edge between two of its cells.
fn region_score(cells: &Bitboard) -> Score {
    cells.count() as Score * CELL + cells.inner_edges() as Score * EDGE
}

/// The cells each rider reaches strictly before every other (by shortest free path, all
/// riders stepping at once), by rider; cells reached by two at once belong to nobody.
fn region_cells(battle: &Battle) -> [Bitboard; MAX_RIDERS] {
    let mut owned = [Bitboard::empty(battle.grid()); MAX_RIDERS];
    grow_voronoi(battle, |grown, twice| {
        for (cells, grown) in owned.iter_mut().zip(grown) {
            *cells |= grown.and_not(twice);
        }
    });
    owned
}

/// The riders' simultaneous breadth-first search over the free cells: `step` sees each
/// rider's newly reached cells and those reached by two or more at once, step by step.
#[inline(always)]
fn grow_voronoi(battle: &Battle, mut step: impl FnMut(&[Bitboard; MAX_RIDERS], &Bitboard)) {
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
    // Each frontier is grown in place: a rider's next step needs only its own frontier
    // and the cells reached before this step (no copies of the four boards per step).
    loop {
        let mut once = Bitboard::empty(grid);
        let mut twice = Bitboard::empty(grid);
        for front in frontier.iter_mut().take(riders) {
            if front.is_empty() {
                continue;
            }
            *front = front.neighbours(&free).and_not(&reached);
            twice |= once & *front;
            once |= *front;
        }
        if once.is_empty() {
            return;
        }
        step(&frontier, &twice);
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
    fn is_searched(&self, rider: usize) -> bool {
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

/// How the Tron Battle bot plays (its `--battle-*` flags).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BattleConfig {
    /// Which riders the search plays against.
    pub rivals: Rivals,
    /// The search's evaluation.
    pub eval: RegionLead,
    /// Once no rider can reach our space, play the longest path the endgame filler finds
    /// instead of searching.
    pub fill_alone: bool,
}

impl Default for BattleConfig {
    /// The strongest settings measured (docs/tron-battle.md): paranoid alpha-beta against
    /// the riders that can still reach us, the rivals we expect to outlast while two or
    /// more are searched and the Light Riders space evaluation against a lone rival, the
    /// filler once alone.
    fn default() -> Self {
        BattleConfig {
            rivals: Rivals::InReach,
            eval: RegionLead::Outlast,
            fill_alone: true,
        }
    }
}

impl BattleConfig {
    /// The settings before the free-for-all work (commit 86b6940): paranoid alpha-beta
    /// against every rider, our Voronoi region minus the largest other's, no filler.
    pub const PARANOID_ALL: BattleConfig = BattleConfig {
        rivals: Rivals::All,
        eval: RegionLead::Largest,
        fill_alone: false,
    };

    /// The search's root for rider `me` to move in `battle`.
    pub fn root(&self, battle: Battle, me: usize) -> Paranoid {
        match self.rivals {
            Rivals::All => Paranoid::all(battle, me),
            Rivals::InReach => Paranoid::nearby(battle, me),
        }
    }
}

/// The riders the Tron Battle search plays against; the others stand still in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rivals {
    /// Every other rider ([`Paranoid::all`]).
    All,
    /// Those that can still reach our space ([`Paranoid::nearby`]).
    InReach,
}

/// The paranoid search's evaluation: `me`'s Voronoi region against its rivals' (the
/// riders not frozen); with two riders, the Voronoi heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionLead {
    /// `me`'s region minus the largest rival's.
    Largest,
    /// With one rival searched, the Light Riders space evaluation of the two riders
    /// ([`evaluate::evaluate`]: articulation points, chambers, edges, separation); with
    /// more, `me`'s region minus the largest rival's, each region scored by its cells and
    /// edges ([`region_scores`]).
    Space,
    /// With more than one rival searched, the rivals we expect to outlast, which is what
    /// a place counts: every rider out counts one, every searched rival
    /// `tanh(lead / OUTLAST_LEAD)`, the lead being our region's score minus its
    /// ([`region_scores`]), so that a lead over one rival beyond about `OUTLAST_LEAD`
    /// adds little and the search does not give up space against the nearest rival to
    /// crush a small one; with one rival, [`RegionLead::Space`]. The default: a mean
    /// place of 1.98 over 300 four-rider games against three pre-issue copies, where
    /// [`RegionLead::Space`] had 2.21 over 200 of the same starts, and 2.01 against its
    /// 2.40 in the same games (docs/tron-battle.md).
    Outlast,
}

/// [`RegionLead::Outlast`]'s lead (in [`region_scores`]' units: about fifteen open
/// cells) at which a rival counts three quarters outlasted.
const OUTLAST_LEAD: f32 = 1500.0;
/// [`RegionLead::Outlast`]'s score for one rival outlasted.
const OUTLAST_RIVAL: f32 = 1000.0;

impl RegionLead {
    /// The lead of the searcher over its rivals in `position`, from `player`'s view
    /// (player 0 is the searcher).
    fn score(self, position: &Paranoid, player: Player) -> Score {
        let (battle, me) = (&position.battle, position.me);
        if matches!(self, RegionLead::Space | RegionLead::Outlast) {
            let mut rivals = position.rivals();
            if let (Some(rival), None) = (rivals.next(), rivals.next()) {
                let heads = [battle.heads[me], battle.heads[rival]];
                let duel = TronState::from_parts(*battle.blocked(), heads, [true, true]);
                return evaluate::evaluate(&duel, player);
            }
        }
        let values = match self {
            RegionLead::Largest => regions(battle).map(|n| n as Score),
            RegionLead::Space | RegionLead::Outlast => region_scores(battle),
        };
        let mine = values[me];
        let rivals = position.rivals().map(|r| values[r]);
        let score = match self {
            RegionLead::Outlast => {
                let outlasted: f32 = (0..battle.riders())
                    .filter(|&r| r != me)
                    .map(|r| match (battle.is_alive(r), position.is_searched(r)) {
                        (false, _) => 1.0,
                        (true, false) => 0.0,
                        (true, true) => ((mine - values[r]) as f32 / OUTLAST_LEAD).tanh(),
                    })
                    .sum();
                (outlasted * OUTLAST_RIVAL) as Score
            }
            RegionLead::Largest | RegionLead::Space => mine - rivals.max().unwrap_or(0),
        };
        if player == 0 {
            score
        } else {
            -score
        }
    }
}

impl Evaluate<Paranoid> for RegionLead {
    fn evaluate(&mut self, position: &Paranoid, player: Player) -> Score {
        self.score(position, player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, PROVEN};
    use crate::search::Limits;
    use crate::tron::endgame::fill_longest_from;

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

    #[test]
    fn rivals_in_reach_are_the_riders_whose_head_borders_our_space() {
        // 0 . 1 . . . 2   (one row): rider 1 stands between 0 and 2
        let b = Battle::new(7, 1, &[(0, 0), (2, 0), (6, 0)]).unwrap();
        assert_eq!(b.rivals_in_reach(0), 0b010);
        assert_eq!(b.rivals_in_reach(1), 0b101);
        assert_eq!(b.rivals_in_reach(2), 0b010);
        let mut b = b;
        b.eliminate(1);
        assert_eq!(b.rivals_in_reach(0), 0b100, "its trail vanished");
    }

    /// Two rows; rider 1's trail walls off rider 0's three cells on the left, then
    /// rider 1 walks away from the wall:
    /// ```text
    /// 0 . . 1 . .       0 . . 1 . .
    /// . . . . . .   ->  0 0 . 1 1 .
    /// ```
    fn walled_off() -> Battle {
        let mut b = Battle::new(6, 2, &[(0, 0), (3, 0)]).unwrap();
        for d in [
            Direction::Down,
            Direction::Down,
            Direction::Right,
            Direction::Right,
        ] {
            b.play(d);
        }
        b
    }

    #[test]
    fn a_walled_off_rider_is_frozen_and_the_filler_plays_its_space() {
        let b = walled_off();
        assert_eq!(b.rivals_in_reach(0), 0);
        let fill = fill_longest_from(b.blocked(), b.head_index(0), Limits::iterations(u64::MAX));
        assert_eq!((fill.length, fill.exact), (3, true));
        assert!(b.safe_moves(0).contains(fill.first.unwrap()));

        let mut position = Paranoid::nearby(b.clone(), 0);
        assert_eq!(position.frozen, 0b10);
        position.play(Direction::Up);
        assert_eq!(position.battle.to_move(), 0, "rider 1's turn is skipped");
        assert_eq!(position.battle.head(1), b.head(1));
        assert_eq!(Paranoid::all(b.clone(), 0).frozen, 0);
        // the flags' settings build those roots
        assert_eq!(BattleConfig::default().root(b.clone(), 0).frozen, 0b10);
        assert_eq!(BattleConfig::PARANOID_ALL.root(b, 0).frozen, 0);
    }

    #[test]
    fn region_leads_count_the_largest_rival_and_skip_the_frozen() {
        // 0 . . . . 1 . . . 2   regions 2, 3 and 1 (cell 7 is a tie)
        let b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
        assert_eq!(regions(&b)[..3], [2, 3, 1]);
        let all = Paranoid::all(b.clone(), 0);
        assert_eq!(RegionLead::Largest.evaluate(&all, 0), 2 - 3);
        assert_eq!(RegionLead::Largest.evaluate(&all, 1), 1, "player 1's view");
        let without_1 = Paranoid {
            frozen: 0b010,
            ..all
        };
        assert_eq!(RegionLead::Largest.evaluate(&without_1, 0), 2 - 1);

        // cells {1, 2}, {3, 4, 6}, {8}: one edge each in the first two
        assert_eq!(
            region_scores(&b)[..3],
            [2 * CELL + EDGE, 3 * CELL + EDGE, CELL]
        );
        let all = Paranoid::all(b.clone(), 0);
        assert_eq!(
            RegionLead::Space.evaluate(&all, 0),
            -CELL,
            "two rivals: regions by cells and edges"
        );

        // one rival left in the search: the Light Riders evaluation of the two riders
        // (rider 2's head and trail a wall between them)
        let duel = Paranoid {
            frozen: 0b010,
            ..all
        };
        let state = TronState::new(10, 1, [(5, 0)], [(0, 0), (9, 0)]).unwrap();
        for player in [0, 1] {
            assert_eq!(
                RegionLead::Space.evaluate(&duel, player),
                evaluate::evaluate(&state, player)
            );
        }
        assert!(
            RegionLead::Space.evaluate(&duel, 0) > 0,
            "4 cells against 3"
        );
    }

    #[test]
    fn outlast_counts_the_riders_out_and_a_bounded_lead_over_each_searched_rival() {
        // 0 . . . . 1 . . . 2   region scores as in the test above
        let b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
        let [ours, one, two, ..] = region_scores(&b);
        let term = |theirs: Score| ((ours - theirs) as f32 / OUTLAST_LEAD).tanh();
        let expected = ((term(one) + term(two)) * OUTLAST_RIVAL) as Score;
        let all = Paranoid::all(b.clone(), 0);
        assert_eq!(RegionLead::Outlast.evaluate(&all, 0), expected);
        assert_eq!(RegionLead::Outlast.evaluate(&all, 1), -expected);
        // each rival counts at most one outlasted, whatever the lead
        assert!(RegionLead::Outlast.evaluate(&all, 0) < 2 * OUTLAST_RIVAL as Score);
        // a rider out counts one outlasted, with a lone rival searched the duel's space
        let mut four = Battle::new(10, 1, &[(0, 0), (3, 0), (6, 0), (9, 0)]).unwrap();
        four.eliminate(3);
        let three_searched = Paranoid::all(four.clone(), 0);
        let [ours, one, two, ..] = region_scores(&four);
        let term = |theirs: Score| ((ours - theirs) as f32 / OUTLAST_LEAD).tanh();
        assert_eq!(
            RegionLead::Outlast.evaluate(&three_searched, 0),
            ((1.0 + term(one) + term(two)) * OUTLAST_RIVAL) as Score
        );
        let duel = Paranoid {
            frozen: 0b010,
            ..Paranoid::all(b, 0)
        };
        assert_eq!(
            RegionLead::Outlast.evaluate(&duel, 0),
            RegionLead::Space.evaluate(&duel, 0)
        );
    }

    fn search(position: &Paranoid, depth: u32) -> (Option<Direction>, Score) {
        let mut ab = AlphaBeta::new(
            AlphaBetaConfig {
                max_depth: Some(depth),
                ..AlphaBetaConfig::default()
            },
            RegionLead::Largest,
        );
        let result = ab.search(position, Limits::iterations(u64::MAX));
        (result.best, result.score)
    }

    #[test]
    fn the_search_proves_wins_and_losses_and_avoids_dead_ends() {
        // 0 . 1      rider 0 moves first; wherever rider 1 turns, it is walled in
        // . . .      one move later
        let won = Battle::new(3, 2, &[(0, 0), (2, 0)]).unwrap();
        let (best, score) = search(&Paranoid::all(won, 0), 8);
        assert!(best.is_some() && score >= PROVEN, "{score}");
        // 0 . 1 .    rider 0 must step next to rider 1, which escapes to the right
        let lost = Battle::new(4, 1, &[(0, 0), (2, 0)]).unwrap();
        let (_, score) = search(&Paranoid::all(lost, 0), 8);
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
        let (best, _) = search(&Paranoid::all(b.clone(), 0), 4);
        assert!(b.safe_moves(0).contains(best.unwrap()));
        assert!(!b.safe_moves(0).contains(Direction::Up));
    }
}
