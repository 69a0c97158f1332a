//! A series: games in parallel with colours alternated (and each Light Riders map played
//! from both starts), so that games `2k` and `2k + 1` make a pair; an optional SPRT that
//! stops it early; then the table and `results.json`.

use super::game::{seat_of, side_name, GameRecord, GameSetup, SideStats, Winner};
use super::maps::Map;
use super::openings::{Book, Opening};
use super::options::{Options, Referee};
use super::record::{self, GameLog};
use super::schema::{self, round, MapRow, PairsRow, PlaceRow, Results, Sides, SprtRow, SummaryRow};
use super::stats::{Pentanomial, Sprt, SprtState, Summary, Wdl};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Plays one game.
pub type PlayFn = fn(&GameSetup) -> GameRecord;

/// The map of pair `pair` (games `2·pair` and `2·pair + 1` share it, colours swapped).
pub fn map_for(opts: &Options, maps: &[Map], pair: u64) -> Option<Map> {
    match opts.game {
        Referee::Uttt | Referee::UtttCodinGame | Referee::TronCodinGame => None,
        Referee::Tron if maps.is_empty() => Some(Map::random_empty(
            opts.width,
            opts.height,
            opts.seed
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(pair),
        )),
        Referee::Tron => Some(maps[pair as usize % maps.len()].clone()),
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

/// A's points (in halves, 0..=4) in each pair of `records` whose two games are both
/// played, in pair order.
pub fn pair_points(records: &[GameRecord]) -> Vec<u32> {
    let mut by_pair: std::collections::BTreeMap<usize, (u32, u32)> = Default::default();
    for r in records {
        let entry = by_pair.entry(r.index / 2).or_default();
        entry.0 += 1;
        entry.1 += r.winner.half_points();
    }
    by_pair
        .into_values()
        .filter(|&(games, _)| games == 2)
        .map(|(_, half_points)| half_points)
        .collect()
}

/// The pairs of `records` whose two games are both played, counted by A's points.
pub fn pentanomial(records: &[GameRecord]) -> Pentanomial {
    let mut p = Pentanomial::default();
    for half_points in pair_points(records) {
        p.add(half_points);
    }
    p
}

/// An SPRT after some games: the log-likelihood ratio over the finished pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    pub sprt: Sprt,
    pub pairs: u32,
    pub llr: f64,
    pub state: SprtState,
}

impl SprtStatus {
    pub fn of(sprt: Sprt, records: &[GameRecord]) -> SprtStatus {
        let pairs = pentanomial(records);
        let llr = pairs.moments_for_test().map_or(0.0, |m| sprt.llr(&m));
        SprtStatus {
            sprt,
            pairs: pairs.pairs(),
            llr,
            state: sprt.state(llr),
        }
    }

    fn verdict(&self) -> &'static str {
        match self.state {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
        }
    }

    /// `LLR 1.23 (-2.94, 2.94) continue`.
    pub fn describe(&self) -> String {
        let (lower, upper) = self.sprt.bounds();
        format!(
            "LLR {:.2} ({lower:.2}, {upper:.2}) {}",
            self.llr,
            self.verdict()
        )
    }

    fn row(&self) -> SprtRow {
        let (lower, upper) = self.sprt.bounds();
        SprtRow {
            model: "pentanomial".into(),
            test: record::sprt_settings(&self.sprt),
            pairs: self.pairs,
            llr: round(self.llr, 3),
            lower: round(lower, 3),
            upper: round(upper, 3),
            state: self.verdict().into(),
        }
    }
}

/// Totals of a group of games (one map, or all).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// A's view: a win of a free-for-all's C or D is a loss.
    pub wdl: Wdl,
    /// Per side.
    pub stats: Vec<SideStats>,
    pub moves: u64,
}

