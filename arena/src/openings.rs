//! Openings: the moves the arena plays before it hands a game to the bots, so that a
//! series covers many positions instead of replaying the start. Both games of a pair get
//! the same opening (with colours swapped), from a file or a seeded random generator.
//!
//! File format, one opening per line (blank lines and `#` comments skipped):
//! - UTTT: plies as the engine's `place_move` coordinates `column,row`, e.g. `4,4 3,5`;
//! - Light Riders: optionally `map=NAME` (a map as `--map` takes it, or `emptyWxH` for
//!   the riddles engine's empty board) and `start=X,Y` (player 0's start; player 1's is
//!   its mirror image, as the map is mirrored), then rounds as two letters, player 0's
//!   direction then player 1's, from `u d l r`: e.g. `rl ul`,
//!   `map=empty16x16 start=3,7`, `map=rooms16 start=2,5 rl`. A line's board replaces
//!   `--map` for its pair of games.
//!
//! `--openings NAME` also finds the suites shipped in `protocol/openings/NAME.txt`.

use super::maps::{empty_size, Map};
use super::options::Referee;
use mctsbot::search::{FastRng, Game};
use mctsbot::tron::{Direction, TronState};
use mctsbot::uttt::{Board, Move};
use rand::{RngCore, SeedableRng};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Book {
    /// `random:N`: N random plies (UTTT) or rounds of moves that do not crash (Light
    /// Riders), drawn from the series seed and the pair.
    Random(u32),
    /// One opening per line of a file, pair `k` taking line `k mod lines`.
    Lines(Vec<String>),
}

/// The moves of one opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    Uttt(Vec<Move>),
    /// A Light Riders line, and the board it sets for its pair (`None`: the pair's own).
    Tron(TronLine, Option<Map>),
}

/// A Light Riders line as written: its board, its start and its rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TronLine {
    /// `map=NAME`.
    pub map: Option<String>,
    /// `start=X,Y`: player 0's start cell.
    pub start: Option<(u32, u32)>,
    /// Per round, player 0's direction and player 1's.
    pub rounds: Vec<[Direction; 2]>,
}

impl Book {
    /// `random:N`, a file, or the name of a shipped suite.
    pub fn load(spec: &str) -> Result<Book, String> {
        if let Some(plies) = spec.strip_prefix("random:") {
            return plies
                .parse()
                .map(Book::Random)
                .map_err(|_| format!("--openings random:N needs a number, got {plies:?}"));
        }
        let shipped = format!("protocol/openings/{spec}.txt");
        let path = [
            spec.into(),
            std::path::PathBuf::from(&shipped),
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(&shipped),
        ]
        .into_iter()
        .find(|p| p.is_file())
        .ok_or(format!("openings {spec}: no such file or shipped suite"))?;
        let text = std::fs::read_to_string(&path).map_err(|e| format!("openings {spec}: {e}"))?;
        let lines: Vec<String> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return Err(format!("openings {spec}: no openings in the file"));
        }
        Ok(Book::Lines(lines))
    }

    /// The opening of pair `pair` of a series with seed `seed`, on `map` for Light
    /// Riders; an error if a line is malformed or does not leave a game to play.
    pub fn opening(
        &self,
        game: Referee,
        seed: u64,
        pair: u64,
        map: Option<&Map>,
    ) -> Result<Opening, String> {
        let rng = || FastRng::seed_from_u64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ pair);
        match (self, game) {
            (Book::Random(plies), Referee::Uttt) => Ok(Opening::Uttt(random_uttt(*plies, rng()))),
            (Book::Lines(lines), Referee::Uttt) => {
                let line = &lines[pair as usize % lines.len()];
                parse_uttt(line).map(Opening::Uttt).map_err(|e| {
                    if parse_tron(line).is_ok() {
                        format!(
                            "opening {line:?} is a Light Riders line: give --game uttt a UTTT \
                             suite (uttt_balanced), or play it with --game tron"
                        )
                    } else {
                        e
                    }
                })
            }
            (_, Referee::UtttCodinGame | Referee::TronCodinGame) => Err(
                "CodinGame's protocols cannot show a bot an opening (UTTT sends only the last \
                 move, Tron Battle only the heads)"
                    .into(),
            ),
            (Book::Random(rounds), Referee::Tron) => {
                let start = map
                    .ok_or("a Light Riders opening needs a map")?
                    .start_state()?;
                let rounds = random_tron(&start, *rounds, rng());
                Ok(Opening::Tron(
                    TronLine {
                        rounds,
                        ..TronLine::default()
                    },
                    None,
                ))
            }
            (Book::Lines(lines), Referee::Tron) => {
                let line = &lines[pair as usize % lines.len()];
                let parsed = parse_tron(line).map_err(|e| {
                    if parse_uttt(line).is_ok() {
                        format!(
                            "opening {line:?} is a UTTT line: give --game tron a Light Riders \
                             suite (lightriders_balanced), or play it with --game uttt"
                        )
                    } else {
                        e
                    }
                })?;
                let board = board_of(&parsed, map, seed, pair)
                    .map_err(|e| format!("opening {line:?}: {e}"))?;
                let map = board
                    .as_ref()
                    .or(map)
                    .ok_or("a Light Riders opening needs a map")?;
                map.start_state()
                    .and_then(|start| replay_tron(&start, &parsed.rounds))
                    .map_err(|e| format!("opening {line:?}: {e}"))?;
                Ok(Opening::Tron(parsed, board))
            }
        }
    }
}

