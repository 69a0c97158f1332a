//! Tests of a series as a whole: played with a fake game, then summed up, written out,
//! merged from shards and drawn by `arena report`.

use super::*;
use crate::cli;
use crate::game::{GameRecord, GameSetup, SideStats};
use crate::maps::Map;
use crate::openings::Opening;
use crate::options::Options;
use crate::stats::{Pentanomial, SprtState, Wdl};

fn fake(setup: &GameSetup) -> GameRecord {
    // Player 0 wins games 0..6 mod 10 except a draw at 6 and 7: A and B alternate
    // colours, so A gets some wins as player 0 and some losses as player 1.
    let winner = match setup.index % 10 {
        6 | 7 => None,
        _ => Some(0),
    };
    let mut stats = vec![SideStats::default(); 2];
    stats[setup.side(1)].timeouts = 1;
    stats[0].answers = 10;
    stats[0].time_us = 1_000_000;
    GameRecord {
        index: setup.index,
        map: setup.map.as_ref().map_or("uttt".into(), |m| m.name.clone()),
        a_player: setup.a_player,
        winner: setup.winner(winner),
        opening: setup.opening.as_ref().map_or(String::new(), Opening::text),
        moves: 40,
        line: "4,4 3,5".into(),
        reason: "fake".into(),
        wall_ms: 1,
        stats,
        transcripts: vec!["> x\n".into(), "< y\n".into()],
        places: Vec::new(),
    }
}

#[test]
fn series_alternates_colours_and_sums_up() {
    let opts = parse(&["--games", "10", "-j", "3", "--seed", "1", "a", "b"]);
    let records = run(&opts, &[], &[], fake);
    assert_eq!(records.len(), 10);
    assert!(records
        .iter()
        .enumerate()
        .all(|(i, r)| r.index == i && r.a_player == (i % 2) as u8));
    let t = Totals::of(&records);
    // Player 0 won 8 games: A was player 0 in 0,2,4,8 (6 drawn), B in 1,3,5,9.
    assert_eq!(
        t.wdl,
        Wdl {
            wins: 4,
            draws: 2,
            losses: 4
        }
    );
    assert_eq!((t.stats[0].timeouts, t.stats[1].timeouts), (5, 5));
    let results = results(&opts, &records);
    let s = results.summary.unwrap();
    assert_eq!((s.a_wins, s.b_wins, s.draws, s.score), (4, 4, 2, Some(0.5)));
    assert!(results.games.iter().any(|g| g.winner == "draw"));
    assert!(table(&opts, &records).contains("0.500 ±"));
}

fn parse(args: &[&str]) -> Options {
    cli::parse(args).unwrap()
}

#[test]
fn pairs_are_counted_by_the_points_of_both_games() {
    let opts = parse(&["--games", "11", "-j", "2", "--seed", "1", "a", "b"]);
    let records = run(&opts, &[], &[], fake);
    // Every pair splits 1-1 (player 0 wins) or is drawn twice; game 10 has no partner.
    assert_eq!(pentanomial(&records), Pentanomial([0, 0, 5, 0, 0]));
    let results = results(&opts, &records);
    assert_eq!(
        (results.pairs.pairs, results.pairs.pentanomial),
        (5, [0, 0, 5, 0, 0])
    );
    assert_eq!(results.sprt, None);
    assert!(table(&opts, &records).contains("pairs 5: 0:0 ½:0 1:5 1½:0 2:0"));
}

#[test]
fn an_sprt_stops_the_series_once_it_decides() {
    // Pairs of 1 point each: mean 0.5 and, with the prior pair, variance 0.25/(N+1);
    // LLR = −2 N (N+1) (s1 − 0.5)² with s1 = 0.571463 (50 Elo) crosses −2.944 at
    // N = 17 pairs: with one job, exactly 34 games.
    let opts = parse(&[
        "--sprt",
        "elo0=0 elo1=50",
        "-j",
        "1",
        "--seed",
        "1",
        "a",
        "b",
    ]);
    assert_eq!(opts.games, 20_000);
    let records = run(&opts, &[], &[], fake);
    assert_eq!(records.len(), 34);
    let test = SprtStatus::of(opts.sprt.unwrap(), &records);
    assert_eq!((test.pairs, test.state), (17, SprtState::AcceptH0));
    assert!(table(&opts, &records).contains("H0 accepted after 17 pairs"));
    assert_eq!(results(&opts, &records).sprt.unwrap().state, "H0 accepted");
}

