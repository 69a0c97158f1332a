//! `cg-bundle`: the bot in CodinGame mode as one Rust source file, for CodinGame, which
//! takes one file, compiles it without Cargo, and limits it to 100,000 characters.
//!
//! One file per game (CodinGame takes one per game): UTTT or Tron Battle. It holds the
//! modules that game's CodinGame player needs, found by following the module paths its
//! code names from the bundle's `play` ([`modules`]: no list to keep up when a file
//! moves), under the same paths as in the crate (`crate::uttt::Board` still resolves),
//! with their comments and tests stripped and their spaces squeezed out. The crates they
//! use are replaced by small stand-ins (see [`PRELUDE`]): the `RngCore`/`SeedableRng`
//! traits of `rand`, Xoshiro256++ (as `rand_xoshiro` defines it) and `log`'s macros
//! printing to stderr. Nothing here parses Rust beyond what the stripping and the paths
//! need: literals, comments, braces, `use` trees and `a::b` paths. A UTTT bundle asked
//! for the value network carries its weights packed into text
//! ([`mctsbot::uttt::nn::pack_weights`]); otherwise it leaves them out.
//! `cargo-equip` bundles whole dependency crates, which would not fit the limit, and
//! cannot leave out the engines' protocol and Light Riders; so this is hand-written.

use mctsbot::game::GameKind;
use std::fmt::Write as _;
use std::path::Path;

/// CodinGame's limit on a submission's length, in characters.
pub const CODINGAME_LIMIT: usize = 100_000;

/// A module of a bundle: its path (`uttt::board`), its file under `src/`, and whether
/// the file's own code goes in (`false`: a parent that only holds the bundled
/// submodules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    pub path: String,
    pub file: String,
    pub with_code: bool,
}

/// What the bundle of a game needs: CodinGame takes one file per game (its Tron is Tron
/// Battle).
trait Bundled {
    /// The bundle's `play`, which [`MAIN`] calls with the input.
    fn play(self) -> &'static str;
    /// The game's name on CodinGame.
    fn title(self) -> &'static str;
}

impl Bundled for GameKind {
    fn play(self) -> &'static str {
        match self {
            GameKind::Uttt => UTTT_PLAY,
            GameKind::Tron => TRON_BATTLE_PLAY,
        }
    }

    fn title(self) -> &'static str {
        match self {
            GameKind::Uttt => "Ultimate Tic-Tac-Toe",
            GameKind::Tron => "Tron Battle",
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

/// The UTTT bundle's `play`: the default search, seeded from the clock; [`bundle`] puts
/// the network's share in for [`NO_NETWORK`] when the bundle carries it.
const UTTT_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
let settings = bot::uttt::codingame::Settings {
tree: bot::uttt::searcher::UTTT_SEARCH,
play: bot::uttt::searcher::UtttPlay { network: None, ..Default::default() },
threads: 1,
seed,
safety_margin_ms: protocol::codingame::SAFETY_MS,
};
bot::uttt::codingame::run(first, received, input, output, &settings)
}
"#;

/// The Tron Battle bundle's `play`.
const TRON_BATTLE_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
bot::tron::battle::run(first, received, input, output, protocol::codingame::SAFETY_MS, tron::battle::BattleConfig::default())
}
"#;

/// The UTTT `play`'s leaf values when the bundle carries no network: play-outs.
const NO_NETWORK: &str = "network: None,";

/// The bundle of `game` from the crate whose `src/` is `src`. `network`: the value
/// network's share of a UTTT leaf's value (`--uttt-eval`), its weights packed into the
/// bundle; `None`: play-outs, and no weights.
pub fn bundle(src: &Path, game: GameKind, network: Option<f32>) -> Result<String, String> {
    let mut play = game.play().to_string();
    if let Some(share) = network {
        if game != GameKind::Uttt || !play.contains(NO_NETWORK) {
            return Err(format!("the {} bundle has no value network", game.title()));
        }
        play = play.replace(NO_NETWORK, &format!("network: Some({share:?}),"));
    }
    let mut code = format!("{PRELUDE}{MAIN}{play}");
    write_modules(src, &modules(src, &play)?, "", network.is_some(), &mut code)?;
    Ok(format!(
        "// mctsbot for CodinGame {}, one file made by cg-bundle from the\n\
         // crate's sources (https://github.com: see the project's README). Do not edit.\n{}\n",
        game.title(),
        squeeze(&code)
    ))
}