/// The board a Light Riders line sets, if it sets one: its `map=` (the riddles board
/// `emptyWxH` with the pair's random starts, like the series' own), else the pair's
/// `map`, with the line's `start=`.
fn board_of(
    line: &TronLine,
    map: Option<&Map>,
    seed: u64,
    pair: u64,
) -> Result<Option<Map>, String> {
    let named = match &line.map {
        None => None,
        Some(name) => Some(match empty_size(name) {
            Some((w, h)) if w >= 4 && h >= 3 => {
                Map::random_empty(w, h, seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pair)
            }
            Some(_) => return Err(format!("map {name} is too small")),
            None => Map::load(name)?,
        }),
    };
    match (line.start, named) {
        (Some(cell), Some(board)) => board.with_start(cell).map(Some),
        (Some(cell), None) => map.ok_or("start= needs a map")?.with_start(cell).map(Some),
        (None, named) => Ok(named),
    }
}

impl Opening {
    /// The opening as a line of the file format.
    pub fn text(&self) -> String {
        match self {
            Opening::Uttt(moves) => moves
                .iter()
                .map(|m| {
                    let (column, row) = m.xy();
                    format!("{column},{row}")
                })
                .collect::<Vec<_>>()
                .join(" "),
            Opening::Tron(line, _) => line
                .map
                .iter()
                .map(|name| format!("map={name}"))
                .chain(line.start.map(|(x, y)| format!("start={x},{y}")))
                .chain(
                    line.rounds
                        .iter()
                        .map(|[a, b]| format!("{}{}", letter(*a), letter(*b))),
                )
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// The board a Light Riders opening plays on instead of its pair's map.
    pub fn map(&self) -> Option<&Map> {
        match self {
            Opening::Tron(_, map) => map.as_ref(),
            Opening::Uttt(_) => None,
        }
    }
}

/// `plies` random legal UTTT moves; fewer if the game would end (it never does in the
/// first 16 plies).
fn random_uttt(plies: u32, mut rng: FastRng) -> Vec<Move> {
    let mut board = Board::new();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        board.legal_moves(&mut moves);
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let mut next = board;
        next.play(mv);
        if next.outcome().is_some() {
            break;
        }
        board = next;
        played.push(mv);
    }
    played
}

/// Parses and checks a UTTT line: legal moves that leave the game open.
pub fn parse_uttt(line: &str) -> Result<Vec<Move>, String> {
    let mut board = Board::new();
    let mut played = Vec::new();
    for word in line.split_whitespace() {
        let mv = word
            .split_once(',')
            .and_then(|(c, r)| Move::from_xy(c.parse().ok()?, r.parse().ok()?))
            .ok_or(format!("opening {line:?}: {word:?} is not column,row"))?;
        if !board.is_legal(mv) {
            return Err(format!("opening {line:?}: {word} is not legal there"));
        }
        board.play(mv);
        if board.outcome().is_some() {
            return Err(format!("opening {line:?}: the game is over after {word}"));
        }
        played.push(mv);
    }
    Ok(played)
}

/// A direction as openings and game lines write it.
pub fn letter(d: Direction) -> char {
    match d {
        Direction::Up => 'u',
        Direction::Down => 'd',
        Direction::Left => 'l',
        Direction::Right => 'r',
    }
}

/// Parses a Light Riders line's words: `map=` and `start=` (each at most once, before
/// the rounds), then the rounds. Whether they fit the board is checked by
/// [`Book::opening`].
pub fn parse_tron(line: &str) -> Result<TronLine, String> {
    let direction = |c: char| {
        Direction::ALL
            .into_iter()
            .find(|&d| letter(d) == c)
            .ok_or(format!("opening {line:?}: {c:?} is not one of u d l r"))
    };
    let mut parsed = TronLine::default();
    for word in line.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            let letters: Vec<char> = word.chars().collect();
            match letters[..] {
                [a, b] => parsed.rounds.push([direction(a)?, direction(b)?]),
                _ => return Err(format!("opening {line:?}: {word:?} is not two letters")),
            }
            continue;
        };
        if !parsed.rounds.is_empty() {
            return Err(format!(
                "opening {line:?}: {word} must come before the rounds"
            ));
        }
        match key {
            "map" if parsed.map.is_none() && !value.is_empty() => {
                parsed.map = Some(value.to_string())
            }
            "start" if parsed.start.is_none() => {
                let cell = value
                    .split_once(',')
                    .and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                    .ok_or(format!("opening {line:?}: {word:?} is not start=X,Y"))?;
                parsed.start = Some(cell)
            }
            "map" | "start" => {
                return Err(format!("opening {line:?}: {word:?} repeats or is empty"))
            }
            _ => {
                return Err(format!(
                    "opening {line:?}: unknown {key}= (map= and start= are known)"
                ))
            }
        }
    }
    Ok(parsed)
}

