//! Command-line options of `arena` (clap), and the checks and defaults clap cannot
//! express ([`series`], [`tournament`]), which make the [`Options`] the rest of the arena
//! uses.

use crate::game::side_name;
use crate::options::{Clock, Engine, Options, Referee, Shard, Tournament, TournamentKind};
use crate::stats::Sprt;
use clap::{Args, CommandFactory, Parser, Subcommand};
use mctsbot::cli::clock_seed;
use mctsbot::game::GameKind;
use mctsbot::protocol::codingame::{FIRST_TURN_MS, TURN_MS};
use mctsbot::timeman::{ENGINE_TIMEBANK_MS, TRON_TIME_PER_MOVE_MS, UTTT_TIME_PER_MOVE_MS};
use mctsbot::uttt::Dialect;
use mctsbot::uttt::EndRule;
use std::path::PathBuf;

mod commands;
pub use commands::{parse_side, PlayArgs, ReplayArgs, SeatArgs, ViewArgs};

/// What `arena --help` prints after the options.
const AFTER_HELP: &str = "\
With --out, each game is recorded as soon as it ends: a line of DIR/games.jsonl (the
moves, result, reason, faults and times; DIR/series.json holds the settings) and its
transcripts, so an interrupted series keeps its games (`arena merge` and `arena report`
read them) and `--resume` continues it.

In a command, {seed} becomes a per-game seed and {game} the game's index.";

/// `arena`: a series between two bots (no subcommand), or one of the subcommands.
#[derive(Parser, Debug)]
#[command(
    name = "arena",
    version,
    propagate_version = true,
    args_conflicts_with_subcommands = true,
    override_usage = "arena --game uttt|tron|uttt-cg|tron-cg [OPTIONS] -- \"COMMAND A\" \"COMMAND B\"\n       arena --game tron-cg --ffa [OPTIONS] -- \"COMMAND A\" \"COMMAND B\" [\"COMMAND C\" [\"COMMAND D\"]]\n       arena <merge|report|openings|replay|gauntlet|round-robin> [OPTIONS] ...",
    about = "Plays bot A against bot B (each run with `sh -c COMMAND`) over the TheAIGames / \
             riddles.io engine protocol; with --games N, a series with colours alternated. \
             With --game tron-cg --ffa, a free-for-all of 2 to 4 bots, one rider each, \
             ranked by their places.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// One table and results.json from the shards' results.json (summary, pairs and SPRT
    /// recomputed from their games).
    Merge(crate::FoldersArgs),
    /// SVG pictures and an HTML page of series (finished or interrupted): score per map /
    /// opening, the SPRT walk, the Elo ladder of several runs (oldest first), and for a
    /// tournament's folder its rating list and every pairing.
    Report(crate::FoldersArgs),
    /// Prints a balanced opening suite for --openings.
    Openings(crate::OpeningsArgs),
    /// Replays recorded Light Riders and UTTT games position by position with the bot's
    /// search, flagging where a side's value fell most (Light Riders) or where its logged
    /// value was furthest from a long search's (UTTT); by default the games it lost or drew.
    ///
    /// The bot's own search runs here, seeded, for a fixed number of iterations. Light
    /// Riders (--game tron): for each round the moves played, the space evaluation's terms,
    /// and for each rider the search's best move and value and the value of the move
    /// played; the rounds where the side's value fell most are flagged.
    ///
    /// UTTT (--game uttt and uttt-cg, under the series' end rule): every ply of the game's
    /// line, and for each of the side's plies after the opening the bot's logged move and
    /// value (its stderr line) beside a long search's best move, its value and its value of
    /// the move played; the plies where the logged value was furthest from the long
    /// search's and where the move played lost most are flagged, and a summary splits value
    /// errors and move choices by phase (opening, middle, end) and the side's colour (see
    /// docs/arena.md, "Replaying games").
    Replay(ReplayArgs),
    /// Writes a self-contained HTML replay page for each game of a recorded series
    /// (DIR/view/game_NNNN.html): the board, step/play controls, a slider, the result,
    /// and each bot's logged value per move
    View(ViewArgs),
    /// Play a game yourself against a bot, in the terminal (UTTT or Light Riders): the
    /// board before each of your moves, the legal moves, your clock untimed unless asked;
    /// recorded like any game, so it can be viewed
    Play(PlayArgs),
    /// A person's seat for `arena play`: speaks the engine protocol on stdin/stdout and
    /// asks the person (through --input and --output) for each move
    Seat(SeatArgs),
    /// The first engine against each of the others, then a rating list
    /// (ratings.json/txt under --out).
    #[command(after_help = AFTER_HELP)]
    Gauntlet(SeriesArgs),
    /// Every engine against every other, then a rating list (ratings.json/txt under --out).
    #[command(after_help = AFTER_HELP)]
    RoundRobin(SeriesArgs),
}

