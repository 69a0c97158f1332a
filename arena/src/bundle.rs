//! `cg-bundle`: the bot in CodinGame mode as one Rust source file, for CodinGame, which
//! takes one file, compiles it without Cargo, and limits it to 100,000 characters.
//!
//! One file per game (CodinGame takes one per game): UTTT or Tron Battle. It holds the
//! modules that game's CodinGame player needs, under the same paths as in
//! the crate (`crate::uttt::Board` still resolves), with their comments and tests
//! stripped and their indentation dropped. The crates they use are replaced by small
//! stand-ins (see [`PRELUDE`]): the `RngCore`/`SeedableRng` traits of `rand`, Xoshiro256++
//! (as `rand_xoshiro` defines it) and `log`'s macros printing to stderr. Nothing here
//! parses Rust beyond what the stripping needs: literals, comments and braces.
//! `cargo-equip` bundles whole dependency crates, which would not fit the limit, and
//! cannot leave out the engines' protocol and Light Riders; so this is hand-written.

use std::fmt::Write as _;
use std::path::Path;

/// CodinGame's limit on a submission's length, in characters.
pub const CODINGAME_LIMIT: usize = 100_000;

/// A module of a bundle: its path, its file under `src/`, and whether the file's own code
/// goes in (`false`: only the submodules listed with it).
type Module = (&'static str, &'static str, bool);

/// The modules of both games' bundles: the searches, CodinGame's lines, and the parents
/// of the games' own modules.
const SHARED_MODULES: &[Module] = &[
    ("game", "game.rs", true),
    ("search", "search/mod.rs", true),
    ("search::alphabeta", "search/alphabeta.rs", true),
    ("search::bandit", "search/bandit.rs", true),
    ("search::parallel", "search/parallel.rs", true),
    ("search::tree", "search/tree.rs", true),
    ("protocol", "protocol/mod.rs", false),
    ("protocol::codingame", "protocol/codingame/mod.rs", true),
    ("bot", "bot/mod.rs", false),
];

/// The game a bundle plays: CodinGame takes one file per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BundleGame {
    Uttt,
    TronBattle,
}

impl BundleGame {
    pub fn from_name(name: &str) -> Option<BundleGame> {
        match name {
            "uttt" => Some(BundleGame::Uttt),
            "tron" | "tron-battle" => Some(BundleGame::TronBattle),
            _ => None,
        }
    }

    /// What goes into the bundle: the module path, its file under `src/`, and whether
    /// the file's own code goes in (`false`: only the submodules listed after it).
    fn modules(self) -> Vec<Module> {
        let game: &[Module] = match self {
            BundleGame::Uttt => &[
                ("uttt", "uttt/mod.rs", true),
                ("uttt::alphabeta", "uttt/alphabeta.rs", true),
                ("uttt::board", "uttt/board.rs", true),
                ("uttt::evaluate", "uttt/evaluate.rs", true),
                ("uttt::nn", "uttt/nn.rs", true),
                ("uttt::playout", "uttt/playout.rs", true),
                ("uttt::prior", "uttt/prior.rs", true),
                ("uttt::tables", "uttt/tables.rs", true),
                (
                    "protocol::codingame::uttt",
                    "protocol/codingame/uttt.rs",
                    true,
                ),
                ("bot::uttt", "bot/uttt/mod.rs", false),
                ("bot::uttt::codingame", "bot/uttt/codingame.rs", true),
                ("bot::uttt::searcher", "bot/uttt/searcher.rs", true),
            ],
            BundleGame::TronBattle => &[
                ("tron", "tron/mod.rs", false),
                ("tron::battle", "tron/battle.rs", true),
                ("tron::direction", "tron/direction.rs", true),
                ("tron::grid", "tron/grid.rs", true),
                (
                    "protocol::codingame::tron_battle",
                    "protocol/codingame/tron_battle.rs",
                    true,
                ),
                ("bot::tron", "bot/tron/mod.rs", false),
                ("bot::tron::battle", "bot/tron/battle.rs", true),
            ],
        };
        SHARED_MODULES.iter().chain(game).copied().collect()
    }

