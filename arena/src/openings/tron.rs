//! Light Riders lines: a line's words (`map=`, `start=`, rounds) parsed, the board it
//! sets, its rounds replayed, and random rounds that keep both riders alive.

use crate::maps::{empty_size, Map};
use mctsbot::search::FastRng;
use mctsbot::tron::{Direction, TronState};
use rand::RngCore;

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
/// [`Book::opening`](super::Book::opening).
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

/// The board a Light Riders line sets, if it sets one: its `map=` (the riddles board
/// `emptyWxH` with the pair's random starts, like the series' own), else the pair's
/// `map`, with the line's `start=`.
pub(super) fn board_of(
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

/// The position after `rounds`, or why they do not leave both riders alive.
pub(super) fn replay_tron(
    start: &TronState,
    rounds: &[[Direction; 2]],
) -> Result<TronState, String> {
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
pub(super) fn random_tron(start: &TronState, rounds: u32, mut rng: FastRng) -> Vec<[Direction; 2]> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{Book, Opening};
    use crate::options::Referee;

    #[test]
    fn tron_openings_keep_both_riders_alive() {
        let map = Map::load("rooms16").unwrap();
        let start = map.start_state().unwrap();
        for pair in 0..20 {
            let opening = Book::Random(6)
                .opening(Referee::LIGHT_RIDERS, 1, pair, Some(&map))
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
        assert!(book
            .opening(Referee::LIGHT_RIDERS, 1, 0, Some(&map))
            .is_ok());
        let err = book
            .opening(Referee::LIGHT_RIDERS, 1, 1, Some(&map))
            .unwrap_err();
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
            Book::Lines(vec![line.into()]).opening(
                Referee::LIGHT_RIDERS,
                5,
                pair,
                Some(&series_map),
            )
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
}
