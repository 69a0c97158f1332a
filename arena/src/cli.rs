//! Command-line options of `arena`, parsed by hand like the bot's (with its helpers in
//! `mctsbot::cli`).

use crate::stats::Sprt;
use mctsbot::cli::{clock_seed, number};
use mctsbot::protocol::codingame::{FIRST_TURN_MS, TURN_MS};
use mctsbot::protocol::Dialect;
use mctsbot::timeman::{ENGINE_TIMEBANK_MS, TRON_TIME_PER_MOVE_MS, UTTT_TIME_PER_MOVE_MS};
use mctsbot::uttt::EndRule;
use std::path::PathBuf;

/// Which game the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Uttt,
    Tron,
    /// CodinGame's UTTT: its line protocol, end rule (more boards wins a lineless game)
    /// and clock (a fixed time per turn, longer for the first).
    UtttCodinGame,
    /// CodinGame's Tron Battle: 2 to 4 riders on 30x20 moving in seat order, its line
    /// protocol and clock.
    TronCodinGame,
}

impl GameKind {
    /// The name on the command line and in `results.json`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Uttt => "uttt",
            GameKind::Tron => "tron",
            GameKind::UtttCodinGame => "uttt-cg",
            GameKind::TronCodinGame => "tron-cg",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        match name {
            "uttt" => Some(GameKind::Uttt),
            "tron" | "lightriders" | "light-riders" => Some(GameKind::Tron),
            "uttt-cg" | "uttt-codingame" => Some(GameKind::UtttCodinGame),
            "tron-cg" | "tron-battle" => Some(GameKind::TronCodinGame),
            _ => None,
        }
    }
}

/// Everything a series needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub game: GameKind,
    pub dialect: Dialect,
    /// `--game uttt`: how a game without a line of small boards ends.
    pub end_rule: EndRule,
    /// Bot A's and bot B's clocks (the same unless an engine has time odds).
    pub clocks: [Clock; 2],
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
    /// Tron Battle: riders in a game (2 to 4), seated A, B, A, B (B first in odd games).
    pub riders: usize,
    pub names: [String; 2],
    /// Shell commands of bots A and B.
    pub commands: [String; 2],
    /// Stop the series once this test accepts a hypothesis (`games` is then the cap).
    pub sprt: Option<Sprt>,
    /// Play only shard K of N (1-based): the pairs `p` with `p % N == K − 1`.
    pub shard: Option<Shard>,
    /// `--openings`: a file, a shipped suite or `random:N`.
    pub openings: Option<String>,
    /// Continue the series recorded in `out` (its finished games are kept).
    pub resume: bool,
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
            timebank: number("tc", bank)?,
            time_per_move: number("tc", inc)?,
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

pub const USAGE: &str = "\
usage: arena --game uttt|tron|uttt-cg|tron-cg [options] -- \"COMMAND A\" \"COMMAND B\"

Plays bot A against bot B (each run with `sh -c COMMAND`) over the TheAIGames /
riddles.io engine protocol; with --games N, a series with colours alternated.

