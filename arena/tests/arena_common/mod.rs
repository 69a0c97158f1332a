//! Runs the `arena` binary against the shell bots in `tests/bots/` and reads its results.

use std::path::PathBuf;
use std::process::{Command, Output};
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
    arena_engines(test, args, &[a, b])
}

/// [`arena`] with any number of bot commands (a free-for-all's).
#[allow(dead_code)]
pub fn arena_engines(test: &str, args: &[&str], commands: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("arena-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    play_into(dir, args, commands)
}

/// Runs the arena into `dir` as it stands (so that `--resume` finds its games).
#[allow(dead_code)]
pub fn play_into(dir: PathBuf, args: &[&str], commands: &[&str]) -> Run {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .arg("--out")
        .arg(&dir)
        .arg("--")
        .args(commands)
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

/// Asserts that `json` (a JSON file, or JSON lines) contains `needle`: as text, or as
/// fields `"key": value, ...` of one of its objects, compared as JSON values (so the
/// layout and `0.5000` against `0.5` do not matter). Shows the JSON otherwise.
#[allow(dead_code)] // not every test file reads JSON this way
pub fn has(json: &str, needle: &str) {
    assert!(found(json, needle), "{needle:?} not found in:\n{json}");
}

/// Asserts that `json` does not contain `needle`, as [`has`] reads it.
#[allow(dead_code)]
pub fn lacks(json: &str, needle: &str) {
    assert!(!found(json, needle), "{needle:?} found in:\n{json}");
}

fn found(json: &str, needle: &str) -> bool {
    let fields = serde_json::from_str::<serde_json::Value>(&format!(
        "{{{}}}",
        needle.trim().trim_end_matches(',')
    ));
    let docs: Vec<serde_json::Value> = serde_json::from_str(json)
        .map(|doc| vec![doc])
        .unwrap_or_else(|_| {
            json.lines()
                .filter_map(|line| serde_json::from_str(line).ok())
                .collect()
        });
    json.contains(needle)
        || matches!(&fields, Ok(serde_json::Value::Object(f)) if docs.iter().any(|d| holds(d, f)))
}

/// Whether `value` or any value inside it is an object with all of `fields`.
fn holds(value: &serde_json::Value, fields: &serde_json::Map<String, serde_json::Value>) -> bool {
    use serde_json::Value;
    let same = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    match value {
        Value::Object(object) => {
            fields
                .iter()
                .all(|(k, v)| object.get(k).is_some_and(|o| same(o, v)))
                || object.values().any(|v| holds(v, fields))
        }
        Value::Array(items) => items.iter().any(|v| holds(v, fields)),
        _ => false,
    }
}

/// `arena replay ARGS`, as it ran.
#[allow(dead_code)] // for the replay tests
pub fn replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("replay")
        .args(args)
        .output()
        .expect("run arena replay")
}

/// The stdout of a run that must have succeeded (its stderr shown if it did not).
#[allow(dead_code)] // for the replay tests
pub fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "replay failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