/// Writes the `modules` directly under `parent` ("" = the crate root), each with its own
/// submodules inside, and the files they embed packed in (`embed`) or left out.
fn write_modules(
    src: &Path,
    modules: &[Module],
    parent: &str,
    embed: bool,
    out: &mut String,
) -> Result<(), String> {
    for module in modules {
        let path = module.path.as_str();
        let (module_parent, name) = path.rsplit_once("::").unwrap_or(("", path));
        if module_parent != parent {
            continue;
        }
        let _ = writeln!(out, "pub mod {name} {{");
        if module.with_code {
            let code = drop_unbundled(&read_code(src, &module.file)?, path, modules);
            let code = if embed {
                let folder = src.join(&module.file);
                packed_embedded_files(&code, folder.parent().unwrap_or(src))?
            } else {
                without_embedded_files(&code)
            };
            out.push_str(&crate_paths(&code));
        }
        write_modules(src, modules, path, embed, out)?;
        out.push_str("}\n");
    }
    Ok(())
}

/// Whether `path` is one of the bundle's `modules`.
fn bundled(path: &str, modules: &[Module]) -> bool {
    modules.iter().any(|m| m.path == path)
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

/// A module's code: its file under `src` without comments and test items.
fn read_code(src: &Path, file: &str) -> Result<String, String> {
    let path = src.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(strip(&text))
}

/// The file under `src` of the module `path` (`uttt::board` is `uttt/board.rs` or
/// `uttt/board/mod.rs`), if there is one.
fn module_file(src: &Path, path: &str) -> Option<String> {
    let base = path.replace("::", "/");
    [format!("{base}.rs"), format!("{base}/mod.rs")]
        .into_iter()
        .find(|file| !path.is_empty() && src.join(file).is_file())
}

/// The modules a bundle holds, derived from the code rather than listed: starting from
/// the paths in the bundle's `play` (`bot::uttt::codingame::run`, …), every module whose items
/// a bundled module's code names (`use crate::…`, `super::…`, `self::…`, a submodule's
/// name, in `use` trees and in expressions) goes in with its code, transitively, and its
/// parents as plain wrappers. So moving or adding a file under `src/` moves the bundle
/// with it. A name re-exported by a module (`pub use grid::Grid;`) leads into the
/// submodule it comes from; re-exports of submodules nothing needs are left out (see
/// [`drop_unbundled`]), so they pull nothing in.
pub fn modules(src: &Path, play: &str) -> Result<Vec<Module>, String> {
    let mut needed = std::collections::BTreeMap::new();
    let mut queue: Vec<Vec<String>> = paths_in(&strip(play), &[])
        .into_iter()
        .filter(|p| p.len() > 1)
        .collect();
    while let Some(path) = queue.pop() {
        let Some((module, rest)) = resolve(src, &path) else {
            continue;
        };
        if let Some(next) = rest.first() {
            // `crate::tron::Grid` where `tron` re-exports `Grid` from `tron::grid`.
            if let Some(sub) = reexported_from(src, &module, next)? {
                let mut inner = module.clone();
                inner.extend([sub, next.clone()]);
                queue.push(inner);
            }
        }
        let name = module.join("::");
        if needed.contains_key(&name) {
            continue;
        }
        let file = module_file(src, &name).expect("resolved to a file");
        let code = read_code(src, &file)?;
        queue.extend(
            paths_in(&code, &module)
                .into_iter()
                .filter(|p| p.first().map_or(true, |p| p != "pub")),
        );
        needed.insert(name, file);
    }
    // Each needed module's parents, as wrappers, unless needed themselves.
    let mut all = needed.clone();
    for name in needed.keys() {
        let mut parent = name.as_str();
        while let Some((up, _)) = parent.rsplit_once("::") {
            parent = up;
            if !all.contains_key(parent) {
                let file = module_file(src, parent).ok_or(format!("no file for {parent}"))?;
                all.insert(parent.to_string(), file);
            }
        }
    }
    Ok(all
        .into_iter()
        .map(|(path, file)| Module {
            with_code: needed.contains_key(&path),
            path,
            file,
        })
        .collect())
}

/// The longest prefix of the absolute `path` that is a module with a file, and the rest;
/// `None` for paths outside the crate's modules (`std::…`, the root's own items).
fn resolve(src: &Path, path: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    (1..=path.len())
        .rev()
        .find(|&n| module_file(src, &path[..n].join("::")).is_some())
        .map(|n| (path[..n].to_vec(), path[n..].to_vec()))
}

/// The submodule of `module` whose item `name` it re-exports (`pub use sub::{name, …}`
/// or `pub use sub::*`), if any.
fn reexported_from(src: &Path, module: &[String], name: &str) -> Result<Option<String>, String> {
    let file = module_file(src, &module.join("::")).expect("a module");
    let code = read_code(src, &file)?;
    let submodules = declared_submodules(&code);
    Ok(use_statements(&code)
        .into_iter()
        .filter(|(public, _)| *public)
        .flat_map(|(_, tree)| expand_use(&tree))
        .find(|p| {
            p.len() >= 2
                && submodules.contains(&p[0])
                && (p.last().is_some_and(|last| last == name || last == "*"))
        })
        .map(|p| p[0].clone()))
}

/// The names of the submodules `code` declares (`mod name;`, `pub mod name;`).
fn declared_submodules(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["mod", n] | ["pub", "mod", n] | ["pub(crate)", "mod", n] => {
                    n.strip_suffix(';').map(str::to_string)
                }
                _ => None,
            }
        })
        .collect()
}

