//! Summing up a series: A's points per pair and the pentanomial, the SPRT's state, the
//! totals per group of games, a free-for-all's places, and the results table.

use crate::game::{seat_of, side_name, GameRecord, SideStats, Winner};
use crate::options::Options;
use crate::record;
use crate::schema::{round, PlaceRow, SprtRow};
use crate::stats::{Pentanomial, Sprt, SprtState, Summary, Wdl};
use std::fmt::Write as _;

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

    pub(super) fn row(&self) -> SprtRow {
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

    pub(super) fn avg_moves(&self) -> f64 {
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
pub(super) fn by_map(records: &[GameRecord]) -> Vec<(String, Vec<&GameRecord>)> {
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
pub(super) fn ms_per_answer(s: &SideStats) -> f64 {
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
