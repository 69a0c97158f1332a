//! Iterative-deepening alpha-beta (negamax) over any alternating-move [`Game`].
//!
//! What a game adds for this search is [`AlphaBetaGame`]: a position key for the
//! transposition table, which positions may be evaluated at all ("quiet" ones: a
//! simultaneous-move game seen as alternating plies is only evaluated between full
//! rounds), the positions its rules settle early, and a slot per move for the history
//! table. The static evaluation lies beside the positions, as the MCTS's evaluator does:
//! an [`Evaluate`] the search owns (a position never carries its evaluation's weights).
//! The search is the
//! textbook one: a fixed-size transposition table, the table's move first, then killer
//! moves, then history order, an optional principal-variation search (null windows after
//! the first move), the clock read every few nodes, and scores that say how far a proven
//! result lies so that wins are taken at once and lost positions survive longest.

use std::time::{Duration, Instant};

use super::{Game, Limits};
use crate::game::{Outcome, Player};

/// A score from the view of the player to move. Static evaluations stay inside
/// `-PROVEN < s < PROVEN`; a game won in `k` plies scores `WIN - k`, lost `-(WIN - k)`.
pub type Score = i32;

/// The score of a won position at the root (a win `k` plies away scores `WIN - k`).
pub const WIN: Score = 1_000_000;
/// Deepest ply the search descends to (and the bound on `k` in `WIN - k`).
pub const MAX_PLY: usize = 512;
/// Scores at or beyond this size are proven game results, not estimates.
pub const PROVEN: Score = WIN - MAX_PLY as Score;
/// Above every score (the initial window).
const INFINITY: Score = WIN + 1;

/// What alpha-beta needs from a game beyond the rules.
pub trait AlphaBetaGame: Game {
    /// Plies from one quiet position to the next (Tron seen as alternating plies: 2).
    /// Iterative deepening steps by this much.
    const PLIES_PER_ROUND: u32 = 1;
    /// Number of distinct [`AlphaBetaGame::move_slot`] values.
    const MOVE_SLOTS: usize;

    /// A hash of everything the rest of the game depends on (the transposition table's key).
    fn key(&self) -> u64;

    /// Whether the position may be evaluated (and a search may stop here).
    fn is_quiet(&self) -> bool;

    /// The value of a quiet position that no deeper search can change (the game decided
    /// by a simpler rule), from `player`'s view; `None` if it needs searching. A fact of
    /// the rules, not an estimate: it stays with the position.
    fn settled(&self, player: Player) -> Option<Score>;

    /// Which history-table slot `mv` uses (below [`AlphaBetaGame::MOVE_SLOTS`]).
    fn move_slot(&self, mv: Self::Move) -> usize;
}

/// The static evaluation alpha-beta applies at its depth limit, kept beside the
/// positions (the search owns it): what [`super::Evaluator`] is to the MCTS.
pub trait Evaluate<G> {
    /// The value of a quiet, unsettled position from `player`'s view, in
    /// `-PROVEN < score < PROVEN`.
    fn evaluate(&mut self, position: &G, player: Player) -> Score;
}

/// Switches of the search (everything on by default; off only to measure them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Transposition table entries (rounded up to a power of two; 0 = no table).
    pub table_entries: usize,
    /// Killer and history move ordering.
    pub ordering: bool,
    /// Principal-variation search: null windows for every move after the first.
    pub pvs: bool,
    /// Deepest iteration in plies (`None`: until the limits or a proven result).
    pub max_depth: Option<u32>,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            table_entries: 1 << 20,
            ordering: true,
            pvs: true,
            max_depth: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// Its score from the root player's view.
    pub score: Score,
    /// Depth in plies of the deepest iteration that gave the result (the last completed
    /// one, or a cut-off one whose first move finished).
    pub depth: u32,
    /// Nodes visited, every iteration together.
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line from the root (from the transposition table).
    pub line: Vec<M>,
}

impl<M> SearchResult<M> {
    /// The statistics a caller of [`super::Search`] sees: nodes count as iterations.
    pub fn stats(&self) -> super::SearchStats {
        super::SearchStats {
            iterations: self.nodes,
            playouts: 0,
            elapsed: self.elapsed,
            nodes: self.nodes as usize,
            tree_full: false,
        }
    }