/// The `use` statements of `code` (comments already stripped): whether each is public,
/// and its tree's text (`crate::uttt::{board::Board, Move}`).
fn use_statements(code: &str) -> Vec<(bool, String)> {
    let tokens = tokens(code);
    let mut uses = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            // `pub use` or `pub(crate) use`.
            let before = |k: usize| i.checked_sub(k).map_or("", |j| tokens[j].as_str());
            let public = before(1) == "pub" || (before(1) == ")" && before(4) == "pub");
            let end = (i..tokens.len())
                .find(|&k| tokens[k] == ";")
                .unwrap_or(tokens.len());
            uses.push((public, tokens[i + 1..end].join(" ").replace(" :: ", "::")));
            i = end;
        }
        i += 1;
    }
    uses
}

/// The paths of a `use` tree's text, split at `::`: `a::{b, c::d}` gives `a::b` and
/// `a::c::d`; `as` renames and `self` are dropped.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = prefix
                .iter()
                .cloned()
                .chain(
                    tree[..open]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(String::from),
                )
                .collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&inner[start..k], &head, out);
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], &head, out);
        } else if !tree.is_empty() {
            // `Name as Other`: the path is `Name`'s.
            let tree = tree.split_whitespace().next().unwrap_or(tree);
            let mut path: Vec<String> = prefix.to_vec();
            path.extend(
                tree.split("::")
                    .filter(|s| !s.is_empty() && *s != "self")
                    .map(String::from),
            );
            out.push(path);
        } else if !prefix.is_empty() {
            out.push(prefix.to_vec());
        }
    }
    let mut out = Vec::new();
    expand(tree, &[], &mut out);
    out
}

