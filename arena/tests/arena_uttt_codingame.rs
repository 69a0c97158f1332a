//! End-to-end games of CodinGame's UTTT (`--game uttt-cg`) between small shell bots: the
//! turn lines, the end rule, and a fault losing at once.

mod arena_common;
use arena_common::{arena, bot, has};
use std::time::Duration;

#[test]
fn first_valid_bots_play_full_games_with_codingame_turns() {
    let run = arena(
        "cg-legal",
        &[
            "--game", "uttt-cg", "--games", "2", "-j", "2", "--seed", "1",
        ],
        &bot("first_valid_cg", ""),
        &bot("first_valid_cg", ""),
    );
    has(&run.json, "\"game\": \"uttt-cg\"");
    has(&run.json, "\"games\": 2");
    has(
        &run.json,
        "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}",
    );
    let first = run.transcript(0, "A");
    assert!(
        first.starts_with("> -1 -1\n> 81\n> 0 0\n> 0 1\n"),
        "{first}"
    );
    assert!(first.contains("< 0 0\n"), "{first}");
    // The second player is told the first move and sent to the top-left board.
    let second = run.transcript(0, "B");
    assert!(second.starts_with("> 0 0\n> 8\n> 0 1\n"), "{second}");
    assert!(run.took < Duration::from_secs(10));
}

#[test]
fn a_late_answer_loses_at_once() {
    let run = arena(
        "cg-sleeper",
        &[
            "--game",
            "uttt-cg",
            "--timebank",
            "300",
            "--time-per-move",
            "100",
            "--seed",
            "2",
        ],
        &bot("first_valid_cg", ""),
        &bot("first_valid_cg", "0.2"),
    );
    // B's first turn has 300 ms and it takes 200; its second has 100 ms.
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 1}");
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn openings_are_refused_for_codingame() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "--game",
            "uttt-cg",
            "--openings",
            "random:2",
            "--",
            "a",
            "b",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot show a bot an opening"), "{stderr}");
}
