//! The engine's `field` / `macroboard` values in both dialects: positions written by hand
//! exactly as the engine sends them, round trips, and malformed input.

// Nested so that `cargo test uttt` selects these tests by their path.
mod uttt_engine {

    use mctsbot::protocol::Token;
    use mctsbot::search::Game;
    use mctsbot::uttt::Dialect;
    use mctsbot::uttt::{detect_dialect, Board, Move, PositionError};

    /// Splits an engine value list (`0,1,.,-1`) into tokens, as the protocol parser does.
    fn tokens(values: &str) -> Vec<Token> {
        values
            .split(',')
            .map(|value| match value {
                "." => Token::Dot,
                "x" => Token::Wall,
                number => Token::Number(number.parse().expect("test literal")),
            })
            .collect()
    }

    fn from_engine(field: &str, macroboard: &str) -> Result<Board, PositionError> {
        let (field, macroboard) = (tokens(field), tokens(macroboard));
        Board::from_engine(
            &field,
            &macroboard,
            detect_dialect(&field, &macroboard, None),
        )
    }

    /// The board after playing `moves` (column, row) from the start.
    fn after(moves: &[(u8, u8)]) -> Board {
        let mut board = Board::new();
        for &(column, row) in moves {
            let mv = Move::from_xy(column, row).unwrap();
            assert!(board.is_legal(mv), "{column} {row}");
            board.play(mv);
        }
        board
    }

    /// A game in which player 1 wins board 0 on move 16, then player 0 sends player 1 to it
    /// (move 17: free choice), then player 1 sends player 0 to board 4 (move 18).
    const GAME: [(u8, u8); 18] = [
        (1, 1),
        (3, 3),
        (0, 0),
        (1, 0),
        (3, 0),
        (2, 0),
        (6, 0),
        (0, 1),
        (0, 3),
        (2, 1),
        (6, 3),
        (0, 2),
        (0, 6),
        (1, 2),
        (3, 6),
        (2, 2),
        (6, 6),
        (4, 4),
    ];

    const EMPTY_THEAIGAMES: &str = "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    const EMPTY_RIDDLES: &str = ".,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.";
    const ALL_PLAYABLE: &str = "-1,-1,-1,-1,-1,-1,-1,-1,-1";

    // Five moves: player 1 (id 2 / 1) sent to board 0 by the top-left cell of board 1.
    const MOVE5_THEAIGAMES: &str = "1,2,0,1,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    const MOVE5_RIDDLES: &str = "0,1,.,0,.,.,.,.,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,1,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.";
    // Seventeen moves: board 0 won by the second player, free choice.
    const MOVE17_THEAIGAMES: &str = "1,2,2,1,0,0,1,0,0,2,1,2,0,0,0,0,0,0,2,2,2,0,0,0,0,0,0,1,0,0,2,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    const MOVE17_RIDDLES: &str = "0,1,1,0,.,.,0,.,.,1,0,1,.,.,.,.,.,.,1,1,1,.,.,.,.,.,.,0,.,.,1,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,0,.,.,0,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.";
    // Eighteen moves: board 0 won, player 0 sent to board 4.
    const MOVE18_THEAIGAMES: &str = "1,2,2,1,0,0,1,0,0,2,1,2,0,0,0,0,0,0,2,2,2,0,0,0,0,0,0,1,0,0,2,0,0,1,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    const MOVE18_RIDDLES: &str = "0,1,1,0,.,.,0,.,.,1,0,1,.,.,.,.,.,.,1,1,1,.,.,.,.,.,.,0,.,.,1,.,.,0,.,.,.,.,.,.,1,.,.,.,.,.,.,.,.,.,.,.,.,.,0,.,.,0,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.";

    /// (field, macroboard, moves played) as each dialect's engine sends them.
    fn engine_positions() -> Vec<(&'static str, &'static str, usize, Dialect)> {
        vec![
            (EMPTY_THEAIGAMES, ALL_PLAYABLE, 0, Dialect::TheAiGames),
            (EMPTY_RIDDLES, ALL_PLAYABLE, 0, Dialect::Riddles),
            (
                MOVE5_THEAIGAMES,
                "-1,0,0,0,0,0,0,0,0",
                5,
                Dialect::TheAiGames,
            ),
            (MOVE5_RIDDLES, "-1,.,.,.,.,.,.,.,.", 5, Dialect::Riddles),
            (
                MOVE17_THEAIGAMES,
                "2,-1,-1,-1,-1,-1,-1,-1,-1",
                17,
                Dialect::TheAiGames,
            ),
            (
                MOVE17_RIDDLES,
                "1,-1,-1,-1,-1,-1,-1,-1,-1",
                17,
                Dialect::Riddles,
            ),
            (
                MOVE18_THEAIGAMES,
                "2,0,0,0,-1,0,0,0,0",
                18,
                Dialect::TheAiGames,
            ),
            (MOVE18_RIDDLES, "1,.,.,.,-1,.,.,.,.", 18, Dialect::Riddles),
        ]
    }