/// Every path into the crate's modules that `code`, the code of `module`, names, made
/// absolute (without `crate`): in its `use` statements and in its expressions and types
/// (`crate::a::B`, `super::a`, `self::a`, `sub::f()` for a declared submodule `sub`).
/// The paths of a `pub use` of a declared submodule (a re-export) come with a leading
/// `pub`, for [`modules`] to leave them out.
fn paths_in(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let submodules = declared_submodules(code);
    let absolute = |path: &[String]| -> Option<Vec<String>> {
        let first = path.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => {
                let ups = path.iter().take_while(|p| *p == "super").count();
                let base = module[..module.len().saturating_sub(ups)].to_vec();
                let mut full = base;
                full.extend(path[ups..].iter().cloned());
                return Some(full);
            }
            name if submodules.iter().any(|s| s == name) => {
                let mut full = module.to_vec();
                full.extend(path.iter().cloned());
                return Some(full);
            }
            // At the root (the bundle's `play`), a top-level module's name.
            _ if module.is_empty() => return Some(path.to_vec()),
            _ => return None,
        };
        base.extend(path[1..].iter().cloned());
        Some(base)
    };
    let mut paths = Vec::new();
    let uses = use_statements(code);
    for (public, tree) in &uses {
        for path in expand_use(tree) {
            let reexport = *public && path.first().is_some_and(|p| submodules.contains(p));
            if let Some(mut full) = absolute(&path) {
                if reexport {
                    full.insert(0, "pub".into());
                }
                paths.push(full);
            }
        }
    }
    // Paths in expressions and types: `a::b::c` outside the `use` statements.
    let tokens = tokens(code);
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            i = (i..tokens.len())
                .find(|&k| tokens[k] == ";")
                .unwrap_or(tokens.len());
            continue;
        }
        let starts = is_ident_token(&tokens[i])
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::");
        if starts {
            let mut path = vec![tokens[i].clone()];
            let mut k = i + 1;
            while tokens.get(k).is_some_and(|t| t == "::")
                && tokens.get(k + 1).is_some_and(|t| is_ident_token(t))
            {
                path.push(tokens[k + 1].clone());
                k += 2;
            }
            if let Some(full) = absolute(&path) {
                paths.push(full);
            }
            i = k;
            continue;
        }
        i += 1;
    }
    paths
}

fn is_ident_token(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && token.chars().all(is_ident)
}

