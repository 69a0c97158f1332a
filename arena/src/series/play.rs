//! Playing a series: each pair's map and opening, the schedule (a shard's share), the
//! games on `--jobs` threads until the SPRT decides, and the progress line after each.

use super::summary::{place_rows, SprtStatus, Totals};
use crate::game::{side_name, GameRecord, GameSetup, Winner};
use crate::maps::Map;
use crate::openings::{Book, Opening};
use crate::options::Options;
use crate::record::GameLog;
use crate::stats::SprtState;
use mctsbot::game::GameKind;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Plays one game.
pub type PlayFn = fn(&GameSetup) -> GameRecord;

/// The map of pair `pair` (games `2·pair` and `2·pair + 1` share it, colours swapped).
pub fn map_for(opts: &Options, maps: &[Map], pair: u64) -> Option<Map> {
    match opts.game.game() {
        GameKind::Uttt | GameKind::TronBattle => None,
        GameKind::LightRiders if maps.is_empty() => Some(Map::random_empty(
            opts.width,
            opts.height,
            opts.seed
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(pair),
        )),
        GameKind::LightRiders => Some(maps[pair as usize % maps.len()].clone()),
    }
}

/// The opening of every pair of the series (`opts.games` / 2 rounded up), from the
/// book `opts.openings` names; empty without one.
pub fn openings(opts: &Options, maps: &[Map]) -> Result<Vec<Opening>, String> {
    let Some(spec) = &opts.openings else {
        return Ok(Vec::new());
    };
    let book = Book::load(spec)?;
    (0..opts.games.div_ceil(2) as u64)
        .map(|pair| {
            let map = map_for(opts, maps, pair);
            book.opening(opts.game, opts.seed, pair, map.as_ref())
        })
        .collect()
}

/// The indexes of the games this run plays: all `opts.games`, or its shard's.
pub fn schedule(opts: &Options) -> Vec<usize> {
    (0..opts.games as usize)
        .filter(|&game| opts.shard.map_or(true, |shard| shard.has_game(game)))
        .collect()
}

/// Plays the scheduled games on `opts.jobs` threads, or until the SPRT decides (games
/// already started are finished and counted; a shard plays all of its games and leaves
/// the test to the merge); records sorted by index. Progress goes to stderr, one line
/// per game.
pub fn run(opts: &Options, maps: &[Map], openings: &[Opening], play: PlayFn) -> Vec<GameRecord> {
    run_recorded(opts, maps, openings, play, None, Vec::new())
}

/// [`run`] that appends each finished game to `log`, after the games `done` (a resumed
/// series' recorded games, which are not played again).
pub fn run_recorded(
    opts: &Options,
    maps: &[Map],
    openings: &[Opening],
    play: PlayFn,
    log: Option<&GameLog>,
    done: Vec<GameRecord>,
) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let scheduled = schedule(opts);
    let total = scheduled.len();
    let recorded: std::collections::HashSet<usize> = done.iter().map(|r| r.index).collect();
    let schedule: Vec<usize> = scheduled
        .into_iter()
        .filter(|index| !recorded.contains(index))
        .collect();
    let decided = AtomicBool::new(
        opts.shard.is_none()
            && opts
                .sprt
                .is_some_and(|sprt| SprtStatus::of(sprt, &done).state != SprtState::Continue),
    );
    if !done.is_empty() {
        eprintln!(
            "arena: {} game(s) recorded, {} to play",
            done.len(),
            schedule.len()
        );
    }
    let resumed = done.len();
    let records = Mutex::new(done);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.min(total) {
            let (next, decided, records, schedule) = (&next, &decided, &records, &schedule);
            scope.spawn(move || {
                // A worker decides before it takes the next game, so that with one job
                // the series stops right at the game that settles the test.
                while !decided.load(Ordering::SeqCst) {
                    let Some(&index) = schedule.get(next.fetch_add(1, Ordering::SeqCst)) else {
                        break;
                    };
                    let record = play(&game_setup(opts, maps, openings, index));
                    let mut records = records.lock().unwrap_or_else(|e| e.into_inner());
                    if let (Some(log), Some(dir)) = (log, &opts.out) {
                        if let Err(e) = log.append(&record) {
                            eprintln!("arena: cannot record game {}: {e}", record.index);
                        }
                        // A page that cannot be made is reported; the game is kept.
                        let pages = dir.join(crate::view::VIEW_DIR);
                        if let Err(e) = crate::view::write_page(opts, &record, dir, &pages) {
                            eprintln!("arena: game {}: no replay page: {e}", record.index);
                        }
                    }
                    records.push(record);
                    let test = opts.sprt.map(|sprt| SprtStatus::of(sprt, &records));
                    if opts.shard.is_none() && test.is_some_and(|t| t.state != SprtState::Continue)
                    {
                        decided.store(true, Ordering::SeqCst);
                    }
                    eprintln!(
                        "{}",
                        progress_line(opts, &records, total, resumed, started, test)
                    );
                }
            });
        }
    });
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.index);
    records
}

/// Game `index` of the series: its seats, board, seed and opening.
fn game_setup<'a>(
    opts: &'a Options,
    maps: &[Map],
    openings: &[Opening],
    index: usize,
) -> GameSetup<'a> {
    GameSetup {
        opts,
        index,
        // The seat order turns game by game (with two sides: colours alternate).
        a_player: (index % opts.sides()) as u8,
        // An opening's own board (map=, start=) replaces the pair's.
        map: openings
            .get(index / 2)
            .and_then(Opening::map)
            .cloned()
            .or_else(|| map_for(opts, maps, (index / 2) as u64)),
        seed: opts.seed.wrapping_add(2 * index as u64),
        opening: openings.get(index / 2).cloned(),
    }
}

/// The line printed after each game: the game, its faults, the running score, the SPRT
/// and the time left at the pace so far.
fn progress_line(
    opts: &Options,
    records: &[GameRecord],
    total: usize,
    resumed: usize,
    started: Instant,
    test: Option<SprtStatus>,
) -> String {
    let record = records.last().expect("called after a game");
    let done = records.len();
    let played_now = (done - resumed).max(1);
    let eta_s =
        started.elapsed().as_secs_f64() / played_now as f64 * total.saturating_sub(done) as f64;
    let faults: Vec<String> = record
        .stats
        .iter()
        .enumerate()
        .map(|(side, s)| {
            let (t, i, c) = (s.timeouts, s.illegal, s.crashes);
            format!("{} faults {t}/{i}/{c}", side_name(side))
        })
        .collect();
    let result = match record.winner {
        Winner::Draw => "draw".to_string(),
        w => format!("{} wins", w.as_str()),
    };
    let mut line = format!(
        "game {done}/{total} (#{}) on {}: {result} ({}, {} moves; {}); ",
        record.index,
        record.map,
        record.reason,
        record.moves,
        faults.join(", "),
    );
    let rows = place_rows(opts, records);
    if rows.len() > 2 {
        let means: Vec<String> = rows
            .iter()
            .map(|r| format!("{} {:.2}", r.side, r.mean_place.unwrap_or(0.0)))
            .collect();
        let _ = write!(line, "mean places {}", means.join(" "));
    } else {
        let t = Totals::of(records);
        let _ = write!(line, "{}-{}-{}", t.wdl.wins, t.wdl.draws, t.wdl.losses);
    }
    if let Some(test) = test {
        let _ = write!(line, ", {}", test.describe());
    }
    let _ = write!(line, ", ETA {}", duration(eta_s));
    line
}

/// `1h02m`, `3m04s` or `5s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}
