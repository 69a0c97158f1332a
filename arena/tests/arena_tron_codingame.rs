//! End-to-end games of CodinGame's Tron Battle (`--game tron-cg`) between small shell
//! bots: the turn lines, seats alternating between the sides, riders leaving the game
//! (a crash or a late answer) while the others play on, and free-for-alls (`--ffa`):
//! places, seat rotation, resuming, and two engines agreeing with the head-to-head.

mod arena_common;
use arena_common::{arena, arena_engines, bot, has, play_into, Run};
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[test]
fn riders_get_the_turn_lines_and_a_crash_ends_a_two_rider_game() {
    // Both riders go straight up until one leaves the grid (or runs into a trail).
    let run = arena(
        "tron-cg-straight",
        &[
            "--game", "tron-cg", "--games", "2", "-j", "2", "--seed", "4",
        ],
        &bot("straight_cg", "UP"),
        &bot("straight_cg", "UP"),
    );
    has(&run.json, "\"game\": \"tron-cg\"");
    has(&run.json, "\"riders\": 2");
    has(
        &run.json,
        "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}",
    );
    has(&run.json, "crashed at turn");
    // Rider 0's first turn: two riders, seat 0, both at their start.
    let first = run.transcript(0, "A");
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines[0], "> 2 0", "{first}");
    let start: Vec<i32> = lines[1][2..]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!((start[0], start[1]), (start[2], start[3]), "{first}");
    assert_eq!(lines[3], "< UP", "{first}");
    // Rider 1 is told that rider 0 moved up by one.
    let second = run.transcript(0, "B");
    let rider0: Vec<i32> = second.lines().nth(1).unwrap()[2..]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(
        (rider0[0], rider0[1] - 1),
        (rider0[2], rider0[3]),
        "{second}"
    );
}

#[test]
fn a_rider_out_loses_its_seat_and_the_others_play_on() {
    // Three riders: A holds seats 0 and 2 in game 0. B (seat 1) sleeps past its first
    // turn and is out; A's two riders play on until one of them leaves the grid.
    let run = arena(
        "tron-cg-late",
        &[
            "--game",
            "tron-cg",
            "--riders",
            "3",
            "--timebank",
            "200",
            "--time-per-move",
            "100",
            "--seed",
            "2",
        ],
        &bot("straight_cg", "LEFT"),
        &bot("straight_cg", "UP 0.4"),
    );
    has(&run.json, "\"winner\": \"A\"");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 1}");
    has(&run.json, "B (rider 1) timed out at turn 2");
    // After B's rider is out, A's riders are told it is; A's transcript holds both seats.
    let a = run.transcript(0, "A");
    assert!(a.starts_with("# rider 0\n> 3 0\n"), "{a}");
    assert!(a.contains("# rider 2\n> 3 2\n"), "{a}");
    assert!(a.contains("> -1 -1 -1 -1\n"), "{a}");
}

/// The places a game's `reason` gives: the last rider left 1st, the others by the turn
/// they went out ("B (rider 1) crashed at turn 7"), later first, ties sharing.
fn places_from_reason(reason: &str) -> BTreeMap<String, u64> {
    let (winner, outs) = reason.split_once("; ").unwrap();
    let mut out_on = vec![(winner[..1].to_string(), u64::MAX)];
    for out in outs.split(", ") {
        let turn = out.rsplit_once("at turn ").unwrap().1.parse().unwrap();
        out_on.push((out[..1].to_string(), turn));
    }
    out_on
        .iter()
        .map(|(side, mine)| {
            let later = out_on.iter().filter(|(_, other)| other > mine).count();
            (side.clone(), 1 + later as u64)
        })
        .collect()
}

fn results(run: &Run) -> Value {
    serde_json::from_str(&run.json).unwrap()
}

