//! End-to-end games of CodinGame's Tron Battle (`--game tron-cg`) between small shell
//! bots: the turn lines, seats alternating between the sides, riders leaving the game
//! (a crash or a late answer) while the others play on.

mod arena_common;
use arena_common::{arena, bot, has};

#[test]
fn riders_get_the_turn_lines_and_a_crash_ends_a_two_rider_game() {
    // Both riders go straight up until one leaves the grid (or runs into a trail).
    let run = arena(
        "tron-cg-straight",
        &[
            "--game", "tron-cg", "--games", "2", "-j", "2", "--seed", "4",
        ],
        &bot("straight_cg", "UP"),
        &bot("straight_cg", "UP"),
    );
    has(&run.json, "\"game\": \"tron-cg\"");
    has(&run.json, "\"riders\": 2");
    has(
        &run.json,
        "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}",
    );
    has(&run.json, "crashed at turn");
    // Rider 0's first turn: two riders, seat 0, both at their start.
    let first = run.transcript(0, "A");
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines[0], "> 2 0", "{first}");
    let start: Vec<i32> = lines[1][2..]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!((start[0], start[1]), (start[2], start[3]), "{first}");
    assert_eq!(lines[3], "< UP", "{first}");
    // Rider 1 is told that rider 0 moved up by one.
    let second = run.transcript(0, "B");
    let rider0: Vec<i32> = second.lines().nth(1).unwrap()[2..]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(
        (rider0[0], rider0[1] - 1),
        (rider0[2], rider0[3]),
        "{second}"
    );
}

#[test]
fn a_rider_out_loses_its_seat_and_the_others_play_on() {
    // Three riders: A holds seats 0 and 2 in game 0. B (seat 1) sleeps past its first
    // turn and is out; A's two riders play on until one of them leaves the grid.
    let run = arena(
        "tron-cg-late",
        &[
            "--game",
            "tron-cg",
            "--riders",
            "3",
            "--timebank",
            "200",
            "--time-per-move",
            "100",
            "--seed",
            "2",
        ],
        &bot("straight_cg", "LEFT"),
        &bot("straight_cg", "UP 0.4"),
    );
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 1}");
    has(&run.json, "B (rider 1) timed out at turn 2");
    // After B's rider is out, A's riders are told it is; A's transcript holds both seats.
    let a = run.transcript(0, "A");
    assert!(a.starts_with("# rider 0\n> 3 0\n"), "{a}");
    assert!(a.contains("# rider 2\n> 3 2\n"), "{a}");
    assert!(a.contains("> -1 -1 -1 -1\n"), "{a}");
}
