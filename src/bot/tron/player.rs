//! The Light Riders player: engine fields in, a direction out.

use super::options::{TronConfig, TronSearchKind};
use super::searcher::TronSearcher;
use crate::bot::player::{ponder_slice, ActRequest, GamePlayer, Settings};
use crate::bot::Config;
use crate::game::Player;
use crate::protocol::{GameUpdate, Token};
use crate::search::early_stop::think_stopping_early;
use crate::search::{think, FastRng, Limits};
use crate::timeman::{self, TimeControl, TRON_TIME_PER_MOVE_MS};
use crate::tron::endgame;
use crate::tron::TronAnswer;
use crate::tron::{space, Direction, PositionError, TronState};
use log::{error, info, warn};
use rand::SeedableRng;
use std::time::Duration;

/// How the player answers a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// At most one safe move: that move (or `pass` when there is none), unsearched.
    Forced(Option<Direction>),
    /// Separated riders: the space filler ([`endgame::fill_longest`]).
    Fill,
    /// The configured search ([`TronSearcher`]).
    Search,
}

/// How `me` answers `state` under `config`: what the player does each round, and what
/// `arena replay` re-creates.
pub fn plan(config: &TronConfig, state: &TronState, me: Player) -> Plan {
    let safe = state.safe_moves(me);
    if safe.len() <= 1 {
        Plan::Forced(safe.iter().next())
    } else if config.endgame && space::separated(state) {
        Plan::Fill
    } else {
        Plan::Search
    }
}

/// `budget`, or while the heads are side by side `--tron-side-by-side` of the usable
/// `bank` (never less than `budget`'s hard limit) as target and hard limit, with no
/// early answer.
pub fn side_by_side_budget(
    config: &TronConfig,
    state: &TronState,
    clock: &TimeControl,
    bank: u64,
    budget: timeman::Budget,
) -> timeman::Budget {
    let ((x0, y0), (x1, y1)) = (state.head(0), state.head(1));
    if config.side_by_side <= 0.0 || x0.abs_diff(x1) + y0.abs_diff(y1) != 1 || budget.hard_ms == 0 {
        return budget;
    }
    let usable = clock.spendable_ms(bank);
    let share = (usable as f64 * f64::from(config.side_by_side)) as u64;
    timeman::Budget::fixed(share.max(budget.hard_ms).min(usable))
}

/// Rebuilds the position from the engine's field each round, answers forced moves at
/// once, fills space once the riders are separated, and otherwise searches.
pub struct TronPlayer {
    field: Option<Vec<Token>>,
    searcher: Option<TronSearcher>,
    rng: FastRng,
    seed: u64,
    moves_made: u32,
    /// With `--ponder`: the MCTS tree of the round just answered, searched on while the
    /// opponent thinks (the next round's position is one of its children).
    pondering: bool,
    /// Iterations searched while the opponent thought, since our last answer.
    pondered: u64,
}

impl TronPlayer {
    pub fn new(seed: u64) -> Self {
        TronPlayer {
            field: None,
            searcher: None,
            rng: FastRng::seed_from_u64(seed ^ 0x7f4a_7c15),
            seed,
            moves_made: 0,
            pondering: false,
            pondered: 0,
        }
    }

    fn position(&self, settings: &Settings) -> Result<TronState, PositionError> {
        let field = self.field.as_deref().ok_or(PositionError::NoField)?;
        match (settings.field_width, settings.field_height) {
            (Some(w), Some(h)) => TronState::from_engine(w as usize, h as usize, field),
            _ => TronState::from_square_field(field),
        }
    }

