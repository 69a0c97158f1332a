//! What the tools' command lines (clap) share: `MIN..MAX` ranges.

/// Parses `MIN..MAX` with MIN ≤ MAX (clap's value parser for `--plies`,
/// `--random-plies`).
pub fn range(text: &str) -> Result<(u32, u32), String> {
    let err = || format!("needs MIN..MAX with MIN <= MAX, got {text:?}");
    let (min, max) = text.split_once("..").ok_or_else(err)?;
    match (min.parse(), max.parse()) {
        (Ok(min), Ok(max)) if min <= max => Ok((min, max)),
        _ => Err(err()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(range("2..4"), Ok((2, 4)));
        assert_eq!(range("3..3"), Ok((3, 3)));
        for bad in ["4..2", "2", "a..4", "2..", "-1..3"] {
            assert!(range(bad).is_err(), "{bad}");
        }
    }
}
