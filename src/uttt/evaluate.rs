//! Liang 2017's four heuristic evaluations of a UTTT position (section 2 of the thesis):
//! simple, connecting, advanced and comprehensive, as one weighted sum of features.
//!
//! Every evaluation counts the same features for each player and scores the difference,
//! so one [`Weights`] value describes each of them:
//! - micro boards won, by where they lie on the macro board (middle, corner, side);
//! - two won boards in a macro line whose third board is still open;
//! - two marks in a line of an open micro board whose third cell is empty;
//! - marks in micro boards, by where the cell lies in its board and where the
//!   board lies on the macro board (3 × 3 classes: the comprehensive evaluation's split;
//!   the others give the three board classes the same values).
//!
//! Liang 2017 does not say whether marks in closed (won or full) boards count. They do
//! here, in every board, while two in a row counts only in open boards: with Liang 2017's
//! weights this reproduces its ranking (Table 2.8), which counting marks in open boards
//! only does not (`tune-eval match`, docs/uttt_seed_tables.md).

use super::board::Board;
use super::tables::{count9, LINES};
use crate::game::Player;

/// Where a cell lies in its 3×3 grid (or a micro board on the macro board).
const MIDDLE: u16 = 0b000_010_000;
const CORNERS: u16 = 0b101_000_101;
const SIDES: u16 = 0b010_101_010;
/// The classes in the order of [`Weights::macro_won`] and the rows and columns of
/// [`Weights::micro_marks`].
const CLASSES: [u16; 3] = [MIDDLE, CORNERS, SIDES];

/// The class (0 middle, 1 corner, 2 side) of square `index` of a 3×3 grid.
const fn class_of(index: usize) -> usize {
    match index {
        4 => 0,
        0 | 2 | 6 | 8 => 1,
        _ => 2,
    }
}

/// The weights of an evaluation's features (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A won micro board in the middle, a corner, a side of the macro board.
    pub macro_won: [f32; 3],
    /// Two won boards in a macro line whose third board is open.
    pub macro_two: f32,
    /// Two marks in a micro line whose third cell is empty (open boards only).
    pub micro_two: f32,
    /// `micro_marks[board class][cell class]`: a mark in a micro board (any board).
    pub micro_marks: [[f32; 3]; 3],
}

/// The evaluations of Liang 2017, by their option names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    Simple,
    Connecting,
    Advanced,
    Comprehensive,
}

impl EvalKind {
    /// Liang 2017's weights of this evaluation: Tables 2.1 and 2.2, and the values it
    /// evolved with CMA-ES for the advanced (Table 2.3) and comprehensive (Table 2.5)
    /// ones.
    pub const fn seed_weights(self) -> Weights {
        match self {
            EvalKind::Simple => Weights {
                macro_won: [1.0; 3],
                macro_two: 0.0,
                micro_two: 0.0,
                micro_marks: [[0.0; 3]; 3],
            },
            EvalKind::Connecting => Weights {
                macro_won: [1.0; 3],
                macro_two: 20.0,
                micro_two: 1.0,
                micro_marks: [[0.0; 3]; 3],
            },
            EvalKind::Advanced => Weights {
                macro_won: [1.140_677_3, 1.406_689, 0.998_994_1],
                macro_two: 1.481_980_5,
                micro_two: 0.199_311_91,
                micro_marks: [[-0.816_728_9, 0.059_772_673, 0.404_213_73]; 3],
            },
            EvalKind::Comprehensive => Weights {
                macro_won: [5.093_11, -2.822_811, -2.263_435_7],
                macro_two: 7.473_114,
                micro_two: 0.196_922_57,
                micro_marks: [
                    [3.323_614_3, 3.133_526_8, -1.545_195_7],
                    [-0.828_292_6, -0.373_121_83, -1.524_291_2],
                    [1.586_423_2, 1.110_056, -1.431_366_2],
                ],
            },
        }
    }
}

impl Weights {
    /// The advanced evaluation's hand-set values before Liang 2017's evolution (Table 2.3,
    /// "default value"): where a re-tuning starts.
    pub fn advanced_defaults() -> Weights {
        Weights {
            macro_won: [30.0, 20.0, 10.0],
            macro_two: 50.0,
            micro_two: 5.0,
            micro_marks: [[3.0, 2.0, 1.0]; 3],
        }
    }

    /// The 14 weights as a flat list: macro won (3), macro two, micro two, micro marks
    /// (3 × 3, board class major); the order of [`Weights::from_slice`].
    pub fn to_vec(&self) -> Vec<f32> {
        let mut values = self.macro_won.to_vec();
        values.push(self.macro_two);
        values.push(self.micro_two);
        values.extend(self.micro_marks.iter().flatten());
        values
    }

