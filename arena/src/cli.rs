//! Command-line options of `arena`, parsed by hand like the bot's (with its helpers in
//! `mctsbot::cli`).

use mctsbot::cli::{clock_seed, number};
use mctsbot::protocol::Dialect;
use mctsbot::timeman::{ENGINE_TIMEBANK_MS, TRON_TIME_PER_MOVE_MS, UTTT_TIME_PER_MOVE_MS};
use std::path::PathBuf;

/// Which game the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Uttt,
    Tron,
}

/// Everything a series needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub game: GameKind,
    pub dialect: Dialect,
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
    pub names: [String; 2],
    /// Shell commands of bots A and B.
    pub commands: [String; 2],
}

pub const USAGE: &str = "\
usage: arena --game uttt|tron [options] -- \"COMMAND A\" \"COMMAND B\"

Plays bot A against bot B (each run with `sh -c COMMAND`) over the TheAIGames /
riddles.io engine protocol; with --games N, a series with colours alternated.

options:
  --game uttt|tron        the game (default uttt)
  --dialect theaigames|riddles   UTTT dialect (default theaigames, the 2016 engine)
  --timebank MS           maximum and initial timebank (default 10000)
  --time-per-move MS      added after every answer (default 500 uttt, 200 tron)
  --games N               games to play, colours alternated (default 1)
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
    let mut timebank = ENGINE_TIMEBANK_MS;
    let mut time_per_move = None;
    let mut games = 1;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut seed = None;
    let mut out = None;
    let mut watch = false;
    let mut maps = Vec::new();
    let (mut width, mut height) = (16, 16);
    let mut max_rounds = None;
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
                game = match value.as_str() {
                    "uttt" => GameKind::Uttt,
                    "tron" | "lightriders" | "light-riders" => GameKind::Tron,
                    _ => return Err(format!("--game: unknown game {value:?}")),
                }
            }
            "--dialect" => {
                dialect = match value.as_str() {
                    "theaigames" | "2016" => Dialect::TheAiGames,
                    "riddles" | "2017" => Dialect::Riddles,
                    _ => return Err(format!("--dialect: unknown dialect {value:?}")),
                }
            }
            "--timebank" => timebank = number(flag, &value)?,
            "--time-per-move" => time_per_move = Some(number(flag, &value)?),
            "--games" => games = number(flag, &value)?,
            "-j" | "--jobs" => jobs = number::<usize>(flag, &value)?.max(1),
            "--seed" => seed = Some(number(flag, &value)?),
            "--out" => out = Some(PathBuf::from(value)),
            "--map" => maps.extend(value.split(',').filter(|s| !s.is_empty()).map(String::from)),
            "--width" => width = number(flag, &value)?,
            "--height" => height = number(flag, &value)?,
            "--max-rounds" => max_rounds = Some(number(flag, &value)?),
            "--name-a" => names[0] = value,
            "--name-b" => names[1] = value,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let commands: [String; 2] = commands
        .try_into()
        .map_err(|c: Vec<String>| format!("need two bot commands, got {}", c.len()))?;
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    if width < 4 || height < 3 {
        return Err("--width/--height: board too small".into());
    }
    // A short seed from the clock: it is printed, and typed again to repeat a series.
    let seed = seed.unwrap_or_else(|| clock_seed() % 1_000_000_000);
    Ok(Some(Options {
        game,
        dialect,
        timebank,
        time_per_move: time_per_move.unwrap_or(match game {
            GameKind::Uttt => UTTT_TIME_PER_MOVE_MS,
            GameKind::Tron => TRON_TIME_PER_MOVE_MS,
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
        names,
        commands,
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
