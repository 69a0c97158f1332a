//! The JSON files a series or tournament leaves in its `--out` folder, as serde types:
//! the one schema they are written and read back through (`series.json`, the lines of
//! `games.jsonl`, `results.json`, `ratings.json`; see [`crate::record`]).
//!
//! Field names are those of the files the arena has always written; fields that older
//! files lack are `#[serde(default)]`, so old folders still read. Numbers are rounded
//! before they are written ([`round`]): scores to 4 decimals, Elo to 1.

use serde::{Deserialize, Serialize};

/// A number rounded to `decimals`, or `None` (JSON `null`) when it is not finite (the
/// Elo of a series one side won every game of).
pub fn round(x: f64, decimals: i32) -> Option<f64> {
    let scale = 10f64.powi(decimals);
    x.is_finite().then(|| (x * scale).round() / scale)
}

/// A value for each side: bot A's and bot B's, and a free-for-all's C and D.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Sides<T> {
    #[serde(rename = "A")]
    pub a: T,
    #[serde(rename = "B")]
    pub b: T,
    /// A free-for-all's third engine (absent with two sides).
    #[serde(rename = "C", default, skip_serializing_if = "Option::is_none")]
    pub c: Option<T>,
    /// A free-for-all's fourth engine.
    #[serde(rename = "D", default, skip_serializing_if = "Option::is_none")]
    pub d: Option<T>,
}

impl<T> Sides<T> {
    pub fn new(a: T, b: T) -> Sides<T> {
        Sides {
            a,
            b,
            c: None,
            d: None,
        }
    }

    /// `f` of each of `items` (2 to 4, in side order).
    pub fn of<S>(items: &[S], f: impl Fn(&S) -> T) -> Sides<T> {
        let mut values = items.iter().map(f);
        let mut next = || values.next();
        let (a, b) = (next().expect("side A"), next().expect("side B"));
        Sides {
            a,
            b,
            c: next(),
            d: next(),
        }
    }

    /// The values in side order.
    pub fn into_vec(self) -> Vec<T> {
        [Some(self.a), Some(self.b), self.c, self.d]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// The settings of a series: what `--resume` checks and `merge`/`report` rebuild the
/// series' options from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Settings {
    /// `uttt`, `tron`, `uttt-cg` or `tron-cg`.
    pub game: String,
    /// The UTTT dialect: `TheAiGames` or `Riddles`.
    pub dialect: String,
    /// How a lineless UTTT game ends: `Draw` or `MoreBoards` (older files: `Draw`).
    #[serde(default = "draw")]
    pub end_rule: String,
    /// Bot A's timebank (and the series' clock), ms.
    pub timebank: u64,
    /// Bot A's refill after every answer, ms.
    pub time_per_move: u64,
    /// Bot B's timebank, ms (older files, before time odds: A's).
    #[serde(default)]
    pub timebank_b: Option<u64>,
    /// Bot B's refill, ms (older files: A's).
    #[serde(default)]
    pub time_per_move_b: Option<u64>,
    /// Tron Battle: riders in a game (older files: 2).
    #[serde(default = "two")]
    pub riders: usize,
    /// Games of the series (the SPRT's cap).
    pub games: u32,
    /// The series' seed.
    pub seed: u64,
    /// Bot A's command.
    pub a: String,
    /// Bot B's command.
    pub b: String,
    /// Bot A's name in the table.
    pub name_a: String,
    /// Bot B's name in the table.
    pub name_b: String,
    /// `--openings`: a file, a suite or `random:N`; null without.
    #[serde(default)]
    pub openings: Option<String>,
    /// `--shard K/N`; null for a whole series.
    #[serde(default)]
    pub shard: Option<String>,
    /// Light Riders maps; empty for the riddles random board.
    #[serde(default)]
    pub maps: Vec<String>,
    /// Width of the default Light Riders board (older files: 16).
    #[serde(default = "sixteen")]
    pub width: u32,
    /// Height of the default Light Riders board (older files: 16).
    #[serde(default = "sixteen")]
    pub height: u32,
    /// Light Riders: rounds before a draw (older files: width × height).
    #[serde(default)]
    pub max_rounds: Option<u32>,
    /// A Tron Battle free-for-all (`--ffa`): every engine, sides A, B, C, D in order,
    /// with its clock (`a`, `b` and their names repeat the first two); absent for a
    /// series of two sides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ffa: Vec<EngineRow>,
}

fn draw() -> String {
    "Draw".into()
}

fn two() -> usize {
    2
}

fn sixteen() -> u32 {
    16
}

/// The test of a series (`--sprt`).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// `series.json`, written when a series starts.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SeriesFile {
    pub settings: Settings,
    /// The test, null without `--sprt`.
    pub sprt: Option<SprtSettings>,
}

