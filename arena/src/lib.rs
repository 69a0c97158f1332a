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

pub mod bundle;
pub mod cli;
pub mod game;
pub mod maps;
pub mod merge;
pub mod openings;
pub mod process;
pub mod rating;
pub mod record;
pub mod report;
pub mod series;
pub mod stats;
pub mod timebank;
pub mod tron_codingame;
pub mod tron_match;
pub mod uttt_codingame;
pub mod uttt_match;

use cli::{GameKind, Options};
use game::GameRecord;

/// Runs the series `opts` describes, prints the table to stdout and writes `--out`.
/// Returns the process exit code.
pub fn run(opts: &Options) -> i32 {
    match play_series(opts) {
        Ok(records) => finish_series(opts, &records),
        Err(e) => {
            eprintln!("arena: {e}");
            2
        }
    }
}

/// Plays the series `opts` describes (the games not yet recorded in `--out`, with
/// `--resume`), recording each game as it ends; every game, sorted by index.
pub fn play_series(opts: &Options) -> Result<Vec<GameRecord>, String> {
    let maps = opts
        .maps
        .iter()
        .map(|m| maps::Map::load(m))
        .collect::<Result<Vec<_>, _>>()?;
    if opts.game != GameKind::Tron && !maps.is_empty() {
        return Err("--map is for --game tron".into());
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
        GameKind::UtttCodinGame => uttt_codingame::play,
        GameKind::TronCodinGame => tron_codingame::play,
    };
    let openings = series::openings(opts, &maps)?;
    let (log, done) = match &opts.out {
        Some(_) => {
            let (log, done) = record::GameLog::open(opts)?;
            (Some(log), done)
        }
        None => (None, Vec::new()),
    };
    Ok(series::run_recorded(
        opts,
        &maps,
        &openings,
        play,
        log.as_ref(),
        done,
    ))
}

/// Prints a finished series' table and writes its `results.json`; the exit code.
fn finish_series(opts: &Options, records: &[GameRecord]) -> i32 {
    print!("{}", series::table(opts, records));
    if let Some(dir) = &opts.out {
        if let Err(e) = series::write_out(dir, opts, records) {
            eprintln!("arena: cannot write {}: {e}", dir.display());
            return 1;
        }
    }
    0
}

/// `arena gauntlet|round-robin`: plays every pairing's series, one after another (each
/// recorded in its folder under `--out`, resumed with `--resume`), then prints the
/// rating list and writes `ratings.json` and `ratings.txt`. Returns the exit code.
pub fn run_tournament(t: &cli::Tournament) -> i32 {
    let pairings = t.pairings();
    let mut games = Vec::new();
    for (number, &(a, b)) in pairings.iter().enumerate() {
        let opts = t.series(number, (a, b));
        eprintln!(
            "arena: {} pairing {}/{}: {} against {}",
            t.kind.name(),
            number + 1,
            pairings.len(),
            opts.names[0],
            opts.names[1]
        );
        let records = match play_series(&opts) {
            Ok(records) => records,
            Err(e) => {
                eprintln!("arena: {e}");
                return 2;
            }
        };
        let code = finish_series(&opts, &records);
        if code != 0 {
            return code;
        }
        games.extend(records.iter().map(|r| rating::Game {
            first: a,
            second: b,
            half_points: r.winner.half_points(),
        }));
    }
    let names: Vec<String> = t.engines.iter().map(|e| e.name.clone()).collect();
    let list = match rating::rating_list(&names, &games) {
        Ok(list) => list,
        Err(e) => {
            eprintln!("arena: {e}");
            return 1;
        }
    };
    let table = rating::table(&list);
    print!(
        "\n{} of {} engines, {} games:\n{table}",
        t.kind.name(),
        names.len(),
        games.len()
    );
    if let Some(dir) = &t.template.out {
        let written = std::fs::write(dir.join("ratings.txt"), &table)
            .and_then(|()| std::fs::write(dir.join("ratings.json"), rating::json(t, &list)));
        if let Err(e) = written {
            eprintln!("arena: cannot write {}: {e}", dir.display());
            return 1;
        }
    }
    0
}

/// The arguments of `arena merge` and `arena report`: `--out DIR` anywhere, and the
/// series folders.
fn out_and_folders(
    args: &[String],
) -> Result<(Option<std::path::PathBuf>, Vec<std::path::PathBuf>), String> {
    let mut out = None;
    let mut dirs = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => out = Some(args.next().ok_or("--out needs a folder")?.into()),
            dir => dirs.push(dir.into()),
        }
    }
    Ok((out, dirs))
}

/// `arena merge [--out DIR] SHARD_DIR...`: prints the joined series' table and writes
/// it to `--out`. Returns the process exit code.
pub fn run_merge(args: &[String]) -> i32 {
    let (out, dirs) = match out_and_folders(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("arena merge: {e}");
            return 2;
        }
    };
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

/// The help of `arena openings`.
pub const OPENINGS_USAGE: &str = "\
usage: arena openings [--game uttt|tron] [options]

