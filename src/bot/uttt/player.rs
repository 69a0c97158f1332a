//! The Ultimate Tic-Tac-Toe player: engine field and macroboard in, `place_move` out.

use super::searcher::{UtttSearch, UtttSearchKind};
use crate::bot::player::{ponder_slice, ActRequest, GamePlayer, Settings};
use crate::bot::Config;
use crate::protocol::{GameUpdate, Token};
use crate::search::tree::Proof;
use crate::search::{think, Game};
use crate::timeman::{self, Budget, TimeControl, UTTT_TIME_PER_MOVE_MS};
use crate::uttt::format_place_move;
use crate::uttt::Dialect;
use crate::uttt::{detect_dialect, empty_token, Board, Move, PositionError};
use log::{error, info, warn};
use std::time::Duration;

/// The UTTT search the options ask for, rooted at `board`.
pub fn new_search(config: &Config, board: Board, seed: u64) -> UtttSearch {
    UtttSearch::new(
        config.uttt.tree,
        &config.uttt.play,
        config.common.threads,
        board,
        seed,
    )
}

/// The engine's field and macroboard are the truth each turn; the tree of the last
/// search is kept and reused when the new position follows from its root.
pub struct UtttPlayer {
    field: Option<Vec<Token>>,
    macroboard: Option<Vec<Token>>,
    tree: Option<UtttSearch>,
    moves_made: u32,
    seed: u64,
    /// With `--ponder`: the tree is rooted at the position after our answer, to be
    /// searched while the opponent thinks.
    pondering: bool,
    /// Iterations searched while the opponent thought, since our last answer.
    pondered: u64,
    /// The position we last answered and our move: the engine asks again for the same
    /// position when our answer came late (TheAIGames asks once more), and a second
    /// search would make that answer late too, so the engine would take each answer for
    /// the next request's, one move out of step.
    last_answer: Option<(Board, Move)>,
}

impl UtttPlayer {
    pub fn new(seed: u64) -> Self {
        UtttPlayer {
            field: None,
            macroboard: None,
            tree: None,
            moves_made: 0,
            seed,
            pondering: false,
            pondered: 0,
            last_answer: None,
        }
    }

    /// The position the engine last described, if it is a valid one.
    fn position(&self, settings: &Settings) -> Result<Board, PositionError> {
        let field = self.field.as_deref().ok_or(PositionError::NoField)?;
        let macroboard = self
            .macroboard
            .as_deref()
            .ok_or(PositionError::NoMacroboard)?;
        let hint = settings.your_botid.and_then(Dialect::from_bot_id);
        let dialect = detect_dialect(field, macroboard, hint);
        Board::from_engine(field, macroboard, dialect)
    }
}

impl UtttPlayer {
    /// The usable timebank and this move's budget, as the search the options play spends
    /// its time; `moves`: the legal moves.
    fn budget(&self, request: &ActRequest, moves: u32) -> (u64, Budget) {
        let clock = request.clock;
        let bank = clock.usable_bank(request.bank_ms);
        let budget = match request.config.uttt.play.search {
            UtttSearchKind::Mcts | UtttSearchKind::MinimaxUct => {
                timeman::budget(clock, bank, self.moves_made, moves)
            }
            UtttSearchKind::AlphaBeta => {
                timeman::alphabeta_budget(clock, bank, self.moves_made, moves)
            }
        };
        (bank, budget)
    }

    /// After answering `mv` in `board`: pondering (when asked and the game goes on)
    /// searches the opponent's position, so the tree is rooted there now.
    fn root_for_pondering(&mut self, board: Board, mv: Move, ponder: bool) {
        let mut after = board;
        after.play(mv);
        self.pondering = ponder && after.outcome().is_none();
        if let Some(tree) = self.tree.as_mut().filter(|_| self.pondering) {
            tree.reroot(after);
        }
    }
}

