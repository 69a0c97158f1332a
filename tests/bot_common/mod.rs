//! Shared by the bot integration tests: running the `mctsbot` binary on an input.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the bot on `input` with `args`; returns (stdout lines, stderr). Asserts it exits 0.
pub fn run_bot(input: &str, args: &[&str]) -> (Vec<String>, String) {
    let mut child = spawn_bot(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "exit status {:?}", output.status);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (stdout.lines().map(str::to_owned).collect(), stderr)
}

/// Starts `mctsbot ARGS` with piped stdin, stdout and stderr and info logs.
#[allow(dead_code)]
pub fn spawn_bot(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_mctsbot"))
        .args(args)
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mctsbot")
}

/// Waits for a bot whose stdin is closed and returns its log line for our second move.
#[allow(dead_code)]
pub fn second_move_line(child: std::process::Child) -> String {
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    stderr
        .lines()
        .find(|l| l.contains("move=2 "))
        .unwrap_or_else(|| panic!("no second move in {stderr}"))
        .to_owned()
}
