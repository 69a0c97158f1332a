//! `uttt-gate`: judges a UTTT value network offline, before any game is played, against
//! the mean of 1, 4, 16 and 64 random play-outs (the search's leaf value today).
//!
//! ```text
//! uttt-gate probe HELD_OUT_GAMES... --out PROBE [--positions N] [--ranked R]
//!                 [--iterations K] [--child-iterations C] [--threads T] [--seed S]
//! uttt-gate eval PROBE [--net FILE]... [--playouts 1,4,16,64] [--seed S]
//! ```
//! `probe` draws positions from self-play records that no network trained on, half from
//! the games' lines and half one or two random moves off them, and values each by the
//! teacher (the default search, contempt 0) at K iterations; for the first R positions
//! it also values every child at C iterations (the probe file: `tune/README.md`).
//! `eval` reports for each evaluator the mean squared error against the reference (and
//! against the game's result where there is one), top-1 agreement and regret when
//! ranking every child, the spread of its values over the eight symmetries, and its
//! mean value of positions where the mover wins at once. A network passes the gate when
//! it beats 16 play-outs on the error and on the ranking.

mod judge;
mod probe;

use clap::{Parser, Subcommand};
use judge::{eval, judges};
use mctsbot::uttt::EndRule;
use probe::{
    draw_positions, read_probe, read_records, results_probe, value_positions, write_probe,
};
use std::path::PathBuf;
use std::process::ExitCode;
use tune::games::rule_by_name;

/// Judges a UTTT value network offline against random play-outs: `probe` makes the
/// held-out positions and their reference values, `eval` reports each evaluator's errors.
#[derive(Parser, Debug)]
#[command(name = "uttt-gate", version, propagate_version = true)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Draws held-out positions from self-play records and values them by the teacher
    Probe {
        /// Self-play records no network trained on
        #[arg(value_name = "GAMES_FILE", required = true)]
        files: Vec<PathBuf>,
        /// Where the probe set goes
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Positions, half on the games' lines and half off them
        #[arg(long, value_name = "N", default_value_t = 600)]
        positions: usize,
        /// How many of them get every child valued (for the ranking)
        #[arg(long, value_name = "R", default_value_t = 300)]
        ranked: usize,
        /// The teacher's iterations for a position's reference value
        #[arg(long, value_name = "K", default_value_t = 100_000)]
        iterations: u64,
        /// The teacher's iterations for each child of a ranked position
        #[arg(long, value_name = "C", default_value_t = 20_000)]
        child_iterations: u64,
        /// Positions valued in parallel
        #[arg(long, value_name = "T", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
        threads: u64,
        /// Seed of the draw and of the searches
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
    },
    /// Writes every searched position of self-play records as a probe of results: the
    /// record's own root value as reference, no search (thousands of positions in a
    /// second, for the errors against the result by phase)
    Results {
        /// Self-play records no network trained on
        #[arg(value_name = "GAMES_FILE", required = true)]
        files: Vec<PathBuf>,
        /// Where the probe set goes
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Only the games of this end rule
        #[arg(long, value_name = "theaigames|codingame", value_parser = end_rule)]
        rule: Option<EndRule>,
    },
    /// Reports each evaluator's errors on a probe set
    Eval {
        /// The probe set (`uttt-gate probe`)
        #[arg(value_name = "PROBE")]
        probe: PathBuf,
        /// A network's weights file (repeatable; the bot's input and hidden sizes)
        #[arg(long = "net", value_name = "FILE")]
        nets: Vec<PathBuf>,
        /// Play-out counts to compare with
        #[arg(
            long,
            value_name = "LIST",
            default_value = "1,4,16,64",
            value_delimiter = ','
        )]
        playouts: Vec<u32>,
        /// Network shares to judge as the bot's blend (`--uttt-eval blend:S`) with each
        /// network: S · network + (1 − S) · the mean of --blend-playouts play-outs
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        blend: Vec<f32>,
        /// The play-outs a blended leaf averages (a leaf gets about six before it is
        /// expanded)
        #[arg(long, value_name = "K", default_value_t = 6)]
        blend_playouts: u32,
        /// Seed of the play-outs
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
    },
}

/// `--rule`: an end rule by its name in the records.
fn end_rule(name: &str) -> Result<EndRule, String> {
    rule_by_name(name).ok_or_else(|| "theaigames or codingame".into())
}

fn run(args: Args) -> Result<(), String> {
    match args.command {
        Command::Probe {
            files,
            out,
            positions,
            ranked,
            iterations,
            child_iterations,
            threads,
            seed,
        } => {
            let records = read_records(&files)?;
            let mut probe = draw_positions(&records, positions, seed);
            eprintln!(
                "uttt-gate: {} positions from {} games; the teacher values each at {iterations} \
                 iterations and every child of {} at {child_iterations}",
                probe.len(),
                records.len(),
                ranked.min(probe.len())
            );
            value_positions(
                &mut probe,
                ranked,
                (iterations, child_iterations),
                threads as usize,
                seed,
            );
            write_probe(&out, &probe)
        }
        Command::Results { files, out, rule } => {
            let records = read_records(&files)?;
            let probe = results_probe(&records, rule)?;
            eprintln!(
                "uttt-gate: {} positions from {} games",
                probe.len(),
                records.len()
            );
            write_probe(&out, &probe)
        }
        Command::Eval {
            probe,
            nets,
            playouts,
            blend,
            blend_playouts,
            seed,
        } => {
            let probe = read_probe(&probe)?;
            let judges = judges(&playouts, &nets, &blend, blend_playouts)?;
            eval(&probe, &judges, seed);
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt-gate: {e}");
            ExitCode::FAILURE
        }
    }
}
