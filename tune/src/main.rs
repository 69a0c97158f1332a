//! `tune-eval`: tunes the weights of the seed's UTTT evaluations with CMA-ES, as Liang
//! 2017 did (section 2.3.1): the fitness of a candidate is what it loses in games of
//! fixed-depth alpha-beta against a reference evaluation, colours swapped.
//!
//! Games are played in this process (no engine, no clock): fixed-depth alpha-beta is
//! deterministic, so each pair of games starts from its own seeded random opening and
//! the same candidate always gets the same fitness, as the seed's seeded games did.
//!
//! ```text
//! tune-eval cmaes [--eval advanced|comprehensive] [--against EVAL] [--from seed|defaults|X|EVAL]
//!                 [--depth D] [--pairs N] [--population P] [--generations G]
//!                 [--sigma S] [--plies MIN..MAX] [--seed S]
//! tune-eval match A B [--depth D] [--depth-b D] [--pairs N] [--plies MIN..MAX] [--seed S]
//! ```
//! `--from X` starts every weight at the number X. EVAL, A and B are evaluation names (simple, connecting, advanced, comprehensive,
//! advanced-defaults) or 14 comma-separated weights (`mctsbot --eval-weights`).

use cmaes::{CMAESOptions, DVector};
use mctsbot::game::Outcome;
use mctsbot::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use mctsbot::search::{random_below, FastRng, Game, Limits};
use mctsbot::uttt::alphabeta::EvaluatedBoard;
use mctsbot::uttt::evaluate::{EvalKind, Weights};
use mctsbot::uttt::Board;
use rand::SeedableRng;
use std::process::ExitCode;
use tune::args::{parsed, positional, range};

/// Which weights CMA-ES moves: the advanced evaluation's 8 (the micro-mark values shared
/// by every board class) or the comprehensive one's 14.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Advanced,
    Comprehensive,
}

impl Shape {
    fn weights(self, x: &[f64]) -> Weights {
        let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        match self {
            Shape::Advanced => {
                let marks = [x[5], x[6], x[7]];
                let mut all = x[..5].to_vec();
                for _ in 0..3 {
                    all.extend(marks);
                }
                Weights::from_slice(&all).expect("14 values")
            }
            Shape::Comprehensive => Weights::from_slice(&x).expect("14 values"),
        }
    }

    fn point(self, weights: &Weights) -> Vec<f64> {
        let all: Vec<f64> = weights.to_vec().into_iter().map(f64::from).collect();
        match self {
            Shape::Advanced => all[..8].to_vec(),
            Shape::Comprehensive => all,
        }
    }
}

/// The games of one fitness evaluation or match.
#[derive(Clone, Copy)]
struct Games {
    depth_a: u32,
    depth_b: u32,
    pairs: u32,
    plies: (u32, u32),
    seed: u64,
}

impl Games {
    /// Pair `index`'s opening: MIN..=MAX random plies, seeded by the pair.
    fn opening(&self, index: u32) -> Board {
        let mut rng = FastRng::seed_from_u64(
            self.seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let (min, max) = self.plies;
        let plies = min + random_below(&mut rng, max - min + 1);
        let mut board = Board::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            board.legal_moves(&mut moves);
            board.play(moves[random_below(&mut rng, moves.len() as u32) as usize]);
        }
        board
    }

    /// A's points (1 a win, ½ a draw) over every pair, A playing each opening as both
    /// the player to move and the other.
    fn points_of_a(&self, a: &'static Weights, b: &'static Weights) -> (f64, [u32; 3]) {
        let mut wdl = [0; 3];
        for index in 0..self.pairs {
            let opening = self.opening(index);
            for a_moves_first in [true, false] {
                let a_player = if a_moves_first {
                    opening.turn()
                } else {
                    1 - opening.turn()
                };
                let players = if a_player == 0 {
                    [(a, self.depth_a), (b, self.depth_b)]
                } else {
                    [(b, self.depth_b), (a, self.depth_a)]
                };
                match play(opening, players) {
                    Outcome::Win(p) if p == a_player => wdl[0] += 1,
                    Outcome::Draw => wdl[1] += 1,
                    Outcome::Win(_) => wdl[2] += 1,
                }
            }
        }
        (wdl[0] as f64 + 0.5 * wdl[1] as f64, wdl)
    }
}

