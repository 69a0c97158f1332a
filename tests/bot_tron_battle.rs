//! The bot on CodinGame's Tron Battle, as a process: whole games with the test as the
//! referee (two and four riders), and the fixture `protocol/codingame/tron-battle-game.txt`
//! replayed.

mod bot_common;

use bot_common::{run_bot, spawn_bot};
use mctsbot::search::{random_below, FastRng};
use mctsbot::tron::battle::Battle;
use mctsbot::tron::codingame::{format_rider, parse_direction, parse_rider};
use rand::SeedableRng;
use std::io::{BufRead, BufReader, Write};

/// Rider `me`'s turn in `battle`, whose riders started on `starts`.
fn turn_lines(battle: &Battle, starts: &[(usize, usize)], me: usize) -> String {
    let mut text = format!("{} {me}\n", battle.riders());
    for (rider, &start) in starts.iter().enumerate() {
        text += &format!("{}\n", format_rider(battle.head(rider).map(|h| (start, h))));
    }
    text
}

/// Plays a game with the bot in seat `me` and random riders (a safe move when there is
/// one) in the others; returns the bot's log and how many turns it answered.
fn referee(starts: &[(usize, usize)], me: usize, seed: u64) -> (String, u32) {
    let mut child = spawn_bot(&["--safety-ms", "40"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut battle = Battle::codingame(starts).unwrap();
    let mut rng = FastRng::seed_from_u64(seed);
    let mut answered = 0;
    while battle.winner().is_none() {
        let rider = battle.to_move();
        let safe = battle.safe_moves(rider);
        if rider != me {
            let mut d = mctsbot::tron::Direction::Up;
            if !safe.is_empty() {
                d = safe.nth(random_below(&mut rng, safe.len()));
            }
            battle.play(d);
            continue;
        }
        stdin
            .write_all(turn_lines(&battle, starts, me).as_bytes())
            .unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        let d = parse_direction(&answer).unwrap();
        assert!(
            safe.is_empty() || safe.contains(d),
            "turn {answered}: {d:?} crashes while {safe:?} is safe"
        );
        battle.play(d);
        answered += 1;
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    (
        String::from_utf8_lossy(&output.stderr).into_owned(),
        answered,
    )
}

#[test]
fn plays_whole_two_and_four_rider_games_without_crashing_while_it_can_move() {
    let (log, turns) = referee(&[(4, 10), (25, 10)], 1, 1);
    assert!(log.contains("CodinGame Tron Battle"), "detected: {log}");
    assert!(
        turns > 5 && !log.contains("ERROR") && !log.contains("WARN"),
        "{log}"
    );
    let (log, turns) = referee(&[(3, 3), (26, 3), (26, 16), (3, 16)], 2, 2);
    assert!(log.contains("riders=4"), "{log}");
    assert!(
        turns > 5 && !log.contains("ERROR") && !log.contains("WARN"),
        "{log}"
    );
}

#[test]
fn the_fixture_replays_and_every_answer_is_safe_in_the_trails_it_describes() {
    let path = format!(
        "{}/protocol/codingame/tron-battle-game.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    // The turns: each one's lines, and the fixture's answer.
    let mut turns: Vec<(Vec<String>, String)> = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        if let Some(sent) = line.strip_prefix("> ") {
            lines.push(sent.to_string());
        } else if let Some(answer) = line.strip_prefix("< ") {
            turns.push((std::mem::take(&mut lines), answer.to_string()));
        }
    }
    assert!(turns.len() > 100, "{}", turns.len());

    // The position each turn describes, rebuilt here from the lines alone.
    let mut battle: Option<Battle> = None;
    let mut positions = Vec::new();
    for (lines, _) in &turns {
        let riders: Vec<_> = lines[1..].iter().map(|l| parse_rider(l).unwrap()).collect();
        let b = battle.get_or_insert_with(|| {
            let starts: Vec<_> = riders.iter().map(|r| r.unwrap().0).collect();
            Battle::codingame(&starts).unwrap()
        });
        for (rider, line) in riders.iter().enumerate() {
            b.observe(rider, line.map(|(_, head)| head)).unwrap();
        }
        positions.push(b.clone());
    }
    // The fixture's own answers were safe but for the last, when none was.
    for (i, ((_, answer), position)) in turns.iter().zip(&positions).enumerate() {
        let safe = position.safe_moves(1);
        let d = parse_direction(answer).unwrap();
        assert!(safe.contains(d) || safe.is_empty(), "turn {i}");
    }
    assert!(positions.last().unwrap().safe_moves(1).is_empty());

    // The bot, given the same lines, answers every turn with a safe move.
    let input: String = turns
        .iter()
        .flat_map(|(lines, _)| lines.iter().map(|l| format!("{l}\n")))
        .collect();
    let (answers, log) = run_bot(&input, &["--protocol", "codingame", "--safety-ms", "45"]);
    assert_eq!(answers.len(), turns.len(), "{log}");
    for (i, (answer, position)) in answers.iter().zip(&positions).enumerate() {
        let safe = position.safe_moves(1);
        let d = parse_direction(answer).unwrap();
        assert!(
            safe.contains(d) || safe.is_empty(),
            "turn {i}: {d:?} in {safe:?}"
        );
    }
    assert!(!log.contains("ERROR"), "{log}");
}

#[test]
fn the_game_option_decides_which_codingame_game_is_played() {
    // A Tron Battle turn: detected, or forced with --game tron; --game uttt reads it as
    // UTTT lines (and says they are malformed), answering `row col`.
    let turn = "2 0\n3 3 3 3\n20 10 20 10\n";
    for args in [&["--protocol", "codingame"][..], &["--game", "tron"]] {
        let (answers, log) = run_bot(turn, args);
        assert!(log.contains("CodinGame Tron Battle"), "{log}");
        assert!(parse_direction(&answers[0]).is_ok(), "{answers:?}");
    }
    let (answers, log) = run_bot(turn, &["--game", "uttt", "--protocol", "codingame"]);
    assert!(log.contains("CodinGame Ultimate Tic-Tac-Toe"), "{log}");
    assert!(parse_direction(&answers[0]).is_err(), "{answers:?}");
}
