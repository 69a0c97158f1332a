//! Conversions between [`TronState`] and its pictures: the engine's `field`, the
//! diagrams of tests and maps, and the text of `arena --watch`. Whatever arrives is
//! checked; a contradiction is a [`PositionError`], never a panic.

use super::grid::{Bitboard, Grid};
use super::PositionError;
use super::{Direction, TronState};
use crate::game::Player;
use crate::protocol::Token;
use std::fmt;

/// Whether a field, whatever its length, holds a value that only Light Riders sends: a
/// wall `x` (UTTT fields hold `.` and numbers only). Evidence of the game for a field
/// too damaged to be a position.
pub fn field_has_tron_only_value(tokens: &[Token]) -> bool {
    tokens.contains(&Token::Wall)
}

/// A Light Riders answer: a direction, or `pass` (none: the engine keeps the rider's
/// direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TronAnswer(pub Option<Direction>);

/// The engine's word for each direction, in [`Direction::ALL`]'s order.
const DIRECTION_WORDS: [&str; 4] = ["up", "down", "left", "right"];

/// Parses a Light Riders answer word; `None` if unknown.
///
/// Surrounding blanks are ignored; the word itself must be lower case, as the engine
/// expects.
pub fn parse_tron_answer(line: &str) -> Option<TronAnswer> {
    match line.trim_matches([' ', '\t', '\r', '\n']) {
        "pass" => Some(TronAnswer(None)),
        word => DIRECTION_WORDS
            .iter()
            .position(|&w| w == word)
            .map(|i| TronAnswer(Some(Direction::ALL[i]))),
    }
}

impl fmt::Display for TronAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.map_or("pass", |d| DIRECTION_WORDS[d.index()]))
    }
}

/// Diagrams of cell sets, for tests and examples (here, beside the other pictures, so
/// that the bitboard itself needs nothing of the engine's).
impl Bitboard {
    /// Parses a diagram of lines ('.' = not in the set, anything else = in the set).
    /// Meant for tests and examples.
    pub fn from_diagram(diagram: &str) -> Result<Bitboard, PositionError> {
        let (width, height, cells) = parse_diagram(diagram, |c| Ok(c != '.'))?;
        let mut b = Bitboard::empty(Grid::new(width, height)?);
        for (i, _) in cells.iter().enumerate().filter(|(_, &set)| set) {
            b.set(i % width, i / width, true);
        }
        Ok(b)
    }
}

/// The cells of a diagram (one row a line, surrounding blanks and empty lines ignored)
/// with its width and height, each character read by `cell`.
pub(crate) fn parse_diagram<T>(
    diagram: &str,
    mut cell: impl FnMut(char) -> Result<T, PositionError>,
) -> Result<(usize, usize, Vec<T>), PositionError> {
    let rows: Vec<&str> = diagram
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut cells = Vec::with_capacity(width * rows.len());
    for (row_index, row) in rows.iter().enumerate() {
        if row.chars().count() != width {
            return Err(PositionError::RaggedDiagram { row: row_index });
        }
        for c in row.chars() {
            cells.push(cell(c)?);
        }
    }
    Ok((width, rows.len(), cells))
}

impl TronState {
    /// Parses an engine `field` (row-major `.`, `x`, `0`, `1`) of a `width` x `height`
    /// board.
    pub fn from_engine(
        width: usize,
        height: usize,
        field: &[Token],
    ) -> Result<TronState, PositionError> {
        let grid = Grid::new(width, height)?;
        if field.len() != width * height {
            return Err(PositionError::CellCount {
                cells: field.len(),
                width,
                height,
            });
        }
        let mut walls = Bitboard::empty(grid);
        let mut heads: [Option<u16>; 2] = [None, None];
        for (i, &token) in field.iter().enumerate() {
            let (x, y) = (i % width, i / width);
            match token {
                Token::Dot => {}
                Token::Wall => walls.set(x, y, true),
                Token::Number(p @ (0 | 1)) => {
                    let slot = &mut heads[p as usize];
                    if slot.is_some() {
                        return Err(PositionError::RiderTwice(p as Player));
                    }
                    *slot = Some(grid.index(x, y) as u16);
                }
                other => return Err(PositionError::UnexpectedToken(other.to_string())),
            }
        }
        match heads {
            [Some(a), Some(b)] => Ok(Self::from_parts(walls, [a, b], [true, true])),
            _ => Err(PositionError::RiderMissing),
        }
    }

