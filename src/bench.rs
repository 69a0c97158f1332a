//! Fixed-position search benchmarks (`mctsbot bench`), printed as one JSON line each.
//!
//! Each position gets a fresh tree and `ms` milliseconds of search with the bot's own
//! settings. Mid-game positions are reached by a fixed seeded random game, so they are
//! the same on every machine and every run.

use crate::bot::tron::{Choice, Evidence, TronSearcher};
use crate::bot::Config;
use crate::json;
use crate::search::{seeded_position, FastRng, Limits, Search, SearchStats};
use rand::SeedableRng;
use std::time::{Duration, Instant};

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
    /// Search threads (UTTT's root parallelism; 1 for Light Riders).
    pub threads: usize,
    /// Light Riders' evaluation bench only: the static evaluations timed and their time.
    pub evaluations: Option<(u64, Duration)>,
}

impl BenchResult {
    /// The JSON line: `game`, `position`, `threads`, `iterations`, `playouts`, `ms`,
    /// `iterations_per_sec` (all threads together), `playouts_per_sec`, `nodes`, `best`,
    /// for alpha-beta `depth` and `nodes_per_sec`, and for the evaluation bench
    /// `evaluations` and `evaluations_per_sec`.
    pub fn to_json(&self) -> String {
        let secs = self.stats.elapsed.as_secs_f64().max(1e-9);
        let per_sec = |count: u64| json::number(count as f64 / secs, 0);
        let mut fields = vec![
            ("game", json::string(self.game)),
            ("position", json::string(&self.position)),
            ("threads", self.threads.to_string()),
            ("iterations", self.stats.iterations.to_string()),
            ("playouts", self.stats.playouts.to_string()),
            ("ms", self.stats.elapsed.as_millis().to_string()),
            ("iterations_per_sec", per_sec(self.stats.iterations)),
            ("playouts_per_sec", per_sec(self.stats.playouts)),
            ("nodes", self.stats.nodes.to_string()),
            ("best", json::string(&self.best)),
        ];
        if let Some(depth) = self.depth {
            fields.push(("depth", depth.to_string()));
            fields.push(("nodes_per_sec", per_sec(self.stats.nodes as u64)));
        }
        if let Some((count, elapsed)) = self.evaluations {
            let rate = count as f64 / elapsed.as_secs_f64().max(1e-9);
            fields.push(("evaluations", count.to_string()));
            fields.push(("evaluations_per_sec", json::number(rate, 0)));
        }
        json::object(&fields)
    }
}

/// The UTTT positions: the empty board first, then seeded random games after 10, 20
/// and 30 plies, each searched by the search the options build (the bot's own: MCTS
/// trees, one per `--threads`, each given the whole budget, so `--iterations N` is N per
/// thread; or alpha-beta, whose `--iterations N` is N nodes).
pub fn uttt(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::bot::uttt::{new_search, UtttSearch};
    use crate::uttt::Board;
    // Under the rule asked for: each rule has its network.
    let empty = Board::with_end_rule(config.uttt.end_rule);
    let positions = std::iter::once(("empty".to_string(), empty)).chain(
        [10, 20, 30].map(|plies| (format!("ply{plies}"), seeded_position(empty, plies, 2016))),
    );
    let seed = config.common.seed.unwrap_or(1);
    positions
        .map(|(name, position)| {
            let mut search = new_search(config, position, seed);
            let stats = search.search(budget.limits());
            let best = search.best_move();
            let (best, depth) = match &search {
                UtttSearch::AlphaBeta { result, .. } => (
                    format!("{:?}", result.as_ref().map(|r| (r.best, r.score))),
                    result.as_ref().map(|r| r.depth),
                ),
                _ => (
                    format!("{:?}", best.map(|m| (m.mv, m.visits, m.value))),
                    None,
                ),
            };
            let threads = search.threads();
            BenchResult {
                game: "uttt",
                position: name,
                stats,
                best,
                depth,
                threads,
                evaluations: None,
            }
        })
        .collect()
}

