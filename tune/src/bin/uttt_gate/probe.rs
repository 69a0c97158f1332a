//! The probe set: held-out positions with the teacher's reference values (`probe`) or
//! the games' results (`results`), one a line in the probe file.

use mctsbot::search::{random_below, FastRng, Game};
use mctsbot::uttt::{Board, EndRule, Move};
use rand::SeedableRng;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tune::games::{rule_by_name, rule_name, teacher_value, GameRecord};

/// One probe position with its reference values.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbePosition {
    pub rule: EndRule,
    /// Drawn off a game's line (one or two random moves), not on it.
    pub off_line: bool,
    pub moves: Vec<Move>,
    /// The teacher's value for the player to move.
    pub reference: f32,
    /// The game's result for the player to move, for positions on a line.
    pub result: Option<f32>,
    /// Every legal move with the teacher's value of it for the player to move (empty
    /// unless the position is ranked).
    pub children: Vec<(Move, f32)>,
}

impl ProbePosition {
    pub fn board(&self) -> Board {
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
pub fn results_probe(
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
pub fn draw_positions(records: &[GameRecord], count: usize, seed: u64) -> Vec<ProbePosition> {
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
pub fn value_positions(
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

pub fn read_lines(path: &PathBuf) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect())
}

/// The game records of the self-play files (at least one).
pub fn read_records(files: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
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
pub fn write_probe(out: &PathBuf, probe: &[ProbePosition]) -> Result<(), String> {
    let text: String = probe.iter().map(|p| p.to_line() + "\n").collect();
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("uttt-gate: probe set written to {}", out.display());
    Ok(())
}

/// The probe set `uttt-gate probe` wrote.
pub fn read_probe(path: &PathBuf) -> Result<Vec<ProbePosition>, String> {
    read_lines(path)?
        .iter()
        .map(|l| ProbePosition::parse(l))
        .collect()
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
