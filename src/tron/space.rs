//! Space evaluation (Kang 2012): flood fills, separation, the checkerboard
//! estimate, the wall-following lower bound, the Voronoi heuristic, articulation points
//! and the Tree of Chambers heuristic. Everything works on [`Bitboard`]s; only the
//! articulation points walk cells one by one.

use super::grid::{Bitboard, Grid, MAX_BITS};
use super::TronState;
use crate::game::{Outcome, Player};

/// The free cells reachable from bit `index` through `free` (the start cell itself
/// only if it is free).
#[inline]
pub fn reachable_from(free: &Bitboard, index: usize) -> Bitboard {
    Bitboard::single(free.grid(), index).fill(free)
}

/// The free cells `player` can still reach (its head excluded).
pub fn reachable(state: &TronState, player: Player) -> Bitboard {
    reachable_from(&state.free(), state.head_index(player))
}

/// Whether no free path joins the riders: then each plays a one-player filling game. The
/// fill from rider 0 stops as soon as it touches a free neighbour of rider 1.
pub fn separated(state: &TronState) -> bool {
    let free = state.free();
    let grid = state.grid();
    let target = Bitboard::single(grid, state.head_index(1)).neighbours(&free);
    if target.is_empty() {
        return true;
    }
    let mut region = Bitboard::single(grid, state.head_index(0)).neighbours(&free);
    let mut frontier = region;
    while !frontier.is_empty() {
        if frontier.intersects(&target) {
            return false;
        }
        frontier = frontier.neighbours(&free).and_not(&region);
        region |= frontier;
    }
    true
}

/// The connected components (4-neighbourhood) of `cells`, in order of their lowest cell.
pub fn components(cells: &Bitboard) -> Vec<Bitboard> {
    let mut rest = *cells;
    let mut out = Vec::new();
    while let Some(i) = rest.first() {
        let c = Bitboard::single(cells.grid(), i).fill(&rest);
        rest = rest.and_not(&c);
        out.push(c);
    }
    out
}

/// Den Teuling's checkerboard estimate of the space in `region` (Kang 2012, 4.1):
/// `M = Z - |c_g - c_w|` with `Z` the free squares and `c_g`, `c_w` the gray and white
/// ones. It ignores where the rider stands, so it can be one below the true maximum; use
/// [`parity_bound`] for a guaranteed upper bound.
pub fn checkerboard_estimate(region: &Bitboard) -> u32 {
    let white = (*region & region.grid().white_mask()).count();
    let gray = region.count() - white;
    region.count() - white.abs_diff(gray)
}

/// An upper bound on the moves a rider at bit `start` can make inside `region` (free
/// cells, start excluded): each move changes square colour, so with `a` cells of the
/// colour of the first step and `b` of the start's colour it is at most
/// `2 * min(a, b) + (a > b)`.
pub fn parity_bound(start: usize, region: &Bitboard) -> u32 {
    let grid = region.grid();
    let white = (*region & grid.white_mask()).count();
    let gray = region.count() - white;
    let (a, b) = if grid.colour(start) == 0 {
        (white, gray)
    } else {
        (gray, white)
    };
    2 * a.min(b) + u32::from(a > b)
}

/// Both riders' [`parity_bound`] over their reachable regions: the space each could fill
/// if nobody interferes (the measure for separated positions).
pub fn fill_estimates(state: &TronState) -> [u32; 2] {
    let free = state.free();
    [0, 1].map(|p| {
        let head = state.head_index(p);
        parity_bound(head, &reachable_from(&free, head))
    })
}

/// Den Teuling's lower bound (Kang 2012, 4.1): the moves of a greedy filler that never
/// gives up reachable space and, among the moves that keep the most, hugs walls (most
/// blocked neighbours). The opponent's head counts as a wall; its future moves are
/// ignored, so this is a bound only once the riders are separated.
pub fn wall_following_fill(state: &TronState, player: Player) -> u32 {
    let grid = state.grid();
    let mut blocked = *state.blocked();
    let mut h = state.head_index(player);
    let deltas = neighbour_deltas(grid);
    let mut moves = 0;
    loop {
        let free = blocked.inverted();
        let mut best: Option<(u32, u32, usize)> = None;
        for d in deltas {
            let c = h.wrapping_add_signed(d);
            if blocked.get_index(c) {
                continue;
            }
            let mut after = free;
            after.clear_index(c);
            let space = reachable_from(&after, c).count();
            let walls = deltas
                .iter()
                .filter(|&&e| {
                    let n = c.wrapping_add_signed(e);
                    n == h || blocked.get_index(n)
                })
                .count() as u32;
            if best.map_or(true, |(s, w, _)| (space, walls) > (s, w)) {
                best = Some((space, walls, c));
            }
        }
        match best {
            Some((_, _, c)) => {
                blocked.set_index(c);
                h = c;
                moves += 1;
            }
            None => return moves,
        }
    }
}

