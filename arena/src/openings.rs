//! Openings: the moves the arena plays before it hands a game to the bots, so that a
//! series covers many positions instead of replaying the start. Both games of a pair get
//! the same opening (with colours swapped), from a file or a seeded random generator.
//!
//! File format, one opening per line (blank lines and `#` comments skipped):
//! - UTTT: plies as the engine's `place_move` coordinates `column,row`, e.g. `4,4 3,5`;
//! - Light Riders: rounds as two letters, player 0's direction then player 1's, from
//!   `u d l r`, e.g. `rl ul`.
//!
//! `--openings NAME` also finds the suites shipped in `protocol/openings/NAME.txt`.

use super::cli::GameKind;
use super::maps::Map;
use super::tron_match::start_state;
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
    /// Per round, player 0's direction and player 1's.
    Tron(Vec<[Direction; 2]>),
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
        game: GameKind,
        seed: u64,
        pair: u64,
        map: Option<&Map>,
    ) -> Result<Opening, String> {
        let rng = || FastRng::seed_from_u64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ pair);
        match (self, game) {
            (Book::Random(plies), GameKind::Uttt) => Ok(Opening::Uttt(random_uttt(*plies, rng()))),
            (Book::Lines(lines), GameKind::Uttt) => {
                let line = &lines[pair as usize % lines.len()];
                parse_uttt(line).map(Opening::Uttt)
            }
            (_, GameKind::UtttCodinGame | GameKind::TronCodinGame) => Err(
                "CodinGame's protocols cannot show a bot an opening (UTTT sends only the last \
                 move, Tron Battle only the heads)"
                    .into(),
            ),
            (book, GameKind::Tron) => {
                let start = start_state(map.ok_or("a Light Riders opening needs a map")?)?;
                match book {
                    Book::Random(rounds) => Ok(Opening::Tron(random_tron(&start, *rounds, rng()))),
                    Book::Lines(lines) => {
                        let line = &lines[pair as usize % lines.len()];
                        let rounds = parse_tron(line)?;
                        replay_tron(&start, &rounds)
                            .map(|_| Opening::Tron(rounds))
                            .map_err(|e| format!("opening {line:?}: {e}"))
                    }
                }
            }
        }
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
            Opening::Tron(rounds) => rounds
                .iter()
                .map(|[a, b]| format!("{}{}", letter(*a), letter(*b)))
                .collect::<Vec<_>>()
                .join(" "),
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

fn parse_tron(line: &str) -> Result<Vec<[Direction; 2]>, String> {
    let direction = |c: char| {
        Direction::ALL
            .into_iter()
            .find(|&d| letter(d) == c)
            .ok_or(format!("opening {line:?}: {c:?} is not one of u d l r"))
    };
    line.split_whitespace()
        .map(|round| {
            let letters: Vec<char> = round.chars().collect();
            match letters[..] {
                [a, b] => Ok([direction(a)?, direction(b)?]),
                _ => Err(format!("opening {line:?}: {round:?} is not two letters")),
            }
        })
        .collect()
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

/// Settings of `arena openings`, the generator of balanced UTTT suites.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    /// Random plies per candidate, drawn evenly from this range.
    pub plies: std::ops::RangeInclusive<u32>,
    pub count: usize,
    /// Search time per candidate.
    pub ms: u64,
    /// Keep a candidate whose value for the player to move is within this of 0.5.
    pub within: f32,
    pub seed: u64,
}

/// Balanced UTTT openings: random lines of `spec.plies` plies, each searched for
/// `spec.ms` by the bot's own MCTS, kept when the search calls them even, until
/// `spec.count` are found (or 50 times as many candidates were tried). Each line comes
/// with its value as a comment.
pub fn balanced_uttt_suite(spec: &SuiteSpec) -> Vec<String> {
    use mctsbot::bot::options::UTTT_SEARCH;
    use mctsbot::search::tree::{Tree, TreeConfig};
    use mctsbot::search::Limits;
    use mctsbot::uttt::RandomPlayout;
    let mut rng = FastRng::seed_from_u64(spec.seed);
    let mut suite: Vec<String> = Vec::new();
    let span = (spec.plies.end() - spec.plies.start() + 1) as u64;
    for _ in 0..spec.count * 50 {
        if suite.len() >= spec.count {
            break;
        }
        let plies = spec.plies.start() + (rng.next_u64() % span) as u32;
        let moves = random_uttt(plies, FastRng::seed_from_u64(rng.next_u64()));
        let line = Opening::Uttt(moves.clone()).text();
        if suite.iter().any(|s| s.starts_with(&format!("{line} "))) {
            continue;
        }
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
        let mut tree = Tree::new(board, config, RandomPlayout, rng.next_u64());
        tree.search(Limits::millis(spec.ms));
        let Some(best) = tree.best_move() else {
            continue;
        };
        if (best.value - 0.5).abs() <= spec.within {
            suite.push(format!(
                "{line} # {} to move, value {:.3} after {} ms",
                if board.to_move() == 0 { "X" } else { "O" },
                best.value,
                spec.ms
            ));
        }
    }
    suite
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
        let a = book.opening(GameKind::Uttt, 7, 3, None).unwrap();
        assert_eq!(a, book.opening(GameKind::Uttt, 7, 3, None).unwrap());
        let others: Vec<Opening> = (4..10)
            .map(|pair| book.opening(GameKind::Uttt, 7, pair, None).unwrap())
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
        let start = start_state(&map).unwrap();
        for pair in 0..20 {
            let opening = Book::Random(6)
                .opening(GameKind::Tron, 1, pair, Some(&map))
                .unwrap();
            let Opening::Tron(rounds) = &opening else {
                panic!()
            };
            assert_eq!(rounds.len(), 6);
            let state = replay_tron(&start, rounds).unwrap();
            assert!(state.outcome().is_none());
            assert_eq!(parse_tron(&opening.text()).unwrap(), *rounds);
        }
        // rooms16 starts at (3, 7) and (12, 7): the riders going apart is fine, player 0
        // reversing into its own trail is not.
        let book = Book::Lines(vec!["lr lr".into(), "lr rl".into()]);
        assert!(book.opening(GameKind::Tron, 1, 0, Some(&map)).is_ok());
        let err = book.opening(GameKind::Tron, 1, 1, Some(&map)).unwrap_err();
        assert!(err.contains("round 1 crashes"), "{err}");
        assert!(parse_tron("rx").is_err() && parse_tron("rrr").is_err());
    }

    #[test]
    fn a_balanced_suite_keeps_even_positions_only() {
        let spec = SuiteSpec {
            plies: 2..=3,
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
            assert!((value - 0.5).abs() <= 0.05, "{line}");
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
