//! Fixed-position search benchmarks (`mctsbot bench`), printed as one JSON line each.
//!
//! Each position gets a fresh tree and `ms` milliseconds of search with the bot's own
//! settings. Mid-game positions are reached by a fixed seeded random game, so they are
//! the same on every machine and every run.

use crate::bot::tron::TronSearchKind;
use crate::bot::Config;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::tree::Tree;
use crate::search::{FastRng, Game, Limits, SearchStats, Sequentialized};
use crate::tron::TronState;
use rand::SeedableRng;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchBudget {
    /// Milliseconds of wall time: the speed measurement.
    Millis(u64),
    /// Exactly this many iterations: the same result on every run and machine.
    Iterations(u64),
}

impl BenchBudget {
    /// The limits of one search starting now.
    pub fn limits(self) -> Limits {
        match self {
            BenchBudget::Millis(ms) => Limits::millis(ms),
            BenchBudget::Iterations(n) => Limits::iterations(n),
        }
    }
}

/// One benchmark line.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    pub game: &'static str,
    pub position: String,
    pub stats: SearchStats,
    /// The move the search would play (for player 0 in Light Riders) with its visits and
    /// mean reward (alpha-beta: its score), as `Debug` prints them.
    pub best: String,
    /// Alpha-beta only: the depth in plies its result comes from (then `stats.nodes` and
    /// `stats.iterations` both count the nodes searched).
    pub depth: Option<u32>,
}

impl BenchResult {
    /// The JSON line: `game`, `position`, `iterations`, `playouts`, `ms`,
    /// `iterations_per_sec`, `playouts_per_sec`, `nodes`, `best`, and for alpha-beta
    /// `depth` and `nodes_per_sec`.
    pub fn to_json(&self) -> String {
        let secs = self.stats.elapsed.as_secs_f64().max(1e-9);
        let alphabeta = self.depth.map_or(String::new(), |depth| {
            format!(
                ",\"depth\":{depth},\"nodes_per_sec\":{:.0}",
                self.stats.nodes as f64 / secs
            )
        });
        format!(
            "{{\"game\":\"{}\",\"position\":\"{}\",\"iterations\":{},\"playouts\":{},\"ms\":{},\
             \"iterations_per_sec\":{:.0},\"playouts_per_sec\":{:.0},\"nodes\":{},\"best\":\"{}\"{}}}",
            self.game,
            self.position,
            self.stats.iterations,
            self.stats.playouts,
            self.stats.elapsed.as_millis(),
            self.stats.iterations as f64 / secs,
            self.stats.playouts as f64 / secs,
            self.stats.nodes,
            self.best,
            alphabeta,
        )
    }
}

/// Plays `plies` uniformly random moves from `start` with a fixed seed.
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
        let pick = crate::search::random_below(&mut rng, moves.len() as u32) as usize;
        game.play(moves[pick]);
    }
    game
}

/// Searches `position` within `budget` with a fresh tree.
pub fn bench_tree<G: Game>(
    game: &'static str,
    name: &str,
    position: G,
    budget: BenchBudget,
    config: &Config,
) -> BenchResult {
    let mut tree = Tree::new(position, config.tree, config.seed.unwrap_or(1));
    let stats = tree.search(budget.limits());
    BenchResult {
        game,
        position: name.to_owned(),
        stats,
        best: format!("{:?}", tree.best_move().map(|m| (m.mv, m.visits, m.value))),
        depth: None,
    }
}

/// The UTTT positions: the empty board first, then seeded random games after 10, 20
/// and 30 plies.
pub fn uttt(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::uttt::Board;
    let mut results = vec![bench_tree("uttt", "empty", Board::new(), budget, config)];
    for plies in [10, 20, 30] {
        let position = seeded_position(Board::new(), plies, 2016);
        results.push(bench_tree(
            "uttt",
            &format!("ply{plies}"),
            position,
            budget,
            config,
        ));
    }
    results
}

/// The Light Riders positions: the empty 16x16 start first, then the same board after
/// 12 rounds of seeded random safe moves, searched with the configured variant (or
/// alpha-beta, whose `--iterations N` budget is `N` nodes).
pub fn tron(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::search::simultaneous::SimSearch;
    use crate::search::SimGame;
    let start = TronState::light_riders_start().with_policy(config.tron.playout_policy());
    let mut mid = start.clone();
    let mut rng = FastRng::seed_from_u64(2017);
    let (mut moves0, mut moves1) = (Vec::new(), Vec::new());
    for _ in 0..12 {
        moves0.clear();
        moves1.clear();
        mid.legal_moves(0, &mut moves0);
        mid.legal_moves(1, &mut moves1);
        let pick0 = moves0[crate::search::random_below(&mut rng, moves0.len() as u32) as usize];
        let pick1 = moves1[crate::search::random_below(&mut rng, moves1.len() as u32) as usize];
        mid.play_joint(pick0, pick1);
    }
    let seed = config.seed.unwrap_or(1);
    [("empty16", start), ("round12", mid)]
        .into_iter()
        .map(|(name, position)| match config.tron.sim_config() {
            _ if config.tron.search == TronSearchKind::AlphaBeta => {
                bench_alphabeta(name, position, budget)
            }
            Some(sim) => {
                let mut search = SimSearch::new(position, sim, FastRng::seed_from_u64(seed));
                let stats = search.search(budget.limits());
                let best = search
                    .best_move(0, &mut FastRng::seed_from_u64(seed))
                    .and_then(|mv| search.root_actions(0).into_iter().find(|a| a.mv == mv))
                    .map(|a| (a.mv, a.visits, a.mean));
                BenchResult {
                    game: "tron",
                    position: name.to_owned(),
                    stats,
                    best: format!("{best:?}"),
                    depth: None,
                }
            }
            None => {
                let mut tree = Tree::new(
                    Sequentialized::new(position, 0),
                    config.tron.tree_config(),
                    seed,
                );
                let stats = tree.search(budget.limits());
                BenchResult {
                    game: "tron",
                    position: name.to_owned(),
                    stats,
                    best: format!("{:?}", tree.best_move().map(|m| (m.mv, m.visits, m.value))),
                    depth: None,
                }
            }
        })
        .collect()
}

/// One Light Riders position searched by alpha-beta as player 0.
fn bench_alphabeta(name: &str, position: TronState, budget: BenchBudget) -> BenchResult {
    let mut search = AlphaBeta::new(AlphaBetaConfig::default());
    let result = search.search(&Sequentialized::new(position, 0), budget.limits());
    BenchResult {
        game: "tron",
        position: name.to_owned(),
        stats: SearchStats {
            iterations: result.nodes,
            playouts: 0,
            elapsed: result.elapsed,
            nodes: result.nodes as usize,
            tree_full: false,
        },
        best: format!("{:?}", result.best.map(|mv| (mv, result.score))),
        depth: Some(result.depth),
    }
}
