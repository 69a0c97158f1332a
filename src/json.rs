//! Just enough JSON writing for `mctsbot bench` and the arena's `results.json`: string
//! escaping and numbers. Hand-written because the bot must build from source on
//! competition servers with no extra crates (the arena, a package of its own, writes
//! with this too, so there is one JSON writer).

/// `s` as a quoted JSON string (RFC 8259 escapes; other control characters as `\u00XX`).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A finite number with `decimals` digits, or `null` (JSON has no infinity or NaN).
pub fn number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "null".to_string()
    }
}

/// An object from already-encoded values, keys in the given order.
pub fn object(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}: {}", string(k), v))
        .collect();
    format!("{{{}}}", body.join(", "))
}

/// An array from already-encoded values, one per line (readable diffs of results).
pub fn array(items: &[String]) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    format!("[\n    {}\n  ]", items.join(",\n    "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"");
        assert_eq!(number(0.5, 3), "0.500");
        assert_eq!(number(f64::INFINITY, 1), "null");
        assert_eq!(
            object(&[("a", "1".into()), ("b", string("x"))]),
            "{\"a\": 1, \"b\": \"x\"}"
        );
        assert_eq!(array(&[]), "[]");
    }
}
