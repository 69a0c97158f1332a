//! `mctsbot`: plays Ultimate Tic-Tac-Toe or Light Riders against an engine on
//! stdin/stdout, or runs the search benchmarks (`mctsbot bench`).

use mctsbot::bench::BenchBudget;
use mctsbot::bot::flags::OptionError;
use mctsbot::bot::{self, Config};
use mctsbot::game::GameKind;
use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// Why a command stopped; `main` prints it and exits with 2.
#[derive(Debug)]
enum CommandError {
    Options(OptionError),
    /// `bench`'s `--ms` or `--iterations` without its number (`value`: `None`) or with
    /// something else.
    BenchNumber {
        flag: String,
        what: &'static str,
        value: Option<String>,
    },
    /// `perft`'s depth, not a number.
    PerftDepth(String),
    /// The engine's pipe closed while the bot played.
    Pipe(io::Error),
    /// Standard output closed under `bench` or `perft`.
    Output(io::Error),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CommandError::Options(e) => write!(f, "{e}"),
            CommandError::BenchNumber { flag, what, value } => match value {
                None => write!(f, "{flag} needs {what}"),
                Some(value) => write!(f, "{flag} needs {what}, got {value:?}"),
            },
            CommandError::PerftDepth(text) => write!(f, "perft needs a depth, got {text:?}"),
            CommandError::Pipe(e) => write!(f, "engine pipe closed: {e}"),
            CommandError::Output(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<OptionError> for CommandError {
    fn from(e: OptionError) -> Self {
        CommandError::Options(e)
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{}", bot::usage());
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!("mctsbot {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        Some("perft") => perft(&args[1..]),
        _ => play(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mctsbot: {message}");
            ExitCode::from(2)
        }
    }
}

fn play(args: &[String]) -> Result<(), CommandError> {
    let config = Config::from_args(args)?;
    // Not locked: with --ponder a thread of its own reads it.
    let stdin = io::BufReader::new(io::stdin());
    let stdout = io::stdout().lock();
    bot::run(stdin, stdout, config).map_err(CommandError::Pipe)
}

/// `mctsbot bench [--ms N | --iterations N] [--playouts] [--evaluations] [OPTIONS]`: a
/// timed search of each fixed position, or an exactly repeatable one of `N` iterations
/// (whose chosen moves and node counts are a signature of the search: a refactoring must
/// not change them); `--playouts` (Light Riders): once per play-out policy;
/// `--evaluations` (Light Riders): alpha-beta's search and its static evaluation's speed.
fn bench(args: &[String]) -> Result<(), CommandError> {
    let mut ms = 1000;
    let mut iterations = None;
    let mut playouts = false;
    let mut evaluations = false;
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = |what: &'static str| -> Result<u64, CommandError> {
            let value = args.next();
            let bad = || CommandError::BenchNumber {
                flag: arg.clone(),
                what,
                value: value.cloned(),
            };
            value.ok_or_else(bad)?.parse().map_err(|_| bad())
        };
        match arg.as_str() {
            "--ms" => ms = number("milliseconds")?,
            "--iterations" => iterations = Some(number("a number of iterations")?),
            "--playouts" => playouts = true,
            "--evaluations" => evaluations = true,
            _ => rest.push(arg.clone()),
        }
    }
    let config = Config::from_args(&rest)?;
    let budget = iterations.map_or(BenchBudget::Millis(ms), BenchBudget::Iterations);
    let results = match config.common.game {
        Some(GameKind::TronBattle) => mctsbot::bench::tron_battle(budget, &config),
        Some(GameKind::LightRiders) if evaluations => {
            mctsbot::bench::tron_evaluations(budget, &config)
        }
        Some(GameKind::LightRiders) if playouts => mctsbot::bench::tron_playouts(budget, &config),
        Some(GameKind::LightRiders) => mctsbot::bench::tron(budget, &config),
        Some(GameKind::Uttt) | None => mctsbot::bench::uttt(budget, &config),
    };
    let mut out = io::stdout().lock();
    for result in results {
        writeln!(out, "{}", result.to_json()).map_err(CommandError::Output)?;
    }
    Ok(())
}

/// `mctsbot perft [DEPTH]`: UTTT move-generation counts from the empty board, depth by depth.
fn perft(args: &[String]) -> Result<(), CommandError> {
    let depth = match args.first() {
        Some(text) => text
            .parse()
            .map_err(|_| CommandError::PerftDepth(text.clone()))?,
        None => 6,
    };
    let board = mctsbot::uttt::Board::new();
    let mut out = io::stdout().lock();
    for d in 1..=depth {
        let started = std::time::Instant::now();
        let nodes = mctsbot::uttt::perft(&board, d);
        writeln!(out, "{d} {nodes} ({} ms)", started.elapsed().as_millis())
            .map_err(CommandError::Output)?;
    }
    Ok(())
}
