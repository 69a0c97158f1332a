//! Light Riders (Tron) rules on bitboards and the space evaluation.
//!
//! - [`grid`]: board geometry and the [`Bitboard`] cell set.
//! - this module: [`Direction`], [`TronState`] (the riddles.io rules, engine field I/O,
//!   random play-outs with optional cut-offs) and its [`SimGame`] implementation.
//! - [`space`]: flood fills, separation, checkerboard bounds, Voronoi, articulation points,
//!   Tree of Chambers, [`space::evaluate`].
//! - [`endgame`]: longest-path space filling once the riders are separated.

pub mod alphabeta;
pub mod endgame;
pub mod evaluate;
pub mod grid;
pub mod space;

pub use grid::{Bitboard, Grid};

use crate::protocol::{Token, TronAnswer};
use crate::search::{random_below, FastRng, Outcome, Player, SimGame};

/// A rider's move. The engine keeps the current direction when a bot reverses, so the
/// search only ever considers these four; reversing runs into the rider's own trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The position in [`Direction::ALL`] (and the bit in a [`DirSet`]).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `None` for `pass`, which is not a move (the engine then keeps the old direction).
    pub fn from_answer(answer: TronAnswer) -> Option<Direction> {
        match answer {
            TronAnswer::Up => Some(Direction::Up),
            TronAnswer::Down => Some(Direction::Down),
            TronAnswer::Left => Some(Direction::Left),
            TronAnswer::Right => Some(Direction::Right),
            TronAnswer::Pass => None,
        }
    }

    pub fn to_answer(self) -> TronAnswer {
        match self {
            Direction::Up => TronAnswer::Up,
            Direction::Down => TronAnswer::Down,
            Direction::Left => TronAnswer::Left,
            Direction::Right => TronAnswer::Right,
        }
    }

    /// The (dx, dy) of one step (y grows downwards, as in the engine field).
    pub fn offset(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }
}

/// The answer word for a direction (shorthand for [`Direction::to_answer`]).
pub fn as_answer(d: Direction) -> TronAnswer {
    d.to_answer()
}

/// A set of directions as a 4-bit mask (bit = [`Direction::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DirSet(pub u8);

/// `NTH_BIT[mask][k]`: the index of the `k`-th set bit of a 4-bit mask (for picking a
/// random safe move with one random number and no loop).
const NTH_BIT: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut b = 0;
        while b < 4 {
            if m & (1 << b) != 0 {
                t[m][k] = b as u8;
                k += 1;
            }
            b += 1;
        }
        m += 1;
    }
    t
};

impl DirSet {
    #[inline]
    pub fn contains(self, d: Direction) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `k`-th direction in the set (`k < len()`).
    #[inline]
    pub fn nth(self, k: u32) -> Direction {
        Direction::ALL[NTH_BIT[self.0 as usize][k as usize] as usize]
    }

    pub fn iter(self) -> impl Iterator<Item = Direction> {
        Direction::ALL
            .into_iter()
            .filter(move |&d| self.contains(d))
    }
}

/// Which evaluation a play-out cut-off uses while the riders still share space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heuristic {
    Voronoi,
    TreeOfChambers,
}

/// Kang's (seed 002) play-out evaluation cut-off: the play-out is first stopped after
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

