//! Stripping a module's code for the bundle: comments and `#[cfg(test)]` items out,
//! paths into the stand-in crates made absolute, and the spaces between tokens squeezed
//! out; and the literal scanner the bundler's token reading shares.

use std::path::Path;

/// A module's code: its file under `src` without comments and test items.
pub(super) fn read_code(src: &Path, file: &str) -> Result<String, String> {
    let path = src.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(strip(&text))
}

/// The crates the bundle stands in for, as modules at its root.
const STAND_INS: [&str; 3] = ["rand", "rand_xoshiro", "log"];

/// `code` with each path into a stand-in crate (`rand::RngCore`) made absolute
/// (`crate::rand::RngCore`): the stand-ins are modules, not crates.
pub(super) fn crate_paths(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len() + 64);
    let mut i = 0;
    while i < chars.len() {
        if let Some(end) = literal_end(&chars, i) {
            out.extend(&chars[i..end.min(chars.len())]);
            i = end;
            continue;
        }
        let starts_path = i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':');
        let stand_in = STAND_INS.iter().find(|name| {
            let path: Vec<char> = format!("{name}::").chars().collect();
            chars[i..].starts_with(&path)
        });
        if let (true, Some(name)) = (starts_path, stand_in) {
            out.push_str("crate::");
            out.push_str(name);
            i += name.len();
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Pairs of punctuation characters that a space must keep apart: together they would read
/// as one token, or begin one (`& &x` is not `&&x`, `Vec<u8> =` not `>=`, `.. =` not
/// `..=`), or look like one to a reader (`a - -b`).
const JOINING: [&str; 26] = [
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=",
    "|=", "<<", ">>", "..", ".=", "//", "/*", "*/", "<-", "--",
];

/// `code` (no comments) with the whitespace between tokens squeezed out: a space is kept
/// only between two words (identifiers, numbers, literals), which would otherwise run
/// together, between a word and a label's quote, and between two punctuation characters
/// that would join (see [`JOINING`]); and a trailing comma before a closing brace goes (a
/// brace closes no tuple, where `(x,)` needs its comma). About 12% of the UTTT bundle.
pub(super) fn squeeze(code: &str) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Word,
        Punct(char),
    }
    let joins = |a: char, b: char| JOINING.iter().any(|pair| pair.chars().eq([a, b]));
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut last: Option<Kind> = None;
    let mut space_pending = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            space_pending = true;
            i += 1;
            continue;
        }
        let (end, kind) = match literal_end(&chars, i) {
            Some(end) => (end.min(chars.len()), Kind::Word),
            None if is_ident(c) => {
                let end = (i..chars.len()).find(|&k| !is_ident(chars[k]));
                (end.unwrap_or(chars.len()), Kind::Word)
            }
            None => (i + 1, Kind::Punct(c)),
        };
        if space_pending {
            let keep = match (last, kind) {
                // `continue 'label`: a word before a quote would be a prefixed literal.
                (Some(Kind::Word), Kind::Word | Kind::Punct('\'')) => true,
                (Some(Kind::Punct(a)), Kind::Punct(b)) => joins(a, b),
                _ => false,
            };
            if keep {
                out.push(' ');
            }
        }
        if kind == Kind::Punct('}') && last == Some(Kind::Punct(',')) {
            out.pop();
        }
        out.extend(&chars[i..end]);
        last = Some(kind);
        space_pending = false;
        i = end;
    }
    out
}

/// The end (exclusive) of the literal or comment starting at `i`, or `None` if none
/// starts there. Char literals are told from lifetimes by their closing quote.
pub(super) fn literal_end(s: &[char], i: usize) -> Option<usize> {
    let at = |k: usize| s.get(k).copied().unwrap_or('\0');
    match (at(i), at(i + 1)) {
        ('/', '/') => Some((i..s.len()).find(|&k| s[k] == '\n').unwrap_or(s.len())),
        ('/', '*') => {
            let mut depth = 0;
            let mut k = i;
            while k < s.len() {
                if at(k) == '/' && at(k + 1) == '*' {
                    depth += 1;
                    k += 2;
                } else if at(k) == '*' && at(k + 1) == '/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        return Some(k);
                    }
                } else {
                    k += 1;
                }
            }
            Some(s.len())
        }
        ('r', '"') | ('r', '#') if i == 0 || !is_ident(at(i - 1)) => {
            let hashes = (i + 1..s.len()).take_while(|&k| s[k] == '#').count();
            if at(i + 1 + hashes) != '"' {
                return None;
            }
            let mut k = i + 2 + hashes;
            while k < s.len() {
                if s[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    return Some(k + 1 + hashes);
                }
                k += 1;
            }
            Some(s.len())
        }
        ('"', _) => {
            let mut k = i + 1;
            while k < s.len() && s[k] != '"' {
                k += if s[k] == '\\' { 2 } else { 1 };
            }
            Some(k + 1)
        }
        ('\'', '\\') => (i + 2..s.len()).find(|&k| s[k] == '\'').map(|k| k + 1),
        ('\'', _) if at(i + 2) == '\'' => Some(i + 3),
        _ => None,
    }
}

