//! `tron-fit`: the Light Riders space cut-off's weights fitted to game results.
//!
//! `tron-fit play` plays games in-process (the bot's default MCTS against itself, or
//! against its alpha-beta engine, at a fixed number of iterations a move, from random
//! riddles starts) and writes every position where the riders still share space,
//! labelled with the game's result (format: `tune/src/tron_positions.rs`).
//! `tron-fit fit` fits the cut-off's weights by logistic regression on the results and
//! reports each model's log-loss on held-out games beside the default's.

use clap::{Args, Parser, Subcommand};
use mctsbot::bot::tron::{plan, Plan, TronConfig, TronSearchKind, TronSearcher};
use mctsbot::game::Player;
use mctsbot::search::{random_below, FastRng, Limits, Search};
use mctsbot::tron::evaluate::{self, FEATURES, FEATURE_NAMES};
use mctsbot::tron::playout::DEFAULT_SPACE_WEIGHTS;
use mctsbot::tron::{endgame, Direction, TronState};
use rand::SeedableRng;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use tune::games::result0;
use tune::selfplay;
use tune::tron_positions::{fit, log_loss, predict, Position};

/// Light Riders' space cut-off weights fitted to game results: `play` writes labelled
/// positions, `fit` fits the weights and reports held-out log-loss.
#[derive(Parser, Debug)]
#[command(name = "tron-fit", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play games and write their positions, labelled with the results (appended). Game g
    /// depends on --seed and g alone; Ctrl-C stops after the games in flight.
    Play(PlayArgs),
    /// Fit the weights to position files and compare the models on held-out games.
    Fit(FitArgs),
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 1000)]
    games: u64,
    /// The first game's index (a shard plays games G..G+N)
    #[arg(long, value_name = "G", default_value_t = 0)]
    first_game: u64,
    /// Search iterations a move (alpha-beta: nodes)
    #[arg(long, value_name = "K", default_value_t = 3000)]
    iterations: u64,
    /// The chance that a game pits the default MCTS against the alpha-beta engine (its
    /// seat alternating by game) instead of against itself
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    vs_alphabeta: f64,
    /// Uniformly random safe moves that open each game, for both riders
    #[arg(long, value_name = "MIN..MAX", default_value = "0..4", value_parser = tune::args::range)]
    random_rounds: (u32, u32),
    /// Nodes of the space filler a move, once the riders are separated
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    fill_nodes: u64,
    /// The board's side (riddles starts: rider 0 at x in 1..S/2-2, y in 1..S-2, the
    /// other mirrored)
    #[arg(long, value_name = "S", default_value_t = 16, value_parser = clap::value_parser!(u64).range(6..=16))]
    size: u64,
    /// Seed of every game
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played in parallel
    #[arg(long, value_name = "T", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// Where the positions go, appended [default: stdout]
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct FitArgs {
    /// Position files written by `tron-fit play`
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Every K-th game (by index) is held out of the fit and judges it
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    held_out_every: u64,
    /// The cut-off's scale the printed weights go with (the bot's --tron-eval-scale)
    #[arg(long, value_name = "S", default_value_t = 400.0)]
    scale: f64,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Play(args) => play_command(args),
        Command::Fit(args) => fit_command(args),
    }
}

fn play_command(args: PlayArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&args.vs_alphabeta) {
        eprintln!("tron-fit: --vs-alphabeta must be in 0..1");
        return ExitCode::from(2);
    }
    selfplay::stop_on_ctrl_c("tron-fit");
    let out = match selfplay::open_out(args.out.as_deref()) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("tron-fit: {}: {e}", args.out.unwrap_or_default().display());
            return ExitCode::FAILURE;
        }
    };
    let written = selfplay::play_games(
        "tron-fit",
        args.first_game,
        args.games,
        args.threads,
        out,
        |index| {
            let positions = play(index, &args);
            let text: String = positions.iter().map(|p| p.to_line() + "\n").collect();
            (text, positions.len() as u64)
        },
    );
    if written.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Game `index`: a random riddles start, a few random rounds, then the searches; every