/// CodinGame's Tron Battle positions, with 2, 3 and 4 riders on the 30x20 board from
/// fixed starts, each after 8 turns a rider of seeded random safe moves, searched for rider
/// 0 by the Tron Battle player's alpha-beta as the options set it (`--iterations N`: N
/// nodes).
pub fn tron_battle(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::bot::tron_battle::player::Searcher;
    use crate::tron::battle::Battle;
    let battle_config = config.battle;
    let starts = [(3, 3), (26, 16), (26, 3), (3, 16)];
    (2..=4)
        .map(|riders| {
            // The first seeded game that leaves rider 0 a choice (random moves can box
            // it in).
            let battle = (2016..)
                .map(|seed| {
                    let mut battle = Battle::codingame(&starts[..riders]).expect("distinct");
                    let mut rng = FastRng::seed_from_u64(seed);
                    for _ in 0..8 * riders {
                        let safe: Vec<_> = battle.safe_moves(battle.to_move()).iter().collect();
                        if battle.winner().is_some() || safe.is_empty() {
                            break;
                        }
                        let pick = crate::search::random_below(&mut rng, safe.len() as u32);
                        battle.play(safe[pick as usize]);
                    }
                    battle
                })
                .find(|b| b.is_alive(0) && b.winner().is_none() && b.safe_moves(0).len() > 1)
                .expect("some seed leaves a choice");
            let root = battle_config.root(battle, 0);
            let result = Searcher::new(&battle_config).search(&root, budget.limits());
            BenchResult {
                game: "tron-battle",
                position: format!("riders{riders}"),
                stats: result.stats,
                best: format!("{:?}", result.best.map(|d| (d, result.score))),
                depth: Some(result.depth),
                threads: 1,
                evaluations: None,
            }
        })
        .collect()
}

/// The Light Riders positions: the empty 16x16 start first, then the same board after
/// 12 rounds of seeded random safe moves, searched for player 0 by the searcher the
/// options build (the bot's own; alpha-beta's `--iterations N` budget is N nodes).
pub fn tron(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    tron_positions(budget, config, riddles_positions())
}

/// The riddles board's bench positions: the empty start and round 12.
fn riddles_positions() -> Vec<(&'static str, crate::tron::TronState)> {
    use crate::search::SimGame;
    use crate::tron::TronState;
    let start = TronState::light_riders_start();
    let mut mid = start.clone();
    let mut rng = FastRng::seed_from_u64(2017);
    for _ in 0..12 {
        let [pick0, pick1] = [0, 1].map(|player| {
            let moves = mid.legal_moves(player);
            moves.nth(crate::search::random_below(&mut rng, moves.len()))
        });
        mid.play_joint(pick0, pick1);
    }
    vec![("empty16", start), ("round12", mid)]
}

