//! `arena replay` on UTTT games the arena has just recorded between two copies of the
//! real bot (`mctsbot`), under the engines' rules (`--game uttt`, with an opening) and
//! CodinGame's (`--game uttt-cg`).

mod arena_common;
use arena_common::{arena, has, replay, stdout, Run};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The bot, built by cargo beside this test (`target/<profile>/mctsbot`): `cargo test
/// --workspace` builds it for the bot's own tests; `cargo test -p arena` does not, so it is
/// built here (once; nothing is done when it is up to date).
fn mctsbot() -> &'static str {
    static BOT: OnceLock<String> = OnceLock::new();
    BOT.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test's path");
        let profile_dir = exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target/<profile>");
        let target = profile_dir.parent().expect("target");
        let built = Command::new(env!("CARGO"))
            .args([
                "build", "--quiet", "--locked", "-p", "mctsbot", "--bin", "mctsbot",
            ])
            .args(["--profile", "test", "--target-dir"])
            .arg(target)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .expect("run cargo build");
        assert!(
            built.status.success(),
            "building mctsbot failed:\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let bot: PathBuf = profile_dir.join("mctsbot");
        assert!(bot.is_file(), "{} is missing", bot.display());
        bot.display().to_string()
    })
}

/// `games` games of the bot against itself under `referee` and `extra` settings.
fn series(test: &str, referee: &str, games: &str, extra: &[&str], bot_flags: &str) -> Run {
    let args = [
        &[
            "--game", referee, "--games", games, "-j", "1", "--seed", "5",
        ][..],
        extra,
    ]
    .concat();
    let bot = format!("{} --seed {{seed}} {bot_flags}", mctsbot());
    arena(test, &args, &bot, &bot)
}

