//! Finding a bundle's modules: the paths a module's code names (in `use` trees and in
//! expressions), resolved to the module files under `src/`, followed from the bundle's
//! `play` until nothing new is named.

use super::strip::{is_ident, literal_end, read_code, strip};
use super::Module;
use std::path::Path;

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
/// [`drop_unbundled`](super::drop_unbundled)), so they pull nothing in.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::codingame_play;
    use mctsbot::game::GameKind;

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
            (GameKind::TronBattle, "tron::battle", "uttt::board"),
        ] {
            let modules = modules(&src, codingame_play(game)).unwrap();
            let paths: Vec<&str> = modules.iter().map(|m| m.path.as_str()).collect();
            assert!(paths.contains(&has) && !paths.contains(&lacks), "{paths:?}");
            // The engines' protocol, the bot's command line and bench stay out.
            for out in ["protocol::parse", "bench", "cli", "json", "bot::options"] {
                assert!(!paths.contains(&out), "{out} in {paths:?}");
            }
        }
    }
}
