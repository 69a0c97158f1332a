//! UTTT rules on hand-made positions, and perft against the independent reference.
//!
//! Positions are written as literal 9-bit masks per micro board (bit = cell = row * 3 +
//! column inside the micro board) plus the macroboard the engine would send, and are
//! loaded through `Board::from_engine`, the same door real games come through.

// Nested so that `cargo test uttt` selects these tests by their path.
mod uttt_rules {

    use mctsbot::game::Outcome;
    use mctsbot::protocol::Token;
    use mctsbot::search::{Evaluator, FastRng, Game};
    use mctsbot::uttt::Dialect;
    use mctsbot::uttt::{perft, Board, Move, RandomPlayout};
    use rand::SeedableRng;

    /// Builds a position from per-board masks of player 0's (`x`) and player 1's (`o`) marks
    /// and a TheAIGames macroboard.
    fn position(x: [u16; 9], o: [u16; 9], macroboard: [i8; 9]) -> Board {
        let mut field = vec![Token::Number(0); 81];
        for board in 0..9u8 {
            for cell in 0..9u8 {
                let (column, row) = Move(board * 9 + cell).xy();
                let index = row as usize * 9 + column as usize;
                if x[board as usize] >> cell & 1 == 1 {
                    field[index] = Token::Number(1);
                }
                if o[board as usize] >> cell & 1 == 1 {
                    field[index] = Token::Number(2);
                }
            }
        }
        let macroboard: Vec<Token> = macroboard.iter().map(|&v| Token::Number(v)).collect();
        Board::from_engine(&field, &macroboard, Dialect::TheAiGames).expect("valid test position")
    }

    fn at(column: u8, row: u8) -> Move {
        Move::from_xy(column, row).unwrap()
    }

    fn legal_moves(board: &Board) -> Vec<Move> {
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        moves
    }

    const ROW0: u16 = 0b000_000_111;