    /// Parses an engine `field` sent without `field_width`/`field_height`: the board must
    /// be square.
    pub fn from_square_field(field: &[Token]) -> Result<TronState, PositionError> {
        let side = (field.len() as f64).sqrt().round() as usize;
        if side == 0 || side * side != field.len() {
            return Err(PositionError::NotSquare { cells: field.len() });
        }
        TronState::from_engine(side, side, field)
    }

    /// Parses a diagram such as `"#..#\n.0.#\n..1."`: `#` or `x` wall, `.` empty, `0`/`1`
    /// the heads. For tests, examples and maps.
    pub fn from_diagram(diagram: &str) -> Result<TronState, PositionError> {
        let (width, height, field) = parse_diagram(diagram, |c| match c {
            '.' => Ok(Token::Dot),
            '#' | 'x' => Ok(Token::Wall),
            '0' => Ok(Token::Number(0)),
            '1' => Ok(Token::Number(1)),
            _ => Err(PositionError::UnknownDiagramCell(c)),
        })?;
        TronState::from_engine(width, height, &field)
    }

    /// The engine field for this position (dead riders stay shown at their last cell).
    pub fn engine_field(&self) -> Vec<Token> {
        let g = self.grid();
        let mut out = Vec::with_capacity(g.cells());
        for y in 0..g.height() {
            for x in 0..g.width() {
                let i = g.index(x, y);
                out.push(if i == self.heads[0] as usize {
                    Token::Number(0)
                } else if i == self.heads[1] as usize {
                    Token::Number(1)
                } else if self.blocked.get_index(i) {
                    Token::Wall
                } else {
                    Token::Dot
                });
            }
        }
        out
    }

    /// A text picture for `arena --watch`: `.` empty, `#` wall, `0`/`1` live heads,
    /// `X` a crashed rider's last cell.
    pub fn render(&self) -> String {
        let g = self.grid();
        let mut s = String::with_capacity((g.width() + 1) * g.height());
        for y in 0..g.height() {
            for x in 0..g.width() {
                let i = g.index(x, y);
                s.push(match i {
                    _ if i == self.heads[0] as usize => {
                        if self.alive[0] {
                            '0'
                        } else {
                            'X'
                        }
                    }
                    _ if i == self.heads[1] as usize => {
                        if self.alive[1] {
                            '1'
                        } else {
                            'X'
                        }
                    }
                    _ if self.blocked.get_index(i) => '#',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod answer_tests {
    use super::*;

    #[test]
    fn tron_answers() {
        let answer = |d| Some(TronAnswer(Some(d)));
        assert_eq!(parse_tron_answer("up"), answer(Direction::Up));
        assert_eq!(parse_tron_answer(" down\r"), answer(Direction::Down));
        assert_eq!(parse_tron_answer("left"), answer(Direction::Left));
        assert_eq!(parse_tron_answer("right\n"), answer(Direction::Right));
        assert_eq!(parse_tron_answer("pass"), Some(TronAnswer(None)));
        for bad in ["", "Up", "upp", "up down", "place_move 1 1", "north"] {
            assert_eq!(parse_tron_answer(bad), None, "{bad:?}");
        }
        let every = Direction::ALL.map(Some).into_iter().chain([None]);
        for a in every.map(TronAnswer) {
            assert_eq!(parse_tron_answer(&a.to_string()), Some(a));
        }
    }
}