/// position where the riders share space, labelled with the result.
fn play(index: u64, args: &PlayArgs) -> Vec<Position> {
    let game_seed = args.seed ^ (index + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = FastRng::seed_from_u64(game_seed);
    let size = args.size as usize;
    let x = 1 + random_below(&mut rng, size as u32 / 2 - 2) as usize;
    let y = 1 + random_below(&mut rng, size as u32 - 2) as usize;
    let mut state =
        TronState::new(size, size, [], [(x, y), (size - 1 - x, y)]).expect("a riddles start");
    let mcts = TronConfig::default();
    let alphabeta = TronConfig {
        search: TronSearchKind::AlphaBeta,
        ..mcts
    };
    let mut configs = [mcts, mcts];
    if f64::from(random_below(&mut rng, 1_000_000)) < args.vs_alphabeta * 1e6 {
        configs[(index % 2) as usize] = alphabeta;
    }
    let (min, max) = args.random_rounds;
    let random_rounds = min + random_below(&mut rng, max - min + 1);
    let mut searchers: [Option<TronSearcher>; 2] = [None, None];
    let mut positions = Vec::new();
    let mut round = 0;
    while state.outcome().is_none() {
        let space = evaluate::space(&state);
        if !space.separated {
            positions.push(Position {
                game: index,
                result0: 0.5,
                space,
                free: state.free().count(),
            });
        }
        let mut moves = [Direction::Up; 2];
        for me in 0..2 {
            moves[me as usize] = if round < random_rounds {
                let safe: Vec<Direction> = state.safe_moves(me).iter().collect();
                *safe
                    .get(random_below(&mut rng, safe.len().max(1) as u32) as usize)
                    .unwrap_or(&Direction::Up)
            } else {
                let config = &configs[me as usize];
                let searcher = &mut searchers[me as usize];
                choose(config, searcher, &state, me, args, game_seed, &mut rng)
            };
        }
        state.step(moves[0], moves[1]);
        round += 1;
    }
    let result0 = result0(state.outcome().expect("the game is over"));
    for position in &mut positions {
        position.result0 = result0;
    }
    positions
}

/// `me`'s move as the bot plays it (`plan`): forced, filled once separated, or searched
/// for `args.iterations` with the tree kept from round to round.
fn choose(
    config: &TronConfig,
    searcher: &mut Option<TronSearcher>,
    state: &TronState,
    me: Player,
    args: &PlayArgs,
    seed: u64,
    rng: &mut FastRng,
) -> Direction {
    let safe = state.safe_moves(me).iter().next().unwrap_or(Direction::Up);
    match plan(config, state, me) {
        Plan::Forced(only) => only.unwrap_or(Direction::Up),
        Plan::Fill => {
            *searcher = None;
            endgame::fill_longest(state, me, Limits::iterations(args.fill_nodes))
                .first
                .unwrap_or(safe)
        }
        Plan::Search => {
            let search = searcher
                .get_or_insert_with(|| TronSearcher::new(config, state.clone(), me, seed, 1));
            search.reroot(state);
            search.search(Limits::iterations(args.iterations));
            search.best_move(rng).map_or(safe, |choice| choice.mv)
        }
    }
}

/// A model the fit compares: a name and rider 0's leads it reads.
struct Model {
    name: &'static str,
    /// The [`FEATURES`] it weighs (the others weigh 0).
    features: &'static [usize],
}

const MODELS: [Model; 6] = [
    Model {
        name: "share",
        features: &[3],
    },
    Model {
        name: "fill",
        features: &[0],
    },
    Model {
        name: "fill, edge",
        features: &[0, 1],
    },
    Model {
        name: "fill, edge, territory",
        features: &[0, 1, 2],
    },
    Model {
        name: "fill, edge, share",
        features: &[0, 1, 3],
    },
    Model {
        name: "fill, edge, territory, share",
        features: &[0, 1, 2, 3],
    },
];

/// A data set's inputs (every feature) and labels.
#[derive(Default)]
struct Set {
    xs: Vec<[f64; FEATURES]>,
    ys: Vec<f64>,
    games: std::collections::BTreeSet<u64>,
}

impl Set {
    fn push(&mut self, position: &Position) {
        self.xs.push(position.features().map(f64::from));
        self.ys.push(f64::from(position.result0));
        self.games.insert(position.game);
    }

    /// The inputs restricted to `features`.
    fn columns(&self, features: &[usize]) -> Vec<Vec<f64>> {
        self.xs
            .iter()
            .map(|x| features.iter().map(|&i| x[i]).collect())
            .collect()
    }

    /// The standard deviation of the score `beta` gives the positions: how steep the
    /// search sees the model (the weights' shape is fitted to results; the steepness
    /// that searches best is measured in games).
    fn spread(&self, beta: &[f64; FEATURES]) -> f64 {
        let scores: Vec<f64> = self
            .xs
            .iter()
            .map(|x| x.iter().zip(beta).map(|(x, b)| x * b).sum())
            .collect();
        let n = scores.len().max(1) as f64;
        let mean = scores.iter().sum::<f64>() / n;
        (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n).sqrt()
    }

    /// The share of decisive positions whose winner the weights (over every feature)
    /// favour.
    fn accuracy(&self, weights: &[f64; FEATURES]) -> f64 {
        let (mut right, mut decisive) = (0, 0);
        for (x, &y) in self.xs.iter().zip(&self.ys) {
            if y != 0.5 {
                decisive += 1;
                right += ((predict(weights, x) > 0.5) == (y > 0.5)) as u32;
            }
        }
        f64::from(right) / f64::from(decisive.max(1))
    }
}

/// The positions of `args.files`, split into the training set and the held-out one
/// (every `--held-out-every`th game); an error names the file and line.
fn read_sets(args: &FitArgs) -> Result<(Set, Set), String> {
    let (mut training, mut held_out) = (Set::default(), Set::default());
    for path in &args.files {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
            let parsed = line
                .map_err(|e| e.to_string())
                .and_then(|l| Position::parse(&l));
            match parsed {
                Ok(p) if p.game % args.held_out_every == 0 => held_out.push(&p),
                Ok(p) => training.push(&p),
                Err(e) => return Err(format!("{}:{}: {e}", path.display(), number + 1)),
            }
        }
    }
    if training.xs.is_empty() || held_out.xs.is_empty() {
        return Err("no positions to fit or none held out".into());
    }
    Ok((training, held_out))
}

