//! Writing a series out: `results.json` (its summary, pairs, SPRT and per-map rows made
//! from the totals) and the transcripts, into the `--out` folder.

use super::summary::{by_map, ms_per_answer, pentanomial, place_rows, SprtStatus, Totals};
use crate::game::{GameRecord, SideStats};
use crate::options::Options;
use crate::record;
use crate::schema::{self, round, MapRow, PairsRow, Results, Sides, SummaryRow};
use crate::stats::{Pentanomial, Summary};

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