/// The position after `rounds`, or why they do not leave both riders alive.
fn replay_tron(start: &TronState, rounds: &[[Direction; 2]]) -> Result<TronState, String> {
    let mut state = start.clone();
    for (k, [a, b]) in rounds.iter().enumerate() {
        if !state.safe_moves(0).contains(*a) || !state.safe_moves(1).contains(*b) {
            return Err(format!("round {k} crashes a rider"));
        }
        state.step(*a, *b);
        if state.outcome().is_some() {
            return Err(format!("round {k} ends the game"));
        }
    }
    Ok(state)
}

/// `rounds` rounds of random moves that crash neither rider nor make them meet; fewer
/// if a rider runs out of such moves.
fn random_tron(start: &TronState, rounds: u32, mut rng: FastRng) -> Vec<[Direction; 2]> {
    let mut state = start.clone();
    let mut played = Vec::new();
    'rounds: for _ in 0..rounds {
        let safe = [state.safe_moves(0), state.safe_moves(1)];
        if safe.iter().any(|s| s.is_empty()) {
            break;
        }
        // A few draws: the two choices may still meet head-on.
        for _ in 0..16 {
            let pick = |s: mctsbot::tron::DirSet, rng: &mut FastRng| {
                s.nth((rng.next_u64() % s.len() as u64) as u32)
            };
            let round = [pick(safe[0], &mut rng), pick(safe[1], &mut rng)];
            let mut next = state.clone();
            next.step(round[0], round[1]);
            if next.outcome().is_none() {
                state = next;
                played.push(round);
                continue 'rounds;
            }
        }
        break;
    }
    played
}

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

    #[test]
    fn uttt_lines_are_parsed_and_checked() {
        let moves = parse_uttt("4,4 3,3").unwrap();
        assert_eq!(Opening::Uttt(moves).text(), "4,4 3,3");
        // After 4,4 (the centre of the centre board) the next move is in the centre board.
        assert!(parse_uttt("4,4 0,0").unwrap_err().contains("not legal"));
        assert!(parse_uttt("4;4").unwrap_err().contains("column,row"));
        assert!(parse_uttt("9,0").is_err());
    }

    #[test]
    fn random_openings_are_the_same_for_a_pair_and_differ_between_pairs() {
        let book = Book::Random(4);
        let a = book.opening(Referee::Uttt, 7, 3, None).unwrap();
        assert_eq!(a, book.opening(Referee::Uttt, 7, 3, None).unwrap());
        let others: Vec<Opening> = (4..10)
            .map(|pair| book.opening(Referee::Uttt, 7, pair, None).unwrap())
            .collect();
        assert!(others.iter().any(|o| *o != a));
        let Opening::Uttt(moves) = a else { panic!() };
        assert_eq!(moves.len(), 4);
        // Every random opening replays as a legal line.
        assert_eq!(
            parse_uttt(&Opening::Uttt(moves.clone()).text()).unwrap(),
            moves
        );
    }

    #[test]
    fn tron_openings_keep_both_riders_alive() {
        let map = Map::load("rooms16").unwrap();
        let start = map.start_state().unwrap();
        for pair in 0..20 {
            let opening = Book::Random(6)
                .opening(Referee::Tron, 1, pair, Some(&map))
                .unwrap();
            let Opening::Tron(line, None) = &opening else {
                panic!()
            };
            let rounds = &line.rounds;
            assert_eq!(rounds.len(), 6);
            let state = replay_tron(&start, rounds).unwrap();
            assert!(state.outcome().is_none());
            assert_eq!(parse_tron(&opening.text()).unwrap().rounds, *rounds);
        }
        // rooms16 starts at (3, 7) and (12, 7): the riders going apart is fine, player 0
        // reversing into its own trail is not.
        let book = Book::Lines(vec!["lr lr".into(), "lr rl".into()]);
        assert!(book.opening(Referee::Tron, 1, 0, Some(&map)).is_ok());
        let err = book.opening(Referee::Tron, 1, 1, Some(&map)).unwrap_err();
        assert!(err.contains("round 1 crashes"), "{err}");
        assert!(parse_tron("rx").is_err() && parse_tron("rrr").is_err());
    }

    #[test]
    fn tron_lines_set_the_board_and_the_start() {
        let line = parse_tron("map=rooms16 start=2,5 rl ud").unwrap();
        assert_eq!(line.map.as_deref(), Some("rooms16"));
        assert_eq!(line.start, Some((2, 5)));
        assert_eq!(
            line.rounds,
            [
                [Direction::Right, Direction::Left],
                [Direction::Up, Direction::Down]
            ]
        );
        assert_eq!(parse_tron("start=3,7").unwrap().map, None);
        // Bad words are named with their line.
        for (bad, why) in [
            ("start=3", "not start=X,Y"),
            ("start=a,7", "not start=X,Y"),
            ("rl start=3,7", "before the rounds"),
            ("map=rooms16 map=gate16", "repeats"),
            ("map=", "repeats or is empty"),
            ("size=16", "unknown size="),
        ] {
            let err = parse_tron(bad).unwrap_err();
            assert!(
                err.contains(&format!("{bad:?}")) && err.contains(why),
                "{err}"
            );
        }

        let series_map = Map::load("gate16").unwrap();
        let opening = |line: &str, pair| {
            Book::Lines(vec![line.into()]).opening(Referee::Tron, 5, pair, Some(&series_map))
        };
        // map= replaces the pair's map, with the map's own starts...
        let o = opening("map=rooms16", 0).unwrap();
        assert_eq!(o.map(), Some(&Map::load("rooms16").unwrap()));
        assert_eq!(o.text(), "map=rooms16");
        // ... or the line's, the other mirrored as the map is (rooms16: left/right).
        let o = opening("map=rooms16 start=1,1 dd", 0).unwrap();
        assert_eq!(o.map().unwrap().starts, [(1, 1), (14, 1)]);
        assert_eq!(o.text(), "map=rooms16 start=1,1 dd");
        // start= alone moves the starts on the pair's map; rounds alone keep the pair's.
        let o = opening("start=4,1", 0).unwrap();
        assert_eq!(
            (o.map().unwrap().name.as_str(), o.map().unwrap().starts),
            ("gate16", [(4, 1), (11, 1)])
        );
        assert_eq!(opening("rl", 0).unwrap().map(), None);
        // The riddles board: the line's start, or the pair's random one.
        let o = opening("map=empty16x16 start=6,7", 0).unwrap();
        assert_eq!(
            (o.map().unwrap().name.as_str(), o.map().unwrap().starts),
            ("empty16x16", [(6, 7), (9, 7)])
        );
        let random = |pair| {
            opening("map=empty16x16", pair)
                .unwrap()
                .map()
                .unwrap()
                .starts
        };
        assert_eq!(random(3), random(3));
        assert!((4..12).any(|pair| random(pair) != random(3)));
        // Boards and starts that cannot be played are refused, naming the line.
        for (bad, why) in [
            ("map=nosuchmap", "no such file"),
            ("map=empty2x2", "too small"),
            ("map=rooms16 start=2,2", "wall"),
            ("start=20,1", "off the"),
            ("map=rooms16 start=1,0 uu", "round 0 crashes"),
        ] {
            let err = opening(bad, 0).unwrap_err();
            assert!(
                err.contains(&format!("{bad:?}")) && err.contains(why),
                "{err}"
            );
        }
    }

    #[test]
    fn a_suite_for_the_other_game_is_refused() {
        let uttt = Book::load("uttt_balanced").unwrap();
        let map = Map::load("rooms16").unwrap();
        let err = uttt.opening(Referee::Tron, 1, 0, Some(&map)).unwrap_err();
        assert!(
            err.contains("is a UTTT line") && err.contains("--game tron"),
            "{err}"
        );
        let tron = Book::load("lightriders_balanced").unwrap();
        let err = tron.opening(Referee::Uttt, 1, 0, None).unwrap_err();
        assert!(
            err.contains("is a Light Riders line") && err.contains("--game uttt"),
            "{err}"
        );
        // A line of neither keeps its own error.
        let err = Book::Lines(vec!["4,4 zz".into()])
            .opening(Referee::Uttt, 1, 0, None)
            .unwrap_err();
        assert!(err.contains("\"zz\" is not column,row"), "{err}");
    }

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
                .opening(Referee::Tron, 1, pair, Some(&default))
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
            let opening = book.opening(Referee::Tron, 1, pair as u64, None).unwrap();
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

    #[test]
    fn books_load_from_specs() {
        assert_eq!(Book::load("random:3").unwrap(), Book::Random(3));
        assert!(Book::load("random:x").is_err());
        assert!(Book::load("no/such/file").is_err());
        let Book::Lines(lines) = Book::load("uttt_balanced").unwrap() else {
            panic!()
        };
        assert!(lines.len() >= 20);
        for line in &lines {
            parse_uttt(line).unwrap();
        }
    }
}