#[test]
fn a_free_for_all_places_each_engine_turns_the_seats_and_resumes() {
    // Two riders that never crash unless boxed in, one that answers nonsense and one
    // that exits at once: the last two go out in the first round, so they take the last
    // two places and the others the first two. Two games, then resumed to four.
    let commands = [
        bot("safe_cg", ""),
        bot("safe_cg", "LEFT DOWN RIGHT UP"),
        bot("straight_cg", "NORTH"),
        bot("crasher", ""),
    ];
    let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
    let args = ["--game", "tron-cg", "--ffa", "-j", "1", "--seed", "3"];
    let first = arena_engines(
        "tron-cg-ffa",
        &[&args[..], &["--games", "2"]].concat(),
        &commands,
    );
    let resumed = play_into(
        first.dir.clone(),
        &[&args[..], &["--games", "4", "--resume"]].concat(),
        &commands,
    );
    let (first, run) = (results(&first), results(&resumed));
    assert_eq!(
        first["games"][1], run["games"][1],
        "recorded games are kept"
    );
    assert_eq!(run["settings"]["riders"], 4);
    assert_eq!(
        run["summary"],
        Value::Null,
        "no A-against-B summary for four engines"
    );
    let games = run["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let sides = ["A", "B", "C", "D"];
    let mut counts: BTreeMap<&str, Vec<u64>> = sides.iter().map(|&s| (s, vec![0; 4])).collect();
    let mut seats = counts.clone();
    for (g, game) in games.iter().enumerate() {
        // The places are what the reason says, and the last two are C and D.
        let places = places_from_reason(game["reason"].as_str().unwrap());
        for side in sides {
            let place = game["places"][side].as_u64().unwrap();
            assert_eq!(place, places[side], "game {g} {side}: {game}");
            counts.get_mut(side).unwrap()[place as usize - 1] += 1;
            // The seat each engine was told on its first turn: "> 4 P".
            let transcript = resumed.transcript(g, side);
            let first_line = transcript.lines().next().unwrap();
            let seat: usize = first_line.strip_prefix("> 4 ").unwrap().parse().unwrap();
            seats.get_mut(side).unwrap()[seat] += 1;
        }
        assert_eq!(places["C"] + places["D"], 7, "game {g}: {game}");
        assert_eq!(game["illegal"]["C"], 1);
        assert_eq!(game["crashes"]["D"], 1);
        assert_eq!(game["winner"], if places["A"] == 1 { "A" } else { "B" });
    }
    let rows = run["places"].as_array().unwrap();
    for (row, side) in rows.iter().zip(sides) {
        assert_eq!(row["side"], side);
        assert_eq!(row["games"], 4);
        let count = &counts[side];
        assert_eq!(row["places"], json!(count), "{side}: {row}");
        let mean = (1..=4).zip(count).map(|(p, c)| p * c).sum::<u64>() as f64 / 4.0;
        assert_eq!(row["mean_place"].as_f64().unwrap(), mean, "{side}: {row}");
        // Each engine sat in each seat once.
        assert_eq!(seats[side], [1, 1, 1, 1], "{side}");
        assert_eq!(row["seats"], json!([1, 1, 1, 1]), "{side}");
    }
    assert_eq!(
        (rows[2]["illegal"].as_u64(), rows[3]["crashes"].as_u64()),
        (Some(4), Some(4))
    );
    assert!(resumed.stdout.contains("mean place"), "{}", resumed.stdout);
    assert!(resumed.stdout.contains("D = D: "), "{}", resumed.stdout);
}

#[test]
fn a_two_engine_free_for_all_is_the_head_to_head_series() {
    let (a, b) = (bot("safe_cg", ""), bot("safe_cg", "LEFT DOWN RIGHT UP"));
    let args = [
        "--game", "tron-cg", "--games", "4", "-j", "1", "--seed", "5",
    ];
    let ffa = results(&arena_engines(
        "tron-cg-ffa2",
        &[&args[..], &["--ffa"]].concat(),
        &[&a, &b],
    ));
    let series = results(&arena("tron-cg-h2h", &args, &a, &b));
    for (f, s) in ffa["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(series["games"].as_array().unwrap())
    {
        for key in ["a_player", "winner", "reason", "moves", "line"] {
            assert_eq!(f[key], s[key], "{key}");
        }
    }
    // The same summary, but for memory and time.
    let summary = &series["summary"];
    for key in [
        "games", "a_wins", "b_wins", "draws", "score", "elo", "timeouts", "crashes",
    ] {
        assert_eq!(ffa["summary"][key], summary[key], "{key}");
    }
    let (a_wins, b_wins) = (
        summary["a_wins"].as_u64().unwrap(),
        summary["b_wins"].as_u64().unwrap(),
    );
    assert_eq!(a_wins + b_wins, 4);
    let rows = &ffa["places"];
    assert_eq!(rows[0]["places"], json!([a_wins, b_wins]));
    assert_eq!(rows[1]["places"], json!([b_wins, a_wins]));
    assert_eq!(
        rows[0]["mean_place"].as_f64().unwrap(),
        1.0 + b_wins as f64 / 4.0
    );
    assert_eq!(rows[0]["seats"], json!([2, 2]));
    assert_eq!(series.get("places"), None, "no places without --ffa");
}
