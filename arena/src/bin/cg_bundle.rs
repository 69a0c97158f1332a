//! `cg-bundle [--game uttt|tron] [--uttt-eval playout|nn|blend:W] [--src DIR] [--out FILE]`:
//! writes the bot in CodinGame mode for one game (default UTTT; `tron` is Tron Battle)
//! as one Rust file (see `arena::bundle`), to FILE or stdout, from the crate sources in
//! DIR (default: the workspace's `src/`); with the UTTT network (the default), its
//! weights packed in.
//! Fails if the file is over CodinGame's 100,000 characters.

use arena::bundle::{bundle, CODINGAME_LIMIT};
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
    /// UTTT leaf values, as the bot's --uttt-eval: nn or blend:W (the value network, its
    /// weights packed in), or playout (no weights in the file) [default: the bot's,
    /// blend:0.3]
    #[arg(long, value_name = "playout|nn|blend:W", value_parser = uttt_eval)]
    uttt_eval: Option<NetworkShare>,
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

/// The value network's share of a UTTT leaf's value; `None`: play-outs alone.
#[derive(Clone, Copy, Debug)]
struct NetworkShare(Option<f32>);

/// `--uttt-eval`, parsed as the bot parses it.
fn uttt_eval(text: &str) -> Result<NetworkShare, OptionError> {
    mctsbot::bot::uttt::options::uttt_eval(text).map(NetworkShare)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = args.game;
    // Tron Battle has no network; UTTT's default is the bot's on CodinGame.
    let network = match (args.uttt_eval, game) {
        (Some(NetworkShare(share)), _) => share,
        (None, GameKind::Uttt) => mctsbot::bot::uttt::options::CODINGAME_NETWORK_SHARE,
        (None, GameKind::LightRiders | GameKind::TronBattle) => None,
    };
    let src = args
        .src
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../src"));
    let text = match bundle(&src, game, network) {
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
