//! The Ultimate Tic-Tac-Toe player: engine field and macroboard in, `place_move` out.

use super::{think, Config, GamePlayer, Settings};
use crate::protocol::{format_place_move, Dialect, GameUpdate, Token};
use crate::search::tree::{Proof, Tree};
use crate::search::{moves_between, Game};
use crate::timeman::{self, Budget, TimeControl};
use crate::uttt::{detect_dialect, empty_token, Board, Move, RandomPlayout};
use log::{error, info};
use std::time::Instant;

/// The engine's field and macroboard are the truth each turn; the tree of the last
/// search is kept and reused when the new position follows from its root.
pub struct UtttPlayer {
    field: Option<Vec<Token>>,
    macroboard: Option<Vec<Token>>,
    tree: Option<Tree<Board, RandomPlayout>>,
    moves_made: u32,
    seed: u64,
}

impl UtttPlayer {
    pub fn new(seed: u64) -> Self {
        UtttPlayer {
            field: None,
            macroboard: None,
            tree: None,
            moves_made: 0,
            seed,
        }
    }

    /// The position the engine last described, if it is a valid one.
    fn position(&self, settings: &Settings) -> Result<Board, String> {
        let field = self.field.as_deref().ok_or("no field received yet")?;
        let macroboard = self
            .macroboard
            .as_deref()
            .ok_or("no macroboard received yet")?;
        let dialect = settings
            .your_botid
            .and_then(Dialect::from_bot_id)
            .unwrap_or_else(|| detect_dialect(field, macroboard));
        Board::from_engine(field, macroboard, dialect)
    }

    /// Moves the kept tree to `board` if `board` follows from its root in at most two
    /// plies (our answer and the reply); otherwise drops it. Returns whether it was kept.
    fn reuse_tree(&mut self, board: Board) -> bool {
        let Some(tree) = &mut self.tree else {
            return false;
        };
        match moves_between(tree.root_state(), &board, 2) {
            Some(path) => tree.advance(&path, board),
            None => {
                self.tree = None;
                false
            }
        }
    }
}

impl GamePlayer for UtttPlayer {
    fn update(&mut self, update: GameUpdate) {
        match update {
            GameUpdate::Field(tokens) => self.field = Some(tokens),
            GameUpdate::Macroboard(tokens) => self.macroboard = Some(tokens),
            GameUpdate::Round(_) | GameUpdate::Move(_) => {}
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
        let board = match self.position(settings) {
            Ok(board) => board,
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
        self.moves_made += 1;

        let tc = config.time_control(settings, TimeControl::uttt, 500);
        let bank = tc.bank_or_refill(bank_ms);
        let budget = timeman::budget(&tc, bank, self.moves_made, legal.len() as u32);

        let reused = self.reuse_tree(board);
        let tree = self
            .tree
            .get_or_insert_with(|| Tree::new(board, config.tree, RandomPlayout, self.seed));
        let stats = if budget == Budget::IMMEDIATE {
            Default::default()
        } else {
            think(tree, budget, received)
        };
        let chosen = tree.best_move();
        let mv = chosen.map_or(legal[0], |info| info.mv);
        let (x, y) = mv.xy();
        info!(
            "move={} timebank={} budget={} hard={} elapsed={} iterations={} playouts={} nodes={} \
             chosen={},{} value={:.3} visits={} proof={:?} reused={}",
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
        );
        format_place_move(x, y)
    }

    /// A legal answer without a search, after an invalid position or a failed search:
    /// the first empty cell on a board the macroboard marks playable (`-1`), else the
    /// first empty cell, else the centre. The kept tree is dropped.
    fn recover(&mut self) -> String {
        self.tree = None;
        let field = self.field.as_deref().unwrap_or_default();
        let macroboard = self.macroboard.as_deref().unwrap_or_default();
        let empty = empty_token(detect_dialect(field, macroboard));
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
