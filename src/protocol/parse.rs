//! The nom parsers behind [`super::parse_command`] and the answer parsers.
//!
//! nom finds the words, numbers and cell tokens; every failure is turned into a reason
//! that names the part of the line at fault, because "parse error" in a bot's log on a
//! live server tells nobody what the engine sent.

use nom::{
    branch::alt,
    bytes::complete::{take_till1, take_while},
    character::complete::{char, digit1},
    combinator::{all_consuming, map_res, opt, recognize, value},
    IResult, Parser,
};

use super::{Command, GameUpdate, Setting, Token};
use std::fmt;

/// What is wrong with an engine line, naming the part at fault (`context`: `settings
/// timebank`, `field value 3`). The quoted parts are quoted and cut short already.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    EmptyLine,
    UnknownCommand(String),
    /// A key, value, player or type that the line stops before (`what`).
    Missing {
        context: String,
        what: &'static str,
    },
    TrailingText {
        context: String,
        extra: String,
    },
    NotUnsigned {
        context: String,
        text: String,
    },
    OutOfRange {
        context: String,
        text: String,
    },
    EmptyToken {
        context: String,
    },
    UnexpectedToken {
        context: String,
        text: String,
    },
    /// An empty name in `player_names`, at this position.
    EmptyName {
        context: String,
        position: usize,
    },
    /// `update game field` or `macroboard` with nothing after it.
    EmptyBoard {
        context: String,
        key: String,
    },
    /// An `action` other than `move`.
    UnsupportedAction(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::EmptyLine => write!(f, "empty line"),
            Reason::UnknownCommand(word) => write!(f, "unknown command {word}"),
            Reason::Missing { context, what } => write!(f, "{context}: missing {what}"),
            Reason::TrailingText { context, extra } => {
                write!(f, "{context}: unexpected trailing text {extra}")
            }
            Reason::NotUnsigned { context, text } => {
                write!(f, "{context}: expected a non-negative integer, got {text}")
            }
            Reason::OutOfRange { context, text } => {
                write!(f, "{context}: number {text} is out of range")
            }
            Reason::EmptyToken { context } => write!(f, "{context}: empty token"),
            Reason::UnexpectedToken { context, text } => {
                write!(f, "{context}: unexpected token {text}")
            }
            Reason::EmptyName { context, position } => {
                write!(f, "{context}: empty name at position {position}")
            }
            Reason::EmptyBoard { context, key } => write!(f, "{context}: empty {key}"),
            Reason::UnsupportedAction(kind) => write!(
                f,
                "action {kind}: unsupported action type (expected \"move\")"
            ),
        }
    }
}

impl std::error::Error for Reason {}

fn missing(context: impl Into<String>, what: &'static str) -> Reason {
    Reason::Missing {
        context: context.into(),
        what,
    }
}

/// Characters that separate words. Spaces and tabs are what people and engines use;
/// `\r` and `\n` are included so a stray CRLF or doubled line ending is harmless.
pub(super) fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Blanks, possibly none.
fn blank0(input: &str) -> IResult<&str, &str> {
    take_while(is_blank).parse(input)
}

/// One word after optional blanks.
fn word(input: &str) -> IResult<&str, &str> {
    (blank0, take_till1(is_blank)).map(|(_, w)| w).parse(input)
}

/// Splits off the next word: `Some((word, rest))`, or `None` if only blanks are left.
fn next_word(input: &str) -> Option<(&str, &str)> {
    word(input).ok().map(|(rest, w)| (w, rest))
}

/// The rest of the line without surrounding blanks; `None` if nothing is left.
fn remainder(input: &str) -> Option<&str> {
    let r = input.trim_matches(is_blank);
    (!r.is_empty()).then_some(r)
}

/// `text` quoted for an error reason, cut after 40 characters so that a 100 kB line
/// does not produce a 100 kB reason.
fn quoted(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// A value that must be a single word, e.g. a number or a comma-separated list.
fn single_word<'a>(context: &str, value: &'a str) -> Result<&'a str, Reason> {
    match next_word(value) {
        Some((w, rest)) => match remainder(rest) {
            None => Ok(w),
            Some(extra) => Err(Reason::TrailingText {
                context: context.to_string(),
                extra: quoted(extra),
            }),
        },
        None => Err(missing(context, "value")),
    }
}

/// A non-negative decimal integer that fits `T`; no sign, no blanks.
fn unsigned<T: TryFrom<u64>>(context: &str, value: &str) -> Result<T, Reason> {
    if all_consuming(digit1::<&str, ()>).parse(value).is_err() {
        return Err(Reason::NotUnsigned {
            context: context.to_string(),
            text: quoted(value),
        });
    }
    value
        .parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| Reason::OutOfRange {
            context: context.to_string(),
            text: quoted(value),
        })
}

/// One cell of a `field` or `macroboard`.
fn token(input: &str) -> IResult<&str, Token> {
    alt((
        value(Token::Dot, char('.')),
        value(Token::Wall, char('x')),
        map_res(recognize((opt(char('-')), digit1)), |s: &str| {
            s.parse::<i8>().map(Token::Number)
        }),
    ))
    .parse(input)
}