impl Totals {
    pub fn of<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> Totals {
        let mut t = Totals::default();
        for r in records {
            match r.winner {
                Winner::A => t.wdl.wins += 1,
                Winner::B | Winner::C | Winner::D => t.wdl.losses += 1,
                Winner::Draw => t.wdl.draws += 1,
            }
            t.stats
                .resize(t.stats.len().max(r.stats.len()), SideStats::default());
            for (total, side) in t.stats.iter_mut().zip(&r.stats) {
                total.add(side);
            }
            t.moves += r.moves as u64;
        }
        t
    }

    fn avg_moves(&self) -> f64 {
        self.moves as f64 / self.wdl.games().max(1) as f64
    }

    fn ms_per_move(&self, side: usize) -> f64 {
        ms_per_answer(&self.stats[side])
    }

    /// The side's peak resident memory over the games, in whole MiB (rounded up).
    fn peak_mib(&self, side: usize) -> u64 {
        self.stats[side].peak_rss_kib.div_ceil(1024)
    }
}

/// The maps in order of first appearance, each with its games.
fn by_map(records: &[GameRecord]) -> Vec<(String, Vec<&GameRecord>)> {
    let mut groups: Vec<(String, Vec<&GameRecord>)> = Vec::new();
    for r in records {
        match groups.iter_mut().find(|(m, _)| *m == r.map) {
            Some((_, g)) => g.push(r),
            None => groups.push((r.map.clone(), vec![r])),
        }
    }
    groups
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.0}", x + 0.0) // no "-0"
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// `+12 ±36`: the Elo difference and the half-width of its interval.
fn elo_text(s: &Summary) -> String {
    format!(
        "{} ±{}",
        signed(s.elo),
        signed(s.elo_ci95()).trim_start_matches('+')
    )
}

/// The results table: each side's command, then with two sides A's view (wins, draws,
/// losses, score, Elo; faults per side), and for a free-for-all each engine's places.
pub fn table(opts: &Options, records: &[GameRecord]) -> String {
    let mut out = String::new();
    for side in 0..opts.sides() {
        let (name, command) = (&opts.names[side], &opts.commands[side]);
        let _ = writeln!(out, "{} = {name}: {command}", side_name(side));
    }
    if opts.sides() == 2 {
        head_to_head(&mut out, opts, records);
    }
    places_table(&mut out, &place_rows(opts, records));
    out
}

/// A free-for-all's places, one line per engine (nothing without rows).
fn places_table(out: &mut String, rows: &[PlaceRow]) {
    let Some(first) = rows.first() else { return };
    let ordinals = ["1st", "2nd", "3rd", "4th"];
    let mut header = format!("{:<16} {:>5}", "engine", "games");
    for ordinal in &ordinals[..first.places.len()] {
        let _ = write!(header, " {ordinal:>5}");
    }
    let _ = writeln!(
        out,
        "{header} {:>10} {:>9} {:>5} {:>5} {:>5} {:>8} {:>5}",
        "mean place", "seats", "t/o", "ill", "crs", "ms/move", "MiB"
    );
    for r in rows {
        // Unnamed engines go by their letters.
        let engine = match r.name == r.side {
            true => r.side.clone(),
            false => format!("{} {}", r.side, r.name),
        };
        let mut line = format!("{engine:<16} {:>5}", r.games);
        for count in &r.places {
            let _ = write!(line, " {count:>5}");
        }
        let seats: Vec<String> = r.seats.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "{line} {:>10} {:>9} {:>5} {:>5} {:>5} {:>8.1} {:>5}",
            r.mean_place.map_or("-".into(), |m| format!("{m:.2}")),
            seats.join(":"),
            r.timeouts,
            r.illegal,
            r.crashes,
            r.ms_per_move.unwrap_or(0.0),
            r.peak_rss_kib.div_ceil(1024),
        );
    }
}

