//! End-to-end UTTT matches between small shell bots, including misbehaving ones: each must
//! be recorded with the right faults and finish quickly.

mod arena_common;
use arena_common::{arena, bot, has};
use std::time::Duration;

const FAST: [&str; 4] = ["--timebank", "1000", "--time-per-move", "100"];

fn args(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = FAST.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn first_legal_bots_play_full_games_in_both_dialects() {
    for dialect in ["theaigames", "riddles"] {
        let run = arena(
            &format!("legal-{dialect}"),
            &args(&[
                "--games",
                "2",
                "-j",
                "2",
                "--seed",
                "1",
                "--dialect",
                dialect,
            ]),
            &bot("first_legal", ""),
            &bot("first_legal", ""),
        );
        has(&run.json, "\"games\": 2");
        // Deterministic bots: the first player wins both games, so the colours alternated.
        has(
            &run.json,
            "\"a_wins\": 1, \"b_wins\": 1, \"draws\": 0, \"score\": 0.5000",
        );
        has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}, \"crashes\": {\"A\": 0, \"B\": 0}");
        assert!(run.stdout.contains("uttt"), "{}", run.stdout);
        assert!(
            run.stderr.contains("game 2/2"),
            "progress lines: {}",
            run.stderr
        );
        let ids = if dialect == "riddles" {
            ("player0,player1", 0, '.')
        } else {
            ("player1,player2", 1, '0')
        };
        let t = run.transcript(0, "A");
        let head = format!(
            "> settings timebank 1000\n> settings time_per_move 100\n> settings player_names {}\n\
             > settings your_bot player{}\n> settings your_botid {}\n> update game round 1\n> update game move 1\n",
            ids.0, ids.1, ids.1
        );
        assert!(t.starts_with(&head), "{t}");
        assert!(t.contains(&format!(
            "> update game field {}",
            vec![ids.2.to_string(); 81].join(",")
        )));
        assert!(t.contains(
            "> action move 1000\n< place_move 0 0\n> update game round 2\n> update game move 3\n"
        ));
        let b = run.transcript(0, "B");
        assert!(
            b.contains("> update game round 1\n> update game move 2\n"),
            "{b}"
        );
        assert!(run.took < Duration::from_secs(10));
    }
}