/// `code` (comments stripped) as identifiers, `::` and single other characters, with
/// literals left out.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(end) = literal_end(&chars, i) {
            i = end;
            continue;
        }
        let c = chars[i];
        if is_ident(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// `code` with each `include_bytes!(…)` replaced by an empty byte string: a bundle with
/// play-outs leaves the value network's weights (15,600 characters packed) out.
fn without_embedded_files(code: &str) -> String {
    replace_embedded_files(code, |_| Ok("b\"\"".into())).expect("nothing to read")
}

/// `code` with each `include_bytes!("FILE")` (FILE under `folder`) replaced by the file
/// packed into text and unpacked at run time (the value network's weights: the
/// packing's 8-bit words fit them).
fn packed_embedded_files(code: &str, folder: &Path) -> Result<String, String> {
    replace_embedded_files(code, |file| {
        let path = folder.join(file);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = mctsbot::uttt::nn::pack_weights(&bytes);
        Ok(format!("crate::uttt::nn::unpack_weights(\"{text}\")"))
    })
}

/// `code` with each `include_bytes!("FILE")` replaced by `with(FILE)`.
fn replace_embedded_files(
    code: &str,
    mut with: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(start) = rest.find("include_bytes!(") {
        let end = rest[start..]
            .find(')')
            .map_or(rest.len(), |e| start + e + 1);
        let file = rest[start..end]
            .trim_start_matches("include_bytes!(")
            .trim_end_matches(')')
            .trim()
            .trim_matches('"');
        out.push_str(&rest[..start]);
        out.push_str(&with(file)?);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
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

/// `code` (no comments) with the whitespace between tokens squeezed out: a space is kept
/// only between two words (identifiers, numbers, literals), which would otherwise run
/// together, between a word and a label's quote, and between two punctuation characters
/// unless one is a bracket, a comma or a semicolon (which never join another into one
/// token: `a - -b` and `& &x` must not become `--` or `&&`). About 11% of the UTTT
/// bundle.
fn squeeze(code: &str) -> String {
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Word,
        Punct(char),
    }
    let is_hard = |k: Kind| {
        matches!(
            k,
            Kind::Punct('(' | ')' | '{' | '}' | '[' | ']' | ',' | ';')
        )
    };
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
                (Some(a @ Kind::Punct(_)), b @ Kind::Punct(_)) => !is_hard(a) && !is_hard(b),
                _ => false,
            };
            if keep {
                out.push(' ');
            }
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
    fn embedded_files_are_left_out_or_packed_in() {
        let code = "fn w() -> Vec<u8> { include_bytes!(\"nn_weights.bin\").to_vec() }\n";
        assert_eq!(
            without_embedded_files(code),
            "fn w() -> Vec<u8> { b\"\".to_vec() }\n"
        );
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
        let packed = packed_embedded_files(code, &src.join("uttt")).unwrap();
        let text = packed
            .strip_prefix("fn w() -> Vec<u8> { crate::uttt::nn::unpack_weights(\"")
            .and_then(|rest| rest.strip_suffix("\").to_vec() }\n"))
            .unwrap();
        let file = std::fs::read(src.join("uttt/nn_weights.bin")).unwrap();
        assert_eq!(mctsbot::uttt::nn::unpack_weights(text), file);
        assert!(packed_embedded_files(code, &src).is_err());
    }

    #[test]
    fn squeezing_keeps_apart_what_would_join() {
        let code = "fn f<'a>(x: &'a str, y: i32) -> i32 {\n    let s = \"two  spaces\";\n    \
                    let r = r#\"raw  \" text\"#;\n    'outer: loop { continue 'outer; }\n    \
                    y - -1 + (& &y == & &y) as i32 + b' ' as i32\n}\n";
        assert_eq!(
            squeeze(code),
            "fn f<'a>(x: &'a str,y:i32)->i32{let s=\"two  spaces\";let r=r#\"raw  \" text\"#;\
             'outer:loop{continue 'outer;}y- -1+(& &y== & &y)as i32+b' ' as i32}"
        );
    }

    #[test]
    fn module_declarations_go_and_reexports_of_left_out_modules_too() {
        let code = "pub mod alphabeta;\nmod sequential;\npub use sequential::{\nA,\nB,\n};\n\
                    pub use tree::C;\nuse crate::game::Player;\npub use board::Board;\nmod board;\n";
        let module = |path: &str| Module {
            path: path.into(),
            file: String::new(),
            with_code: true,
        };
        let modules = [module("search"), module("uttt"), module("uttt::board")];
        let kept = drop_unbundled(code, "search", &modules);
        assert_eq!(kept, "pub use tree::C;\nuse crate::game::Player;\n");
        let kept = drop_unbundled(code, "uttt", &modules);
        assert!(kept.contains("pub use board::Board;"), "{kept}");
    }

    /// Writes `files` (path under `src`, text) into a fresh folder.
    fn crate_of(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let src = std::env::temp_dir().join(format!("cg-derive-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&src);
        for (file, text) in files {
            let path = src.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        src
    }

    fn derived(src: &Path, play: &str) -> Vec<(String, bool)> {
        let modules = modules(src, play).unwrap();
        modules.into_iter().map(|m| (m.path, m.with_code)).collect()
    }

    fn owned(list: &[(&str, bool)]) -> Vec<(String, bool)> {
        list.iter().map(|&(p, c)| (p.to_string(), c)).collect()
    }

    #[test]
    fn the_modules_are_derived_from_the_paths_the_code_names() {
        let files = [
            (
                "lib.rs",
                "pub mod bot;\npub mod game;\npub mod unused;\npub mod tron;\n",
            ),
            (
                "bot/mod.rs",
                "pub mod player;\npub mod other;\nuse crate::unused::X;\n",
            ),
            (
                "bot/player.rs",
                "use crate::{game::{Move as M, rules}, tron::Grid};\n\
                 // crate::unused::in_a_comment\n\
                 pub fn run() { let s = \"crate::unused::in_a_string\"; super::other::f(); }\n\
                 #[cfg(test)]\nmod tests { use crate::unused::Y; }\n",
            ),
            ("bot/other.rs", "pub fn f() { crate::game::deep::g(); }\n"),
            (
                "game/mod.rs",
                "pub mod rules;\npub mod deep;\nmod spare;\npub use spare::S;\npub struct Move;\n",
            ),
            ("game/rules.rs", "use super::Move;\n"),
            ("game/deep/mod.rs", "pub fn g() {}\n"),
            ("game/spare.rs", "pub struct S;\n"),
            (
                "tron/mod.rs",
                "pub mod grid;\npub mod engine;\npub use grid::Grid;\n",
            ),
            ("tron/grid.rs", "pub struct Grid;\n"),
            ("tron/engine.rs", "use crate::unused::Z;\n"),
            ("unused.rs", "pub struct X;\n"),
        ];
        let src = crate_of("paths", &files);
        let expected = [
            ("bot", false),
            ("bot::other", true),
            ("bot::player", true),
            ("game", true),
            ("game::deep", true),
            ("game::rules", true),
            // `tron::Grid` is `tron`'s re-export of `tron::grid::Grid`.
            ("tron", true),
            ("tron::grid", true),
        ];
        assert_eq!(
            derived(&src, "fn play() { bot::player::run() }"),
            owned(&expected)
        );
        let _ = std::fs::remove_dir_all(&src);
    }

    #[test]
    fn a_moved_or_added_module_is_followed() {
        let before = [
            ("bot/mod.rs", "pub mod player;\n"),
            (
                "bot/player.rs",
                "use crate::search::Tree;\npub fn run() {}\n",
            ),
            ("search/mod.rs", "mod tree;\npub use tree::Tree;\n"),
            ("search/tree.rs", "pub struct Tree;\n"),
        ];
        let src = crate_of("before", &before);
        let play = "fn play() { bot::player::run() }";
        assert_eq!(
            derived(&src, play),
            owned(&[
                ("bot", false),
                ("bot::player", true),
                ("search", true),
                ("search::tree", true)
            ])
        );
        // `search::tree` moves to `mcts::tree` and gains a helper module of its own.
        let after = [
            ("bot/mod.rs", "pub mod player;\n"),
            (
                "bot/player.rs",
                "use crate::mcts::tree::Tree;\npub fn run() {}\n",
            ),
            ("mcts/mod.rs", "pub mod tree;\n"),
            (
                "mcts/tree/mod.rs",
                "mod node;\npub struct Tree(node::Node);\n",
            ),
            ("mcts/tree/node.rs", "pub struct Node;\n"),
        ];
        let src2 = crate_of("after", &after);
        assert_eq!(
            derived(&src2, play),
            owned(&[
                ("bot", false),
                ("bot::player", true),
                ("mcts", false),
                ("mcts::tree", true),
                ("mcts::tree::node", true)
            ])
        );
        for dir in [src, src2] {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[test]
    fn the_real_bundles_hold_their_players_and_leave_the_rest_out() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
        for (game, has, lacks) in [
            (GameKind::Uttt, "uttt::board", "tron::battle"),
            (GameKind::Tron, "tron::battle", "uttt::board"),
        ] {
            let modules = modules(&src, game.play()).unwrap();
            let paths: Vec<&str> = modules.iter().map(|m| m.path.as_str()).collect();
            assert!(paths.contains(&has) && !paths.contains(&lacks), "{paths:?}");
            // The engines' protocol, the bot's command line and bench stay out.
            for out in ["protocol::parse", "bench", "cli", "json", "bot::options"] {
                assert!(!paths.contains(&out), "{out} in {paths:?}");
            }
        }
    }
}