/// A free-for-all's engines over `records`: each one's places (from the games' own
/// places), mean place, seats (from A's seat and the turning order) and faults; empty
/// for a series of two sides.
pub fn place_rows(opts: &Options, records: &[GameRecord]) -> Vec<PlaceRow> {
    if !opts.ffa {
        return Vec::new();
    }
    let n = opts.sides();
    let t = Totals::of(records);
    (0..n)
        .map(|side| {
            let (mut places, mut seats) = (vec![0; n], vec![0; n]);
            let (mut games, mut sum) = (0, 0);
            for r in records.iter().filter(|r| r.places.len() == n) {
                let place = r.places[side];
                if let Some(count) = (place as usize)
                    .checked_sub(1)
                    .and_then(|k| places.get_mut(k))
                {
                    *count += 1;
                }
                seats[seat_of(side, r.a_player, n)] += 1;
                games += 1;
                sum += place;
            }
            let stats = t.stats.get(side).copied().unwrap_or_default();
            PlaceRow {
                side: side_name(side).into(),
                name: opts.names[side].clone(),
                games,
                places,
                mean_place: round(sum as f64 / games as f64, 2),
                seats,
                timeouts: stats.timeouts,
                illegal: stats.illegal,
                crashes: stats.crashes,
                peak_rss_kib: stats.peak_rss_kib,
                ms_per_move: round(ms_per_answer(&stats), 1),
            }
        })
        .collect()
}

/// Thinking time per answer, ms.
fn ms_per_answer(s: &SideStats) -> f64 {
    s.time_us as f64 / 1000.0 / s.answers.max(1) as f64
}

/// The head-to-head part of [`table`]: A's view, map by map.
fn head_to_head(out: &mut String, opts: &Options, records: &[GameRecord]) {
    let _ = writeln!(
        out,
        "{:<14} {:>5} {:>5} {:>5} {:>5} {:>14} {:>18} {:>7} {:>7} {:>7} {:>6} {:>13} {:>11}",
        "map",
        "games",
        "A",
        "draw",
        "B",
        "score ±95%",
        "Elo ±95%",
        "t/o A:B",
        "ill A:B",
        "crs A:B",
        "moves",
        "ms/move A:B",
        "MiB A:B"
    );
    let mut groups = by_map(records);
    if groups.len() > 1 {
        groups.push(("all".to_string(), records.iter().collect()));
    }
    for (map, games) in &groups {
        let t = Totals::of(games.iter().copied());
        let Some(s) = t.wdl.summary() else { continue };
        let _ = writeln!(
            out,
            "{:<14} {:>5} {:>5} {:>5} {:>5} {:>14} {:>18} {:>7} {:>7} {:>7} {:>6.1} {:>13} {:>11}",
            map,
            s.games,
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses,
            format!("{:.3} ±{:.3}", s.score, s.score_ci95),
            elo_text(&s),
            format!("{}:{}", t.stats[0].timeouts, t.stats[1].timeouts),
            format!("{}:{}", t.stats[0].illegal, t.stats[1].illegal),
            format!("{}:{}", t.stats[0].crashes, t.stats[1].crashes),
            t.avg_moves(),
            format!("{:.1}:{:.1}", t.ms_per_move(0), t.ms_per_move(1)),
            format!("{}:{}", t.peak_mib(0), t.peak_mib(1)),
        );
    }
    if let Some(los) = Totals::of(records).wdl.los() {
        let _ = writeln!(out, "LOS (A stronger than B): {:.1}%", 100.0 * los);
    }
    let pairs = pentanomial(records);
    if let Some(s) = pairs.summary() {
        let [p0, p1, p2, p3, p4] = pairs.0;
        let _ = writeln!(
            out,
            "pairs {}: 0:{p0} ½:{p1} 1:{p2} 1½:{p3} 2:{p4} (A's points per pair); score {:.3} ±{:.3}, Elo {}",
            pairs.pairs(),
            s.score,
            s.score_ci95,
            elo_text(&s)
        );
    }
    if let Some(sprt) = opts.sprt {
        let test = SprtStatus::of(sprt, records);
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: {} after {} pairs",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            test.describe(),
            test.pairs
        );
    }
}

