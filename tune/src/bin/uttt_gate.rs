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

use clap::{Parser, Subcommand};
use mctsbot::game::Player;
use mctsbot::search::Evaluator;
use mctsbot::search::{random_below, reward_for, FastRng, Game};
use mctsbot::uttt::nn::{active_features, QuantizedNet};
use mctsbot::uttt::{Board, EndRule, Move, RandomPlayout};
use rand::SeedableRng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tune::games::{rule_by_name, rule_name, teacher_value, GameRecord};
use tune::symmetry::move_image;

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

/// One probe position with its reference values.
#[derive(Clone, Debug, PartialEq)]
struct ProbePosition {
    rule: EndRule,
    /// Drawn off a game's line (one or two random moves), not on it.
    off_line: bool,
    moves: Vec<Move>,
    /// The teacher's value for the player to move.
    reference: f32,
    /// The game's result for the player to move, for positions on a line.
    result: Option<f32>,
    /// Every legal move with the teacher's value of it for the player to move (empty
    /// unless the position is ranked).
    children: Vec<(Move, f32)>,
}

impl ProbePosition {
    fn board(&self) -> Board {
        let mut board = Board::with_end_rule(self.rule);
        for &mv in &self.moves {
            board.play(mv);
        }
        board
    }

    /// `RULE on|off REFERENCE RESULT|- ; MOVE... ; MOVE:VALUE...`
    fn to_line(&self) -> String {
        let join = |items: Vec<String>| items.join(" ");
        format!(
            "{} {} {:.4} {} ; {} ; {}",
            rule_name(self.rule),
            if self.off_line { "off" } else { "on" },
            self.reference,
            self.result.map_or("-".to_string(), |r| r.to_string()),
            join(self.moves.iter().map(|m| m.0.to_string()).collect()),
            join(
                self.children
                    .iter()
                    .map(|(m, v)| format!("{}:{v:.4}", m.0))
                    .collect()
            ),
        )
    }

    fn parse(line: &str) -> Result<ProbePosition, String> {
        let err = |what: &str| format!("{what} in probe line {:?}", &line[..line.len().min(60)]);
        let mut parts = line.split(';');
        let (head, moves, children) = match (parts.next(), parts.next(), parts.next()) {
            (Some(h), Some(m), Some(c)) => (h, m, c),
            _ => return Err(err("three ';'-separated parts expected")),
        };
        let head: Vec<&str> = head.split_whitespace().collect();
        let [rule, kind, reference, result] = head[..] else {
            return Err(err("RULE on|off REFERENCE RESULT expected"));
        };
        let rule = rule_by_name(rule).ok_or_else(|| err("a bad rule"))?;
        let mv = |w: &str| w.parse::<u8>().ok().filter(|&m| m < 81).map(Move);
        let position = ProbePosition {
            rule,
            off_line: kind == "off",
            reference: reference.parse().map_err(|_| err("a bad reference"))?,
            result: match result {
                "-" => None,
                r => Some(r.parse().map_err(|_| err("a bad result"))?),
            },
            moves: moves
                .split_whitespace()
                .map(mv)
                .collect::<Option<_>>()
                .ok_or_else(|| err("a bad move"))?,
            children: children
                .split_whitespace()
                .map(|w| {
                    let (m, v) = w.split_once(':')?;
                    Some((mv(m)?, v.parse().ok()?))
                })
                .collect::<Option<_>>()
                .ok_or_else(|| err("a bad child"))?,
        };
        let mut board = Board::with_end_rule(rule);
        for &mv in &position.moves {
            if !board.is_legal(mv) {
                return Err(err("an illegal move"));
            }
            board.play(mv);
        }
        if board.outcome().is_some() {
            return Err(err("a finished game"));
        }
        Ok(position)
    }
}

/// Every searched position of `records` (of `rule`, if given) with the record's root
/// value as reference and the game's result: a probe without search.
fn results_probe(
    records: &[GameRecord],
    rule: Option<EndRule>,
) -> Result<Vec<ProbePosition>, String> {
    let mut probe = Vec::new();
    for (i, record) in records.iter().enumerate() {
        if rule.is_some_and(|r| r != record.rule) {
            continue;
        }
        let samples = record
            .samples()
            .map_err(|e| format!("game {}: {e}", i + 1))?;
        for (k, sample) in samples.into_iter().enumerate() {
            probe.push(ProbePosition {
                rule: record.rule,
                off_line: false,
                moves: record.moves[..record.opening_plies + k].to_vec(),
                reference: sample.value,
                result: Some(sample.result),
                children: Vec::new(),
            });
        }
    }
    Ok(probe)
}

/// Draws the unvalued probe positions: game `g`'s `g`-th pick alternates between a
/// position on its line and one a random move or two off it.
fn draw_positions(records: &[GameRecord], count: usize, seed: u64) -> Vec<ProbePosition> {
    let mut rng = FastRng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count);
    let mut legal = Vec::new();
    let mut attempts = 0;
    while positions.len() < count && attempts < count * 20 {
        attempts += 1;
        let record = &records[random_below(&mut rng, records.len() as u32) as usize];
        let searched = record.moves.len() - record.opening_plies;
        let ply = record.opening_plies + random_below(&mut rng, searched as u32) as usize;
        let mut moves = record.moves[..ply].to_vec();
        let mut board = Board::with_end_rule(record.rule);
        moves.iter().for_each(|&mv| board.play(mv));
        let off_line = positions.len() % 2 == 1;
        let mut result = Some(if board.turn() == 0 {
            record.result0
        } else {
            1.0 - record.result0
        });
        if off_line {
            result = None;
            for _ in 0..1 + random_below(&mut rng, 2) {
                legal.clear();
                board.legal_moves(&mut legal);
                let mv = legal[random_below(&mut rng, legal.len() as u32) as usize];
                board.play(mv);
                moves.push(mv);
                if board.outcome().is_some() {
                    break;
                }
            }
            if board.outcome().is_some() {
                continue;
            }
        }
        positions.push(ProbePosition {
            rule: record.rule,
            off_line,
            moves,
            reference: 0.5,
            result,
            children: Vec::new(),
        });
    }
    positions
}

