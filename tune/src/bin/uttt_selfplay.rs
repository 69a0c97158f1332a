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

use mctsbot::bot::options::UTTT_SEARCH;
use mctsbot::search::tree::Tree;
use mctsbot::search::{random_below, FastRng, Game, Limits};
use mctsbot::uttt::{Board, EndRule, RandomPlayout};
use rand::SeedableRng;
use std::io::Write;
use tune::args::{parsed, range, value};
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

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |flag: &str, default: u64| parsed(&args, flag, default);
    let run = || -> Result<(), String> {
        let games = number("--games", 200)?;
        let iterations = number("--iterations", 3000)?;
        let seed = number("--seed", 1)?;
        let threads = number("--threads", 2)?.max(1);
        let plies = range(&args, "--random-plies", (2, 6))?;
        let rule = match value(&args, "--rule")? {
            None | Some("theaigames") => EndRule::Draw,
            Some("codingame") => EndRule::MoreBoards,
            Some(other) => return Err(format!("--rule {other}: theaigames or codingame")),
        };
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
        let mut out: Box<dyn Write> = match value(&args, "--out")? {
            Some(path) => {
                Box::new(std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?)
            }
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
