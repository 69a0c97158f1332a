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

use mctsbot::uttt::nn::active_features;
use std::process::ExitCode;
use tune::args::{parsed, positional, value};
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

fn run(args: &[String]) -> Result<(), String> {
    let parse = |flag: &str, default: f64| parsed(args, flag, default);
    let files = positional(args);
    if files.is_empty() {
        return Err("usage: uttt-train GAMES_FILE... [--out FILE] [options]".into());
    }
    let mut records = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            records.push(GameRecord::parse(line)?);
        }
    }
    let validation = parse("--validation", 0.1)?;
    let held_out = ((records.len() as f64 * validation).round() as usize).min(records.len());
    let (valid, train) = records.split_at(held_out);
    let lambda = parse("--lambda", 0.5)? as f32;
    let mut train = examples(train, lambda)?;
    let valid = examples(valid, lambda)?;
    let epochs = parse("--epochs", 20.0)? as usize;
    let batch = (parse("--batch", 256.0)? as usize).max(1);
    let seed = parse("--seed", 1.0)? as u64;
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
    let mut trainer = Trainer::new(parse("--lr", 0.001)? as f32);
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
    let out = value(args, "--out")?.unwrap_or("src/uttt/nn_weights.bin");
    std::fs::write(out, net.quantize().to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("uttt-train: weights written to {out}");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt-train: {e}");
            ExitCode::FAILURE
        }
    }
}
