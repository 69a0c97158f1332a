//! The local engine: referees UTTT and Light Riders games between bot processes, the way
//! the official TheAIGames / riddles.io engines do, and runs tournaments between them.
//!
//! - [`cli`]: options; [`series`]: parallel games, the table and `results.json`;
//!   [`merge`]: shards of a series joined again.
//! - [`uttt_match`], [`tron_match`]: one game each, on the rules of [`mctsbot::uttt`] and
//!   [`mctsbot::tron`] and the lines of [`mctsbot::protocol`] (no rules are re-implemented).
//! - [`game`]: seats (bot, timebank, faults) and records; [`process`]: bots that may hang,
//!   crash or flood; [`timebank`], [`stats`], [`maps`]; the JSON files of a series'
//!   folder are [`schema`]'s serde types, written and read by [`record`].
//! - [`replay`]: a recorded Light Riders or UTTT game position by position, searched
//!   again; [`view`]: a recorded game as a self-contained HTML page; [`human`]: a
//!   person's seat (`arena play`).

pub mod bundle;
pub mod cli;
pub mod game;
pub mod human;
pub mod maps;
pub mod merge;
pub mod openings;
pub mod options;
pub mod process;
pub mod rating;
pub mod record;
pub mod replay;
pub mod report;
pub mod schema;
pub mod series;
pub mod stats;
pub mod timebank;
pub mod tron_codingame;
pub mod tron_match;
pub mod uttt_codingame;
pub mod uttt_match;
pub mod view;

use game::GameRecord;
use mctsbot::game::GameKind;
use options::{Options, Referee};

/// Runs the series `opts` describes, prints the table to stdout and writes `--out`.
/// Returns the process exit code.
pub fn run(opts: &Options) -> i32 {
    match play_series(opts) {
        Ok((opts, records)) => finish_series(&opts, &records),
        Err(e) => {
            eprintln!("arena: {e}");
            2
        }
    }
}

/// Plays the series `opts` describes (the games not yet recorded in `--out`, with
/// `--resume`), recording each game as it ends; the options it was played with (a
/// resumed series' seed is the recorded one) and every game, sorted by index.
pub fn play_series(opts: &Options) -> Result<(Options, Vec<GameRecord>), String> {
    let maps = opts
        .maps
        .iter()
        .map(|m| maps::Map::load(m))
        .collect::<Result<Vec<_>, _>>()?;
    if opts.game != Referee::LIGHT_RIDERS && !maps.is_empty() {
        return Err("--map is for --game tron".into());
    }
    let mut opts = opts.clone();
    let (log, done) = match &opts.out {
        Some(_) => {
            let (log, done) = record::GameLog::open(&mut opts)?;
            (Some(log), done)
        }
        None => (None, Vec::new()),
    };
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
    let play: series::PlayFn = match (opts.game.game(), opts.game.is_codingame()) {
        (GameKind::Uttt, false) => uttt_match::play,
        (GameKind::Uttt, true) => uttt_codingame::play,
        (GameKind::LightRiders, _) => tron_match::play,
        (GameKind::TronBattle, _) => tron_codingame::play,
    };
    let openings = series::openings(&opts, &maps)?;
    let records = series::run_recorded(&opts, &maps, &openings, play, log.as_ref(), done);
    Ok((opts, records))
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
pub fn run_tournament(t: &options::Tournament) -> i32 {
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
        let (opts, records) = match play_series(&opts) {
            Ok(played) => played,
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

/// The arguments of `arena merge` and `arena report`: `--out DIR` and the series
/// folders.
#[derive(clap::Args, Debug, Clone)]
pub struct FoldersArgs {
    /// Where to write the result (merge: the joined series' results.json; report: the
    /// pictures and index.html) [merge: nowhere, only the table; report: report/]
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// The series' --out folders (merge: the shards'; report: runs, oldest first, or a
    /// tournament's folder)
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<std::path::PathBuf>,
}

/// `arena merge [--out DIR] SHARD_DIR...`: prints the joined series' table and writes
/// it to `--out`. Returns the process exit code.
pub fn run_merge(args: &FoldersArgs) -> i32 {
    let (out, dirs) = (&args.out, &args.dirs);
    let (opts, records) = match merge::merge(dirs) {
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
            series::write_out(dir, &opts, &records).and_then(|()| merge::copy_stderr(dirs, dir));
        if let Err(e) = written {
            eprintln!("arena merge: cannot write {}: {e}", dir.display());
            return 1;
        }
    }
    0
}

/// The options of `arena openings`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    long_about = "Prints a balanced opening suite for --openings: candidates searched for MS \
                  ms each by the bot's own search, kept when it values them within X of \
                  even, until N are kept."
)]
pub struct OpeningsArgs {
    /// The game: uttt or tron
    #[arg(long, value_name = "uttt|tron", default_value = "uttt")]
    pub game: mctsbot::game::GameKind,
    /// uttt: random plies per line [default: 2..4]
    #[arg(long, value_name = "MIN..MAX", value_parser = plies_range)]
    pub plies: Option<std::ops::RangeInclusive<u32>>,
    /// tron: the boards, repeatable or comma-separated [default: empty16x16]
    ///
    /// emptyWxH (the riddles board: one line per start, player 0 at x in 1..W/2-2, y in
    /// 1..H-2, the other mirrored), or a map with its own starts (one line); starts where
    /// a rider is boxed in or the riders cannot meet are left out.
    #[arg(long, value_name = "NAME|FILE", value_delimiter = ',')]
    pub map: Vec<String>,
    /// Lines to keep
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub count: usize,
    /// Search time per candidate, in ms
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub ms: u64,
    /// Largest distance of the value from 0.5
    #[arg(long, value_name = "X", default_value_t = 0.03)]
    pub within: f32,
    /// Seed of the candidates and the searches
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

fn plies_range(text: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let bad = || format!("MIN..MAX with MIN <= MAX, got {text:?}");
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    match (lo.parse::<u32>(), hi.parse::<u32>()) {
        (Ok(lo), Ok(hi)) if lo <= hi => Ok(lo..=hi),
        _ => Err(bad()),
    }
}

/// `arena openings [--game uttt|tron] ...` (see [`OpeningsArgs`]): prints a balanced
/// suite ([`openings::balanced_uttt_suite`], [`openings::balanced_tron_suite`]).
/// Returns the process exit code.
pub fn run_openings(args: &OpeningsArgs) -> i32 {
    let game = args.game;
    let misplaced = match game {
        GameKind::Uttt if !args.map.is_empty() => Some("--map is for --game tron"),
        GameKind::LightRiders if args.plies.is_some() => Some("--plies is for --game uttt"),
        GameKind::TronBattle => Some("openings are for --game uttt or tron"),
        _ => None,
    };
    if let Some(e) = misplaced {
        cli::usage_error(Some("openings"), e.into()).exit();
    }
    let mut spec = openings::SuiteSpec {
        plies: args.plies.clone().unwrap_or(2..=4),
        maps: args.map.iter().filter(|m| !m.is_empty()).cloned().collect(),
        count: args.count,
        ms: args.ms,
        within: args.within,
        seed: args.seed,
    };
    let started = std::time::Instant::now();
    let (header, suite) = if game == GameKind::LightRiders {
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
pub fn run_report(args: &FoldersArgs) -> i32 {
    let out = args.out.clone().unwrap_or_else(|| "report".into());
    match report::report(&args.dirs, &out) {
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
