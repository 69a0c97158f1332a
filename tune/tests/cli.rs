//! Every tune tool answers --help and --version, and refuses an unknown flag the clap
//! way (exit 2, naming the flag): a misspelt flag is no longer skipped with its value.

use std::process::{Command, Output};

fn run(exe: &str, args: &[&str]) -> Output {
    Command::new(exe).args(args).output().unwrap()
}

fn check(exe: &str, args: &[&str], usage: &str) {
    let with = |extra: &[&str]| run(exe, &[args, extra].concat());
    let help = with(&["--help"]);
    let stdout = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.status.success() && stdout.contains(usage),
        "{args:?}: {stdout}"
    );
    let version = with(&["--version"]);
    assert!(String::from_utf8_lossy(&version.stdout).contains(env!("CARGO_PKG_VERSION")));
    let bad = with(&["--dpeth", "5"]);
    assert_eq!(bad.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("unexpected argument '--dpeth'"),
        "{args:?}: {err}"
    );
}

#[test]
fn every_tool_has_help_version_and_refuses_unknown_flags() {
    let eval = env!("CARGO_BIN_EXE_tune-eval");
    check(eval, &[], "Usage: tune-eval <COMMAND>");
    check(eval, &["cmaes"], "Usage: tune-eval cmaes");
    check(
        eval,
        &["match", "advanced", "simple"],
        "Usage: tune-eval match",
    );
    check(
        env!("CARGO_BIN_EXE_uttt-selfplay"),
        &[],
        "Usage: uttt-selfplay",
    );
    check(
        env!("CARGO_BIN_EXE_uttt-train"),
        &["games.txt"],
        "Usage: uttt-train",
    );
    let gate = env!("CARGO_BIN_EXE_uttt-gate");
    check(gate, &[], "Usage: uttt-gate <COMMAND>");
    check(gate, &["probe", "games.txt"], "Usage: uttt-gate probe");
    check(gate, &["eval", "probe.txt"], "Usage: uttt-gate eval");
    let fit = env!("CARGO_BIN_EXE_tron-fit");
    check(fit, &[], "Usage: tron-fit <COMMAND>");
    check(fit, &["play"], "Usage: tron-fit play");
    check(fit, &["fit", "positions.txt"], "Usage: tron-fit fit");
}

