//! The bot's command-line helpers: reading a flag's number and a seed from the clock.
//! Parsed by hand: a handful of `--flag value` pairs do not justify a dependency on a
//! competition server that builds from source (the arena and `tune` use `clap`).

use crate::bot::flags::{bad_value, Expected, OptionError};
use std::str::FromStr;

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
