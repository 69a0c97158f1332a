//! CodinGame's line protocol (written down in `protocol/codingame/README.md`): each turn's input
//! is lines of integers, and the answer is one line.
//!
//! Ultimate Tic-Tac-Toe ("Tic-Tac-Toe", the ultimate league): `opponentRow opponentCol`
//! (`-1 -1` before the first move of the game), `validActionCount`, then that many
//! `row col` lines; the answer is `row col`.

use crate::uttt::Move;

/// The integers of one line, separated by spaces or tabs; an error names the line.
///
/// `str::parse` rather than nom: this module goes into the one-file CodinGame build,
/// which compiles without crates, and a line of integers needs no grammar.
pub fn parse_integers(line: &str) -> Result<Vec<i32>, String> {
    let trimmed = line.trim_end_matches(['\r', '\n']);
    let numbers: Result<Vec<i32>, _> = trimmed
        .split([' ', '\t'])
        .filter(|word| !word.is_empty())
        .map(str::parse)
        .collect();
    match numbers {
        Ok(numbers) if !numbers.is_empty() => Ok(numbers),
        _ => Err(format!(
            "expected integers separated by spaces, got {trimmed:?}"
        )),
    }
}

/// Exactly `count` integers, or an error that says what `what` should have been.
pub fn parse_exactly(line: &str, count: usize, what: &str) -> Result<Vec<i32>, String> {
    let numbers = parse_integers(line).map_err(|e| format!("{what}: {e}"))?;
    if numbers.len() == count {
        Ok(numbers)
    } else {
        Err(format!(
            "{what}: expected {count} integers, got {} in {:?}",
            numbers.len(),
            line.trim_end()
        ))
    }
}

/// A `ROW COL` line as a UTTT move; an error if it is not two integers on the board.
pub fn parse_move(line: &str, what: &str) -> Result<Move, String> {
    let numbers = parse_exactly(line, 2, what)?;
    Move::from_row_col(numbers[0], numbers[1])
        .ok_or_else(|| format!("{what}: {} {} is off the board", numbers[0], numbers[1]))
}

/// A UTTT move as CodinGame writes it: `ROW COL`.
pub fn format_move(mv: Move) -> String {
    let (column, row) = mv.xy();
    format!("{row} {column}")
}

/// Whether `line` looks like the first line of a CodinGame UTTT game: two integers
/// (the engines of TheAIGames and riddles.io start every line with a word).
pub fn looks_like_codingame(line: &str) -> bool {
    parse_integers(line).is_ok_and(|numbers| numbers.len() == 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_integers_parse_and_anything_else_is_an_error() {
        assert_eq!(parse_integers("-1 -1"), Ok(vec![-1, -1]));
        assert_eq!(parse_integers("4 5\r\n"), Ok(vec![4, 5]));
        assert_eq!(parse_integers("81"), Ok(vec![81]));
        for bad in ["", "a b", "1,2", "1 2x", "--1 2", "settings timebank 10000"] {
            assert!(parse_integers(bad).is_err(), "{bad:?}");
        }
        assert!(parse_exactly("1 2 3", 2, "a move")
            .unwrap_err()
            .contains("a move"));
        let mv = parse_move("1 5", "a move").unwrap();
        assert_eq!(mv, Move::from_xy(5, 1).unwrap());
        assert_eq!(format_move(mv), "1 5");
        assert!(parse_move("9 0", "a move")
            .unwrap_err()
            .contains("off the board"));
        assert!(parse_move("-1 -1", "a move").is_err());
    }

    #[test]
    fn codingame_is_recognised_by_its_first_line() {
        assert!(looks_like_codingame("-1 -1\n"));
        assert!(looks_like_codingame("3 4"));
        assert!(!looks_like_codingame("settings timebank 10000"));
        assert!(!looks_like_codingame("81"));
    }
}