/// How [`TronState::playout`] plays: a small `Copy` config kept in the state so the
/// generic search can call `playout(rng)` without knowing about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayoutPolicy {
    /// `false`: uniformly random among the four directions (crashes included);
    /// `true`: uniformly random among the safe moves while there is one.
    pub avoid_crash: bool,
    /// Every this many play-out moves (0 = never), stop if the riders are separated and
    /// decide by reachable (parity-bounded) space: more wins, equal draws (Den Teuling's
    /// play-out cut-off; 5 in seeds 002/003).
    pub separation_check_every: u16,
    /// Evaluation cut-off while the riders are not separated (seed 002).
    pub eval: Option<EvalCutoff>,
    /// Predictive Expansion Strategy (seed 002, after Den Teuling): the search sees a
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
            predictive_expansion: false,
        }
    }

    /// Random safe moves, no cut-offs.
    pub const fn avoid_crash() -> Self {
        PlayoutPolicy {
            avoid_crash: true,
            separation_check_every: 0,
            eval: None,
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

    /// Switches the Predictive Expansion Strategy on or off.
    pub const fn with_predictive_expansion(mut self, on: bool) -> Self {
        self.predictive_expansion = on;
        self
    }
}

/// A Light Riders position: walls, both heads, who is alive, and the play-out policy.
///
/// `walls` is the set of cells a rider may not enter: engine walls, every old head cell,
/// both current head cells (they become walls as soon as the riders move) and every
/// padding bit around the board, so a move is legal iff one bit is clear.
#[derive(Clone, PartialEq, Debug)]
pub struct TronState {
    walls: Bitboard,
    heads: [u16; 2],
    alive: [bool; 2],
    policy: PlayoutPolicy,
}

impl TronState {
    /// A position with the given walls (board cells) and heads `[(x, y); 2]`, both alive.
    pub fn new(
        width: usize,
        height: usize,
        walls: impl IntoIterator<Item = (usize, usize)>,
        heads: [(usize, usize); 2],
    ) -> Result<TronState, String> {
        let grid = Grid::new(width, height)?;
        let mut board_walls = Bitboard::empty(grid);
        for (x, y) in walls {
            if x >= width || y >= height {
                return Err(format!("wall ({x}, {y}) is off the board"));
            }
            board_walls.set(x, y, true);
        }
        for &(x, y) in &heads {
            if x >= width || y >= height {
                return Err(format!("head ({x}, {y}) is off the board"));
            }
        }
        if heads[0] == heads[1] {
            return Err("both riders on one cell".into());
        }
        let h = heads.map(|(x, y)| grid.index(x, y) as u16);
        Ok(Self::from_parts(board_walls, h, [true, true]))
    }

    /// Builds the blocked set from board walls (padding bits and heads added here).
    fn from_parts(board_walls: Bitboard, heads: [u16; 2], alive: [bool; 2]) -> TronState {
        let grid = board_walls.grid();
        let mut walls = board_walls | grid.board_mask().inverted();
        walls.set_index(heads[0] as usize);
        walls.set_index(heads[1] as usize);
        TronState {
            walls,
            heads,
            alive,
            policy: PlayoutPolicy::default(),
        }
    }

    /// The standard empty Light Riders start: 16x16, riders at (3, 7) and (12, 7).
    pub fn light_riders_start() -> TronState {
        TronState::new(16, 16, [], [(3, 7), (12, 7)]).expect("valid start")
    }

    /// Parses an engine `field` (row-major `.`, `x`, `0`, `1`). Never panics.
    pub fn from_engine(width: usize, height: usize, field: &[Token]) -> Result<TronState, String> {
        let grid = Grid::new(width, height)?;
        if field.len() != width * height {
            return Err(format!(
                "field has {} cells, expected {}x{}",
                field.len(),
                width,
                height
            ));
        }
        let mut walls = Bitboard::empty(grid);
        let mut heads: [Option<u16>; 2] = [None, None];
        for (i, t) in field.iter().enumerate() {
            let (x, y) = (i % width, i / width);
            match t {
                Token::Dot => {}
                Token::Wall => walls.set(x, y, true),
                Token::Number(p @ (0 | 1)) => {
                    let slot = &mut heads[*p as usize];
                    if slot.is_some() {
                        return Err(format!("rider {p} appears twice"));
                    }
                    *slot = Some(grid.index(x, y) as u16);
                }
                other => return Err(format!("unexpected field token {other:?}")),
            }
        }
        match heads {
            [Some(a), Some(b)] => Ok(Self::from_parts(walls, [a, b], [true, true])),
            _ => Err("a rider is missing from the field".into()),
        }
    }

    /// Parses a diagram such as `"#..#\n.0.#\n..1."`: `#` or `x` wall, `.` empty, `0`/`1`
    /// the heads. For tests and examples.
    pub fn from_diagram(diagram: &str) -> Result<TronState, String> {
        let rows: Vec<&str> = diagram
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut field = Vec::new();
        for row in &rows {
            if row.chars().count() != width {
                return Err(format!("ragged diagram row {row:?}"));
            }
            for c in row.chars() {
                field.push(match c {
                    '.' => Token::Dot,
                    '#' | 'x' => Token::Wall,
                    '0' => Token::Number(0),
                    '1' => Token::Number(1),
                    _ => return Err(format!("unknown diagram cell {c:?}")),
                });
            }
        }
        TronState::from_engine(width, rows.len(), &field)
    }

    /// The engine field for this position (dead riders stay shown at their last cell).
    pub fn engine_field(&self) -> Vec<Token> {
        let g = self.grid();
        let mut out = Vec::with_capacity(g.cells());
        for y in 0..g.height() {
            for x in 0..g.width() {
                let i = g.index(x, y);
                out.push(if i == self.heads[0] as usize {
                    Token::Number(0)
                } else if i == self.heads[1] as usize {
                    Token::Number(1)
                } else if self.walls.get_index(i) {
                    Token::Wall
                } else {
                    Token::Dot
                });
            }
        }
        out
    }

    /// A text picture for `arena --watch`: `.` empty, `#` wall, `0`/`1` live heads,
    /// `X` a crashed rider's last cell.
    pub fn render(&self) -> String {
        let g = self.grid();
        let mut s = String::with_capacity((g.width() + 1) * g.height());
        for y in 0..g.height() {
            for x in 0..g.width() {
                let i = g.index(x, y);
                s.push(match i {
                    _ if i == self.heads[0] as usize => {
                        if self.alive[0] {
                            '0'
                        } else {
                            'X'
                        }
                    }
                    _ if i == self.heads[1] as usize => {
                        if self.alive[1] {
                            '1'
                        } else {
                            'X'
                        }
                    }
                    _ if self.walls.get_index(i) => '#',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    #[inline]
    pub fn grid(&self) -> Grid {
        self.walls.grid()
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
        &self.walls
    }

    /// The empty board cells (heads excluded).
    #[inline]
    pub fn free(&self) -> Bitboard {
        self.walls.inverted()
    }

    /// Whether board cell `(x, y)` is a wall or a head.
    pub fn is_blocked(&self, x: usize, y: usize) -> bool {
        self.walls.get(x, y)
    }

    pub fn policy(&self) -> PlayoutPolicy {
        self.policy
    }

    pub fn set_policy(&mut self, policy: PlayoutPolicy) {
        self.policy = policy;
    }

    /// This position with another play-out policy.
    pub fn with_policy(mut self, policy: PlayoutPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The moves of `player` that do not run into a wall, a head or off the board. (Both
    /// riders stepping onto the same free cell is not excluded: that is the opponent's
    /// choice too.)
    #[inline]
    pub fn safe_moves(&self, player: Player) -> DirSet {
        let h = self.heads[player as usize] as usize;
        let s = self.grid().stride();
        let w = &self.walls;
        let free = |i: usize| (!w.get_index(i)) as u8;
        DirSet(free(h - s) | free(h + s) << 1 | free(h - 1) << 2 | free(h + 1) << 3)
    }

    /// Plays one round: both riders move at once, their old head cells become walls; a
    /// rider entering a wall, a head cell or the padding crashes, and two riders entering
    /// the same cell both crash. A crashed rider stays on its last cell.
    #[inline]
    pub fn step(&mut self, d0: Direction, d1: Direction) {
        let g = self.grid();
        let n0 = (self.heads[0] as isize + g.delta(d0)) as usize;
        let n1 = (self.heads[1] as isize + g.delta(d1)) as usize;
        self.step_to(n0, n1);
    }

    #[inline(always)]
    fn step_to(&mut self, n0: usize, n1: usize) {
        let collide = n0 == n1;
        let ok0 = self.alive[0] && !collide && !self.walls.get_index(n0);
        let ok1 = self.alive[1] && !collide && !self.walls.get_index(n1);
        if ok0 {
            self.walls.set_index(n0);
            self.heads[0] = n0 as u16;
        }
        if ok1 {
            self.walls.set_index(n1);
            self.heads[1] = n1 as u16;
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

    /// The play-out move of `player` under `avoid_crash`.
    #[inline(always)]
    fn playout_move(
        &self,
        player: usize,
        avoid_crash: bool,
        deltas: &[isize; 4],
        rng: &mut FastRng,
    ) -> usize {
        let h = self.heads[player] as usize;
        let k = if avoid_crash {
            let safe = self.safe_moves(player as Player);
            match safe.len() {
                0 => 0,
                // a single exit (corridors, walls) needs no random number
                1 => NTH_BIT[safe.0 as usize][0] as usize,
                n => NTH_BIT[safe.0 as usize][random_below(rng, n) as usize] as usize,
            }
        } else {
            random_below(rng, 4) as usize
        };
        h.wrapping_add_signed(deltas[k])
    }

    /// The reward for player 0 of a separated position: the rider with more
    /// (parity-bounded) space wins, equal space draws.
    fn separated_reward(&self) -> f32 {
        let [a, b] = space::fill_estimates(self);
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        }
    }
}

impl SimGame for TronState {
    type Move = Direction;

    /// The rules' outcome; with the Predictive Expansion Strategy, also the certain
    /// outcome of a separated position.
    fn outcome(&self) -> Option<Outcome> {
        match TronState::outcome(self) {
            None if self.policy.predictive_expansion => space::predicted_outcome(self),
            decided => decided,
        }
    }

    /// The safe moves; a rider without one gets the single (crashing) move `Up`.
    fn legal_moves(&self, player: Player, moves: &mut Vec<Direction>) {
        let safe = self.safe_moves(player);
        if safe.is_empty() {
            moves.push(Direction::Up);
        } else {
            moves.extend(safe.iter());
        }
    }

    fn play_joint(&mut self, mv0: Direction, mv1: Direction) {
        self.step(mv0, mv1);
    }

    /// Random play-out under the state's [`PlayoutPolicy`].
    fn playout(&mut self, rng: &mut FastRng) -> f32 {
        let policy = self.policy;
        let deltas = space::neighbour_deltas(self.grid());
        let every = policy.separation_check_every as u32;
        if every == 0 && policy.eval.is_none() {
            // the plain loop, kept free of cut-off bookkeeping
            while self.alive == [true, true] {
                let n0 = self.playout_move(0, policy.avoid_crash, &deltas, rng);
                let n1 = self.playout_move(1, policy.avoid_crash, &deltas, rng);
                self.step_to(n0, n1);
            }
            return TronState::outcome(self).map_or(0.5, |o| o.reward_for(0));
        }
        let mut steps: u32 = 0;
        loop {
            if let Some(o) = TronState::outcome(self) {
                return o.reward_for(0);
            }
            let n0 = self.playout_move(0, policy.avoid_crash, &deltas, rng);
            let n1 = self.playout_move(1, policy.avoid_crash, &deltas, rng);
            self.step_to(n0, n1);
            steps += 1;
            if !(self.alive[0] && self.alive[1]) {
                continue;
            }
            let sep_due = every != 0 && steps % every == 0;
            let eval_due = policy.eval.is_some_and(|e| {
                steps >= e.cutoff_point as u32
                    && (steps - e.cutoff_point as u32) % (e.interval.max(1) as u32) == 0
            });
            if !(sep_due || eval_due) {
                continue;
            }
            if space::separated(self) {
                return self.separated_reward();
            }
            if let (true, Some(e)) = (eval_due, policy.eval) {
                let surplus = match e.heuristic {
                    Heuristic::Voronoi => space::voronoi(self).surplus(),
                    Heuristic::TreeOfChambers => space::tree_of_chambers_surplus(self),
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