#[test]
fn merged_shards_are_the_whole_series() {
    let base = ["--game", "tron", "--games", "13", "-j", "2", "--seed", "9"];
    let whole = parse(&[&base[..], &["a", "b"]].concat());
    let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
    let tmp = std::env::temp_dir().join(format!("arena-merge-{}", std::process::id()));
    let mut dirs = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let opts = parse(&[&base[..], &["--shard", &shard, "a", "b"]].concat());
        // Shard k plays the pairs p with p % 3 == k - 1, both games of each.
        let expected: Vec<usize> = (0..13).filter(|g| (g / 2) % 3 == k - 1).collect();
        assert_eq!(schedule(&opts), expected);
        let dir = tmp.join(format!("shard{k}"));
        write_out(&dir, &opts, &run(&opts, &maps, &[], fake)).unwrap();
        dirs.push(dir);
    }
    let (merged_opts, merged) = crate::merge::merge(&dirs).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    let records = run(&whole, &maps, &[], fake);
    // The same games: index, board, colours, result and every count.
    assert_eq!(merged, records);
    assert_eq!(merged_opts.commands, whole.commands);
    assert_eq!(results(&merged_opts, &merged), results(&whole, &records));
}

#[test]
fn shards_of_another_series_are_refused() {
    let tmp = std::env::temp_dir().join(format!("arena-refuse-{}", std::process::id()));
    for (k, seed) in [(1, "1"), (2, "2")] {
        let shard = format!("{k}/2");
        let opts = parse(&["--games", "4", "--seed", seed, "--shard", &shard, "a", "b"]);
        write_out(
            &tmp.join(format!("s{k}")),
            &opts,
            &run(&opts, &[], &[], fake),
        )
        .unwrap();
    }
    let err = crate::merge::merge(&[tmp.join("s1"), tmp.join("s2")]).unwrap_err();
    assert!(err.contains("another series"), "{err}");
    let err = crate::merge::merge(&[tmp.join("s1"), tmp.join("s1")]).unwrap_err();
    assert!(err.contains("two shards"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn a_report_draws_the_scores_the_sprt_walk_and_the_ladder() {
    let tmp = std::env::temp_dir().join(format!("arena-report-{}", std::process::id()));
    let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
    let mut dirs = Vec::new();
    for (k, sprt) in [(1, None), (2, Some("elo0=0 elo1=50"))] {
        let mut args = vec!["--game", "tron", "--games", "8", "--seed", "4"];
        args.extend(["--openings", "random:3"]);
        if let Some(sprt) = sprt {
            args.extend(["--sprt", sprt]);
        }
        args.extend(["a", "b"]);
        let opts = parse(&args);
        let openings = openings(&opts, &maps).unwrap();
        assert_eq!(openings.len(), 4);
        let dir = tmp.join(format!("run{k}"));
        write_out(&dir, &opts, &run(&opts, &maps, &openings, fake)).unwrap();
        dirs.push(dir);
    }
    let out = tmp.join("report");
    crate::report::report(&dirs, &out).unwrap();
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let html = read("index.html");
    for part in [
        "ladder.svg",
        "run0_scores.svg",
        "run1_scores.svg",
        "run1_sprt.svg",
    ] {
        assert!(html.contains(part), "{html}");
        assert!(read(part).starts_with("<svg"), "{part}");
    }
    assert!(!html.contains("run0_sprt.svg"), "run 1 had no SPRT");
    // Every map and every opening gets its point.
    let scores = read("run0_scores.svg");
    assert!(scores.contains("rooms16") && scores.contains("empty6"));
    // Four pairs, four openings: o1 to o4, each listed with its moves on the page.
    assert!(
        scores.contains("\no4\n") && !scores.contains("\no5\n"),
        "{scores}"
    );
    assert_eq!(
        html.matches("<b>o").count(),
        8,
        "two runs, four openings each"
    );
    assert!(read("run1_sprt.svg").contains("LLR"));
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn tron_pairs_share_a_map() {
    let opts = parse(&["--game", "tron", "--seed", "5", "a", "b"]);
    assert_eq!(map_for(&opts, &[], 3), map_for(&opts, &[], 3));
    let maps = [Map::load("empty6").unwrap(), Map::load("rooms16").unwrap()];
    assert_eq!(map_for(&opts, &maps, 3).unwrap().name, "rooms16");
}
