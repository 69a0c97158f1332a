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

use clap::{Args, Parser, Subcommand};
use cmaes::{CMAESOptions, DVector};
use mctsbot::game::Outcome;
use mctsbot::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use mctsbot::search::{random_below, FastRng, Game, Limits};
use mctsbot::uttt::alphabeta::KeyedBoard;
use mctsbot::uttt::evaluate::{EvalKind, Weights};
use mctsbot::uttt::Board;
use rand::SeedableRng;
use std::process::ExitCode;

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
    fn points_of_a(&self, a: &Weights, b: &Weights) -> (f64, [u32; 3]) {
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
fn play(start: Board, players: [(&Weights, u32); 2]) -> Outcome {
    let mut searches = players.map(|(weights, depth)| {
        AlphaBeta::new(
            AlphaBetaConfig {
                table_entries: 1 << 16,
                max_depth: Some(depth),
                ..AlphaBetaConfig::default()
            },
            *weights,
        )
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
        let found = searches[side].search(&KeyedBoard::new(board), unlimited);
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

/// CMA-ES over the seed's UTTT evaluation weights, by fixed-depth
/// alpha-beta games played in-process (Liang 2017, section 2.3.1).
#[derive(Parser, Debug)]
#[command(name = "tune-eval", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Tunes the weights with CMA-ES: the fitness of a candidate is the points it does not
    /// take against --against; the best weights are printed as --eval-weights.
    #[command(after_help = EVAL_NAMES)]
    Cmaes(CmaesArgs),
    /// One match between two evaluations A and B, for checking weights.
    #[command(after_help = EVAL_NAMES)]
    Match(MatchArgs),
}

const EVAL_NAMES: &str = "EVAL, A and B are evaluation names (simple, connecting, advanced, \
comprehensive, advanced-defaults) or 14 comma-separated weights (`mctsbot --eval-weights`).";

/// The games of a match or of a fitness.
#[derive(Args, Debug)]
struct GamesArgs {
    /// Alpha-beta depth of A (the candidate)
    #[arg(long, value_name = "D", default_value_t = 7)]
    depth: u32,
    /// Alpha-beta depth of B (the reference) [default: --depth]
    #[arg(long, value_name = "D")]
    depth_b: Option<u32>,
    /// Pairs of games (colours swapped), each from its own random opening [default: 150
    /// for cmaes, 100 for match]
    #[arg(long, value_name = "N")]
    pairs: Option<u32>,
    /// Random plies of each opening, MAX below 20
    #[arg(long, value_name = "MIN..MAX", default_value = "2..4", value_parser = plies_range)]
    plies: (u32, u32),
    /// Seed of the openings (and of CMA-ES)
    #[arg(long, value_name = "S", default_value_t = 2017)]
    seed: u64,
}

impl GamesArgs {
    fn games(&self, default_pairs: u32) -> Games {
        Games {
            depth_a: self.depth,
            depth_b: self.depth_b.unwrap_or(self.depth),
            pairs: self.pairs.unwrap_or(default_pairs),
            plies: self.plies,
            seed: self.seed,
        }
    }
}

#[derive(Args, Debug)]
struct CmaesArgs {
    /// The evaluation whose weights move: advanced (its 8) or comprehensive (its 14)
    #[arg(long, value_name = "advanced|comprehensive", default_value = "comprehensive", value_parser = ["advanced", "comprehensive"])]
    eval: String,
    /// The reference evaluation the candidates play
    #[arg(long, value_name = "EVAL", default_value = "advanced")]
    against: String,
    /// The start: seed (the seed's weights), defaults (the advanced defaults), a number X
    /// (every weight at X) or an EVAL
    #[arg(long, value_name = "seed|defaults|X|EVAL", default_value = "seed")]
    from: String,
    /// Candidates per generation
    #[arg(long, value_name = "P", default_value_t = 20)]
    population: usize,
    /// Generations at most
    #[arg(long, value_name = "G", default_value_t = 30)]
    generations: usize,
    /// Initial step size
    #[arg(long, value_name = "S", default_value_t = 0.5)]
    sigma: f64,
    #[command(flatten)]
    games: GamesArgs,
}

#[derive(Args, Debug)]
struct MatchArgs {
    /// Evaluation A (depth --depth)
    #[arg(value_name = "A")]
    a: String,
    /// Evaluation B (depth --depth-b)
    #[arg(value_name = "B")]
    b: String,
    #[command(flatten)]
    games: GamesArgs,
}

/// `--plies MIN..MAX`, MAX below 20.
fn plies_range(text: &str) -> Result<(u32, u32), String> {
    match tune::args::range(text)? {
        (min, max) if max < 20 => Ok((min, max)),
        _ => Err("needs MIN..MAX with MIN <= MAX < 20".into()),
    }
}

/// One JSON-free line per generation on stderr, the best weights on stdout.
fn tune(args: &CmaesArgs) -> Result<(), String> {
    let shape = match args.eval.as_str() {
        "advanced" => Shape::Advanced,
        _ => Shape::Comprehensive,
    };
    let against = weights_named(&args.against)?;
    let start = match args.from.as_str() {
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
    let games = args.games.games(150);
    let (population, generations, sigma) = (args.population, args.generations, args.sigma);
    let seed = args.games.seed;
    let total = 2.0 * games.pairs as f64;
    // The seed's fitness: the points the candidate does not take (0 = every game won).
    let fitness = move |x: &DVector<f64>| {
        let candidate = shape.weights(x.as_slice());
        total - games.points_of_a(&candidate, &against).0
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

fn compare(args: &MatchArgs) -> Result<(), String> {
    let games = args.games.games(100);
    let (a, b) = (weights_named(&args.a)?, weights_named(&args.b)?);
    let (points, [w, d, l]) = games.points_of_a(&a, &b);
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
    let result = match Cli::parse().command {
        Command::Cmaes(args) => tune(&args),
        Command::Match(args) => compare(&args),
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
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn the_documented_command_lines_parse() {
        // docs/uttt_seed_tables.md's tuning run and match.
        let cli = Cli::try_parse_from(
            "tune-eval cmaes --eval advanced --against advanced-defaults --from 0.5 \
             --sigma 0.3 --depth 3 --pairs 150 --population 20 --generations 15"
                .split_whitespace(),
        )
        .unwrap();
        let Command::Cmaes(args) = cli.command else {
            panic!("cmaes")
        };
        assert_eq!(
            (args.from.as_str(), args.sigma, args.generations),
            ("0.5", 0.3, 15)
        );
        assert_eq!(args.games.games(150).pairs, 150);
        let cli = Cli::try_parse_from(
            "tune-eval match comprehensive advanced --depth 7 --pairs=30".split_whitespace(),
        )
        .unwrap();
        let Command::Match(args) = cli.command else {
            panic!("match")
        };
        let games = args.games.games(100);
        assert_eq!(
            (games.depth_a, games.depth_b, games.pairs, games.plies),
            (7, 7, 30, (2, 4))
        );
    }

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
        let same = &EvalKind::Advanced.seed_weights();
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
