//! The arguments of the subcommands that look at or play single games: `arena replay`,
//! `arena view`, `arena play` and `arena seat` (their work is in [`crate::replay`],
//! [`crate::view`] and [`crate::human`]).

use clap::Args;
use std::path::PathBuf;

/// The options of `arena replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// A series' --out folder (or its games.jsonl or results.json), or one game's
    /// transcript
    ///
    /// A transcript inside a series folder (transcripts/game_NNNN_A.txt) replays that game
    /// of the series, from that side; a transcript alone lacks the last round (no field
    /// follows it) and the opponent's turns.
    #[arg(value_name = "DIR|FILE")]
    pub path: PathBuf,
    /// The side whose losses and draws are replayed and whose value drops are flagged
    /// [default: A, or the transcript's side]
    #[arg(long, value_name = "A|B", value_parser = parse_side)]
    pub side: Option<usize>,
    /// Replay these games (their indexes in the series), whatever their result
    #[arg(long = "game", value_name = "N", value_delimiter = ',')]
    pub games: Vec<usize>,
    /// Replay every game of the series
    #[arg(long, conflicts_with = "games")]
    pub all: bool,
    /// Iterations of each search (alpha-beta and the endgame filler: nodes) [default:
    /// 20000 for Light Riders; 1000000 for UTTT, about ten times what the default bot
    /// searches in CodinGame's 100 ms]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// Search each position for MS ms instead of --iterations (not repeatable)
    #[arg(long, value_name = "MS", conflicts_with = "iterations")]
    pub ms: Option<u64>,
    /// Seed of the searches
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The bot's options for the searches, in one string, e.g. '--tron-search alphabeta'
    /// or '--uttt-eval nn' [default: the bot's defaults]
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub flags: Option<String>,
    /// Value drops (UTTT: value gaps and losses) listed for each game
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub top: usize,
    /// Print the board before every round or ply (otherwise before the largest drop only)
    #[arg(long)]
    pub boards: bool,
}

pub fn parse_side(text: &str) -> Result<usize, String> {
    match text {
        "A" | "a" => Ok(0),
        "B" | "b" => Ok(1),
        _ => Err(format!("a side is A or B, not {text:?}")),
    }
}

/// The options of `arena view`.
#[derive(Args, Debug, Clone)]
pub struct ViewArgs {
    /// A series' --out folder (finished or interrupted)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Only these games (their indexes in the series)
    #[arg(long = "game", value_name = "N", value_delimiter = ',')]
    pub games: Vec<usize>,
    /// Where the pages go [default: DIR/view]
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
}

/// The options of `arena play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game: uttt (TheAIGames) or tron (Light Riders)
    #[arg(long, value_name = "uttt|tron", default_value = "uttt")]
    pub game: String,
    /// Whether you move first (UTTT: X; Light Riders: rider 0) or second
    #[arg(long, value_name = "first|second", default_value = "first",
          value_parser = ["first", "second"])]
    pub you: String,
    /// Your clock, BANK+INC in ms (as the bot's); untimed by default
    #[arg(long, value_name = "BANK+INC")]
    pub your_clock: Option<String>,
    /// The bot's timebank in ms [default: the game's, 10000]
    #[arg(long, value_name = "MS")]
    pub timebank: Option<u64>,
    /// The bot's refill after every move in ms [default: 500 uttt, 200 tron]
    #[arg(long, value_name = "MS")]
    pub time_per_move: Option<u64>,
    /// Light Riders map (a shipped name or a file) [default: the riddles board]
    #[arg(long, value_name = "NAME|FILE")]
    pub map: Option<String>,
    /// Seed of the board and of {seed} in the bot's command
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Where the game is recorded [default: arena-play/game-UNIXTIME]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The bot's shell command
    #[arg(value_name = "BOT COMMAND", required = true)]
    pub bot: String,
}

/// The options of `arena seat`.
#[derive(Args, Debug, Clone)]
pub struct SeatArgs {
    /// The game: uttt or tron
    #[arg(long, value_name = "uttt|tron", value_parser = ["uttt", "tron"])]
    pub game: String,
    /// Where the person's entries come from (arena play: a FIFO)
    #[arg(long, value_name = "PATH")]
    pub input: PathBuf,
    /// Where the board and the prompts go (arena play: a FIFO)
    #[arg(long, value_name = "PATH")]
    pub output: PathBuf,
    /// Show no clock (the person plays untimed)
    #[arg(long)]
    pub untimed: bool,
}