    /// The bundle's `play`, which [`MAIN`] calls with the input.
    fn play(self) -> &'static str {
        match self {
            BundleGame::Uttt => UTTT_PLAY,
            BundleGame::TronBattle => TRON_BATTLE_PLAY,
        }
    }

    fn title(self) -> &'static str {
        match self {
            BundleGame::Uttt => "Ultimate Tic-Tac-Toe",
            BundleGame::TronBattle => "Tron Battle",
        }
    }
}

/// The stand-ins for the crates.
const PRELUDE: &str = r#"#![allow(dead_code, unused_imports)]
mod rand {
pub trait RngCore {
fn next_u32(&mut self) -> u32;
fn next_u64(&mut self) -> u64;
}
pub trait SeedableRng: Sized {
fn seed_from_u64(state: u64) -> Self;
}
}
mod rand_xoshiro {
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xoshiro256PlusPlus {
s: [u64; 4],
}
impl crate::rand::SeedableRng for Xoshiro256PlusPlus {
fn seed_from_u64(mut state: u64) -> Self {
let mut s = [0; 4];
for word in &mut s {
state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
let mut z = state;
z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
*word = z ^ (z >> 31);
}
Xoshiro256PlusPlus { s }
}
}
impl crate::rand::RngCore for Xoshiro256PlusPlus {
fn next_u32(&mut self) -> u32 {
(self.next_u64() >> 32) as u32
}
fn next_u64(&mut self) -> u64 {
let s = &mut self.s;
let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
let t = s[1] << 17;
s[2] ^= s[0];
s[3] ^= s[1];
s[1] ^= s[2];
s[0] ^= s[3];
s[2] ^= t;
s[3] = s[3].rotate_left(45);
result
}
}
}
mod log {
macro_rules! error_ { ($($t:tt)*) => { eprintln!("ERROR {}", format_args!($($t)*)) } }
macro_rules! warn_ { ($($t:tt)*) => { eprintln!("WARN {}", format_args!($($t)*)) } }
macro_rules! info_ { ($($t:tt)*) => { eprintln!("INFO {}", format_args!($($t)*)) } }
pub(crate) use {error_ as error, info_ as info, warn_ as warn};
}
"#;

/// Every bundle's `main`: reads the first line, stamps its arrival and hands the game to
/// the bundle's `play`.
const MAIN: &str = r#"fn main() {
use std::io::BufRead;
let mut input = std::io::stdin().lock();
let mut first = String::new();
if input.read_line(&mut first).unwrap_or(0) == 0 {
return;
}
let received = std::time::Instant::now();
let _ = play(first, received, input, std::io::stdout().lock());
}
type Input = std::io::StdinLock<'static>;
type Output = std::io::StdoutLock<'static>;
"#;

/// The UTTT bundle's `play`: the default search, seeded from the clock.
const UTTT_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
let settings = bot::uttt::codingame::Settings {
tree: bot::uttt::searcher::UTTT_SEARCH,
play: bot::uttt::searcher::UtttPlay::default(),
threads: 1,
seed,
safety_margin_ms: protocol::codingame::SAFETY_MS,
};
bot::uttt::codingame::run(first, received, input, output, &settings)
}
"#;

/// The Tron Battle bundle's `play`.
const TRON_BATTLE_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
bot::tron::battle::run(first, received, input, output, protocol::codingame::SAFETY_MS)
}
"#;

/// The bundle of `game` from the crate whose `src/` is `src`.
pub fn bundle(src: &Path, game: BundleGame) -> Result<String, String> {
    let mut out = format!(
        "// mctsbot for CodinGame {}, one file made by cg-bundle from the\n\
         // crate's sources (https://github.com: see the project's README). Do not edit.\n{PRELUDE}{MAIN}{}",
        game.title(),
        game.play()
    );
    write_modules(src, &game.modules(), "", &mut out)?;
    Ok(out)
}

/// Writes the `modules` directly under `parent` ("" = the crate root), each with its own
/// submodules inside.
fn write_modules(
    src: &Path,
    modules: &[Module],
    parent: &str,
    out: &mut String,
) -> Result<(), String> {
    for &(path, file, with_code) in modules {
        let (module_parent, name) = path.rsplit_once("::").unwrap_or(("", path));
        if module_parent != parent {
            continue;
        }
        let _ = writeln!(out, "pub mod {name} {{");
        if with_code {
            let text = std::fs::read_to_string(src.join(file))
                .map_err(|e| format!("{}: {e}", src.join(file).display()))?;
            let code = without_embedded_files(&drop_unbundled(&strip(&text), path, modules));
            out.push_str(&compact(&crate_paths(&code)));
        }
        write_modules(src, modules, path, out)?;
        out.push_str("}\n");
    }
    Ok(())
}

