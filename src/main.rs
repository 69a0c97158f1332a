//! `mctsbot`: plays Ultimate Tic-Tac-Toe or Light Riders against an engine on
//! stdin/stdout, or runs the search benchmarks (`mctsbot bench`).

use mctsbot::bench::BenchBudget;
use mctsbot::bot::{self, Config};
use mctsbot::game::GameKind;
use std::io::{self, Write};
use std::process::ExitCode;

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

fn play(args: &[String]) -> Result<(), String> {
    let config = Config::from_args(args).map_err(|e| e.to_string())?;
    // Not locked: with --ponder a thread of its own reads it.
    let stdin = io::BufReader::new(io::stdin());
    let stdout = io::stdout().lock();
    bot::run(stdin, stdout, config).map_err(|e| format!("engine pipe closed: {e}"))
}

/// `mctsbot bench [--ms N | --iterations N] [--playouts] [--evaluations] [OPTIONS]`: a
/// timed search of each fixed position, or an exactly repeatable one of `N` iterations
/// (whose chosen moves and node counts are a signature of the search: a refactoring must
/// not change them); `--playouts` (Light Riders): once per play-out policy;
/// `--evaluations` (Light Riders): alpha-beta's search and its static evaluation's speed.
fn bench(args: &[String]) -> Result<(), String> {
    let mut ms = 1000;
    let mut iterations = None;
    let mut playouts = false;
    let mut evaluations = false;
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            let value = args.next().ok_or(format!("{arg} needs {what}"))?;
            value
                .parse()
                .map_err(|_| format!("{arg} needs {what}, got {value:?}"))
        };
        match arg.as_str() {
            "--ms" => ms = number("milliseconds")?,
            "--iterations" => iterations = Some(number("a number of iterations")?),
            "--playouts" => playouts = true,
            "--evaluations" => evaluations = true,
            _ => rest.push(arg.clone()),
        }
    }
    let config = Config::from_args(&rest).map_err(|e| e.to_string())?;
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
        writeln!(out, "{}", result.to_json()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `mctsbot perft [DEPTH]`: UTTT move-generation counts from the empty board, depth by depth.
fn perft(args: &[String]) -> Result<(), String> {
    let depth = match args.first() {
        Some(text) => text
            .parse()
            .map_err(|_| format!("perft needs a depth, got {text:?}"))?,
        None => 6,
    };
    let board = mctsbot::uttt::Board::new();
    let mut out = io::stdout().lock();
    for d in 1..=depth {
        let started = std::time::Instant::now();
        let nodes = mctsbot::uttt::perft(&board, d);
        writeln!(out, "{d} {nodes} ({} ms)", started.elapsed().as_millis())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
