//! The arena's domain types: which referee plays ([`Referee`]), a series' options
//! ([`Options`]), a side's [`Clock`], an [`Engine`] of a series or tournament, a
//! [`Tournament`]'s pairings and a [`Shard`] of a series. [`crate::cli`] makes them from
//! the command line; everything else reads them.

use crate::stats::Sprt;
use mctsbot::game::GameKind;
use mctsbot::uttt::{Dialect, EndRule};
use std::path::PathBuf;

/// Which referee plays the games: a game under one platform's protocol, rules and clock.
/// UTTT has both platforms' referees; Light Riders is the engines' Tron, Tron Battle
/// CodinGame's, so the four constants are all there is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Referee {
    game: GameKind,
    codingame: bool,
}

impl Referee {
    /// The TheAIGames / riddles.io UTTT engine.
    pub const UTTT: Referee = Referee::engines(GameKind::Uttt);
    /// The riddles.io Light Riders engine.
    pub const LIGHT_RIDERS: Referee = Referee::engines(GameKind::LightRiders);
    /// CodinGame's UTTT: its line protocol, end rule (more boards wins a lineless game)
    /// and clock (a fixed time per turn, longer for the first).
    pub const UTTT_CODINGAME: Referee = Referee::codingame(GameKind::Uttt);
    /// CodinGame's Tron Battle: 2 to 4 riders on 30x20 moving in seat order, its line
    /// protocol and clock.
    pub const TRON_BATTLE: Referee = Referee::codingame(GameKind::TronBattle);

    const fn engines(game: GameKind) -> Referee {
        Referee {
            game,
            codingame: false,
        }
    }

    const fn codingame(game: GameKind) -> Referee {
        Referee {
            game,
            codingame: true,
        }
    }

    /// The game this referee plays.
    pub fn game(self) -> GameKind {
        self.game
    }

    /// Whether this is CodinGame's referee (its line protocol and clock).
    pub fn is_codingame(self) -> bool {
        self.codingame
    }

    /// The name on the command line and in `results.json`.
    pub fn name(self) -> &'static str {
        match (self.game, self.codingame) {
            (GameKind::Uttt, false) => "uttt",
            (GameKind::Uttt, true) => "uttt-cg",
            (GameKind::LightRiders, _) => "tron",
            (GameKind::TronBattle, _) => "tron-cg",
        }
    }

    pub fn from_name(name: &str) -> Option<Referee> {
        match name {
            "uttt" => Some(Referee::UTTT),
            "tron" | "lightriders" | "light-riders" => Some(Referee::LIGHT_RIDERS),
            "uttt-cg" | "uttt-codingame" => Some(Referee::UTTT_CODINGAME),
            "tron-cg" | "tron-battle" => Some(Referee::TRON_BATTLE),
            _ => None,
        }
    }
}

/// Everything a series needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub game: Referee,
    pub dialect: Dialect,
    /// `--game uttt`: how a game without a line of small boards ends.
    pub end_rule: EndRule,
    /// Each side's clock (the same unless an engine has time odds).
    pub clocks: Vec<Clock>,
    pub games: u32,
    pub jobs: usize,
    pub seed: u64,
    pub out: Option<PathBuf>,
    pub watch: bool,
    /// Light Riders maps (names of shipped maps or files); empty = riddles random board.
    pub maps: Vec<String>,
    pub width: u32,
    pub height: u32,
    /// Light Riders: rounds after which the game is a draw.
    pub max_rounds: u32,
    /// Tron Battle: riders in a game (2 to 4), seated A, B, A, B (B first in odd games);
    /// in a free-for-all, one per engine.
    pub riders: usize,
    /// Tron Battle free-for-all (`--ffa`): every engine rides alone, the seat order
    /// turning by one every game.
    pub ffa: bool,
    /// One per side: A and B, or a free-for-all's engines (A, B, C, D).
    pub names: Vec<String>,
    /// Shell commands of the sides.
    pub commands: Vec<String>,
    /// Stop the series once this test accepts a hypothesis (`games` is then the cap).
    pub sprt: Option<Sprt>,
    /// Play only shard K of N (1-based): the pairs `p` with `p % N == K − 1`.
    pub shard: Option<Shard>,
    /// `--openings`: a file, a shipped suite or `random:N`.
    pub openings: Option<String>,
    /// Continue the series recorded in `out` (its finished games are kept).
    pub resume: bool,
    /// Whether `--seed` was given: a resumed series without it takes the recorded seed.
    pub seed_given: bool,
}

impl Options {
    /// How the series' UTTT games end without a line: CodinGame's referee always gives
    /// them to the player with more boards; the engines' follow `--end-rule`.
    pub fn uttt_end_rule(&self) -> EndRule {
        if self.game == Referee::UTTT_CODINGAME {
            EndRule::MoreBoards
        } else {
            self.end_rule
        }
    }

