//! Why a picture or a field is not a Light Riders position: the error of
//! [`super::TronState::new`] and of the engine's fields, apart from the engine's parsers
//! so that the one-file Tron Battle build can carry it without them.

use super::grid::BoardSizeError;
use crate::game::Player;
use std::fmt;

/// Why a picture is not a Light Riders position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// No bitboard holds a board of this size.
    BoardSize {
        width: usize,
        height: usize,
    },
    /// No field has been received.
    NoField,
    /// A field without a width and height that is not square either.
    NotSquare {
        cells: usize,
    },
    /// A field whose length is not `width × height`.
    CellCount {
        cells: usize,
        width: usize,
        height: usize,
    },
    /// A wall or head outside the board.
    OffBoard {
        x: usize,
        y: usize,
    },
    /// Both riders on one cell.
    SameCell,
    RiderTwice(Player),
    RiderMissing,
    /// A field value that is no cell of Light Riders' (as the engine wrote it).
    UnexpectedToken(String),
    UnknownDiagramCell(char),
    /// A diagram row (counting from 0) of another width than the first.
    RaggedDiagram {
        row: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BoardSize { width, height } => {
                write!(f, "unsupported board size {width}x{height}")
            }
            PositionError::NoField => write!(f, "no field received yet"),
            PositionError::NotSquare { cells } => write!(
                f,
                "no field_width/field_height and a field of {cells} cells is not square"
            ),
            PositionError::CellCount {
                cells,
                width,
                height,
            } => write!(f, "field has {cells} cells, expected {width}x{height}"),
            PositionError::OffBoard { x, y } => write!(f, "cell ({x}, {y}) is off the board"),
            PositionError::SameCell => write!(f, "both riders on one cell"),
            PositionError::RiderTwice(p) => write!(f, "rider {p} appears twice"),
            PositionError::RiderMissing => write!(f, "a rider is missing from the field"),
            PositionError::UnexpectedToken(t) => write!(f, "unexpected field value {t}"),
            PositionError::UnknownDiagramCell(c) => write!(f, "unknown diagram cell {c:?}"),
            PositionError::RaggedDiagram { row } => {
                write!(f, "diagram row {row} is not as wide as the first")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl From<BoardSizeError> for PositionError {
    fn from(e: BoardSizeError) -> Self {
        PositionError::BoardSize {
            width: e.width,
            height: e.height,
        }
    }
}