    #[test]
    fn perft_matches_the_reference_counts_from_the_empty_board() {
        let expected = [1, 81, 720, 6336, 55080, 473256, 4020960];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&Board::new(), depth as u32), count, "depth {depth}");
        }
    }

    #[test]
    fn move_indexing_and_engine_coordinates_agree() {
        for row in 0..9u8 {
            for column in 0..9u8 {
                let mv = Move::from_xy(column, row).unwrap();
                assert_eq!(mv.xy(), (column, row));
                assert_eq!(mv.board(), (row / 3) * 3 + column / 3);
                assert_eq!(mv.cell(), (row % 3) * 3 + column % 3);
                assert_eq!(mv.0, mv.board() * 9 + mv.cell());
            }
        }
        assert_eq!(Move::from_xy(9, 0), None);
        assert_eq!(Move::from_xy(0, 9), None);
        assert_eq!(Move::from_xy(255, 255), None);
        // place_move 5 1: column 5, row 1 = board 1, cell 5.
        assert_eq!(at(5, 1), Move(9 + 5));
    }

    #[test]
    fn empty_board_has_81_moves_and_the_cell_picks_the_next_board() {
        let mut board = Board::new();
        assert_eq!(board.to_move(), 0);
        assert_eq!(board.ply(), 0);
        assert_eq!(board.legal_move_count(), 81);
        assert_eq!(board.target(), None);
        board.play(at(4, 4));
        assert_eq!(board.to_move(), 1);
        assert_eq!(board.ply(), 1);
        // Centre cell of the centre board: the opponent must play in the centre board.
        assert_eq!(board.target(), Some(4));
        assert_eq!(board.legal_move_count(), 8);
        assert!(legal_moves(&board).iter().all(|mv| mv.board() == 4));
        assert!(!board.is_legal(at(4, 4)), "occupied cell");
        assert!(!board.is_legal(at(0, 0)), "board 0 is not the target");
        board.play(at(5, 3)); // board 4, cell 2: player 0 goes to board 2.
        assert_eq!(board.target(), Some(2));
        assert!(board.is_legal(at(8, 0)) && !board.is_legal(at(5, 5)));
    }

    #[test]
    fn winning_a_micro_board_closes_it() {
        // Player 0 has two of the top row of board 0 and is sent there.
        let mut board = position(
            [0b000_000_011, 0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0b000_010_000, 0, 0, 0, 0, 0b000_000_001, 0, 0],
            [-1, 0, 0, 0, 0, 0, 0, 0, 0],
        );
        assert_eq!(board.target(), Some(0));
        board.play(at(2, 0)); // board 0, cell 2: completes the top row.
        assert_eq!(board.won_boards(0), 0b1);
        assert_eq!(board.won_boards(1), 0);
        assert_eq!(board.outcome(), None);
        assert_eq!(board.target(), Some(2));
        // The won board is closed for both players even though it has empty cells.
        for cell in 0..9 {
            assert!(!board.is_legal(Move(cell)));
        }
        assert_eq!(
            board.engine_macroboard(Dialect::TheAiGames),
            [1, 0, -1, 0, 0, 0, 0, 0, 0].map(Token::Number)
        );
    }

    #[test]
    fn being_sent_to_a_won_board_frees_the_move() {
        // Board 0 is won by player 0; player 1 is in board 2 and plays its cell 0.
        let mut board = position(
            [ROW0 | 0b000_010_000, 0, 0b000_000_010, 0, 0, 0, 0, 0, 0],
            [
                0,
                0b000_010_000,
                0,
                0,
                0b000_000_001,
                0,
                0b000_000_001,
                0,
                0b100_000_000,
            ],
            [1, 0, -1, 0, 0, 0, 0, 0, 0],
        );
        assert_eq!(board.to_move(), 1);
        board.play(at(6, 0)); // board 2, cell 0: sends player 0 to the won board 0.
        assert_eq!(board.target(), None);
        let moves = legal_moves(&board);
        // Every empty cell of boards 1..8: 72 cells minus the 6 marks there (one of player
        // 0, four of player 1, and the move just played).
        assert_eq!(moves.len(), 72 - 6);
        assert_eq!(board.legal_move_count(), 66);
        assert!(moves.iter().all(|mv| mv.board() != 0));
        assert!(!board.is_legal(at(2, 2)), "board 0 is closed");
        assert!(board.is_legal(at(7, 8)) && board.is_legal(at(3, 4)));
        assert!(!board.is_legal(at(8, 8)), "occupied by player 1");
        assert_eq!(
            board.engine_macroboard(Dialect::TheAiGames),
            [1, -1, -1, -1, -1, -1, -1, -1, -1].map(Token::Number)
        );
    }

    #[test]
    fn being_sent_to_a_full_board_frees_the_move_and_the_full_board_counts_for_nobody() {
        // Board 4:  X O X / X O O / O X .  -- player 0 fills the last cell without a line.
        let mut board = position(
            [0, 0, 0, 0, 0b010_001_101, 0, 0, 0, 0],
            [0, 0, 0, 0, 0b001_110_010, 0, 0, 0, 0],
            [0, 0, 0, 0, -1, 0, 0, 0, 0],
        );
        board.play(at(5, 5)); // board 4, cell 8.
        assert_eq!(board.drawn_boards(), 1 << 4);
        assert_eq!(board.won_boards(0) | board.won_boards(1), 0);
        assert_eq!(board.target(), Some(8));
        board.play(at(7, 7)); // board 8, cell 4: sends player 0 to the full board 4.
        assert_eq!(board.target(), None);
        assert_eq!(board.legal_move_count(), 8 * 9 - 1);
        assert!(legal_moves(&board).iter().all(|mv| mv.board() != 4));
        // A drawn board is neither playable nor won in the engine's macroboard.
        assert_eq!(
            board.engine_macroboard(Dialect::Riddles),
            [-1, -1, -1, -1, 0, -1, -1, -1, -1].map(|v| if v == 0 {
                Token::Dot
            } else {
                Token::Number(v)
            })
        );
    }

    #[test]
    fn three_won_boards_in_a_line_win_the_game() {
        let mut board = position(
            [ROW0, ROW0, 0b000_000_011, 0, 0, 0, 0, 0, 0],
            [
                0,
                0,
                0,
                0b000_010_001,
                0b000_010_001,
                0b000_000_001,
                0b000_000_001,
                0b000_010_000,
                0b100_000_000,
            ],
            [1, 1, -1, 0, 0, 0, 0, 0, 0],
        );
        assert_eq!(board.outcome(), None);
        board.play(at(8, 0)); // board 2, cell 2: third board of the top macro row.
        assert_eq!(board.outcome(), Some(Outcome::Win(0)));
        assert_eq!(Game::outcome(&board), Some(Outcome::Win(0)));
        assert_eq!(board.legal_move_count(), 0);
        assert!(legal_moves(&board).is_empty());
        assert!((0..81).all(|index| !board.is_legal(Move(index))));
        // The engine sends no playable board once the game is over.
        assert_eq!(
            board.engine_macroboard(Dialect::TheAiGames),
            [1, 1, 1, 0, 0, 0, 0, 0, 0].map(Token::Number)
        );
        let before = board;
        let mut rng = FastRng::seed_from_u64(7);
        assert_eq!(RandomPlayout.evaluate(&mut board, &mut rng), 1.0);
        assert_eq!(
            board, before,
            "a play-out from a finished game changes nothing"
        );
    }

    #[test]
    fn a_closed_macro_board_without_a_line_is_a_draw() {
        // Won boards  X O X / O O X / X X .  and board 8 one move from a full, line-less board.
        let x_won = ROW0;
        let o_won = ROW0;
        let x_won_with_o = 0b000_001_000; // player 1's marks in player 0's won boards
        let board8_x = 0b010_001_101;
        let board8_o = 0b001_110_010;
        let mut board = position(
            [x_won, 0, x_won, 0, 0, x_won, x_won, x_won, board8_x],
            [
                x_won_with_o | 0b000_010_000,
                o_won,
                x_won_with_o,
                o_won,
                o_won,
                x_won_with_o,
                x_won_with_o,
                x_won_with_o,
                board8_o,
            ],
            [1, 2, 1, 2, 2, 1, 1, 1, -1],
        );
        assert_eq!(board.to_move(), 0);
        // The only open board is playable: "any" and "board 8" are the same thing.
        assert_eq!(board.target(), None);
        assert_eq!(board.legal_move_count(), 1);
        board.play(at(8, 8));
        assert_eq!(board.outcome(), Some(Outcome::Draw));
        assert_eq!(board.legal_move_count(), 0);
        let mut rng = FastRng::seed_from_u64(1);
        assert_eq!(RandomPlayout.evaluate(&mut board, &mut rng), 0.5);
    }

    #[test]
    fn moves_into_closed_boards_or_occupied_cells_are_illegal() {
        let board = position(
            [ROW0, 0b000_010_000, 0, 0, 0, 0, 0, 0, 0],
            [
                0b000_001_000,
                0,
                0b000_000_001,
                0,
                0b100_000_000,
                0,
                0,
                0,
                0,
            ],
            [1, -1, -1, -1, -1, -1, -1, -1, -1],
        );
        assert_eq!(board.target(), None);
        assert!(!board.is_legal(at(0, 2)), "empty cell of the won board 0");
        assert!(!board.is_legal(at(4, 1)), "occupied by player 0");
        assert!(!board.is_legal(at(6, 0)), "occupied by player 1");
        assert!(!board.is_legal(Move(81)), "off the board");
        assert!(board.is_legal(at(3, 0)));
        assert_eq!(board.legal_move_count(), 72 - 3);
    }

    #[test]
    fn playing_and_rebuilding_from_the_engine_give_equal_boards() {
        // Sent to board 4 while it is the only open board: the engine marks just that board
        // playable, which is also "every open board".
        let mut board = Board::new();
        for (column, row) in [(4, 4), (3, 3), (1, 1), (5, 5), (7, 7)] {
            board.play(at(column, row));
            for dialect in [Dialect::TheAiGames, Dialect::Riddles] {
                let rebuilt = Board::from_engine(
                    &board.engine_field(dialect),
                    &board.engine_macroboard(dialect),
                    dialect,
                );
                assert_eq!(rebuilt, Ok(board));
            }
        }
        assert!(board.render().contains("X"));
    }

    #[test]
    fn render_shows_marks_separators_and_status() {
        let mut board = Board::new();
        board.play(at(0, 0));
        board.play(at(1, 1));
        let picture = board.render();
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines.len(), 12, "{picture}");
        // Player 1's centre cell sent player 0 to the centre board: its empty cells are `*`.
        assert_eq!(lines[0], "X . . | . . . | . . .");
        assert_eq!(lines[1], ". O . | . . . | . . .");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[5], ". . . | * * * | . . .");
        assert!(lines[11].contains("ply 2") && lines[11].contains("X to move"));
    }
}
