//! Checks that need the play-out's internals: its move choice must cover exactly the
//! legal moves, and its fast move application must match `Board::play`.

use super::board::Board;
use super::playout::PlayoutState;
use super::Move;
use crate::search::{random_below, FastRng, Game};
use rand::SeedableRng;

/// Every move the play-out can pick, in the order of its index.
fn playout_choices(board: &Board) -> Vec<Move> {
    let (state, target, target_free) = PlayoutState::new(board);
    (0..state.choice_count(target_free))
        .map(|index| {
            let (board_index, cell) = state.nth_choice(target, target_free, index);
            Move(board_index * 9 + cell)
        })
        .collect()
}

#[test]
fn playout_choices_are_exactly_the_legal_moves_in_random_games() {
    let mut rng = FastRng::seed_from_u64(42);
    let mut moves = Vec::new();
    let mut positions = 0;
    for _ in 0..300 {
        let mut board = Board::new();
        while board.outcome().is_none() {
            moves.clear();
            board.legal_moves(&mut moves);
            assert_eq!(playout_choices(&board), moves, "\n{}", board.render());
            positions += 1;
            board.play(moves[random_below(&mut rng, moves.len() as u32) as usize]);
        }
    }
    assert!(positions > 300 * 30);
}

#[test]
fn playout_steps_match_board_play() {
    let mut rng = FastRng::seed_from_u64(7);
    for _ in 0..300 {
        let mut board = Board::new();
        let (mut state, mut target, mut target_free) = PlayoutState::new(&board);
        loop {
            let index = random_below(&mut rng, state.choice_count(target_free));
            let (board_index, cell) = state.nth_choice(target, target_free, index);
            let ended = state.apply(board_index, cell);
            board.play(Move(board_index * 9 + cell));
            let mut stored = Board::new();
            state.store(&mut stored, cell);
            assert_eq!(stored, board, "\n{}", board.render());
            assert_eq!(ended, board.outcome());
            if ended.is_some() {
                break;
            }
            target = cell;
            target_free = state.free_cells(cell);
            // The running state offers exactly the board's legal moves (its target may
            // name the last open board where the board's canonical target says "any").
            let running: Vec<Move> = (0..state.choice_count(target_free))
                .map(|index| {
                    let (b, c) = state.nth_choice(target, target_free, index);
                    Move(b * 9 + c)
                })
                .collect();
            let mut moves = Vec::new();
            board.legal_moves(&mut moves);
            assert_eq!(running, moves);
        }
    }
}

#[test]
fn playout_reaches_the_end_and_reports_its_outcome() {
    let mut rng = FastRng::seed_from_u64(3);
    let mut wins = [0; 2];
    let mut draws = 0;
    for _ in 0..2000 {
        let mut board = Board::new();
        let reward = board.playout(&mut rng);
        let outcome = board.outcome().expect("finished");
        assert_eq!(reward, outcome.reward_for(0));
        match outcome {
            crate::search::Outcome::Win(p) => wins[p as usize] += 1,
            crate::search::Outcome::Draw => draws += 1,
        }
    }
    // Random play: both sides win often and draws happen (roughly 45/35/20 percent).
    assert!(
        wins[0] > 600 && wins[1] > 400 && draws > 150,
        "{wins:?} {draws}"
    );
}
