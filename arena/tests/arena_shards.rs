//! A series split into shards and merged again, through the binary and through
//! `scripts/sharded.sh` (GNU parallel), must be the series played whole.

mod arena_common;
use arena_common::{arena, bot, has};
use std::process::Command;

const SERIES: [&str; 10] = [
    "--games",
    "10",
    "--seed",
    "3",
    "-j",
    "2",
    "--timebank",
    "1000",
    "--time-per-move",
    "100",
];

/// The games of a `results.json` without what is measured rather than played (time,
/// memory).
fn games(json: &str) -> Vec<serde_json::Value> {
    let results: serde_json::Value = serde_json::from_str(json).expect("results.json");
    let mut games = results["games"].as_array().expect("games").clone();
    for game in &mut games {
        let game = game.as_object_mut().unwrap();
        for key in ["wall_ms", "time_ms", "time_us", "peak_rss_kib"] {
            game.remove(key);
        }
    }
    games
}

fn out_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-shards-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_sharded_script_merges_into_the_whole_series() {
    let whole = arena(
        "whole",
        &SERIES,
        &bot("first_legal", ""),
        &bot("first_legal", ""),
    );
    let out = out_dir("script");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/sharded.sh");
    let output = Command::new("bash")
        .env("ARENA", env!("CARGO_BIN_EXE_arena"))
        .arg(script)
        .args(["-n", "3", "-j", "2", "-o"])
        .arg(&out)
        .arg("--")
        .args(SERIES)
        .args(["--", &bot("first_legal", ""), &bot("first_legal", "")])
        .output()
        .expect("run scripts/sharded.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let merged = std::fs::read_to_string(out.join("merged/results.json")).unwrap();
    assert_eq!(games(&merged).len(), 10);
    assert_eq!(games(&merged), games(&whole.json));
    has(&merged, "\"pentanomial\": [0, 0, 5, 0, 0]");
    assert!(stdout.contains("pairs 5:"), "{stdout}");
    assert!(out.join("merged/transcripts/game_0009_B.txt").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn merge_refuses_what_is_not_one_series() {
    let merge = |dirs: &[&std::path::Path]| {
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("merge")
            .args(dirs)
            .output()
            .unwrap()
    };
    let missing = out_dir("missing");
    let output = merge(&[&missing]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read"));
    let run = arena(
        "one-shard",
        &[&SERIES[..], &["--shard", "1/2"]].concat(),
        &bot("first_legal", ""),
        &bot("first_legal", ""),
    );
    has(&run.json, "\"shard\": \"1/2\"");
    let output = merge(&[&run.dir, &run.dir]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("two shards"));
}
