//! CodinGame Tron Battle's lines: `N P` (riders, our seat), then one line `X0 Y0 X1 Y1` per
//! rider (its trail's first cell and its head; all `-1` once it is out); the answer is
//! `UP`, `DOWN`, `LEFT` or `RIGHT`.

use super::battle::{HEIGHT, WIDTH};
use super::direction::Direction;
use crate::protocol::codingame::{parse_exactly, parse_integers, LineError};
use std::fmt;

/// Why a Tron Battle line is not the one the turn needs. Its own type, not more of
/// [`LineError`], which the UTTT bundle takes too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TronLineError {
    Line(LineError),
    /// `N P`: riders or our seat out of range.
    Seats {
        riders: i32,
        seat: i32,
    },
    /// An answer that is no direction.
    NotADirection(String),
}

impl From<LineError> for TronLineError {
    fn from(e: LineError) -> Self {
        TronLineError::Line(e)
    }
}

impl fmt::Display for TronLineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TronLineError::Line(e) => write!(f, "{e}"),
            TronLineError::Seats { riders, seat } => {
                write!(f, "{riders} riders, seat {seat}: out of range")
            }
            TronLineError::NotADirection(word) => {
                write!(f, "expected UP, DOWN, LEFT or RIGHT, got {word:?}")
            }
        }
    }
}

impl std::error::Error for TronLineError {}

/// Whether the second line of a CodinGame game says Tron Battle: a rider's four
/// coordinates (UTTT's second line is one count).
pub fn looks_like_tron_battle(second_line: &str) -> bool {
    parse_integers(second_line).is_ok_and(|numbers| numbers.len() == 4)
}

/// A rider in a Tron Battle turn: its trail's first cell and its head, `None` once out.
pub type RiderLine = Option<((usize, usize), (usize, usize))>;

/// A rider's `X0 Y0 X1 Y1` line: `None` for `-1 -1 -1 -1` (out of the game).
pub fn parse_rider(line: &str) -> Result<RiderLine, LineError> {
    let n = parse_exactly(line, 4, "a rider")?;
    if n.iter().all(|&v| v == -1) {
        return Ok(None);
    }
    let cell = |x: i32, y: i32| {
        let on_grid = (0..WIDTH as i32).contains(&x) && (0..HEIGHT as i32).contains(&y);
        on_grid
            .then_some((x as usize, y as usize))
            .ok_or(LineError::OffBoard {
                what: "a rider",
                x,
                y,
                board: "30x20 grid",
            })
    };
    Ok(Some((cell(n[0], n[1])?, cell(n[2], n[3])?)))
}

/// A rider's line as the referee writes it.
pub fn format_rider(rider: RiderLine) -> String {
    match rider {
        Some(((x0, y0), (x1, y1))) => format!("{x0} {y0} {x1} {y1}"),
        None => "-1 -1 -1 -1".to_string(),
    }
}

/// A Tron Battle answer: `UP`, `DOWN`, `LEFT` or `RIGHT` (blanks around it tolerated).
pub fn parse_direction(line: &str) -> Result<Direction, TronLineError> {
    match line.trim() {
        "UP" => Ok(Direction::Up),
        "DOWN" => Ok(Direction::Down),
        "LEFT" => Ok(Direction::Left),
        "RIGHT" => Ok(Direction::Right),
        other => Err(TronLineError::NotADirection(other.to_string())),
    }
}

/// A direction as Tron Battle's answer.
pub fn format_direction(d: Direction) -> &'static str {
    match d {
        Direction::Up => "UP",
        Direction::Down => "DOWN",
        Direction::Left => "LEFT",
        Direction::Right => "RIGHT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tron_battle_lines_parse_and_print_back() {
        assert_eq!(parse_rider("1 2 3 2"), Ok(Some(((1, 2), (3, 2)))));
        assert_eq!(parse_rider("-1 -1 -1 -1\r\n"), Ok(None));
        for bad in ["1 2 3", "30 0 29 0", "0 20 0 19", "-1 0 0 0", "a b c d"] {
            assert!(parse_rider(bad).is_err(), "{bad:?}");
        }
        for rider in [Some(((0, 0), (29, 19))), None] {
            assert_eq!(parse_rider(&format_rider(rider)), Ok(rider));
        }
        for d in Direction::ALL {
            let line = format!(" {}\n", format_direction(d));
            assert_eq!(parse_direction(&line), Ok(d));
        }
        assert!(parse_direction("up").is_err() && parse_direction("").is_err());
        assert!(looks_like_tron_battle("3 4 4 4"));
        assert!(!looks_like_tron_battle("81"));
    }
}
