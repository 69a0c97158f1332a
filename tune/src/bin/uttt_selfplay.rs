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
use mctsbot::bot::uttt::options::uttt_eval;
use mctsbot::search::{random_below, FastRng, Game, Limits, Search};
use mctsbot::uttt::{Board, EndRule};
use rand::SeedableRng;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use tune::games::{result0, teacher_search, GameRecord};

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
    /// The teacher's leaf values: play-outs (none) or the network's share.
    network: Option<f32>,
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
    let mut tree = teacher_search(board, plan.network, game_seed);
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
    /// nn or blend:W (the embedded network's share W: data from the network search)
    #[arg(long, value_name = "playout|nn|blend:W", default_value = "playout", value_parser = teacher)]
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

/// The teacher's network share (`--uttt-eval`'s value); a type of its own because clap
/// reads an `Option` field as an optional flag.
#[derive(Clone, Copy, Debug)]
struct Teacher(Option<f32>);

fn teacher(text: &str) -> Result<Teacher, String> {
    uttt_eval(text).map(Teacher)
}

fn rule(name: &str) -> Result<RuleChoice, String> {
    match name {
        "theaigames" => Ok(RuleChoice::One(EndRule::Draw)),
        "codingame" => Ok(RuleChoice::One(EndRule::MoreBoards)),
        "both" => Ok(RuleChoice::Both),
        _ => Err("theaigames, codingame or both".into()),
    }
}

/// Set by the first Ctrl-C: no game starts after it.
static STOP: AtomicBool = AtomicBool::new(false);

/// Where the records go, with the games and positions written there so far.
type Sink = (Box<dyn Write + Send>, u64, u64);

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    if !(0.0..=1.0).contains(&args.off_line) {
        eprintln!("uttt-selfplay: --off-line must be in 0..1");
        return std::process::ExitCode::from(2);
    }
    stop_on_ctrl_c();
    let out: Box<dyn Write + Send> = match &args.out {
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => Box::new(file),
            Err(e) => {
                eprintln!("uttt-selfplay: {}: {e}", path.display());
                return std::process::ExitCode::FAILURE;
            }
        },
        None => Box::new(std::io::stdout()),
    };
    let plan = Plan {
        seed: args.seed,
        iterations: args.iterations,
        random_plies: args.random_plies,
        off_line: args.off_line,
        rule: args.rule,
        network: args.teacher.0,
    };
    let games = args.games;
    let started = Instant::now();
    let (done, positions, failed) =
        play_games(plan, args.first_game, games, args.threads, out, started);
    eprintln!(
        "uttt-selfplay: {done} games, {positions} positions in {:.1?}{}",
        started.elapsed(),
        if done < games { " (stopped early)" } else { "" }
    );
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}

/// The first Ctrl-C sets [`STOP`], the second kills.
fn stop_on_ctrl_c() {
    if let Err(e) = ctrlc::set_handler(|| {
        eprintln!("\nuttt-selfplay: stopping after the games in flight (Ctrl-C again kills)");
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    }) {
        eprintln!("uttt-selfplay: no Ctrl-C handler: {e}");
    }
}

/// Plays games `first..first + games` on `threads` threads, each record written to `out`
/// as its game ends, until all are played, Ctrl-C or a failed write. Returns the games
/// and positions written and whether a write failed.
fn play_games(
    plan: Plan,
    first: u64,
    games: u64,
    threads: u64,
    out: Box<dyn Write + Send>,
    started: Instant,
) -> (u64, u64, bool) {
    let next = AtomicU64::new(first);
    let out: Mutex<Sink> = Mutex::new((out, 0, 0));
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                if STOP.load(Ordering::SeqCst) || failed.load(Ordering::SeqCst) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= first + games {
                    return;
                }
                let record = play(index, plan);
                if !write_record(&out, &record, games, started, &failed) {
                    return;
                }
            });
        }
    });
    let (_, done, positions) = *out.lock().expect("no writer panics");
    (done, positions, failed.load(Ordering::SeqCst))
}

/// Writes `record` as one line and counts it, with a progress line now and then (of
/// `games`); false, with `failed` set, if the write failed.
fn write_record(
    out: &Mutex<Sink>,
    record: &GameRecord,
    games: u64,
    started: Instant,
    failed: &AtomicBool,
) -> bool {
    let mut guard = out.lock().expect("no writer panics");
    let (sink, done, positions) = &mut *guard;
    // One write per record: an interrupted run keeps whole lines.
    let line = record.to_line() + "\n";
    if let Err(e) = sink.write_all(line.as_bytes()).and_then(|()| sink.flush()) {
        eprintln!("uttt-selfplay: writing a record: {e}");
        failed.store(true, Ordering::SeqCst);
        return false;
    }
    *done += 1;
    *positions += record.values.len() as u64;
    let every = (games / 100).clamp(1, 50);
    if *done % every == 0 || *done == games {
        let seconds = started.elapsed().as_secs_f64();
        let rate = *done as f64 / seconds;
        let eta = (games - *done) as f64 / rate;
        eprintln!(
            "uttt-selfplay: {done}/{games} games, {positions} positions, \
             {rate:.2} games/s, ETA {eta:.0} s"
        );
    }
    true
}