/// The bit offsets of the four neighbours (up, down, left, right).
#[inline]
pub(crate) fn neighbour_deltas(grid: Grid) -> [isize; 4] {
    let s = grid.stride() as isize;
    [-s, s, -1, 1]
}

/// The Voronoi partition of the free cells (Kang 2012, 4.2): the cells each rider reaches
/// strictly before the other (by shortest free path), and the battlefront reached by
/// both at the same time.
#[derive(Clone, Debug, PartialEq)]
pub struct Voronoi {
    pub owned: [Bitboard; 2],
    pub front: Bitboard,
}

impl Voronoi {
    /// The sizes of both riders' regions.
    pub fn counts(&self) -> [u32; 2] {
        [self.owned[0].count(), self.owned[1].count()]
    }

    /// Rider 0's region minus rider 1's: the Voronoi heuristic.
    pub fn surplus(&self) -> i32 {
        self.owned[0].count() as i32 - self.owned[1].count() as i32
    }
}

/// Computes the [`Voronoi`] partition with [`voronoi_regions`].
pub fn voronoi(state: &TronState) -> Voronoi {
    let grid = state.grid();
    let heads = [0, 1].map(|p| Bitboard::single(grid, state.head_index(p)));
    let (owned, front) = voronoi_regions(heads, state.free());
    Voronoi { owned, front }
}

/// The cells of `free` each rider reaches strictly before every other from its cells
/// `starts` (an empty start: a rider out), and the battlefront that two or more reach at
/// once: [`grow_voronoi`] over [`Bitboard`]s, for any number of riders.
pub fn voronoi_regions<const K: usize>(
    starts: [Bitboard; K],
    free: Bitboard,
) -> ([Bitboard; K], Bitboard) {
    let mut owned = [free.none(); K];
    let mut front = free.none();
    grow_voronoi(
        starts,
        free,
        |cells, within| cells.neighbours(within),
        |grown, twice| {
            for (owned, grown) in owned.iter_mut().zip(grown) {
                *owned |= grown.and_not(&twice);
            }
            front |= twice;
        },
    );
    (owned, front)
}

/// What [`grow_voronoi`] needs of a set of cells: [`Bitboard`], and the space
/// evaluation's fixed-size sets.
pub trait CellSet: Copy {
    /// The empty set (of the same board).
    fn none(&self) -> Self;
    fn union(self, other: Self) -> Self;
    fn intersection(self, other: Self) -> Self;
    fn difference(self, other: Self) -> Self;
    fn is_empty(&self) -> bool;
}