    #[test]
    fn dialect_is_riddles_exactly_when_a_dot_appears() {
        for (field, macroboard, _, dialect) in engine_positions() {
            assert_eq!(
                detect_dialect(&tokens(field), &tokens(macroboard), None),
                dialect
            );
        }
        assert_eq!(detect_dialect(&[], &[], None), Dialect::TheAiGames);
        // The values outweigh what the bot id suggests; the id decides only when they
        // say nothing.
        let riddles = Some(Dialect::Riddles);
        assert_eq!(
            detect_dialect(&[Token::Number(2)], &[], riddles),
            Dialect::TheAiGames
        );
        assert_eq!(
            detect_dialect(&[Token::Number(0)], &[], riddles),
            Dialect::Riddles
        );
        assert_eq!(detect_dialect(&[], &[Token::Dot], None), Dialect::Riddles);
    }

    #[test]
    fn engine_positions_equal_the_positions_reached_by_play() {
        for (field, macroboard, plies, dialect) in engine_positions() {
            let board = from_engine(field, macroboard).unwrap();
            assert_eq!(board, after(&GAME[..plies]), "{plies} plies, {dialect:?}");
            assert_eq!(board.ply(), plies as u32);
            assert_eq!(board.to_move(), (plies % 2) as u8);
        }
        let free_choice = from_engine(MOVE17_THEAIGAMES, "2,-1,-1,-1,-1,-1,-1,-1,-1").unwrap();
        assert_eq!(free_choice.won_boards(1), 1);
        assert_eq!(free_choice.target(), None);
        // Boards 1..8 hold seven marks of player 0 and one of player 1.
        assert_eq!(free_choice.legal_move_count(), 72 - 8);
    }

    #[test]
    fn engine_values_are_written_back_exactly() {
        for (field, macroboard, plies, dialect) in engine_positions() {
            let board = after(&GAME[..plies]);
            assert_eq!(
                board.engine_field(dialect),
                tokens(field),
                "{plies} {dialect:?}"
            );
            assert_eq!(
                board.engine_macroboard(dialect),
                tokens(macroboard),
                "{plies} {dialect:?}"
            );
        }
    }

    #[test]
    fn round_trip_holds_along_the_game_in_both_dialects() {
        let mut board = Board::new();
        for &(column, row) in &GAME {
            board.play(Move::from_xy(column, row).unwrap());
            for dialect in [Dialect::TheAiGames, Dialect::Riddles] {
                let field = board.engine_field(dialect);
                let macroboard = board.engine_macroboard(dialect);
                assert_eq!(Board::from_engine(&field, &macroboard, dialect), Ok(board));
            }
        }
    }

    /// Replaces value `index` of a comma-separated list.
    fn with_value(values: &str, index: usize, value: &str) -> String {
        let mut parts: Vec<&str> = values.split(',').collect();
        parts[index] = value;
        parts.join(",")
    }

    #[test]
    fn malformed_values_are_errors() {
        let ok_field = MOVE5_THEAIGAMES;
        let ok_macro = "-1,0,0,0,0,0,0,0,0";
        assert!(from_engine(ok_field, ok_macro).is_ok());
        let bad: Vec<(String, String, &str)> = vec![
            (ok_field[2..].to_string(), ok_macro.into(), "80 values"),
            (format!("{ok_field},0"), ok_macro.into(), "82 values"),
            (ok_field.into(), "-1,0,0,0,0,0,0,0".into(), "8 macro values"),
            (ok_field.into(), format!("{ok_macro},0"), "10 macro values"),
            (
                with_value(ok_field, 5, "7"),
                ok_macro.into(),
                "unknown mark 7",
            ),
            (
                with_value(ok_field, 5, "-1"),
                ok_macro.into(),
                "-1 in the field",
            ),
            (with_value(ok_field, 5, "x"), ok_macro.into(), "a wall"),
            (
                ok_field.into(),
                with_value(ok_macro, 0, "x"),
                "a wall in the macroboard",
            ),
            (
                ok_field.into(),
                with_value(ok_macro, 0, "3"),
                "unknown board state",
            ),
            (
                ok_field.into(),
                with_value(ok_macro, 0, "-2"),
                "unknown board state",
            ),
        ];
        for (field, macroboard, why) in bad {
            let (field, macroboard) = (tokens(&field), tokens(&macroboard));
            let result = Board::from_engine(&field, &macroboard, Dialect::TheAiGames);
            assert!(result.is_err(), "{why}: {result:?}");
        }
        // A dot in the TheAIGames dialect, and a 2 in the riddles dialect.
        let dotted = tokens(&with_value(ok_field, 5, "."));
        assert!(Board::from_engine(&dotted, &tokens(ok_macro), Dialect::TheAiGames).is_err());
        let two = tokens(&with_value(MOVE5_RIDDLES, 5, "2"));
        let riddles_macro = tokens("-1,.,.,.,.,.,.,.,.");
        assert!(
            Board::from_engine(&tokens(MOVE5_RIDDLES), &riddles_macro, Dialect::Riddles).is_ok()
        );
        assert!(Board::from_engine(&two, &riddles_macro, Dialect::Riddles).is_err());
        assert!(Board::from_engine(&[], &[], Dialect::Riddles).is_err());
    }

