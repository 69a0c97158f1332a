//! `arena report`: pictures of finished series (their `--out` folders), drawn as SVG with
//! the `plotters` crate and gathered on one HTML page:
//! - per run, A's score with its 95 % interval on each map and, with `--openings`, for
//!   each opening (both games of the opening's pair);
//! - per run with `--sprt`, the walk of the log-likelihood ratio pair by pair, between
//!   the test's bounds;
//! - over several runs (given oldest first, each a version against the same baseline),
//!   the ladder: each run's Elo with its interval.

use super::game::GameRecord;
use super::options::Options;
use super::schema::RatingsFile;
use super::series::{self, Totals};
use super::stats::{Pentanomial, Sprt, Summary};
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One finished series and the name it goes by in the report.
struct Run {
    label: String,
    /// The series' folder (its transcripts and the bots' logs, for the replay pages).
    dir: PathBuf,
    opts: Options,
    records: Vec<GameRecord>,
}

/// A labelled estimate: a point with its 95 % interval.
struct Estimate {
    label: String,
    value: f64,
    low: f64,
    high: f64,
}

/// A tournament's rating list, read from its `ratings.json`, and its pairings' folders.
struct Ratings {
    label: String,
    estimates: Vec<Estimate>,
    pairings: Vec<PathBuf>,
}

