//! Every fixture in `protocol/fixtures/` against the parser: engine lines (`> `) parse
//! and print back unchanged, answers (`< `) parse as the game's answers, the boards have
//! the right number of cells, and every line of `malformed.txt` is rejected.

use std::fs;
use std::path::PathBuf;

use mctsbot::protocol::{parse_command, Command, GameUpdate, Setting, Token};
use mctsbot::tron::parse_tron_answer;
use mctsbot::uttt::parse_place_move;
use mctsbot::uttt::Dialect;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol/fixtures")
}

/// The fixture files by name, sorted so failures are reproducible.
fn fixtures() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = fs::read_dir(fixtures_dir())
        .expect("protocol/fixtures exists")
        .map(|entry| {
            let path = entry.expect("readable entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(&path).expect("fixture is UTF-8");
            (name, text)
        })
        .filter(|(name, _)| name.ends_with(".txt"))
        .collect();
    files.sort();
    files
}

/// The game state a stream builds up, enough to check answers against it.
#[derive(Default)]
struct Seen {
    width: Option<u32>,
    height: Option<u32>,
    bot_id: Option<u8>,
    field: Vec<Token>,
    macroboard: Vec<Token>,
}

fn check_stream(name: &str, text: &str) -> (usize, usize) {
    let uttt = name.starts_with("uttt");
    assert!(
        uttt || name.starts_with("lightriders"),
        "unknown fixture {name}"
    );
    let mut seen = Seen::default();
    let (mut commands, mut answers) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", n + 1);
        if let Some(engine) = line.strip_prefix("> ") {
            let command = parse_command(engine).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(command.to_string(), engine, "{at}: not canonical");
            match command {
                Command::Settings(Setting::FieldWidth(w)) => seen.width = Some(w),
                Command::Settings(Setting::FieldHeight(h)) => seen.height = Some(h),
                Command::Settings(Setting::YourBotId(id)) => seen.bot_id = Some(id),
                Command::UpdateGame(GameUpdate::Field(f)) => seen.field = f,
                Command::UpdateGame(GameUpdate::Macroboard(m)) => seen.macroboard = m,
                _ => {}
            }
            commands += 1;
        } else if let Some(answer) = line.strip_prefix("< ") {
            if uttt {
                let (x, y) = parse_place_move(answer).unwrap_or_else(|| panic!("{at}"));
                assert_eq!(seen.field.len(), 81, "{at}: field size");
                assert_eq!(seen.macroboard.len(), 9, "{at}: macroboard size");
                let dialect = if name.contains("riddles") {
                    Dialect::Riddles
                } else {
                    Dialect::TheAiGames
                };
                let empty = match dialect {
                    Dialect::Riddles => Token::Dot,
                    Dialect::TheAiGames => Token::Number(0),
                };
                let id = seen.bot_id.expect("your_botid before the first answer");
                assert_ne!(Dialect::from_bot_id(id), Some(other(dialect)), "{at}");
                if let Some(d) = Dialect::from_tokens(&seen.field) {
                    assert_eq!(d, dialect, "{at}: field dialect");
                }
                let (x, y) = (usize::from(x), usize::from(y));
                assert_eq!(seen.field[y * 9 + x], empty, "{at}: cell taken");
                let board = (y / 3) * 3 + x / 3;
                assert_eq!(
                    seen.macroboard[board],
                    Token::Number(-1),
                    "{at}: board closed"
                );
            } else {
                parse_tron_answer(answer).unwrap_or_else(|| panic!("{at}: {answer:?}"));
                let cells = seen.width.expect("field_width") * seen.height.expect("field_height");
                assert_eq!(seen.field.len(), cells as usize, "{at}: field size");
            }
            answers += 1;
        } else {
            panic!("{at}: a line must start with \"> \" or \"< \": {line:?}");
        }
    }
    (commands, answers)
}

fn other(d: Dialect) -> Dialect {
    match d {
        Dialect::Riddles => Dialect::TheAiGames,
        Dialect::TheAiGames => Dialect::Riddles,
    }
}

#[test]
fn protocol_fixtures_are_all_there() {
    let names: Vec<String> = fixtures().into_iter().map(|(n, _)| n).collect();
    for expected in [
        "lightriders.txt",
        "malformed.txt",
        "uttt-riddles.txt",
        "uttt-theaigames.txt",
    ] {
        assert!(names.iter().any(|n| n == expected), "missing {expected}");
    }
}

#[test]
fn protocol_fixture_streams_parse() {
    for (name, text) in fixtures() {
        if name == "malformed.txt" {
            continue;
        }
        let (commands, answers) = check_stream(&name, &text);
        assert!(commands > 10 && answers >= 3, "{name} is too short");
    }
}

#[test]
fn protocol_fixture_malformed_lines_fail() {
    let (_, text) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "malformed.txt")
        .expect("malformed.txt");
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let engine = line
            .strip_prefix("> ")
            .or_else(|| line.strip_prefix('>'))
            .unwrap_or_else(|| panic!("malformed.txt:{}: no \"> \"", n + 1));
        match parse_command(engine) {
            Ok(c) => panic!("malformed.txt:{}: {engine:?} parsed as {c:?}", n + 1),
            Err(e) => assert!(!e.reason.to_string().is_empty() && e.line == engine),
        }
        count += 1;
    }
    assert!(count >= 30, "only {count} malformed lines");
}
