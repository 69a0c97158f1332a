//! The `mctsbot` binary playing Light Riders: answers are safe moves whenever one
//! exists, forced moves are answered at once, separated riders fill their space.

use mctsbot::protocol::{parse_command, Command, GameUpdate};
use mctsbot::tron::parse_tron_answer;
use mctsbot::tron::{Direction, TronState};
mod bot_common;

use bot_common::run_bot;

/// The settings of a Light Riders game for player `me` on a `w`x`h` board.
fn settings(me: u8, w: usize, h: usize) -> String {
    format!(
        "settings player_names player0,player1\nsettings your_bot player{me}\nsettings timebank 10000\n\
         settings time_per_move 200\nsettings your_botid {me}\nsettings field_width {w}\nsettings field_height {h}\n"
    )
}

/// One round's lines for `state`, with a short timebank.
fn round(n: u32, state: &TronState, bank: u64) -> String {
    let field: Vec<String> = state.engine_field().iter().map(|t| t.to_string()).collect();
    format!(
        "update game round {n}\nupdate game field {}\naction move {bank}\n",
        field.join(",")
    )
}

fn direction(answer: &str) -> Direction {
    parse_tron_answer(answer)
        .unwrap_or_else(|| panic!("bad answer {answer:?}"))
        .0
        .unwrap()
}

