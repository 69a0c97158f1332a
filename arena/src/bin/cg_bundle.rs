//! `cg-bundle [--game uttt|tron] [--src DIR] [--out FILE]`: writes the bot in CodinGame
//! mode for one game (default UTTT; `tron` is Tron Battle) as one Rust file (see
//! `arena::bundle`), to FILE or stdout, from the crate sources in DIR (default: the
//! workspace's `src/`). Fails if the file is over CodinGame's 100,000 characters.

use arena::bundle::{bundle, BundleGame, CODINGAME_LIMIT};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!("usage: cg-bundle [--game uttt|tron] [--src DIR] [--out FILE]");
        return ExitCode::SUCCESS;
    }
    let name = value("--game").unwrap_or_else(|| "uttt".into());
    let Some(game) = BundleGame::from_name(&name) else {
        eprintln!("cg-bundle: --game {name:?}: uttt or tron");
        return ExitCode::FAILURE;
    };
    let src = value("--src").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../src"),
        PathBuf::from,
    );
    let text = match bundle(&src, game) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cg-bundle: {e}");
            return ExitCode::FAILURE;
        }
    };
    let chars = text.chars().count();
    let written = match value("--out") {
        Some(path) => std::fs::write(&path, &text).map_err(|e| format!("{path}: {e}")),
        None => {
            print!("{text}");
            Ok(())
        }
    };
    if let Err(e) = written {
        eprintln!("cg-bundle: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("cg-bundle: {chars} characters (CodinGame's limit: {CODINGAME_LIMIT})");
    if chars > CODINGAME_LIMIT {
        eprintln!("cg-bundle: too long for CodinGame");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