    /// Searches with the configured variant until the budget's deadlines, reusing the
    /// kept tree when the new position follows from its root by one round. `None` when
    /// there was no time for one iteration.
    fn search(
        &mut self,
        state: TronState,
        me: Player,
        request: &ActRequest,
        budget: timeman::Budget,
    ) -> (Option<Direction>, String) {
        let config = &request.config.tron;
        let kind = config.search;
        let reused = self
            .searcher
            .as_mut()
            .is_some_and(|searcher| searcher.kind() == kind && searcher.reroot(&state));
        let seed = self.seed.wrapping_add(self.moves_made as u64);
        let searcher = match &mut self.searcher {
            Some(searcher) if reused => searcher,
            slot => slot.insert(TronSearcher::new(
                config,
                state,
                me,
                seed,
                request.config.common.threads,
            )),
        };
        let received = request.received;
        let (target, hard) = (budget.target_at(received), budget.hard_at(received));
        let stats = if config.early_stop > 0.0 {
            let earliest = budget.earliest_at(received);
            let share = config.early_stop;
            think_stopping_early(searcher, received, earliest, target, hard, share)
        } else {
            think(searcher, received, target, hard)
        };
        let chosen = searcher.best_move(&mut self.rng);
        let search = match kind {
            TronSearchKind::Mcts => format!("variant={:?}", config.variant),
            TronSearchKind::AlphaBeta => "search=alphabeta".to_string(),
        };
        let how = format!(
            "{search} iterations={} nodes={} {} reused={}",
            stats.iterations,
            stats.nodes,
            chosen
                .as_ref()
                .map_or("nothing searched".to_string(), |c| c.evidence.to_string()),
            reused
        );
        (chosen.map(|c| c.mv), how)
    }
}

impl GamePlayer for TronPlayer {
    fn update(&mut self, update: &GameUpdate) {
        if let GameUpdate::Field(tokens) = update {
            self.field = Some(tokens.clone());
        }
    }

    fn has_position(&self, settings: &Settings) -> bool {
        self.position(settings).is_ok()
    }

    /// The Light Riders clock: the game lasts about a quarter of the board's cells.
    fn time_control(&self, settings: &Settings, config: &Config) -> TimeControl {
        let (bank, per_move) = settings.timebank(TRON_TIME_PER_MOVE_MS);
        let cells = match self.position(settings) {
            Ok(state) => state.width() * state.height(),
            Err(_) => 16 * 16,
        };
        config
            .common
            .time_control(TimeControl::tron(bank, per_move, cells as u32))
    }

    fn act(&mut self, request: &ActRequest) -> String {
        let state = match self.position(request.settings) {
            Ok(state) => state,
            Err(err) => {
                error!("invalid position from the engine: {err}");
                return self.recover();
            }
        };
        let me: Player = match request.settings.your_botid {
            Some(id @ 0..=1) => id,
            other => {
                warn!("your_botid {other:?} is not 0 or 1; playing as player 0");
                0
            }
        };
        self.moves_made += 1;
        self.pondering = false;
        let safe = state.safe_moves(me);
        let clock = request.clock;
        let bank = clock.usable_bank(request.bank_ms);
        let budget = timeman::budget(clock, bank, self.moves_made, safe.len());
        let plan = plan(&request.config.tron, &state, me);
        // The side-by-side time is the search's: the filler of separated riders whose
        // heads touch keeps its own budget.
        let budget = match plan {
            Plan::Search => side_by_side_budget(&request.config.tron, &state, clock, bank, budget),
            _ => budget,
        };

        let (answer, how) = match plan {
            Plan::Forced(only) => {
                // Boxed in: every move crashes, and a reversal would be an illegal
                // answer, so say `pass` (the engine keeps the current direction).
                let answer = TronAnswer(only);
                (answer, "forced".to_string())
            }
            Plan::Fill => {
                self.searcher = None;
                let limits = Limits::until(budget.target_at(request.received));
                let fill = endgame::fill_longest(&state, me, limits);
                let how = format!(
                    "fill length={} exact={} nodes={}",
                    fill.length, fill.exact, fill.nodes
                );
                (TronAnswer(fill.first), how)
            }
            Plan::Search => {
                let (direction, how) = self.search(state, me, request, budget);
                self.pondering = request.config.common.ponder
                    && self.searcher.as_ref().map(TronSearcher::kind) == Some(TronSearchKind::Mcts);
                // Without time for one iteration, a move that does not crash at once.
                let direction = direction.or_else(|| safe.iter().next());
                (TronAnswer(direction), how)
            }
        };
        info!(
            "move={} timebank={} budget={} elapsed={} chosen={} {} pondered={}",
            self.moves_made,
            bank,
            budget.target_ms,
            request.received.elapsed().as_millis(),
            answer,
            how,
            self.pondered
        );
        self.pondered = 0;
        answer.to_string()
    }

