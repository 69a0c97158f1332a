//! Unit tests of the protocol module: one or two per rule, the fixtures and property
//! tests live in `tests/protocol_*.rs`.

use super::*;

fn ok(line: &str) -> Command {
    parse_command(line).unwrap_or_else(|e| panic!("{e}"))
}

fn reason(line: &str) -> String {
    match parse_command(line) {
        Ok(c) => panic!("{line:?} parsed as {c:?}"),
        Err(e) => {
            assert_eq!(e.line, line);
            e.reason.to_string()
        }
    }
}

#[test]
fn settings_known_keys() {
    assert_eq!(
        ok("settings timebank 10000"),
        Command::Settings(Setting::Timebank(10000))
    );
    assert_eq!(
        ok("settings time_per_move 500"),
        Command::Settings(Setting::TimePerMove(500))
    );
    assert_eq!(
        ok("settings player_names player0,player1"),
        Command::Settings(Setting::PlayerNames(vec![
            "player0".into(),
            "player1".into()
        ]))
    );
    assert_eq!(
        ok("settings your_bot player1"),
        Command::Settings(Setting::YourBot("player1".into()))
    );
    assert_eq!(
        ok("settings your_botid 2"),
        Command::Settings(Setting::YourBotId(2))
    );
    assert_eq!(
        ok("settings field_width 16"),
        Command::Settings(Setting::FieldWidth(16))
    );
    assert_eq!(
        ok("settings field_height 6"),
        Command::Settings(Setting::FieldHeight(6))
    );
    assert_eq!(
        ok("settings max_rounds 100"),
        Command::Settings(Setting::MaxRounds(100))
    );
}

#[test]
fn settings_unknown_key_is_kept() {
    assert_eq!(
        ok("settings weather sunny  and warm"),
        Command::Settings(Setting::Unknown {
            key: "weather".into(),
            value: "sunny  and warm".into()
        })
    );
}

#[test]
fn update_game_keys() {
    assert_eq!(
        ok("update game round 3"),
        Command::UpdateGame(GameUpdate::Round(3))
    );
    assert_eq!(
        ok("update game move 5"),
        Command::UpdateGame(GameUpdate::Move(5))
    );
    assert_eq!(
        ok("update game field .,.,0,x,1,-1,2"),
        Command::UpdateGame(GameUpdate::Field(vec![
            Token::Dot,
            Token::Dot,
            Token::Number(0),
            Token::Wall,
            Token::Number(1),
            Token::Number(-1),
            Token::Number(2),
        ]))
    );
    assert_eq!(
        ok("update game macroboard -1,.,0"),
        Command::UpdateGame(GameUpdate::Macroboard(vec![
            Token::Number(-1),
            Token::Dot,
            Token::Number(0)
        ]))
    );
    assert_eq!(
        ok("update game winner player1"),
        Command::UpdateGame(GameUpdate::Unknown {
            key: "winner".into(),
            value: "player1".into()
        })
    );
}

#[test]
fn update_player_and_action() {
    assert_eq!(
        ok("update player1 points 3"),
        Command::UpdatePlayer {
            player: "player1".into(),
            key: "points".into(),
            value: "3".into()
        }
    );
    assert_eq!(
        ok("action move 9500"),
        Command::ActionMove { timebank_ms: 9500 }
    );
    assert!(ok("action move 0").is_action());
    assert!(!ok("update game round 1").is_action());
}

#[test]
fn blanks_are_tolerated() {
    assert_eq!(
        ok("  \taction \t  move   726 \r"),
        Command::ActionMove { timebank_ms: 726 }
    );
    assert_eq!(
        ok("update\tgame\tfield\t0,1\r\n"),
        Command::UpdateGame(GameUpdate::Field(vec![Token::Number(0), Token::Number(1)]))
    );
}

#[test]
fn precise_reasons() {
    assert_eq!(reason(""), "empty line");
    assert_eq!(reason(" \t\r"), "empty line");
    assert_eq!(reason("foo bar"), "unknown command \"foo\"");
    assert_eq!(
        reason("settings timebank abc"),
        "settings timebank: expected a non-negative integer, got \"abc\""
    );
    assert_eq!(
        reason("settings timebank -5"),
        "settings timebank: expected a non-negative integer, got \"-5\""
    );
    assert_eq!(
        reason("settings your_botid 256"),
        "settings your_botid: number \"256\" is out of range"
    );
    assert_eq!(
        reason("settings timebank 10 20"),
        "settings timebank: unexpected trailing text \"20\""
    );
    assert_eq!(reason("settings"), "settings: missing key");
    assert_eq!(
        reason("settings timebank"),
        "settings timebank: missing value"
    );
    assert_eq!(
        reason("settings player_names a,,b"),
        "settings player_names: empty name at position 1"
    );
    assert_eq!(reason("update"), "update: missing player");
    assert_eq!(reason("update game"), "update game: missing key");
    assert_eq!(
        reason("update game round"),
        "update game round: missing value"
    );
    assert_eq!(
        reason("update game field"),
        "update game field: empty field"
    );
    assert_eq!(
        reason("update game macroboard  "),
        "update game macroboard: empty macroboard"
    );
    assert_eq!(
        reason("update game field 0,0,1,q"),
        "field value 3: unexpected token \"q\""
    );
    assert_eq!(
        reason("update game field 0,,1"),
        "field value 1: empty token"
    );
    assert_eq!(
        reason("update game field 0,1,"),
        "field value 2: empty token"
    );
    assert_eq!(
        reason("update game macroboard -1,200"),
        "macroboard value 1: number \"200\" is out of range"
    );
    assert_eq!(
        reason("update player0 points"),
        "update player0 points: missing value"
    );
    assert_eq!(reason("action"), "action: missing type");
    assert_eq!(reason("action move"), "action move: missing timebank");
    assert_eq!(
        reason("action move 100 now"),
        "action move 100: unexpected trailing text \"now\""
    );
    assert_eq!(
        reason("action order 100"),
        "action \"order\": unsupported action type (expected \"move\")"
    );
    assert_eq!(
        reason("action move 1.5"),
        "action move: expected a non-negative integer, got \"1.5\""
    );
}

#[test]
fn long_and_strange_lines_do_not_panic() {
    let long = format!("update game field {}", vec!["."; 100_000].join(","));
    match ok(&long) {
        Command::UpdateGame(GameUpdate::Field(t)) => assert_eq!(t.len(), 100_000),
        other => panic!("{other:?}"),
    }
    let garbage = "é".repeat(10_000);
    let r = reason(&format!("update game field {garbage}"));
    assert!(r.starts_with("field value 0: unexpected token \""), "{r}");
    assert!(r.chars().count() < 100, "reason is cut: {r}");
    assert_eq!(reason("ünïcødé"), "unknown command \"ünïcødé\"");
    assert_eq!(reason("\u{0}"), "unknown command \"\\0\"");
}

#[test]
fn display_is_the_engine_line() {
    for line in [
        "settings player_names player0,player1",
        "settings timebank 10000",
        "settings your_botid 0",
        "settings weather sunny and warm",
        "update game round 1",
        "update game field .,.,0,x",
        "update game macroboard -1,.,.,0,1,-1,.,.,.",
        "update player0 points 3",
        "action move 9500",
    ] {
        assert_eq!(ok(line).to_string(), line);
    }
}
