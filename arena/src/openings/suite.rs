//! Balanced suites (`arena openings`): random candidates, UTTT lines or Light Riders
//! starts, each searched by the bot and kept when the search calls it even.

use super::book::Opening;
use super::tron::TronLine;
use super::uttt::random_uttt;
use crate::maps::{empty_size, Map};
use mctsbot::search::{FastRng, Game};
use mctsbot::tron::TronState;
use mctsbot::uttt::Board;
use rand::{RngCore, SeedableRng};

/// Settings of `arena openings`, the generator of balanced suites.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    /// UTTT: random plies per candidate, drawn evenly from this range.
    pub plies: std::ops::RangeInclusive<u32>,
    /// Light Riders: the boards, as `--map` names them or `emptyWxH` (the riddles board).
    pub maps: Vec<String>,
    pub count: usize,
    /// Search time per candidate.
    pub ms: u64,
    /// Keep a candidate whose searched value is within this of 0.5.
    pub within: f32,
    pub seed: u64,
}

/// The candidates, as lines with what `value` needs to search them, that `value` calls
/// even (within `spec.within` of 0.5), until `spec.count` are kept or 50 times as many
/// were tried; each line with its value as a comment. `value` gives the value and whose
/// it is, or `None` when the search found no move.
fn keep_even<C>(
    spec: &SuiteSpec,
    candidates: impl Iterator<Item = (String, C)>,
    mut value: impl FnMut(C) -> Option<(f32, &'static str)>,
) -> Vec<String> {
    let mut suite: Vec<(String, String)> = Vec::new();
    for (line, candidate) in candidates.take(spec.count * 50) {
        if suite.len() >= spec.count {
            break;
        }
        if suite.iter().any(|(kept, _)| *kept == line) {
            continue;
        }
        let Some((v, whose)) = value(candidate) else {
            continue;
        };
        if (v - 0.5).abs() <= spec.within {
            suite.push((line, format!("{whose}, value {v:.3} after {} ms", spec.ms)));
        }
    }
    suite
        .into_iter()
        .map(|(line, comment)| format!("{line} # {comment}"))
        .collect()
}

/// Balanced UTTT openings: random lines of `spec.plies` plies, each searched for
/// `spec.ms` by the bot's own MCTS, kept when the search calls them even.
pub fn balanced_uttt_suite(spec: &SuiteSpec) -> Vec<String> {
    use mctsbot::bot::options::UTTT_SEARCH;
    use mctsbot::search::tree::{Tree, TreeConfig};
    use mctsbot::search::Limits;
    use mctsbot::uttt::RandomPlayout;
    let mut rng = FastRng::seed_from_u64(spec.seed);
    let mut search_rng = FastRng::seed_from_u64(spec.seed ^ 0x5eed);
    let span = (spec.plies.end() - spec.plies.start() + 1) as u64;
    let candidates = std::iter::repeat_with(|| {
        let plies = spec.plies.start() + (rng.next_u64() % span) as u32;
        let moves = random_uttt(plies, FastRng::seed_from_u64(rng.next_u64()));
        (Opening::Uttt(moves.clone()).text(), moves)
    });
    keep_even(spec, candidates, |moves| {
        let mut board = Board::new();
        for &mv in &moves {
            board.play(mv);
        }
        // A draw worth one half to both: the suite asks whether a line is even, not
        // how the bot would play it.
        let config = TreeConfig {
            contempt: 0.0,
            ..UTTT_SEARCH
        };
        let mut tree = Tree::new(board, config, RandomPlayout, search_rng.next_u64());
        tree.search(Limits::millis(spec.ms));
        let best = tree.best_move()?;
        Some((
            best.value,
            ["X to move", "O to move"][board.to_move() as usize],
        ))
    })
}

/// Whether a start makes a game worth a place in a suite. A symmetric start is even in
/// theory, so the search's value alone would keep nearly all; these drop the ones whose
/// game is decided before the bots have a choice:
/// - a rider with fewer than two safe first moves is boxed in: its line is forced, and
///   a start next to a wall or trail corner plays the same as a dead end;
/// - riders that cannot reach each other each fill their own (mirror-equal) space: a
///   filling contest, not a fight, and a draw between any two bots that fill well.
fn lively(state: &TronState) -> bool {
    use mctsbot::tron::space;
    (0..2).all(|p| state.safe_moves(p).len() >= 2) && !space::separated(state)
}

/// The candidate boards of a Light Riders suite: on `emptyWxH` every riddles start
/// (player 0 at x in 1..=W/2-2, y in 1..=H-2, player 1 mirrored left/right), one of each
/// top/bottom mirror pair, shuffled; a map with its own starts (the map format fixes
/// them), once. Maps first, so that each gets its line before the empty board fills the
/// rest; only [`lively`] starts.
fn tron_candidates(spec: &SuiteSpec) -> Result<Vec<(TronLine, Map)>, String> {
    let mut rng = FastRng::seed_from_u64(spec.seed);
    let (mut fixed, mut free) = (Vec::new(), Vec::new());
    for name in &spec.maps {
        let line = TronLine {
            map: Some(name.clone()),
            ..TronLine::default()
        };
        let Some((w, h)) = empty_size(name) else {
            fixed.push((line, Map::load(name)?));
            continue;
        };
        if w < 6 || h < 3 {
            return Err(format!(
                "map {name}: the riddles starts need a board of 6x3 or more"
            ));
        }
        let board = Map::random_empty(w, h, 0);
        for x in 1..=w / 2 - 2 {
            for y in (1..=h - 2).filter(|&y| y <= h - 1 - y) {
                let start = Some((x, y));
                free.push((
                    TronLine {
                        start,
                        ..line.clone()
                    },
                    board.with_start((x, y))?,
                ));
            }
        }
    }
    shuffle(&mut free, &mut rng);
    fixed.extend(free);
    Ok(fixed
        .into_iter()
        .filter(|(_, map)| map.start_state().is_ok_and(|s| lively(&s)))
        .collect())
}

/// Balanced Light Riders openings: the starts [`tron_candidates`] gives, each searched
/// for `spec.ms` by the bot's own search (its default Light Riders settings), kept when
/// the search calls them even; shuffled so that a short series still sees a mix of
/// boards.
pub fn balanced_tron_suite(spec: &SuiteSpec) -> Result<Vec<String>, String> {
    use mctsbot::bot::options::TronConfig;
    use mctsbot::bot::tron::TronSearcher;
    use mctsbot::search::{Limits, Search};
    let mut rng = FastRng::seed_from_u64(spec.seed ^ 0x5eed);
    let candidates = tron_candidates(spec)?.into_iter().map(|(line, map)| {
        let text = Opening::Tron(line, None).text();
        (text, map)
    });
    let mut suite = keep_even(spec, candidates, |map| {
        let state = map.start_state().ok()?;
        let mut searcher = TronSearcher::new(&TronConfig::default(), state, 0, rng.next_u64(), 1);
        searcher.search(Limits::millis(spec.ms));
        // The root's visit-weighted mean, not the best move's: the best of several noisy
        // means sits above one half for both riders of a mirror-image start, while the
        // root's mean is rider 0's average result (and one minus it rider 1's).
        let TronSearcher::Decoupled { search, .. } = &searcher else {
            return None;
        };
        let actions = search.root_actions(0);
        let visits: f64 = actions.iter().map(|a| a.visits as f64).sum();
        let total: f64 = actions
            .iter()
            .map(|a| a.mean as f64 * a.visits as f64)
            .sum();
        (visits > 0.0).then(|| ((total / visits) as f32, "rider 0"))
    });
    shuffle(&mut suite, &mut rng);
    Ok(suite)
}

/// Fisher-Yates.
fn shuffle<T>(items: &mut [T], rng: &mut FastRng) {
    for k in (1..items.len()).rev() {
        items.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{parse_uttt, Book};
    use crate::options::Referee;

    #[test]
    fn the_light_riders_suite_loads_and_every_line_plays() {
        let Book::Lines(lines) = Book::load("lightriders_balanced").unwrap() else {
            panic!()
        };
        assert!(lines.len() >= 30, "{}", lines.len());
        let book = Book::Lines(lines.clone());
        let default = Map::random_empty(16, 16, 1);
        let mut maps = std::collections::BTreeSet::new();
        for pair in 0..lines.len() as u64 {
            let opening = book
                .opening(Referee::LIGHT_RIDERS, 1, pair, Some(&default))
                .unwrap();
            let map = opening.map().expect("every line sets its board");
            assert!(map.is_symmetric(), "{}", lines[pair as usize]);
            assert!(lively(&map.start_state().unwrap()));
            maps.insert(map.name.clone());
        }
        // The riddles board and shipped maps both.
        assert!(maps.contains("empty16x16") && maps.len() >= 5, "{maps:?}");
    }

    #[test]
    fn lively_starts_leave_both_riders_a_choice_and_a_fight() {
        let state = |diagram: &str| Map::parse("m", diagram).unwrap().start_state().unwrap();
        assert!(lively(&state(".....\n.0.1.\n.....\n")));
        // Player 0 in a dead end of one cell's mouth: a forced first move.
        assert!(!lively(&state("#....\n0#.1.\n.....\n")));
        // A wall between them: each fills its own half.
        assert!(!lively(&state("..#..\n.0#1.\n..#..\n")));
    }

    #[test]
    fn a_light_riders_suite_holds_the_maps_then_the_riddles_starts() {
        let spec = SuiteSpec {
            plies: 0..=0,
            maps: vec!["empty16x16".into(), "rooms16".into(), "empty6".into()],
            count: 6,
            ms: 10,
            within: 0.2,
            seed: 3,
        };
        let suite = balanced_tron_suite(&spec).unwrap();
        assert_eq!(suite.len(), 6);
        let book = Book::Lines(
            suite
                .iter()
                .map(|l| l.split('#').next().unwrap().trim().into())
                .collect(),
        );
        let mut named = Vec::new();
        for (pair, line) in suite.iter().enumerate() {
            let opening = book
                .opening(Referee::LIGHT_RIDERS, 1, pair as u64, None)
                .unwrap();
            let map = opening.map().unwrap();
            let value: f32 = line.split("value ").nth(1).unwrap()[..5].parse().unwrap();
            assert!((value - 0.5).abs() <= 0.2, "{line}");
            if map.name == "empty16x16" {
                let (x, y) = map.starts[0];
                assert!((1..=6).contains(&x) && (1..=7).contains(&y), "{line}");
            } else {
                named.push(map.name.clone());
            }
        }
        // Each fixed-start map once, then riddles starts.
        named.sort();
        assert_eq!(named, ["empty6", "rooms16"]);
        let err = balanced_tron_suite(&SuiteSpec {
            maps: vec!["nosuchmap".into()],
            ..spec
        })
        .unwrap_err();
        assert!(err.contains("nosuchmap"), "{err}");
    }

    #[test]
    fn a_balanced_suite_keeps_even_positions_only() {
        let spec = SuiteSpec {
            plies: 2..=3,
            maps: Vec::new(),
            count: 3,
            ms: 20,
            within: 0.05,
            seed: 1,
        };
        let suite = balanced_uttt_suite(&spec);
        assert_eq!(suite.len(), 3);
        for line in &suite {
            let (moves, comment) = line.split_once('#').unwrap();
            let plies = parse_uttt(moves).unwrap().len();
            assert!((2..=3).contains(&plies), "{line}");
            let value: f32 = comment.split("value ").nth(1).unwrap()[..5]
                .parse()
                .unwrap();
            // The comment rounds to three decimals.
            assert!((value - 0.5).abs() <= 0.05 + 0.0005, "{line}");
        }
    }
}
