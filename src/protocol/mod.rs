//! The engine protocol of TheAIGames (2016) and riddles.io (2017): lines from the engine
//! parsed with `nom` into [`Command`]s, the bot's answers, and the reverse directions
//! (formatting commands, parsing answers) that the arena needs. Dialect notes and
//! fixtures live in the top-level `protocol/` folder.
//!
//! The parser is game- and dialect-neutral: field and macroboard values stay raw
//! [`Token`]s, and the game modules give them meaning.

use std::fmt;

/// One value of a comma-separated `field` or `macroboard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// `.`: empty (riddles.io UTTT and Light Riders), or "not playable" in a riddles macroboard.
    Dot,
    /// `x`: a wall (Light Riders).
    Wall,
    /// An integer such as `-1`, `0`, `1`, `2`.
    Number(i8),
}

/// A `settings KEY VALUE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Timebank(u64),
    TimePerMove(u64),
    PlayerNames(Vec<String>),
    YourBot(String),
    YourBotId(u8),
    FieldWidth(u32),
    FieldHeight(u32),
    MaxRounds(u32),
    /// A key this bot does not use; kept so the caller can log it.
    Unknown {
        key: String,
        value: String,
    },
}

/// An `update game KEY VALUE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameUpdate {
    Round(u32),
    Move(u32),
    Field(Vec<Token>),
    Macroboard(Vec<Token>),
    Unknown { key: String, value: String },
}

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Settings(Setting),
    UpdateGame(GameUpdate),
    /// `update PLAYER KEY VALUE` for a player (e.g. points); logged and ignored by the bot.
    UpdatePlayer {
        player: String,
        key: String,
        value: String,
    },
    /// `action move MS`: answer now; `MS` is the timebank left in milliseconds.
    ActionMove {
        timebank_ms: u64,
    },
}

/// Why a line could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    pub line: String,
    pub reason: String,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot parse engine line {:?}: {}",
            self.line, self.reason
        )
    }
}

impl std::error::Error for ProtocolError {}

/// Parses one engine line (without its line ending; surrounding blanks are allowed).
pub fn parse_command(line: &str) -> Result<Command, ProtocolError> {
    let _ = line;
    todo!("protocol parser")
}

impl fmt::Display for Command {
    /// The exact line an engine sends for this command (no line ending).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = f;
        todo!("command formatting")
    }
}

/// A Light Riders answer word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TronAnswer {
    Up,
    Down,
    Left,
    Right,
    Pass,
}

/// The UTTT answer line `place_move X Y` (X = column, Y = row, both 0..8).
pub fn format_place_move(column: u8, row: u8) -> String {
    format!("place_move {column} {row}")
}

/// Parses a UTTT answer `place_move X Y` into (column, row); `None` if malformed.
pub fn parse_place_move(line: &str) -> Option<(u8, u8)> {
    let _ = line;
    todo!("answer parser")
}

/// Parses a Light Riders answer word; `None` if unknown.
pub fn parse_tron_answer(line: &str) -> Option<TronAnswer> {
    let _ = line;
    todo!("answer parser")
}

impl fmt::Display for TronAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TronAnswer::Up => "up",
            TronAnswer::Down => "down",
            TronAnswer::Left => "left",
            TronAnswer::Right => "right",
            TronAnswer::Pass => "pass",
        })
    }
}

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
}
