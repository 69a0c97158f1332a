//! Self-play game records: one game per line, the format `uttt-selfplay` writes and
//! `uttt-train` reads (documented in `tune/README.md`):
//!
//! ```text
//! RULE RESULT OPENING MOVE MOVE ... ; VALUE VALUE ...
//! ```
//! - RULE: `theaigames` (a lineless game is a draw) or `codingame` (more boards wins);
//! - RESULT: the first player's result, `1`, `0.5` or `0`;
//! - OPENING: how many of the moves were random opening plies (not searched);
//! - MOVE: each move as `board * 9 + cell` (0..81), from the empty board;
//! - VALUE: for each searched move, the search's root value for the player who made it
//!   (0..1), in order.

use mctsbot::bot::uttt::searcher::{UtttPlay, UtttSearch, UTTT_SEARCH};
use mctsbot::game::{Outcome, Player};
use mctsbot::search::tree::{Tree, TreeConfig};
use mctsbot::search::{Game, Limits};
use mctsbot::uttt::{Board, EndRule, Move, Playout};

/// The teacher of the value network: the bot's default search (tactical prior on) with
/// contempt 0, so that a draw is worth one half to both sides whatever the opening.
pub const TEACHER: TreeConfig = TreeConfig {
    contempt: 0.0,
    ..UTTT_SEARCH
};

/// A teacher's tree rooted at `board`.
pub fn teacher_tree(board: Board, seed: u64) -> Tree<Board, Playout> {
    Tree::new(board, TEACHER, UtttPlay::default().playout(false), seed)
}

/// A self-play teacher's search rooted at `board`: [`TEACHER`] with leaves valued by
/// play-outs (`play.network` none) or with the embedded network's share (the next
/// generation's data from the network search, as `--uttt-eval` builds it in the bot),
/// or `play.search`'s other searches.
pub fn teacher_search(board: Board, play: &UtttPlay, seed: u64) -> UtttSearch {
    UtttSearch::new(TEACHER, play, 1, board, seed)
}

/// The teacher's value of an unfinished `board` for the player to move after a fresh
/// search of `iterations`: the best move's mean (exact when proven).
pub fn teacher_value(board: Board, iterations: u64, seed: u64) -> f32 {
    let mut tree = teacher_tree(board, seed);
    tree.search(Limits::iterations(iterations));
    tree.best_move()
        .expect("an unfinished game has a move")
        .value
}

/// One self-played game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub rule: EndRule,
    /// The first player's result: 1, 0.5 or 0.
    pub result0: f32,
    pub opening_plies: usize,
    pub moves: Vec<Move>,
    /// The root value of each searched move, for its mover.
    pub values: Vec<f32>,
}

/// A training position: the board before a searched move, the search's value and the
/// game's result, both for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub board: Board,
    pub value: f32,
    pub result: f32,
}

/// An end rule's name in the records and probe files: `theaigames` (a lineless game is
/// a draw) or `codingame` (more boards wins).
pub fn rule_name(rule: EndRule) -> &'static str {
    match rule {
        EndRule::Draw => "theaigames",
        EndRule::MoreBoards => "codingame",
    }
}

/// The end rule [`rule_name`] names, if any.
pub fn rule_by_name(name: &str) -> Option<EndRule> {
    [EndRule::Draw, EndRule::MoreBoards]
        .into_iter()
        .find(|&rule| rule_name(rule) == name)
}

impl GameRecord {
    pub fn to_line(&self) -> String {
        let rule = rule_name(self.rule);
        let moves: Vec<String> = self.moves.iter().map(|m| m.0.to_string()).collect();
        let values: Vec<String> = self.values.iter().map(|v| format!("{v:.3}")).collect();
        format!(
            "{rule} {} {} {} ; {}",
            self.result0,
            self.opening_plies,
            moves.join(" "),
            values.join(" ")
        )
    }

    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let err = |what: &str| format!("{what} in game record {:?}", &line[..line.len().min(60)]);
        let (head, values) = line.split_once(';').ok_or_else(|| err("no ';'"))?;
        let mut words = head.split_whitespace();
        let rule = words
            .next()
            .and_then(rule_by_name)
            .ok_or_else(|| err("no rule"))?;
        let result0: f32 = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| err("no result"))?;
        let opening_plies: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| err("no opening length"))?;
        let moves: Vec<Move> = words
            .map(|w| w.parse::<u8>().ok().filter(|&m| m < 81).map(Move))
            .collect::<Option<_>>()
            .ok_or_else(|| err("a bad move"))?;
        let values: Vec<f32> = values
            .split_whitespace()
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()
            .ok_or_else(|| err("a bad value"))?;
        if values.len() + opening_plies != moves.len() {
            return Err(err("one value per searched move expected"));
        }
        Ok(GameRecord {
            rule,
            result0,
            opening_plies,
            moves,
            values,
        })
    }

    /// The positions before each searched move, replayed from the empty board; an error
    /// if a move is illegal or the recorded result is not the game's.
    pub fn samples(&self) -> Result<Vec<Sample>, String> {
        let mut board = Board::with_end_rule(self.rule);
        let mut samples = Vec::with_capacity(self.values.len());
        for (ply, &mv) in self.moves.iter().enumerate() {
            if !board.is_legal(mv) {
                return Err(format!("illegal move {} at ply {ply}", mv.0));
            }
            if ply >= self.opening_plies {
                let mover: Player = board.turn();
                let result = if mover == 0 {
                    self.result0
                } else {
                    1.0 - self.result0
                };
                samples.push(Sample {
                    board,
                    value: self.values[ply - self.opening_plies],
                    result,
                });
            }
            board.play(mv);
        }
        match board.outcome() {
            Some(outcome) if outcome.reward_for(0) == self.result0 => Ok(samples),
            Some(_) => Err("the recorded result is not the game's".into()),
            None => Err("the game is not finished".into()),
        }
    }
}

/// The first player's result of a finished game.
pub fn result0(outcome: Outcome) -> f32 {
    outcome.reward_for(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_survives_its_line_and_replays_to_its_result() {
        // X takes the top row of boards 0, 1 and 2... by a legal game: play random moves.
        let mut board = Board::with_end_rule(EndRule::MoreBoards);
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        let mut k = 0;
        while board.outcome().is_none() {
            legal.clear();
            board.legal_moves(&mut legal);
            let mv = legal[(k * 7 + 3) % legal.len()];
            k += 1;
            board.play(mv);
            moves.push(mv);
        }
        let record = GameRecord {
            rule: EndRule::MoreBoards,
            result0: result0(board.outcome().unwrap()),
            opening_plies: 2,
            values: vec![0.5; moves.len() - 2],
            moves,
        };
        let parsed = GameRecord::parse(&record.to_line()).unwrap();
        assert_eq!(parsed, record);
        let samples = parsed.samples().unwrap();
        assert_eq!(samples.len(), record.moves.len() - 2);
        let mut wrong = record.clone();
        wrong.result0 = 1.0 - wrong.result0;
        if wrong.result0 != record.result0 {
            assert!(wrong.samples().is_err());
        }
        assert!(
            GameRecord::parse("codingame 1 0 3 4 ; 0.5").is_err(),
            "values must match"
        );
    }
}
