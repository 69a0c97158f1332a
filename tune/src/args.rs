//! The tools' command lines: `--flag VALUE` pairs and positional words, parsed by hand
//! like the bot's and the arena's.

use std::str::FromStr;

/// The word after `flag`, if the flag is given (an error if nothing follows it).
pub fn value<'a>(args: &'a [String], flag: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| a == flag) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .map(|v| Some(v.as_str()))
            .ok_or_else(|| format!("{flag} needs a value")),
    }
}

/// The value of `flag` parsed, or `default` without the flag.
pub fn parsed<T: FromStr>(args: &[String], flag: &str, default: T) -> Result<T, String> {
    match value(args, flag)? {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| format!("{flag} needs a value, got {v:?}")),
    }
}

/// `flag MIN..MAX` with MIN ≤ MAX, or `default` without the flag.
pub fn range(args: &[String], flag: &str, default: (u32, u32)) -> Result<(u32, u32), String> {
    let Some(text) = value(args, flag)? else {
        return Ok(default);
    };
    let err = || format!("{flag} needs MIN..MAX with MIN <= MAX, got {text:?}");
    let (min, max) = text.split_once("..").ok_or_else(err)?;
    match (min.parse(), max.parse()) {
        (Ok(min), Ok(max)) if min <= max => Ok((min, max)),
        _ => Err(err()),
    }
}

/// The words that are neither a flag nor a flag's value.
pub fn positional(args: &[String]) -> Vec<&str> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--") {
            i += 2;
        } else {
            words.push(args[i].as_str());
            i += 1;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_values_ranges_and_positional_words() {
        let a = args("a.txt --depth 5 b.txt --plies 2..4");
        assert_eq!(positional(&a), ["a.txt", "b.txt"]);
        assert_eq!(parsed(&a, "--depth", 7), Ok(5));
        assert_eq!(parsed(&a, "--pairs", 9), Ok(9));
        assert_eq!(range(&a, "--plies", (0, 0)), Ok((2, 4)));
        assert!(parsed::<u32>(&args("--depth x"), "--depth", 7).is_err());
        assert!(value(&args("--depth"), "--depth").is_err());
        assert!(range(&args("--plies 4..2"), "--plies", (0, 0)).is_err());
    }
}