    /// Whether the score is a proven game result rather than an estimate.
    pub fn is_proven(&self) -> bool {
        self.score.abs() >= PROVEN
    }
}

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (every move failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    score: Score,
    depth: u16,
    bound: Bound,
    /// The search that wrote it, so that old entries make room for new ones.
    generation: u8,
    /// Whether no evaluation at the depth limit went into the score: then it holds at
    /// any depth.
    complete: bool,
    best: Option<M>,
}

/// A fixed number of entries, one per slot (key modulo size). A new entry replaces an
/// old one from an earlier search, one for the same position, or one searched no deeper.
struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    fn new(entries: usize) -> Self {
        let size = if entries == 0 {
            0
        } else {
            entries.next_power_of_two()
        };
        TranspositionTable {
            entries: vec![None; size],
            mask: size.wrapping_sub(1),
            generation: 0,
        }
    }

    fn probe(&self, key: u64) -> Option<&Entry<M>> {
        if self.entries.is_empty() {
            return None;
        }
        self.entries[key as usize & self.mask]
            .as_ref()
            .filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry<M>) {
        if self.entries.is_empty() {
            return;
        }
        let slot = &mut self.entries[entry.key as usize & self.mask];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.generation != entry.generation
                    || old.key == entry.key
                    || old.depth <= entry.depth
            }
        };
        if replace {
            *slot = Some(entry);
        }
    }
}

/// Scores of won and lost positions count plies from the root; the table stores them
/// counted from the stored position, so that they stay right wherever it is met again.
fn score_to_table(score: Score, ply: usize) -> Score {
    if score >= PROVEN {
        score + ply as Score
    } else if score <= -PROVEN {
        score - ply as Score
    } else {
        score
    }
}

fn score_from_table(score: Score, ply: usize) -> Score {
    if score >= PROVEN {
        score - ply as Score
    } else if score <= -PROVEN {
        score + ply as Score
    } else {
        score
    }
}

/// The score of a finished game for the player to move at `ply` plies from the root.
fn outcome_score(outcome: Outcome, to_move: Player, ply: usize) -> Score {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == to_move => WIN - ply as Score,
        Outcome::Win(_) => -(WIN - ply as Score),
    }
}

/// The search with its memory (transposition table, killers, history), kept from one
/// search to the next: the table stays valid for any position of the same game.
pub struct AlphaBeta<G: AlphaBetaGame, E> {
    config: AlphaBetaConfig,
    /// The static evaluation at the depth limit.
    evaluator: E,
    table: TranspositionTable<G::Move>,
    /// Two moves per ply that caused a cut-off at that ply.
    killers: Vec<[Option<G::Move>; 2]>,
    /// Per player and move slot: how much the move caused cut-offs, weighted by depth².
    history: Vec<u32>,
    /// One move list per ply, so that the search does not allocate.
    move_lists: Vec<Vec<G::Move>>,
    nodes: u64,
    /// Evaluations at the depth limit (and uses of table scores that rest on some):
    /// a search that adds none saw every line to its end.
    horizon_leaves: u64,
    limits: Limits,
    first_iteration: bool,
    aborted: bool,
    /// The best root move of the running iteration, once one has been searched fully.
    root_best: Option<(G::Move, Score)>,
}

