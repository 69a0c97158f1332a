//! `arena replay` on games the arena has just recorded between two shell riders.

mod arena_common;
use arena_common::{arena, bot, has, replay, stdout, Run};

/// Two games of the shell rider against itself on `brackets13`: the rider that starts
/// as player 0 wins both, so A loses game 1.
fn series(test: &str, extra: &[&str]) -> Run {
    let args = [
        &[
            "--game",
            "tron",
            "--timebank",
            "1000",
            "--time-per-move",
            "100",
            "--games",
            "2",
            "-j",
            "1",
            "--seed",
            "7",
            "--map",
            "brackets13",
        ][..],
        extra,
    ]
    .concat();
    arena(test, &args, &bot("rider", ""), &bot("rider", ""))
}

/// The fields of a transcript, drawn as the replay draws boards (`x` walls as `#`).
fn transcript_boards(transcript: &str) -> Vec<String> {
    let width: usize = transcript
        .lines()
        .find_map(|l| l.strip_prefix("> settings field_width "))
        .expect("field_width")
        .parse()
        .unwrap();
    transcript
        .lines()
        .filter_map(|l| l.strip_prefix("> update game field "))
        .map(|field| {
            let cells: Vec<&str> = field.split(',').collect();
            cells
                .chunks(width)
                .map(|row| row.concat().replace('x', "#") + "\n")
                .collect()
        })
        .collect()
}

/// The table's position lines (a round number first) and the boards printed before
/// them, in order.
fn rows_and_boards(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut rows, mut boards, mut board) = (Vec::new(), Vec::new(), String::new());
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if !line.is_empty() && line.chars().all(|c| ".#01X".contains(c)) {
            board += line;
            board.push('\n');
        } else if first.parse::<u32>().is_ok() && line.contains('|') {
            rows.push(line.to_string());
            if !board.is_empty() {
                boards.push(std::mem::take(&mut board));
            }
        } else {
            board.clear();
        }
    }
    (rows, boards)
}

#[test]
fn a_lost_game_is_replayed_position_by_position() {
    let run = series("replay", &[]);
    let games: Vec<serde_json::Value> = std::fs::read_to_string(run.dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    has(
        &run.json,
        "\"index\": 1, \"map\": \"brackets13\", \"a_player\": 1, \"winner\": \"B\"",
    );
    let rounds = games[1]["moves"].as_u64().unwrap() as usize;
    let dir = run.dir.to_str().unwrap();
    let text = stdout(&replay(&[dir, "--iterations", "300", "--boards"]));
    // A's losses and draws only: game 1.
    assert!(text.contains("\ngame 1 on brackets13"), "{text}");
    assert!(!text.contains("\ngame 0 on"), "{text}");
    let (rows, boards) = rows_and_boards(&text);
    assert_eq!(rows.len(), rounds, "one line per round:\n{text}");
    // Every position re-created from the moves is the field the bots were sent.
    assert_eq!(boards, transcript_boards(&run.transcript(1, "A")));
    let line = games[1]["line"].as_str().unwrap();
    for (row, round) in rows.iter().zip(line.split_whitespace()) {
        let moves: String = row.split_whitespace().skip(1).take(2).collect();
        assert_eq!(moves, round, "{row}");
    }
    // The largest drop of A's value is marked on one line, the round the summary names.
    let marked: Vec<&String> = rows.iter().filter(|r| r.ends_with(" <<")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    let marked_round = marked[0].split_whitespace().next().unwrap();
    let summary = text.lines().last().unwrap();
    let fields: Vec<&str> = summary.split_whitespace().collect();
    assert_eq!(
        fields[..4],
        ["1", "lost", &rounds.to_string(), "A"],
        "{summary}"
    );
    assert_eq!(fields[5], marked_round, "{summary}");
    assert!(fields[4].starts_with('-'), "{summary}");
    assert!(
        text.contains(&format!("\n  round {marked_round}: ")),
        "the drop is described: {text}"
    );

    // The same game from its transcript, and from a copy of it alone (no last round).
    let transcript = run.dir.join("transcripts/game_0001_A.txt");
    let from_file = stdout(&replay(&[
        transcript.to_str().unwrap(),
        "--iterations",
        "300",
    ]));
    assert_eq!(rows_and_boards(&from_file).0, rows);
    let alone = run.dir.join("alone.txt");
    std::fs::copy(&transcript, &alone).unwrap();
    let alone_text = stdout(&replay(&[alone.to_str().unwrap(), "--iterations", "300"]));
    let alone_rows = rows_and_boards(&alone_text).0;
    assert_eq!(alone_rows.len(), rounds, "{alone_text}");
    for (a, b) in alone_rows.iter().zip(&rows).take(rounds - 1) {
        assert_eq!(a.split('|').nth(1), b.split('|').nth(1), "the same space");
    }
    assert!(alone_rows[rounds - 1].starts_with(&format!("{:>5} -", rounds - 1)));

    // Repeatable: the same seed gives the same table.
    let again = stdout(&replay(&[dir, "--iterations", "300", "--boards"]));
    assert_eq!(again, text);
    let _ = std::fs::remove_dir_all(&run.dir);
}

#[test]
fn replay_checks_the_record_and_its_options() {
    let run = series("replay-checks", &["--openings", "random:2"]);
    let dir = run.dir.to_str().unwrap();
    // From an opening the replay starts where the bots did: round 2.
    let text = stdout(&replay(&[dir, "--all", "--iterations", "100"]));
    let (rows, _) = rows_and_boards(&text);
    assert!(rows[0].starts_with("    2 "), "{text}");
    assert!(text.contains("\ngame 0 on") && text.contains("\ngame 1 on"));
    let only = stdout(&replay(&[dir, "--game", "0", "--iterations", "100"]));
    assert!(only.contains("\ngame 0 on") && !only.contains("\ngame 1 on"));
    // A transcript that shows another position than the moves lead to is refused.
    let path = run.dir.join("transcripts/game_0000_B.txt");
    let t = std::fs::read_to_string(&path).unwrap();
    let at = t.rfind("> update game field ").unwrap();
    let (head, tail) = t.split_at(at);
    let tail = tail.replacen(",.,", ",x,", 1);
    std::fs::write(&path, format!("{head}{tail}")).unwrap();
    let out = replay(&[dir, "--game", "0", "--iterations", "100"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shows another position"), "{err}");
    // Unknown games and flags are refused, the bot's flags are checked, --help answers.
    let code = |args: &[&str]| replay(args).status.code();
    assert_eq!(code(&[dir, "--game", "9"]), Some(2));
    assert_eq!(code(&[dir, "--bogus"]), Some(2));
    assert_eq!(code(&[dir, "--flags", "--tron-c"]), Some(2));
    assert_eq!(code(&[dir, "--iterations", "5", "--ms", "5"]), Some(2));
    assert_eq!(code(&["--help"]), Some(0));
    let _ = std::fs::remove_dir_all(&run.dir);
}