    /// The weights from the 14 values of [`Weights::to_vec`]; `None` for another length.
    pub fn from_slice(values: &[f32]) -> Option<Weights> {
        if values.len() != 14 {
            return None;
        }
        let mut micro_marks = [[0.0; 3]; 3];
        for (i, &v) in values[5..].iter().enumerate() {
            micro_marks[i / 3][i % 3] = v;
        }
        Some(Weights {
            macro_won: [values[0], values[1], values[2]],
            macro_two: values[3],
            micro_two: values[4],
            micro_marks,
        })
    }

    /// The evaluation of `board` from player 0's view: player 0's features minus player
    /// 1's. Finished games are not special here (the searches score them themselves).
    pub fn evaluate(&self, board: &Board) -> f32 {
        let closed = board.won[0] | board.won[1] | board.drawn;
        self.evaluate_parts(&board.marks, board.won, closed)
    }

    /// [`Weights::evaluate`] from the parts of a position: each player's marks per micro
    /// board, their won boards, and the closed (won or full) boards.
    #[inline]
    pub(crate) fn evaluate_parts(&self, marks: &[[u16; 9]; 2], won: [u16; 2], closed: u16) -> f32 {
        self.side_value(0, marks, won, closed) - self.side_value(1, marks, won, closed)
    }

    fn side_value(&self, player: Player, marks: &[[u16; 9]; 2], won: [u16; 2], closed: u16) -> f32 {
        let (me, them) = (player as usize, 1 - player as usize);
        let mut value = 0.0;
        for (class, mask) in CLASSES.into_iter().enumerate() {
            value += self.macro_won[class] * count9(won[me] & mask) as f32;
        }
        value += self.macro_two * two_in_a_row(won[me], won[them] | (closed & !won[me])) as f32;
        let mut micro_two = 0;
        for (board, (&mine, &theirs)) in marks[me].iter().zip(&marks[them]).enumerate() {
            if closed >> board & 1 == 0 {
                micro_two += two_in_a_row(mine, theirs);
            }
            let weights = &self.micro_marks[class_of(board)];
            for (class, mask) in CLASSES.into_iter().enumerate() {
                value += weights[class] * count9(mine & mask) as f32;
            }
        }
        value + self.micro_two * micro_two as f32
    }
}

/// Lines of a 3×3 grid with two of `mine` and the third square not `blocked`.
#[inline]
fn two_in_a_row(mine: u16, blocked: u16) -> u32 {
    LINES
        .iter()
        .filter(|&&line| line & blocked == 0 && count9(mine & line) == 2)
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uttt::Move;

    fn board_after(moves: &[(u8, u8)]) -> Board {
        let mut board = Board::new();
        for &(b, c) in moves {
            board.play_move(Move::from_board_cell(b, c));
        }
        board
    }

    #[test]
    fn the_empty_board_is_even_under_every_evaluation() {
        for kind in [
            EvalKind::Simple,
            EvalKind::Connecting,
            EvalKind::Advanced,
            EvalKind::Comprehensive,
        ] {
            assert_eq!(kind.seed_weights().evaluate(&Board::new()), 0.0);
        }
    }

    #[test]
    fn features_are_counted_where_they_lie() {
        // X plays the middle of the middle board, O a corner of it.
        let board = board_after(&[(4, 4), (4, 0)]);
        let mut weights = EvalKind::Simple.seed_weights();
        assert_eq!(weights.evaluate(&board), 0.0, "no board won");
        weights.micro_marks[0] = [10.0, 1.0, 0.0];
        assert_eq!(
            weights.evaluate(&board),
            9.0,
            "middle-middle minus middle-corner"
        );
        // X has cells 3 and 4 of board 4 (cell 5 empty): one line; O's cell 0 none.
        let mut board = board;
        board.marks[0][4] = 0b000_011_000;
        let weights = Weights {
            micro_two: 1.0,
            ..EvalKind::Simple.seed_weights()
        };
        assert_eq!(weights.evaluate(&board), 1.0);
    }

    #[test]
    fn won_boards_and_macro_lines_count_by_class() {
        let mut board = Board::new();
        board.won[0] = 0b000_010_001; // the middle and a corner
        board.won[1] = 0b000_000_010; // a side
        let weights = Weights {
            macro_won: [100.0, 10.0, 1.0],
            ..EvalKind::Simple.seed_weights()
        };
        assert_eq!(weights.evaluate(&board), 109.0);
        // Corner 0 and the middle: the diagonal 0-4-8 is open; X's two boards also lie
        // on no other open line.
        let weights = Weights {
            macro_two: 1.0,
            ..Weights::from_slice(&[0.0; 14]).unwrap()
        };
        assert_eq!(weights.evaluate(&board), 1.0);
        board.won[1] |= 1 << 8; // O blocks the diagonal
        assert_eq!(weights.evaluate(&board), 0.0);
    }

    #[test]
    fn weights_round_trip_through_a_flat_list() {
        let weights = EvalKind::Comprehensive.seed_weights();
        assert_eq!(Weights::from_slice(&weights.to_vec()), Some(weights));
        assert_eq!(Weights::from_slice(&[1.0; 13]), None);
    }
}
