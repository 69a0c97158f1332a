//! Property tests: every well-formed command survives `Display` → `parse_command`, and
//! no input whatsoever makes the parsers panic.

use mctsbot::protocol::{parse_command, Command, GameUpdate, Setting, Token};
use mctsbot::tron::parse_tron_answer;
use mctsbot::uttt::{format_place_move, parse_place_move};
use proptest::prelude::*;

const SETTING_KEYS: &[&str] = &[
    "timebank",
    "time_per_move",
    "player_names",
    "your_bot",
    "your_botid",
    "field_width",
    "field_height",
    "max_rounds",
];
const GAME_KEYS: &[&str] = &["round", "move", "field", "macroboard"];

/// A word: no blanks (any other character, non-ASCII included, is fine).
fn word() -> impl Strategy<Value = String> {
    "[^ \t\r\n]{1,12}"
}

/// An opaque value: words separated by runs of blanks, none at either end.
fn opaque_value() -> impl Strategy<Value = String> {
    (word(), prop::collection::vec(("[ \t]{1,3}", word()), 0..3)).prop_map(|(first, more)| {
        more.into_iter()
            .fold(first, |acc, (gap, w)| acc + &gap + &w)
    })
}

fn token() -> impl Strategy<Value = Token> {
    prop_oneof![
        Just(Token::Dot),
        Just(Token::Wall),
        any::<i8>().prop_map(Token::Number)
    ]
}

fn tokens() -> impl Strategy<Value = Vec<Token>> {
    prop::collection::vec(token(), 1..100)
}

fn setting() -> impl Strategy<Value = Setting> {
    prop_oneof![
        any::<u64>().prop_map(Setting::Timebank),
        any::<u64>().prop_map(Setting::TimePerMove),
        prop::collection::vec("[^ \t\r\n,]{1,10}", 1..4).prop_map(Setting::PlayerNames),
        word().prop_map(Setting::YourBot),
        any::<u8>().prop_map(Setting::YourBotId),
        any::<u32>().prop_map(Setting::FieldWidth),
        any::<u32>().prop_map(Setting::FieldHeight),
        any::<u32>().prop_map(Setting::MaxRounds),
        (
            word().prop_filter("not a known key", |k| !SETTING_KEYS.contains(&k.as_str())),
            opaque_value()
        )
            .prop_map(|(key, value)| Setting::Unknown { key, value }),
    ]
}

fn game_update() -> impl Strategy<Value = GameUpdate> {
    prop_oneof![
        any::<u32>().prop_map(GameUpdate::Round),
        any::<u32>().prop_map(GameUpdate::Move),
        tokens().prop_map(GameUpdate::Field),
        tokens().prop_map(GameUpdate::Macroboard),
        (
            word().prop_filter("not a known key", |k| !GAME_KEYS.contains(&k.as_str())),
            opaque_value()
        )
            .prop_map(|(key, value)| GameUpdate::Unknown { key, value }),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        setting().prop_map(Command::Settings),
        game_update().prop_map(Command::UpdateGame),
        (
            word().prop_filter("not the game", |p| p != "game"),
            word(),
            opaque_value()
        )
            .prop_map(|(player, key, value)| Command::UpdatePlayer { player, key, value }),
        any::<u64>().prop_map(|timebank_ms| Command::ActionMove { timebank_ms }),
    ]
}

/// Lines made of the protocol's own pieces, which reach deeper than random text.
fn near_miss() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "settings",
        "update",
        "action",
        "game",
        "move",
        "field",
        "macroboard",
        "round",
        "timebank",
        "player_names",
        "your_botid",
        " ",
        "  ",
        "\t",
        "\r",
        ",",
        ".",
        "x",
        "-",
        "-1",
        "0",
        "8",
        "255",
        "256",
        "99999999999999999999",
        "é",
        "\u{0}",
        "place_move",
    ]);
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn protocol_round_trip(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(parse_command(&line), Ok(command.clone()));
        let padded = format!("  {}\r", line.replacen(' ', " \t ", 1));
        prop_assert_eq!(parse_command(&padded), Ok(command));
    }

    #[test]
    fn protocol_parse_never_panics(line in any::<String>()) {
        if let Err(e) = parse_command(&line) {
            prop_assert_eq!(e.line, line.clone());
        }
        let _ = parse_place_move(&line);
        let _ = parse_tron_answer(&line);
    }

    #[test]
    fn protocol_near_misses_never_panic(line in near_miss()) {
        if let Err(e) = parse_command(&line) {
            prop_assert!(!e.reason.to_string().is_empty());
        }
        let _ = parse_place_move(&line);
    }

    #[test]
    fn protocol_place_move_round_trip(column in 0u8..9, row in 0u8..9) {
        prop_assert_eq!(parse_place_move(&format_place_move(column, row)), Some((column, row)));
    }
}