pub(super) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` without comments and without the items marked `#[cfg(test)]`.
pub fn strip(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    // Pass 1: comments out, literals kept.
    let mut code = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match literal_end(&s, i) {
            Some(end) if s[i] == '/' => {
                if s.get(i + 1) == Some(&'/') {
                    i = end; // keep the newline
                } else {
                    code.push(' ');
                    i = end;
                }
            }
            Some(end) => {
                code.extend_from_slice(&s[i..end.min(s.len())]);
                i = end;
            }
            None => {
                code.push(s[i]);
                i += 1;
            }
        }
    }
    // Pass 2: each `#[cfg(test)]` item out, up to its `;` or its closing brace.
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < code.len() {
        if code[i..].starts_with(&marker) {
            i = item_end(&code, i + marker.len());
            continue;
        }
        match literal_end(&code, i) {
            Some(end) => {
                out.extend(&code[i..end.min(code.len())]);
                i = end;
            }
            None => {
                out.push(code[i]);
                i += 1;
            }
        }
    }
    out
}

/// The end of the item starting at `i`: after its first `;` outside braces, or after the
/// brace that closes its first `{`.
fn item_end(code: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < code.len() {
        if let Some(end) = literal_end(code, i) {
            i = end;
            continue;
        }
        match code[i] {
            ';' if depth == 0 => return i + 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    code.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_test_items_go_and_literals_stay() {
        let text = "/// doc\nfn a() -> &'static str { \"// not a comment {\" } // gone\n\
                    /* block /* nested */ */ const C: char = '{';\n\
                    #[cfg(test)]\nmod tests { fn t() { let s = \"}\"; } }\n\
                    #[cfg(test)]\nmod more;\nfn b() {}\n";
        let stripped = strip(text);
        assert!(stripped.contains("fn a() -> &'static str { \"// not a comment {\" }"));
        assert!(stripped.contains("const C: char = '{';"));
        assert!(stripped.contains("fn b() {}"));
        for gone in ["doc", "gone", "nested", "tests", "more"] {
            assert!(!stripped.contains(gone), "{gone} in {stripped}");
        }
    }

    #[test]
    fn paths_into_the_stand_in_crates_become_absolute() {
        let code = "use rand::RngCore;\ntype R = rand_xoshiro::Xoshiro256PlusPlus;\n\
                    use log::{info, warn};\nlet s = \"rand::x\"; my_rand::f(); a::log::g();\n";
        assert_eq!(
            crate_paths(code),
            "use crate::rand::RngCore;\ntype R = crate::rand_xoshiro::Xoshiro256PlusPlus;\n\
             use crate::log::{info, warn};\nlet s = \"rand::x\"; my_rand::f(); a::log::g();\n"
        );
    }

    #[test]
    fn squeezing_keeps_apart_what_would_join() {
        let code = "fn f<'a>(x: &'a str, y: i32) -> i32 {\n    let s = \"two  spaces\";\n    \
                    let r = r#\"raw  \" text\"#;\n    'outer: loop { continue 'outer; }\n    \
                    y - -1 + (& &y == & &y) as i32 + b' ' as i32\n}\n";
        assert_eq!(
            squeeze(code),
            "fn f<'a>(x:&'a str,y:i32)->i32{let s=\"two  spaces\";let r=r#\"raw  \" text\"#;\
             'outer:loop{continue 'outer;}y- -1+(& &y==& &y)as i32+b' ' as i32}"
        );
    }

    #[test]
    fn squeezing_drops_a_comma_before_a_brace_only() {
        let code = "let v: Vec<u8> = vec![1, 2,];\nlet t = (x,);\nS { a: 1, b: 2, }\n\
                    let r = 0.. =3; let s = a < -b; let u = [x, ];";
        assert_eq!(
            squeeze(code),
            "let v:Vec<u8> =vec![1,2,];let t=(x,);S{a:1,b:2}let r=0.. =3;let s=a< -b;let u=[x,];"
        );
    }
}
