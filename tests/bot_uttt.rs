//! The `mctsbot` binary against engine streams: every answer legal, stdout carries
//! answers only, and bad input is reported on stderr without stopping the bot.

use mctsbot::protocol::{parse_command, Command, GameUpdate, Token};
use mctsbot::uttt::codingame::{format_move, parse_move};
use mctsbot::uttt::parse_place_move;
use mctsbot::uttt::{detect_dialect, Board, Move};
mod bot_common;

use bot_common::{run_bot, spawn_bot};
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
fn a_repeated_request_for_the_position_just_answered_gets_the_same_move_without_a_search() {
    // TheAIGames asks once more when an answer comes late; searching again would make
    // the second answer late too, and every answer after it a move out of step.
    let lines = engine_lines("uttt-theaigames.txt", 200);
    let first_action = lines.iter().position(|l| l.starts_with("action")).unwrap();
    let mut asked = lines[..=first_action].to_vec();
    asked.push("action move 200".into());
    let (answers, stderr) = run_bot(&(asked.join("\n") + "\n"), &["--seed", "7"]);
    assert_eq!(answers.len(), 2, "{stderr}");
    assert_eq!(answers[0], answers[1]);
    assert_eq!(stderr.matches(" iterations=").count(), 1, "{stderr}");
    assert!(
        stderr.contains("asked again for the position just answered"),
        "{stderr}"
    );
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
fn version_names_the_package() {
    let output = Process::new(env!("CARGO_BIN_EXE_mctsbot"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text, format!("mctsbot {}\n", env!("CARGO_PKG_VERSION")));
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

/// The engine lines that ask player 1 (TheAIGames) to move in `board`.
fn ask(board: &Board, bank_ms: u64) -> String {
    use mctsbot::uttt::Dialect;
    let dialect = Dialect::TheAiGames;
    [
        Command::UpdateGame(GameUpdate::Field(board.engine_field(dialect))),
        Command::UpdateGame(GameUpdate::Macroboard(board.engine_macroboard(dialect))),
        Command::ActionMove {
            timebank_ms: bank_ms,
        },
    ]
    .iter()
    .map(|c| format!("{c}\n"))
    .collect()
}

/// Plays two of our moves with `args`, the opponent taking `think_ms` over its reply;
/// returns the second answer's log line.
fn second_move_log(args: &[&str], think_ms: u64) -> String {
    use mctsbot::search::Game;
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_bot(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut board = Board::new();
    let settings = "settings timebank 2000\nsettings time_per_move 100\nsettings your_botid 1\n";
    write!(stdin, "{settings}{}", ask(&board, 2000)).unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    let (x, y) = parse_place_move(answer.trim()).unwrap();
    board.play(Move::from_xy(x, y).unwrap());
    // The opponent thinks, then replies with its first legal move.
    std::thread::sleep(std::time::Duration::from_millis(think_ms));
    let mut legal = Vec::new();
    board.legal_moves(&mut legal);
    board.play(legal[0]);
    write!(stdin, "{}", ask(&board, 2000)).unwrap();
    answer.clear();
    stdout.read_line(&mut answer).unwrap();
    let (x, y) = parse_place_move(answer.trim()).unwrap();
    assert!(board.is_legal(Move::from_xy(x, y).unwrap()));
    drop(stdin);
    bot_common::second_move_line(child)
}

/// The value of `key=` in a log line.
fn field(line: &str, key: &str) -> u64 {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

#[test]
fn pondering_searches_while_the_opponent_thinks() {
    let line = second_move_log(&["--seed", "5", "--ponder"], 300);
    // 300 ms of the opponent's time went into the tree the second move reuses.
    assert!(field(&line, "pondered") > 1000, "{line}");
    assert!(line.contains("reused=true"), "{line}");
    let line = second_move_log(&["--seed", "5"], 300);
    assert_eq!(field(&line, "pondered"), 0, "{line}");
}

#[test]
fn pondering_works_with_threads_and_with_an_instant_reply() {
    let line = second_move_log(&["--seed", "5", "--ponder", "--threads", "2"], 0);
    assert!(line.contains("reused=true"), "{line}");
}

#[test]
fn alpha_beta_plays_legally_within_the_seeds_time_table() {
    let line = second_move_log(&["--seed", "5", "--uttt-search", "alphabeta"], 0);
    // Move 2 is among the first 14: Table 4.1's 500 ms, scaled to the 100 ms refill.
    assert_eq!(field(&line, "budget"), 100, "{line}");
    assert!(field(&line, "depth") >= 4, "{line}");
    assert!(field(&line, "elapsed") <= 100 + 20, "{line}");
}

#[test]
fn fixed_depth_alpha_beta_stops_at_its_depth() {
    let line = second_move_log(
        &[
            "--seed",
            "5",
            "--uttt-search",
            "alphabeta",
            "--uttt-depth",
            "3",
            "--eval",
            "simple",
        ],
        0,
    );
    assert_eq!(field(&line, "depth"), 3, "{line}");
}

#[test]
fn the_seeds_playouts_play_legally() {
    for args in [&["--playout", "win-first"][..], &["--ept", "20,0.7"]] {
        let line = second_move_log(&[&["--seed", "5"][..], args].concat(), 0);
        assert!(field(&line, "playouts") > 1000, "{line}");
    }
}

/// Referees a whole CodinGame game against the bot (`args`), the test playing seeded
/// random moves for the other side: every answer must be a valid action, in time.
fn codingame_game(args: &[&str], bot_moves_first: bool) -> String {
    use mctsbot::search::{random_below, FastRng, Game};
    use mctsbot::uttt::EndRule;
    use rand::SeedableRng;
    use std::io::{BufRead, BufReader, Write};
    let mut child = spawn_bot(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut board = Board::with_end_rule(EndRule::MoreBoards);
    let mut rng = FastRng::seed_from_u64(9);
    let mut moves = Vec::new();
    let mut last: Option<Move> = None;
    while board.outcome().is_none() {
        moves.clear();
        board.legal_moves(&mut moves);
        let bots_turn = (board.turn() == 0) == bot_moves_first;
        if !bots_turn {
            let mv = moves[random_below(&mut rng, moves.len() as u32) as usize];
            board.play(mv);
            last = Some(mv);
            continue;
        }
        let mut turn = format!(
            "{}\n{}\n",
            last.map_or("-1 -1".into(), format_move),
            moves.len()
        );
        for &mv in &moves {
            turn += &format!("{}\n", format_move(mv));
        }
        let sent = std::time::Instant::now();
        stdin.write_all(turn.as_bytes()).unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        let took = sent.elapsed();
        // A loose bound (tests share the machine): it catches a search that ignores the
        // turn's clock; the arena's series count real timeouts.
        let first_turn = board.ply() <= 1;
        assert!(
            took.as_millis() < if first_turn { 3000 } else { 600 },
            "{took:?}"
        );
        let mv = parse_move(&answer, "answer").unwrap();
        assert!(moves.contains(&mv), "{answer:?} is not valid");
        board.play(mv);
        last = Some(mv);
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn plays_whole_codingame_games_from_either_seat() {
    let log = codingame_game(&["--seed", "3"], true);
    assert!(
        log.contains("CodinGame Ultimate Tic-Tac-Toe"),
        "detected: {log}"
    );
    assert!(log.contains("reused=true"), "{log}");
    let log = codingame_game(&["--seed", "4", "--protocol", "codingame"], false);
    assert!(!log.contains("ERROR"), "{log}");
}

/// The turns of the CodinGame fixture: (the lines sent, the valid actions, the answer).
fn codingame_fixture_turns() -> Vec<(String, Vec<Move>, Move)> {
    let path = format!(
        "{}/protocol/codingame/uttt-game.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let row_col = |line: &str| parse_move(line, "a fixture move").unwrap();
    let mut turns = Vec::new();
    let mut sent = String::new();
    let mut valid = Vec::new();
    for line in text.lines() {
        if let Some(answer) = line.strip_prefix("< ") {
            turns.push((
                std::mem::take(&mut sent),
                std::mem::take(&mut valid),
                row_col(answer),
            ));
        } else if let Some(input) = line.strip_prefix("> ") {
            // Lines after the count line are the valid actions.
            if sent.lines().count() >= 2 {
                valid.push(row_col(input));
            }
            sent += &format!("{input}\n");
        }
    }
    turns
}

#[test]
fn the_codingame_fixture_follows_the_rules() {
    use mctsbot::search::Game;
    use mctsbot::uttt::EndRule;
    let mut board = Board::with_end_rule(EndRule::MoreBoards);
    let turns = codingame_fixture_turns();
    assert!(turns.len() > 20);
    for (sent, valid, answer) in &turns {
        let first = sent.lines().next().unwrap();
        if first != "-1 -1" {
            board.play(parse_move(first, "the opponent's move").unwrap());
        }
        let mut legal = Vec::new();
        board.legal_moves(&mut legal);
        assert_eq!(&legal, valid, "the valid actions are the legal moves");
        assert!(valid.contains(answer));
        board.play(*answer);
    }
}

#[test]
fn every_answer_to_the_codingame_fixture_is_a_valid_action() {
    let turns = codingame_fixture_turns();
    let input: String = turns.iter().map(|(sent, _, _)| sent.as_str()).collect();
    let (answers, stderr) = run_bot(&input, &["--seed", "5"]);
    assert_eq!(answers.len(), turns.len(), "{stderr}");
    for (answer, (_, valid, _)) in answers.iter().zip(&turns) {
        let mv = parse_move(answer, "answer").unwrap();
        // Where our answer differs from the recorded one, the referee's later lines no
        // longer fit our position: the bot says so and answers from the referee's list.
        assert!(valid.contains(&mv), "{answer} not among {valid:?}");
    }
}

/// The distinct outcomes of every line of play from `board` to the end of the game, or
/// `None` if there are more than `budget` positions to visit.
fn final_outcomes(board: &Board, budget: &mut u32) -> Option<Vec<mctsbot::game::Outcome>> {
    use mctsbot::search::Game;
    *budget = budget.checked_sub(1)?;
    if let Some(outcome) = board.outcome() {
        return Some(vec![outcome]);
    }
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let mut outcomes = Vec::new();
    for mv in moves {
        let mut next = *board;
        next.play(mv);
        for outcome in final_outcomes(&next, budget)? {
            if !outcomes.contains(&outcome) {
                outcomes.push(outcome);
            }
        }
    }
    Some(outcomes)
}

/// A position a few plies before the end of a seeded random game where every line ends
/// without a line of boards (a draw on TheAIGames), all with the same winner by the
/// board count (CodinGame's rule), with a choice of moves for the player to move.
fn lineless_ending() -> (Board, mctsbot::game::Outcome) {
    use mctsbot::game::Outcome;
    use mctsbot::search::Game;
    use mctsbot::uttt::EndRule;
    use rand::{Rng, SeedableRng};
    for seed in 0..10_000 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut history = vec![Board::new()];
        let mut board = Board::new();
        while board.outcome().is_none() {
            let mut moves = Vec::new();
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(0..moves.len())]);
            history.push(board);
        }
        let before = history[history.len().saturating_sub(4)];
        let mut moves = Vec::new();
        before.legal_moves(&mut moves);
        let under_draw = final_outcomes(&before, &mut 100_000);
        let by_count = final_outcomes(&before.under(EndRule::MoreBoards), &mut 100_000);
        if let (true, Some(&[Outcome::Draw]), Some(&[winner @ Outcome::Win(_)])) =
            (moves.len() > 1, under_draw.as_deref(), by_count.as_deref())
        {
            return (before, winner);
        }
    }
    panic!("no lineless ending in 10,000 random games")
}

#[test]
fn the_end_rule_decides_what_the_search_proves_of_a_lineless_ending() {
    let (board, by_count) = lineless_ending();
    let input = format!(
        "settings your_botid {}\n{}",
        board.turn() + 1,
        ask(&board, 2000)
    );
    let proof = |args: &[&str]| {
        let (answers, stderr) = run_bot(&input, args);
        assert_eq!(answers.len(), 1, "{stderr}");
        let line = stderr
            .lines()
            .find(|l| l.contains("move=1 "))
            .unwrap()
            .to_owned();
        line.split_whitespace()
            .find_map(|w| w.strip_prefix("proof="))
            .unwrap()
            .to_owned()
    };
    assert_eq!(proof(&["--seed", "1"]), "Draw");
    let expected = if by_count == mctsbot::game::Outcome::Win(board.turn()) {
        "Win"
    } else {
        "Loss"
    };
    assert_eq!(proof(&["--seed", "1", "--end-rule", "boards"]), expected);
}