/// The options of a series, and of every pairing of a tournament.
#[derive(Args, Debug, Clone)]
pub struct SeriesArgs {
    /// The game [default: uttt]
    ///
    /// uttt-cg is CodinGame's UTTT: its protocol, its end rule (a lineless game goes to
    /// the player with more boards), a fixed time per turn (--timebank is the first
    /// turn's, default 1000; --time-per-move every later turn's, default 100), and no
    /// second chance; tron-cg is CodinGame's Tron Battle on its clock: 30x20, riders
    /// moving in seat order, a rider out of the game (crash, timeout, bad answer) losing
    /// its trail. Also: lightriders, light-riders, uttt-codingame, tron-battle.
    #[arg(long, value_name = "uttt|tron|uttt-cg|tron-cg", value_parser = parse_game)]
    pub game: Option<Referee>,
    /// tron-cg: riders in a game, 2 to 4 (seated A B A B, B A B A in odd games)
    /// [default: 2; with --ffa, one per engine]
    ///
    /// The side of the last rider left wins.
    #[arg(long, value_name = "N")]
    pub riders: Option<usize>,
    /// tron-cg: a free-for-all of 2 to 4 engines (commands or --engine), one rider each
    ///
    /// The seat order turns by one every game (A B C, C A B, B C A, ...), so that over
    /// every N games of N engines each engine sits in each seat once; those N games share
    /// their starts. Reports each engine's places (1st, 2nd, ...) and mean place: the
    /// last rider left is 1st, the others placed by the turn they went out (riders move
    /// one at a time, so no two go out on the same turn). A series only (not gauntlet or
    /// round-robin), and no --sprt for more than two engines.
    #[arg(long)]
    pub ffa: bool,
    /// UTTT dialect: theaigames (the 2016 engine, also 2016) or riddles (also 2017)
    #[arg(long, value_name = "theaigames|riddles", value_parser = parse_dialect, default_value = "theaigames")]
    pub dialect: Dialect,
    /// uttt: how a game without a line of small boards ends
    ///
    /// draw (TheAIGames, the default) or boards: it goes to the player with more small
    /// boards (CodinGame's rule, for bots that speak the engines' protocol).
    #[arg(long, value_name = "draw|boards", value_parser = parse_end_rule, default_value = "draw")]
    pub end_rule: EndRule,
    /// Maximum and initial timebank in ms [default: 10000; uttt-cg, tron-cg: the first
    /// turn's time, 1000]
    #[arg(long, value_name = "MS")]
    pub timebank: Option<u64>,
    /// Added after every answer, in ms [default: 500 uttt, 200 tron; uttt-cg, tron-cg:
    /// every later turn's time, 100]
    #[arg(long, value_name = "MS")]
    pub time_per_move: Option<u64>,
    /// Games to play, colours alternated; the cap of an SPRT [default: 1, or 20000 with
    /// --sprt]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Stop as soon as a sequential probability ratio test decides: 'elo0=E0 elo1=E1
    /// [alpha=A] [beta=B]'
    ///
    /// Accepts Elo = E0 (H0) or Elo = E1 (H1), over game pairs (pentanomial); alpha and
    /// beta default to 0.05.
    #[arg(long, value_name = "SPEC", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// Start every pair of games from an opening: FILE, a suite NAME, or random:N
    ///
    /// One per line of FILE (UTTT `column,row` plies; Light Riders `[map=NAME]
    /// [start=X,Y] [rounds such as rl ud]`: the pair's board instead of --map, player 0's
    /// start with player 1 at its mirror image, rounds played first), a suite in
    /// protocol/openings/ (uttt_balanced, lightriders_balanced), or N random plies /
    /// rounds that crash no rider.
    #[arg(long, value_name = "FILE|NAME|random:N")]
    pub openings: Option<String>,
    /// Play only the K-th of N shares of the series
    ///
    /// Every N-th pair of games, with the boards, colours and seeds the whole series
    /// gives them; `arena merge` joins the shards' --out folders (an SPRT is then decided
    /// by the merge).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Games in parallel [default: all cores]
    #[arg(short, long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Seed for boards and for {seed} in commands [default: the clock; with --resume,
    /// the recorded series']
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Write DIR/results.json, the game records, transcripts and bot stderr
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the board after every move to stderr
    #[arg(long)]
    pub watch: bool,
    /// Light Riders map, repeatable or comma-separated [default: an empty board with the
    /// riddles engine's random starts]
    ///
    /// Shipped: empty13 empty6 pillars13 brackets13 rooms16 chevrons16 gate16 doors13
    /// (protocol/maps/NAME.txt in the current or source folder).
    #[arg(long, value_name = "NAME|FILE", value_delimiter = ',')]
    pub map: Vec<String>,
    /// Width of the default Light Riders board
    #[arg(long, value_name = "W", default_value_t = 16)]
    pub width: u32,
    /// Height of the default Light Riders board
    #[arg(long, value_name = "H", default_value_t = 16)]
    pub height: u32,
    /// Light Riders: a draw after R rounds [default: W*H]
    #[arg(long, value_name = "R")]
    pub max_rounds: Option<u32>,
    /// Label of bot A in the table
    #[arg(long, value_name = "NAME", default_value = "A")]
    pub name_a: String,
    /// Label of bot B in the table
    #[arg(long, value_name = "NAME", default_value = "B")]
    pub name_b: String,
    /// An engine, instead of the commands: 'name=NAME [tc=BANK+INC] cmd=COMMAND'
    ///
    /// Its name, its own clock in ms (time odds; default --timebank and
    /// --time-per-move), and its command (the rest of the text). Repeatable.
    #[arg(long, value_name = "SPEC", value_parser = Engine::parse)]
    pub engine: Vec<Engine>,
    /// Continue the series (or tournament) recorded in --out DIR
    ///
    /// Its finished games are kept and the others played; give the same options (the
    /// seed is read from DIR if not given); --games may grow. A folder without a series
    /// starts one. One arena at a time plays into a folder (DIR/arena.lock).
    #[arg(long)]
    pub resume: bool,
    /// The bots' shell commands (A, then B; with --ffa, 2 to 4), instead of --engine
    #[arg(value_name = "COMMAND")]
    pub commands: Vec<String>,
}

