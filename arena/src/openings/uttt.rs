//! UTTT lines: random openings of legal moves, and a written line parsed and checked.

use mctsbot::search::{FastRng, Game};
use mctsbot::uttt::{Board, EndRule, Move};
use rand::RngCore;

/// `plies` random legal UTTT moves; fewer if the game would end (it never does in the
/// first 16 plies).
pub(super) fn random_uttt(plies: u32, mut rng: FastRng) -> Vec<Move> {
    let mut board = Board::new();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        board.legal_moves(&mut moves);
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let mut next = board;
        next.play(mv);
        if next.outcome().is_some() {
            break;
        }
        board = next;
        played.push(mv);
    }
    played
}

/// One ply as lines write it: `column,row`.
fn parse_ply(word: &str) -> Option<Move> {
    let (c, r) = word.split_once(',')?;
    Move::from_xy(c.parse().ok()?, r.parse().ok()?)
}

/// A recorded game's UTTT line (`games.jsonl`'s `line`): `column,row` words, each legal in
/// turn under `rule`, the game open before each (its last ply may end it).
pub fn parse_game_line(line: &str, rule: EndRule) -> Result<Vec<Move>, String> {
    let mut board = Board::with_end_rule(rule);
    let mut moves = Vec::new();
    for (k, word) in line.split_whitespace().enumerate() {
        let mv = parse_ply(word).ok_or(format!("ply {}: {word:?} is not column,row", k + 1))?;
        if board.outcome().is_some() {
            return Err(format!("ply {}: {word} follows the end of the game", k + 1));
        }
        if !board.is_legal(mv) {
            return Err(format!("ply {}: {word} is not legal there", k + 1));
        }
        board.play_move(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Parses and checks a UTTT line: legal moves that leave the game open.
pub fn parse_uttt(line: &str) -> Result<Vec<Move>, String> {
    let mut board = Board::new();
    let mut played = Vec::new();
    for word in line.split_whitespace() {
        let mv = parse_ply(word).ok_or(format!("opening {line:?}: {word:?} is not column,row"))?;
        if !board.is_legal(mv) {
            return Err(format!("opening {line:?}: {word} is not legal there"));
        }
        board.play(mv);
        if board.outcome().is_some() {
            return Err(format!("opening {line:?}: the game is over after {word}"));
        }
        played.push(mv);
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::Opening;

    #[test]
    fn uttt_lines_are_parsed_and_checked() {
        let moves = parse_uttt("4,4 3,3").unwrap();
        assert_eq!(Opening::Uttt(moves).text(), "4,4 3,3");
        // After 4,4 (the centre of the centre board) the next move is in the centre board.
        assert!(parse_uttt("4,4 0,0").unwrap_err().contains("not legal"));
        assert!(parse_uttt("4;4").unwrap_err().contains("column,row"));
        assert!(parse_uttt("9,0").is_err());
    }
}