/// Whether `path` is one of the bundle's `modules`.
fn bundled(path: &str, modules: &[Module]) -> bool {
    modules.iter().any(|&(p, _, _)| p == path)
}

/// Removes the `mod NAME;` declarations (the bundle writes the modules it keeps inline)
/// and the `pub use NAME::…;` re-exports of the modules it leaves out.
fn drop_unbundled(code: &str, path: &str, modules: &[Module]) -> String {
    let mut kept = String::with_capacity(code.len());
    // Inside a dropped re-export that spans several lines, up to its `;`.
    let mut in_dropped = false;
    for line in code.lines() {
        if in_dropped {
            in_dropped = !line.trim_end().ends_with(';');
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let declares = match words.as_slice() {
            ["mod", name] | ["pub", "mod", name] | ["pub(crate)", "mod", name] => {
                Some(name.trim_end_matches(';'))
            }
            _ => None,
        };
        let reexported = words
            .iter()
            .position(|&w| w == "use")
            .filter(|&i| words[..i].iter().all(|w| w.starts_with("pub")))
            .and_then(|i| words.get(i + 1))
            .and_then(|w| w.split_once("::"))
            .map(|(name, _)| name);
        let dropped = declares
            .is_some_and(|name| line.trim_end().ends_with(';') && !name.is_empty())
            || reexported.is_some_and(|name| {
                name != "crate"
                    && name != "super"
                    && name != "std"
                    && !bundled(&format!("{path}::{name}"), modules)
                    && is_submodule_name(code, name)
            });
        if dropped {
            in_dropped = !line.trim_end().ends_with(';');
        } else {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// Whether `code` declares a submodule `name` (so a `use name::…` refers to it).
fn is_submodule_name(code: &str, name: &str) -> bool {
    code.lines().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        matches!(words.as_slice(), ["mod", n] | ["pub", "mod", n] | ["pub(crate)", "mod", n] if n.trim_end_matches(';') == name)
    })
}

/// `code` with each `include_bytes!(…)` replaced by an empty byte string: the bundle is
/// one file, and the value network's weights (24 KB, which would take about as many
/// characters again even packed) are left out. The bundle plays with play-outs, the
/// default; asked for the network, it would stop at its missing weights.
fn without_embedded_files(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(start) = rest.find("include_bytes!(") {
        let end = rest[start..]
            .find(')')
            .map_or(rest.len(), |e| start + e + 1);
        out.push_str(&rest[..start]);
        out.push_str("b\"\"");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The crates the bundle stands in for, as modules at its root.
const STAND_INS: [&str; 3] = ["rand", "rand_xoshiro", "log"];

/// `code` with each path into a stand-in crate (`rand::RngCore`) made absolute
/// (`crate::rand::RngCore`): the stand-ins are modules, not crates.
fn crate_paths(code: &str) -> String {
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

/// Drops leading indentation and blank lines.
fn compact(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.lines().map(str::trim).filter(|l| !l.is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The end (exclusive) of the literal or comment starting at `i`, or `None` if none
/// starts there. Char literals are told from lifetimes by their closing quote.
fn literal_end(s: &[char], i: usize) -> Option<usize> {
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

fn is_ident(c: char) -> bool {
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
    fn embedded_files_are_left_out() {
        let code = "static W: &[u8] = include_bytes!(\"nn_weights.bin\");\n";
        assert_eq!(without_embedded_files(code), "static W: &[u8] = b\"\";\n");
    }

    #[test]
    fn module_declarations_go_and_reexports_of_left_out_modules_too() {
        let code = "pub mod alphabeta;\nmod sequential;\npub use sequential::{\nA,\nB,\n};\n\
                    pub use tree::C;\nuse crate::game::Player;\npub use board::Board;\nmod board;\n";
        let modules = BundleGame::Uttt.modules();
        let kept = drop_unbundled(code, "search", &modules);
        assert_eq!(kept, "pub use tree::C;\nuse crate::game::Player;\n");
        let kept = drop_unbundled(code, "uttt", &modules);
        assert!(kept.contains("pub use board::Board;"), "{kept}");
    }
}