options:
  --game uttt|tron|uttt-cg|tron-cg
                          the game (default uttt); uttt-cg is CodinGame's UTTT: its
                          protocol, its end rule (a lineless game goes to the player
                          with more boards), a fixed time per turn (--timebank is
                          the first turn's, default 1000; --time-per-move every
                          later turn's, default 100), and no second chance;
                          tron-cg is CodinGame's Tron Battle on its clock: 30x20,
                          riders moving in seat order, a rider out of the game
                          (crash, timeout, bad answer) losing its trail
  --riders N              tron-cg: riders in a game, 2 to 4 (default 2), seated
                          A B A B (B A B A in odd games); the side of the last
                          rider left wins
  --dialect theaigames|riddles   UTTT dialect (default theaigames, the 2016 engine)
  --end-rule draw|boards  uttt: a game that ends without a line of small boards is a
                          draw (TheAIGames, the default) or goes to the player with
                          more small boards (CodinGame's rule, for bots that speak
                          the engines' protocol)
  --timebank MS           maximum and initial timebank (default 10000)
  --time-per-move MS      added after every answer (default 500 uttt, 200 tron)
  --games N               games to play, colours alternated; the cap of an SPRT
                          (default 1, or 20000 with --sprt)
  --sprt 'elo0=E0 elo1=E1 [alpha=A] [beta=B]'
                          stop as soon as a sequential probability ratio test
                          accepts Elo = E0 (H0) or Elo = E1 (H1), over game pairs
                          (pentanomial); alpha and beta default to 0.05
  --openings FILE|NAME|random:N
                          start every pair of games from an opening: one per line of
                          FILE (UTTT `column,row` plies; Light Riders
                          `[map=NAME] [start=X,Y] [rounds such as rl ud]`: the pair's
                          board instead of --map, player 0's start with player 1 at
                          its mirror image, rounds played first), a suite in
                          protocol/openings/ (uttt_balanced, lightriders_balanced),
                          or N random plies / rounds that crash no rider
  --shard K/N             play only the K-th of N shares of the series (every N-th
                          pair of games, with the boards, colours and seeds the whole
                          series gives them); `arena merge` joins the shards' --out
                          folders (an SPRT is then decided by the merge)

  arena merge [--out DIR] SHARD_DIR...
                          one table and results.json from the shards' results.json
                          (summary, pairs and SPRT recomputed from their games)
  arena report [--out DIR] RUN_DIR...
                          SVG pictures and an HTML page of series (finished or
                          interrupted): score per map / opening, the SPRT walk, the
                          Elo ladder of several runs (oldest first), and for a
                          tournament's folder its rating list and every pairing
                          [report/]
  arena openings [--plies MIN..MAX] [--count N] [--ms MS] [--within X] [--seed S]
                          prints a balanced UTTT suite: random lines of MIN..MAX
                          plies [2..4] kept when MS ms [1000] of the bot's search
                          values them within X [0.03] of even, until N [40]
  arena openings --game tron [--map NAME,...] [--count N] [--ms MS] [--within X]
                          the same for Light Riders: each map's own starts, and the
                          riddles starts of emptyWxH boards [empty16x16], with no
                          rider boxed in (see arena openings --help)
  -V, --version           the arena's version
  -j, --jobs J            games in parallel (default: all cores)
  --seed S                seed for boards and for {seed} in commands (default: clock)
  --out DIR               write DIR/results.json, transcripts and bot stderr
  --watch                 print the board after every move to stderr
  --map NAME|FILE         Light Riders map, repeatable or comma-separated; shipped:
                          empty13 empty6 pillars13 brackets13 rooms16 chevrons16
                          gate16 doors13
                          (protocol/maps/NAME.txt in the current or source folder)
                          (default: empty board with the riddles engine's random starts)
  --width W --height H    size of that default board (default 16x16)
  --max-rounds R          Light Riders: a draw after R rounds (default W*H)
  --name-a NAME --name-b NAME   labels in the table (default A, B)
  --engine 'name=NAME [tc=BANK+INC] cmd=COMMAND'
                          an engine, instead of the commands: its name, its own
                          clock in ms (time odds; default --timebank and
                          --time-per-move), and its command (the rest of the text)
  --resume                continue the series (or tournament) recorded in --out DIR:
                          its finished games are kept and the others played; give
                          the same options (the seed is read from DIR if not given);
                          --games may grow

With --out, each game is recorded as soon as it ends: a line of DIR/games.jsonl (the
moves, result, reason, faults and times; DIR/series.json holds the settings) and its
transcripts, so an interrupted series keeps its games (`arena merge` and `arena report`
read them) and `--resume` continues it.

In a command, {seed} becomes a per-game seed and {game} the game's index.";

/// Flags that take no value.
const SWITCHES: &[&str] = &["-h", "--help", "--watch", "--resume"];

/// Flags that take a value (`--flag VALUE` or `--flag=VALUE`).
const VALUED: &[&str] = &[
    "--game",
    "--dialect",
    "--end-rule",
    "--timebank",
    "--time-per-move",
    "--games",
    "--sprt",
    "--shard",
    "--openings",
    "-j",
    "--jobs",
    "--seed",
    "--out",
    "--map",
    "--width",
    "--height",
    "--max-rounds",
    "--riders",
    "--name-a",
    "--name-b",
    "--engine",
];

/// Parses the arguments of a series (after the program name). `Ok(None)` means `--help`.
pub fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let Some((opts, engines)) = parse_engines(args)? else {
        return Ok(None);
    };
    if engines.len() != 2 {
        return Err(format!("need two bot commands, got {}", engines.len()));
    }
    Ok(Some(opts))
}

/// Parses the arguments of `arena gauntlet|round-robin` (after the subcommand).
/// `Ok(None)` means `--help`.
pub fn parse_tournament(
    kind: TournamentKind,
    args: &[String],
) -> Result<Option<Tournament>, String> {
    let Some((template, engines)) = parse_engines(args)? else {
        return Ok(None);
    };
    if engines.len() < 3 {
        return Err(format!(
            "a {} needs at least three engines (two make a series), got {}",
            kind.name(),
            engines.len()
        ));
    }
    if template.sprt.is_some() || template.shard.is_some() {
        return Err(format!(
            "--sprt and --shard are for a series, not a {}",
            kind.name()
        ));
    }
    let mut names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(twice) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("two engines are named {:?}", twice[0]));
    }
    Ok(Some(Tournament {
        kind,
        engines,
        template,
    }))
}