fn summary_row(t: &Totals, s: &Summary) -> SummaryRow {
    let sides = |f: fn(&SideStats) -> u32| Sides::of(&t.stats, f);
    SummaryRow {
        games: s.games,
        a_wins: t.wdl.wins,
        b_wins: t.wdl.losses,
        draws: t.wdl.draws,
        score: round(s.score, 4),
        score_ci95: round(s.score_ci95, 4),
        elo: round(s.elo, 1),
        elo_ci95: round(s.elo_ci95(), 1),
        elo_low: round(s.elo_low, 1),
        elo_high: round(s.elo_high, 1),
        timeouts: sides(|s| s.timeouts),
        illegal: sides(|s| s.illegal),
        crashes: sides(|s| s.crashes),
        peak_rss_kib: Sides::of(&t.stats, |s| s.peak_rss_kib),
        avg_moves: round(t.avg_moves(), 2),
        ms_per_move: Sides::of(&t.stats, |s| round(ms_per_answer(s), 1)),
    }
}

/// The pairs' counts and what they say, for `results.json`.
fn pairs_row(pairs: &Pentanomial) -> PairsRow {
    let s = pairs.summary();
    PairsRow {
        pairs: pairs.pairs(),
        pentanomial: pairs.0,
        score: s.and_then(|s| round(s.score, 4)),
        score_ci95: s.and_then(|s| round(s.score_ci95, 4)),
        elo: s.and_then(|s| round(s.elo, 1)),
        elo_ci95: s.and_then(|s| round(s.elo_ci95(), 1)),
    }
}

/// `results.json`: settings, `games`, `summary`, `pairs`, `sprt` (or null), `per_map`,
/// and a free-for-all's `places`. A's view (`summary`, `pairs`, `per_map`) is left
/// out with more than two sides.
pub fn results(opts: &Options, records: &[GameRecord]) -> Results {
    let head_to_head = if opts.sides() == 2 { records } else { &[] };
    let total = Totals::of(head_to_head);
    let per_map = by_map(head_to_head)
        .iter()
        .filter_map(|(map, g)| {
            let t = Totals::of(g.iter().copied());
            let s = t.wdl.summary()?;
            Some(MapRow {
                map: map.to_string(),
                summary: summary_row(&t, &s),
            })
        })
        .collect();
    Results {
        settings: record::settings(opts),
        games: records.iter().map(record::game_row).collect(),
        summary: total.wdl.summary().map(|s| summary_row(&total, &s)),
        pairs: pairs_row(&pentanomial(head_to_head)),
        sprt: opts.sprt.map(|sprt| SprtStatus::of(sprt, records).row()),
        per_map,
        places: place_rows(opts, records),
    }
}

