//! `uttt-selfplay`: self-play games of the bot's default MCTS for training a value
//! network, one game record per line as each game ends (format: `tune/src/games.rs`,
//! `tune/README.md`).
//!
//! The teacher is the bot's own default search (the tactical prior on) with no contempt,
//! so that a draw is worth one half to both sides whatever the opening's parity. Game `g`
//! is seeded by `--seed` and `g` alone, so the set of records is the same for any
//! `--threads` (their order is the order the games end) and shards with disjoint
//! `--first-game` ranges can run on different machines and be concatenated.

use clap::Parser;
use mctsbot::bot::flags::OptionError;
use mctsbot::bot::uttt::options::uttt_eval;
use mctsbot::bot::uttt::searcher::{UtttPlay, UtttSearchKind};
use mctsbot::search::{random_below, FastRng, Game, Limits, Search};
use mctsbot::uttt::{Board, EndRule};
use rand::SeedableRng;
use tune::games::{result0, rule_by_name, teacher_search, GameRecord};
use tune::selfplay;

/// How one game is played.
#[derive(Clone, Copy, Debug)]
struct Plan {
    seed: u64,
    iterations: u64,
    random_plies: (u32, u32),
    /// The chance that a searched position is left by a uniformly random move instead of
    /// the search's: the positions after it are off the line best play would follow.
    off_line: f64,
    rule: RuleChoice,
    /// The teacher's search: its leaf values, play-outs (none) or the network's share,
    /// or UCT with minimax backups of the network's values.
    teacher: UtttPlay,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RuleChoice {
    One(EndRule),
    /// Even games TheAIGames' rule, odd games CodinGame's.
    Both,
}

fn play(index: u64, plan: Plan) -> GameRecord {
    let game_seed = plan.seed ^ (index + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = FastRng::seed_from_u64(game_seed);
    let rule = match plan.rule {
        RuleChoice::One(rule) => rule,
        RuleChoice::Both if index % 2 == 0 => EndRule::Draw,
        RuleChoice::Both => EndRule::MoreBoards,
    };
    let mut board = Board::with_end_rule(rule);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    let (min, max) = plan.random_plies;
    let opening = min + random_below(&mut rng, max - min + 1);
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
    let mut tree = teacher_search(board, &plan.teacher, game_seed);
    let off_line_below = (plan.off_line * u32::MAX as f64) as u32;
    while board.outcome().is_none() {
        tree.reroot(board);
        tree.search(Limits::iterations(plan.iterations));
        let best = tree.best_move().expect("an unfinished game has a move");
        values.push(best.value);
        let mv = if random_below(&mut rng, u32::MAX) < off_line_below {
            legal.clear();
            board.legal_moves(&mut legal);
            legal[random_below(&mut rng, legal.len() as u32) as usize]
        } else {
            best.mv
        };
        board.play(mv);
        moves.push(mv);
    }
    GameRecord {
        rule,
        result0: result0(board.outcome().expect("finished")),
        opening_plies,
        moves,
        values,
    }
}

/// Self-play games of the bot's default MCTS (tactical prior on, contempt 0) for training
/// the value network, one record per line as each game ends (format: tune/README.md).
/// Game g depends on --seed and g alone: the same records for any --threads, and shards
/// (--first-game) that can run on different machines and be concatenated. Ctrl-C stops
/// after the games in flight, keeping every record written.
#[derive(Parser, Debug)]
#[command(name = "uttt-selfplay", version)]
struct Args {
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 200)]
    games: u64,
    /// The first game's index (a shard plays games G..G+N)
    #[arg(long, value_name = "G", default_value_t = 0)]
    first_game: u64,
    /// MCTS iterations per move (the tree kept from move to move)
    #[arg(long, value_name = "K", default_value_t = 10_000)]
    iterations: u64,
    /// Uniformly random plies that open each game (diverse openings)
    #[arg(long, value_name = "MIN..MAX", default_value = "2..6", value_parser = tune::args::range)]
    random_plies: (u32, u32),
    /// The chance that a searched position is left by a random move instead of the
    /// search's (positions off the line; every position keeps its search value)
    #[arg(long, value_name = "P", default_value_t = 0.1)]
    off_line: f64,
    /// End rule: theaigames (a lineless game is a draw), codingame (it goes to the player
    /// with more boards) or both (even games one, odd games the other)
    #[arg(long, value_name = "theaigames|codingame|both", default_value = "both", value_parser = rule)]
    rule: RuleChoice,
    /// The teacher's leaf values, as the bot's --uttt-eval: playout (the default search),
    /// nn or blend:W (the embedded network's share W: data from the network search); or
    /// minimax-uct, the bot's --uttt-search minimax-uct (its CodinGame default)
    #[arg(long, value_name = "playout|nn|blend:W|minimax-uct", default_value = "playout", value_parser = teacher)]
    teacher: Teacher,
    /// Seed of every game
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played in parallel
    #[arg(long, value_name = "T", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    threads: u64,
    /// Where the records go, appended [default: stdout]
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

/// The teacher's search: `--uttt-eval`'s network share, or `minimax-uct`.
#[derive(Clone, Copy, Debug)]
struct Teacher(UtttPlay);

fn teacher(text: &str) -> Result<Teacher, OptionError> {
    if text == "minimax-uct" {
        return Ok(Teacher(UtttPlay {
            search: UtttSearchKind::MinimaxUct,
            network: Some(1.0),
            ..UtttPlay::default()
        }));
    }
    uttt_eval(text).map(|network| {
        Teacher(UtttPlay {
            network,
            ..UtttPlay::default()
        })
    })
}

fn rule(name: &str) -> Result<RuleChoice, String> {
    match name {
        "both" => Ok(RuleChoice::Both),
        _ => rule_by_name(name)
            .map(RuleChoice::One)
            .ok_or_else(|| "theaigames, codingame or both".into()),
    }
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    if !(0.0..=1.0).contains(&args.off_line) {
        eprintln!("uttt-selfplay: --off-line must be in 0..1");
        return std::process::ExitCode::from(2);
    }
    selfplay::stop_on_ctrl_c("uttt-selfplay");
    let out = match selfplay::open_out(args.out.as_deref()) {
        Ok(out) => out,
        Err(e) => {
            eprintln!(
                "uttt-selfplay: {}: {e}",
                args.out.unwrap_or_default().display()
            );
            return std::process::ExitCode::FAILURE;
        }
    };
    let plan = Plan {
        seed: args.seed,
        iterations: args.iterations,
        random_plies: args.random_plies,
        off_line: args.off_line,
        rule: args.rule,
        teacher: args.teacher.0,
    };
    let written = selfplay::play_games(
        "uttt-selfplay",
        args.first_game,
        args.games,
        args.threads,
        out,
        |index| {
            let record = play(index, plan);
            (record.to_line() + "\n", record.values.len() as u64)
        },
    );
    if written.failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