Prints a balanced opening suite for --openings: candidates searched for MS ms each by
the bot's own search, kept when it values them within X of even, until N are kept.

  --game uttt|tron        the game (default uttt)
  --plies MIN..MAX        uttt: random plies per line [2..4]
  --map NAME|FILE         tron: the boards, repeatable or comma-separated: emptyWxH
                          (the riddles board: one line per start, player 0 at x in
                          1..W/2-2, y in 1..H-2, the other mirrored), or a map with its
                          own starts (one line) [empty16x16]; starts where a rider is
                          boxed in or the riders cannot meet are left out
  --count N               lines to keep [40]
  --ms MS                 search time per candidate [1000]
  --within X              largest distance of the value from 0.5 [0.03]
  --seed S                seed of the candidates and the searches [1]";

/// `arena openings [--game uttt|tron] ...` (see [`OPENINGS_USAGE`]): prints a balanced
/// suite ([`openings::balanced_uttt_suite`], [`openings::balanced_tron_suite`]).
/// Returns the process exit code.
pub fn run_openings(args: &[String]) -> i32 {
    let mut spec = openings::SuiteSpec {
        plies: 2..=4,
        maps: Vec::new(),
        count: 40,
        ms: 1000,
        within: 0.03,
        seed: 1,
    };
    let mut game = GameKind::Uttt;
    let mut plies_given = false;
    let parsed: Result<bool, String> = (|| {
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            if flag == "-h" || flag == "--help" {
                return Ok(false);
            }
            let value = args.next().ok_or(format!("{flag} needs a value"))?;
            let bad = || format!("{flag}: bad value {value:?}");
            match flag.as_str() {
                "--game" => {
                    game = match GameKind::from_name(value) {
                        Some(g @ (GameKind::Uttt | GameKind::Tron)) => g,
                        _ => return Err(format!("--game: uttt or tron, not {value:?}")),
                    }
                }
                "--plies" => {
                    let (lo, hi) = value.split_once("..").ok_or_else(bad)?;
                    let (lo, hi) = (
                        lo.parse().map_err(|_| bad())?,
                        hi.parse().map_err(|_| bad())?,
                    );
                    if lo > hi {
                        return Err(bad());
                    }
                    spec.plies = lo..=hi;
                    plies_given = true;
                }
                "--map" => spec
                    .maps
                    .extend(value.split(',').filter(|m| !m.is_empty()).map(String::from)),
                "--count" => spec.count = value.parse().map_err(|_| bad())?,
                "--ms" => spec.ms = value.parse().map_err(|_| bad())?,
                "--within" => spec.within = value.parse().map_err(|_| bad())?,
                "--seed" => spec.seed = value.parse().map_err(|_| bad())?,
                _ => return Err(format!("unknown option {flag}")),
            }
        }
        match game {
            GameKind::Uttt if !spec.maps.is_empty() => Err("--map is for --game tron".into()),
            GameKind::Tron if plies_given => Err("--plies is for --game uttt".into()),
            _ => Ok(true),
        }
    })();
    match parsed {
        Ok(true) => {}
        Ok(false) => {
            println!("{OPENINGS_USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("arena openings: {e}\n\n{OPENINGS_USAGE}");
            return 2;
        }
    }
    let started = std::time::Instant::now();
    let (header, suite) = if game == GameKind::Tron {
        if spec.maps.is_empty() {
            spec.maps.push("empty16x16".into());
        }
        let header = format!(
            "# Balanced Light Riders openings for --game tron: starts on {} (seed {}) where \
             no rider is boxed in and the riders can meet, kept when {} ms of the bot's \
             search values them within {} of even. Made by `arena openings --game tron \
             --map {} --count {} --ms {} --within {} --seed {}`.",
            spec.maps.join(" "),
            spec.seed,
            spec.ms,
            spec.within,
            spec.maps.join(","),
            spec.count,
            spec.ms,
            spec.within,
            spec.seed
        );
        match openings::balanced_tron_suite(&spec) {
            Ok(suite) => (header, suite),
            Err(e) => {
                eprintln!("arena openings: {e}");
                return 2;
            }
        }
    } else {
        let header = format!(
            "# Balanced UTTT openings: {}..{} random plies (seed {}), kept when {} ms of the \
             bot's MCTS values them within {} of even. Made by `arena openings`.",
            spec.plies.start(),
            spec.plies.end(),
            spec.seed,
            spec.ms,
            spec.within
        );
        (header, openings::balanced_uttt_suite(&spec))
    };
    println!("{header}");
    for line in &suite {
        println!("{line}");
    }
    eprintln!(
        "arena openings: {} of {} lines in {:.0} s",
        suite.len(),
        spec.count,
        started.elapsed().as_secs_f64()
    );
    0
}

/// `arena report --out DIR RUN_DIR...`: the pictures of finished series as SVG and an
/// HTML page. Returns the process exit code.
pub fn run_report(args: &[String]) -> i32 {
    let (out, dirs) = match out_and_folders(args) {
        Ok((out, dirs)) => (out.unwrap_or_else(|| "report".into()), dirs),
        Err(e) => {
            eprintln!("arena report: {e}");
            return 2;
        }
    };
    if dirs.is_empty() {
        eprintln!("arena report: give the --out folders of one or more series");
        return 2;
    }
    match report::report(&dirs, &out) {
        Ok(()) => {
            eprintln!("arena report: {}", out.join("index.html").display());
            0
        }
        Err(e) => {
            eprintln!("arena report: {e}");
            2
        }
    }
}
