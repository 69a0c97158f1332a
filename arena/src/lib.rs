//! The local engine: referees UTTT and Light Riders games between bot processes, the way
//! the official TheAIGames / riddles.io engines do, and runs tournaments between them.
//!
//! - [`cli`]: options; [`series`]: parallel games, the table and `results.json`.
//! - [`uttt_match`], [`tron_match`]: one game each, on the rules of [`mctsbot::uttt`] and
//!   [`mctsbot::tron`] and the lines of [`mctsbot::protocol`] (no rules are re-implemented).
//! - [`game`]: seats (bot, timebank, faults) and records; [`process`]: bots that may hang,
//!   crash or flood; [`timebank`], [`stats`], [`maps`]; JSON is written by
//!   [`mctsbot::json`], as `mctsbot bench` does.

pub mod cli;
pub mod game;
pub mod maps;
pub mod process;
pub mod series;
pub mod stats;
pub mod timebank;
pub mod tron_match;
pub mod uttt_match;

use cli::{GameKind, Options};

/// Runs the series `opts` describes, prints the table to stdout and writes `--out`.
/// Returns the process exit code.
pub fn run(opts: &Options) -> i32 {
    let maps = match opts
        .maps
        .iter()
        .map(|m| maps::Map::load(m))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(maps) => maps,
        Err(e) => {
            eprintln!("arena: {e}");
            return 2;
        }
    };
    if opts.game == GameKind::Uttt && !maps.is_empty() {
        eprintln!("arena: --map is for --game tron");
        return 2;
    }
    eprintln!(
        "arena: {} game(s), seed {}, {} job(s)",
        opts.games, opts.seed, opts.jobs
    );
    let play: series::PlayFn = match opts.game {
        GameKind::Uttt => uttt_match::play,
        GameKind::Tron => tron_match::play,
    };
    let records = series::run(opts, &maps, play);
    print!("{}", series::table(opts, &records));
    if let Some(dir) = &opts.out {
        if let Err(e) = series::write_out(dir, opts, &records) {
            eprintln!("arena: cannot write {}: {e}", dir.display());
            return 1;
        }
    }
    0
}
