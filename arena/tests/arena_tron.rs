//! End-to-end Light Riders matches between small shell bots.

mod arena_common;
use arena_common::{arena, bot, has};
use std::time::Duration;

const FAST: [&str; 6] = [
    "--game",
    "tron",
    "--timebank",
    "1000",
    "--time-per-move",
    "100",
];

fn args(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = FAST.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn riders_play_each_map_from_both_starts() {
    let run = arena(
        "riders",
        &args(&[
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            "7",
            "--map",
            "empty6,pillars13",
        ]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"games\": 4");
    has(&run.json, "\"map\": \"empty6\", \"a_player\": 0");
    has(&run.json, "\"map\": \"empty6\", \"a_player\": 1");
    has(&run.json, "\"map\": \"pillars13\", \"a_player\": 0");
    has(&run.json, "\"map\": \"pillars13\", \"a_player\": 1");
    assert!(
        !run.json.contains("\"illegal\": {\"A\": 1")
            && !run.json.contains("\"timeouts\": {\"A\": 1")
    );
    assert!(
        run.stdout.contains("empty6") && run.stdout.contains("all"),
        "{}",
        run.stdout
    );
    let t = run.transcript(0, "A");
    assert!(
        t.starts_with(
            "> settings player_names player0,player1\n> settings your_bot player0\n\
             > settings timebank 1000\n> settings time_per_move 100\n> settings your_botid 0\n\
             > settings field_width 6\n> settings field_height 6\n> update game round 0\n\
             > update game field 0,.,.,"
        ),
        "{t}"
    );
    assert!(
        t.contains("> action move 1000\n< right\n> update game round 1\n> update game field x,0,"),
        "{t}"
    );
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
}

#[test]
fn default_board_uses_the_riddles_starts() {
    let run = arena(
        "default",
        &args(&["--seed", "8"]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"map\": \"empty16x16\"");
    let t = run.transcript(0, "A");
    assert!(t.contains("> settings field_width 16\n> settings field_height 16\n"));
    let field = t
        .lines()
        .find_map(|l| l.strip_prefix("> update game field "))
        .unwrap();
    let cells: Vec<&str> = field.split(',').collect();
    assert_eq!(cells.len(), 256);
    let p0 = cells.iter().position(|c| *c == "0").unwrap();
    let p1 = cells.iter().position(|c| *c == "1").unwrap();
    let (x, y) = (p0 % 16, p0 / 16);
    assert!((1..=6).contains(&x) && (1..=14).contains(&y));
    assert_eq!(p1, y * 16 + 15 - x, "player 1 mirrors player 0");
}

#[test]
fn silent_rider_keeps_its_direction_and_times_out() {
    // On the 6x6 board the sleeper starts in a corner facing the other side and runs
    // straight on; every round is a timeout, and the game must still end at once.
    let run = arena(
        "silent",
        &args(&["--seed", "9", "--map", "empty6"]),
        &bot("rider", ""),
        &bot("sleeper", ""),
    );
    has(&run.json, "\"crashes\": {\"A\": 0, \"B\": 0}");
    assert!(!run.json.contains("\"winner\": \"B\""), "{}", run.json);
    assert!(
        !run.json.contains("\"timeouts\": {\"A\": 0, \"B\": 0}"),
        "{}",
        run.json
    );
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn garbage_and_crashes_keep_the_direction() {
    let run = arena(
        "tgarbage",
        &args(&["--seed", "10", "--map", "empty6"]),
        &bot("rider", ""),
        &bot("garbage", ""),
    );
    assert!(
        !run.json.contains("\"illegal\": {\"A\": 0, \"B\": 0}"),
        "{}",
        run.json
    );
    assert!(run.transcript(0, "B").contains("[line cut]"));
    let run = arena(
        "tcrash",
        &args(&["--seed", "11", "--map", "rooms16"]),
        &bot("crasher", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"crashes\": {\"A\": 1, \"B\": 0}");
    has(&run.json, "\"winner\": \"B\"");
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn max_rounds_is_a_draw() {
    let run = arena(
        "cap",
        &args(&["--seed", "12", "--max-rounds", "2"]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"winner\": \"draw\"");
    has(&run.json, "\"moves\": 2");
}
