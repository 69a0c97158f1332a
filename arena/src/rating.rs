//! The rating list of a tournament, as Ordo and BayesElo make them: the Elo ratings
//! that make the games' results most likely under the logistic Elo model (a draw is
//! half a win), centred on an average of 0, with 95 % intervals from the inverse of the
//! log-likelihood's curvature, and the likelihood of superiority (LOS) of each engine
//! over the next one from the same covariance.
//!
//! Every pair that played is given one virtual draw (as BayesElo's prior does), so an
//! engine that won every game still gets a finite rating.

use super::options::Tournament;
use super::schema::{round, to_text, EngineRow, RatingRow, RatingsFile};
use super::stats::normal_cdf;
use nalgebra::{DMatrix, DVector};

/// The logistic Elo curve's slope: a player `d` Elo stronger scores `1/(1+e^(−K d))`.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// One game between engines `first` and `second` of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub first: usize,
    pub second: usize,
    /// `first`'s points in halves: 2 win, 1 draw, 0 loss.
    pub half_points: u32,
}

/// A line of the rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    pub name: String,
    /// Elo, the list's average being 0.
    pub elo: f64,
    /// Half-width of its 95 % interval.
    pub elo_ci95: f64,
    pub games: u32,
    /// Points (a draw is one half) and draws.
    pub points: f64,
    pub draws: u32,
    /// Likelihood that this engine is stronger than the next one in the list.
    pub los_next: Option<f64>,
}

/// The rating list of `names` from `games`, best first. Engines without a game are
/// left out; an error if the games do not link every other engine to each other.
pub fn rating_list(names: &[String], games: &[Game]) -> Result<Vec<Rated>, String> {
    let played: Vec<usize> = (0..names.len())
        .filter(|&e| games.iter().any(|g| g.first == e || g.second == e))
        .collect();
    let n = played.len();
    if n < 2 {
        return Err("a rating list needs games between at least two engines".into());
    }
    let slot = |engine: usize| played.iter().position(|&e| e == engine).expect("played");
    // Games and points of the row engine against the column engine, prior included.
    let mut count = DMatrix::<f64>::zeros(n, n);
    let mut points = DMatrix::<f64>::zeros(n, n);
    for g in games {
        let (i, j) = (slot(g.first), slot(g.second));
        let p = g.half_points as f64 / 2.0;
        count[(i, j)] += 1.0;
        count[(j, i)] += 1.0;
        points[(i, j)] += p;
        points[(j, i)] += 1.0 - p;
    }
    for i in 0..n {
        for j in 0..n {
            if count[(i, j)] > 0.0 {
                count[(i, j)] += 1.0;
                points[(i, j)] += 0.5;
            }
        }
    }
    let (elo, full) = fit(&count, &points)?;
    // The covariance of the centred ratings.
    let centring = DMatrix::<f64>::identity(n, n) - DMatrix::from_element(n, n, 1.0 / n as f64);
    let centred = &centring * &full * centring.transpose();
    let mean = elo.mean();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| elo[b].total_cmp(&elo[a]));
    let rated = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let engine = played[i];
            let mine = games
                .iter()
                .filter(|g| g.first == engine || g.second == engine);
            let (mut games_played, mut half_points, mut draws) = (0, 0, 0);
            for g in mine {
                games_played += 1;
                draws += u32::from(g.half_points == 1);
                half_points += if g.first == engine {
                    g.half_points
                } else {
                    2 - g.half_points
                };
            }
            let los_next = order.get(rank + 1).map(|&j| {
                let variance = full[(i, i)] + full[(j, j)] - 2.0 * full[(i, j)];
                normal_cdf((elo[i] - elo[j]) / variance.sqrt())
            });
            Rated {
                name: names[engine].clone(),
                elo: elo[i] - mean,
                elo_ci95: super::stats::Z95 * centred[(i, i)].max(0.0).sqrt(),
                games: games_played,
                points: half_points as f64 / 2.0,
                draws,
                los_next,
            }
        })
        .collect();
    Ok(rated)
}

