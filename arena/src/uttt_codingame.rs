//! One game of CodinGame's Ultimate Tic-Tac-Toe, refereed as `CodinGame/game-tictactoe`
//! does (see `protocol/codingame/README.md`): each turn the player to move gets the opponent's
//! last move as `row col` (`-1 -1` before the first move), the number of valid actions
//! and each as `row col`, and answers `row col` within the turn's time (the first turn's
//! for its first answer). A late, unparsable or illegal answer, or a crash, loses at once.
//! A game with no line of won boards goes to the player who won more of them.

use super::game::{Asked, GameRecord, GameSetup};
use super::openings::Opening;
use super::timebank::Timebank;
use mctsbot::game::{Outcome, Player};
use mctsbot::search::Game;
use mctsbot::uttt::codingame::format_move;
use mctsbot::uttt::{Board, EndRule, Move};
use std::time::Instant;

/// The turn's lines for the player to move in `board`, after the opponent's `last` move.
pub fn turn_lines(board: &Board, last: Option<Move>) -> Vec<String> {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let mut lines = vec![last.map_or_else(|| "-1 -1".to_string(), format_move)];
    lines.push(moves.len().to_string());
    lines.extend(moves.into_iter().map(format_move));
    lines
}

/// Why a finished game ended, for the record.
fn reason(board: &Board, setup: &GameSetup, outcome: Outcome) -> (Option<Player>, String) {
    match outcome {
        Outcome::Draw => (None, "board drawn (as many won boards each)".into()),
        Outcome::Win(p) if board.has_line(p) => {
            (Some(p), format!("{} won the board", setup.label(p)))
        }
        Outcome::Win(p) => (Some(p), format!("{} won more boards", setup.label(p))),
    }
}

/// Plays one game between the setup's bots.
pub fn play(setup: &GameSetup) -> GameRecord {
    let started = Instant::now();
    let opts = setup.opts;
    let mut seats = setup.seats();
    let mut board = Board::with_end_rule(EndRule::MoreBoards);
    let mut last = None;
    let mut answered = [false; 2];
    let mut line = Vec::new();
    let (winner, reason) = loop {
        if let Some(outcome) = board.outcome() {
            break reason(&board, setup, outcome);
        }
        let p: Player = board.to_move();
        let seat = &mut seats[p as usize];
        let clock = setup.clock(p as usize);
        let turn_ms = if answered[p as usize] {
            clock.time_per_move
        } else {
            clock.timebank
        };
        answered[p as usize] = true;
        seat.bank = Timebank::new(turn_ms, 0);
        let sent = seat.request_lines(&turn_lines(&board, last));
        let chosen = match seat.answer(sent) {
            Asked::Answer(text) => {
                let mv = parse_answer(&text).filter(|&mv| board.is_legal(mv));
                if mv.is_none() {
                    seat.stats.illegal += 1;
                    seat.note("illegal or unparsable answer");
                }
                mv
            }
            Asked::Fault | Asked::Crashed => None,
        };
        let Some(mv) = chosen else {
            let why = seat.fault("answered an illegal move");
            break (Some(1 - p), format!("{} {why}", setup.label(p)));
        };
        board.play(mv);
        line.push(mv);
        last = Some(mv);
        if opts.watch {
            eprintln!(
                "game {} ply {}: {} plays {}\n{}",
                setup.index,
                board.ply(),
                setup.label(p),
                format_move(mv),
                board.render()
            );
        }
    };
    GameRecord {
        line: Opening::Uttt(line).text(),
        ..setup.finish(seats, winner, board.ply(), reason, started)
    }
}

/// An answer as CodinGame's referee reads it (`Player.getAction` of
/// `CodinGame/game-tictactoe`: the line split at single spaces, the first two words
/// parsed as integers, row then column): anything after them is ignored, since bots
/// print a message there.
pub fn parse_answer(text: &str) -> Option<Move> {
    let mut words = text.split(' ');
    let row = words.next()?.parse().ok()?;
    let column = words.next()?.parse().ok()?;
    Move::from_row_col(row, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_the_referee_reads_them() {
        let mv = Move::from_row_col(5, 3);
        assert_eq!(parse_answer("5 3"), mv);
        // A message after the move, as bots print one.
        assert_eq!(parse_answer("5 3 0.4285 683392"), mv);
        assert_eq!(parse_answer("5 3 "), mv);
        assert_eq!(parse_answer("+5 3"), mv);
        // Java's split(" ") gives an empty word for a leading or a double space.
        for bad in [
            "", "5", " 5 3", "5  3", "5,3", "a b", "9 0", "-1 -1", "5 3.0",
        ] {
            assert_eq!(parse_answer(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_turn_names_the_last_move_and_every_valid_action_as_row_col() {
        let board = Board::with_end_rule(EndRule::MoreBoards);
        let lines = turn_lines(&board, None);
        assert_eq!(lines[0], "-1 -1");
        assert_eq!(lines[1], "81");
        assert_eq!(lines.len(), 2 + 81);
        let mut board = board;
        let mv = Move::from_xy(5, 1).unwrap(); // column 5, row 1
        board.play(mv);
        let lines = turn_lines(&board, Some(mv));
        assert_eq!(lines[0], "1 5");
        // Sent to micro board (row 1 % 3, column 5 % 3) = (1, 2): rows 3..6, columns 6..9.
        assert_eq!(lines[1], "9");
        assert_eq!(lines[2], "3 6");
    }
}
