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
}