impl<G: AlphaBetaGame, E: Evaluate<G>> AlphaBeta<G, E> {
    /// A search that values the positions at its depth limit by `evaluator`.
    pub fn new(config: AlphaBetaConfig, evaluator: E) -> Self {
        AlphaBeta {
            config,
            evaluator,
            table: TranspositionTable::new(config.table_entries),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * G::MOVE_SLOTS],
            move_lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            horizon_leaves: 0,
            limits: Limits::iterations(0),
            first_iteration: true,
            aborted: false,
            root_best: None,
        }
    }

    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// The static evaluation the search applies.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// [`AlphaBeta::search`], keeping the result in `kept` and returning its statistics
    /// (what a player's [`super::Search`] does with it).
    pub fn search_into(
        &mut self,
        root: &G,
        limits: Limits,
        kept: &mut Option<SearchResult<G::Move>>,
    ) -> super::SearchStats {
        let found = self.search(root, limits);
        let stats = found.stats();
        *kept = Some(found);
        stats
    }

    /// Iterative deepening from `root` until `limits` (nodes count as iterations; the
    /// deadline is read every few nodes inside the search), the configured depth, a
    /// proven result, or an iteration that saw every line to its end.
    pub fn search(&mut self, root: &G, limits: Limits) -> SearchResult<G::Move> {
        let started = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.table.generation = self.table.generation.wrapping_add(1);
        self.killers.fill([None; 2]);
        // Old history still orders well, but new cut-offs should soon outweigh it.
        self.history.iter_mut().for_each(|h| *h /= 8);

        let step = G::PLIES_PER_ROUND.max(1);
        let max_depth = self
            .config
            .max_depth
            .unwrap_or(MAX_PLY as u32 - step)
            .min(MAX_PLY as u32 - step);
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            line: Vec::new(),
        };
        let mut depth = step;
        while depth <= max_depth {
            self.root_best = None;
            self.first_iteration = depth == step;
            let horizon_leaves = self.horizon_leaves;
            let score = self.negamax(root, depth as i32, 0, -INFINITY, INFINITY);
            if let Some((mv, partial_score)) = self.root_best {
                result.best = Some(mv);
                result.score = if self.aborted { partial_score } else { score };
                result.depth = depth;
            }
            let exhausted = self.horizon_leaves == horizon_leaves;
            if self.aborted || result.best.is_none() || result.score.abs() >= PROVEN || exhausted {
                break;
            }
            depth += step;
        }
        result.nodes = self.nodes;
        result.elapsed = started.elapsed();
        result.line = self.expected_line(root, result.depth as usize);
        result
    }

    /// The line of best moves from the transposition table, at most `plies` long.
    fn expected_line(&self, root: &G, plies: usize) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut position = root.clone();
        while line.len() < plies && position.outcome().is_none() {
            let Some(mv) = self.table.probe(position.key()).and_then(|e| e.best) else {
                break;
            };
            line.push(mv);
            position.play(mv);
        }
        line
    }

    /// Whether the limits are reached (the clock is read every few nodes only). The first
    /// iteration (one round) always finishes, so that there is a move to play.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted && !self.first_iteration && self.limits.reached(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    // Long by choice: one node of the search (table probe, cut-offs, move loop, table
    // store) reads and writes a dozen locals; split, each piece would pass them all.
    fn negamax(
        &mut self,
        position: &G,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let to_move = position.to_move();
        if let Some(outcome) = position.outcome() {
            return outcome_score(outcome, to_move, ply);
        }
        if ply >= MAX_PLY {
            self.horizon_leaves += 1;
            return self.evaluator.evaluate(position, to_move);
        }
        if position.is_quiet() && ply > 0 {
            if let Some(score) = position.settled(to_move) {
                return score;
            }
            if depth <= 0 {
                self.horizon_leaves += 1;
                return self.evaluator.evaluate(position, to_move);
            }
        }

        let horizon_leaves = self.horizon_leaves;
        let key = position.key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.best;
            if ply > 0 && (entry.complete || entry.depth as i32 >= depth) {
                if !entry.complete {
                    self.horizon_leaves += 1;
                }
                let score = score_from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower => alpha = alpha.max(score),
                    Bound::Upper => beta = beta.min(score),
                }
                if alpha >= beta {
                    return score;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        position.legal_moves(&mut moves);
        self.order_moves(position, &mut moves, table_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = position.clone();
            child.play(mv);
            let score = if i == 0 || !self.config.pvs {
                self.child_score(&child, to_move, depth, ply, alpha, beta)
            } else {
                let probe = self.child_score(&child, to_move, depth, ply, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.aborted {
                    self.child_score(&child, to_move, depth, ply, alpha, beta)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some((mv, score));
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.reward_cutoff(position, mv, depth, ply);
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        if self.aborted {
            return 0;
        }

        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            score: score_to_table(best_score, ply),
            depth: depth.max(0) as u16,
            bound,
            generation: self.table.generation,
            complete: self.horizon_leaves == horizon_leaves,
            best: best_move,
        });
        best_score
    }

    /// `child`'s score within the window `alpha..beta`, both from the view of `to_move`,
    /// the player who moved into it: negated when the other player moves next, as is; when
    /// the same player moves again (a paranoid Tron Battle search, where every opponent
    /// is one side and moves one after another).
    fn child_score(
        &mut self,
        child: &G,
        to_move: Player,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        if child.to_move() == to_move {
            self.negamax(child, depth - 1, ply + 1, alpha, beta)
        } else {
            -self.negamax(child, depth - 1, ply + 1, -beta, -alpha)
        }
    }

    /// The table's move first, then the killers of this ply, then by history.
    fn order_moves(
        &self,
        position: &G,
        moves: &mut [G::Move],
        table_move: Option<G::Move>,
        ply: usize,
    ) {
        let player = position.to_move() as usize;
        let killers = self.killers[ply];
        let rank = |mv: G::Move| -> u64 {
            if Some(mv) == table_move {
                u64::MAX
            } else if !self.config.ordering {
                0
            } else if Some(mv) == killers[0] {
                u64::MAX - 1
            } else if Some(mv) == killers[1] {
                u64::MAX - 2
            } else {
                self.history[player * G::MOVE_SLOTS + position.move_slot(mv)] as u64
            }
        };
        // Stable, so equal ranks keep the game's own order (deterministic searches).
        moves.sort_by_key(|&mv| std::cmp::Reverse(rank(mv)));
    }

    /// Remembers a move that refuted the position: killer at this ply, history credit.
    fn reward_cutoff(&mut self, position: &G, mv: G::Move, depth: i32, ply: usize) {
        if !self.config.ordering {
            return;
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let d = depth.max(1) as u32;
        let slot = position.to_move() as usize * G::MOVE_SLOTS + position.move_slot(mv);
        self.history[slot] = self.history[slot].saturating_add(d * d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small game with transpositions, draws and early ends: each player in turn adds
    /// 1, 2 or 3 to their own total (a total reaching `TARGET` wins at once unless the
    /// other already has more); after `PLIES` plies the larger total wins, equal draws.
    /// Quiet positions are those after player 1's move; the evaluation is a hash of the
    /// position, so that depth-limited searches have something arbitrary to agree on.
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Race {
        totals: [u8; 2],
        plies: u8,
    }

    const PLIES: u8 = 8;
    const TARGET: u8 = 10;

    impl Race {
        fn new() -> Self {
            Race {
                totals: [0, 0],
                plies: 0,
            }
        }

        fn hash(&self) -> u64 {
            let x =
                (self.totals[0] as u64) | (self.totals[1] as u64) << 8 | (self.plies as u64) << 16;
            let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn evaluate(&self, player: Player) -> Score {
            let e = (self.hash() % 201) as Score - 100;
            if player == 0 {
                e
            } else {
                -e
            }
        }
    }

    impl Game for Race {
        type Move = u8;

        fn to_move(&self) -> Player {
            self.plies % 2
        }

        fn outcome(&self) -> Option<Outcome> {
            let [a, b] = self.totals;
            if a >= TARGET || b >= TARGET || self.plies >= PLIES {
                Some(match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Outcome::Win(0),
                    std::cmp::Ordering::Less => Outcome::Win(1),
                    std::cmp::Ordering::Equal => Outcome::Draw,
                })
            } else {
                None
            }
        }

        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.extend([1, 2, 3]);
        }

        fn play(&mut self, mv: u8) {
            self.totals[self.to_move() as usize] += mv;
            self.plies += 1;
        }
    }

    impl AlphaBetaGame for Race {
        const PLIES_PER_ROUND: u32 = 2;
        const MOVE_SLOTS: usize = 4;

        fn key(&self) -> u64 {
            self.hash()
        }

        fn is_quiet(&self) -> bool {
            self.plies % 2 == 0
        }

        fn settled(&self, _player: Player) -> Option<Score> {
            None
        }

        fn move_slot(&self, mv: u8) -> usize {
            mv as usize
        }
    }

    /// The races' evaluation: a hash of the position.
    struct ByHash;

    impl Evaluate<Race> for ByHash {
        fn evaluate(&mut self, position: &Race, player: Player) -> Score {
            position.evaluate(player)
        }
    }

    /// Plain minimax with the same conventions (quiet-only leaves, ply-counted results).
    fn minimax(position: &Race, depth: i32, ply: usize) -> Score {
        let to_move = position.to_move();
        if let Some(outcome) = position.outcome() {
            return outcome_score(outcome, to_move, ply);
        }
        if position.is_quiet() && depth <= 0 && ply > 0 {
            return position.evaluate(to_move);
        }
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = *position;
                child.play(mv);
                -minimax(&child, depth - 1, ply + 1)
            })
            .max()
            .unwrap()
    }

    fn config(table_entries: usize, ordering: bool, pvs: bool, depth: u32) -> AlphaBetaConfig {
        AlphaBetaConfig {
            table_entries,
            ordering,
            pvs,
            max_depth: Some(depth),
        }
    }

    fn unlimited() -> Limits {
        Limits::iterations(u64::MAX)
    }

    fn positions() -> Vec<Race> {
        let mut out = vec![Race::new()];
        for first in [1, 3] {
            for second in [1, 2, 3] {
                let mut r = Race::new();
                r.play(first);
                r.play(second);
                out.push(r);
            }
        }
        out
    }

    #[test]
    fn full_depth_search_equals_minimax() {
        for position in positions() {
            let exact = minimax(&position, PLIES as i32, 0);
            assert!(exact.abs() >= PROVEN || exact == 0, "a finished game");
            for table in [0, 1 << 10] {
                for (ordering, pvs) in [(false, false), (true, false), (true, true)] {
                    let mut ab = AlphaBeta::new(config(table, ordering, pvs, PLIES as u32), ByHash);
                    let result = ab.search(&position, unlimited());
                    assert_eq!(result.score, exact, "{position:?} table {table} pvs {pvs}");
                }
            }
        }
    }

    /// [`Race`] where a move of 3 earns another move: the same player may move several
    /// times in a row, as a paranoid search's opponents do.
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct BonusRace {
        race: Race,
        mover: Player,
    }

    impl Game for BonusRace {
        type Move = u8;

        fn to_move(&self) -> Player {
            self.mover
        }

        fn outcome(&self) -> Option<Outcome> {
            self.race.outcome()
        }

        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.extend([1, 2, 3]);
        }

        fn play(&mut self, mv: u8) {
            self.race.totals[self.mover as usize] += mv;
            self.race.plies += 1;
            if mv != 3 {
                self.mover = 1 - self.mover;
            }
        }
    }

    impl AlphaBetaGame for BonusRace {
        const MOVE_SLOTS: usize = 4;

        fn key(&self) -> u64 {
            self.race.hash() ^ self.mover as u64
        }

        fn is_quiet(&self) -> bool {
            true
        }

        fn settled(&self, _player: Player) -> Option<Score> {
            None
        }

        fn move_slot(&self, mv: u8) -> usize {
            mv as usize
        }
    }

    impl BonusRace {
        fn evaluate(&self, player: Player) -> Score {
            self.race.evaluate(player)
        }
    }

    impl Evaluate<BonusRace> for ByHash {
        fn evaluate(&mut self, position: &BonusRace, player: Player) -> Score {
            position.evaluate(player)
        }
    }

    /// Minimax that keeps the score's side when the same player moves again.
    fn bonus_minimax(position: &BonusRace, depth: i32, ply: usize) -> Score {
        let to_move = position.to_move();
        if let Some(outcome) = position.outcome() {
            return outcome_score(outcome, to_move, ply);
        }
        if depth <= 0 && ply > 0 {
            return position.evaluate(to_move);
        }
        [1, 2, 3]
            .into_iter()
            .map(|mv| {
                let mut child = *position;
                child.play(mv);
                let score = bonus_minimax(&child, depth - 1, ply + 1);
                if child.to_move() == to_move {
                    score
                } else {
                    -score
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn a_player_moving_twice_keeps_the_score_on_its_side() {
        let start = BonusRace {
            race: Race::new(),
            mover: 0,
        };
        let mut positions = vec![start];
        for first in [1, 3] {
            let mut p = start;
            p.play(first);
            positions.push(p);
        }
        for position in positions {
            for depth in [1, 3, 5, PLIES as i32] {
                let exact = bonus_minimax(&position, depth, 0);
                for table in [0, 1 << 10] {
                    for pvs in [false, true] {
                        let mut ab = AlphaBeta::new(config(table, true, pvs, depth as u32), ByHash);
                        let result = ab.search(&position, unlimited());
                        assert_eq!(result.score, exact, "{position:?} depth {depth} pvs {pvs}");
                    }
                }
            }
        }
    }

    #[test]
    fn depth_limited_search_equals_minimax_with_the_evaluation() {
        for position in positions() {
            for depth in [2, 4] {
                let exact = minimax(&position, depth, 0);
                for table in [0, 1 << 10] {
                    let mut ab = AlphaBeta::new(config(table, true, true, depth as u32), ByHash);
                    let result = ab.search(&position, unlimited());
                    assert_eq!(result.score, exact, "{position:?} depth {depth}");
                    assert_eq!(result.depth, depth as u32);
                }
            }
        }
    }

    #[test]
    fn deepening_ends_once_every_line_is_seen_to_its_end() {
        let result =
            AlphaBeta::new(AlphaBetaConfig::default(), ByHash).search(&Race::new(), unlimited());
        assert_eq!(result.score, minimax(&Race::new(), PLIES as i32, 0));
        assert!(result.depth <= PLIES as u32, "{}", result.depth);
    }

    #[test]
    fn the_chosen_move_achieves_the_score() {
        let root = Race::new();
        let mut ab = AlphaBeta::new(config(1 << 10, true, true, 4), ByHash);
        let result = ab.search(&root, unlimited());
        let mut child = root;
        child.play(result.best.unwrap());
        assert_eq!(-minimax(&child, 3, 1), result.score);
        assert!(!result.line.is_empty());
        assert_eq!(result.line[0], result.best.unwrap());
    }

    #[test]
    fn wins_are_taken_at_once_and_losses_delayed() {
        // Player 0 (to move) at 9 wins with any move now; the score says: in one ply.
        let mut near_win = Race::new();
        near_win.totals = [9, 7];
        near_win.plies = 2;
        let result =
            AlphaBeta::new(AlphaBetaConfig::default(), ByHash).search(&near_win, unlimited());
        assert_eq!(result.score, WIN - 1);
        assert!(result.is_proven());

        // Player 0 at 0 against 9 with player 1 to reply: every move loses, in two plies.
        let mut lost = Race::new();
        lost.totals = [0, 9];
        lost.plies = 2;
        let result = AlphaBeta::new(AlphaBetaConfig::default(), ByHash).search(&lost, unlimited());
        assert_eq!(result.score, -(WIN - 2));
        assert!(result.best.is_some());
    }

    #[test]
    fn a_node_budget_stops_the_search_repeatably() {
        let run = || {
            AlphaBeta::new(AlphaBetaConfig::default(), ByHash)
                .search(&Race::new(), Limits::iterations(50))
        };
        let (a, b) = (run(), run());
        assert_eq!(
            a,
            SearchResult {
                elapsed: a.elapsed,
                ..b.clone()
            }
        );
        assert!(a.nodes <= 51, "the budget is checked at every node");
        assert!(a.best.is_some());
    }

    #[test]
    fn a_passed_deadline_still_finishes_the_first_iteration() {
        let limits = Limits {
            deadline: Some(Instant::now()),
            max_iterations: None,
        };
        let result =
            AlphaBeta::new(AlphaBetaConfig::default(), ByHash).search(&Race::new(), limits);
        assert_eq!(result.depth, 2);
        assert!(result.best.is_some());
        assert_eq!(result.score, minimax(&Race::new(), 2, 0));
        let first = AlphaBeta::new(config(1 << 20, true, true, 2), ByHash)
            .search(&Race::new(), unlimited());
        assert!(result.nodes <= first.nodes + crate::search::CLOCK_CHECK_INTERVAL);
    }

    #[test]
    fn the_table_keeps_proven_scores_relative_to_the_position() {
        for ply in [0, 3, 17] {
            for score in [WIN - 5, -(WIN - 9), 1234, 0] {
                let stored = score_to_table(score, ply);
                assert_eq!(score_from_table(stored, ply), score);
            }
        }
        assert_eq!(score_to_table(WIN - 5, 3), WIN - 2);
    }
}