/// The options and the engines (`--engine` specs, or bot commands named by
/// `--name-a`/`--name-b`), the first two of them as bots A and B.
fn parse_engines(args: &[String]) -> Result<Option<(Options, Vec<Engine>)>, String> {
    let mut game = GameKind::Uttt;
    let mut dialect = Dialect::TheAiGames;
    let mut end_rule = EndRule::Draw;
    let mut timebank = None;
    let mut time_per_move = None;
    let mut games = None;
    let mut sprt = None;
    let mut shard = None;
    let mut openings = None;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut seed = None;
    let mut out = None;
    let mut watch = false;
    let mut resume = false;
    let mut maps = Vec::new();
    let (mut width, mut height) = (16, 16);
    let mut max_rounds = None;
    let mut riders = 2;
    let mut names = ["A".to_string(), "B".to_string()];
    let mut commands = Vec::new();
    let mut engines = Vec::new();

    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--" {
            commands.extend(args[i..].iter().cloned());
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            commands.push(arg.to_string());
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (arg, None),
        };
        if SWITCHES.contains(&flag) {
            if inline.is_some() {
                return Err(format!("{flag} takes no value"));
            }
            match flag {
                "--watch" => watch = true,
                "--resume" => resume = true,
                _ => return Ok(None),
            }
            continue;
        }
        if !VALUED.contains(&flag) {
            return Err(format!("unknown option {flag}"));
        }
        let value = match inline {
            Some(v) => v,
            None => {
                let v = args.get(i).ok_or(format!("{flag} needs a value"))?.clone();
                i += 1;
                v
            }
        };
        match flag {
            "--game" => {
                game = GameKind::from_name(&value)
                    .ok_or_else(|| format!("--game: unknown game {value:?}"))?
            }
            "--dialect" => {
                dialect = match value.as_str() {
                    "theaigames" | "2016" => Dialect::TheAiGames,
                    "riddles" | "2017" => Dialect::Riddles,
                    _ => return Err(format!("--dialect: unknown dialect {value:?}")),
                }
            }
            "--end-rule" => end_rule = value.parse()?,
            "--timebank" => timebank = Some(number(flag, &value)?),
            "--time-per-move" => time_per_move = Some(number(flag, &value)?),
            "--games" => games = Some(number(flag, &value)?),
            "--sprt" => sprt = Some(Sprt::parse(&value)?),
            "--shard" => shard = Some(Shard::parse(&value)?),
            "--openings" => openings = Some(value),
            "-j" | "--jobs" => jobs = number::<usize>(flag, &value)?.max(1),
            "--seed" => seed = Some(number(flag, &value)?),
            "--out" => out = Some(PathBuf::from(value)),
            "--map" => maps.extend(value.split(',').filter(|s| !s.is_empty()).map(String::from)),
            "--width" => width = number(flag, &value)?,
            "--height" => height = number(flag, &value)?,
            "--max-rounds" => max_rounds = Some(number(flag, &value)?),
            "--riders" => riders = number(flag, &value)?,
            "--name-a" => names[0] = value,
            "--name-b" => names[1] = value,
            "--engine" => engines.push(Engine::parse(&value)?),
            _ => unreachable!("every valued flag has an arm"),
        }
    }
    if !engines.is_empty() && !commands.is_empty() {
        return Err("give the bots as --engine specs or as commands, not both".into());
    }
    if engines.is_empty() {
        engines = commands
            .into_iter()
            .enumerate()
            .map(|(k, command)| Engine {
                name: names.get(k).cloned().unwrap_or_else(|| format!("E{k}")),
                command,
                clock: None,
            })
            .collect();
    }
    if engines.len() < 2 {
        return Err(format!("need two bot commands, got {}", engines.len()));
    }
    let games = games.unwrap_or(if sprt.is_some() { 20_000 } else { 1 });
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(2..=mctsbot::tron::battle::MAX_RIDERS).contains(&riders) {
        return Err("--riders: 2 to 4".into());
    }
    if width < 4 || height < 3 {
        return Err("--width/--height: board too small".into());
    }
    if resume && out.is_none() {
        return Err("--resume needs --out DIR (the folder of the series to continue)".into());
    }
    let seed = match seed {
        Some(seed) => seed,
        // Resumed without --seed: the recorded series' seed, so its games stay the same.
        None if resume => crate::record::saved_seed(out.as_deref().expect("checked above"))?,
        // A short seed from the clock: it is printed, and typed again to repeat a series.
        None => clock_seed() % 1_000_000_000,
    };
    let series_clock = Clock {
        timebank: timebank.unwrap_or(match game {
            GameKind::UtttCodinGame | GameKind::TronCodinGame => FIRST_TURN_MS,
            _ => ENGINE_TIMEBANK_MS,
        }),
        time_per_move: time_per_move.unwrap_or(match game {
            GameKind::Uttt => UTTT_TIME_PER_MOVE_MS,
            GameKind::Tron => TRON_TIME_PER_MOVE_MS,
            GameKind::UtttCodinGame | GameKind::TronCodinGame => TURN_MS,
        }),
    };
    // The first two engines are A and B (a tournament's pairings replace them).
    let [a, b] = [&engines[0], &engines[1]];
    let opts = Options {
        game,
        dialect,
        end_rule,
        clocks: [a.clock, b.clock].map(|c| c.unwrap_or(series_clock)),
        games,
        jobs,
        seed,
        out,
        watch,
        maps,
        width,
        height,
        max_rounds: max_rounds.unwrap_or(width * height),
        riders,
        names: [a.name.clone(), b.name.clone()],
        commands: [a.command.clone(), b.command.clone()],
        sprt,
        shard,
        openings,
        resume,
    };
    // Engines without time odds play on the series' clock, even in other pairings.
    let engines = engines
        .into_iter()
        .map(|e| Engine {
            clock: Some(e.clock.unwrap_or(series_clock)),
            ..e
        })
        .collect();
    Ok(Some((opts, engines)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn defaults_and_flags() {
        let o = parse(&args(&["--", "a --x 1", "b"])).unwrap().unwrap();
        assert_eq!(o.game, GameKind::Uttt);
        let clock = Clock {
            timebank: 10_000,
            time_per_move: 500,
        };
        assert_eq!((o.clocks, o.games), ([clock; 2], 1));
        assert_eq!(o.commands, ["a --x 1".to_string(), "b".to_string()]);
        let o = parse(&args(&[
            "--game=tron",
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            "9",
            "--map",
            "empty13,rooms16",
            "--watch",
            "--max-rounds",
            "50",
            "x",
            "y",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            (o.game, o.clocks[1].time_per_move, o.games, o.jobs, o.seed),
            (GameKind::Tron, 200, 4, 2, 9)
        );
        assert_eq!(o.maps, ["empty13", "rooms16"]);
        assert!(o.watch);
        assert_eq!(o.max_rounds, 50);
        let o = parse(&args(&["--dialect", "riddles", "--", "a", "b"]))
            .unwrap()
            .unwrap();
        assert_eq!(o.dialect, Dialect::Riddles);
    }

    #[test]
    fn errors() {
        assert!(parse(&args(&["--", "a"])).is_err());
        assert!(parse(&args(&["--games", "x", "a", "b"])).is_err());
        assert!(parse(&args(&["--bogus", "1", "a", "b"])).is_err());
        assert!(parse(&args(&["--game", "chess", "a", "b"])).is_err());
        assert!(parse(&args(&["--help"])).unwrap().is_none());
    }
}