#[test]
fn an_sprt_self_match_accepts_h0_and_stops() {
    // Deterministic twins: the first player wins every game, so every pair is 1-1 and the
    // test accepts H0 after 17 pairs (see the series' unit test for the arithmetic).
    let run = arena(
        "sprt",
        &args(&["--sprt", "elo0=0 elo1=50", "-j", "1", "--seed", "1"]),
        &bot("first_legal", ""),
        &bot("first_legal", ""),
    );
    has(&run.json, "\"games\": 34,");
    has(&run.json, "\"pentanomial\": [0, 0, 17, 0, 0]");
    has(&run.json, "\"state\": \"H0 accepted\"");
    assert!(
        run.stdout.contains("H0 accepted after 17 pairs"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("LLR") && run.stderr.contains("ETA"));
}

#[test]
fn games_start_from_the_openings_of_a_file() {
    let file = std::env::temp_dir().join(format!("arena-openings-{}.txt", std::process::id()));
    std::fs::write(&file, "# two openings\n4,4 4,3\n0,0 # a corner\n").unwrap();
    let run = arena(
        "openings",
        &args(&["--games", "4", "-j", "2", "--seed", "1", "--openings"])
            .into_iter()
            .chain([file.to_str().unwrap()])
            .collect::<Vec<_>>(),
        &bot("first_legal", ""),
        &bot("first_legal", ""),
    );
    let _ = std::fs::remove_file(&file);
    // Pair 0 (games 0 and 1) opens 4,4 4,3; pair 1 opens 0,0.
    has(
        &run.json,
        "\"index\": 1, \"map\": \"uttt\", \"a_player\": 1",
    );
    has(&run.json, "\"opening\": \"4,4 4,3\"");
    has(&run.json, "\"opening\": \"0,0\"");
    // The first bot to move in game 0 is asked at ply 3, after the two opening moves.
    let t = run.transcript(0, "A");
    assert!(t.contains("> update game move 3\n"), "{t}");
    assert!(!t.contains("> update game move 1\n"), "{t}");
    let field = t
        .lines()
        .find(|l| l.starts_with("> update game field"))
        .unwrap();
    let cells: Vec<&str> = field.rsplit(' ').next().unwrap().split(',').collect();
    // 4,4 is column 4 row 4 (player 1, the first mover, is 1 in the 2016 field), 4,3 is
    // column 4 row 3 (player 2).
    assert_eq!((cells[4 * 9 + 4], cells[3 * 9 + 4]), ("1", "2"), "{field}");
    has(&run.json, "\"openings\": ");
}

#[test]
fn sleeper_times_out_twice_and_loses() {
    let run = arena(
        "sleeper",
        &args(&["--seed", "2"]),
        &bot("first_legal", ""),
        &bot("sleeper", ""),
    );
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 2}");
    // The sleeper moves second: 1000 ms, then the repeat with the refilled 100 ms.
    assert!(run
        .transcript(0, "B")
        .contains("> action move 1000\n# no answer in time\n> action move 100\n"));
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn crasher_loses_at_once() {
    let run = arena(
        "crasher",
        &args(&["--seed", "3"]),
        &bot("crasher", ""),
        &bot("first_legal", ""),
    );
    has(&run.json, "\"winner\": \"B\"");
    has(&run.json, "\"crashes\": {\"A\": 1, \"B\": 0}");
    has(&run.json, "\"moves\": 0");
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn garbage_lines_are_illegal_answers() {
    let run = arena(
        "garbage",
        &args(&["--seed", "4"]),
        &bot("first_legal", ""),
        &bot("garbage", ""),
    );
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"illegal\": {\"A\": 0, \"B\": 2}");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 0}");
    let t = run.transcript(0, "B");
    assert!(
        t.contains("[line cut]") && t.contains("< place_move banana"),
        "{t}"
    );
    assert!(t.len() < 20_000, "the huge line is cut");
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn slow_answers_spend_the_timebank() {
    // 0.3 s per answer with a 1000 ms bank and 100 ms per move: the bank shrinks to about
    // 800, 600, 400, 200 and then the answers come late; the slow bot loses on time.
    let run = arena(
        "slow",
        &args(&["--seed", "5"]),
        &bot("first_legal", "0.3"),
        &bot("first_legal", ""),
    );
    has(&run.json, "\"winner\": \"B\"");
    let t = run.transcript(0, "A");
    let banks: Vec<u64> = t
        .lines()
        .filter_map(|l| l.strip_prefix("> action move "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(banks[0], 1000);
    assert!((700..=800).contains(&banks[1]), "{banks:?}");
    assert!(banks.windows(2).take(4).all(|w| w[1] < w[0]), "{banks:?}");
    has(&run.json, "\"timeouts\": {\"A\": 2, \"B\": 0}");
    assert!(run.took < Duration::from_secs(8), "{:?}", run.took);
}

/// Whether process `pid` is gone (or a zombie waiting for a reaper that is not ours to be).
/// Whether process `pid` is gone (or a zombie) within two seconds: SIGKILL sent to a
/// process group is delivered asynchronously, so a killed child may still show as running
/// for a moment after the arena returns.
fn is_dead(pid: &str) -> bool {
    (0..200).any(|_| {
        let dead = is_dead_now(pid);
        if !dead {
            std::thread::sleep(Duration::from_millis(10));
        }
        dead
    })
}

fn is_dead_now(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .trim_start()
        .chars()
        .next();
    matches!(state, None | Some('Z') | Some('X'))
}

fn pidfile(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("arena-test-{}-{name}.pid", std::process::id()))
}

#[test]
fn lingering_children_are_killed() {
    let pidfile = pidfile("spawner");
    let run = arena(
        "spawner",
        &args(&["--seed", "6"]),
        &bot("spawner", &pidfile.display().to_string()),
        &bot("first_legal", ""),
    );
    has(&run.json, "\"crashes\": {\"A\": 0, \"B\": 0}");
    has(&run.json, "\"winner\": \"A\"");
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    assert!(is_dead(&pid), "child {pid} still runs");
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn a_bot_that_exits_behind_a_child_holding_its_stdout_crashed() {
    let pidfile = pidfile("orphaner");
    let run = arena(
        "orphaner",
        &args(&["--seed", "7"]),
        &bot("first_legal", ""),
        &bot("orphaner", &pidfile.display().to_string()),
    );
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"crashes\": {\"A\": 0, \"B\": 1}");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 0}");
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    assert!(is_dead(&pid), "child {pid} still runs");
    assert!(run.took < Duration::from_secs(1), "{:?}", run.took);
}

#[test]
fn bad_options_are_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--games", "zero", "--", "a", "b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("invalid value 'zero' for '--games <N>'"),
        "{stderr}"
    );
}

#[test]
fn the_board_count_end_rule_decides_lineless_games() {
    // The same deterministic games under both rules: those that end without a line of
    // small boards are draws on TheAIGames and mostly won by the board count.
    let draws = |rule: &'static str| -> u64 {
        let run = arena(
            &format!("end-rule-{rule}"),
            &args(&[
                "--games",
                "40",
                "-j",
                "2",
                "--seed",
                "1",
                "--openings",
                "random:6",
                "--end-rule",
                rule,
            ]),
            &bot("first_legal", ""),
            &bot("first_legal", ""),
        );
        has(
            &run.json,
            &format!(
                "\"end_rule\": \"{}\"",
                if rule == "boards" {
                    "MoreBoards"
                } else {
                    "Draw"
                }
            ),
        );
        let after = run.json.split("\"draws\": ").nth(1).unwrap();
        after
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (under_draw, by_count) = (draws("draw"), draws("boards"));
    assert!(under_draw > 0, "no lineless game to decide");
    assert!(
        by_count < under_draw,
        "{by_count} draws by count, {under_draw} without"
    );
}