/// A comma-separated `field` or `macroboard`. Positions in errors count from 0, like
/// field indices (`row * 9 + column`), so a reason points straight at the cell.
fn tokens(what: &str, value: &str) -> Result<Vec<Token>, Reason> {
    value
        .split(',')
        .enumerate()
        .map(|(i, raw)| {
            let context = format!("{what} value {i}");
            if raw.is_empty() {
                return Err(Reason::EmptyToken { context });
            }
            all_consuming(token)
                .parse(raw)
                .map(|(_, t)| t)
                .map_err(|_| {
                    let digits = raw.strip_prefix('-').unwrap_or(raw);
                    let text = quoted(raw);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        Reason::OutOfRange { context, text }
                    } else {
                        Reason::UnexpectedToken { context, text }
                    }
                })
        })
        .collect()
}

/// Parses a trimmed, non-empty line; the error is the reason only.
pub(super) fn command(line: &str) -> Result<Command, Reason> {
    let Some((first, rest)) = next_word(line) else {
        return Err(Reason::EmptyLine);
    };
    match first {
        "settings" => settings(rest).map(Command::Settings),
        "update" => update(rest),
        "action" => action(rest),
        other => Err(Reason::UnknownCommand(quoted(other))),
    }
}

/// `settings KEY VALUE`, after the first word.
fn settings(input: &str) -> Result<Setting, Reason> {
    let (key, rest) = next_word(input).ok_or_else(|| missing("settings", "key"))?;
    let context = format!("settings {key}");
    let value = remainder(rest).ok_or_else(|| missing(&*context, "value"))?;
    let one = || single_word(&context, value);
    Ok(match key {
        "timebank" => Setting::Timebank(unsigned(&context, one()?)?),
        "time_per_move" => Setting::TimePerMove(unsigned(&context, one()?)?),
        "your_botid" => Setting::YourBotId(unsigned(&context, one()?)?),
        "field_width" => Setting::FieldWidth(unsigned(&context, one()?)?),
        "field_height" => Setting::FieldHeight(unsigned(&context, one()?)?),
        "max_rounds" => Setting::MaxRounds(unsigned(&context, one()?)?),
        "your_bot" => Setting::YourBot(one()?.to_string()),
        "player_names" => Setting::PlayerNames(
            one()?
                .split(',')
                .enumerate()
                .map(|(i, name)| {
                    if name.is_empty() {
                        Err(Reason::EmptyName {
                            context: context.clone(),
                            position: i,
                        })
                    } else {
                        Ok(name.to_string())
                    }
                })
                .collect::<Result<_, _>>()?,
        ),
        _ => Setting::Unknown {
            key: key.to_string(),
            value: value.to_string(),
        },
    })
}

/// `update game KEY VALUE` or `update PLAYER KEY VALUE`, after the first word.
fn update(input: &str) -> Result<Command, Reason> {
    let (player, rest) = next_word(input).ok_or_else(|| missing("update", "player"))?;
    let (key, rest) = next_word(rest).ok_or_else(|| missing(format!("update {player}"), "key"))?;
    let context = format!("update {player} {key}");
    let Some(value) = remainder(rest) else {
        return Err(
            if player == "game" && matches!(key, "field" | "macroboard") {
                Reason::EmptyBoard {
                    context,
                    key: key.to_string(),
                }
            } else {
                missing(context, "value")
            },
        );
    };
    if player != "game" {
        return Ok(Command::UpdatePlayer {
            player: player.to_string(),
            key: key.to_string(),
            value: value.to_string(),
        });
    }
    let one = || single_word(&context, value);
    Ok(Command::UpdateGame(match key {
        "round" => GameUpdate::Round(unsigned(&context, one()?)?),
        "move" => GameUpdate::Move(unsigned(&context, one()?)?),
        "field" => GameUpdate::Field(tokens("field", one()?)?),
        "macroboard" => GameUpdate::Macroboard(tokens("macroboard", one()?)?),
        _ => GameUpdate::Unknown {
            key: key.to_string(),
            value: value.to_string(),
        },
    }))
}

/// `action move MS`, after the first word. Other action types (e.g. the `order` of
/// other riddles.io games) are errors: this bot could not answer them.
fn action(input: &str) -> Result<Command, Reason> {
    let (kind, rest) = next_word(input).ok_or_else(|| missing("action", "type"))?;
    if kind != "move" {
        return Err(Reason::UnsupportedAction(quoted(kind)));
    }
    let (ms, rest) = next_word(rest).ok_or_else(|| missing("action move", "timebank"))?;
    let timebank_ms = unsigned("action move", ms)?;
    if let Some(extra) = remainder(rest) {
        return Err(Reason::TrailingText {
            context: format!("action move {ms}"),
            extra: quoted(extra),
        });
    }
    Ok(Command::ActionMove { timebank_ms })
}
