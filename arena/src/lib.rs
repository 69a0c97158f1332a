//! The local engine: referees UTTT and Light Riders games between bot processes, the way
//! the official TheAIGames / riddles.io engines do, and runs tournaments between them.
//!
//! - [`cli`]: options; [`series`]: parallel games, the table and `results.json`;
//!   [`merge`]: shards of a series joined again.
//! - [`uttt_match`], [`tron_match`]: one game each, on the rules of [`mctsbot::uttt`] and
//!   [`mctsbot::tron`] and the lines of [`mctsbot::protocol`] (no rules are re-implemented).
//! - [`game`]: seats (bot, timebank, faults) and records; [`process`]: bots that may hang,
//!   crash or flood; [`timebank`], [`stats`], [`maps`]; JSON is written by
//!   [`mctsbot::json`], as `mctsbot bench` does.

pub mod cli;
pub mod game;
pub mod maps;
pub mod merge;
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
    let until = opts.sprt.map_or(String::new(), |s| {
        format!(
            " at most, until SPRT elo0={} elo1={} decides",
            s.elo0, s.elo1
        )
    });
    eprintln!(
        "arena: {} game(s){until}, seed {}, {} job(s)",
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

/// `arena merge [--out DIR] SHARD_DIR...`: prints the joined series' table and writes
/// it to `--out`. Returns the process exit code.
pub fn run_merge(args: &[String]) -> i32 {
    let mut out = None;
    let mut dirs = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => match args.next() {
                Some(dir) => out = Some(std::path::PathBuf::from(dir)),
                None => {
                    eprintln!("arena merge: --out needs a folder");
                    return 2;
                }
            },
            dir => dirs.push(std::path::PathBuf::from(dir)),
        }
    }
    let (opts, records) = match merge::merge(&dirs) {
        Ok(merged) => merged,
        Err(e) => {
            eprintln!("arena merge: {e}");
            return 2;
        }
    };
    eprintln!(
        "arena merge: {} game(s) from {} shard(s)",
        records.len(),
        dirs.len()
    );
    print!("{}", series::table(&opts, &records));
    if let Some(dir) = &out {
        let written =
            series::write_out(dir, &opts, &records).and_then(|()| merge::copy_stderr(&dirs, dir));
        if let Err(e) = written {
            eprintln!("arena merge: cannot write {}: {e}", dir.display());
            return 1;
        }
    }
    0
}
