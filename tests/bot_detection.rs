//! Which game the bot answers in follows the evidence: a valid position decides, settings
//! and the shape of the values only suggest, a guess is revised, a contradiction is
//! reported.

use mctsbot::tron::parse_tron_answer;
use mctsbot::tron::TronState;
use mctsbot::uttt::parse_place_move;
mod bot_common;

use bot_common::run_bot;

/// A Light Riders field line for `state`.
fn tron_field(state: &TronState) -> String {
    let cells: Vec<String> = state.engine_field().iter().map(|t| t.to_string()).collect();
    format!("update game field {}\n", cells.join(","))
}

/// A riddles.io UTTT position after one move in the centre.
const UTTT_FIELD: &str = "update game field .,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.\n";
const UTTT_MACROBOARD: &str = "update game macroboard .,.,.,.,-1,.,.,.,.\n";

fn is_uttt(answer: &str) -> bool {
    parse_place_move(answer).is_some()
}

fn is_tron(answer: &str) -> bool {
    parse_tron_answer(answer).is_some()
}

#[test]
fn a_guess_before_any_position_is_revised_by_a_light_riders_field() {
    // Square, so that the field is a valid position without board settings.
    let state = TronState::from_diagram("......\n.0..1.\n......\n......\n......\n......").unwrap();
    let input = format!(
        "action move 300\n{}action move 300\naction move 300\n",
        tron_field(&state)
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "1"]);
    assert_eq!(answers.len(), 3, "{stderr}");
    assert!(is_uttt(&answers[0]), "the first guess is UTTT: {answers:?}");
    assert!(answers[1..].iter().all(|a| is_tron(a)), "{answers:?}");
    assert!(stderr.contains("guessing Ultimate Tic-Tac-Toe"), "{stderr}");
    assert!(stderr.contains("game: Light Riders"), "{stderr}");
}

#[test]
fn board_settings_suggest_light_riders_before_the_first_field() {
    let input = "settings field_width 16\nsettings field_height 16\naction move 300\n";
    let (answers, stderr) = run_bot(input, &[]);
    assert_eq!(answers.len(), 1);
    assert!(is_tron(&answers[0]), "{answers:?} {stderr}");
}

#[test]
fn a_stray_board_setting_does_not_turn_a_uttt_game_into_light_riders() {
    let input = format!(
        "settings your_botid 1\n{UTTT_FIELD}{UTTT_MACROBOARD}action move 300\nsettings field_height 0\n\
         {UTTT_FIELD}{UTTT_MACROBOARD}action move 300\n"
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "2"]);
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| is_uttt(a)), "{answers:?} {stderr}");
    assert!(!stderr.contains("not Ultimate"), "{stderr}");
}

#[test]
fn a_valid_position_of_the_other_game_is_a_reported_contradiction() {
    let state = TronState::from_diagram("......\n.0..1.\n......\n......\n......\n......").unwrap();
    let input = format!(
        "{UTTT_FIELD}{UTTT_MACROBOARD}action move 300\n{}action move 300\n",
        tron_field(&state)
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "3"]);
    assert!(is_uttt(&answers[0]) && is_tron(&answers[1]), "{answers:?}");
    assert!(
        stderr.contains("is one of Light Riders, not Ultimate Tic-Tac-Toe"),
        "{stderr}"
    );
}

#[test]
fn a_square_light_riders_board_of_81_cells_is_told_by_its_settings() {
    // A 9x9 Light Riders field holds only `.`, `0` and `1`, like a riddles.io UTTT field.
    let state = TronState::from_diagram(
        ".........\n.........\n.0.....1.\n.........\n.........\n.........\n.........\n.........\n.........",
    )
    .unwrap();
    let input = format!(
        "settings field_width 9\nsettings field_height 9\nsettings your_botid 0\n{}action move 300\n",
        tron_field(&state)
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "4"]);
    assert_eq!(answers.len(), 1);
    assert!(is_tron(&answers[0]), "{answers:?} {stderr}");
}

#[test]
fn a_corrupt_field_keeps_the_game_decided_so_far() {
    let state = TronState::from_diagram("........\n.0....1.\n........\n........").unwrap();
    let input = format!(
        "settings field_width 8\nsettings field_height 4\n{}action move 300\n\
         update game field 0,1,.\naction move 300\n",
        tron_field(&state)
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "5"]);
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| is_tron(a)), "{answers:?} {stderr}");
    assert!(stderr.contains("invalid position"), "{stderr}");
}