/// One game's rows in the replay's output: (the ply's line, its words), the ply number
/// first, in the order printed.
fn rows(text: &str, game: usize) -> Vec<(String, Vec<String>)> {
    let start = text
        .find(&format!("\ngame {game}, "))
        .unwrap_or_else(|| panic!("game {game} is not replayed:\n{text}"));
    text[start + 1..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("game "))
        .filter(|l| {
            l.contains('|')
                && l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .map(|l| {
            let words = l.split_whitespace().map(str::to_string).collect();
            (l.to_string(), words)
        })
        .collect()
}

/// A game of `games.jsonl`.
fn record(run: &Run, game: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(run.dir.join("games.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|g| g["index"] == game)
        .expect("the game's record")
}

/// `key=value` of a log line.
fn logged<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// Checks game `game` of the replay's output against its record and side `side`'s log:
/// every ply listed with the move played, the side's logged values on its plies (its K-th
/// log line on its K-th ply after the opening), the flags on listed plies of the side.
fn check_game(run: &Run, text: &str, game: usize, side: &str, request_key: &str, row_first: bool) {
    let record = record(run, game);
    let line: Vec<&str> = record["line"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect();
    let opening = record["opening"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .count();
    let rows = rows(text, game);
    assert_eq!(rows.len(), line.len(), "one row per ply:\n{text}");
    let stderr =
        std::fs::read_to_string(run.dir.join(format!("stderr/game_{game:04}_{side}.txt"))).unwrap();
    let logs: Vec<&str> = stderr
        .lines()
        .filter(|l| logged(l, request_key).is_some())
        .collect();
    assert!(!logs.is_empty(), "the bot logs its moves:\n{stderr}");
    let mut request = 0;
    let mut logged_values = 0;
    for (k, (row, words)) in rows.iter().enumerate() {
        assert_eq!(words[0], (k + 1).to_string(), "{row}");
        let played = words[3].trim_end_matches('o');
        assert_eq!(played, line[k], "{row}");
        assert_eq!(words[3].ends_with('o'), k < opening, "{row}");
        if words[1] != side || k < opening {
            continue;
        }
        // The side's ply: its request number, its log line, the long search's columns.
        request += 1;
        let columns: Vec<&str> = row.split('|').collect();
        let bot: Vec<&str> = columns[1].split_whitespace().collect();
        let long: Vec<&str> = columns[2].split_whitespace().collect();
        assert_eq!(long.len(), 5, "best, value, played, gap, loss: {row}");
        let value: f32 = long[1].parse().unwrap();
        assert!((0.0..=1.0).contains(&value), "{row}");
        let Some(log) = logs
            .iter()
            .find(|l| logged(l, request_key) == Some(&request.to_string()))
        else {
            // On CodinGame the bot answers a single valid action at once, unlogged.
            assert_eq!(bot, ["-", "-", "-"], "no log line {request} for {row}");
            continue;
        };
        let chosen = logged(log, "chosen").unwrap();
        let chosen = if row_first {
            let (r, c) = chosen.split_once(',').unwrap();
            format!("{c},{r}")
        } else {
            chosen.to_string()
        };
        assert_eq!(bot[0].trim_end_matches('!'), chosen, "{row}\n{log}");
        assert_eq!(
            chosen, line[k],
            "the bot played its logged choice: {row}\n{log}"
        );
        if logged(log, "visits") != Some("0") {
            assert_eq!(bot[1], logged(log, "value").unwrap(), "{row}\n{log}");
            logged_values += 1;
        }
    }
    assert!(request > 0 && logged_values > 0, "{text}");
    // Flags only on the side's listed plies; the largest gap and loss are described.
    for (row, words) in &rows {
        if words
            .iter()
            .any(|w| w.starts_with('g') || w.starts_with('l'))
        {
            assert_eq!(words[1], side, "a flag on the side's ply: {row}");
        }
    }
    for flag in ["g1", "l1"] {
        let flagged = rows
            .iter()
            .filter(|(_, w)| w.iter().any(|x| x == flag))
            .count();
        assert!(flagged <= 1, "{flag} once:\n{text}");
        if let Some((_, words)) = rows.iter().find(|(_, w)| w.iter().any(|x| x == flag)) {
            assert!(text.contains(&format!("\n  ply {} (", words[0])), "{text}");
        }
    }
}

#[test]
fn uttt_games_are_replayed_ply_by_ply_beside_the_bots_log() {
    let run = series(
        "replay-uttt",
        "uttt",
        "2",
        &[
            "--timebank",
            "300",
            "--time-per-move",
            "20",
            "--openings",
            "random:4",
        ],
        "",
    );
    let dir = run.dir.to_str().unwrap();
    let text = stdout(&replay(&[
        dir,
        "--all",
        "--iterations",
        "300",
        "--top",
        "2",
    ]));
    assert!(text.contains("300 iterations a position"), "{text}");
    for game in 0..2 {
        check_game(&run, &text, game, "A", "move", false);
    }
    // The summary: a line per game, then the phases for each colour A played.
    let summary = &text[text.rfind("\ngame  result").expect("the summary")..];
    for game in 0..2 {
        let record = record(&run, game);
        let moves = record["line"].as_str().unwrap().split_whitespace().count();
        let line = summary
            .lines()
            .find(|l| l.starts_with(&format!("{game} ")))
            .unwrap_or_else(|| panic!("{summary}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let result = match (record["winner"].as_str().unwrap(), words[3]) {
            ("draw", _) => "drew",
            (w, side) if w == side => "won",
            _ => "lost",
        };
        assert_eq!(words[1..4], [result, &moves.to_string(), "A"], "{line}");
        let colour = if record["a_player"] == 0 {
            "first"
        } else {
            "second"
        };
        assert_eq!(words[4], colour, "{line}");
    }
    for phase in ["opening", "middle", "end"] {
        assert!(summary.contains(&format!(" {phase} ")), "{summary}");
    }
    // Repeatable, and --game picks one game.
    let again = stdout(&replay(&[
        dir,
        "--all",
        "--iterations",
        "300",
        "--top",
        "2",
    ]));
    assert_eq!(again, text);
    let one = stdout(&replay(&[dir, "--game", "1", "--iterations", "100"]));
    assert!(
        one.contains("\ngame 1, ") && !one.contains("\ngame 0, "),
        "{one}"
    );
    let _ = std::fs::remove_dir_all(&run.dir);
}

#[test]
fn codingame_games_are_replayed_under_codingames_end_rule() {
    // 20 ms a turn searched (40 kept back), 920 the first.
    let run = series("replay-uttt-cg", "uttt-cg", "2", &[], "--safety-ms 40");
    has(&run.json, "\"game\": \"uttt-cg\"");
    let dir = run.dir.to_str().unwrap();
    let text = stdout(&replay(&[dir, "--all", "--iterations", "300"]));
    assert!(text.contains("CodinGame's end rule"), "{text}");
    // From B's side too: its plies searched, its log lines beside them.
    let from_b = stdout(&replay(&[
        dir,
        "--all",
        "--side",
        "B",
        "--iterations",
        "300",
    ]));
    for game in 0..2 {
        check_game(&run, &text, game, "A", "turn", true);
        check_game(&run, &from_b, game, "B", "turn", true);
    }
    let _ = std::fs::remove_dir_all(&run.dir);
}

#[test]
fn a_bad_uttt_record_is_refused_with_a_clear_error() {
    let run = series(
        "replay-uttt-bad",
        "uttt",
        "1",
        &["--timebank", "200", "--time-per-move", "10"],
        "",
    );
    let dir = run.dir.to_str().unwrap();
    let games = run.dir.join("games.jsonl");
    let good = std::fs::read_to_string(&games).unwrap();
    // games.jsonl is read when results.json is gone (an interrupted series).
    std::fs::remove_file(run.dir.join("results.json")).unwrap();
    let refused = |text: &str, expected: &str| {
        std::fs::write(&games, text).unwrap();
        let out = replay(&[dir, "--all", "--iterations", "50"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expected), "{expected:?} not in {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    let mut record: serde_json::Value = serde_json::from_str(good.trim()).unwrap();
    let line = record["line"].as_str().unwrap().to_string();
    // The second ply played again: not legal there.
    let words: Vec<&str> = line.split_whitespace().collect();
    let twice = format!("{} {} {}", words[0], words[1], words[1]);
    record["line"] = twice.into();
    refused(&format!("{record}\n"), "game 0: ply 3: ");
    record["line"] = "4,4 9,9".into();
    refused(&format!("{record}\n"), "ply 2: \"9,9\" is not column,row");
    // The plies cut short: the game is open and no fault ended it.
    record["line"] = words[..words.len() - 1].join(" ").into();
    refused(&format!("{record}\n"), "leave the game open");
    // The whole line with another result.
    record["line"] = line.into();
    record["winner"] = if record["winner"] == "A" { "B" } else { "A" }.into();
    refused(&format!("{record}\n"), "the record says");
    // The good record replays, from the folder or a transcript in it, not a transcript alone.
    std::fs::write(&games, &good).unwrap();
    let text = stdout(&replay(&[dir, "--all", "--iterations", "50"]));
    let transcript = run.dir.join("transcripts/game_0000_B.txt");
    let from_transcript = stdout(&replay(&[
        transcript.to_str().unwrap(),
        "--iterations",
        "50",
    ]));
    assert!(text.contains("\ngame 0, ") && from_transcript.contains("\ngame 0, "));
    assert!(
        from_transcript.contains("B (O, moving second")
            || from_transcript.contains("B (X, moving first"),
        "{from_transcript}"
    );
    let alone = run.dir.join("alone.txt");
    std::fs::copy(&transcript, &alone).unwrap();
    let out = replay(&[alone.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a UTTT transcript outside its series folder"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&run.dir);
}
