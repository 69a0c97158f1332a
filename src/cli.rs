//! The bot's command-line helpers: the errors of its options ([`OptionError`]), reading a
//! flag's number, and a seed from the clock.
//! Parsed by hand: a handful of `--flag value` pairs do not justify a dependency on a
//! competition server that builds from source (the arena and `tune` use `clap`).

use std::fmt;
use std::str::FromStr;

/// Why a command line makes no options: a flag, a value or flags together that the bot
/// does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// A flag no part of the bot owns.
    UnknownFlag(String),
    /// A flag given without its value, and what the value is (`a number`).
    MissingValue {
        flag: &'static str,
        needs: &'static str,
    },
    /// A value its flag does not take.
    BadValue {
        flag: &'static str,
        text: String,
        expected: Expected,
    },
    /// A name none of `what`'s (`final-move rule`), with the choices where the message
    /// lists them (empty: not).
    UnknownName {
        what: &'static str,
        name: String,
        choices: &'static str,
    },
    /// A number below its flag's least.
    TooSmall { flag: &'static str, least: u32 },
    /// A number outside its flag's range.
    OutOfRange {
        flag: &'static str,
        low: u32,
        high: u32,
    },
    /// A flag that shapes play-outs beside leaves valued without them.
    PlayoutsNotRun { flag: &'static str },
    /// Flags the bot cannot take together, as their owner explains it.
    Conflict(&'static str),
}

/// What a flag's value should have been, as [`OptionError::BadValue`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    WholeNumber,
    Positive,
    /// A number from the first to the second.
    Between(&'static str, &'static str),
    OnOff,
    /// That many comma-separated finite numbers.
    Numbers(usize),
    /// A value of this form (`MOVES,BOUND (such as 50,0.7)`).
    Form(&'static str),
    /// One of these (`draw or boards`).
    OneOf(&'static str),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            OptionError::UnknownFlag(name) => write!(f, "unknown option {name:?} (see --help)"),
            OptionError::MissingValue { flag, needs } => write!(f, "{flag} needs {needs}"),
            OptionError::BadValue {
                flag,
                text,
                expected,
            } => match expected {
                Expected::WholeNumber => {
                    write!(f, "{flag} needs a non-negative whole number, got {text:?}")
                }
                Expected::Positive => write!(f, "{flag} needs a positive number, got {text:?}"),
                Expected::Between(low, high) => {
                    write!(
                        f,
                        "{flag} needs a number from {low} to {high}, not {text:?}"
                    )
                }
                Expected::OnOff => write!(f, "{flag} takes on or off, not {text:?}"),
                Expected::Numbers(n) => {
                    write!(f, "{flag} needs {n} comma-separated numbers, not {text:?}")
                }
                Expected::Form(form) => write!(f, "{flag} needs {form}, not {text:?}"),
                Expected::OneOf(choices) => write!(f, "{flag}: {choices}, not {text:?}"),
            },
            OptionError::UnknownName {
                what,
                name,
                choices,
            } => {
                write!(f, "unknown {what} {name:?}")?;
                if !choices.is_empty() {
                    write!(f, ": {choices}")?;
                }
                Ok(())
            }
            OptionError::TooSmall { flag, least } => write!(f, "{flag} must be at least {least}"),
            OptionError::OutOfRange { flag, low, high } => {
                write!(f, "{flag} must be between {low} and {high}")
            }
            OptionError::PlayoutsNotRun { flag } => write!(
                f,
                "{flag} shapes play-outs, which --uttt-eval nn or blend does not run \
                 (add --uttt-eval playout)"
            ),
            OptionError::Conflict(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OptionError {}

/// `what` has no `name` (and `choices` lists them, or is empty).
pub fn unknown(what: &'static str, name: &str, choices: &'static str) -> OptionError {
    OptionError::UnknownName {
        what,
        name: name.to_string(),
        choices,
    }
}

/// `text` is not the value `flag` takes.
pub fn bad_value(flag: &'static str, text: &str, expected: Expected) -> OptionError {
    OptionError::BadValue {
        flag,
        text: text.to_string(),
        expected,
    }
}

/// `text` as a number for `flag`, or an error that names both.
pub fn number<T: FromStr>(flag: &'static str, text: &str) -> Result<T, OptionError> {
    text.parse()
        .map_err(|_| bad_value(flag, text, Expected::WholeNumber))
}

/// `text` as a finite positive number for `flag`, or an error that names both.
pub fn positive(flag: &'static str, text: &str) -> Result<f32, OptionError> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(bad_value(flag, text, Expected::Positive)),
    }
}

/// A seed from the clock, for runs that were not given one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5eed, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_their_errors() {
        assert_eq!(number::<u32>("--games", "12"), Ok(12));
        let err = number::<u32>("--games", "-1").unwrap_err().to_string();
        assert!(err.contains("--games") && err.contains("\"-1\""), "{err}");
        assert_eq!(positive("--c", "0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "x"] {
            assert!(positive("--c", bad).is_err(), "{bad}");
        }
    }
}