/// The maximum-likelihood ratings of the engines whose games and points against each
/// other are `count` and `points` (engine 0 held at 0), and their covariance (engine 0's
/// row and column zero): Newton's method on the concave log-likelihood.
fn fit(
    count: &DMatrix<f64>,
    points: &DMatrix<f64>,
) -> Result<(DVector<f64>, DMatrix<f64>), String> {
    let n = count.nrows();
    let mut elo = DVector::<f64>::zeros(n);
    let mut covariance = DMatrix::<f64>::zeros(n - 1, n - 1);
    for _ in 0..100 {
        let mut gradient = DVector::<f64>::zeros(n - 1);
        let mut information = DMatrix::<f64>::zeros(n - 1, n - 1);
        for i in 0..n {
            for j in 0..n {
                if i == j || count[(i, j)] == 0.0 {
                    continue;
                }
                let expected = 1.0 / (1.0 + (-K * (elo[i] - elo[j])).exp());
                let curvature = K * K * count[(i, j)] * expected * (1.0 - expected);
                if i > 0 {
                    gradient[i - 1] += K * (points[(i, j)] - count[(i, j)] * expected);
                    information[(i - 1, i - 1)] += curvature;
                    if j > 0 {
                        information[(i - 1, j - 1)] -= curvature;
                    }
                }
            }
        }
        covariance = information
            .try_inverse()
            .ok_or("the games do not link every engine to the others")?;
        let step = &covariance * gradient;
        for i in 1..n {
            // Damped: a first step from 0 toward a lopsided result can overshoot.
            elo[i] += step[i - 1].clamp(-400.0, 400.0);
        }
        if step.amax() < 1e-6 {
            break;
        }
    }
    let mut full = DMatrix::<f64>::zeros(n, n);
    full.view_mut((1, 1), (n - 1, n - 1)).copy_from(&covariance);
    Ok((elo, full))
}

/// The rating list as a table.
pub fn table(list: &[Rated]) -> String {
    let mut out = format!(
        "{:>4} {:<20} {:>7} {:>7} {:>6} {:>7} {:>7} {:>6} {:>9}\n",
        "rank", "engine", "Elo", "±95%", "games", "points", "score", "draws", "LOS next"
    );
    for (rank, r) in list.iter().enumerate() {
        out += &format!(
            "{:>4} {:<20} {:>+7.1} {:>7.1} {:>6} {:>7.1} {:>6.1}% {:>5.1}% {:>9}\n",
            rank + 1,
            r.name,
            r.elo,
            r.elo_ci95,
            r.games,
            r.points,
            100.0 * r.points / r.games as f64,
            100.0 * r.draws as f64 / r.games as f64,
            r.los_next
                .map_or(String::new(), |los| format!("{:.1}%", 100.0 * los)),
        );
    }
    out
}

