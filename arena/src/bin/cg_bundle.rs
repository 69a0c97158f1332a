//! `cg-bundle [--game uttt|tron] [--uttt-eval nn|playout] [--src DIR] [--out FILE]`:
//! writes the bot in CodinGame mode for one game (default UTTT; `tron` is Tron Battle)
//! as one Rust file (see `arena::bundle`), to FILE or stdout, from the crate sources in
//! DIR (default: the workspace's `src/`); with the UTTT network (the default: the bot's
//! CodinGame search), its weights packed in.
//! Fails if the file is over CodinGame's 100,000 characters.

use arena::bundle::{bundle, UtttLeaves, CODINGAME_LIMIT};
use clap::Parser;
use mctsbot::bot::flags::OptionError;
use mctsbot::game::GameKind;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the bot in CodinGame mode for one game as one Rust file, with the modules its
/// CodinGame player uses (found from the sources' `use` paths). Fails if the file is
/// over CodinGame's 100,000 characters.
#[derive(Parser, Debug)]
#[command(name = "cg-bundle", version)]
struct Args {
    /// The game: uttt (Ultimate Tic-Tac-Toe) or tron (Tron Battle, also tron-battle)
    #[arg(long, value_name = "uttt|tron", default_value = "uttt", value_parser = game)]
    game: GameKind,
    /// UTTT leaf values: nn (the value network, its weights packed in, searched as the
    /// bot searches on CodinGame: UCT with minimax backups) or playout (MCTS with
    /// play-outs, no weights in the file)
    /// [default: nn]
    #[arg(long, value_name = "nn|playout", value_parser = leaves)]
    uttt_eval: Option<UtttLeaves>,
    /// The crate's sources [default: the workspace's src/]
    #[arg(long, value_name = "DIR")]
    src: Option<PathBuf>,
    /// Where to write the file [default: stdout]
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `uttt`, or `tron` (`tron-battle`): CodinGame's Tron is Tron Battle.
fn game(name: &str) -> Result<GameKind, OptionError> {
    name.parse().map(GameKind::on_codingame)
}

/// `--uttt-eval nn|playout`.
fn leaves(text: &str) -> Result<UtttLeaves, OptionError> {
    match text {
        "nn" => Ok(UtttLeaves::Network),
        "playout" => Ok(UtttLeaves::Playouts),
        _ => Err(mctsbot::bot::flags::bad_value(
            "--uttt-eval",
            text,
            mctsbot::bot::flags::Expected::OneOf("nn or playout"),
        )),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = args.game;
    let src = args
        .src
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../src"));
    if game != GameKind::Uttt && args.uttt_eval.is_some() {
        eprintln!("cg-bundle: the Tron Battle bundle has no value network (--uttt-eval is UTTT's)");
        return ExitCode::FAILURE;
    }
    let leaves = args.uttt_eval.unwrap_or(UtttLeaves::Network);
    let text = match bundle(&src, game, leaves) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cg-bundle: {e}");
            return ExitCode::FAILURE;
        }
    };
    let chars = text.chars().count();
    let written = match &args.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display())),
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