    fn ponder(&mut self, slice: Duration) -> bool {
        let searcher = self.searcher.as_mut().filter(|_| self.pondering);
        ponder_slice(searcher, slice, &mut self.pondered)
    }

    /// An answer without a search, after an invalid position or a failed search: a move
    /// that does not crash at once if the field shows one, else `pass`. The kept tree is dropped.
    fn recover(&mut self) -> String {
        self.searcher = None;
        self.pondering = false;
        let safe = self.field.as_deref().and_then(|field| {
            let state = TronState::from_square_field(field).ok()?;
            // Without settings we cannot tell which rider is ours: take a move safe for both if any.
            let both = state
                .safe_moves(0)
                .iter()
                .find(|&d| state.safe_moves(1).contains(d));
            both.or_else(|| state.safe_moves(0).iter().next())
        });
        safe.map_or(TronAnswer(None), |d| TronAnswer(Some(d)))
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_is_forced_then_fill_then_search() {
        let config = TronConfig::default();
        let plan_of = |diagram: &str, config: &TronConfig| {
            plan(config, &TronState::from_diagram(diagram).unwrap(), 0)
        };
        assert_eq!(plan_of("0#..\n##.1", &config), Plan::Forced(None));
        assert_eq!(
            plan_of("0.#.\n####\n...1", &config),
            Plan::Forced(Some(Direction::Right))
        );
        // Separated with room to choose: the filler, unless the endgame is off.
        let separated = "...\n.0.\n###\n..1";
        assert_eq!(plan_of(separated, &config), Plan::Fill);
        let searched = TronConfig {
            endgame: false,
            ..config
        };
        assert_eq!(plan_of(separated, &searched), Plan::Search);
        assert_eq!(plan_of("....\n0...\n...1", &config), Plan::Search);
    }

    #[test]
    fn side_by_side_heads_get_a_share_of_the_bank_and_no_early_answer() {
        let clock = TimeControl::tron(10_000, 200, 256);
        let budget = timeman::budget(&clock, 8_000, 12, 3);
        let side_by_side = TronState::from_diagram(".....\n.01..\n.....").unwrap();
        let apart = TronState::from_diagram(".....\n.0.1.\n.....").unwrap();
        let config = TronConfig {
            side_by_side: 0.25,
            ..TronConfig::default()
        };
        let long = side_by_side_budget(&config, &side_by_side, &clock, 8_000, budget);
        let quarter = (8_000 - clock.safety_margin_ms) / 4;
        assert!(quarter > budget.hard_ms);
        assert_eq!(
            long,
            timeman::Budget {
                target_ms: quarter,
                hard_ms: quarter,
                earliest_ms: quarter,
            }
        );
        // Heads apart, the option off, or a forced move: the budget as it was.
        assert_eq!(
            side_by_side_budget(&config, &apart, &clock, 8_000, budget),
            budget
        );
        let off = TronConfig {
            side_by_side: 0.0,
            ..TronConfig::default()
        };
        assert_eq!(
            side_by_side_budget(&off, &side_by_side, &clock, 8_000, budget),
            budget
        );
        let forced = timeman::Budget::IMMEDIATE;
        assert_eq!(
            side_by_side_budget(&config, &side_by_side, &clock, 8_000, forced),
            forced
        );
        // A low bank: never less than the move's own hard limit.
        let low = timeman::budget(&clock, 600, 40, 3);
        assert_eq!(
            side_by_side_budget(&config, &side_by_side, &clock, 600, low).hard_ms,
            low.hard_ms
        );
    }
}
