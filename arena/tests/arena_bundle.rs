//! The one-file CodinGame build: `cg-bundle` writes it within CodinGame's limit, plain
//! `rustc -O` compiles it (no Cargo, no crates), and it plays CodinGame UTTT in the arena.

mod arena_common;
use arena_common::{arena, bot, has};
use std::process::Command;

#[test]
fn the_bundle_compiles_without_cargo_and_plays_codingame_games() {
    let dir = std::env::temp_dir().join(format!("cg-bundle-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("mctsbot_codingame.rs");
    let made = Command::new(env!("CARGO_BIN_EXE_cg-bundle"))
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

    let run = arena(
        "cg-bundle",
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