    /// The sides of the series: two, or a free-for-all's engines.
    pub fn sides(&self) -> usize {
        self.names.len()
    }
}

/// A side's clock: the initial and maximum timebank and the refill after every answer,
/// in milliseconds (on CodinGame's clocks: the first turn's time and every later turn's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub timebank: u64,
    pub time_per_move: u64,
}

impl Clock {
    /// Parses `BANK+INC` in milliseconds, as in `tc=10000+500`.
    pub fn parse(text: &str) -> Result<Clock, String> {
        let (bank, inc) = text
            .split_once('+')
            .ok_or(format!("tc needs BANK+INC in ms, got {text:?}"))?;
        Ok(Clock {
            timebank: bank
                .parse()
                .map_err(|_| format!("tc needs BANK+INC in ms, got {text:?}"))?,
            time_per_move: inc
                .parse()
                .map_err(|_| format!("tc needs BANK+INC in ms, got {text:?}"))?,
        })
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.timebank, self.time_per_move)
    }
}

/// One engine of a series or tournament: `--engine 'name=NAME [tc=BANK+INC] cmd=COMMAND'`
/// (`cmd=` last: the rest of the text is the command).
#[derive(Clone, Debug, PartialEq)]
pub struct Engine {
    pub name: String,
    pub command: String,
    /// Its own clock (time odds); `None` plays on the series' clock.
    pub clock: Option<Clock>,
}

impl Engine {
    pub fn parse(spec: &str) -> Result<Engine, String> {
        let mut rest = spec.trim_start();
        let (mut name, mut clock) = (None, None);
        while !rest.is_empty() {
            let (key, value) = rest
                .split_once('=')
                .ok_or(format!("--engine {spec:?}: expected KEY=VALUE at {rest:?}"))?;
            if key == "cmd" {
                let command = value.trim().to_string();
                if command.is_empty() {
                    return Err(format!("--engine {spec:?}: cmd= is empty"));
                }
                return Ok(Engine {
                    name: name.ok_or(format!("--engine {spec:?}: needs name="))?,
                    command,
                    clock,
                });
            }
            let (value, after) = value.split_once(' ').unwrap_or((value, ""));
            match key {
                "name" if !value.is_empty() => name = Some(value.to_string()),
                "tc" => clock = Some(Clock::parse(value)?),
                _ => return Err(format!("--engine {spec:?}: unknown or empty key {key:?}")),
            }
            rest = after.trim_start();
        }
        Err(format!("--engine {spec:?}: needs cmd=COMMAND (last)"))
    }
}

/// A tournament's pairings: one engine against each other, or every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    Gauntlet,
    RoundRobin,
}

impl TournamentKind {
    pub fn name(self) -> &'static str {
        match self {
            TournamentKind::Gauntlet => "gauntlet",
            TournamentKind::RoundRobin => "round-robin",
        }
    }
}

/// `arena gauntlet|round-robin`: the engines, and the series options every pairing
/// shares (`template`'s bots are the first two engines).
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    pub kind: TournamentKind,
    pub engines: Vec<Engine>,
    pub template: Options,
}

impl Tournament {
    /// The pairs of engine indexes that play a series, in playing order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.kind {
            TournamentKind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            TournamentKind::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// The series of the pairing `(a, b)`: the template with those engines as A and B,
    /// recorded in its own folder under `--out`.
    pub fn series(&self, number: usize, (a, b): (usize, usize)) -> Options {
        let mut opts = self.template.clone();
        let default = opts.clocks[0];
        for (side, engine) in [&self.engines[a], &self.engines[b]].into_iter().enumerate() {
            opts.names[side] = engine.name.clone();
            opts.commands[side] = engine.command.clone();
            opts.clocks[side] = engine.clock.unwrap_or(default);
        }
        opts.out = self.template.out.as_ref().map(|dir| {
            dir.join(format!(
                "{:02}_{}_vs_{}",
                number + 1,
                file_name(&self.engines[a].name),
                file_name(&self.engines[b].name)
            ))
        });
        opts
    }
}

/// `name` with anything but letters, digits, `-`, `_` and `.` replaced by `_`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One of N equal shares of a series, by pairs of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1..=count.
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Parses `K/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
        match parsed {
            Some((index, count)) if index >= 1 && index <= count => Ok(Shard { index, count }),
            _ => Err(format!("--shard needs K/N with 1 <= K <= N, got {text:?}")),
        }
    }

    /// Whether game `game` of the series is in this shard (both games of a pair are).
    pub fn has_game(&self, game: usize) -> bool {
        (game / 2) % self.count as usize == (self.index - 1) as usize
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
