//! Conversions between [`Board`] and the engine's `field` / `macroboard` values, in both
//! dialects (see [`Dialect`]).
//!
//! The engine sends the whole position every turn, so the bot rebuilds its board from
//! it; any contradiction in what arrives is a [`PositionError`], never a panic, so a
//! broken engine line can be logged and survived.

use super::board::{Board, Move, ANY};
use super::tables::is_line;
use crate::game::Player;
use crate::protocol::Token;
use std::fmt;

/// Which engine's conventions a UTTT stream uses (Light Riders exists only as riddles.io).
///
/// TheAIGames 2016: player ids 1/2, field `0` empty / `1` / `2`, macroboard `-1` playable,
/// `0` not playable, `1`/`2` won. riddles.io 2017: ids 0/1, field `.` empty / `0` / `1`,
/// macroboard `-1` playable, `.` not playable, `0`/`1` won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    #[default]
    TheAiGames,
    Riddles,
}

impl Dialect {
    /// The engine id of internal player `player` (0 = the player who moves first).
    pub fn engine_id(self, player: u8) -> u8 {
        match self {
            Dialect::TheAiGames => player + 1,
            Dialect::Riddles => player,
        }
    }

    /// The dialect implied by `settings your_botid`: 0 exists only on riddles.io and 2
    /// only on TheAIGames; 1 exists in both, so it says nothing.
    pub fn from_bot_id(id: u8) -> Option<Dialect> {
        match id {
            0 => Some(Dialect::Riddles),
            2 => Some(Dialect::TheAiGames),
            _ => None,
        }
    }

    /// The dialect implied by a UTTT `field` or `macroboard`: any `.` means riddles.io,
    /// any `2` TheAIGames (its second player). Without either a field sent before
    /// `action move` is TheAIGames (it always has an empty cell, which riddles.io writes
    /// as `.`) but says so only by the absence; a macroboard without either may be both.
    pub fn from_tokens(tokens: &[Token]) -> Option<Dialect> {
        if tokens.contains(&Token::Dot) {
            Some(Dialect::Riddles)
        } else if tokens.contains(&Token::Number(2)) {
            Some(Dialect::TheAiGames)
        } else {
            None
        }
    }
}

/// The dialect of a UTTT field/macroboard pair, the strongest evidence first: the
/// values themselves (riddles.io writes `.` for empty cells and undecided boards, only
/// TheAIGames has a `2`), then `hint` (what `settings your_botid` says), then TheAIGames
/// (whose empty field, all `0`, has neither).
pub fn detect_dialect(field: &[Token], macroboard: &[Token], hint: Option<Dialect>) -> Dialect {
    Dialect::from_tokens(field)
        .or_else(|| Dialect::from_tokens(macroboard))
        .or(hint)
        .unwrap_or(Dialect::TheAiGames)
}

/// Whether a field, whatever its length, holds a value that only UTTT sends: TheAIGames'
/// second player `2` (Light Riders has riders `0` and `1` only). Evidence of the game
/// for a field too damaged to be a position.
pub fn field_has_uttt_only_value(tokens: &[Token]) -> bool {
    tokens.contains(&Token::Number(2))
}

/// The UTTT answer line `place_move X Y` (X = column, Y = row, both 0..8).
pub fn format_place_move(column: u8, row: u8) -> String {
    format!("place_move {column} {row}")
}

/// Parses a UTTT answer `place_move X Y` into (column, row); `None` if malformed.
///
/// Blanks (spaces, tabs, `\r`, `\n`) around and between the words are tolerated, as the
/// engines do; anything else (a coordinate above 8, a sign, a third number) is rejected
/// so the arena can judge it.
pub fn parse_place_move(line: &str) -> Option<(u8, u8)> {
    let mut words = line
        .split([' ', '\t', '\r', '\n'])
        .filter(|word| !word.is_empty());
    let coordinate = |word: Option<&str>| {
        word.filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|w| w.parse::<u8>().ok())
            .filter(|&v| v <= 8)
    };
    if words.next()? != "place_move" {
        return None;
    }
    let column = coordinate(words.next())?;
    let row = coordinate(words.next())?;
    words.next().is_none().then_some((column, row))
}

/// What one macroboard value says about its micro board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MacroCell {
    Playable,
    NotPlayable,
    Won(Player),
}

/// The engine value of an empty cell / an undecided, not playable board.
pub fn empty_token(dialect: Dialect) -> Token {
    match dialect {
        Dialect::TheAiGames => Token::Number(0),
        Dialect::Riddles => Token::Dot,
    }
}

/// The engine value naming `player` (a mark in the field, a won board in the macroboard).
fn player_token(dialect: Dialect, player: Player) -> Token {
    Token::Number(dialect.engine_id(player) as i8)
}

