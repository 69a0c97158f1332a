//! `uttt-selfplay`: self-play games of the bot's MCTS for training a value network, one
//! game record per line (format: `tune/src/games.rs`, `tune/README.md`).
//!
//! ```text
//! uttt-selfplay [--games N] [--iterations K] [--random-plies MIN..MAX]
//!               [--rule theaigames|codingame] [--seed S] [--threads T] [--out FILE]
//! ```
//! Game `g` is seeded by `S` and `g` alone, so the file is the same for any `--threads`.
//! Each game starts with MIN..MAX uniformly random plies (diverse openings), then each
//! move is the search's after K iterations (the tree kept from move to move).

use clap::Parser;
use mctsbot::bot::options::UTTT_SEARCH;
use mctsbot::search::tree::Tree;
use mctsbot::search::{random_below, FastRng, Game, Limits};
use mctsbot::uttt::{Board, EndRule, RandomPlayout};
use rand::SeedableRng;
use std::io::Write;
use tune::games::{result0, GameRecord};

fn play(index: u64, seed: u64, iterations: u64, plies: (u32, u32), rule: EndRule) -> GameRecord {
    let game_seed = seed ^ (index + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = FastRng::seed_from_u64(game_seed);
    let mut board = Board::with_end_rule(rule);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    let opening = plies.0 + random_below(&mut rng, plies.1 - plies.0 + 1);
    for _ in 0..opening {
        legal.clear();
        board.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[random_below(&mut rng, legal.len() as u32) as usize];
        board.play(mv);
        moves.push(mv);
    }
    let opening_plies = moves.len();
    let mut values = Vec::new();
    let mut tree = Tree::new(board, UTTT_SEARCH, RandomPlayout, game_seed);
    while board.outcome().is_none() {
        tree.reroot(board);
        tree.search(Limits::iterations(iterations));
        let best = tree.best_move().expect("an unfinished game has a move");
        values.push(best.value);
        board.play(best.mv);
        moves.push(best.mv);
    }
    GameRecord {
        rule,
        result0: result0(board.outcome().expect("finished")),
        opening_plies,
        moves,
        values,
    }
}

/// Self-play games of the bot's MCTS for training the value network, one game record
/// per line (format: tune/README.md). Game g is seeded by --seed and g alone, so the
/// file is the same for any --threads.
#[derive(Parser, Debug)]
#[command(name = "uttt-selfplay", version)]
struct Args {
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 200)]
    games: u64,
    /// MCTS iterations per move (the tree kept from move to move)
    #[arg(long, value_name = "K", default_value_t = 3000)]
    iterations: u64,
    /// Uniformly random plies that open each game (diverse openings)
    #[arg(long, value_name = "MIN..MAX", default_value = "2..6", value_parser = tune::args::range)]
    random_plies: (u32, u32),
    /// End rule: theaigames (a lineless game is a draw) or codingame (it goes to the
    /// player with more boards)
    #[arg(long, value_name = "theaigames|codingame", default_value = "theaigames", value_parser = rule)]
    rule: EndRule,
    /// Seed of every game
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played in parallel
    #[arg(long, value_name = "T", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// Where the records go [default: stdout]
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

fn rule(name: &str) -> Result<EndRule, String> {
    match name {
        "theaigames" => Ok(EndRule::Draw),
        "codingame" => Ok(EndRule::MoreBoards),
        _ => Err("theaigames or codingame".into()),
    }
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let run = || -> Result<(), String> {
        let (games, iterations, seed, threads) =
            (args.games, args.iterations, args.seed, args.threads);
        let (plies, rule) = (args.random_plies, args.rule);
        let started = std::time::Instant::now();
        let mut records: Vec<(u64, String)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        (t..games)
                            .step_by(threads as usize)
                            .map(|g| (g, play(g, seed, iterations, plies, rule).to_line()))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a worker panicked"))
                .collect()
        });
        records.sort_by_key(|(g, _)| *g);
        let mut out: Box<dyn Write> = match &args.out {
            Some(path) => Box::new(
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
            ),
            None => Box::new(std::io::stdout().lock()),
        };
        for (_, line) in &records {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        eprintln!("uttt-selfplay: {games} games in {:.1?}", started.elapsed());
        Ok(())
    };
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt-selfplay: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
