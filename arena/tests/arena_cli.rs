//! Every arena tool answers --help and --version, and refuses an unknown flag the clap
//! way (exit 2, naming the flag) instead of skipping it.

use std::process::{Command, Output};

fn run(exe: &str, args: &[&str]) -> Output {
    Command::new(exe).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn check(exe: &str, sub: &[&str], usage: &str) {
    let with = |extra: &[&str]| run(exe, &[sub, extra].concat());
    let help = with(&["--help"]);
    assert!(help.status.success(), "{sub:?}");
    assert!(
        text(&help.stdout).contains(usage),
        "{sub:?}: {}",
        text(&help.stdout)
    );
    let version = with(&["--version"]);
    assert!(version.status.success(), "{sub:?}");
    assert!(text(&version.stdout).contains(env!("CARGO_PKG_VERSION")));
    let bad = with(&["--no-such-flag", "1"]);
    assert_eq!(bad.status.code(), Some(2), "{sub:?}");
    let err = text(&bad.stderr);
    assert!(
        err.contains("unexpected argument '--no-such-flag'"),
        "{sub:?}: {err}"
    );
}

#[test]
fn every_tool_has_help_version_and_refuses_unknown_flags() {
    let arena = env!("CARGO_BIN_EXE_arena");
    check(arena, &[], "Usage: arena --game");
    for sub in [
        "merge",
        "report",
        "openings",
        "replay",
        "gauntlet",
        "round-robin",
    ] {
        check(arena, &[sub], &format!("Usage: arena {sub}"));
    }
    check(env!("CARGO_BIN_EXE_cg-bundle"), &[], "Usage: cg-bundle");
}

#[test]
fn the_help_keeps_the_notes_on_records_and_placeholders() {
    let help = text(&run(env!("CARGO_BIN_EXE_arena"), &["--help"]).stdout);
    for note in [
        "{seed} becomes a per-game seed",
        "--resume` continues it",
        "--engine <SPEC>",
        "arena --game tron-cg --ffa",
        "--ffa",
        "mean place",
    ] {
        assert!(help.contains(note), "{note}: {help}");
    }
}

#[test]
fn checks_after_parsing_answer_like_clap() {
    let out = run(env!("CARGO_BIN_EXE_arena"), &["--riders", "5", "a", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("error: --riders: 2 to 4") && err.contains("Usage: arena"),
        "{err}"
    );
    let out = run(env!("CARGO_BIN_EXE_arena"), &["gauntlet", "a", "b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Usage: arena gauntlet"),
        "{}",
        text(&out.stderr)
    );
    // Free-for-all combinations that cannot be played.
    for (args, message) in [
        (
            &["--game", "tron-cg", "--ffa", "a", "b", "c", "d", "e"][..],
            "--ffa plays 2 to 4 engines, got 5",
        ),
        (
            &["--game", "uttt", "--ffa", "a", "b", "c"],
            "--ffa is for --game tron-cg",
        ),
        (
            &["--game", "tron-cg", "--riders", "3", "a", "b", "c"],
            "need two bot commands, got 3",
        ),
        (
            &["gauntlet", "--game", "tron-cg", "--ffa", "a", "b", "c"],
            "--ffa is for a series",
        ),
    ] {
        let out = run(env!("CARGO_BIN_EXE_arena"), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains(message) && err.contains("Usage: arena"),
            "{args:?}: {err}"
        );
    }
    let out = run(env!("CARGO_BIN_EXE_arena"), &["gauntlet", "--help"]);
    assert!(text(&out.stdout).contains("A series only"));
    let out = run(env!("CARGO_BIN_EXE_cg-bundle"), &["--game", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid value 'chess' for '--game"));
    // The one-file build searches the network alone or play-outs alone: no blend.
    let out = run(
        env!("CARGO_BIN_EXE_cg-bundle"),
        &["--uttt-eval", "blend:0.3"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nn or playout"));
    let out = run(
        env!("CARGO_BIN_EXE_cg-bundle"),
        &["--game", "tron", "--uttt-eval", "nn"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("the Tron Battle bundle has no value network"));
}