#[test]
fn a_bank_far_above_the_maximum_is_clamped() {
    let input = format!(
        "settings timebank 1000\nsettings your_botid 1\n{UTTT_FIELD}{UTTT_MACROBOARD}action move 100000000\n"
    );
    let started = std::time::Instant::now();
    let (answers, stderr) = run_bot(&input, &["--seed", "6"]);
    assert_eq!(answers.len(), 1);
    assert!(stderr.contains("above the maximum of 1000 ms"), "{stderr}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// TheAIGames' UTTT field after moves of both players (`1` and `2`), cut after 40 values.
const UTTT_FIELD_CUT_SHORT: &str = "update game field 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,2,0,0,0,0,0,0,0,0\n";

#[test]
fn a_two_in_a_field_of_the_wrong_length_suggests_uttt_beside_a_stray_board_setting() {
    // No position is valid (the field is cut short, no macroboard), and a Light Riders
    // setting is there; only TheAIGames' UTTT sends a `2`.
    let input = format!("settings field_width 16\n{UTTT_FIELD_CUT_SHORT}action move 300\n");
    let (answers, stderr) = run_bot(&input, &["--seed", "7"]);
    assert_eq!(answers.len(), 1);
    assert!(is_uttt(&answers[0]), "{answers:?} {stderr}");
    assert!(stderr.contains("guessing Ultimate Tic-Tac-Toe"), "{stderr}");
}

#[test]
fn a_two_in_a_huge_field_suggests_uttt() {
    let huge = vec!["2"; 300_000].join(",");
    let input = format!("settings field_height 0\nupdate game field {huge}\naction move 300\n");
    let (answers, stderr) = run_bot(&input, &["--seed", "8"]);
    assert_eq!(answers.len(), 1);
    assert!(is_uttt(&answers[0]), "{answers:?} {stderr}");
}

#[test]
fn a_wall_in_a_field_of_81_values_beside_a_macroboard_suggests_light_riders() {
    // 81 values and a macroboard look like UTTT, but only Light Riders sends a wall.
    let mut cells = vec!["."; 81];
    cells[3] = "x";
    cells[10] = "0";
    let input = format!(
        "{UTTT_MACROBOARD}update game field {}\naction move 300\n",
        cells.join(",")
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "9"]);
    assert_eq!(answers.len(), 1);
    assert!(is_tron(&answers[0]), "{answers:?} {stderr}");
}

/// A riddles.io UTTT position after two moves: one `0` and one `1` in 81 values, which
/// is also a valid 9x9 Light Riders board (two heads, no walls).
const UTTT_FIELD_ONE_0_ONE_1: &str = "update game field .,.,1,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,0,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.,.\n";
const UTTT_MACROBOARD_TOP_RIGHT: &str = "update game macroboard .,.,-1,.,.,.,.,.,.\n";

#[test]
fn one_stray_board_setting_does_not_decide_a_position_valid_in_both_games() {
    // The field and macroboard are a valid UTTT position; the field alone also reads as
    // a square Light Riders board. One board setting (and one that does not even fit
    // the field) is no evidence against the macroboard.
    for stray in ["settings field_width 16", "settings field_height 0"] {
        let input = format!(
            "settings your_botid 0\n{stray}\n{UTTT_FIELD_ONE_0_ONE_1}{UTTT_MACROBOARD_TOP_RIGHT}\
             action move 300\n"
        );
        let (answers, stderr) = run_bot(&input, &["--seed", "10"]);
        assert_eq!(answers.len(), 1, "{stray}: {stderr}");
        assert!(is_uttt(&answers[0]), "{stray}: {answers:?} {stderr}");
    }
}

#[test]
fn a_stray_board_setting_mid_game_is_no_contradiction_of_a_uttt_game() {
    // Decided UTTT at the first move; the stray setting must not flip the decision when
    // the next position is also a valid square Light Riders board.
    let input = format!(
        "settings your_botid 0\n{UTTT_FIELD}{UTTT_MACROBOARD}action move 300\n\
         settings field_width 16\n{UTTT_FIELD_ONE_0_ONE_1}{UTTT_MACROBOARD_TOP_RIGHT}\
         action move 300\n"
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "11"]);
    assert_eq!(answers.len(), 2, "{stderr}");
    assert!(answers.iter().all(|a| is_uttt(a)), "{answers:?} {stderr}");
    assert!(!stderr.contains("is one of Light Riders"), "{stderr}");
}

#[test]
fn both_board_settings_fitting_the_field_still_tell_light_riders_beside_a_macroboard() {
    // The rule kept: width and height that describe the field's own shape are what a
    // Light Riders engine sends (a UTTT engine sends neither), so they outweigh one
    // macroboard line when the position is valid in both games.
    let input = format!(
        "settings field_width 9\nsettings field_height 9\nsettings your_botid 0\n\
         {UTTT_FIELD_ONE_0_ONE_1}{UTTT_MACROBOARD_TOP_RIGHT}action move 300\n"
    );
    let (answers, stderr) = run_bot(&input, &["--seed", "12"]);
    assert_eq!(answers.len(), 1, "{stderr}");
    assert!(is_tron(&answers[0]), "{answers:?} {stderr}");
}
