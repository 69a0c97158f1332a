//! The `mctsbot` binary against engine streams: every answer legal, stdout carries
//! answers only, and bad input is reported on stderr without stopping the bot.

use mctsbot::protocol::{parse_command, parse_place_move, Command, GameUpdate, Token};
use mctsbot::uttt::{detect_dialect, Board, Move};
mod bot_common;

use bot_common::run_bot;
use std::process::Command as Process;

/// The engine lines of a fixture with every timebank cut to `bank_ms`, to keep tests short.
fn engine_lines(fixture: &str, bank_ms: u64) -> Vec<String> {
    let path = format!("{}/protocol/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| {
            if l.starts_with("action move") {
                format!("action move {bank_ms}")
            } else {
                l.to_owned()
            }
        })
        .collect()
}

/// The position the engine describes at each `action`, from the lines before it.
fn positions_at_actions(lines: &[String]) -> Vec<Board> {
    let (mut field, mut macroboard) = (Vec::<Token>::new(), Vec::<Token>::new());
    let mut positions = Vec::new();
    for line in lines {
        match parse_command(line) {
            Ok(Command::UpdateGame(GameUpdate::Field(f))) => field = f,
            Ok(Command::UpdateGame(GameUpdate::Macroboard(m))) => macroboard = m,
            Ok(Command::ActionMove { .. }) => {
                let dialect = detect_dialect(&field, &macroboard, None);
                positions.push(Board::from_engine(&field, &macroboard, dialect).unwrap());
            }
            _ => {}
        }
    }
    positions
}

fn assert_all_answers_legal(fixture: &str, bank_ms: u64) {
    let lines = engine_lines(fixture, bank_ms);
    let (answers, stderr) = run_bot(&(lines.join("\n") + "\n"), &["--seed", "3"]);
    let positions = positions_at_actions(&lines);
    assert_eq!(
        answers.len(),
        positions.len(),
        "one answer per action; stderr:\n{stderr}"
    );
    for (answer, board) in answers.iter().zip(&positions) {
        let (x, y) = parse_place_move(answer).unwrap_or_else(|| panic!("bad answer {answer:?}"));
        let mv = Move::from_xy(x, y).unwrap();
        assert!(
            board.is_legal(mv),
            "illegal {answer} in\n{}",
            board.render()
        );
    }
    // One key=value log line per move, and the tree reused after the first.
    assert_eq!(stderr.matches(" iterations=").count(), answers.len());
    assert!(stderr.contains("reused=true"), "{stderr}");
}

#[test]
fn answers_a_theaigames_game_legally() {
    assert_all_answers_legal("uttt-theaigames.txt", 300);
}

#[test]
fn answers_a_riddles_game_legally() {
    assert_all_answers_legal("uttt-riddles.txt", 300);
}

#[test]
fn answers_every_turn_of_a_whole_recorded_game_legally() {
    // The first player's side of a full 67-ply riddles.io game recorded by `arena`.
    assert_all_answers_legal("uttt-riddles-full-game.txt", 100);
}

#[test]
fn malformed_lines_are_reported_and_an_action_still_gets_a_legal_answer() {
    let mut lines = engine_lines("uttt-theaigames.txt", 200);
    let first_action = lines.iter().position(|l| l.starts_with("action")).unwrap();
    let garbage = [
        "foo bar",
        "settings timebank abc",
        "update game field 0,0,q",
        "\u{fffd}\u{0}binary",
        "",
    ];
    for (offset, bad) in garbage.iter().enumerate() {
        lines.insert(first_action + offset, bad.to_string());
    }
    lines.push("action move notanumber".into());
    let (answers, stderr) = run_bot(&(lines.join("\n") + "\n"), &["--seed", "5"]);
    assert!(stderr.contains("unknown command \"foo\""), "{stderr}");
    assert!(stderr.contains("timebank"), "{stderr}");
    let actions = lines.iter().filter(|l| l.starts_with("action")).count();
    assert_eq!(answers.len(), actions, "stdout: {answers:?}");
    assert!(
        answers.iter().all(|a| parse_place_move(a).is_some()),
        "{answers:?}"
    );
    // The malformed action repeats the last position's question: still a legal answer.
    let positions = positions_at_actions(&lines[..lines.len() - 1]);
    let last = positions.last().unwrap();
    let (x, y) = parse_place_move(answers.last().unwrap()).unwrap();
    assert!(last.is_legal(Move::from_xy(x, y).unwrap()));
}

#[test]
fn an_invalid_field_still_gets_a_legal_looking_answer() {
    // A field with a wrong count of cells: the bot cannot search, but answers a cell that
    // is empty on a board the macroboard marks playable.
    let mut field = vec!["0"; 80];
    field[10] = "1";
    let input = format!(
        "settings your_botid 1\nupdate game field {}\nupdate game macroboard 0,-1,0,0,0,0,0,0,0\naction move 500\n",
        field.join(",")
    );
    let (answers, stderr) = run_bot(&input, &[]);
    assert!(stderr.contains("invalid position"), "{stderr}");
    assert_eq!(answers, vec!["place_move 3 0"]);
}

#[test]
fn an_action_before_any_position_is_answered() {
    let (answers, _) = run_bot("action move 1000\n", &[]);
    assert_eq!(answers.len(), 1);
    assert!(parse_place_move(&answers[0]).is_some());
}

#[test]
fn help_explains_the_options() {
    let output = Process::new(env!("CARGO_BIN_EXE_mctsbot"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    for flag in ["--game", "--seed", "--c", "--max-nodes", "--final", "bench"] {
        assert!(text.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn bench_prints_one_json_line_per_position() {
    let output = Process::new(env!("CARGO_BIN_EXE_mctsbot"))
        .args(["bench", "--game", "uttt", "--ms", "50"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert!(lines.len() >= 2);
    assert!(lines[0].contains("\"position\": \"empty\""));
    for line in lines {
        for key in [
            "game",
            "position",
            "iterations",
            "ms",
            "iterations_per_sec",
            "playouts_per_sec",
        ] {
            assert!(line.contains(&format!("\"{key}\": ")), "{line} lacks {key}");
        }
    }
}

#[test]
fn perft_prints_the_reference_counts() {
    let output = Process::new(env!("CARGO_BIN_EXE_mctsbot"))
        .args(["perft", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let counts: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(counts, ["81", "720", "6336", "55080", "473256"]);
}
