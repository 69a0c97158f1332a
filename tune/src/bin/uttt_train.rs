//! `uttt-train`: trains the UTTT value network on self-play records and writes the
//! quantised weights the bot embeds.
//!
//! ```text
//! uttt-train GAMES_FILE... [--out FILE] [--epochs E] [--batch B] [--lr X] [--lambda L]
//!                          [--validation F] [--seed S]
//! ```
//! The target is `L · result + (1 − L) · root value` for the player to move [L = 0.5]. A
//! fraction F of the games [0.1], whole games so that no position leaks, is kept for
//! validation; both losses are printed after each epoch. The weights go to FILE
//! [src/uttt/nn_weights.bin].

use clap::Parser;
use mctsbot::uttt::nn::active_features;
use std::path::PathBuf;
use std::process::ExitCode;
use tune::games::GameRecord;
use tune::net::{Example, Network, Trainer};

fn examples(records: &[GameRecord], lambda: f32) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    for record in records {
        for sample in record.samples()? {
            let mut features = Vec::with_capacity(48);
            active_features(&sample.board, &mut features);
            out.push(Example {
                features,
                target: lambda * sample.result + (1.0 - lambda) * sample.value,
            });
        }
    }
    Ok(out)
}

/// Trains the UTTT value network on self-play records (uttt-selfplay) and writes the
/// quantised weights the bot embeds.
#[derive(Parser, Debug)]
#[command(name = "uttt-train", version)]
struct Args {
    /// Self-play record files
    #[arg(value_name = "GAMES_FILE", required = true)]
    files: Vec<PathBuf>,
    /// Where the weights go
    #[arg(long, value_name = "FILE", default_value = "src/uttt/nn_weights.bin")]
    out: PathBuf,
    /// Training epochs
    #[arg(long, value_name = "E", default_value_t = 20)]
    epochs: usize,
    /// Mini-batch size
    #[arg(long, value_name = "B", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Adam's learning rate
    #[arg(long, value_name = "X", default_value_t = 0.001)]
    lr: f32,
    /// Target weight L of the result: L · result + (1 − L) · root value, for the player
    /// to move
    #[arg(long, value_name = "L", default_value_t = 0.5)]
    lambda: f32,
    /// Fraction of the games held out whole for validation (no position leaks)
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    validation: f64,
    /// Seed of the initial weights and the shuffles
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

fn run(args: &Args) -> Result<(), String> {
    let mut records = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            records.push(GameRecord::parse(line)?);
        }
    }
    let validation = args.validation;
    let held_out = ((records.len() as f64 * validation).round() as usize).min(records.len());
    let (valid, train) = records.split_at(held_out);
    let lambda = args.lambda;
    let mut train = examples(train, lambda)?;
    let valid = examples(valid, lambda)?;
    let (epochs, batch, seed) = (args.epochs, args.batch as usize, args.seed);
    // What predicting the training targets' mean scores: the loss to beat.
    let mean = train.iter().map(|e| e.target).sum::<f32>() / train.len().max(1) as f32;
    let baseline =
        valid.iter().map(|e| (e.target - mean).powi(2)).sum::<f32>() / valid.len().max(1) as f32;
    eprintln!(
        "uttt-train: {} games, {} training and {} validation positions; \
         validation loss of the mean {baseline:.5}",
        records.len(),
        train.len(),
        valid.len()
    );
    let mut net = Network::new(seed);
    let mut trainer = Trainer::new(args.lr);
    let mut state = seed | 1;
    let started = std::time::Instant::now();
    for epoch in 1..=epochs {
        // Fisher-Yates with a small LCG: a fresh order every epoch, the same every run.
        for i in (1..train.len()).rev() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            train.swap(i, (state >> 33) as usize % (i + 1));
        }
        for chunk in train.chunks(batch) {
            let refs: Vec<&Example> = chunk.iter().collect();
            trainer.step(&mut net, &refs);
        }
        eprintln!(
            "epoch {epoch}: training loss {:.5}, validation loss {:.5} ({:.1?})",
            net.loss(&train),
            net.loss(&valid),
            started.elapsed()
        );
    }
    let out = &args.out;
    std::fs::write(out, net.quantize().to_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("uttt-train: weights written to {}", out.display());
    Ok(())
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt-train: {e}");
            ExitCode::FAILURE
        }
    }
}