/// Writes `results.json` and the transcripts into `dir`.
pub fn write_out(
    dir: &std::path::Path,
    opts: &Options,
    records: &[GameRecord],
) -> std::io::Result<()> {
    for r in records {
        record::write_transcripts(dir, r)?;
    }
    std::fs::write(
        dir.join(record::RESULTS_FILE),
        schema::to_text(&results(opts, records)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli;

    fn fake(setup: &GameSetup) -> GameRecord {
        // Player 0 wins games 0..6 mod 10 except a draw at 6 and 7: A and B alternate
        // colours, so A gets some wins as player 0 and some losses as player 1.
        let winner = match setup.index % 10 {
            6 | 7 => None,
            _ => Some(0),
        };
        let mut stats = vec![SideStats::default(); 2];
        stats[setup.side(1)].timeouts = 1;
        stats[0].answers = 10;
        stats[0].time_us = 1_000_000;
        GameRecord {
            index: setup.index,
            map: setup.map.as_ref().map_or("uttt".into(), |m| m.name.clone()),
            a_player: setup.a_player,
            winner: setup.winner(winner),
            opening: setup.opening.as_ref().map_or(String::new(), Opening::text),
            moves: 40,
            line: "4,4 3,5".into(),
            reason: "fake".into(),
            wall_ms: 1,
            stats,
            transcripts: vec!["> x\n".into(), "< y\n".into()],
            places: Vec::new(),
        }
    }

    #[test]
    fn series_alternates_colours_and_sums_up() {
        let opts = parse(&["--games", "10", "-j", "3", "--seed", "1", "a", "b"]);
        let records = run(&opts, &[], &[], fake);
        assert_eq!(records.len(), 10);
        assert!(records
            .iter()
            .enumerate()
            .all(|(i, r)| r.index == i && r.a_player == (i % 2) as u8));
        let t = Totals::of(&records);
        // Player 0 won 8 games: A was player 0 in 0,2,4,8 (6 drawn), B in 1,3,5,9.
        assert_eq!(
            t.wdl,
            Wdl {
                wins: 4,
                draws: 2,
                losses: 4
            }
        );
        assert_eq!((t.stats[0].timeouts, t.stats[1].timeouts), (5, 5));
        let results = results(&opts, &records);
        let s = results.summary.unwrap();
        assert_eq!((s.a_wins, s.b_wins, s.draws, s.score), (4, 4, 2, Some(0.5)));
        assert!(results.games.iter().any(|g| g.winner == "draw"));
        assert!(table(&opts, &records).contains("0.500 ±"));
    }

    fn parse(args: &[&str]) -> Options {
        cli::parse(args).unwrap()
    }

    #[test]
    fn pairs_are_counted_by_the_points_of_both_games() {
        let opts = parse(&["--games", "11", "-j", "2", "--seed", "1", "a", "b"]);
        let records = run(&opts, &[], &[], fake);
        // Every pair splits 1-1 (player 0 wins) or is drawn twice; game 10 has no partner.
        assert_eq!(pentanomial(&records), Pentanomial([0, 0, 5, 0, 0]));
        let results = results(&opts, &records);
        assert_eq!(
            (results.pairs.pairs, results.pairs.pentanomial),
            (5, [0, 0, 5, 0, 0])
        );
        assert_eq!(results.sprt, None);
        assert!(table(&opts, &records).contains("pairs 5: 0:0 ½:0 1:5 1½:0 2:0"));
    }

    #[test]
    fn an_sprt_stops_the_series_once_it_decides() {
        // Pairs of 1 point each: mean 0.5 and, with the prior pair, variance 0.25/(N+1);
        // LLR = −2 N (N+1) (s1 − 0.5)² with s1 = 0.571463 (50 Elo) crosses −2.944 at
        // N = 17 pairs: with one job, exactly 34 games.
        let opts = parse(&[
            "--sprt",
            "elo0=0 elo1=50",
            "-j",
            "1",
            "--seed",
            "1",
            "a",
            "b",
        ]);
        assert_eq!(opts.games, 20_000);
        let records = run(&opts, &[], &[], fake);
        assert_eq!(records.len(), 34);
        let test = SprtStatus::of(opts.sprt.unwrap(), &records);
        assert_eq!((test.pairs, test.state), (17, SprtState::AcceptH0));
        assert!(table(&opts, &records).contains("H0 accepted after 17 pairs"));
        assert_eq!(results(&opts, &records).sprt.unwrap().state, "H0 accepted");
    }

    #[test]
    fn merged_shards_are_the_whole_series() {
        let base = ["--game", "tron", "--games", "13", "-j", "2", "--seed", "9"];
        let whole = parse(&[&base[..], &["a", "b"]].concat());
        let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
        let tmp = std::env::temp_dir().join(format!("arena-merge-{}", std::process::id()));
        let mut dirs = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let opts = parse(&[&base[..], &["--shard", &shard, "a", "b"]].concat());
            // Shard k plays the pairs p with p % 3 == k - 1, both games of each.
            let expected: Vec<usize> = (0..13).filter(|g| (g / 2) % 3 == k - 1).collect();
            assert_eq!(schedule(&opts), expected);
            let dir = tmp.join(format!("shard{k}"));
            write_out(&dir, &opts, &run(&opts, &maps, &[], fake)).unwrap();
            dirs.push(dir);
        }
        let (merged_opts, merged) = crate::merge::merge(&dirs).unwrap();
        let _ = std::fs::remove_dir_all(&tmp);
        let records = run(&whole, &maps, &[], fake);
        // The same games: index, board, colours, result and every count.
        assert_eq!(merged, records);
        assert_eq!(merged_opts.commands, whole.commands);
        assert_eq!(results(&merged_opts, &merged), results(&whole, &records));
    }

    #[test]
    fn shards_of_another_series_are_refused() {
        let tmp = std::env::temp_dir().join(format!("arena-refuse-{}", std::process::id()));
        for (k, seed) in [(1, "1"), (2, "2")] {
            let shard = format!("{k}/2");
            let opts = parse(&["--games", "4", "--seed", seed, "--shard", &shard, "a", "b"]);
            write_out(
                &tmp.join(format!("s{k}")),
                &opts,
                &run(&opts, &[], &[], fake),
            )
            .unwrap();
        }
        let err = crate::merge::merge(&[tmp.join("s1"), tmp.join("s2")]).unwrap_err();
        assert!(err.contains("another series"), "{err}");
        let err = crate::merge::merge(&[tmp.join("s1"), tmp.join("s1")]).unwrap_err();
        assert!(err.contains("two shards"), "{err}");
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn a_report_draws_the_scores_the_sprt_walk_and_the_ladder() {
        let tmp = std::env::temp_dir().join(format!("arena-report-{}", std::process::id()));
        let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
        let mut dirs = Vec::new();
        for (k, sprt) in [(1, None), (2, Some("elo0=0 elo1=50"))] {
            let mut args = vec!["--game", "tron", "--games", "8", "--seed", "4"];
            args.extend(["--openings", "random:3"]);
            if let Some(sprt) = sprt {
                args.extend(["--sprt", sprt]);
            }
            args.extend(["a", "b"]);
            let opts = parse(&args);
            let openings = openings(&opts, &maps).unwrap();
            assert_eq!(openings.len(), 4);
            let dir = tmp.join(format!("run{k}"));
            write_out(&dir, &opts, &run(&opts, &maps, &openings, fake)).unwrap();
            dirs.push(dir);
        }
        let out = tmp.join("report");
        crate::report::report(&dirs, &out).unwrap();
        let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
        let html = read("index.html");
        for part in [
            "ladder.svg",
            "run0_scores.svg",
            "run1_scores.svg",
            "run1_sprt.svg",
        ] {
            assert!(html.contains(part), "{html}");
            assert!(read(part).starts_with("<svg"), "{part}");
        }
        assert!(!html.contains("run0_sprt.svg"), "run 1 had no SPRT");
        // Every map and every opening gets its point.
        let scores = read("run0_scores.svg");
        assert!(scores.contains("rooms16") && scores.contains("empty6"));
        // Four pairs, four openings: o1 to o4, each listed with its moves on the page.
        assert!(
            scores.contains("\no4\n") && !scores.contains("\no5\n"),
            "{scores}"
        );
        assert_eq!(
            html.matches("<b>o").count(),
            8,
            "two runs, four openings each"
        );
        assert!(read("run1_sprt.svg").contains("LLR"));
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn tron_pairs_share_a_map() {
        let opts = parse(&["--game", "tron", "--seed", "5", "a", "b"]);
        assert_eq!(map_for(&opts, &[], 3), map_for(&opts, &[], 3));
        let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
        assert_eq!(map_for(&opts, &maps, 3).unwrap().name, "rooms16");
    }
}