fn parse_game(name: &str) -> Result<Referee, String> {
    Referee::from_name(name).ok_or_else(|| format!("unknown game {name:?}"))
}

fn parse_dialect(name: &str) -> Result<Dialect, String> {
    match name {
        "theaigames" | "2016" => Ok(Dialect::TheAiGames),
        "riddles" | "2017" => Ok(Dialect::Riddles),
        _ => Err(format!("unknown dialect {name:?}")),
    }
}

fn parse_end_rule(name: &str) -> Result<EndRule, String> {
    name.parse()
}

/// The error of an `arena` command line that parsed but does not make sense (exit 2,
/// in clap's words).
pub fn usage_error(subcommand: Option<&str>, message: String) -> clap::Error {
    let mut cmd = Cli::command();
    if let Some(name) = subcommand {
        // Named as `arena NAME` in the usage line, as clap's own errors name it.
        if let Some(sub) = cmd.find_subcommand(name) {
            cmd = sub.clone().bin_name(format!("arena {name}"));
        }
    }
    cmd.error(clap::error::ErrorKind::ValueValidation, message)
}

/// The series two bots play (after the checks clap cannot make).
pub fn series(args: SeriesArgs) -> Result<Options, String> {
    let (opts, engines) = resolve(args)?;
    if engines.len() != opts.sides() {
        return Err(format!(
            "need two bot commands, got {} (more: --game tron-cg --ffa, up to {})",
            engines.len(),
            mctsbot::tron::battle::MAX_RIDERS
        ));
    }
    Ok(opts)
}

/// The tournament of `arena gauntlet|round-robin` (after the checks clap cannot make).
pub fn tournament(kind: TournamentKind, args: SeriesArgs) -> Result<Tournament, String> {
    if args.ffa {
        return Err(format!("--ffa is for a series, not a {}", kind.name()));
    }
    let (template, engines) = resolve(args)?;
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
    Ok(Tournament {
        kind,
        engines,
        template,
    })
}

/// Parses the arguments of a series (after the program name), as `arena` does: for
/// tests and callers that hold a command line.
pub fn parse(args: &[&str]) -> Result<Options, String> {
    let cli = Cli::try_parse_from(std::iter::once("arena").chain(args.iter().copied()))
        .map_err(|e| e.to_string())?;
    series(cli.series)
}