/// Plays `start` to the end, player `p` searching `players[p].1` plies deep with the
/// weights `players[p].0`.
fn play(start: Board, players: [(&'static Weights, u32); 2]) -> Outcome {
    let mut searches = players.map(|(_, depth)| {
        AlphaBeta::new(AlphaBetaConfig {
            table_entries: 1 << 16,
            max_depth: Some(depth),
            ..AlphaBetaConfig::default()
        })
    });
    let mut board = start;
    loop {
        if let Some(outcome) = board.outcome() {
            return outcome;
        }
        let side = board.turn() as usize;
        let unlimited = Limits {
            deadline: None,
            max_iterations: None,
        };
        let found = searches[side].search(&EvaluatedBoard::new(board, players[side].0), unlimited);
        board.play(found.best.expect("an unfinished game has a move"));
    }
}

/// Weights by name or as 14 numbers.
fn weights_named(text: &str) -> Result<Weights, String> {
    if text == "advanced-defaults" {
        return Ok(Weights::advanced_defaults());
    }
    if let Ok(kind) = text.parse::<EvalKind>() {
        return Ok(kind.seed_weights());
    }
    let values: Result<Vec<f32>, _> = text.split(',').map(|v| v.trim().parse()).collect();
    values
        .ok()
        .and_then(|v| Weights::from_slice(&v))
        .ok_or_else(|| format!("{text:?} is neither an evaluation name nor 14 numbers"))
}

/// Kept for the rest of the run: the alpha-beta positions borrow their weights.
fn leak(weights: Weights) -> &'static Weights {
    Box::leak(Box::new(weights))
}

/// `--plies MIN..MAX` [2..4], MAX below 20.
fn plies_range(args: &[String]) -> Result<(u32, u32), String> {
    match range(args, "--plies", (2, 4))? {
        (min, max) if max < 20 => Ok((min, max)),
        _ => Err("--plies needs MIN..MAX with MIN <= MAX < 20".into()),
    }
}

fn games(args: &[String], default_pairs: u32) -> Result<Games, String> {
    let depth_a = parsed(args, "--depth", 7)?;
    Ok(Games {
        depth_a,
        depth_b: parsed(args, "--depth-b", depth_a)?,
        pairs: parsed(args, "--pairs", default_pairs)?,
        plies: plies_range(args)?,
        seed: parsed(args, "--seed", 2017)?,
    })
}

/// One JSON-free line per generation on stderr, the best weights on stdout.
fn tune(args: &[String]) -> Result<(), String> {
    let shape = match parsed(args, "--eval", "comprehensive".to_string())?.as_str() {
        "advanced" => Shape::Advanced,
        "comprehensive" => Shape::Comprehensive,
        other => return Err(format!("--eval {other}: advanced or comprehensive")),
    };
    let against = leak(weights_named(&parsed(
        args,
        "--against",
        "advanced".to_string(),
    )?)?);
    let start = match parsed(args, "--from", "seed".to_string())?.as_str() {
        "seed" => shape.point(&match shape {
            Shape::Advanced => EvalKind::Advanced.seed_weights(),
            Shape::Comprehensive => EvalKind::Comprehensive.seed_weights(),
        }),
        "defaults" => shape.point(&Weights::advanced_defaults()),
        other => match other.parse::<f64>() {
            // One number: every weight starts there (the seed: 0.5 advanced, 0 comprehensive).
            Ok(value) => vec![value; shape.point(&Weights::advanced_defaults()).len()],
            Err(_) => shape.point(&weights_named(other)?),
        },
    };
    let games = games(args, 150)?;
    let population: usize = parsed(args, "--population", 20)?;
    let generations: usize = parsed(args, "--generations", 30)?;
    let sigma: f64 = parsed(args, "--sigma", 0.5)?;
    let seed: u64 = parsed(args, "--seed", 2017)?;
    let total = 2.0 * games.pairs as f64;
    // The seed's fitness: the points the candidate does not take (0 = every game won).
    let fitness = move |x: &DVector<f64>| {
        let candidate = leak(shape.weights(x.as_slice()));
        total - games.points_of_a(candidate, against).0
    };
    let mut cmaes = CMAESOptions::new(start, sigma)
        .population_size(population)
        .max_generations(generations)
        .fun_target(0.0)
        .seed(seed)
        .build(fitness)
        .map_err(|e| format!("CMA-ES options: {e:?}"))?;
    let started = std::time::Instant::now();
    loop {
        let finished = cmaes.next_parallel();
        if let Some(best) = cmaes.overall_best_individual() {
            eprintln!(
                "generation {} evaluations {} best {:.1}/{} ({:.3} score) sigma {:.3} after {:.0?}",
                cmaes.generation(),
                cmaes.function_evals(),
                best.value,
                total,
                1.0 - best.value / total,
                cmaes.sigma(),
                started.elapsed()
            );
        }
        if let Some(data) = finished {
            eprintln!("stopped: {:?}", data.reasons);
            break;
        }
    }
    let best = cmaes
        .overall_best_individual()
        .ok_or("no candidate was evaluated")?;
    let weights = shape.weights(best.point.as_slice());
    let list: Vec<String> = weights.to_vec().iter().map(|w| format!("{w:.6}")).collect();
    println!("--eval-weights {}", list.join(","));
    Ok(())
}

fn compare(args: &[String]) -> Result<(), String> {
    let positional = positional(args);
    let [a, b] = positional[..] else {
        return Err("match needs two evaluations, A and B".into());
    };
    let games = games(args, 100)?;
    let (a, b) = (leak(weights_named(a)?), leak(weights_named(b)?));
    let (points, [w, d, l]) = games.points_of_a(a, b);
    let n = (w + d + l) as f64;
    println!(
        "A (depth {}) vs B (depth {}): {w}/{d}/{l} (W/D/L), A scores {:.3} over {n} games",
        games.depth_a,
        games.depth_b,
        points / n
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("cmaes") => tune(&args[1..]),
        Some("match") => compare(&args[1..]),
        _ => Err("usage: tune-eval cmaes [OPTIONS] | tune-eval match A B [OPTIONS] (see the source's header)".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tune-eval: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_advanced_shape_shares_the_mark_values_across_board_classes() {
        let weights = Shape::Advanced.weights(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert_eq!(weights.micro_marks, [[6.0, 7.0, 8.0]; 3]);
        assert_eq!(
            Shape::Advanced.point(&weights),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
        );
    }

    #[test]
    fn a_match_is_reproducible_and_colour_fair() {
        let games = Games {
            depth_a: 2,
            depth_b: 2,
            pairs: 6,
            plies: (2, 4),
            seed: 5,
        };
        let same = leak(EvalKind::Advanced.seed_weights());
        // The same evaluation at the same depth on both sides of every opening: each
        // pair's two games are mirror images in who searches, so the points are even.
        let (points, wdl) = games.points_of_a(same, same);
        assert_eq!(points, 6.0, "{wdl:?}");
        assert_eq!(games.points_of_a(same, same).1, wdl);
        // Deeper search beats shallower with the same evaluation over a few openings.
        let deeper = Games {
            depth_a: 5,
            depth_b: 1,
            ..games
        };
        let (points, wdl) = deeper.points_of_a(same, same);
        assert!(points > 6.0, "{wdl:?}");
    }
}
