//! `scripts/series_split.py --lines N`: a UTTT series' results by its opening lines, the
//! eight images of a line counted as one.

use std::path::PathBuf;
use std::process::Command;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/series_split.py");

/// A series folder with `games`, each (A's seat, winner, line), as the arena writes them.
fn series(test: &str, game: &str, games: &[(u8, &str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("series-split-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let settings =
        format!(r#"{{"settings": {{"game": "{game}", "name_a": "bot", "name_b": "them"}}}}"#);
    std::fs::write(dir.join("series.json"), settings).unwrap();
    let records: Vec<String> = games
        .iter()
        .enumerate()
        .map(|(index, (seat, winner, line))| {
            format!(
                r#"{{"index": {index}, "a_player": {seat}, "winner": "{winner}", "line": "{line}", "timeouts": {{"A": 0, "B": 0}}, "illegal": {{"A": 0, "B": 0}}, "crashes": {{"A": 0, "B": 0}}, "transcripts": {{"A": "none", "B": "none"}}}}"#
            )
        })
        .collect();
    std::fs::write(dir.join("games.jsonl"), records.join("\n") + "\n").unwrap();
    dir
}

fn split(args: &[&str]) -> (bool, String, String) {
    let out = Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 runs scripts/series_split.py (.ci/run installs it)");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn lines_count_a_lines_symmetric_images_as_one() {
    // Moving second: the same line seen through the identity, the diagonal reflection and
    // a half turn, then another line; moving first, one game.
    let dir = series(
        "images",
        "uttt-cg",
        &[
            (1, "B", "4,4 3,3 0,0 1,2 5,5"),
            (1, "B", "4,4 3,3 0,0 2,1 6,6"),
            (1, "draw", "4,4 5,5 8,8 6,7 3,3"),
            (1, "A", "4,4 3,3 0,0 2,2 7,7"),
            (0, "A", "4,4 3,5 0,8 2,6"),
        ],
    );
    let (ok, out, err) = split(&["--lines", "4", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "- A as player 1, by its first 4 plies (2 lines):\n  - 4,4 3,3 0,0 1,2: 0/1/2 (0.167"
        ),
        "{out}"
    );
    assert!(out.contains("  - 4,4 3,3 0,0 2,2: 1/0/0 (1.000"), "{out}");
    // 3,5 0,8 2,6 is 3,3 0,0 2,2 reflected left to right.
    assert!(
        out.contains(
            "- A as player 0, by its first 4 plies (1 lines):\n  - 4,4 3,3 0,0 2,2: 1/0/0"
        ),
        "{out}"
    );
    // Without --lines the report has no table.
    let (ok, out, _) = split(&[dir.to_str().unwrap()]);
    assert!(ok && !out.contains("by its first"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn lines_needs_a_count_and_a_uttt_series() {
    let dir = series("refusals", "uttt-cg", &[(0, "A", "4,4 3,3")]);
    let path = dir.to_str().unwrap();
    for bad in [
        vec!["--lines", path],
        vec!["--lines", "0", path],
        vec!["--lines", "4"],
    ] {
        let (ok, _, err) = split(&bad);
        assert!(!ok && err.contains("series_split.py:"), "{bad:?}: {err}");
    }
    let (ok, _, err) = split(&["--plies", "4", path]);
    assert!(!ok && err.contains("unknown option --plies"), "{err}");
    // A Light Riders series has no lines of cells to fold.
    let tron = series("tron", "tron", &[(0, "A", "")]);
    let (ok, out, err) = split(&["--lines", "4", tron.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("--lines: UTTT series only"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(tron);
}
