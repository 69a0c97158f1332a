//! The bot's flags as tables. The common options and each game's list their flags once,
//! in [`Section`]s of [`Flag`]s; that one table parses the command line
//! ([`Flag::apply`]), writes `--help` ([`help`]) and drives the flag tests, so a flag
//! cannot be parsed without being documented, or documented without being parsed.

pub use crate::cli::{bad_value, unknown, Expected, OptionError};
use crate::search::FinalMove;
use std::fmt::Write as _;
use std::str::FromStr;

/// One flag: its name, how `--help` shows it, and what it sets in the options `C` of the
/// part of the bot that owns it.
pub struct Flag<C> {
    /// The flag as typed: `--seed`.
    pub name: &'static str,
    /// The value as `--help` writes it (`N`, `draw|boards`); empty for a switch.
    pub value: &'static str,
    /// What a missing value is, for the error (`--seed needs a number`).
    pub needs: &'static str,
    /// The help's lines beside and under the flag, ending with the default in brackets.
    pub help: &'static [&'static str],
    /// Sets the flag's value (a switch gets an empty one).
    pub set: fn(&mut C, Value) -> Result<(), OptionError>,
}

/// A titled group of flags in `--help` (an empty title: none).
pub struct Section<C: 'static> {
    pub title: &'static str,
    pub flags: &'static [Flag<C>],
}

/// A flag's value as given, with the flag's name for the errors.
#[derive(Clone, Copy, Debug)]
pub struct Value<'a> {
    pub flag: &'static str,
    pub text: &'a str,
}

impl Value<'_> {
    /// A non-negative whole number ([`crate::cli::number`]).
    pub fn number<T: FromStr>(self) -> Result<T, OptionError> {
        crate::cli::number(self.flag, self.text)
    }

    /// A finite positive number ([`crate::cli::positive`]).
    pub fn positive(self) -> Result<f32, OptionError> {
        crate::cli::positive(self.flag, self.text)
    }

    /// A number from 0 to 1.
    pub fn unit(self) -> Result<f32, OptionError> {
        match self.text.parse::<f32>() {
            Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => Err(self.bad(Expected::Between("0", "1"))),
        }
    }

    /// A value of a type that explains its own errors.
    pub fn parse<T: FromStr<Err = OptionError>>(self) -> Result<T, OptionError> {
        self.text.parse()
    }

    /// This value is not the `expected` one.
    pub fn bad(self, expected: Expected) -> OptionError {
        bad_value(self.flag, self.text, expected)
    }
}

impl<C> Flag<C> {
    /// Whether the flag takes no value.
    pub fn is_switch(&self) -> bool {
        self.value.is_empty()
    }

    /// Sets the flag in `options`, taking its value (if it has one) from `args`.
    pub fn apply<'a>(
        &self,
        options: &mut C,
        args: &mut impl Iterator<Item = &'a str>,
    ) -> Result<(), OptionError> {
        let text = if self.is_switch() {
            ""
        } else {
            args.next().ok_or(OptionError::MissingValue {
                flag: self.name,
                needs: self.needs,
            })?
        };
        (self.set)(
            options,
            Value {
                flag: self.name,
                text,
            },
        )
    }
}

/// The flag named `name` in `sections`.
pub fn find<'s, C>(sections: &'s [Section<C>], name: &str) -> Option<&'s Flag<C>> {
    sections
        .iter()
        .flat_map(|section| section.flags)
        .find(|flag| flag.name == name)
}

/// Every flag's name in `sections`, in the help's order.
pub fn names<C>(sections: &[Section<C>]) -> impl Iterator<Item = &'static str> + '_ {
    sections
        .iter()
        .flat_map(|section| section.flags)
        .map(|flag| flag.name)
}

/// Where a flag's help starts, and the widest flag and value that fits before it.
const HELP_COLUMN: usize = 28;
const FLAG_INDENT: usize = 4;

/// Appends `sections` to `out` as `--help` shows them: each title indented by two, each
/// flag by four with its help at column 28 (on the next line when the flag and its value
/// leave no room).
pub fn help<C>(sections: &[Section<C>], out: &mut String) {
    for section in sections {
        if !section.title.is_empty() {
            let _ = writeln!(out, "  {}", section.title);
        }
        for flag in section.flags {
            let shown = if flag.is_switch() {
                flag.name.to_string()
            } else {
                format!("{} {}", flag.name, flag.value)
            };
            let mut line = format!("{:FLAG_INDENT$}{shown}", "");
            for (i, text) in flag.help.iter().enumerate() {
                if i > 0 || line.len() >= HELP_COLUMN {
                    let _ = writeln!(out, "{line}");
                    line = String::new();
                }
                let _ = write!(line, "{:1$}{text}", "", HELP_COLUMN - line.len());
            }
            let _ = writeln!(out, "{line}");
        }
    }
}

/// `--contempt X` (and Light Riders' `--tron-contempt`, named `flag`): a draw's worth
/// below one half for the bot, in `-0.5..=0.5`.
pub fn contempt(flag: &'static str, text: &str) -> Result<f32, OptionError> {
    match text.trim().parse::<f32>() {
        Ok(x) if (-0.5..=0.5).contains(&x) => Ok(x),
        _ => Err(bad_value(flag, text, Expected::Between("-0.5", "0.5"))),
    }
}

/// `on` or `off` (`--battle-fill`, `--win-at-once`, named `flag`).
pub fn on_off(flag: &'static str, text: &str) -> Result<bool, OptionError> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(bad_value(flag, other, Expected::OnOff)),
    }
}

/// `N` finite numbers, comma-separated (`--eval-weights`, `--tron-eval-weights`, named
/// `flag`).
pub fn numbers<const N: usize>(flag: &'static str, text: &str) -> Result<[f32; N], OptionError> {
    let err = || bad_value(flag, text, Expected::Numbers(N));
    let values: Vec<f32> = text
        .split(',')
        .map(|v| v.trim().parse().ok().filter(|x: &f32| x.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(err)?;
    values.try_into().map_err(|_| err())
}

/// A final-move rule by its option name (`--final`, `--tron-final`).
pub fn final_move(name: &str) -> Result<FinalMove, OptionError> {
    Ok(match name {
        "robust" | "max" => FinalMove::MostVisits,
        "max-robust" => FinalMove::MaxRobust,
        "mix" => FinalMove::Mix,
        "secure" => FinalMove::Secure { a: 1.0 },
        other => return Err(unknown("final-move rule", other, "")),
    })
}
