//! The Light Riders player: engine fields in, a direction out.

use super::{Config, GamePlayer, Settings};
use crate::protocol::{GameUpdate, Token, TronAnswer};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::simultaneous::{
    FinalMove, SimConfig, SimPolicy, SimSearch, DEFAULT_MAX_NODES, PAPER_UCT_C,
};
use crate::search::tree::{Proof, Selection, Tree, TreeConfig};
use crate::search::{moves_between, FastRng, Limits, Player, Sequentialized};
use crate::timeman::{self, TimeControl};
use crate::tron::endgame::{self, FillBudget};
use crate::tron::{space, Direction, EvalCutoff, PlayoutPolicy, TronState};
use log::{error, info, warn};
use rand::SeedableRng;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The search variant of seed 003 that the Tron player runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronVariant {
    /// Sequential UCT: we commit first inside the tree.
    SequentialUct,
    /// Sequential UCB1-Tuned.
    SequentialUcb1Tuned,
    DecoupledUctMax,
    DecoupledUctMix,
    DecoupledUcb1TunedMax,
    DecoupledUcb1TunedMix,
    Exp3,
    RegretMatching,
}

impl FromStr for TronVariant {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Ok(match name {
            "suct" => TronVariant::SequentialUct,
            "suct-tuned" => TronVariant::SequentialUcb1Tuned,
            "duct-max" => TronVariant::DecoupledUctMax,
            "duct-mix" => TronVariant::DecoupledUctMix,
            "ducb1t-max" => TronVariant::DecoupledUcb1TunedMax,
            "ducb1t-mix" => TronVariant::DecoupledUcb1TunedMix,
            "exp3" => TronVariant::Exp3,
            "rm" => TronVariant::RegretMatching,
            other => return Err(format!("unknown Tron variant {other:?}")),
        })
    }
}

/// Which search plays the open game (separated riders always go to the endgame filler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronSearchKind {
    /// Monte-Carlo Tree Search with the configured variant.
    Mcts,
    /// Iterative-deepening alpha-beta with the space evaluation.
    AlphaBeta,
}

impl FromStr for TronSearchKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "mcts" => Ok(TronSearchKind::Mcts),
            "alphabeta" => Ok(TronSearchKind::AlphaBeta),
            other => Err(format!("unknown Tron search {other:?}")),
        }
    }
}

/// How play-outs choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutChoice {
    Random,
    /// Avoid an immediate crash when a safe move exists.
    Safe,
}

impl FromStr for PlayoutChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "random" => Ok(PlayoutChoice::Random),
            "safe" => Ok(PlayoutChoice::Safe),
            other => Err(format!("unknown play-out policy {other:?}")),
        }
    }
}

/// The evaluation that may end a play-out early (seed 002).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffChoice {
    None,
    Voronoi,
    TreeOfChambers,
}

impl FromStr for CutoffChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "none" => Ok(CutoffChoice::None),
            "voronoi" => Ok(CutoffChoice::Voronoi),
            "chambers" => Ok(CutoffChoice::TreeOfChambers),
            other => Err(format!("unknown play-out cut-off {other:?}")),
        }
    }
}

/// Settings of the Light Riders search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TronConfig {
    pub search: TronSearchKind,
    pub variant: TronVariant,
    /// Exploration constant of the UCB variants; `None` keeps each one's default
    /// (1.5 for UCT, seed 003; 1.0 for UCB1-Tuned, its formula has none).
    pub exploration: Option<f32>,
    /// Exploration rate of Exp3 and Regret Matching (seed 003: 0.3).
    pub gamma: f32,
    pub playout: PlayoutChoice,
    /// Every this many play-out steps, end the play-out if the riders are separated
    /// and decide by space (0 = never).
    pub separation_check: u16,
    pub cutoff: CutoffChoice,
    /// Overrides the variant's final-move rule (decoupled variants only).
    pub final_move: Option<FinalMove>,
    /// Switch to the space-filling search once the riders are separated.
    pub endgame: bool,
    /// Predictive Expansion Strategy: certain separated positions count as finished.
    pub predictive_expansion: bool,
    /// Memory bound of the tree in nodes.
    pub max_nodes: usize,
    /// Visits a move (joint move, decoupled) needs before its node is created.
    pub expand_visits: u32,
}

