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
//!
//! Here: the bundle's frame (the stand-ins, `main` and each game's `play`) and its
//! modules written inline; `find`: which modules go in; `strip`: a module's code
//! without comments and tests, squeezed, with paths into the stand-ins made absolute;
//! `embed`: the files the code embeds (the network's weights), left out or packed in.

mod embed;
mod find;
mod strip;

pub use find::modules;
pub use strip::strip;

use embed::{packed_embedded_files, without_embedded_files};
use mctsbot::game::GameKind;
use std::fmt::Write as _;
use std::path::Path;
use strip::{crate_paths, read_code, squeeze};

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

/// The bundle's `play` of `game`, which [`MAIN`] calls with the input: CodinGame takes one
/// file per game, and its Tron is Tron Battle.
pub(crate) fn codingame_play(game: GameKind) -> &'static str {
    match game {
        GameKind::Uttt => UTTT_NETWORK_PLAY,
        GameKind::LightRiders | GameKind::TronBattle => TRON_BATTLE_PLAY,
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

/// The UTTT bundle's `play` with the network: CodinGame's default search (UCT with
/// minimax backups of the network's values, `CODINGAME_SEARCH`), built directly, so
/// that the bundle holds that search alone and none of the bot's others, seeded from the
/// clock.
const UTTT_NETWORK_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
let settings = bot::uttt::codingame::Settings { seed, safety_margin_ms: protocol::codingame::SAFETY_MS, random_turns: 0, symmetry: 0 };
let values = uttt::network_children::NetworkChildren::new(true);
bot::uttt::codingame::run(first, received, input, output, &settings, |board, _| search::minimax_uct::MinimaxUct::new(board, uttt::network_children::MINIMAX_UCT, values))
}
"#;

/// The UTTT bundle's `play` without the network: the play-out search, seeded from the
/// clock.
const UTTT_PLAYOUT_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
let settings = bot::uttt::codingame::Settings { seed, safety_margin_ms: protocol::codingame::SAFETY_MS, random_turns: 0, symmetry: 0 };
let play = bot::uttt::searcher::UtttPlay { network: None, ..Default::default() };
bot::uttt::codingame::run(first, received, input, output, &settings, |board, seed| bot::uttt::searcher::UtttSearch::new(bot::uttt::searcher::UTTT_SEARCH, &play, 1, board, seed))
}
"#;

/// The Tron Battle bundle's `play`.
const TRON_BATTLE_PLAY: &str = r#"fn play(first: String, received: std::time::Instant, input: Input, output: Output) -> std::io::Result<()> {
bot::tron_battle::player::run(first, received, input, output, bot::tron_battle::config::BattleConfig::default())
}
"#;

/// How the UTTT bundle values its leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtttLeaves {
    /// The value network, its weights packed in: CodinGame's default search.
    Network,
    /// Play-outs, no weights in the file.
    Playouts,
}

/// The bundle of `game` from the crate whose `src/` is `src`; UTTT's with `leaves`.
pub fn bundle(src: &Path, game: GameKind, leaves: UtttLeaves) -> Result<String, String> {
    let game = game.on_codingame();
    let play = match (game, leaves) {
        (GameKind::Uttt, UtttLeaves::Network) => UTTT_NETWORK_PLAY,
        (GameKind::Uttt, UtttLeaves::Playouts) => UTTT_PLAYOUT_PLAY,
        _ => codingame_play(game),
    };
    let embed = game == GameKind::Uttt && leaves == UtttLeaves::Network;
    let mut code = format!("{PRELUDE}{MAIN}{play}");
    write_modules(src, &modules(src, play)?, "", embed, &mut code)?;
    Ok(format!(
        "// mctsbot for CodinGame {}, one file made by cg-bundle from the\n\
         // crate's sources (https://github.com: see the project's README). Do not edit.\n{}\n",
        game.name(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The network bundle builds its search by hand (so that it holds no other): it must
    /// be the one the bot's options build under CodinGame's protocol by default.
    #[test]
    fn the_network_bundle_builds_the_bots_codingame_default_search() {
        use mctsbot::bot::uttt::{options, UtttPlay, UtttSearchKind};
        assert_eq!(options::CODINGAME_SEARCH, UtttSearchKind::MinimaxUct);
        assert_eq!(options::CODINGAME_NETWORK_SHARE, Some(1.0));
        let wins_at_once = UtttPlay::default().wins_at_once;
        let values = format!("NetworkChildren::new({wins_at_once})");
        assert!(UTTT_NETWORK_PLAY.contains(&values), "{UTTT_NETWORK_PLAY}");
        assert!(UTTT_NETWORK_PLAY.contains("network_children::MINIMAX_UCT, values"));
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
}