fn fit_command(args: FitArgs) -> ExitCode {
    let (training, held_out) = match read_sets(&args) {
        Ok(sets) => sets,
        Err(e) => {
            eprintln!("tron-fit: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "tron-fit: {} training positions ({} games), {} held out ({} games)",
        training.xs.len(),
        training.games.len(),
        held_out.xs.len(),
        held_out.games.len()
    );
    let default = DEFAULT_SPACE_WEIGHTS.map(|w| f64::from(w) / args.scale);
    let default_spread = training.spread(&default);
    println!(
        "| model | --tron-eval-weights ({}) at scale {} | the same, at the default's spread | training log-loss | held-out log-loss | held-out accuracy |",
        FEATURE_NAMES.join(","),
        args.scale
    );
    println!("|---|---|---|---|---|---|");
    // Every feature, read once for all the rows (an unused one weighs 0).
    let every: Vec<usize> = (0..FEATURES).collect();
    let (training_all, held_out_all) = (training.columns(&every), held_out.columns(&every));
    let row = |name: &str, beta: [f64; FEATURES]| {
        let weights = |factor: f64| -> String {
            let weights: Vec<String> = beta
                .iter()
                .map(|b| format!("{:.4}", b * factor * args.scale))
                .collect();
            weights.join(",")
        };
        let spread = training.spread(&beta);
        let same_spread = if spread > 0.0 {
            weights(default_spread / spread)
        } else {
            "-".to_string()
        };
        println!(
            "| {name} | {} | {same_spread} | {:.4} | {:.4} | {:.3} |",
            weights(1.0),
            log_loss(&beta, &training_all, &training.ys),
            log_loss(&beta, &held_out_all, &held_out.ys),
            held_out.accuracy(&beta)
        );
    };
    row("one half for every position", [0.0; FEATURES]);
    row("the default (11 a cell, 39 an edge)", default);
    // The default's shape with its scale fitted: is only the curve's steepness off?
    let score: Vec<Vec<f64>> = training
        .xs
        .iter()
        .map(|x| vec![(0..FEATURES).map(|i| default[i] * x[i]).sum()])
        .collect();
    let steepness = fit(&score, &training.ys)[0];
    row(
        "the default's shape, scale fitted",
        default.map(|w| w * steepness),
    );
    for model in &MODELS {
        eprintln!("tron-fit: fitting {}", model.name);
        let fitted = fit(&training.columns(model.features), &training.ys);
        let mut beta = [0.0; FEATURES];
        for (&i, b) in model.features.iter().zip(fitted) {
            beta[i] = b;
        }
        row(model.name, beta);
    }
    ExitCode::SUCCESS
}
