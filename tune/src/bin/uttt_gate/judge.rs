//! The evaluators judged against the probe set (play-outs, networks, blends) and the
//! report of their errors that `eval` prints.

use crate::probe::ProbePosition;
use mctsbot::game::Player;
use mctsbot::search::Evaluator;
use mctsbot::search::{reward_for, FastRng, Game};
use mctsbot::uttt::nn::{active_features, QuantizedNet};
use mctsbot::uttt::{Board, Move, RandomPlayout};
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::Instant;
use tune::symmetry::move_image;

/// A leaf evaluator under test: a value for the player to move of an unfinished board.
pub enum Judge {
    Network(String, QuantizedNet),
    Playouts(u32),
    /// A network's share of a blend with the mean of some play-outs.
    Blend {
        name: String,
        net: QuantizedNet,
        share: f32,
        playouts: u32,
    },
}

impl Judge {
    fn name(&self) -> String {
        match self {
            Judge::Network(name, _) => name.clone(),
            Judge::Playouts(n) => format!("{n} play-out{}", if *n == 1 { "" } else { "s" }),
            Judge::Blend {
                name,
                share,
                playouts,
                ..
            } => format!("{name} {share}+{playouts}po"),
        }
    }

    /// The value for the player to move (a finished game: its result).
    fn value(&self, board: &Board, rng: &mut FastRng, features: &mut Vec<u16>) -> f32 {
        let mover: Player = board.turn();
        if let Some(outcome) = board.outcome() {
            return outcome.reward_for(mover);
        }
        match self {
            Judge::Network(_, net) => network_value(net, board, features),
            Judge::Playouts(n) => playouts_value(*n, board, rng),
            Judge::Blend {
                net,
                share,
                playouts,
                ..
            } => {
                share * network_value(net, board, features)
                    + (1.0 - share) * playouts_value(*playouts, board, rng)
            }
        }
    }
}

/// The network's value for the player to move.
fn network_value(net: &QuantizedNet, board: &Board, features: &mut Vec<u16>) -> f32 {
    features.clear();
    active_features(board, features);
    net.value_from_features(features)
}

/// The mean of `n` random play-outs' rewards for the player to move.
fn playouts_value(n: u32, board: &Board, rng: &mut FastRng) -> f32 {
    let total: f32 = (0..n)
        .map(|_| RandomPlayout.evaluate(&mut board.clone(), rng))
        .sum();
    reward_for(board.turn(), total / n as f32)
}

/// One evaluator's gate figures.
#[derive(Default)]
struct Report {
    mse: [Mean; 3], // all, on the line, off it
    mse_by_phase: [Mean; PHASES.len()],
    mse_result_by_phase: [Mean; PHASES.len()],
    mse_result: Mean,
    top1: Mean,
    regret: Mean,
    spread: Mean,
    win_in_one: Mean,
}

#[derive(Default, Clone, Copy)]
struct Mean {
    sum: f64,
    count: usize,
}

impl Mean {
    fn add(&mut self, x: f32) {
        self.sum += x as f64;
        self.count += 1;
    }
    fn get(&self) -> f64 {
        self.sum / self.count.max(1) as f64
    }
}

/// The game's phases for the MSE by phase: the first ply of each.
const PHASES: [usize; 3] = [0, 20, 40];

/// The phase of a position `plies` into its game.
fn phase_of(plies: usize) -> usize {
    PHASES
        .iter()
        .rposition(|&first| plies >= first)
        .unwrap_or(0)
}

/// Whether the player to move in `board` can win the game at once.
fn wins_in_one(board: &Board, legal: &mut Vec<Move>) -> bool {
    legal.clear();
    board.legal_moves(legal);
    let mover = board.turn();
    legal.iter().any(|&mv| {
        let mut child = *board;
        child.play(mv);
        child.outcome().is_some_and(|o| o.reward_for(mover) == 1.0)
    })
}

fn judge(judge: &Judge, probe: &[ProbePosition], seed: u64) -> Report {
    let mut rng = FastRng::seed_from_u64(seed);
    let mut features = Vec::with_capacity(64);
    let mut legal = Vec::new();
    let mut report = Report::default();
    for position in probe {
        let board = position.board();
        let value = judge.value(&board, &mut rng, &mut features);
        let error = (value - position.reference).powi(2);
        report.mse[0].add(error);
        report.mse[1 + position.off_line as usize].add(error);
        let phase = phase_of(position.moves.len());
        report.mse_by_phase[phase].add(error);
        if let Some(result) = position.result {
            report.mse_result.add((value - result).powi(2));
            report.mse_result_by_phase[phase].add((value - result).powi(2));
        }
        // The eight images of the position, by its moves' images.
        let values: Vec<f32> = (0..8)
            .map(|s| {
                let mut image = Board::with_end_rule(position.rule);
                position
                    .moves
                    .iter()
                    .for_each(|&mv| image.play(move_image(s, mv)));
                judge.value(&image, &mut rng, &mut features)
            })
            .collect();
        let (low, high) = values
            .iter()
            .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        report.spread.add(high - low);
        if wins_in_one(&board, &mut legal) {
            report.win_in_one.add(value);
        }
        if !position.children.is_empty() {
            let best_reference = position
                .children
                .iter()
                .map(|&(_, v)| v)
                .fold(f32::MIN, f32::max);
            let (chosen, _) = position
                .children
                .iter()
                .map(|&(mv, reference)| {
                    let mut child = board;
                    child.play(mv);
                    (
                        reference,
                        1.0 - judge.value(&child, &mut rng, &mut features),
                    )
                })
                .fold((0.0, f32::MIN), |best, (reference, judged)| {
                    if judged > best.1 {
                        (reference, judged)
                    } else {
                        best
                    }
                });
            report.top1.add((chosen >= best_reference) as u8 as f32);
            report.regret.add(best_reference - chosen);
            // The children's children where the mover wins at once: more such positions.
            for &(mv, _) in &position.children {
                let mut child = board;
                child.play(mv);
                if child.outcome().is_none() && wins_in_one(&child, &mut legal) {
                    report
                        .win_in_one
                        .add(judge.value(&child, &mut rng, &mut features));
                }
            }
        }
    }
    report
}