/// `ratings.json`: the tournament (kind, engines, the pairings' folders) and its list.
pub fn json(t: &Tournament, list: &[Rated]) -> String {
    let engines = t
        .engines
        .iter()
        .map(|e| EngineRow {
            name: e.name.clone(),
            cmd: e.command.clone(),
            tc: e.clock.map(|c| c.to_string()),
        })
        .collect();
    let pairings = t
        .pairings()
        .into_iter()
        .enumerate()
        .filter_map(|(number, pair)| {
            let dir = t.series(number, pair).out?;
            Some(dir.file_name()?.to_string_lossy().into_owned())
        })
        .collect();
    let ratings = list
        .iter()
        .map(|r| RatingRow {
            name: r.name.clone(),
            elo: round(r.elo, 1),
            elo_ci95: round(r.elo_ci95, 1),
            games: r.games,
            points: round(r.points, 1),
            draws: r.draws,
            los_next: r.los_next.and_then(|los| round(los, 4)),
        })
        .collect();
    to_text(&RatingsFile {
        kind: t.kind.name().into(),
        engines,
        pairings,
        ratings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, Wdl};

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|k| format!("e{k}")).collect()
    }

    /// `wins`, `draws`, `losses` of `first` against `second`.
    fn results(first: usize, second: usize, w: u32, d: u32, l: u32) -> Vec<Game> {
        let game = |half_points| Game {
            first,
            second,
            half_points,
        };
        let mut games = vec![game(2); w as usize];
        games.extend(vec![game(1); d as usize]);
        games.extend(vec![game(0); l as usize]);
        games
    }

    #[test]
    fn two_engines_are_rated_by_their_score() {
        // 60 points of 100 (+ the prior draw: 60.5 of 101) is +72.6 Elo apart.
        let list = rating_list(&names(2), &results(0, 1, 50, 20, 30)).unwrap();
        assert_eq!(list[0].name, "e0");
        let gap = list[0].elo - list[1].elo;
        assert!((gap - elo_from_score(60.5 / 101.0)).abs() < 0.01, "{gap}");
        assert!((list[0].elo + list[1].elo).abs() < 1e-9, "centred");
        assert_eq!(
            (list[0].games, list[0].points, list[0].draws),
            (100, 60.0, 20)
        );
        // The interval: about the one a series of 100 games gives, split by two.
        let series = Wdl {
            wins: 50,
            draws: 20,
            losses: 30,
        }
        .summary()
        .unwrap();
        let ratio = 2.0 * list[0].elo_ci95 / series.elo_ci95();
        assert!((0.8..1.25).contains(&ratio), "{ratio}");
        // LOS from a 1.9-sigma lead.
        let los = list[0].los_next.unwrap();
        assert!((0.95..0.995).contains(&los), "{los}");
        assert_eq!(list[1].los_next, None);
    }

    #[test]
    fn a_gauntlet_ranks_the_opponents_through_the_common_engine() {
        // e0 scores 50% against e1, 75% against e2 and 90% against e3.
        let mut games = results(0, 1, 40, 20, 40);
        games.extend(results(0, 2, 70, 10, 20));
        games.extend(results(0, 3, 85, 10, 5));
        let list = rating_list(&names(4), &games).unwrap();
        let order: Vec<&str> = list.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(order[2..], ["e2", "e3"]);
        let elo = |name: &str| list.iter().find(|r| r.name == name).unwrap().elo;
        // Each opponent sits where its score against e0 puts it.
        assert!((elo("e0") - elo("e1")).abs() < 5.0);
        let e2_gap = elo("e0") - elo("e2");
        assert!(
            (e2_gap - elo_from_score(75.5 / 101.0)).abs() < 0.5,
            "{e2_gap}"
        );
        // e0 played 300 games: its interval is the narrowest.
        let e0 = list.iter().find(|r| r.name == "e0").unwrap();
        assert!(list.iter().all(|r| r.elo_ci95 >= e0.elo_ci95));
        assert_eq!(e0.games, 300);
    }

    #[test]
    fn a_clean_sweep_is_finite_and_unlinked_engines_are_refused() {
        let list = rating_list(&names(2), &results(0, 1, 10, 0, 0)).unwrap();
        assert!(list[0].elo.is_finite() && list[0].elo > 100.0);
        // 10.5 points of 11 with the prior: +529 Elo, about 2.1 standard errors.
        assert!((0.97..0.99).contains(&list[0].los_next.unwrap()));
        // e0-e1 and e2-e3 never meet: nothing ties the two pairs' scales together.
        let mut games = results(0, 1, 5, 0, 5);
        games.extend(results(2, 3, 5, 0, 5));
        assert!(rating_list(&names(4), &games).is_err());
        assert!(rating_list(&names(3), &[]).is_err());
    }

    #[test]
    fn the_table_lists_every_engine_best_first() {
        let mut games = results(0, 1, 30, 0, 10);
        games.extend(results(1, 2, 30, 0, 10));
        let text = table(&rating_list(&names(3), &games).unwrap());
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].contains("e0") && rows[2].contains("e2"), "{text}");
        assert!(text.contains("LOS next"));
    }
}