/// One finished game: a line of `games.jsonl`, an entry of `results.json`'s `games`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's index in the series (its colours and seed follow from it).
    pub index: usize,
    /// The Light Riders map (`?` in older files without one).
    #[serde(default = "unknown_map")]
    pub map: String,
    /// Which player (0 or 1, the first to move) bot A was; in a free-for-all, A's seat
    /// (B, C, D sit in the seats after it, wrapping round).
    pub a_player: u8,
    /// `A`, `B` or `draw` (a free-for-all's `C` or `D` too).
    pub winner: String,
    /// A free-for-all: each engine's place in the game (1 = the last rider left; the
    /// others by the turn they went out, later is better); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Sides<u32>>,
    /// The opening the game started from, empty for none.
    #[serde(default)]
    pub opening: String,
    /// Why the game ended, in words.
    #[serde(default)]
    pub reason: String,
    /// Moves (UTTT plies, Light Riders rounds) played.
    pub moves: u32,
    /// The moves, in the game's own notation (older files: none).
    #[serde(default)]
    pub line: String,
    /// Wall time of the game, ms.
    pub wall_ms: u64,
    /// Answers too late or missing (per side, as every `Sides` field: A, B, and in a
    /// free-for-all C and D).
    pub timeouts: Sides<u32>,
    /// Unparsable or illegal answers.
    pub illegal: Sides<u32>,
    /// 1 if the bot exited or closed its output.
    pub crashes: Sides<u32>,
    /// Requests answered or timed out.
    pub answers: Sides<u32>,
    /// Peak resident memory, KiB (0 if unknown).
    pub peak_rss_kib: Sides<u64>,
    /// Thinking time, ms (1 decimal); `time_us` is the exact figure.
    pub time_ms: Sides<Option<f64>>,
    /// Thinking time, µs.
    pub time_us: Sides<u64>,
    /// The transcripts' paths, relative to the series folder.
    pub transcripts: Sides<String>,
}

fn unknown_map() -> String {
    "?".into()
}

/// The totals of a group of games (the series, or one map), from A's side.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub games: u32,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
    /// A's points per game, 0..1 (4 decimals).
    pub score: Option<f64>,
    /// Half-width of the score's 95 % interval.
    pub score_ci95: Option<f64>,
    /// Elo A − B (1 decimal; null when infinite).
    pub elo: Option<f64>,
    /// Half-width of the Elo's 95 % interval.
    pub elo_ci95: Option<f64>,
    /// The Elo of the interval's ends.
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    pub timeouts: Sides<u32>,
    pub illegal: Sides<u32>,
    pub crashes: Sides<u32>,
    /// The largest peak memory of each side, KiB.
    pub peak_rss_kib: Sides<u64>,
    /// Moves per game (2 decimals).
    pub avg_moves: Option<f64>,
    /// Thinking time per answer, ms (1 decimal).
    pub ms_per_move: Sides<Option<f64>>,
}

/// The series counted by pairs of games (the two colours of an opening); none in a
/// free-for-all of more than two engines.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PairsRow {
    pub pairs: u32,
    /// Pairs in which A took 0, ½, 1, 1½ and 2 points.
    pub pentanomial: [u32; 5],
    /// The pairs' score and Elo, with 95 % half-widths (absent without a pair).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_ci95: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo_ci95: Option<f64>,
}

/// The test's state at the end of a series.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SprtRow {
    /// `pentanomial`.
    pub model: String,
    #[serde(flatten)]
    pub test: SprtSettings,
    /// Pairs counted.
    pub pairs: u32,
    /// Log-likelihood ratio and its bounds (3 decimals).
    pub llr: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    /// `continue`, `H0 accepted` or `H1 accepted`.
    pub state: String,
}

/// The summary of the games on one map.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct MapRow {
    pub map: String,
    pub summary: SummaryRow,
}

/// One engine of a free-for-all over the games: its places, faults and time.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct PlaceRow {
    /// `A`, `B`, `C` or `D`: its letter in `games`.
    pub side: String,
    pub name: String,
    pub games: u32,
    /// Games it finished 1st, 2nd, ...: one count per place, as many as riders.
    pub places: Vec<u32>,
    /// Its average place (2 decimals): 1 for winning every game, the number of
    /// riders for coming last in every game.
    pub mean_place: Option<f64>,
    /// Games it sat in seat 0 (the first to move), 1, ...
    pub seats: Vec<u32>,
    pub timeouts: u32,
    pub illegal: u32,
    pub crashes: u32,
    /// Its largest peak memory, KiB.
    pub peak_rss_kib: u64,
    /// Thinking time per answer, ms (1 decimal).
    pub ms_per_move: Option<f64>,
}

/// `results.json`, written when a series ends (or by `arena merge`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Results {
    pub settings: Settings,
    /// Every game, by index.
    pub games: Vec<GameRow>,
    /// Null when no game was played, or in a free-for-all of more than two engines
    /// (A against B says little there: see `places`).
    pub summary: Option<SummaryRow>,
    pub pairs: PairsRow,
    /// Null without `--sprt`.
    pub sprt: Option<SprtRow>,
    /// One summary per map, for Light Riders with `--map`.
    #[serde(default)]
    pub per_map: Vec<MapRow>,
    /// A free-for-all (`--ffa`): each engine's places, mean place, seats and faults, in
    /// side order; absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<PlaceRow>,
}

/// An engine of a tournament.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EngineRow {
    pub name: String,
    /// Its shell command.
    pub cmd: String,
    /// Its clock, `BANK+INC` in ms.
    pub tc: Option<String>,
}

/// An engine's place in the rating list.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub name: String,
    /// Elo, the list's average being 0 (1 decimal).
    pub elo: Option<f64>,
    /// Half-width of its 95 % interval.
    pub elo_ci95: Option<f64>,
    pub games: u32,
    /// Points, a draw counting one half.
    pub points: Option<f64>,
    pub draws: u32,
    /// Likelihood that it is stronger than the next engine (4 decimals); null for the last.
    pub los_next: Option<f64>,
}

/// `ratings.json`, written when a tournament ends.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RatingsFile {
    /// `gauntlet` or `round-robin`.
    pub kind: String,
    pub engines: Vec<EngineRow>,
    /// The pairings' folders, relative to the tournament's.
    pub pairings: Vec<String>,
    /// Best first.
    pub ratings: Vec<RatingRow>,
}

/// `value` as the arena writes its files: pretty-printed, with a final newline.
pub fn to_text<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("plain data serialises");
    text.push('\n');
    text
}

/// A line of `games.jsonl`.
pub fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}
