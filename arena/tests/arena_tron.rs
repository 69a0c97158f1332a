//! End-to-end Light Riders matches between small shell bots.

mod arena_common;
use arena_common::{arena, bot, has, lacks};
use std::time::Duration;

const FAST: [&str; 6] = [
    "--game",
    "tron",
    "--timebank",
    "1000",
    "--time-per-move",
    "100",
];

fn args(extra: &[&'static str]) -> Vec<&'static str> {
    let mut v = FAST.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn riders_play_each_map_from_both_starts() {
    let run = arena(
        "riders",
        &args(&[
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            "7",
            "--map",
            "empty6,pillars13",
        ]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"games\": 4");
    has(&run.json, "\"map\": \"empty6\", \"a_player\": 0");
    has(&run.json, "\"map\": \"empty6\", \"a_player\": 1");
    has(&run.json, "\"map\": \"pillars13\", \"a_player\": 0");
    has(&run.json, "\"map\": \"pillars13\", \"a_player\": 1");
    let results: serde_json::Value = serde_json::from_str(&run.json).unwrap();
    assert_eq!(results["summary"]["illegal"]["A"], 0, "{}", run.json);
    assert_eq!(results["summary"]["timeouts"]["A"], 0, "{}", run.json);
    assert!(
        run.stdout.contains("empty6") && run.stdout.contains("all"),
        "{}",
        run.stdout
    );
    let t = run.transcript(0, "A");
    assert!(
        t.starts_with(
            "> settings player_names player0,player1\n> settings your_bot player0\n\
             > settings timebank 1000\n> settings time_per_move 100\n> settings your_botid 0\n\
             > settings field_width 6\n> settings field_height 6\n> update game round 0\n\
             > update game field 0,.,.,"
        ),
        "{t}"
    );
    assert!(
        t.contains("> action move 1000\n< right\n> update game round 1\n> update game field x,0,"),
        "{t}"
    );
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
}

#[test]
fn default_board_uses_the_riddles_starts() {
    let run = arena(
        "default",
        &args(&["--seed", "8"]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"map\": \"empty16x16\"");
    let t = run.transcript(0, "A");
    assert!(t.contains("> settings field_width 16\n> settings field_height 16\n"));
    let field = t
        .lines()
        .find_map(|l| l.strip_prefix("> update game field "))
        .unwrap();
    let cells: Vec<&str> = field.split(',').collect();
    assert_eq!(cells.len(), 256);
    let p0 = cells.iter().position(|c| *c == "0").unwrap();
    let p1 = cells.iter().position(|c| *c == "1").unwrap();
    let (x, y) = (p0 % 16, p0 / 16);
    assert!((1..=6).contains(&x) && (1..=14).contains(&y));
    assert_eq!(p1, y * 16 + 15 - x, "player 1 mirrors player 0");
}

#[test]
fn silent_rider_keeps_its_direction_and_times_out() {
    // On the 6x6 board the sleeper starts in a corner facing the other side and runs
    // straight on; every round is a timeout, and the game must still end at once.
    let run = arena(
        "silent",
        &args(&["--seed", "9", "--map", "empty6"]),
        &bot("rider", ""),
        &bot("sleeper", ""),
    );
    has(&run.json, "\"crashes\": {\"A\": 0, \"B\": 0}");
    lacks(&run.json, "\"winner\": \"B\"");
    lacks(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 0}");
    // It ran into a wall with moves to its sides: its timeouts are real ones.
    assert!(!run.transcript(0, "B").contains("no move left"));
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn a_rider_silent_with_no_move_left_is_noted() {
    // Boxed in, the quiet rider answers nothing: a timeout, as the engine counts it, and a
    // note that every move crashed, so that a series can leave out only the real ones.
    let run = arena(
        "boxed",
        &args(&["--games", "2", "--seed", "9", "--map", "rooms16"]),
        &bot("rider", "quiet-boxed"),
        &bot("rider", ""),
    );
    let quiet = [run.transcript(0, "A"), run.transcript(1, "A")].concat();
    assert!(
        quiet.contains("# no answer in time\n# no move left: every move crashed\n"),
        "{quiet}"
    );
    let answering = [run.transcript(0, "B"), run.transcript(1, "B")].concat();
    assert!(!answering.contains("# no"), "{answering}");
}

#[test]
fn garbage_and_crashes_keep_the_direction() {
    let run = arena(
        "tgarbage",
        &args(&["--seed", "10", "--map", "empty6"]),
        &bot("rider", ""),
        &bot("garbage", ""),
    );
    lacks(&run.json, "\"illegal\": {\"A\": 0, \"B\": 0}");
    assert!(run.transcript(0, "B").contains("[line cut]"));
    let run = arena(
        "tcrash",
        &args(&["--seed", "11", "--map", "rooms16"]),
        &bot("crasher", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"crashes\": {\"A\": 1, \"B\": 0}");
    has(&run.json, "\"winner\": \"B\"");
    assert!(run.took < Duration::from_secs(3), "{:?}", run.took);
}

#[test]
fn max_rounds_is_a_draw() {
    let run = arena(
        "cap",
        &args(&["--seed", "12", "--max-rounds", "2"]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"winner\": \"draw\"");
    has(&run.json, "\"moves\": 2");
}

/// The cells of the first field a transcript shows, and the round it is shown in.
fn first_field(transcript: &str) -> (String, Vec<String>) {
    let round = transcript
        .lines()
        .find_map(|l| l.strip_prefix("> update game round "))
        .unwrap()
        .to_string();
    let field = transcript
        .lines()
        .find_map(|l| l.strip_prefix("> update game field "))
        .unwrap();
    (round, field.split(',').map(String::from).collect())
}

#[test]
fn openings_set_the_starts_and_the_map() {
    let dir = std::env::temp_dir().join(format!("arena-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lines.txt");
    std::fs::write(
        &file,
        "# start= on the series' board, then a map of its own\nstart=2,5 rl\nmap=rooms16 start=1,1\n",
    )
    .unwrap();
    let mut flags = args(&[
        "--games",
        "4",
        "-j",
        "2",
        "--seed",
        "3",
        "--max-rounds",
        "4",
    ]);
    flags.extend(["--openings", file.to_str().unwrap()]);
    let run = arena(
        "openings-start",
        &flags,
        &bot("rider", ""),
        &bot("rider", ""),
    );
    // Pair 0 on the riddles board from (2, 5) and (13, 5), after the round `rl`: the bots
    // first see round 1, trails where the riders started.
    for (game, side) in [(0, "A"), (1, "B")] {
        let (round, cells) = first_field(&run.transcript(game, side));
        assert_eq!(round, "1");
        assert_eq!(cells.len(), 256);
        let at = |x: usize, y: usize| cells[y * 16 + x].as_str();
        assert_eq!(
            [at(2, 5), at(3, 5), at(13, 5), at(12, 5)],
            ["x", "0", "x", "1"]
        );
        assert_eq!(cells.iter().filter(|c| *c == "x").count(), 2);
    }
    // Pair 1 on rooms16, whatever the series' map, from (1, 1) and its mirror (14, 1).
    for game in [2, 3] {
        let (round, cells) = first_field(&run.transcript(game, "A"));
        assert_eq!(round, "0");
        assert_eq!(
            (cells[16 + 1].as_str(), cells[16 + 14].as_str()),
            ("0", "1")
        );
        // rooms16's walls: row 2 is `..####....####..`.
        assert_eq!(cells[2 * 16 + 2], "x");
    }
    has(&run.json, "\"opening\": \"start=2,5 rl\"");
    has(&run.json, "\"opening\": \"map=rooms16 start=1,1\"");
    for player in [0, 1] {
        has(
            &run.json,
            &format!("\"map\": \"rooms16\", \"a_player\": {player}"),
        );
        has(
            &run.json,
            &format!("\"map\": \"empty16x16\", \"a_player\": {player}"),
        );
    }
}

#[test]
fn the_shipped_suite_is_found_by_name() {
    let run = arena(
        "openings-suite",
        &args(&[
            "--games",
            "2",
            "--seed",
            "4",
            "--max-rounds",
            "2",
            "--openings",
            "lightriders_balanced",
        ]),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"openings\": \"lightriders_balanced\"");
    has(&run.json, "\"opening\": \"map=");
}

#[test]
fn a_suite_of_the_other_game_is_refused() {
    let refused = |game: &str, suite: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["--game", game, "--openings", suite, "--", "true", "true"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let err = refused("tron", "uttt_balanced");
    assert!(err.contains("is a UTTT line"), "{err}");
    let err = refused("uttt", "lightriders_balanced");
    assert!(err.contains("is a Light Riders line"), "{err}");
}

#[test]
fn the_generator_prints_lines_the_arena_plays() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["openings", "--game", "tron", "--map", "empty16x16,gate16"])
        .args([
            "--count", "3", "--ms", "10", "--within", "0.2", "--seed", "2",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        text.starts_with("# Balanced Light Riders openings"),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("map=gate16 #")),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("arena-generated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("suite.txt");
    std::fs::write(&file, &text).unwrap();
    let file = file.to_str().unwrap().to_string();
    let run = arena(
        "openings-generated",
        &[
            &args(&[
                "--games",
                "6",
                "-j",
                "2",
                "--seed",
                "5",
                "--max-rounds",
                "2",
            ])[..],
            &["--openings", file.as_str()],
        ]
        .concat(),
        &bot("rider", ""),
        &bot("rider", ""),
    );
    has(&run.json, "\"map\": \"gate16\"");
    // Unknown flags and --plies are refused, --help answers.
    let status = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("openings")
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(status(&["--bogus", "1"]), Some(2));
    assert_eq!(status(&["--game", "tron", "--plies", "2..3"]), Some(2));
    assert_eq!(status(&["--map", "rooms16"]), Some(2));
    assert_eq!(status(&["--help"]), Some(0));
}
