//! The search floor's own test game: plain tic-tac-toe, small enough for a tree to solve,
//! and a uniform play-out that reports its moves for RAVE. The search's tests use it so
//! that they need nothing from the games above them.

use super::{random_below, Evaluator, FastRng, Game, TreePolicy};
use crate::game::{Outcome, Player};

/// Plain tic-tac-toe on bitboards: cell `i` (0 to 8, row by row) is bit `i`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct TicTacToe {
    /// Each player's marks.
    pub marks: [u16; 2],
    pub to_move: Player,
}

/// The eight lines: three rows, three columns, two diagonals.
const LINES: [u16; 8] = [0x7, 0x38, 0x1c0, 0x49, 0x92, 0x124, 0x111, 0x54];

impl TicTacToe {
    pub fn new() -> Self {
        TicTacToe {
            marks: [0, 0],
            to_move: 0,
        }
    }

    /// Builds a position from a 9-character picture (`x` first player, `o` second).
    pub fn from_picture(picture: &str) -> Self {
        let mut game = Self::new();
        for (i, c) in picture.chars().enumerate() {
            match c {
                'x' => game.marks[0] |= 1 << i,
                'o' => game.marks[1] |= 1 << i,
                _ => {}
            }
        }
        game.to_move = (game.marks[0].count_ones() > game.marks[1].count_ones()) as u8;
        game
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn outcome(&self) -> Option<Outcome> {
        for p in 0..2 {
            if LINES.iter().any(|&l| self.marks[p] & l == l) {
                return Some(Outcome::Win(p as Player));
            }
        }
        (self.marks[0] | self.marks[1] == 0x1ff).then_some(Outcome::Draw)
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_none() {
            moves.extend((0..9).filter(|&i| (self.marks[0] | self.marks[1]) >> i & 1 == 0));
        }
    }

    fn play(&mut self, mv: u8) {
        self.marks[self.to_move as usize] |= 1 << mv;
        self.to_move ^= 1;
    }

    /// A cell is its own AMAF slot.
    fn amaf_slot(mv: u8) -> u32 {
        mv as u32
    }
}

/// Uniformly random play-outs that record each player's moves ([`Evaluator::played_slots`])
/// for RAVE, as a game's recording play-out does.
#[derive(Clone, Debug, Default)]
pub struct RecordingPlayout {
    moves: Vec<u8>,
    played: [u128; 2],
}

impl TreePolicy<TicTacToe> for RecordingPlayout {}

impl Evaluator<TicTacToe> for RecordingPlayout {
    fn evaluate(&mut self, state: &mut TicTacToe, rng: &mut FastRng) -> f32 {
        self.played = [0; 2];
        loop {
            if let Some(outcome) = state.outcome() {
                return outcome.reward_for(0);
            }
            self.moves.clear();
            state.legal_moves(&mut self.moves);
            let mv = self.moves[random_below(rng, self.moves.len() as u32) as usize];
            self.played[state.to_move as usize] |= 1 << TicTacToe::amaf_slot(mv);
            state.play(mv);
        }
    }

    fn played_slots(&self) -> [u128; 2] {
        self.played
    }
}
