//! `arena play`: a person (here, a script of entries on stdin) against a shell bot, with
//! bad entries that must cost nothing, and the game recorded like any other.

mod arena_common;
use arena_common::bot;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn play(test: &str, args: &[&str], entries: &str, bot_command: &str) -> (Output, PathBuf) {
    let dir = std::env::temp_dir().join(format!("arena-play-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("play")
        .args(args)
        .arg("--out")
        .arg(&dir)
        .arg("--")
        .arg(bot_command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena play");
    let mut stdin = child.stdin.take().unwrap();
    // The person may type ahead; a broken pipe only means the game ended first.
    let _ = stdin.write_all(entries.as_bytes());
    drop(stdin);
    (child.wait_with_output().unwrap(), dir)
}

/// What the person was shown, from a game that ended cleanly, checked to say each of
/// `said`.
fn told(out: &Output, said: &[&str]) -> String {
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{shown}\n{errors}");
    for said in said {
        assert!(
            shown.contains(said),
            "the person was not told {said:?}:\n{shown}"
        );
    }
    shown
}

fn game_row(dir: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).expect("games.jsonl");
    serde_json::from_str(text.lines().next().expect("one game")).unwrap()
}

#[test]
fn a_person_plays_uttt_and_typos_or_illegal_moves_cost_nothing() {
    // Bad entries first, then every cell in turn until one is legal, again and again.
    let mut entries = String::from("foo\n9 9\nhelp\nmoves\n4 4\n4 4\n");
    for _ in 0..60 {
        for c in 0..9 {
            for r in 0..9 {
                entries += &format!("{c} {r}\n");
            }
        }
    }
    let args = [
        "--game",
        "uttt",
        "--timebank",
        "2000",
        "--time-per-move",
        "100",
    ];
    let (out, dir) = play("uttt", &args, &entries, &bot("first_legal", ""));
    let shown = told(
        &out,
        &[
            "\"foo\" is not a move",
            "\"9 9\" is not a move",
            "Type the column and the row",
            "Legal: ",
            "4 4 is not legal: that cell is taken",
            "is not legal: its small board is not open",
            "The bot played",
            "You are X; you play untimed.",
            "    0 1 2   3 4 5   6 7 8",
        ],
    );
    let row = game_row(&dir);
    // Every answer the seat gave was legal and in time: no faults charged to the person.
    assert_eq!(row["illegal"]["A"], 0);
    assert_eq!(row["timeouts"]["A"], 0);
    assert_eq!(row["crashes"]["A"], 0);
    assert_eq!(row["line"].as_str().unwrap().split(' ').next(), Some("4,4"));
    let result = match row["winner"].as_str().unwrap() {
        "A" => "You won",
        "B" => "The bot won",
        _ => "A draw",
    };
    assert!(shown.contains(&format!("{result}: {}", row["reason"].as_str().unwrap())));
    assert!(dir.join("view/game_0000.html").exists(), "the game's page");
    assert!(dir.join("results.json").exists());
}

#[test]
fn a_person_plays_light_riders_and_is_asked_before_crashing() {
    // On empty6 the person (rider 1, moving second, from the bottom right corner) goes
    // left along the bottom row, is warned at the wall, and confirms.
    let mut entries = String::from("north\nmoves\n");
    entries += &"left\n".repeat(7);
    let args = [
        "--game", "tron", "--map", "empty6", "--you", "second", "--seed", "1",
    ];
    let (out, dir) = play("tron", &args, &entries, &bot("rider", ""));
    told(
        &out,
        &[
            "\"north\" is not a direction",
            "Safe: ",
            "You are rider 1 (the bot is 0)",
            "left crashes at once. Type it again to crash anyway",
            "You are B (player 1), moving second",
            "The bot won: A (player 0) survived",
        ],
    );
    let row = game_row(&dir);
    // The person is side B (moving second): five rounds left, then the crash confirmed.
    assert_eq!(row["a_player"], 0);
    assert_eq!(row["illegal"]["B"], 0);
    let line: Vec<&str> = row["line"].as_str().unwrap().split(' ').collect();
    assert_eq!(line.len(), 6);
    assert!(line.iter().all(|r| r.ends_with('l')));
    assert!(dir.join("view/game_0000.html").exists());
}

#[test]
fn a_person_whose_input_ends_resigns_and_bad_games_are_refused() {
    let args = [
        "--game",
        "uttt",
        "--timebank",
        "2000",
        "--time-per-move",
        "100",
    ];
    let (out, dir) = play("resign", &args, "4 4\n", &bot("first_legal", ""));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(shown.contains("your input ended"), "{shown}");
    assert!(shown.contains("The bot won"), "{shown}");
    assert_eq!(game_row(&dir)["winner"], "B");

    // Asked for, the person's clock is theirs: the seat shows it, the record its time.
    let timed = [&args[..], &["--your-clock", "60000+500"]].concat();
    let (out, dir) = play("timed", &timed, "4 4\n", &bot("first_legal", ""));
    let shown = told(&out, &["your timebank: 60.0 s"]);
    assert!(!shown.contains("untimed"), "{shown}");
    let transcript = std::fs::read_to_string(dir.join("transcripts/game_0000_A.txt")).unwrap();
    assert!(
        transcript.contains("> settings timebank 60000"),
        "{transcript}"
    );
    assert!(transcript.contains("> action move 60000"), "{transcript}");

    let (out, _) = play("cg", &["--game", "uttt-cg"], "", &bot("first_legal", ""));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a person plays uttt or tron"));
}
