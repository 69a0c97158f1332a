//! The one-file CodinGame builds: `cg-bundle` writes each game's within CodinGame's limit,
//! plain `rustc -O` compiles it (no Cargo, no crates), and it plays that game (UTTT, Tron
//! Battle, and UTTT with the value network packed in) in the arena.

mod arena_common;
use arena_common::{arena, bot, has};
use std::process::Command;

/// Writes `game`'s bundle (with the `flags` given to `cg-bundle`) into a fresh folder
/// named after `test`, checks its size and compiles it with plain rustc; returns the
/// folder, the binary and the source.
fn compiled_bundle(
    test: &str,
    game: &str,
    flags: &[&str],
) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("cg-bundle-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("mctsbot_codingame.rs");
    let made = Command::new(env!("CARGO_BIN_EXE_cg-bundle"))
        .args(["--game", game])
        .args(flags)
        .arg("--out")
        .arg(&source)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "{report}");
    let text = std::fs::read_to_string(&source).unwrap();
    assert!(
        text.chars().count() <= arena::bundle::CODINGAME_LIMIT,
        "{report}"
    );
    assert!(!text.contains("#[cfg(test)]") && !text.contains("extern crate"));

    let binary = dir.join("mctsbot_codingame");
    let compiled = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["-O", "--edition", "2021", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .unwrap();
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    (dir, binary, text)
}

/// One test for both games, one after the other: a compile running beside a bot's 100 ms
/// turns on this 2-core machine made the bot late.
#[test]
fn each_games_bundle_compiles_without_cargo_and_plays_its_game() {
    uttt_bundle_plays_codingame_uttt("uttt", &[]);
    uttt_bundle_plays_codingame_uttt("uttt-playout", &["--uttt-eval", "playout"]);
    tron_battle_bundle_plays_tron_battle();
}

/// The UTTT bundle with `flags`; with the network (CodinGame's default), its weights packed
/// into the file unpack to the embedded ones (and a bundle whose weights did not read
/// would stop at its first turn), and it holds CodinGame's search alone.
fn uttt_bundle_plays_codingame_uttt(test: &str, flags: &[&str]) {
    let (dir, binary, text) = compiled_bundle(test, "uttt", flags);
    let packed: Vec<&str> = text
        .split("unpack_weights(\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(packed, _)| packed))
        .collect();
    if !flags.is_empty() {
        assert!(packed.is_empty() && text.contains("network:None"));
    } else {
        let embedded = |file: &str| {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/uttt");
            std::fs::read(folder.join(file)).unwrap()
        };
        let unpacked: Vec<Vec<u8>> = packed
            .iter()
            .map(|text| mctsbot::uttt::nn::unpack_weights(text))
            .collect();
        // CodinGame's network, then the engines' (each end rule has its own).
        assert_eq!(
            unpacked,
            [
                embedded("nn_weights_codingame.bin"),
                embedded("nn_weights.bin")
            ]
        );
        // the bot's own search on CodinGame, and none of its others
        assert_eq!(
            mctsbot::bot::uttt::options::CODINGAME_SEARCH,
            mctsbot::bot::uttt::UtttSearchKind::MinimaxUct
        );
        assert!(text.contains("pub mod minimax_uct{"));
        assert!(!text.contains("pub mod alphabeta{") && !text.contains("pub mod playout{"));
    }
    let run = arena(
        test,
        &[
            "--game", "uttt-cg", "--games", "2", "-j", "1", "--seed", "3",
        ],
        binary.to_str().unwrap(),
        &bot("first_valid_cg", ""),
    );
    has(&run.json, "\"a_wins\": 2");
    has(
        &run.json,
        "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn tron_battle_bundle_plays_tron_battle() {
    let (dir, binary, _) = compiled_bundle("tron", "tron", &[]);
    // A rider that only goes up leaves the grid within twenty moves.
    let run = arena(
        "cg-bundle-tron",
        &[
            "--game", "tron-cg", "--games", "2", "-j", "1", "--seed", "3",
        ],
        binary.to_str().unwrap(),
        &bot("straight_cg", "UP"),
    );
    has(&run.json, "\"a_wins\": 2");
    has(
        &run.json,
        "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