#[test]
fn every_answer_of_a_fixture_game_is_safe() {
    let path = format!(
        "{}/protocol/fixtures/lightriders.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("> "))
        .map(|l| {
            if l.starts_with("action") {
                "action move 300".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect();
    let (answers, stderr) = run_bot(&(lines.join("\n") + "\n"), &["--seed", "2"]);
    let mut states = Vec::new();
    let mut field = Vec::new();
    for line in &lines {
        match parse_command(line) {
            Ok(Command::UpdateGame(GameUpdate::Field(f))) => field = f,
            Ok(Command::ActionMove { .. }) => {
                states.push(TronState::from_engine(6, 6, &field).unwrap())
            }
            _ => {}
        }
    }
    assert_eq!(answers.len(), states.len(), "{stderr}");
    for (answer, state) in answers.iter().zip(&states) {
        let safe = state.safe_moves(0);
        assert!(
            safe.is_empty() || safe.contains(direction(answer)),
            "{answer} crashes in\n{}",
            state.render()
        );
    }
    assert!(stderr.contains("reused=true"), "{stderr}");
}

#[test]
fn a_whole_game_against_itself_never_crashes_while_a_safe_move_exists() {
    // Player 1's view of a game it plays against a mirror of itself, round by round.
    let mut state =
        TronState::from_diagram("........\n........\n.0....1.\n........\n........\n........")
            .unwrap();
    let mut input = settings(1, 8, 6);
    let mut rounds = 0;
    while state.outcome().is_none() && rounds < 30 {
        input += &round(rounds, &state, 150);
        let (answers, _) = run_bot(&input, &["--seed", "9"]);
        let safe = state.safe_moves(1);
        if answers.last().unwrap() == "pass" {
            assert!(
                safe.is_empty(),
                "passed with a safe move in\n{}",
                state.render()
            );
            break;
        }
        let mine = direction(answers.last().unwrap());
        assert!(
            safe.is_empty() || safe.contains(mine),
            "round {rounds}: {mine:?} crashes in\n{}",
            state.render()
        );
        // The opponent mirrors our move left-right.
        let theirs = match mine {
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
            other => other,
        };
        let theirs = if state.safe_moves(0).contains(theirs) {
            theirs
        } else {
            state.safe_moves(0).iter().next().unwrap_or(Direction::Up)
        };
        state.step(theirs, mine);
        rounds += 1;
    }
    assert!(rounds > 3);
}

#[test]
fn a_forced_move_is_answered_at_once() {
    // Player 0 in a one-cell-wide corridor: only down is safe.
    let state = TronState::from_diagram("#0#..\n#.#..\n#.#.1\n#.#..").unwrap();
    let input = settings(0, 5, 4) + &round(3, &state, 10_000);
    let (answers, stderr) = run_bot(&input, &[]);
    assert_eq!(answers, vec!["down"]);
    assert!(stderr.contains("forced"), "{stderr}");
}

#[test]
fn separated_riders_fill_their_space() {
    // A wall splits the board; player 0 must turn into the larger part: going up leads
    // into a dead end of 2 cells, going down into 8 cells.
    let state = TronState::from_diagram("..#...\n0.#...\n..#.1.\n..#...\n..#...").unwrap();
    let input = settings(0, 6, 5) + &round(5, &state, 10_000);
    let (answers, stderr) = run_bot(&input, &["--seed", "4"]);
    assert!(stderr.contains("fill length=9"), "{stderr}");
    let first = direction(&answers[0]);
    let mut after = state.clone();
    after.step(first, Direction::Up);
    assert_eq!(
        mctsbot::tron::endgame::longest_path_exact(&after, 0),
        8,
        "{first:?} wastes space"
    );
}

#[test]
fn without_the_endgame_separated_riders_are_searched() {
    let state = TronState::from_diagram("..#...\n0.#...\n..#.1.\n..#...\n..#...").unwrap();
    let input = settings(0, 6, 5) + &round(5, &state, 2_000);
    let (answers, stderr) = run_bot(&input, &["--seed", "4", "--no-endgame"]);
    assert_eq!(answers.len(), 1);
    assert!(!stderr.contains("fill length"), "{stderr}");
    assert!(stderr.contains("variant="), "{stderr}");
}

#[test]
fn a_boxed_in_rider_passes_rather_than_reversing() {
    // Player 0 has walls on every side: any direction crashes, a reversal would be an
    // illegal answer, so the bot says pass.
    let state = TronState::from_diagram("#x#..\n#0#..\n###.1\n.....").unwrap();
    let input = settings(0, 5, 4) + &round(6, &state, 10_000);
    let (answers, _) = run_bot(&input, &[]);
    assert_eq!(answers, vec!["pass"]);
}

#[test]
fn no_time_to_search_still_avoids_a_crash() {
    // Player 0 against the top wall: up crashes, the search gets no time at all.
    let state = TronState::from_diagram("...0....\n........\n......1.\n........").unwrap();
    for bank in [0, 1] {
        let input = settings(0, 8, 4) + &round(2, &state, bank);
        let (answers, stderr) = run_bot(&input, &[]);
        let answer = direction(&answers[0]);
        assert!(state.safe_moves(0).contains(answer), "{answer:?}: {stderr}");
    }
}

/// Plays two rounds as player 0 with `args`, the opponent taking `think_ms` before the
/// second; returns the second move's log line.
fn second_round_log(args: &[&str], think_ms: u64) -> String {
    use std::io::{BufRead, BufReader, Write};
    let mut child = bot_common::spawn_bot(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut state =
        TronState::from_diagram("..........\n..........\n..0....1..\n..........\n..........")
            .unwrap();
    write!(stdin, "{}{}", settings(0, 10, 5), round(0, &state, 2000)).unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    let mine = direction(answer.trim());
    std::thread::sleep(std::time::Duration::from_millis(think_ms));
    let theirs = state.safe_moves(1).iter().next().unwrap();
    state.step(mine, theirs);
    write!(stdin, "{}", round(1, &state, 2000)).unwrap();
    answer.clear();
    stdout.read_line(&mut answer).unwrap();
    drop(stdin);
    bot_common::second_move_line(child)
}

fn pondered(line: &str) -> u64 {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("pondered="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no pondered= in {line}"))
}

#[test]
fn pondering_searches_the_round_while_the_opponent_thinks() {
    let line = second_round_log(&["--seed", "3", "--ponder"], 300);
    assert!(pondered(&line) > 1000, "{line}");
    assert!(line.contains("reused=true"), "{line}");
    let line = second_round_log(&["--seed", "3"], 0);
    assert_eq!(pondered(&line), 0, "{line}");
}

#[test]
fn bench_playouts_prints_every_policy_on_each_board_the_seeds_size_and_a_game() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mctsbot"))
        .args([
            "bench",
            "--game",
            "tron",
            "--playouts",
            "--iterations",
            "300",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let positions: Vec<&str> = text
        .lines()
        .map(|line| {
            line.split("\"position\": \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
        })
        .collect();
    let mut expected = Vec::new();
    for policy in ["random", "safe", "ngram", "lgr", "lgrf", "ngram-lgr"] {
        for board in ["empty16", "round12", "empty13", "game13"] {
            expected.push(format!("{board}/{policy}"));
        }
    }
    assert_eq!(positions, expected);
    for line in text.lines() {
        assert!(line.contains("\"playouts_per_sec\": "), "{line}");
    }
    // A game's line counts the searches of both riders over the whole game: a twentieth
    // of the budget (15 iterations) for each rider in each round.
    let field = |line: &str, name: &str| -> u64 {
        let value = line.split(&format!("\"{name}\": ")).nth(1).unwrap();
        let value = value.trim_start_matches('"');
        value
            .split([',', ' ', '"'])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for line in text.lines().filter(|line| line.contains("game13/")) {
        let rounds: u64 = line
            .split(" after ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(rounds > 0, "{line}");
        assert_eq!(field(line, "iterations"), 2 * 15 * rounds, "{line}");
        assert!(field(line, "playouts") > 0, "{line}");
    }
}

#[test]
fn bench_searches_tron_battle_positions_exactly_n_nodes_each() {
    let run = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mctsbot"))
            .args(["bench", "--game", "tron-battle", "--iterations", "3000"])
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let text = run();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (line, riders) in lines.iter().zip(2..) {
        assert!(
            line.contains(&format!("\"position\": \"riders{riders}\"")),
            "{line}"
        );
        // A live rider with a choice: a real search, not a lost position's one node.
        assert!(line.contains("\"nodes\": 3000"), "{line}");
        assert!(!line.contains("-999999"), "{line}");
    }
    // Repeatable: the moves and scores are a signature of the search.
    let untimed = |t: &str| -> Vec<String> {
        t.split(", ")
            .filter(|field| !field.contains("ms\"") && !field.contains("_per_sec"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(untimed(&text), untimed(&run()));
}

#[test]
fn bench_evaluations_times_the_space_evaluation_on_alpha_betas_positions() {
    let run = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_mctsbot"))
            .args([
                "bench",
                "--game",
                "tron",
                "--evaluations",
                "--iterations",
                "1000",
            ])
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let text = run();
    let field = |line: &str, name: &str| -> String {
        let value = line.split(&format!("\"{name}\": ")).nth(1).unwrap();
        let value = value.trim_start_matches('"');
        value.split([',', '"', '}']).next().unwrap().to_string()
    };
    let positions: Vec<String> = text.lines().map(|l| field(l, "position")).collect();
    assert_eq!(positions, ["empty16/space", "round12/space"]);
    for line in text.lines() {
        // exactly the budget's alpha-beta nodes, and the evaluations timed in chunks of
        // 256 until the budget is reached
        assert_eq!(field(line, "iterations"), "1000", "{line}");
        assert!(field(line, "depth").parse::<u32>().unwrap() > 0, "{line}");
        let evaluations: u64 = field(line, "evaluations").parse().unwrap();
        assert!((1000..1000 + 256).contains(&evaluations), "{line}");
        assert!(line.contains("\"evaluations_per_sec\": "), "{line}");
        let best = field(line, "best");
        let (checksum, rest) = best.split_once(" over ").unwrap();
        assert_eq!(checksum.len(), 16, "{line}");
        let evaluated: u64 = rest.split(' ').next().unwrap().parse().unwrap();
        assert!(evaluated > 100, "{line}");
    }
    // the checksum of the evaluated positions depends on the evaluation alone
    let checksums =
        |text: &str| -> Vec<String> { text.lines().map(|l| field(l, "best")).collect() };
    assert_eq!(checksums(&text), checksums(&run()));
}