impl Default for TronConfig {
    fn default() -> Self {
        TronConfig {
            search: TronSearchKind::Mcts,
            variant: TronVariant::DecoupledUcb1TunedMax,
            exploration: None,
            gamma: 0.3,
            playout: PlayoutChoice::Safe,
            separation_check: 0,
            cutoff: CutoffChoice::None,
            final_move: None,
            endgame: true,
            predictive_expansion: false,
            max_nodes: DEFAULT_MAX_NODES,
            expand_visits: 4,
        }
    }
}

impl TronConfig {
    /// The play-out policy these settings ask for.
    pub fn playout_policy(&self) -> PlayoutPolicy {
        let base = match self.playout {
            PlayoutChoice::Random => PlayoutPolicy::random(),
            PlayoutChoice::Safe => PlayoutPolicy::avoid_crash(),
        };
        let eval = match self.cutoff {
            CutoffChoice::None => None,
            CutoffChoice::Voronoi => Some(EvalCutoff::VORONOI),
            CutoffChoice::TreeOfChambers => Some(EvalCutoff::TREE_OF_CHAMBERS),
        };
        base.with_separation_check(self.separation_check)
            .with_eval(eval)
    }

    /// The decoupled search settings of a decoupled variant; `None` for a sequential one.
    pub fn sim_config(&self) -> Option<SimConfig> {
        let c = |default: f32| self.exploration.unwrap_or(default);
        let policy = match self.variant {
            TronVariant::SequentialUct | TronVariant::SequentialUcb1Tuned => return None,
            TronVariant::DecoupledUctMax | TronVariant::DecoupledUctMix => {
                SimPolicy::DecoupledUct { c: c(PAPER_UCT_C) }
            }
            TronVariant::DecoupledUcb1TunedMax | TronVariant::DecoupledUcb1TunedMix => {
                SimPolicy::DecoupledUcb1Tuned { c: c(1.0) }
            }
            TronVariant::Exp3 => SimPolicy::Exp3 { gamma: self.gamma },
            TronVariant::RegretMatching => SimPolicy::RegretMatching { gamma: self.gamma },
        };
        let variant_final = match self.variant {
            TronVariant::DecoupledUctMix | TronVariant::DecoupledUcb1TunedMix => FinalMove::Mix,
            _ => policy.paper_final_move(),
        };
        Some(SimConfig {
            policy,
            final_move: self.final_move.unwrap_or(variant_final),
            max_nodes: self.max_nodes,
            expand_visits: self.expand_visits,
        })
    }

    /// The sequential tree settings (sequential variants).
    pub fn tree_config(&self) -> TreeConfig {
        let selection = match self.variant {
            TronVariant::SequentialUcb1Tuned => Selection::Ucb1Tuned,
            _ => Selection::Ucb1,
        };
        TreeConfig {
            exploration: self.exploration.unwrap_or(match selection {
                Selection::Ucb1 => PAPER_UCT_C,
                Selection::Ucb1Tuned => 1.0,
            }),
            selection,
            expand_visits: self.expand_visits,
            max_nodes: self.max_nodes,
            final_move: crate::search::tree::FinalMove::Robust,
            solver: true,
        }
    }
}

/// The search kept between moves.
enum TronSearch {
    Sequential(Tree<Sequentialized<TronState>>),
    Decoupled(SimSearch<TronState>),
}

/// Rebuilds the position from the engine's field each round, answers forced moves at
/// once, fills space once the riders are separated, and otherwise searches.
pub struct TronPlayer {
    field: Option<Vec<Token>>,
    search: Option<TronSearch>,
    /// Kept for the whole game: its transposition table holds for every later position.
    alphabeta: Option<AlphaBeta<Sequentialized<TronState>>>,
    rng: FastRng,
    seed: u64,
    moves_made: u32,
}

impl TronPlayer {
    pub fn new(seed: u64) -> Self {
        TronPlayer {
            field: None,
            search: None,
            alphabeta: None,
            rng: FastRng::seed_from_u64(seed ^ 0x7f4a_7c15),
            seed,
            moves_made: 0,
        }
    }