#[test]
fn tron_fit_plays_the_same_games_for_any_threads_and_fits_them() {
    let dir = scratch("tron");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let fit = env!("CARGO_BIN_EXE_tron-fit");
    let play = |threads: &str, out: &str| {
        let args = [
            "play",
            "--games",
            "6",
            "--iterations",
            "200",
            "--size",
            "10",
            "--seed",
            "4",
            "--threads",
            threads,
            "--out",
            out,
        ];
        let done = run(fit, &args);
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        let mut lines: Vec<String> = std::fs::read_to_string(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    let one = play("1", &path("one.txt"));
    assert_eq!(
        one,
        play("2", &path("two.txt")),
        "game g depends on the seed and g"
    );
    let games: std::collections::BTreeSet<&str> =
        one.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(games.len(), 6, "every game has positions");
    // Every position of a game carries the game's one result.
    for game in &games {
        let results: std::collections::BTreeSet<&str> = one
            .iter()
            .filter(|l| l.split(' ').next() == Some(game))
            .map(|l| l.split(' ').nth(1).unwrap())
            .collect();
        assert_eq!(results.len(), 1, "game {game}");
    }
    let fitted = run(fit, &["fit", &path("one.txt"), "--held-out-every", "3"]);
    assert!(
        fitted.status.success(),
        "{}",
        String::from_utf8_lossy(&fitted.stderr)
    );
    let table = String::from_utf8_lossy(&fitted.stdout);
    assert!(
        table.contains("| the default (11 a cell, 39 an edge) | 11.0000,39.0000,0.0000,0.0000 |"),
        "{table}"
    );
    assert!(
        table.contains("| fill, edge, territory, share |"),
        "{table}"
    );
    // A malformed line is refused with its place.
    std::fs::write(path("bad.txt"), "1 0.5 3 4\n").unwrap();
    let bad = run(fit, &["fit", &path("bad.txt")]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("bad.txt:1: 9 fields expected"));
}

/// A fresh temporary folder for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tune-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn self_play_probe_training_and_gate_run_end_to_end() {
    let dir = scratch("loop");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let ok = |exe: &str, args: &[&str]| {
        let out = run(exe, args);
        assert!(
            out.status.success(),
            "{exe} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let selfplay = env!("CARGO_BIN_EXE_uttt-selfplay");
    let common = ["--iterations", "300", "--threads", "2"];
    ok(
        selfplay,
        &[&common[..], &["--games", "6", "--out", &path("games.txt")]].concat(),
    );
    ok(
        selfplay,
        &[
            &common[..],
            &[
                "--games",
                "2",
                "--first-game",
                "100",
                "--out",
                &path("held.txt"),
            ],
        ]
        .concat(),
    );
    let games = std::fs::read_to_string(path("games.txt")).unwrap();
    assert_eq!(games.lines().count(), 6);
    assert!(games.lines().any(|l| l.starts_with("theaigames")));
    assert!(
        games.lines().any(|l| l.starts_with("codingame")),
        "--rule both alternates"
    );
    let gate = env!("CARGO_BIN_EXE_uttt-gate");
    ok(
        gate,
        &[
            "probe",
            &path("held.txt"),
            "--out",
            &path("probe.txt"),
            "--positions",
            "8",
            "--ranked",
            "3",
            "--iterations",
            "500",
            "--child-iterations",
            "100",
        ],
    );
    let probe = std::fs::read_to_string(path("probe.txt")).unwrap();
    assert_eq!(probe.lines().count(), 8);
    assert_eq!(
        probe.lines().filter(|l| l.contains(" off ")).count(),
        4,
        "half off the line"
    );
    let train = ok(
        env!("CARGO_BIN_EXE_uttt-train"),
        &[
            &path("games.txt"),
            "--out",
            &path("net.bin"),
            "--epochs",
            "2",
            "--validation",
            "0.2",
        ],
    );
    let log = String::from_utf8_lossy(&train.stderr);
    assert!(
        log.contains("epoch 2/2") && log.contains("quantised against float"),
        "{log}"
    );
    let eval = ok(
        gate,
        &[
            "eval",
            &path("probe.txt"),
            "--net",
            &path("net.bin"),
            "--playouts",
            "1,16",
        ],
    );
    let table = String::from_utf8_lossy(&eval.stdout);
    assert!(
        table.contains("16 play-outs") && table.contains("net.bin"),
        "{table}"
    );
    assert!(table.contains("gate: "), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn self_play_stops_on_ctrl_c_keeping_whole_records() {
    let dir = scratch("sigint");
    let out = dir.join("games.txt");
    let child = Command::new(env!("CARGO_BIN_EXE_uttt-selfplay"))
        .args([
            "--games",
            "100000",
            "--iterations",
            "200",
            "--threads",
            "1",
            "--out",
        ])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 2 {
        assert!(started.elapsed().as_secs() < 60, "no game in a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    assert!(
        err.contains("stopping after the games in flight") && err.contains("stopped early"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        tune::games::GameRecord::parse(line)
            .unwrap()
            .samples()
            .unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_values_are_refused() {
    let out = run(
        env!("CARGO_BIN_EXE_tune-eval"),
        &["match", "a", "b", "--plies", "4..30"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MAX < 20"));
    let out = run(env!("CARGO_BIN_EXE_uttt-selfplay"), &["--rule", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(env!("CARGO_BIN_EXE_uttt-train"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(env!("CARGO_BIN_EXE_uttt-train"), &["games.txt"]);
    assert_eq!(out.status.code(), Some(2), "--out is required");
    let out = run(env!("CARGO_BIN_EXE_uttt-selfplay"), &["--off-line", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        env!("CARGO_BIN_EXE_uttt-selfplay"),
        &["--teacher", "blend:1.5"],
    );
    assert_eq!(out.status.code(), Some(2));
}

/// `--teacher` picks the search that labels the games: the network search's values are
/// not the play-out search's, on the same seeded games.
#[test]
fn the_teacher_can_be_the_network_search() {
    let game = |teacher: &str| {
        let out = run(
            env!("CARGO_BIN_EXE_uttt-selfplay"),
            &[
                "--games",
                "1",
                "--iterations",
                "300",
                "--seed",
                "5",
                "--teacher",
                teacher,
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = String::from_utf8(out.stdout).unwrap();
        tune::games::GameRecord::parse(line.trim()).expect("a record")
    };
    let (playout, blend, nn) = (game("playout"), game("blend:0.5"), game("nn"));
    assert_eq!(playout, game("playout"), "a game depends on its seed alone");
    assert_ne!(playout.values, blend.values);
    assert_ne!(blend.values, nn.values);
}

/// `scripts/uttt_generation.py` with the tools of this build (`--bin`): its flags, and the
/// self-play and training steps on a few games, resumed without playing them again.
#[test]
fn the_generation_script_plays_trains_and_resumes() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/uttt_generation.py");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_uttt-train"))
        .parent()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let generation = |args: &[&str]| Command::new("python3").arg(script).args(args).output();
    let Ok(help) = generation(&["--help"]) else {
        panic!("python3 runs the generation script (.ci/run installs it)");
    };
    assert!(String::from_utf8_lossy(&help.stdout).contains("--stop-after"));
    let bad = generation(&["--dir", "x", "--dpeth", "5"]).unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--dpeth"));
    let inside = generation(&["--dir", env!("CARGO_MANIFEST_DIR")]).unwrap();
    assert!(String::from_utf8_lossy(&inside.stderr).contains("outside the repository"));

    let dir = scratch("generation");
    let gen = dir.join("gen").to_str().unwrap().to_string();
    let init = dir.join("init.bin");
    // A random network of this build's width to start from (the embedded one may be
    // another width in a build that tries one).
    let games = dir.join("seed_games.txt");
    let out = run(
        env!("CARGO_BIN_EXE_uttt-selfplay"),
        &[
            "--games",
            "2",
            "--iterations",
            "50",
            "--out",
            games.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    let out = run(
        env!("CARGO_BIN_EXE_uttt-train"),
        &[
            games.to_str().unwrap(),
            "--epochs",
            "1",
            "--out",
            init.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let args = [
        "--dir",
        &gen,
        "--bin",
        &bin,
        "--games",
        "4",
        "--shards",
        "2",
        "--iterations",
        "50",
        "--epochs",
        "1",
        "--init",
        init.to_str().unwrap(),
        "--stop-after",
        "train",
    ];
    let first = generation(&args).unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let shard =
        |k: usize| std::fs::read_to_string(dir.join(format!("gen/games/shard_{k}.txt"))).unwrap();
    assert_eq!((shard(0).lines().count(), shard(1).lines().count()), (2, 2));
    let net = std::fs::read(dir.join("gen/net.bin")).unwrap();
    assert!(mctsbot::uttt::nn::QuantizedNet::from_bytes_any_width(&net).is_some());
    // Run again: every step's output is there, so nothing is played or trained again.
    let (before, stamp) = (
        shard(0),
        std::fs::metadata(dir.join("gen/net.bin"))
            .unwrap()
            .modified()
            .unwrap(),
    );
    let again = generation(&args).unwrap();
    assert!(again.status.success());
    assert_eq!(shard(0), before);
    assert_eq!(
        std::fs::metadata(dir.join("gen/net.bin"))
            .unwrap()
            .modified()
            .unwrap(),
        stamp
    );
    let _ = std::fs::remove_dir_all(&dir);
}
