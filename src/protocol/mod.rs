//! The engine protocol of TheAIGames (2016) and riddles.io (2017): lines from the engine
//! parsed with `nom` into [`Command`]s, the bot's answers, and the reverse directions
//! (formatting commands, parsing answers) that the arena needs. Dialect notes and
//! fixtures live in the top-level `protocol/` folder.
//!
//! The parser is game- and dialect-neutral: field and macroboard values stay raw
//! [`Token`]s, and the game modules give them meaning.

use std::fmt;

pub mod codingame;
mod parse;
pub use parse::Reason;
#[cfg(test)]
mod tests;

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
    pub reason: Reason,
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
///
/// Words may be separated by runs of spaces or tabs; a trailing `\r` is ignored. Never
/// panics: whatever the engine (or a fuzzer) sends, the answer is a command or a reason.
pub fn parse_command(line: &str) -> Result<Command, ProtocolError> {
    parse::command(line.trim_matches(parse::is_blank)).map_err(|reason| ProtocolError {
        line: line.to_string(),
        reason,
    })
}

impl Command {
    /// True for `action move`: the one line the bot must answer.
    pub fn is_action(&self) -> bool {
        matches!(self, Command::ActionMove { .. })
    }
}

impl fmt::Display for Token {
    /// The token as it appears in a field: `.`, `x` or the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Dot => f.write_str("."),
            Token::Wall => f.write_str("x"),
            Token::Number(n) => write!(f, "{n}"),
        }
    }
}

/// Writes `tokens` comma-separated, as in `update game field`.
fn write_tokens(f: &mut fmt::Formatter<'_>, tokens: &[Token]) -> fmt::Result {
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{token}")?;
    }
    Ok(())
}

impl fmt::Display for Command {
    /// The exact line an engine sends for this command (no line ending).
    ///
    /// `parse_command` gives the command back for every well-formed command: names,
    /// keys and list items non-empty without blanks (and without commas inside a list),
    /// `Unknown` keys that are not known keys, values without surrounding blanks,
    /// `UpdatePlayer` for a player other than `game`, fields with at least one token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Settings(setting) => {
                f.write_str("settings ")?;
                match setting {
                    Setting::Timebank(v) => write!(f, "timebank {v}"),
                    Setting::TimePerMove(v) => write!(f, "time_per_move {v}"),
                    Setting::PlayerNames(names) => {
                        write!(f, "player_names {}", names.join(","))
                    }
                    Setting::YourBot(name) => write!(f, "your_bot {name}"),
                    Setting::YourBotId(v) => write!(f, "your_botid {v}"),
                    Setting::FieldWidth(v) => write!(f, "field_width {v}"),
                    Setting::FieldHeight(v) => write!(f, "field_height {v}"),
                    Setting::MaxRounds(v) => write!(f, "max_rounds {v}"),
                    Setting::Unknown { key, value } => write!(f, "{key} {value}"),
                }
            }
            Command::UpdateGame(update) => {
                f.write_str("update game ")?;
                match update {
                    GameUpdate::Round(v) => write!(f, "round {v}"),
                    GameUpdate::Move(v) => write!(f, "move {v}"),
                    GameUpdate::Field(tokens) => {
                        f.write_str("field ")?;
                        write_tokens(f, tokens)
                    }
                    GameUpdate::Macroboard(tokens) => {
                        f.write_str("macroboard ")?;
                        write_tokens(f, tokens)
                    }
                    GameUpdate::Unknown { key, value } => write!(f, "{key} {value}"),
                }
            }
            Command::UpdatePlayer { player, key, value } => {
                write!(f, "update {player} {key} {value}")
            }
            Command::ActionMove { timebank_ms } => write!(f, "action move {timebank_ms}"),
        }
    }
}
