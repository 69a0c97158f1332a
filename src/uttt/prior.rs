//! Heuristic node initialisation for the UTTT tree: a new child's starting value from
//! three tactical facts of its move, the knowledge random play-outs take longest to find.

use super::board::Board;
use crate::search::reward_for;

/// What a move is worth in [`tactical_value`]'s units.
const WINS_A_BOARD: f32 = 1.0;
/// The opponent may then win a small board at once.
const OPENS_A_BOARD_WIN: f32 = -1.0;
/// The opponent may then play in any of several boards.
const GIVES_A_FREE_CHOICE: f32 = -0.5;

/// The tactical score of the move from `parent` to `child` for the player who made it:
/// it wins a small board, lets the opponent win one at once, or sends the opponent to a
/// closed board (a free choice).
pub fn tactical_value(parent: &Board, child: &Board) -> f32 {
    let mover = parent.turn() as usize;
    let opponent = 1 - mover;
    let mut value = 0.0;
    if child.won[mover] != parent.won[mover] {
        value += WINS_A_BOARD;
    }
    let playable = child.playable_boards();
    if playable.count_ones() > 1 {
        value += GIVES_A_FREE_CHOICE;
    }
    let opponent_wins_a_board =
        (0..9).any(|board| playable >> board & 1 == 1 && child.can_win_board(opponent, board));
    if opponent_wins_a_board {
        value += OPENS_A_BOARD_WIN;
    }
    value
}

/// Player 0's starting reward for `child`: an even 0.5 moved by `bias` per unit of
/// [`tactical_value`] for the mover, kept inside 0.05..0.95.
pub fn tactical_prior(parent: &Board, child: &Board, bias: f32) -> f32 {
    starting_reward(parent, bias * tactical_value(parent, child))
}

/// Player 0's reward for a new child whose mover's value is an even 0.5 moved by `lead`,
/// kept inside 0.05..0.95 so that no prior reads as a proof.
fn starting_reward(parent: &Board, lead: f32) -> f32 {
    reward_for(parent.turn(), (0.5 + lead).clamp(0.05, 0.95))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uttt::Move;

    /// The board after `moves` (as `board * 9 + cell`) from the empty board.
    fn after(moves: &[u8]) -> Board {
        let mut board = Board::new();
        for &mv in moves {
            board.play_move(Move(mv));
        }
        board
    }

    fn value_of(moves: &[u8], mv: u8) -> f32 {
        let parent = after(moves);
        let mut child = parent;
        child.play_move(Move(mv));
        tactical_value(&parent, &child)
    }

    #[test]
    fn a_quiet_move_is_worth_nothing() {
        // Middle of the middle board: the opponent goes to the empty middle board.
        assert_eq!(value_of(&[], 4 * 9 + 4), 0.0);
    }

    #[test]
    fn winning_a_board_counts_and_a_sent_to_win_counts_against() {
        // X 0/0 (O to board 0), O 0/3, X 3/0, O 0/4, X 4/0: O to move in board 0 with
        // cells 3 and 4, where cell 5 wins the board and sends X to the empty board 5.
        let moves = [0, 3, 27, 4, 36];
        assert_eq!(value_of(&moves, 5), WINS_A_BOARD);
        // Cell 8 wins nothing and sends X to board 8, where X has no threat.
        assert_eq!(value_of(&moves, 8), 0.0);
    }

    #[test]
    fn sending_the_opponent_to_its_own_threat_counts_against() {
        // X 2/0, O 0/2, X 2/1: X has cells 0 and 1 of board 2, O is to move in board 1.
        let moves = [18, 2, 19];
        assert_eq!(value_of(&moves, 9 + 2), OPENS_A_BOARD_WIN);
        assert_eq!(value_of(&moves, 9 + 4), 0.0);
    }

    #[test]
    fn a_move_into_a_closed_board_gives_a_free_choice() {
        // Random games (a fixed generator) until moves that win no board give a choice.
        let mut board = Board::new();
        let mut found = false;
        let mut rng_state = 1u32;
        for _ in 0..2_000 {
            if board.outcome().is_some() {
                board = Board::new();
            }
            let mut moves = Vec::new();
            board.for_each_legal_move(|mv| moves.push(mv));
            for &mv in &moves {
                let mut child = board;
                child.play_move(mv);
                if child.outcome().is_none()
                    && child.playable_boards().count_ones() > 1
                    && child.won == board.won
                {
                    let value = tactical_value(&board, &child);
                    assert!(
                        value == GIVES_A_FREE_CHOICE
                            || value == GIVES_A_FREE_CHOICE + OPENS_A_BOARD_WIN
                    );
                    found = true;
                }
            }
            rng_state = rng_state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            board.play_move(moves[(rng_state >> 16) as usize % moves.len()]);
        }
        assert!(found, "no free choice met in 2000 random plies");
    }

    #[test]
    fn the_prior_is_even_for_a_quiet_move_and_leans_with_the_bias() {
        let parent = Board::new();
        let mut child = parent;
        child.play_move(Move(40));
        assert_eq!(tactical_prior(&parent, &child, 0.2), 0.5);
        let moves = [0, 3, 27, 4, 36];
        let parent = after(&moves);
        let mut child = parent;
        child.play_move(Move(5));
        // O (player 1) wins a board: player 0's reward drops by the bias.
        assert!((tactical_prior(&parent, &child, 0.2) - 0.3).abs() < 1e-6);
    }
}