/// The options and the engines (`--engine` specs, or bot commands named by
/// `--name-a`/`--name-b`), the first two of them as bots A and B (with `--ffa`, all of
/// them as sides A, B, C, D): every check that clap cannot make, and the defaults that
/// depend on other options.
// Long by choice: one check after another of what clap cannot express, each a few lines,
// in the order the usage lists the flags.
fn resolve(args: SeriesArgs) -> Result<(Options, Vec<Engine>), String> {
    let SeriesArgs {
        game,
        riders,
        ffa,
        dialect,
        end_rule,
        timebank,
        time_per_move,
        games,
        sprt,
        openings,
        shard,
        jobs,
        seed,
        out,
        watch,
        map: maps,
        width,
        height,
        max_rounds,
        name_a,
        name_b,
        mut engine,
        resume,
        commands,
    } = args;
    let game = game.unwrap_or(Referee::UTTT);
    if !engine.is_empty() && !commands.is_empty() {
        return Err("give the bots as --engine specs or as commands, not both".into());
    }
    let count = engine.len().max(commands.len());
    let max_riders = mctsbot::tron::battle::MAX_RIDERS;
    if ffa {
        if game != Referee::TRON_BATTLE {
            return Err("--ffa is for --game tron-cg".into());
        }
        if !(2..=max_riders).contains(&count) {
            return Err(format!(
                "--ffa plays 2 to {max_riders} engines, got {count}"
            ));
        }
        if riders.is_some_and(|n| n != count) {
            return Err(format!(
                "--ffa gives each of the {count} engines a rider: --riders {count} or none"
            ));
        }
        if sprt.is_some() && count > 2 {
            return Err(
                "--sprt tests A against B: not for a free-for-all of more than two engines".into(),
            );
        }
    }
    if engine.is_empty() {
        let names = [name_a, name_b];
        engine = commands
            .into_iter()
            .enumerate()
            .map(|(k, command)| Engine {
                name: names.get(k).cloned().unwrap_or_else(|| match ffa {
                    true => side_name(k).to_string(),
                    false => format!("E{k}"),
                }),
                command,
                clock: None,
            })
            .collect();
    }
    if engine.len() < 2 {
        return Err(format!("need two bot commands, got {}", engine.len()));
    }
    let games = games.unwrap_or(if sprt.is_some() { 20_000 } else { 1 });
    let riders = if ffa { count } else { riders.unwrap_or(2) };
    if !(2..=max_riders).contains(&riders) {
        return Err(format!("--riders: 2 to {max_riders}"));
    }
    if width < 4 || height < 3 {
        return Err("--width/--height: board too small".into());
    }
    if resume && out.is_none() {
        return Err("--resume needs --out DIR (the folder of the series to continue)".into());
    }
    let seed_given = seed.is_some();
    // A short seed from the clock: it is printed, and typed again to repeat a series (a
    // resumed series takes its recorded seed instead: `record::GameLog::open`).
    let seed = seed.unwrap_or_else(|| clock_seed() % 1_000_000_000);
    let series_clock = Clock {
        timebank: timebank.unwrap_or(if game.is_codingame() {
            FIRST_TURN_MS
        } else {
            ENGINE_TIMEBANK_MS
        }),
        time_per_move: time_per_move.unwrap_or(match (game.game(), game.is_codingame()) {
            (_, true) => TURN_MS,
            (GameKind::Uttt, false) => UTTT_TIME_PER_MOVE_MS,
            (GameKind::LightRiders | GameKind::TronBattle, false) => TRON_TIME_PER_MOVE_MS,
        }),
    };
    // The first two engines are A and B (a tournament's pairings replace them); a
    // free-for-all's are all sides.
    let sides = &engine[..if ffa { count } else { 2 }];
    let opts = Options {
        game,
        dialect,
        end_rule,
        clocks: sides
            .iter()
            .map(|e| e.clock.unwrap_or(series_clock))
            .collect(),
        games,
        jobs: jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        seed,
        out,
        watch,
        maps: maps.into_iter().filter(|m| !m.is_empty()).collect(),
        width,
        height,
        max_rounds: max_rounds.unwrap_or(width * height),
        riders,
        ffa,
        names: sides.iter().map(|e| e.name.clone()).collect(),
        commands: sides.iter().map(|e| e.command.clone()).collect(),
        sprt,
        shard,
        openings,
        resume,
        seed_given,
    };
    // Engines without time odds play on the series' clock, even in other pairings.
    let engines = engine
        .into_iter()
        .map(|e| Engine {
            clock: Some(e.clock.unwrap_or(series_clock)),
            ..e
        })
        .collect();
    Ok((opts, engines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_and_flags() {
        let o = parse(&["--", "a --x 1", "b"]).unwrap();
        assert_eq!(o.game, Referee::UTTT);
        let clock = Clock {
            timebank: 10_000,
            time_per_move: 500,
        };
        assert_eq!((o.clocks, o.games), (vec![clock; 2], 1));
        assert_eq!(o.commands, ["a --x 1".to_string(), "b".to_string()]);
        let o = parse(&[
            "--game=tron",
            "--games",
            "4",
            "-j",
            "2",
            "--seed",
            "9",
            "--map",
            "empty13,rooms16",
            "--map=gate16",
            "--watch",
            "--max-rounds",
            "50",
            "x",
            "y",
        ])
        .unwrap();
        assert_eq!(
            (o.game, o.clocks[1].time_per_move, o.games, o.jobs, o.seed),
            (Referee::LIGHT_RIDERS, 200, 4, 2, 9)
        );
        assert_eq!(o.maps, ["empty13", "rooms16", "gate16"]);
        assert!(o.watch);
        assert_eq!(o.max_rounds, 50);
        let o = parse(&["--dialect", "riddles", "--", "a", "b"]).unwrap();
        assert_eq!(o.dialect, Dialect::Riddles);
        let o = parse(&[
            "--engine",
            "name=x tc=5+1 cmd=./x --a",
            "--engine",
            "name=y cmd=y",
        ]);
        let o = o.unwrap();
        assert_eq!(o.names, ["x".to_string(), "y".to_string()]);
        assert_eq!(
            o.clocks[0],
            Clock {
                timebank: 5,
                time_per_move: 1
            }
        );
        assert_eq!(o.commands[0], "./x --a");
    }

    #[test]
    fn errors() {
        assert!(parse(&["--", "a"]).is_err());
        assert!(parse(&["--games", "x", "a", "b"]).is_err());
        assert!(parse(&["--games", "0", "a", "b"]).is_err());
        assert!(parse(&["--bogus", "1", "a", "b"]).is_err());
        assert!(parse(&["--game", "chess", "a", "b"]).is_err());
        assert!(parse(&["--riders", "5", "a", "b"]).is_err());
    }

    #[test]
    fn a_free_for_all_takes_two_to_four_engines_one_rider_each() {
        let o = parse(&["--game", "tron-cg", "--ffa", "a", "b", "c"]).unwrap();
        assert_eq!((o.ffa, o.riders, o.sides()), (true, 3, 3));
        assert_eq!(o.names, ["A", "B", "C"]);
        assert_eq!(o.commands, ["a", "b", "c"]);
        assert_eq!(o.clocks.len(), 3);
        let o = parse(&[
            "--game=tron-cg",
            "--ffa",
            "--riders=2",
            "--engine",
            "name=x tc=500+50 cmd=x",
            "--engine",
            "name=y cmd=y",
        ])
        .unwrap();
        assert_eq!(
            (o.riders, o.names.clone()),
            (2, vec!["x".to_string(), "y".into()])
        );
        assert_eq!((o.clocks[0].timebank, o.clocks[1].timebank), (500, 1000));
        let err = |args: &[&str]| parse(args).unwrap_err();
        assert!(err(&["--game", "tron-cg", "--ffa", "a", "b", "c", "d", "e"]).contains("2 to 4"));
        assert!(err(&["--game", "tron-cg", "--ffa", "a"]).contains("2 to 4"));
        assert!(err(&["--game", "uttt", "--ffa", "a", "b", "c"]).contains("tron-cg"));
        assert!(
            err(&["--game", "tron-cg", "--ffa", "--riders", "4", "a", "b", "c"])
                .contains("--riders 3")
        );
        assert!(err(&[
            "--game",
            "tron-cg",
            "--ffa",
            "--sprt",
            "elo0=0 elo1=5",
            "a",
            "b",
            "c"
        ])
        .contains("--sprt"));
        // Without --ffa, three commands are one too many.
        assert!(err(&["--game", "tron-cg", "--riders", "3", "a", "b", "c"]).contains("--ffa"));
    }
}
