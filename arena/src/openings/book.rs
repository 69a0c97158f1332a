//! The book of openings (`random:N`, a file or a shipped suite) and the opening it gives
//! each pair of a series, checked against its game and board; an opening as a line.

use super::tron::{board_of, letter, parse_tron, random_tron, replay_tron, TronLine};
use super::uttt::{parse_uttt, random_uttt};
use crate::maps::Map;
use crate::options::Referee;
use mctsbot::game::GameKind;
use mctsbot::search::FastRng;
use mctsbot::uttt::Move;
use rand::SeedableRng;

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
        if game.is_codingame() {
            return Err(
                "CodinGame's protocols cannot show a bot an opening (UTTT sends only the \
                        last move, Tron Battle only the heads)"
                    .into(),
            );
        }
        match (self, game.game()) {
            (Book::Random(plies), GameKind::Uttt) => Ok(Opening::Uttt(random_uttt(*plies, rng()))),
            (Book::Lines(lines), GameKind::Uttt) => {
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
            (Book::Random(rounds), GameKind::LightRiders | GameKind::TronBattle) => {
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
            (Book::Lines(lines), GameKind::LightRiders | GameKind::TronBattle) => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_the_same_for_a_pair_and_differ_between_pairs() {
        let book = Book::Random(4);
        let a = book.opening(Referee::UTTT, 7, 3, None).unwrap();
        assert_eq!(a, book.opening(Referee::UTTT, 7, 3, None).unwrap());
        let others: Vec<Opening> = (4..10)
            .map(|pair| book.opening(Referee::UTTT, 7, pair, None).unwrap())
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
    fn a_suite_for_the_other_game_is_refused() {
        let uttt = Book::load("uttt_balanced").unwrap();
        let map = Map::load("rooms16").unwrap();
        let err = uttt
            .opening(Referee::LIGHT_RIDERS, 1, 0, Some(&map))
            .unwrap_err();
        assert!(
            err.contains("is a UTTT line") && err.contains("--game tron"),
            "{err}"
        );
        let tron = Book::load("lightriders_balanced").unwrap();
        let err = tron.opening(Referee::UTTT, 1, 0, None).unwrap_err();
        assert!(
            err.contains("is a Light Riders line") && err.contains("--game uttt"),
            "{err}"
        );
        // A line of neither keeps its own error.
        let err = Book::Lines(vec!["4,4 zz".into()])
            .opening(Referee::UTTT, 1, 0, None)
            .unwrap_err();
        assert!(err.contains("\"zz\" is not column,row"), "{err}");
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
