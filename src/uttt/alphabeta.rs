//! UTTT for the alpha-beta search: the position with its Zobrist key kept up to date
//! move by move ([`KeyedBoard`]), valued beside it by one of Liang 2017's evaluations
//! ([`Weights`], the search's [`Evaluate`]).

use super::board::{Board, Move};
use super::evaluate::Weights;
use crate::game::{Outcome, Player};
use crate::search::alphabeta::{AlphaBetaGame, Evaluate, Score, PROVEN};
use crate::search::Game;

/// Evaluation units per unit of Liang 2017's weights: alpha-beta scores are integers.
const SCORE_SCALE: f32 = 1000.0;

/// A 64-bit mix of `x` (splitmix64's finaliser), for the key tables.
const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `MARK_KEYS[player][cell]`: the random numbers of Zobrist hashing, one per mark (Liang
/// 2017's 162), then `MARK_KEYS[2][0..10]` for the target board (9 = any) and
/// `MARK_KEYS[2][10]` for player 1 to move.
const MARK_KEYS: [[u64; 81]; 3] = {
    let mut keys = [[0; 81]; 3];
    let mut i = 0;
    while i < 3 * 81 {
        keys[i / 81][i % 81] = mix(i as u64 + 1);
        i += 1;
    }
    keys
};

/// A UTTT position for alpha-beta: the board and its Zobrist key of the marks.
#[derive(Clone, Copy, Debug)]
pub struct KeyedBoard {
    board: Board,
    marks_key: u64,
}

impl PartialEq for KeyedBoard {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

impl KeyedBoard {
    pub fn new(board: Board) -> Self {
        let mut marks_key = 0;
        for player in 0..2u8 {
            for index in 0..81u8 {
                if board.owner(Move(index)) == Some(player) {
                    marks_key ^= MARK_KEYS[player as usize][index as usize];
                }
            }
        }
        KeyedBoard { board, marks_key }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
}

impl Game for KeyedBoard {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.board.turn()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.board.legal_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.marks_key ^= MARK_KEYS[self.board.turn() as usize][mv.0 as usize];
        self.board.play_move(mv);
    }
}

impl AlphaBetaGame for KeyedBoard {
    const MOVE_SLOTS: usize = 81;

    fn key(&self) -> u64 {
        let target = self.board.target().map_or(9, usize::from);
        let turn = if self.board.turn() == 1 {
            MARK_KEYS[2][10]
        } else {
            0
        };
        self.marks_key ^ MARK_KEYS[2][target] ^ turn
    }

    fn is_quiet(&self) -> bool {
        true
    }

    fn settled(&self, _player: Player) -> Option<Score> {
        None
    }

    fn move_slot(&self, mv: Move) -> usize {
        mv.0 as usize
    }
}

/// Liang 2017's evaluation with these weights, in integer units for alpha-beta.
impl Evaluate<KeyedBoard> for Weights {
    fn evaluate(&mut self, position: &KeyedBoard, player: Player) -> Score {
        let value0 = Weights::evaluate(self, &position.board) * SCORE_SCALE;
        let bound = (PROVEN - 1) as f32;
        let score = value0.clamp(-bound, bound).round() as Score;
        if player == 0 {
            score
        } else {
            -score
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
    use crate::search::Limits;
    use crate::uttt::evaluate::EvalKind;

    #[test]
    fn the_key_kept_move_by_move_equals_the_key_of_the_rebuilt_position() {
        let mut played = KeyedBoard::new(Board::new());
        let mut moves = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for step in 0..40 {
            moves.clear();
            played.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            played.play(moves[(step * 7) % moves.len()]);
            let rebuilt = KeyedBoard::new(played.board);
            assert_eq!(played.key(), rebuilt.key());
            assert!(seen.insert(played.key()), "a new position gets a new key");
        }
    }

    #[test]
    fn the_turn_and_the_target_are_part_of_the_key() {
        let mut a = KeyedBoard::new(Board::new());
        a.play(Move::from_board_cell(4, 0));
        let mut b = a;
        b.board.target = super::super::board::ANY;
        assert_ne!(a.key(), b.key());
        let mut c = a;
        c.board.turn ^= 1;
        assert_ne!(a.key(), c.key());
    }

    #[test]
    fn alpha_beta_takes_a_win_in_one() {
        // X holds boards 0 and 1 and two in a row in board 2; X is sent to board 2.
        let mut board = Board::new();
        board.won[0] = 0b011;
        board.marks[0][0] = 0b111;
        board.marks[0][1] = 0b111;
        board.marks[0][2] = 0b000_000_011;
        board.marks[1][3] = 0b111;
        board.marks[1][5] = 0b111;
        board.won[1] = 0b101_000;
        board.marks[1][2] = 0b001_000_000;
        board.marks[1][6] = 0b000_000_001;
        board.target = 2;
        let mut search = AlphaBeta::new(
            AlphaBetaConfig {
                max_depth: Some(3),
                ..AlphaBetaConfig::default()
            },
            EvalKind::Comprehensive.seed_weights(),
        );
        let result = search.search(&KeyedBoard::new(board), Limits::iterations(1 << 20));
        assert_eq!(result.best, Some(Move::from_board_cell(2, 2)));
        assert!(result.is_proven() && result.score > 0);
    }
}