    fn position(&self, settings: &Settings, config: &TronConfig) -> Result<TronState, String> {
        let field = self.field.as_deref().ok_or("no field received yet")?;
        let (width, height) = match (settings.field_width, settings.field_height) {
            (Some(w), Some(h)) => (w as usize, h as usize),
            _ => square_side(field.len())
                .ok_or("no field_width/field_height and the field is not square")?,
        };
        let state = TronState::from_engine(width, height, field)?;
        Ok(state.with_policy(config.playout_policy()))
    }

    /// Searches with the configured variant, reusing the kept tree when the new position
    /// follows from its root by one joint move.
    fn mcts(
        &mut self,
        state: TronState,
        me: Player,
        config: &TronConfig,
        deadline: Instant,
    ) -> (Direction, String) {
        let limits = Limits {
            deadline: Some(deadline),
            max_iterations: None,
        };
        let seed = self.seed.wrapping_add(self.moves_made as u64);
        match config.sim_config() {
            Some(sim_config) => {
                let reused = match &mut self.search {
                    Some(TronSearch::Decoupled(search)) => {
                        joint_move_between(search.root(), &state)
                            .is_some_and(|(m0, m1)| search.advance(m0, m1, &state))
                    }
                    _ => false,
                };
                if !reused {
                    let search =
                        SimSearch::new(state.clone(), sim_config, FastRng::seed_from_u64(seed));
                    self.search = Some(TronSearch::Decoupled(search));
                }
                let Some(TronSearch::Decoupled(search)) = &mut self.search else {
                    unreachable!()
                };
                let stats = search.search(limits);
                let direction = search.best_move(me, &mut self.rng).unwrap_or(Direction::Up);
                let mine = search.root_actions(me);
                let chosen = mine.iter().find(|a| a.mv == direction);
                let how = format!(
                    "variant={:?} iterations={} nodes={} value={:.3} visits={} reused={}",
                    config.variant,
                    stats.iterations,
                    stats.nodes,
                    chosen.map_or(0.5, |a| a.mean),
                    chosen.map_or(0, |a| a.visits),
                    reused
                );
                (direction, how)
            }
            None => {
                let root = Sequentialized::new(state, me);
                let reused = match &mut self.search {
                    Some(TronSearch::Sequential(tree)) => {
                        moves_between(tree.root_state(), &root, 2)
                            .is_some_and(|path| tree.advance(&path, root.clone()))
                    }
                    _ => false,
                };
                if !reused {
                    self.search = Some(TronSearch::Sequential(Tree::new(
                        root,
                        config.tree_config(),
                        seed,
                    )));
                }
                let Some(TronSearch::Sequential(tree)) = &mut self.search else {
                    unreachable!()
                };
                let stats = tree.search(limits);
                let chosen = tree.best_move();
                let how = format!(
                    "variant={:?} iterations={} nodes={} value={:.3} visits={} proof={:?} reused={}",
                    config.variant,
                    stats.iterations,
                    stats.nodes,
                    chosen.map_or(0.5, |c| c.value),
                    chosen.map_or(0, |c| c.visits),
                    chosen.map_or(Proof::Unknown, |c| c.proof),
                    reused
                );
                (chosen.map_or(Direction::Up, |c| c.mv), how)
            }
        }
    }
}

impl TronPlayer {
    /// Alpha-beta until the deadline; the log tells depth, nodes, score and expected line.
    fn alphabeta(
        &mut self,
        state: TronState,
        me: Player,
        deadline: Instant,
    ) -> (Direction, String) {
        let search = self
            .alphabeta
            .get_or_insert_with(|| AlphaBeta::new(AlphaBetaConfig::default()));
        let limits = Limits {
            deadline: Some(deadline),
            max_iterations: None,
        };
        let result = search.search(&Sequentialized::new(state, me), limits);
        let how = format!(
            "search=alphabeta depth={} nodes={} score={} line={:?}",
            result.depth, result.nodes, result.score, result.line
        );
        (result.best.unwrap_or(Direction::Up), how)
    }
}