/// The teacher's values: each position's, and every child's for the first `ranked`.
fn value_positions(
    positions: &mut [ProbePosition],
    ranked: usize,
    (iterations, child_iterations): (u64, u64),
    threads: usize,
    seed: u64,
) {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let total = positions.len();
    let slots: Vec<std::sync::Mutex<&mut ProbePosition>> =
        positions.iter_mut().map(std::sync::Mutex::new).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some(slot) = slots.get(index) else { return };
                let mut position = slot.lock().expect("one thread a slot");
                let board = position.board();
                let search_seed = seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                position.reference = teacher_value(board, iterations, search_seed);
                if index < ranked {
                    let mut legal = Vec::new();
                    board.legal_moves(&mut legal);
                    position.children = legal
                        .iter()
                        .map(|&mv| {
                            let mut child = board;
                            child.play(mv);
                            let value = match child.outcome() {
                                Some(outcome) => outcome.reward_for(board.turn()),
                                None => 1.0 - teacher_value(child, child_iterations, search_seed),
                            };
                            (mv, value)
                        })
                        .collect();
                }
                let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
                if finished % 25 == 0 || finished == total {
                    let rate = finished as f64 / started.elapsed().as_secs_f64();
                    eprintln!(
                        "uttt-gate: {finished}/{total} positions valued, ETA {:.0} s",
                        (total - finished) as f64 / rate
                    );
                }
            });
        }
    });
}

/// A leaf evaluator under test: a value for the player to move of an unfinished board.
enum Judge {
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

fn read_lines(path: &PathBuf) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect())
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

/// The game records of the self-play files (at least one).
fn read_records(files: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for file in files {
        for line in read_lines(file)? {
            records.push(GameRecord::parse(&line)?);
        }
    }
    if records.is_empty() {
        return Err("no game records".into());
    }
    Ok(records)
}

/// Writes the probe set to `out`, a position a line.
fn write_probe(out: &PathBuf, probe: &[ProbePosition]) -> Result<(), String> {
    let text: String = probe.iter().map(|p| p.to_line() + "\n").collect();
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("uttt-gate: probe set written to {}", out.display());
    Ok(())
}

/// The probe set `uttt-gate probe` wrote.
fn read_probe(path: &PathBuf) -> Result<Vec<ProbePosition>, String> {
    read_lines(path)?
        .iter()
        .map(|l| ProbePosition::parse(l))
        .collect()
}

/// The evaluators compared: the play-out counts, then the networks' weights files.
fn judges(
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
fn eval(probe: &[ProbePosition], judges: &[Judge], seed: u64) {
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

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt-gate: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_line_reads_back_as_written_and_bad_lines_are_refused() {
        let position = ProbePosition {
            rule: EndRule::MoreBoards,
            off_line: true,
            moves: vec![Move(40), Move(36), Move(4)],
            reference: 0.4375,
            result: None,
            children: vec![(Move(37), 0.5), (Move(38), 0.25)],
        };
        assert_eq!(
            ProbePosition::parse(&position.to_line()),
            Ok(position.clone())
        );
        let on_line = ProbePosition {
            off_line: false,
            result: Some(1.0),
            children: Vec::new(),
            ..position
        };
        assert_eq!(ProbePosition::parse(&on_line.to_line()), Ok(on_line));
        for bad in [
            "theaigames on 0.5 - ; 40 40 ; ",
            "theaigames on 0.5 ; 40 ; ",
            "chess on 0.5 - ; 40 ; ",
            "theaigames on 0.5 - ; 40",
        ] {
            assert!(ProbePosition::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_results_probe_holds_every_searched_position_with_its_value_and_result() {
        // A random game under CodinGame's rule, its first two plies an opening.
        let mut rng = FastRng::seed_from_u64(3);
        let mut board = Board::with_end_rule(EndRule::MoreBoards);
        let (mut moves, mut legal) = (Vec::new(), Vec::new());
        while board.outcome().is_none() {
            legal.clear();
            board.legal_moves(&mut legal);
            let mv = legal[random_below(&mut rng, legal.len() as u32) as usize];
            board.play(mv);
            moves.push(mv);
        }
        let result0 = board.outcome().unwrap().reward_for(0);
        let searched = moves.len() - 2;
        let record = GameRecord {
            rule: EndRule::MoreBoards,
            result0,
            opening_plies: 2,
            moves: moves.clone(),
            values: (0..searched).map(|k| k as f32 / 100.0).collect(),
        };
        let probe = results_probe(std::slice::from_ref(&record), None).unwrap();
        assert_eq!(probe.len(), searched);
        for (k, position) in probe.iter().enumerate() {
            assert_eq!(position.moves, moves[..2 + k]);
            assert_eq!(position.reference, k as f32 / 100.0);
            let mover_result = if k % 2 == 0 { result0 } else { 1.0 - result0 };
            assert_eq!(position.result, Some(mover_result), "ply {}", 2 + k);
            assert_eq!(
                ProbePosition::parse(&position.to_line()).as_ref(),
                Ok(position)
            );
        }
        assert!(results_probe(&[record], Some(EndRule::Draw))
            .unwrap()
            .is_empty());
    }
}