    #[test]
    fn contradictory_positions_are_errors() {
        let cases: Vec<(String, &str, &str)> = vec![
            // Player 0 with two marks more than player 1.
            (
                with_value(MOVE5_THEAIGAMES, 80, "1"),
                "-1,0,0,0,0,0,0,0,0",
                "the first mover must have as many or one more",
            ),
            // Player 1 with more marks than player 0.
            (
                with_value(with_value(MOVE5_THEAIGAMES, 80, "2").as_str(), 79, "2"),
                "-1,0,0,0,0,0,0,0,0",
                "the first mover must have as many or one more",
            ),
            // Board 0 marked won by player 0 but its line belongs to player 1.
            (
                MOVE17_THEAIGAMES.into(),
                "1,-1,-1,-1,-1,-1,-1,-1,-1",
                "no line of theirs",
            ),
            // Board 0 has a line that the macroboard does not mark.
            (
                MOVE17_THEAIGAMES.into(),
                "-1,-1,-1,-1,-1,-1,-1,-1,-1",
                "does not mark it won",
            ),
            (
                MOVE17_THEAIGAMES.into(),
                "0,-1,-1,-1,-1,-1,-1,-1,-1",
                "does not mark it won",
            ),
            // Board 4 marked won without a line.
            (
                MOVE5_THEAIGAMES.into(),
                "0,0,0,0,1,-1,0,0,0",
                "no line of theirs",
            ),
            // Two playable boards that are not all the open ones.
            (
                MOVE5_THEAIGAMES.into(),
                "0,0,0,-1,-1,0,0,0,0",
                "expected one board or all",
            ),
            // No playable board while the game goes on.
            (
                MOVE5_THEAIGAMES.into(),
                "0,0,0,0,0,0,0,0,0",
                "no micro board is marked playable",
            ),
        ];
        for (field, macroboard, why) in cases {
            let error = from_engine(&field, macroboard).unwrap_err();
            assert!(error.to_string().contains(why), "{error} is not: {why}");
        }
    }

    #[test]
    fn closed_boards_cannot_be_playable_and_finished_games_have_no_target() {
        // Board 4 full without a line (X O X / X O O / O X X), marked playable.
        let mut board = Board::new();
        let mut field = board.engine_field(Dialect::TheAiGames);
        for (cell, value) in [1, 2, 1, 1, 2, 2, 2, 1, 1].into_iter().enumerate() {
            let (column, row) = Move(4 * 9 + cell as u8).xy();
            field[row as usize * 9 + column as usize] = Token::Number(value);
        }
        let macroboard = tokens("-1,-1,-1,-1,-1,-1,-1,-1,-1");
        assert!(Board::from_engine(&field, &macroboard, Dialect::TheAiGames).is_err());
        // The same field with board 4 not playable: a drawn board, "any" target.
        let macroboard = tokens("-1,-1,-1,-1,0,-1,-1,-1,-1");
        board = Board::from_engine(&field, &macroboard, Dialect::TheAiGames).unwrap();
        assert_eq!(board.drawn_boards(), 1 << 4);
        assert_eq!(board.target(), None);
        assert_eq!(board.to_move(), 1);
    }

    #[test]
    fn a_winner_who_is_to_move_is_an_error() {
        // Player 0 owns boards 0, 1, 2 by their top rows (9 marks) and player 1 has 9 marks:
        // player 0 to move would mean player 1 made the last move, after the game was over.
        let mut field = vec![Token::Number(0); 81];
        for cell in &mut field[..9] {
            *cell = Token::Number(1);
        }
        // Two marks in each of boards 3..6 and one in board 7: no line for player 1.
        for index in [27, 28, 30, 31, 33, 34, 54, 55, 57] {
            field[index] = Token::Number(2);
        }
        let macroboard = tokens("1,1,1,0,0,0,0,0,0");
        let result = Board::from_engine(&field, &macroboard, Dialect::TheAiGames);
        assert!(
            result == Err(PositionError::WinnerToMove { player: 0 }),
            "{result:?}"
        );
        // One mark fewer for player 1: player 1 to move, and player 0 has won.
        field[57] = Token::Number(0);
        let finished = Board::from_engine(&field, &macroboard, Dialect::TheAiGames).unwrap();
        assert_eq!(finished.outcome(), Some(mctsbot::game::Outcome::Win(0)));
        // A finished game with a playable board is a contradiction too.
        let macroboard = tokens("1,1,1,-1,-1,-1,-1,-1,-1");
        assert_eq!(
            Board::from_engine(&field, &macroboard, Dialect::TheAiGames),
            Err(PositionError::PlayableAfterTheEnd)
        );
    }
}