/// Each of `positions` searched for player 0 by the searcher the options build.
fn tron_positions(
    budget: BenchBudget,
    config: &Config,
    positions: Vec<(&'static str, crate::tron::TronState)>,
) -> Vec<BenchResult> {
    let seed = config.common.seed.unwrap_or(1);
    positions
        .into_iter()
        .map(|(name, position)| {
            let mut searcher =
                TronSearcher::new(&config.tron, position, 0, seed, config.common.threads);
            let stats = searcher.search(budget.limits());
            let (best, depth) = match searcher.best_move(&mut FastRng::seed_from_u64(seed)) {
                None => ("None".to_string(), None),
                Some(Choice {
                    mv,
                    evidence: Evidence::Mcts { value, visits, .. },
                }) => (format!("{:?}", Some((mv, visits, value))), None),
                Some(Choice {
                    mv,
                    evidence: Evidence::AlphaBeta { depth, score, .. },
                }) => (format!("{:?}", Some((mv, score))), Some(depth)),
            };
            BenchResult {
                game: "tron",
                position: name.to_owned(),
                stats,
                best,
                depth,
                threads: 1,
                evaluations: None,
            }
        })
        .collect()
}

/// The play-out policies' speed in the Light Riders search (`mctsbot bench --game tron
/// --playouts`): [`tron`]'s positions and Laschet 2012's board size (the empty 13x13 board,
/// riders in opposite corners as on the arena's `empty13`), then a whole game on that
/// board ([`tron_game`], position `game13`: Laschet 2012's figures are rates over its games),
/// once per policy with whole play-outs (no cut-off, as Laschet 2012 plays them), each line's
/// position named `position/policy`.
pub fn tron_playouts(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::bot::tron::options::{CutoffChoice, PlayoutChoice};
    let policies = ["random", "safe", "ngram", "lgr", "lgrf", "ngram-lgr"];
    let mut positions = riddles_positions();
    let empty13 = crate::tron::TronState::new(13, 13, [], [(0, 0), (12, 12)]);
    let empty13 = empty13.expect("a valid 13x13 start");
    positions.push(("empty13", empty13.clone()));
    policies
        .into_iter()
        .flat_map(|name| {
            let mut config = config.clone();
            config.tron.playout = name.parse::<PlayoutChoice>().expect("a known policy");
            config.tron.cutoff = CutoffChoice::None;
            let mut results = tron_positions(budget, &config, positions.clone());
            results.push(tron_game(budget, &config, "game13", empty13.clone()));
            results.into_iter().map(move |mut result| {
                result.position = format!("{}/{name}", result.position);
                result
            })
        })
        .collect()
}

/// A whole game from `start` between two searchers the options build, one per rider,
/// each keeping its tree (and its play-outs' tables) from move to move as the bot does,
/// each move searched with a twentieth of `budget`; the line counts every search of the
/// game, and `best` is the game's outcome after its number of rounds.
fn tron_game(
    budget: BenchBudget,
    config: &Config,
    name: &str,
    start: crate::tron::TronState,
) -> BenchResult {
    use crate::search::SimGame;
    let per_move = match budget {
        BenchBudget::Millis(ms) => BenchBudget::Millis((ms / 20).max(1)),
        BenchBudget::Iterations(n) => BenchBudget::Iterations((n / 20).max(1)),
    };
    let seed = config.common.seed.unwrap_or(1);
    let mut rng = FastRng::seed_from_u64(seed);
    let new_searcher = |state: &crate::tron::TronState, me| {
        TronSearcher::new(&config.tron, state.clone(), me, seed + me as u64, 1)
    };
    let mut searchers = [0, 1].map(|me| new_searcher(&start, me));
    let (mut state, mut stats, mut rounds) = (start, SearchStats::default(), 0);
    while state.outcome().is_none() {
        let [mv0, mv1] = [0, 1].map(|me| {
            let searcher = &mut searchers[me as usize];
            if !searcher.reroot(&state) {
                *searcher = new_searcher(&state, me);
            }
            let searched = searcher.search(per_move.limits());
            stats.elapsed += searched.elapsed;
            stats.absorb(searched);
            let chosen = searcher.best_move(&mut rng).map(|choice| choice.mv);
            chosen.unwrap_or_else(|| state.legal_moves(me).nth(0))
        });
        state.play_joint(mv0, mv1);
        rounds += 1;
    }
    BenchResult {
        game: "tron",
        position: name.to_owned(),
        stats,
        best: format!("{:?} after {rounds} rounds", state.outcome()),
        depth: None,
        threads: 1,
        evaluations: None,
    }
}

/// Alpha-beta nodes whose evaluated positions [`tron_evaluations`] times.
const EVALUATION_NODES: u64 = 20_000;

/// The speed of Light Riders' static evaluation, [`crate::tron::evaluate::space`]
/// (`mctsbot bench --game tron --evaluations`): per position of [`tron`], the alpha-beta
/// searcher's line for the budget (`depth`, `nodes_per_sec`), and the evaluation timed
/// alone over the positions alpha-beta evaluates in its first 20,000 nodes from there, as
/// often as the budget allows (`--iterations N`: N evaluations). `best` is a checksum of
/// the evaluations of those positions, the same for every build that evaluates alike.
pub fn tron_evaluations(budget: BenchBudget, config: &Config) -> Vec<BenchResult> {
    use crate::bot::tron::options::TronSearchKind;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Evaluate, Score};
    use crate::search::Sequentialized;
    use crate::tron::evaluate::space;
    use crate::tron::TronState;

    /// Alpha-beta's evaluation, keeping every position it evaluates.
    struct Collect(Vec<TronState>);
    impl Evaluate<Sequentialized<TronState>> for Collect {
        fn evaluate(
            &mut self,
            position: &Sequentialized<TronState>,
            player: crate::game::Player,
        ) -> Score {
            self.0.push(position.game().clone());
            crate::tron::evaluate::evaluate(position.game(), player)
        }
    }

    let mut config = config.clone();
    config.tron.search = TronSearchKind::AlphaBeta;
    let positions = riddles_positions();
    let searched = tron_positions(budget, &config, positions.clone());
    positions
        .into_iter()
        .zip(searched)
        .map(|((_, position), mut result)| {
            let mut collect = AlphaBeta::new(AlphaBetaConfig::default(), Collect(Vec::new()));
            collect.search(
                &Sequentialized::new(position, 0),
                Limits::iterations(EVALUATION_NODES),
            );
            let evaluated = &collect.evaluator().0;
            let checksum = evaluated.iter().fold(0u64, |sum, state| {
                let s = space(state);
                let fields = [s.territory, s.fillable, s.edges];
                fields
                    .iter()
                    .flatten()
                    .fold(sum ^ u64::from(s.separated), |h, &x| {
                        let mut mix = h ^ u64::from(x);
                        crate::tron::grid::splitmix64(&mut mix)
                    })
            });
            let start = Instant::now();
            let mut count = 0u64;
            'timing: loop {
                for chunk in evaluated.chunks(256) {
                    for state in chunk {
                        std::hint::black_box(space(std::hint::black_box(state)));
                    }
                    count += chunk.len() as u64;
                    let done = match budget {
                        BenchBudget::Millis(ms) => start.elapsed().as_millis() >= u128::from(ms),
                        BenchBudget::Iterations(n) => count >= n,
                    };
                    if done {
                        break 'timing;
                    }
                }
            }
            result.position = format!("{}/space", result.position);
            result.best = format!(
                "{checksum:016x} over {} evaluated positions",
                evaluated.len()
            );
            result.evaluations = Some((count, start.elapsed()));
            result
        })
        .collect()
}
