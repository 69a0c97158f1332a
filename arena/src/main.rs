//! `arena`: the local engine. Plays two bot commands against each other over the
//! TheAIGames / riddles.io protocol and prints the results table; see `arena --help`.

use arena::cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-V" || a == "--version") {
        println!("arena {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    match args.first().map(String::as_str) {
        Some("merge") => std::process::exit(arena::run_merge(&args[1..])),
        Some("openings") => std::process::exit(arena::run_openings(&args[1..])),
        Some("report") => std::process::exit(arena::run_report(&args[1..])),
        Some(kind @ ("gauntlet" | "round-robin")) => {
            let kind = if kind == "gauntlet" {
                cli::TournamentKind::Gauntlet
            } else {
                cli::TournamentKind::RoundRobin
            };
            match cli::parse_tournament(kind, &args[1..]) {
                Ok(Some(t)) => std::process::exit(arena::run_tournament(&t)),
                Ok(None) => println!("{}", cli::USAGE),
                Err(e) => {
                    eprintln!("arena {}: {e}\n\n{}", kind.name(), cli::USAGE);
                    std::process::exit(2);
                }
            }
            return;
        }
        _ => {}
    }
    match cli::parse(&args) {
        Ok(Some(opts)) => std::process::exit(arena::run(&opts)),
        Ok(None) => println!("{}", cli::USAGE),
        Err(e) => {
            eprintln!("arena: {e}\n\n{}", cli::USAGE);
            std::process::exit(2);
        }
    }
}