impl GamePlayer for UtttPlayer {
    fn update(&mut self, update: &GameUpdate) {
        match update {
            GameUpdate::Field(tokens) => self.field = Some(tokens.clone()),
            GameUpdate::Macroboard(tokens) => self.macroboard = Some(tokens.clone()),
            _ => {}
        }
    }

    fn has_position(&self, settings: &Settings) -> bool {
        self.position(settings).is_ok()
    }

    fn time_control(&self, settings: &Settings, config: &Config) -> TimeControl {
        let (bank, per_move) = settings.timebank(UTTT_TIME_PER_MOVE_MS);
        config
            .common
            .time_control(TimeControl::uttt(bank, per_move))
    }

    fn act(&mut self, request: &ActRequest) -> String {
        let board = match self.position(request.settings) {
            Ok(board) => board.under(request.config.uttt.end_rule),
            Err(err) => {
                error!("invalid position from the engine: {err}");
                return self.recover();
            }
        };
        let mut legal = Vec::new();
        board.legal_moves(&mut legal);
        if legal.is_empty() {
            error!("asked to move in a finished position");
            return self.recover();
        }
        if let Some((_, mv)) = self.last_answer.filter(|&(answered, _)| answered == board) {
            let (x, y) = mv.xy();
            warn!(
                "asked again for the position just answered (our answer was late or lost): \
                 {x},{y} again, at once"
            );
            return format_place_move(x, y);
        }
        self.moves_made += 1;
        let (bank, budget) = self.budget(request, legal.len() as u32);

        let reused = match &mut self.tree {
            Some(tree) => tree.reroot(board),
            None => false,
        };
        let tree = self
            .tree
            .get_or_insert_with(|| new_search(request.config, board, self.seed));
        let received = request.received;
        let stats = if budget == Budget::IMMEDIATE {
            Default::default()
        } else {
            think(
                tree,
                received,
                budget.target_at(received),
                budget.hard_at(received),
            )
        };
        let chosen = tree.best_move();
        let mv = chosen.map_or(legal[0], |info| info.mv);
        let (x, y) = mv.xy();
        info!(
            "move={} timebank={} budget={} hard={} elapsed={} iterations={} playouts={} nodes={} \
             chosen={},{} value={:.3} visits={} proof={:?} reused={} pondered={}{}",
            self.moves_made,
            bank,
            budget.target_ms,
            budget.hard_ms,
            received.elapsed().as_millis(),
            stats.iterations,
            stats.playouts,
            stats.nodes,
            x,
            y,
            chosen.map_or(0.5, |c| c.value),
            chosen.map_or(0, |c| c.visits),
            chosen.map_or(Proof::Unknown, |c| c.proof),
            reused,
            self.pondered,
            tree.detail(),
        );
        self.pondered = 0;
        self.last_answer = Some((board, mv));
        self.root_for_pondering(board, mv, request.config.common.ponder);
        format_place_move(x, y)
    }

    fn ponder(&mut self, slice: Duration) -> bool {
        let tree = self.tree.as_mut().filter(|_| self.pondering);
        ponder_slice(tree, slice, &mut self.pondered)
    }

    /// A legal answer without a search, after an invalid position or a failed search:
    /// the first empty cell on a board the macroboard marks playable (`-1`), else the
    /// first empty cell, else the centre. The kept tree is dropped.
    fn recover(&mut self) -> String {
        self.tree = None;
        self.last_answer = None;
        self.pondering = false;
        let field = self.field.as_deref().unwrap_or_default();
        let macroboard = self.macroboard.as_deref().unwrap_or_default();
        let empty = empty_token(detect_dialect(field, macroboard, None));
        let cells = || {
            field
                .iter()
                .enumerate()
                .filter(|&(_, token)| *token == empty)
                .filter_map(|(index, _)| Move::from_field_index(index))
        };
        let playable = |m: &Move| macroboard.get(m.board() as usize) == Some(&Token::Number(-1));
        let mv = cells().find(playable).or_else(|| cells().next());
        let (x, y) = mv.map_or((4, 4), Move::xy);
        format_place_move(x, y)
    }
}