/// The evaluators compared: the play-out counts, then the networks' weights files.
pub fn judges(
    playouts: &[u32],
    nets: &[PathBuf],
    blend_shares: &[f32],
    blend_playouts: u32,
) -> Result<Vec<Judge>, String> {
    let mut judges: Vec<Judge> = playouts.iter().map(|&n| Judge::Playouts(n)).collect();
    for path in nets {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let net = QuantizedNet::from_bytes(&bytes)
            .ok_or_else(|| format!("{}: not a weights file of the bot's sizes", path.display()))?;
        let name = path.display().to_string();
        for &share in blend_shares {
            judges.push(Judge::Blend {
                name: name.clone(),
                net: net.clone(),
                share,
                playouts: blend_playouts,
            });
        }
        judges.push(Judge::Network(name, net));
    }
    Ok(judges)
}

/// Prints the probe set's counts, a line of errors for each evaluator (a network's
/// followed by whether it passes the gate: 16 play-outs beaten), and the legend.
pub fn eval(probe: &[ProbePosition], judges: &[Judge], seed: u64) {
    let ranked = probe.iter().filter(|p| !p.children.is_empty()).count();
    println!(
        "probe: {} positions ({} off the line, {} with a result), {ranked} ranked",
        probe.len(),
        probe.iter().filter(|p| p.off_line).count(),
        probe.iter().filter(|p| p.result.is_some()).count()
    );
    println!(
        "{:<28} {:>8} {:>8} {:>8} {:>9} {:>6} {:>7} {:>7} {:>9}",
        "evaluator",
        "MSE",
        "on-line",
        "off-line",
        "vs result",
        "top-1",
        "regret",
        "spread",
        "win-in-1"
    );
    let mut sixteen = None;
    // The same for every evaluator: it counts positions, not values.
    let mut win_in_one_positions = 0;
    let mut by_phase = Vec::new();
    for judge_ in judges {
        let started = Instant::now();
        let r = judge(judge_, probe, seed);
        win_in_one_positions = r.win_in_one.count;
        print_row(&judge_.name(), &r, started.elapsed());
        by_phase.push((judge_.name(), r.mse_by_phase, r.mse_result_by_phase));
        match judge_ {
            Judge::Playouts(16) => sixteen = Some((r.mse[0].get(), r.top1.get(), r.regret.get())),
            Judge::Network(name, _) => {
                if let Some((mse, top1, regret)) = sixteen {
                    let passes =
                        r.mse[0].get() < mse && r.top1.get() >= top1 && r.regret.get() <= regret;
                    println!(
                        "  gate: {name} {} 16 play-outs (MSE, top-1 and regret)",
                        if passes { "beats" } else { "does not beat" }
                    );
                }
            }
            _ => {}
        }
    }
    println!(
        "(MSE against the teacher's value; vs result: against the game's result; \
         top-1 and regret over every child of the ranked positions; spread: highest \
         minus lowest value over the 8 symmetries; win-in-1: mean value where the \
         mover wins at once, {} positions)",
        win_in_one_positions
    );
    print!("\n{:<28}", "by phase (plies, positions)");
    for (i, first) in PHASES.iter().enumerate() {
        let label = match PHASES.get(i + 1) {
            Some(next) => format!("{first}-{}", next - 1),
            None => format!("{first}+"),
        };
        let count = probe
            .iter()
            .filter(|p| phase_of(p.moves.len()) == i)
            .count();
        print!(" {:>14}", format!("{label} ({count})"));
    }
    println!("  (MSE; then MSE vs result)");
    for (name, teacher, result) in by_phase {
        print!("{name:<28}");
        teacher.iter().for_each(|m| print!(" {:>14.5}", m.get()));
        print!("   ");
        result.iter().for_each(|m| print!(" {:>8.5}", m.get()));
        println!();
    }
}

/// One evaluator's line of the table.
fn print_row(name: &str, r: &Report, elapsed: std::time::Duration) {
    println!(
        "{:<28} {:>8.5} {:>8.5} {:>8.5} {:>9.5} {:>6.3} {:>7.4} {:>7.4} {:>9.3}  ({:.1?})",
        name,
        r.mse[0].get(),
        r.mse[1].get(),
        r.mse[2].get(),
        r.mse_result.get(),
        r.top1.get(),
        r.regret.get(),
        r.spread.get(),
        r.win_in_one.get(),
        elapsed
    );
}