/// The internal player an engine id token names, if any.
fn player_of(dialect: Dialect, token: Token) -> Option<Player> {
    (0..2).find(|&p| token == player_token(dialect, p))
}

/// Why an engine's field and macroboard are not a UTTT position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    NoField,
    NoMacroboard,
    FieldLength(usize),
    MacroboardLength(usize),
    FieldValue {
        index: usize,
        token: Token,
        dialect: Dialect,
    },
    MacroboardValue {
        index: usize,
        token: Token,
        dialect: Dialect,
    },
    /// The first mover must have as many marks as the second, or one more.
    MarkCounts {
        first: u32,
        second: u32,
    },
    LinesForBoth {
        board: usize,
    },
    WonWithoutLine {
        board: usize,
        player: Player,
    },
    LineNotWon {
        board: usize,
    },
    FullBoardPlayable {
        board: usize,
    },
    /// A player with three boards in a line is the one to move.
    WinnerToMove {
        player: Player,
    },
    PlayableAfterTheEnd,
    NothingPlayable,
    PlayableCount {
        playable: u32,
        open: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            NoField => write!(f, "no field received yet"),
            NoMacroboard => write!(f, "no macroboard received yet"),
            FieldLength(n) => write!(f, "field has {n} values, expected 81"),
            MacroboardLength(n) => write!(f, "macroboard has {n} values, expected 9"),
            FieldValue {
                index,
                token,
                dialect,
            } => write!(
                f,
                "field value {token} at index {index} is not valid in the {dialect:?} dialect"
            ),
            MacroboardValue {
                index,
                token,
                dialect,
            } => write!(
                f,
                "macroboard value {token} at index {index} is not valid in the {dialect:?} dialect"
            ),
            MarkCounts { first, second } => write!(
                f,
                "player 0 has {first} marks and player 1 has {second}: the first mover must have as many or one more"
            ),
            LinesForBoth { board } => write!(f, "micro board {board} has lines for both players"),
            WonWithoutLine { board, player } => write!(
                f,
                "macroboard says player {player} won micro board {board}, but it has no line of theirs"
            ),
            LineNotWon { board } => write!(
                f,
                "micro board {board} has a line but the macroboard does not mark it won"
            ),
            FullBoardPlayable { board } => {
                write!(f, "macroboard marks full micro board {board} playable")
            }
            WinnerToMove { player } => write!(
                f,
                "player {player} has three boards in a line but is the one to move"
            ),
            PlayableAfterTheEnd => {
                write!(f, "the game is over but the macroboard marks playable boards")
            }
            NothingPlayable => {
                write!(f, "the game is not over but no micro board is marked playable")
            }
            PlayableCount { playable, open } => write!(
                f,
                "macroboard marks {playable} boards playable: expected one board or all {open} open ones"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

fn parse_field_cell(
    dialect: Dialect,
    token: Token,
    index: usize,
) -> Result<Option<Player>, PositionError> {
    if token == empty_token(dialect) {
        return Ok(None);
    }
    player_of(dialect, token)
        .map(Some)
        .ok_or(PositionError::FieldValue {
            index,
            token,
            dialect,
        })
}

fn parse_macro_cell(
    dialect: Dialect,
    token: Token,
    index: usize,
) -> Result<MacroCell, PositionError> {
    if token == Token::Number(-1) {
        Ok(MacroCell::Playable)
    } else if token == empty_token(dialect) {
        Ok(MacroCell::NotPlayable)
    } else {
        player_of(dialect, token)
            .map(MacroCell::Won)
            .ok_or(PositionError::MacroboardValue {
                index,
                token,
                dialect,
            })
    }
}

impl Board {
    /// Rebuilds the position the engine describes before the bot's move.
    ///
    /// `field` holds 81 values row-major (`row * 9 + column`), `macroboard` 9 values
    /// row-major. The player to move follows from the mark counts; won boards must agree
    /// with lines on the field; the `-1` boards must be either every open board ("any")
    /// or exactly one open board.
    // Long by choice: each check of the engine's field and macroboard is a few lines with
    // its own error message, in the order the engine sends them.
    pub fn from_engine(
        field: &[Token],
        macroboard: &[Token],
        dialect: Dialect,
    ) -> Result<Board, PositionError> {
        if field.len() != 81 {
            return Err(PositionError::FieldLength(field.len()));
        }
        if macroboard.len() != 9 {
            return Err(PositionError::MacroboardLength(macroboard.len()));
        }
        let mut board = Board::new();
        for (index, &token) in field.iter().enumerate() {
            if let Some(player) = parse_field_cell(dialect, token, index)? {
                let mv = Move::from_field_index(index).expect("index < 81");
                board.marks[player as usize][mv.board() as usize] |= 1 << mv.cell();
            }
        }
        let counts =
            [0, 1].map(|p: usize| board.marks[p].iter().map(|m| m.count_ones()).sum::<u32>());
        board.turn = if counts[0] == counts[1] {
            0
        } else if counts[0] == counts[1] + 1 {
            1
        } else {
            return Err(PositionError::MarkCounts {
                first: counts[0],
                second: counts[1],
            });
        };

        let mut playable = 0u16;
        for (index, &token) in macroboard.iter().enumerate() {
            let lines = [0, 1].map(|p| is_line(board.marks[p][index]));
            if lines[0] && lines[1] {
                return Err(PositionError::LinesForBoth { board: index });
            }
            let full = board.empty_cells(index) == 0;
            match parse_macro_cell(dialect, token, index)? {
                MacroCell::Won(player) => {
                    if !lines[player as usize] {
                        return Err(PositionError::WonWithoutLine {
                            board: index,
                            player,
                        });
                    }
                    board.won[player as usize] |= 1 << index;
                }
                cell @ (MacroCell::Playable | MacroCell::NotPlayable) => {
                    if lines[0] || lines[1] {
                        return Err(PositionError::LineNotWon { board: index });
                    }
                    if full {
                        board.drawn |= 1 << index;
                    }
                    if cell == MacroCell::Playable {
                        if full {
                            return Err(PositionError::FullBoardPlayable { board: index });
                        }
                        playable |= 1 << index;
                    }
                }
            }
        }
        for player in 0..2 {
            if is_line(board.won[player]) && player as Player == board.turn {
                return Err(PositionError::WinnerToMove {
                    player: player as Player,
                });
            }
        }

        let open = board.open_boards();
        board.target = if board.outcome().is_some() {
            if playable != 0 {
                return Err(PositionError::PlayableAfterTheEnd);
            }
            ANY
        } else if playable == open {
            ANY
        } else if playable.count_ones() == 1 {
            playable.trailing_zeros() as u8
        } else if playable == 0 {
            return Err(PositionError::NothingPlayable);
        } else {
            return Err(PositionError::PlayableCount {
                playable: playable.count_ones(),
                open: open.count_ones(),
            });
        };
        Ok(board)
    }

    /// The field as the engine sends it: 81 values row-major (`row * 9 + column`).
    pub fn engine_field(&self, dialect: Dialect) -> Vec<Token> {
        (0..81)
            .map(|index| {
                let mv = Move::from_field_index(index).expect("index < 81");
                match self.owner(mv) {
                    Some(player) => player_token(dialect, player),
                    None => empty_token(dialect),
                }
            })
            .collect()
    }

    /// The macroboard as the engine sends it before the player to move answers: `-1` on
    /// every playable board, a won board as its winner's id, anything else empty/undecided.
    pub fn engine_macroboard(&self, dialect: Dialect) -> Vec<Token> {
        let playable = self.playable_boards();
        (0..9)
            .map(|index| {
                if playable >> index & 1 == 1 {
                    Token::Number(-1)
                } else if self.won[0] >> index & 1 == 1 {
                    player_token(dialect, 0)
                } else if self.won[1] >> index & 1 == 1 {
                    player_token(dialect, 1)
                } else {
                    empty_token(dialect)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod answer_tests {
    use super::*;

    #[test]
    fn dialect_detection() {
        assert_eq!(Dialect::from_bot_id(0), Some(Dialect::Riddles));
        assert_eq!(Dialect::from_bot_id(1), None);
        assert_eq!(Dialect::from_bot_id(2), Some(Dialect::TheAiGames));
        assert_eq!(
            Dialect::from_tokens(&[Token::Number(-1), Token::Dot]),
            Some(Dialect::Riddles)
        );
        assert_eq!(
            Dialect::from_tokens(&[Token::Number(0), Token::Number(1)]),
            None
        );
        assert_eq!(
            Dialect::from_tokens(&[Token::Number(0), Token::Number(2)]),
            Some(Dialect::TheAiGames)
        );
        assert_eq!(Dialect::Riddles.engine_id(1), 1);
        assert_eq!(Dialect::TheAiGames.engine_id(1), 2);
    }

    #[test]
    fn place_move_answers() {
        assert_eq!(parse_place_move("place_move 4 4"), Some((4, 4)));
        assert_eq!(parse_place_move("place_move 2 8"), Some((2, 8)));
        assert_eq!(parse_place_move("  place_move\t0  8 \r"), Some((0, 8)));
        assert_eq!(format_place_move(7, 3), "place_move 7 3");
        assert_eq!(parse_place_move(&format_place_move(7, 3)), Some((7, 3)));
        for bad in [
            "",
            "place_move",
            "place_move 4",
            "place_move 9 0",
            "place_move 0 9",
            "place_move -1 0",
            "place_move 4 4 4",
            "place_move 4,4",
            "place_move 256 0",
            "place_move4 4",
            "Place_move 4 4",
            "up",
        ] {
            assert_eq!(parse_place_move(bad), None, "{bad:?}");
        }
    }
}