impl CellSet for Bitboard {
    #[inline(always)]
    fn none(&self) -> Self {
        Bitboard::empty(self.grid())
    }
    #[inline(always)]
    fn union(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn intersection(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn difference(self, other: Self) -> Self {
        Bitboard::and_not(&self, &other)
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        Bitboard::is_empty(self)
    }
}

/// The one Voronoi fill (Kang 2012, 4.2), for any number of riders: their breadth-first
/// searches in lock step over the cells `free`, one distance a step, from the cells
/// `starts` (an empty start: a rider out). `grow(set, within)` gives the cells of `within`
/// next to `set`. `step` sees each rider's newly reached cells and those reached by two or
/// more at once, step by step: a rider's region is what it reached alone, the battlefront
/// what two reached together. A cell reached once is not entered again, so the fill stops
/// at the fronts.
#[inline(always)]
pub fn grow_voronoi<S: CellSet, const K: usize>(
    starts: [S; K],
    free: S,
    grow: impl Fn(&S, &S) -> S,
    mut step: impl FnMut(&[S; K], S),
) {
    let none = free.none();
    let mut frontier = starts;
    let mut unvisited = starts
        .iter()
        .fold(free, |left, start| left.difference(*start));
    // Each frontier is grown in place: a rider's next step needs only its own frontier
    // and the cells not reached before this step.
    loop {
        let mut once = none;
        let mut twice = none;
        for front in frontier.iter_mut() {
            *front = grow(front, &unvisited);
            twice = twice.union(once.intersection(*front));
            once = once.union(*front);
        }
        if once.is_empty() {
            return;
        }
        step(&frontier, twice);
        unvisited = unvisited.difference(once);
    }
}

/// The articulation points of the graph whose vertices are `cells` and whose edges join
/// 4-adjacent cells: the cells whose removal disconnects their component. Iterative
/// Tarjan (explicit stack), so no recursion depth limit.
pub fn articulation_points(cells: &Bitboard) -> Bitboard {
    let grid = cells.grid();
    let deltas = neighbour_deltas(grid);
    let mut disc = [0u16; MAX_BITS];
    let mut low = [0u16; MAX_BITS];
    let mut next = [0u8; MAX_BITS];
    let mut stack: Vec<usize> = Vec::with_capacity(grid.cells());
    let mut aps = Bitboard::empty(grid);
    let mut time: u16 = 0;
    for root in cells.iter() {
        if disc[root] != 0 {
            continue;
        }
        time += 1;
        disc[root] = time;
        low[root] = time;
        stack.push(root);
        let mut root_children = 0;
        // parent of the vertex on top is the entry below it on the stack
        while let Some(&v) = stack.last() {
            if next[v] < 4 {
                let w = v.wrapping_add_signed(deltas[next[v] as usize]);
                next[v] += 1;
                if !cells.get_index(w) {
                    continue;
                }
                if disc[w] == 0 {
                    time += 1;
                    disc[w] = time;
                    low[w] = time;
                    stack.push(w);
                    if v == root {
                        root_children += 1;
                    }
                } else {
                    let parent = stack.len().checked_sub(2).map(|k| stack[k]);
                    if Some(w) != parent {
                        low[v] = low[v].min(disc[w]);
                    }
                }
            } else {
                stack.pop();
                if let Some(&p) = stack.last() {
                    low[p] = low[p].min(low[v]);
                    if p != root && low[v] >= disc[p] {
                        aps.set_index(p);
                    }
                }
            }
        }
        if root_children >= 2 {
            aps.set_index(root);
        }
    }
    aps
}

/// The Tree of Chambers space of both riders (Kang 2012, 4.3, after Sloane).
///
/// For a rider whose Voronoi region holds no articulation point the value is the region's
/// size. Otherwise its chamber is what it reaches inside its region without crossing an
/// articulation point; each articulation point next to the chamber opens a neighbouring
/// chamber (that point plus what lies beyond it up to the next articulation points). A
/// neighbouring chamber that reaches the battlefront (or any cell not in the rider's
/// region) is discarded; the value is the chamber plus the largest neighbouring chamber
/// left. Articulation points are those of the free cells plus both heads.
pub fn tree_of_chambers(state: &TronState) -> [u32; 2] {
    let v = voronoi(state);
    tree_of_chambers_with(state, &v)
}

fn tree_of_chambers_with(state: &TronState, v: &Voronoi) -> [u32; 2] {
    let grid = state.grid();
    let free = state.free();
    let mut graph = free;
    graph.set_index(state.head_index(0));
    graph.set_index(state.head_index(1));
    let aps = articulation_points(&graph) & free;
    let open = free.and_not(&aps);
    [0, 1].map(|p| {
        let region = v.owned[p];
        let region_aps = region & aps;
        if region_aps.is_empty() {
            return region.count();
        }
        let head = Bitboard::single(grid, state.head_index(p as Player));
        let chamber = head.fill(&region.and_not(&aps));
        let border = (chamber | head).neighbours(&region_aps);
        let mut best = 0;
        for a in border.iter() {
            let beyond = Bitboard::single(grid, a).fill(&open.and_not(&chamber));
            let mut side = beyond;
            side.set_index(a);
            if side.and_not(&region).is_empty() {
                best = best.max(side.count());
            }
        }
        chamber.count() + best
    })
}

/// Rider 0's Tree of Chambers space minus rider 1's.
pub fn tree_of_chambers_surplus(state: &TronState) -> i32 {
    let [a, b] = tree_of_chambers(state);
    a as i32 - b as i32
}

/// A static evaluation: the reward for rider 0 in `0.0..=1.0`. Finished games give their
/// result; separated riders compare [`fill_estimates`] (steep: two squares are nearly
/// decisive); otherwise the Tree of Chambers surplus, squashed so that about ten squares
/// mean a clear advantage.
pub fn evaluate(state: &TronState) -> f32 {
    if let Some(o) = state.outcome() {
        return o.reward_for(0);
    }
    if separated(state) {
        let [a, b] = fill_estimates(state);
        return 0.5 + 0.5 * ((a as f32 - b as f32) / 2.0).tanh();
    }
    let s = tree_of_chambers_surplus(state) as f32;
    0.5 + 0.5 * (s / 10.0).tanh()
}

/// The certain outcome of a separated position, if there is one: a rider whose
/// guaranteed run (the wall-following fill, a path it can surely follow) is longer than
/// anything the other can run (its parity bound) outlives it and wins; two riders whose
/// runs are known exactly and equal crash together. `None` when not separated or not
/// certain. This is the evaluator of the Predictive Expansion Strategy (Kang 2012).
pub fn predicted_outcome(state: &TronState) -> Option<Outcome> {
    if !separated(state) {
        return None;
    }
    let lower = [0, 1].map(|p| wall_following_fill(state, p));
    let upper = fill_estimates(state);
    if lower[0] > upper[1] {
        Some(Outcome::Win(0))
    } else if lower[1] > upper[0] {
        Some(Outcome::Win(1))
    } else if lower == upper && lower[0] == lower[1] {
        Some(Outcome::Draw)
    } else {
        None
    }
}
