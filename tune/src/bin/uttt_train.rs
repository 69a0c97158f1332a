//! `uttt-train`: trains the UTTT value network on self-play records and writes the
//! quantised weights the bot embeds.
//!
//! ```text
//! uttt-train GAMES_FILE... --out FILE [--epochs E] [--batch B] [--lr X] [--lambda L]
//!                          [--validation F] [--no-symmetries] [--init FILE] [--seed S]
//! ```
//! The target is `L · result + (1 − L) · root value` for the player to move. A fraction F
//! of the games, whole games so that no position leaks, is kept for validation; both
//! losses are printed after each epoch. Each training position is seen under a random
//! one of the eight symmetries each epoch; the learning rate falls from X to X/20 along a
//! cosine. At the end the quantised weights are checked against the float network on the
//! validation positions, and written to FILE (never over the embedded weights unless
//! FILE names them).

use clap::Parser;
use mctsbot::uttt::nn::{active_features, QuantizedNet, HIDDEN, INPUTS};
use std::path::PathBuf;
use std::process::ExitCode;
use tune::games::GameRecord;
use tune::net::{Example, Network, Trainer};
use tune::symmetry::feature_maps;

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
    /// Where the weights go (the bot embeds src/uttt/nn_weights.bin for the engines' end
    /// rule, src/uttt/nn_weights_codingame.bin for CodinGame's)
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Training epochs
    #[arg(long, value_name = "E", default_value_t = 30)]
    epochs: usize,
    /// Mini-batch size
    #[arg(long, value_name = "B", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Adam's first learning rate (it falls to a twentieth along a cosine)
    #[arg(long, value_name = "X", default_value_t = 0.002)]
    lr: f32,
    /// Target weight L of the result: L · result + (1 − L) · root value, for the player
    /// to move
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    lambda: f32,
    /// Fraction of the games held out whole for validation (no position leaks)
    #[arg(long, value_name = "F", default_value_t = 0.05)]
    validation: f64,
    /// Train on the positions as played only (no random symmetry each epoch)
    #[arg(long)]
    no_symmetries: bool,
    /// Start from this weights file's network instead of random weights (fine-tuning:
    /// e.g. an embedded src/uttt/nn_weights*.bin on new games, with a smaller --lr); a
    /// network with fewer hidden units is widened, its values unchanged
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Seed of the initial weights and the shuffles
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

fn run(args: &Args) -> Result<(), String> {
    let records = read_records(&args.files)?;
    let validation = args.validation;
    let held_out = ((records.len() as f64 * validation).round() as usize).min(records.len());
    let (valid, train) = records.split_at(held_out);
    let lambda = args.lambda;
    let mut train = examples(train, lambda)?;
    let valid = examples(valid, lambda)?;
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
    let start = match &args.init {
        None => Network::new(args.seed),
        Some(file) => {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let (hidden, net) = QuantizedNet::from_bytes_any_width(&bytes)
                .filter(|&(hidden, _)| hidden <= HIDDEN)
                .ok_or_else(|| {
                    format!(
                        "{}: not a weights file of {INPUTS} inputs and at most {HIDDEN} \
                         hidden units",
                        file.display()
                    )
                })?;
            let start = Network::widened_from(&net, hidden, args.seed);
            eprintln!(
                "uttt-train: starting from {} ({hidden} hidden units{}): validation loss {:.5}",
                file.display(),
                if hidden < HIDDEN {
                    format!(", widened to {HIDDEN}")
                } else {
                    String::new()
                },
                start.loss(&valid)
            );
            start
        }
    };
    let net = trained(args, start, &mut train, &valid);
    let quantized = net.quantize();
    check_quantized(&net, &quantized, &valid);
    let out = &args.out;
    std::fs::write(out, quantized.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("uttt-train: weights written to {}", out.display());
    Ok(())
}

/// The game records of the self-play files.
fn read_records(files: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            records.push(GameRecord::parse(line)?);
        }
    }
    Ok(records)
}

/// `net` trained on `train` for the epochs, batches and learning rates of `args`
/// (`train` shuffled each epoch), its losses on `valid` printed after each epoch.
fn trained(args: &Args, mut net: Network, train: &mut [Example], valid: &[Example]) -> Network {
    let (epochs, batch, seed) = (args.epochs, args.batch as usize, args.seed);
    let mut trainer = Trainer::new(args.lr);
    let maps = feature_maps();
    let mut state = seed | 1;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let started = std::time::Instant::now();
    let mut images: Vec<Example> = Vec::with_capacity(batch);
    for epoch in 1..=epochs {
        // From lr down to lr/20 along half a cosine.
        let progress = (epoch - 1) as f32 / (epochs.max(2) - 1) as f32;
        trainer.learning_rate =
            args.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        // Fisher-Yates with a small LCG: a fresh order every epoch, the same every run.
        for i in (1..train.len()).rev() {
            train.swap(i, next() % (i + 1));
        }
        let mut epoch_loss = 0.0;
        for chunk in train.chunks(batch) {
            images.clear();
            images.extend(chunk.iter().map(|example| {
                let map = &maps[if args.no_symmetries { 0 } else { next() % 8 }];
                Example {
                    features: example.features.iter().map(|&f| map[f as usize]).collect(),
                    target: example.target,
                }
            }));
            let refs: Vec<&Example> = images.iter().collect();
            epoch_loss += trainer.step(&mut net, &refs) * chunk.len() as f32;
        }
        eprintln!(
            "epoch {epoch}/{epochs}: lr {:.5}, training loss {:.5}, validation loss {:.5} ({:.1?})",
            trainer.learning_rate,
            epoch_loss / train.len().max(1) as f32,
            net.loss(valid),
            started.elapsed()
        );
    }
    net
}

/// Prints how far the quantised network's values are from the float network's on the
/// validation positions, and its validation loss.
fn check_quantized(net: &Network, quantized: &QuantizedNet, valid: &[Example]) {
    let (mut worst, mut total, mut quantized_loss) = (0.0f32, 0.0f32, 0.0f32);
    for example in valid {
        let integer = quantized.value_from_features(&example.features);
        let gap = (integer - net.predict(&example.features)).abs();
        worst = worst.max(gap);
        total += gap;
        quantized_loss += (integer - example.target).powi(2);
    }
    let count = valid.len().max(1) as f32;
    eprintln!(
        "uttt-train: quantised against float on {} validation positions: mean |gap| {:.5}, \
         largest {worst:.5}; quantised validation loss {:.5}",
        valid.len(),
        total / count,
        quantized_loss / count
    );
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
