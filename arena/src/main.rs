//! `arena`: the local engine. Plays two bot commands against each other over the
//! TheAIGames / riddles.io protocol and prints the results table; see `arena --help`.

use arena::cli::{self, Cli, Command};
use arena::options::TournamentKind;
use clap::Parser;

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Some(Command::Merge(args)) => arena::run_merge(&args),
        Some(Command::Report(args)) => arena::run_report(&args),
        Some(Command::Openings(args)) => arena::run_openings(&args),
        Some(Command::Replay(args)) => arena::replay::run(&args),
        Some(Command::View(args)) => arena::view::run(&args),
        Some(Command::Play(args)) => arena::human::run_play(&args),
        Some(Command::Seat(args)) => arena::human::run_seat(&args),
        Some(Command::Gauntlet(args)) => tournament(TournamentKind::Gauntlet, args),
        Some(Command::RoundRobin(args)) => tournament(TournamentKind::RoundRobin, args),
        None => match cli::series(cli.series) {
            Ok(opts) => arena::run(&opts),
            Err(e) => cli::usage_error(None, e).exit(),
        },
    };
    std::process::exit(code);
}

fn tournament(kind: TournamentKind, args: cli::SeriesArgs) -> i32 {
    match cli::tournament(kind, args) {
        Ok(t) => arena::run_tournament(&t),
        Err(e) => cli::usage_error(Some(kind.name()), e).exit(),
    }
}
