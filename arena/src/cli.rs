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
    pub timebank: u64,
    pub time_per_move: u64,
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
                          SVG pictures and an HTML page of finished series: score per
                          map / opening, the SPRT walk, and the Elo ladder of several
                          runs (oldest first) [report/]
  arena openings [--plies MIN..MAX] [--count N] [--ms MS] [--within X] [--seed S]
                          prints a balanced UTTT suite: random lines of MIN..MAX
                          plies [2..4] kept when MS ms [1000] of the bot's search
                          values them within X [0.03] of even, until N [40]
  arena openings --game tron [--map NAME,...] [--count N] [--ms MS] [--within X]
                          the same for Light Riders: each map's own starts, and the
                          riddles starts of emptyWxH boards [empty16x16], with no
                          rider boxed in (see arena openings --help)
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

In a command, {seed} becomes a per-game seed and {game} the game's index.";

/// Parses the arguments after the program name. `Ok(None)` means `--help`.
pub fn parse(args: &[String]) -> Result<Option<Options>, String> {
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
    let mut maps = Vec::new();
    let (mut width, mut height) = (16, 16);
    let mut max_rounds = None;
    let mut riders = 2;
    let mut names = ["A".to_string(), "B".to_string()];
    let mut commands = Vec::new();

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
        match flag {
            "-h" | "--help" => return Ok(None),
            "--watch" => {
                watch = true;
                continue;
            }
            _ => {}
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
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let commands: [String; 2] = commands
        .try_into()
        .map_err(|c: Vec<String>| format!("need two bot commands, got {}", c.len()))?;
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
    // A short seed from the clock: it is printed, and typed again to repeat a series.
    let seed = seed.unwrap_or_else(|| clock_seed() % 1_000_000_000);
    Ok(Some(Options {
        game,
        dialect,
        end_rule,
        timebank: timebank.unwrap_or(match game {
            GameKind::UtttCodinGame | GameKind::TronCodinGame => FIRST_TURN_MS,
            _ => ENGINE_TIMEBANK_MS,
        }),
        time_per_move: time_per_move.unwrap_or(match game {
            GameKind::Uttt => UTTT_TIME_PER_MOVE_MS,
            GameKind::Tron => TRON_TIME_PER_MOVE_MS,
            GameKind::UtttCodinGame | GameKind::TronCodinGame => TURN_MS,
        }),
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
        names,
        commands,
        sprt,
        shard,
        openings,
    }))
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
        assert_eq!((o.timebank, o.time_per_move, o.games), (10_000, 500, 1));
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
            (o.game, o.time_per_move, o.games, o.jobs, o.seed),
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
