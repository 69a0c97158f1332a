//! Property tests over random legal games: move generation, the engine round trip and
//! play-outs stay consistent with each other at every ply.

// Nested so that `cargo test uttt` selects these tests by their path.
mod uttt_props {

    use mctsbot::protocol::Token;
    use mctsbot::search::{Evaluator, FastRng, Game};
    use mctsbot::uttt::Dialect;
    use mctsbot::uttt::{Board, Move, RandomPlayout};
    use proptest::prelude::*;
    use rand::SeedableRng;

    /// Plays the moves picked by `choices` (each taken modulo the legal move count) and calls
    /// `check` on every position reached, the start included.
    fn walk_game(choices: &[u32], mut check: impl FnMut(&Board)) -> Board {
        let mut board = Board::new();
        let mut moves = Vec::new();
        check(&board);
        for &choice in choices {
            moves.clear();
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            board.play(moves[choice as usize % moves.len()]);
            check(&board);
        }
        board
    }

    fn check_move_generation(board: &Board) {
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        let brute_force: Vec<Move> = (0..81).map(Move).filter(|&mv| board.is_legal(mv)).collect();
        let mut sorted = moves.clone();
        sorted.sort_by_key(|mv| mv.0);
        sorted.dedup();
        assert_eq!(
            sorted,
            brute_force,
            "legal_moves disagrees with is_legal\n{}",
            board.render()
        );
        assert_eq!(moves.len() as u32, board.legal_move_count());
        assert_eq!(moves.is_empty(), board.outcome().is_some());
        for &mv in &moves {
            assert!(board.owner(mv).is_none());
            let mut child = *board;
            child.play(mv);
            assert_eq!(child.ply(), board.ply() + 1);
            assert_eq!(child.to_move(), 1 - board.to_move());
            assert_eq!(child.owner(mv), Some(board.to_move()));
        }
    }

    fn check_engine_round_trip(board: &Board) {
        for dialect in [Dialect::TheAiGames, Dialect::Riddles] {
            let field = board.engine_field(dialect);
            let macroboard = board.engine_macroboard(dialect);
            assert_eq!(
                Board::from_engine(&field, &macroboard, dialect),
                Ok(*board),
                "{dialect:?}\n{}",
                board.render()
            );
        }
    }

    fn token() -> impl Strategy<Value = Token> {
        prop_oneof![
            Just(Token::Dot),
            Just(Token::Wall),
            (-3i8..4).prop_map(Token::Number),
            any::<i8>().prop_map(Token::Number),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn move_generation_agrees_with_brute_force(choices in prop::collection::vec(any::<u32>(), 0..81)) {
            walk_game(&choices, check_move_generation);
        }

        #[test]
        fn engine_round_trip_holds_at_every_ply(choices in prop::collection::vec(any::<u32>(), 0..81)) {
            walk_game(&choices, check_engine_round_trip);
        }

        #[test]
        fn playouts_leave_the_position_alone_and_return_a_game_result(
            choices in prop::collection::vec(any::<u32>(), 0..81),
            seed in any::<u64>(),
        ) {
            // (That the play-out's game is legal and ends in the result it reports is
            // checked against its working state in the unit tests of `uttt`.)
            let start = walk_game(&choices, |_| {});
            let mut after = start;
            let reward = RandomPlayout.evaluate(&mut after, &mut FastRng::seed_from_u64(seed));
            prop_assert_eq!(after, start);
            prop_assert!([0.0, 0.5, 1.0].contains(&reward), "{}", reward);
            if let Some(outcome) = start.outcome() {
                prop_assert_eq!(reward, outcome.reward_for(0));
            }
        }

        #[test]
        fn from_engine_never_panics_on_arbitrary_tokens(
            field in prop::collection::vec(token(), 0..90),
            macroboard in prop::collection::vec(token(), 0..12),
        ) {
            for dialect in [Dialect::TheAiGames, Dialect::Riddles] {
                if let Ok(board) = Board::from_engine(&field, &macroboard, dialect) {
                    check_move_generation(&board);
                }
            }
        }

        #[test]
        fn from_engine_never_panics_on_mutated_real_positions(
            choices in prop::collection::vec(any::<u32>(), 0..81),
            edits in prop::collection::vec((0usize..90, token()), 1..4),
            riddles in any::<bool>(),
        ) {
            let dialect = if riddles { Dialect::Riddles } else { Dialect::TheAiGames };
            let board = walk_game(&choices, |_| {});
            let mut field = board.engine_field(dialect);
            let mut macroboard = board.engine_macroboard(dialect);
            for (index, token) in edits {
                if index < 81 {
                    field[index] = token;
                } else {
                    macroboard[index - 81] = token;
                }
            }
            if let Ok(parsed) = Board::from_engine(&field, &macroboard, dialect) {
                check_move_generation(&parsed);
                check_engine_round_trip(&parsed);
            }
        }
    }
}