impl GamePlayer for TronPlayer {
    fn update(&mut self, update: GameUpdate) {
        match update {
            GameUpdate::Field(tokens) => self.field = Some(tokens),
            GameUpdate::Round(_) | GameUpdate::Move(_) => {}
            GameUpdate::Macroboard(_) => warn!("a macroboard in Light Riders ignored"),
            GameUpdate::Unknown { key, value } => {
                info!("unknown game update ignored: {key} {value}")
            }
        }
    }

    fn act(
        &mut self,
        bank_ms: Option<u64>,
        received: Instant,
        settings: &Settings,
        config: &Config,
    ) -> String {
        let tron = &config.tron;
        let state = match self.position(settings, tron) {
            Ok(state) => state,
            Err(err) => {
                error!("invalid position from the engine: {err}");
                return self.recover();
            }
        };
        let me: Player = match settings.your_botid {
            Some(id @ 0..=1) => id,
            other => {
                warn!("your_botid {other:?} is not 0 or 1; playing as player 0");
                0
            }
        };
        self.moves_made += 1;
        let safe = state.safe_moves(me);
        let cells = (state.width() * state.height()) as u32;
        let tc = config.time_control(
            settings,
            |bank, per_move| TimeControl::tron(bank, per_move, cells),
            200,
        );
        let bank = tc.bank_or_refill(bank_ms);
        let budget = timeman::budget(&tc, bank, self.moves_made, safe.len());
        let deadline = received + Duration::from_millis(budget.target_ms);

        let (answer, how) = if safe.len() <= 1 {
            self.search = None;
            // Boxed in: every move crashes, and a reversal would be an illegal answer,
            // so say `pass` (the engine keeps the current direction).
            let answer = safe
                .iter()
                .next()
                .map_or(TronAnswer::Pass, Direction::to_answer);
            (answer, "forced".to_string())
        } else if tron.endgame && space::separated(&state) {
            self.search = None;
            let fill = endgame::fill_longest(
                &state,
                me,
                FillBudget {
                    nodes: u64::MAX,
                    deadline: Some(deadline),
                },
            );
            let how = format!(
                "fill length={} exact={} nodes={}",
                fill.length, fill.exact, fill.nodes
            );
            (
                fill.first.map_or(TronAnswer::Pass, Direction::to_answer),
                how,
            )
        } else if tron.search == TronSearchKind::AlphaBeta {
            let (direction, how) = self.alphabeta(state, me, deadline);
            (direction.to_answer(), how)
        } else {
            let (direction, how) = self.mcts(state, me, tron, deadline);
            (direction.to_answer(), how)
        };
        info!(
            "move={} timebank={} budget={} elapsed={} chosen={} {}",
            self.moves_made,
            bank,
            budget.target_ms,
            received.elapsed().as_millis(),
            answer,
            how
        );
        answer.to_string()
    }

    /// An answer without a search, after an invalid position or a failed search: a move
    /// that does not crash at once if the field shows one, else `pass`. The kept tree is dropped.
    fn recover(&mut self) -> String {
        self.search = None;
        let safe = self.field.as_deref().and_then(|field| {
            let (w, h) = square_side(field.len())?;
            let state = TronState::from_engine(w, h, field).ok()?;
            // Without settings we cannot tell which rider is ours: take a move safe for both if any.
            let both = state
                .safe_moves(0)
                .iter()
                .find(|&d| state.safe_moves(1).contains(d));
            both.or_else(|| state.safe_moves(0).iter().next())
        });
        safe.map_or(TronAnswer::Pass, Direction::to_answer)
            .to_string()
    }
}

/// The side of a square field of `cells` values.
fn square_side(cells: usize) -> Option<(usize, usize)> {
    let side = (cells as f64).sqrt().round() as usize;
    (side > 0 && side * side == cells).then_some((side, side))
}

/// The joint move that turns `from` into `to`, if one does.
fn joint_move_between(from: &TronState, to: &TronState) -> Option<(Direction, Direction)> {
    Direction::ALL
        .iter()
        .flat_map(|&d0| Direction::ALL.iter().map(move |&d1| (d0, d1)))
        .find(|&(d0, d1)| {
            let mut next = from.clone();
            next.step(d0, d1);
            &next == to
        })
}
