//! Runs the `arena` binary against the shell bots in `tests/bots/` and reads its results.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// What one arena run left behind (not every test file reads every field).
#[allow(dead_code)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub json: String,
    pub dir: PathBuf,
    pub took: Duration,
}

#[allow(dead_code)]
impl Run {
    /// A transcript written by the run, e.g. `transcript(0, "B")`.
    pub fn transcript(&self, game: usize, side: &str) -> String {
        std::fs::read_to_string(
            self.dir
                .join(format!("transcripts/game_{game:04}_{side}.txt")),
        )
        .expect("transcript")
    }
}

/// `sh tests/bots/NAME.sh ARGS`, with an absolute path.
#[allow(dead_code)] // arena_upload.rs plays a built bot instead
pub fn bot(name: &str, args: &str) -> String {
    format!(
        "sh {}/tests/bots/{name}.sh {args}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs the arena with `args` and the two bot commands, writing into a fresh directory.
#[allow(dead_code)]
pub fn arena(test: &str, args: &[&str], a: &str, b: &str) -> Run {
    let dir = std::env::temp_dir().join(format!("arena-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .arg("--out")
        .arg(&dir)
        .args(["--", a, b])
        .output()
        .expect("run arena");
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "arena failed:\n{stdout}\n{stderr}");
    let json = std::fs::read_to_string(dir.join("results.json")).expect("results.json");
    Run {
        stdout,
        stderr,
        json,
        dir,
        took,
    }
}

/// Asserts that `json` contains `needle`, showing the JSON otherwise.
pub fn has(json: &str, needle: &str) {
    assert!(json.contains(needle), "{needle:?} not found in:\n{json}");
}
