//! CodinGame UTTT's lines: `opponentRow opponentCol` (`-1 -1` before the first move of the
//! game), `validActionCount`, then that many `row col` lines; the answer is `row col`.

use super::Move;
use crate::protocol::codingame::{parse_exactly, LineError};

/// A `ROW COL` line as a UTTT move; an error if it is not two integers on the board.
pub fn parse_move(line: &str, what: &'static str) -> Result<Move, LineError> {
    let numbers = parse_exactly(line, 2, what)?;
    Move::from_row_col(numbers[0], numbers[1]).ok_or(LineError::OffBoard {
        what,
        x: numbers[0],
        y: numbers[1],
        board: "board",
    })
}

/// A UTTT move as CodinGame writes it: `ROW COL`.
pub fn format_move(mv: Move) -> String {
    let (column, row) = mv.xy();
    format!("{row} {column}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_row_then_column_on_the_whole_grid() {
        let mv = parse_move("1 5", "a move").unwrap();
        assert_eq!(mv, Move::from_xy(5, 1).unwrap());
        assert_eq!(format_move(mv), "1 5");
        let err = parse_move("9 0", "a move").unwrap_err();
        assert_eq!(err.to_string(), "a move: 9 0 is off the board");
        assert!(parse_move("-1 -1", "a move").is_err());
    }
}