impl Ratings {
    /// The tournament in `dir`, or `None` if `dir` holds no `ratings.json`.
    fn read(dir: &Path) -> Result<Option<Ratings>, String> {
        let path = dir.join("ratings.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        let file: RatingsFile =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = || format!("{}: a rating without elo or elo_ci95", path.display());
        let estimates = file
            .ratings
            .iter()
            .map(|r| {
                let (elo, ci) = (r.elo.ok_or_else(bad)?, r.elo_ci95.ok_or_else(bad)?);
                Ok(Estimate {
                    label: r.name.clone(),
                    value: elo,
                    low: elo - ci,
                    high: elo + ci,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let pairings = file.pairings.iter().map(|name| dir.join(name)).collect();
        Ok(Some(Ratings {
            label: format!("{} {}", file.kind, dir.display()),
            estimates,
            pairings,
        }))
    }
}

/// Writes `index.html` and its SVG pictures into `out` for the series in `dirs`; a
/// tournament's folder (`arena gauntlet|round-robin --out`) gives its rating list's
/// picture and each of its pairings' series.
// Long by choice: the page is written in the order it reads (rating lists, ladder, then
// each run), each part a few lines.
pub fn report(dirs: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut tournaments = Vec::new();
    let mut series_dirs = Vec::new();
    for dir in dirs {
        match Ratings::read(dir)? {
            Some(t) => {
                series_dirs.extend(t.pairings.iter().cloned());
                tournaments.push(t);
            }
            None => series_dirs.push(dir.clone()),
        }
    }
    let runs = series_dirs
        .iter()
        .map(|dir| {
            let (opts, records) = super::record::read_series(dir)?;
            let label = dir.file_name().map_or(dir.display().to_string(), |n| {
                n.to_string_lossy().into_owned()
            });
            Ok(Run {
                label,
                dir: dir.clone(),
                opts,
                records,
            })
        })
        .collect::<Result<Vec<Run>, String>>()?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(out.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", out.join(name).display()))
    };
    let mut html = String::from(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>arena report</title>\n\
         <style>body{font-family:sans-serif;max-width:72em;margin:2em auto}\
         pre{background:#f4f4f4;padding:1em;overflow-x:auto}img{max-width:100%}</style>\n\
         <h1>arena report</h1>\n",
    );
    for (i, t) in tournaments.iter().enumerate() {
        let name = format!("ratings{i}.svg");
        write(
            &name,
            &estimates_svg("Elo of each engine (95% interval)", "Elo", &t.estimates),
        )?;
        let _ = writeln!(
            html,
            "<h2>Rating list: {}</h2>\n<img src=\"{name}\" alt=\"rating list\">",
            escape(&t.label)
        );
    }
    if runs.len() > 1 && tournaments.is_empty() {
        let ladder: Vec<Estimate> = runs
            .iter()
            .filter_map(|run| {
                let s = Totals::of(&run.records).wdl.summary()?;
                Some(elo_estimate(&run.label, &s))
            })
            .collect();
        write(
            "ladder.svg",
            &estimates_svg("Elo of each run (A against B)", "Elo", &ladder),
        )?;
        html.push_str("<h2>Ladder</h2>\n<img src=\"ladder.svg\" alt=\"Elo of each run\">\n");
    }
    for (i, run) in runs.iter().enumerate() {
        let _ = writeln!(
            html,
            "<h2>{}</h2>\n<pre>{}</pre>",
            escape(&run.label),
            escape(&series::table(&run.opts, &run.records))
        );
        let (groups, openings) = score_groups(&run.records);
        if !groups.is_empty() {
            let name = format!("run{i}_scores.svg");
            write(
                &name,
                &estimates_svg("A's score (95% interval)", "score", &groups),
            )?;
            let _ = writeln!(html, "<img src=\"{name}\" alt=\"scores\">");
        }
        if !openings.is_empty() {
            html.push_str("<p>Openings: ");
            let legend: Vec<String> = openings
                .iter()
                .map(|(label, moves)| format!("<b>{label}</b> {}", escape(moves)))
                .collect();
            html.push_str(&legend.join("; "));
            html.push_str("</p>\n");
        }
        if let Some(sprt) = run.opts.sprt {
            let name = format!("run{i}_sprt.svg");
            write(&name, &sprt_svg(&sprt, &run.records))?;
            let _ = writeln!(html, "<img src=\"{name}\" alt=\"SPRT walk\">");
        }
        html += &games_section(i, run, out)?;
    }
    write("index.html", &html)
}

/// Run `i`'s games, each linked to its replay page (written into the report's folder,
/// so the report can be moved whole).
fn games_section(i: usize, run: &Run, out: &Path) -> Result<String, String> {
    let folder = format!("run{i}_games");
    let mut html = format!(
        "<details><summary>{} game(s): replay pages</summary>\n<table>\n\
         <tr><th>game</th><th>A was</th><th>board</th><th>result</th><th>moves</th>\
         <th>reason</th></tr>\n",
        run.records.len()
    );
    for r in &run.records {
        let page = match crate::view::write_page(&run.opts, r, &run.dir, &out.join(&folder)) {
            Ok(_) => format!(
                "<a href=\"{folder}/{}\">{}</a>",
                crate::view::page_name(r.index),
                r.index
            ),
            Err(e) => {
                eprintln!(
                    "arena report: {}: game {}: no replay page: {e}",
                    run.label, r.index
                );
                r.index.to_string()
            }
        };
        let _ = writeln!(
            html,
            "<tr><td>{page}</td><td>player {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.a_player,
            escape(&r.map),
            r.winner.as_str(),
            r.moves,
            escape(&r.reason)
        );
    }
    html.push_str("</table></details>\n");
    Ok(html)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn elo_estimate(label: &str, s: &Summary) -> Estimate {
    // Sweeps have infinite ends: clip them to what a chart can show.
    let clip = |x: f64| x.clamp(-800.0, 800.0);
    Estimate {
        label: label.to_string(),
        value: clip(s.elo),
        low: clip(s.elo_low),
        high: clip(s.elo_high),
    }
}

/// A's score per map, and per opening when the games had openings; the whole series
/// first. Openings are labelled `o1`, `o2`, ... in order of appearance: the second list
/// gives each label's moves.
fn score_groups(records: &[GameRecord]) -> (Vec<Estimate>, Vec<(String, String)>) {
    type Groups<'a> = Vec<(String, Vec<&'a GameRecord>)>;
    fn add<'a>(groups: &mut Groups<'a>, label: String, r: &'a GameRecord) {
        match groups.iter_mut().find(|(l, _)| *l == label) {
            Some((_, games)) => games.push(r),
            None => groups.push((label, vec![r])),
        }
    }
    let mut groups: Groups = Vec::new();
    for r in records {
        add(&mut groups, "all".to_string(), r);
    }
    let maps: std::collections::BTreeSet<&str> = records.iter().map(|r| r.map.as_str()).collect();
    if maps.len() > 1 {
        for r in records {
            add(&mut groups, r.map.clone(), r);
        }
    }
    let mut openings: Vec<(String, String)> = Vec::new();
    for r in records.iter().filter(|r| !r.opening.is_empty()) {
        let label = match openings.iter().find(|(_, moves)| *moves == r.opening) {
            Some((label, _)) => label.clone(),
            None => {
                let label = format!("o{}", openings.len() + 1);
                openings.push((label.clone(), r.opening.clone()));
                label
            }
        };
        add(&mut groups, label, r);
    }
    let estimates = groups
        .into_iter()
        .filter_map(|(label, games)| {
            let s = Totals::of(games.iter().copied()).wdl.summary()?;
            Some(Estimate {
                label,
                value: s.score,
                low: (s.score - s.score_ci95).max(0.0),
                high: (s.score + s.score_ci95).min(1.0),
            })
        })
        .collect();
    (estimates, openings)
}

/// Points with interval bars, one per estimate, their labels on the x axis.
fn estimates_svg(title: &str, y_name: &str, estimates: &[Estimate]) -> String {
    let mut svg = String::new();
    let width = (160 + 72 * estimates.len() as u32).clamp(480, 3600);
    {
        let (lo, hi) = estimates.iter().fold((f64::MAX, f64::MIN), |(lo, hi), e| {
            (lo.min(e.low), hi.max(e.high))
        });
        let (lo, hi) = if y_name == "score" {
            (0.0, 1.0)
        } else {
            (lo.min(0.0) - 20.0, hi.max(0.0) + 20.0)
        };
        let root = SVGBackend::with_string(&mut svg, (width, 420)).into_drawing_area();
        let drawn: Result<(), Box<dyn std::error::Error>> = (|| {
            root.fill(&WHITE)?;
            let n = estimates.len() as f64;
            let mut chart = ChartBuilder::on(&root)
                .caption(title, ("sans-serif", 20))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(-0.5..n - 0.5, lo..hi)?;
            let label_of = |x: &f64| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < estimates.len() {
                    estimates[i as usize].label.clone()
                } else {
                    String::new()
                }
            };
            chart
                .configure_mesh()
                .x_labels(estimates.len() * 2 + 1)
                .x_label_formatter(&label_of)
                .x_label_style(("sans-serif", 12))
                .y_desc(y_name)
                .draw()?;
            let even = if y_name == "score" { 0.5 } else { 0.0 };
            chart.draw_series(LineSeries::new(
                [(-0.5, even), (n - 0.5, even)],
                BLACK.mix(0.4),
            ))?;
            chart.draw_series(estimates.iter().enumerate().map(|(i, e)| {
                ErrorBar::new_vertical(i as f64, e.low, e.value, e.high, BLUE.filled(), 10)
            }))?;
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            eprintln!("arena report: {title}: {e}");
        }
    }
    svg
}

/// The SPRT's log-likelihood ratio after each finished pair (in pair order), between
/// its bounds.
fn sprt_svg(sprt: &Sprt, records: &[GameRecord]) -> String {
    let mut walk = Vec::new();
    let mut pairs = Pentanomial::default();
    for half_points in series::pair_points(records) {
        pairs.add(half_points);
        let llr = pairs.moments_for_test().map_or(0.0, |m| sprt.llr(&m));
        walk.push((pairs.pairs() as f64, llr));
    }
    let (lower, upper) = sprt.bounds();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 400)).into_drawing_area();
        let n = walk.len().max(1) as f64;
        let (lo, hi) = walk.iter().fold((lower, upper), |(lo, hi), &(_, llr)| {
            (lo.min(llr), hi.max(llr))
        });
        let drawn: Result<(), Box<dyn std::error::Error>> = (|| {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    format!("SPRT elo0={} elo1={}: LLR by pairs", sprt.elo0, sprt.elo1),
                    ("sans-serif", 20),
                )
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d(0.0..n, (lo - 0.5)..(hi + 0.5))?;
            chart
                .configure_mesh()
                .x_desc("pairs")
                .y_desc("LLR")
                .draw()?;
            for bound in [lower, upper] {
                chart.draw_series(LineSeries::new([(0.0, bound), (n, bound)], RED.mix(0.6)))?;
            }
            chart.draw_series(LineSeries::new(
                std::iter::once((0.0, 0.0)).chain(walk.iter().copied()),
                &BLUE,
            ))?;
            root.present()?;
            Ok(())
        })();
        if let Err(e) = drawn {
            eprintln!("arena report: SPRT walk: {e}");
        }
    }
    svg
}
