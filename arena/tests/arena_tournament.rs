//! The arena as a testing tool: games recorded as they end, an interrupted series
//! resumed, time odds per engine, and gauntlets and round robins with a rating list.

mod arena_common;
use arena_common::{bot, has};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const FAST: [&str; 4] = ["--timebank", "1000", "--time-per-move", "100"];

fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-tour-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("run arena")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The games recorded in `dir/games.jsonl`, as JSON values.
fn recorded(dir: &Path) -> Vec<serde_json::Value> {
    read(&dir.join("games.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn an_interrupted_series_keeps_its_games_and_resume_adds_the_rest() {
    let dir = folder("resume");
    let out = dir.to_str().unwrap();
    let sleepy = bot("first_legal", "0.05");
    let first = bot("first_legal", "");
    let series = |games: &str, extra: &[&str]| {
        let mut args = FAST.to_vec();
        args.extend(["--games", games, "-j", "1", "--seed", "7", "--out", out]);
        args.extend_from_slice(extra);
        args.extend(["--", sleepy.as_str(), first.as_str()]);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    // Interrupted for real: killed once two games are recorded.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(series("6", &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = dir.join("games.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 2 {
        assert!(std::time::Instant::now() < deadline, "no games recorded");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = recorded(&dir);
    assert!((2..6).contains(&kept.len()), "{} games", kept.len());
    assert!(!dir.join("results.json").exists(), "the series did not end");
    for game in &kept {
        let moves = game["moves"].as_u64().unwrap() as usize;
        let line = game["line"].as_str().unwrap();
        assert_eq!(line.split(' ').count(), moves, "one move per ply: {line}");
        let index = game["index"].as_u64().unwrap();
        assert!(dir
            .join(format!("transcripts/game_{index:04}_A.txt"))
            .exists());
    }
    // The interrupted series is read as it stands.
    let merged = arena(&["merge", out]);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert!(text(&merged.stderr).contains(&format!("{} game(s)", kept.len())));
    // Started again without --resume: refused, nothing lost.
    let again = arena(
        &series("6", &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(again.status.code(), Some(2));
    assert!(
        text(&again.stderr).contains("--resume"),
        "{}",
        text(&again.stderr)
    );
    // Another series cannot resume it.
    let other = series("6", &["--resume", "--seed", "8"]);
    let other = arena(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(other.status.code(), Some(2));
    assert!(
        text(&other.stderr).contains("seed"),
        "{}",
        text(&other.stderr)
    );
    // Resumed (the seed read back from the folder): only the missing games are played.
    let mut resume = series("6", &["--resume"]);
    let seed_at = resume.iter().position(|a| a == "--seed").unwrap();
    resume.drain(seed_at..seed_at + 2);
    let resumed = arena(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = text(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{} game(s) recorded, {} to play",
            kept.len(),
            6 - kept.len()
        )),
        "{stderr}"
    );
    let all = recorded(&dir);
    assert_eq!(all.len(), 6);
    let mut indexes: Vec<u64> = all.iter().map(|g| g["index"].as_u64().unwrap()).collect();
    indexes.sort_unstable();
    assert_eq!(indexes, [0, 1, 2, 3, 4, 5]);
    for game in &kept {
        assert!(all.contains(game), "a kept game is unchanged");
    }
    let results = read(&dir.join("results.json"));
    has(&results, "\"games\": 6");
    // Deterministic bots: the first player wins, so every pair is 1-1.
    has(&results, "\"a_wins\": 3, \"b_wins\": 3");
    // --games may grow on resume.
    let mut more = resume.clone();
    let games_at = more.iter().position(|a| a == "--games").unwrap();
    more[games_at + 1] = "8".into();
    let grown = arena(&more.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(grown.status.success(), "{}", text(&grown.stderr));
    assert_eq!(recorded(&dir).len(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_with_time_odds_gets_its_own_clock() {
    let dir = folder("odds");
    let slow = format!("name=slow tc=3000+250 cmd={}", bot("first_legal", ""));
    let fast = format!("name=fast cmd={}", bot("first_legal", ""));
    let mut args = FAST.to_vec();
    args.extend([
        "--games",
        "2",
        "--seed",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    args.extend(["--engine", &slow, "--engine", &fast]);
    let run = arena(&args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let a = read(&dir.join("transcripts/game_0000_A.txt"));
    let b = read(&dir.join("transcripts/game_0000_B.txt"));
    assert!(a.starts_with("> settings timebank 3000\n> settings time_per_move 250\n"));
    assert!(b.starts_with("> settings timebank 1000\n> settings time_per_move 100\n"));
    assert!(a.contains("> action move 3000\n") && b.contains("> action move 1000\n"));
    let results = read(&dir.join("results.json"));
    has(
        &results,
        "\"timebank\": 3000, \"time_per_move\": 250, \"timebank_b\": 1000",
    );
    has(&results, "\"name_a\": \"slow\"");
    assert!(text(&run.stdout).contains("A = slow:"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three engines: two deterministic twins and one that crashes at once.
fn engines() -> Vec<String> {
    vec![
        format!("name=first cmd={}", bot("first_legal", "")),
        format!("name=twin cmd={}", bot("first_legal", "")),
        format!("name=crasher cmd={}", bot("crasher", "")),
    ]
}

fn tournament(kind: &str, dir: &Path, extra: &[&str]) -> Output {
    let engines = engines();
    let mut args = vec![kind];
    args.extend(FAST);
    args.extend(["--games", "4", "-j", "2", "--seed", "3"]);
    args.extend(["--out", dir.to_str().unwrap()]);
    args.extend_from_slice(extra);
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    arena(&args)
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_and_rates_them() {
    let dir = folder("gauntlet");
    let run = tournament("gauntlet", &dir, &[]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // Two pairings, each a series folder of its own.
    for pairing in ["01_first_vs_twin", "02_first_vs_crasher"] {
        has(
            &read(&dir.join(pairing).join("results.json")),
            "\"games\": 4",
        );
    }
    assert!(!dir.join("03_twin_vs_crasher").exists());
    let ratings: serde_json::Value =
        serde_json::from_str(&read(&dir.join("ratings.json"))).unwrap();
    assert_eq!(ratings["kind"], "gauntlet");
    let list = ratings["ratings"].as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[2], "crasher", "{names:?}");
    let first = list.iter().find(|r| r["name"] == "first").unwrap();
    assert_eq!(first["games"], 8);
    assert_eq!(
        first["points"], 6.0,
        "2 of 4 against its twin, 4 of 4 against the crasher"
    );
    assert!(
        stdout.contains("gauntlet of 3 engines, 8 games"),
        "{stdout}"
    );
    assert!(stdout.contains("LOS next"));
    assert_eq!(read(&dir.join("ratings.txt")).lines().count(), 4);
    // The report draws the list and every pairing.
    let report = dir.join("report");
    let drawn = arena(&[
        "report",
        "--out",
        report.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    let html = read(&report.join("index.html"));
    assert!(html.contains("ratings0.svg") && html.contains("01_first_vs_twin"));
    let svg = read(&report.join("ratings0.svg"));
    assert!(svg.contains("crasher") && svg.contains("twin"));
    // Resumed when complete: nothing is played again.
    let again = tournament("gauntlet", &dir, &["--resume"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("4 game(s) recorded, 0 to play"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_round_robin_plays_every_pair() {
    let dir = folder("robin");
    let run = tournament("round-robin", &dir, &[]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    for pairing in [
        "01_first_vs_twin",
        "02_first_vs_crasher",
        "03_twin_vs_crasher",
    ] {
        assert!(dir.join(pairing).join("results.json").exists(), "{pairing}");
    }
    let ratings = read(&dir.join("ratings.json"));
    has(&ratings, "\"kind\": \"round-robin\"");
    has(&ratings, "\"games\": 8");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn version_names_the_package() {
    let run = arena(&["--version"]);
    assert!(run.status.success());
    assert_eq!(
        text(&run.stdout),
        format!("arena {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn tournaments_and_engines_are_checked() {
    let two = engines()[..2].to_vec();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["gauntlet", "--engine", &two[0], "--engine", &two[1]],
            "at least three engines",
        ),
        (
            vec![
                "round-robin",
                "--sprt",
                "elo0=0 elo1=5",
                "--engine",
                &two[0],
                "--engine",
                &two[1],
                "--engine",
                &two[1],
            ],
            "--sprt and --shard",
        ),
        (
            vec!["--engine", "name=x", "--engine", &two[1]],
            "needs cmd=",
        ),
        (
            vec!["--engine", "name=x tc=5 cmd=y", "--engine", &two[1]],
            "BANK+INC",
        ),
        (
            vec!["--engine", "cmd=y", "--engine", &two[1]],
            "needs name=",
        ),
        (vec!["--engine", &two[0], "--", "a", "b"], "not both"),
        (vec!["--resume", "a", "b"], "--resume needs --out"),
        (
            vec!["--verbose", "a", "b"],
            "unexpected argument '--verbose' found",
        ),
        (
            vec!["--watch=1", "a", "b"],
            "unexpected value '1' for '--watch'",
        ),
    ];
    for (args, error) in cases {
        let run = arena(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert!(
            text(&run.stderr).contains(error),
            "{args:?}: {}",
            text(&run.stderr)
        );
    }
}

#[test]
fn a_series_folder_is_played_into_by_one_arena_at_a_time() {
    let dir = folder("lock");
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("arena.lock");
    let first = bot("first_legal", "");
    let series = |extra: &[&str]| {
        let mut args = FAST.to_vec();
        args.extend([
            "--games",
            "2",
            "--seed",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ]);
        args.extend_from_slice(extra);
        args.extend(["--", first.as_str(), first.as_str()]);
        arena(&args)
    };
    // --resume into a folder without a series starts it (scripts may always resume).
    let started = series(&["--resume"]);
    assert!(started.status.success(), "{}", text(&started.stderr));
    assert_eq!(recorded(&dir).len(), 2);
    std::fs::remove_file(dir.join("games.jsonl")).unwrap();
    std::fs::remove_file(dir.join("results.json")).unwrap();
    // A live process (this test) holds the folder: refused, nothing written.
    std::fs::write(&lock, std::process::id().to_string()).unwrap();
    let refused = series(&[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("another arena"),
        "{}",
        text(&refused.stderr)
    );
    assert!(!dir.join("games.jsonl").exists());
    // A lock left by an arena that is gone is taken over, and released at the end.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    std::fs::write(&lock, gone.id().to_string()).unwrap();
    let played = series(&[]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert_eq!(recorded(&dir).len(), 2);
    assert!(!lock.exists(), "released");
    // Refused settings release the folder too.
    let other = series(&["--resume", "--seed", "2"]);
    assert_eq!(other.status.code(), Some(2));
    assert!(!lock.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
