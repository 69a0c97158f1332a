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
fn single_word<'a>(context: &str, value: &'a str) -> Result<&'a str, String> {
    match next_word(value) {
        Some((w, rest)) => match remainder(rest) {
            None => Ok(w),
            Some(extra) => Err(format!(
                "{context}: unexpected trailing text {}",
                quoted(extra)
            )),
        },
        None => Err(format!("{context}: missing value")),
    }
}

/// A non-negative decimal integer that fits `T`; no sign, no blanks.
fn unsigned<T: TryFrom<u64>>(context: &str, value: &str) -> Result<T, String> {
    if all_consuming(digit1::<&str, ()>).parse(value).is_err() {
        return Err(format!(
            "{context}: expected a non-negative integer, got {}",
            quoted(value)
        ));
    }
    value
        .parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("{context}: number {} is out of range", quoted(value)))
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
fn tokens(what: &str, value: &str) -> Result<Vec<Token>, String> {
    value
        .split(',')
        .enumerate()
        .map(|(i, raw)| {
            if raw.is_empty() {
                return Err(format!("{what} value {i}: empty token"));
            }
            all_consuming(token)
                .parse(raw)
                .map(|(_, t)| t)
                .map_err(|_| {
                    let digits = raw.strip_prefix('-').unwrap_or(raw);
                    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        format!("{what} value {i}: number {} is out of range", quoted(raw))
                    } else {
                        format!("{what} value {i}: unexpected token {}", quoted(raw))
                    }
                })
        })
        .collect()
}

/// Parses a trimmed, non-empty line; the error is the reason only.
pub(super) fn command(line: &str) -> Result<Command, String> {
    let Some((first, rest)) = next_word(line) else {
        return Err("empty line".to_string());
    };
    match first {
        "settings" => settings(rest).map(Command::Settings),
        "update" => update(rest),
        "action" => action(rest),
        other => Err(format!("unknown command {}", quoted(other))),
    }
}

/// `settings KEY VALUE`, after the first word.
fn settings(input: &str) -> Result<Setting, String> {
    let (key, rest) = next_word(input).ok_or("settings: missing key")?;
    let context = format!("settings {key}");
    let value = remainder(rest).ok_or_else(|| format!("{context}: missing value"))?;
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
                        Err(format!("{context}: empty name at position {i}"))
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
fn update(input: &str) -> Result<Command, String> {
    let (player, rest) = next_word(input).ok_or("update: missing player")?;
    let (key, rest) = next_word(rest).ok_or_else(|| format!("update {player}: missing key"))?;
    let context = format!("update {player} {key}");
    let Some(value) = remainder(rest) else {
        return Err(
            if player == "game" && matches!(key, "field" | "macroboard") {
                format!("{context}: empty {key}")
            } else {
                format!("{context}: missing value")
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
fn action(input: &str) -> Result<Command, String> {
    let (kind, rest) = next_word(input).ok_or("action: missing type")?;
    if kind != "move" {
        return Err(format!(
            "action {}: unsupported action type (expected \"move\")",
            quoted(kind)
        ));
    }
    let (ms, rest) = next_word(rest).ok_or("action move: missing timebank")?;
    let timebank_ms = unsigned("action move", ms)?;
    if let Some(extra) = remainder(rest) {
        return Err(format!(
            "action move {ms}: unexpected trailing text {}",
            quoted(extra)
        ));
    }
    Ok(Command::ActionMove { timebank_ms })
}
