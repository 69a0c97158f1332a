//! The bot glue: engine commands in, searches, answers out.
//!
//! [`run`] reads engine lines, [`Session`] keeps the settings and hands game updates and
//! `action` requests to the player of the game being played, detected from the first
//! lines unless `--game` says. stdout carries answers only; everything else is logged.

pub mod options;
pub mod tron;
mod uttt;

pub use options::{Config, GameChoice, USAGE};

use crate::protocol::{self, Command, GameUpdate, Setting, Token};
use crate::timeman::{TimeControl, ENGINE_TIMEBANK_MS};
use log::{error, info, warn};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

/// The engine's settings as received so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub timebank_ms: Option<u64>,
    pub time_per_move_ms: Option<u64>,
    pub your_botid: Option<u8>,
    pub field_width: Option<u32>,
    pub field_height: Option<u32>,
}

impl Settings {
    /// The timebank's maximum and refill, with the engines' values where none was sent.
    pub fn timebank(&self, default_per_move_ms: u64) -> (u64, u64) {
        (
            self.timebank_ms.unwrap_or(ENGINE_TIMEBANK_MS),
            self.time_per_move_ms.unwrap_or(default_per_move_ms),
        )
    }
}

/// What the session needs from the player of one game.
trait GamePlayer {
    /// Takes an `update game` line.
    fn update(&mut self, update: GameUpdate);
    /// This game's time control for the engine's settings and the options; the session
    /// builds it once (again only if the settings change).
    fn time_control(&self, settings: &Settings, config: &Config) -> TimeControl;
    /// Answers `action move`: searches within the budget, returns the answer line.
    fn act(&mut self, request: &ActRequest) -> String;
    /// A legal answer without a search (after a failed one), dropping any kept tree.
    fn recover(&mut self) -> String;
}

/// An `action move` as the player sees it.
pub(crate) struct ActRequest<'a> {
    /// The timebank the engine says we have; `None` when the line could not be read.
    pub bank_ms: Option<u64>,
    /// When the line arrived: the budget counts from here.
    pub received: Instant,
    pub clock: &'a TimeControl,
    pub settings: &'a Settings,
    pub config: &'a Config,
}

/// The game being played.
enum CurrentGame {
    /// No line has told the game yet; the updates so far wait to be replayed.
    Undecided(Vec<GameUpdate>),
    Playing(Box<dyn GamePlayer>),
}

/// One game against one engine.
pub struct Session {
    config: Config,
    settings: Settings,
    game: CurrentGame,
    /// Built at the first `action` of a game, dropped when the settings change.
    clock: Option<TimeControl>,
}

impl Session {
    pub fn new(config: Config) -> Self {
        let mut session = Session {
            config,
            settings: Settings::default(),
            game: CurrentGame::Undecided(Vec::new()),
            clock: None,
        };
        match session.config.game {
            GameChoice::Uttt => session.start_uttt(),
            GameChoice::Tron => session.start_tron(),
            GameChoice::Auto => {}
        }
        session
    }

    /// Handles one engine line received at `received`; returns the answer to an `action`.
    /// A line that cannot be parsed is logged; if it was an `action`, it is still answered.
    pub fn handle_line(&mut self, line: &str, received: Instant) -> Option<String> {
        if line.trim().is_empty() {
            return None;
        }
        match protocol::parse_command(line) {
            Ok(command) => self.handle(command, received),
            Err(err) => {
                error!("{err}");
                let looks_like_action = line.split_whitespace().next() == Some("action");
                // No timebank was readable: assume only the refill is left.
                looks_like_action.then(|| self.act(None, received))
            }
        }
    }

    fn handle(&mut self, command: Command, received: Instant) -> Option<String> {
        match command {
            Command::Settings(setting) => self.apply_setting(setting),
            Command::UpdateGame(update) => self.update(update),
            Command::UpdatePlayer { player, key, value } => {
                info!("ignored: update {player} {key} {value}")
            }
            Command::ActionMove { timebank_ms } => {
                return Some(self.act(Some(timebank_ms), received))
            }
        }
        None
    }

    fn apply_setting(&mut self, setting: Setting) {
        let s = &mut self.settings;
        match setting {
            Setting::Timebank(ms) => s.timebank_ms = Some(ms),
            Setting::TimePerMove(ms) => s.time_per_move_ms = Some(ms),
            Setting::YourBotId(id) => s.your_botid = Some(id),
            Setting::FieldWidth(w) => s.field_width = Some(w),
            Setting::FieldHeight(h) => s.field_height = Some(h),
            Setting::PlayerNames(_) | Setting::YourBot(_) | Setting::MaxRounds(_) => return,
            Setting::Unknown { key, value } => {
                warn!("unknown setting ignored: {key} {value}");
                return;
            }
        }
        // Timing or board settings: the clock is built afresh at the next action.
        self.clock = None;
        let tron_board = s.field_width.is_some() || s.field_height.is_some();
        if tron_board && matches!(self.game, CurrentGame::Undecided(_)) {
            self.start_tron();
        }
    }

    /// Hands an update to the player; before the game is known, a macroboard means
    /// UTTT and walls mean Light Riders, anything else waits for a clearer line.
    fn update(&mut self, update: GameUpdate) {
        if let CurrentGame::Undecided(pending) = &mut self.game {
            match &update {
                GameUpdate::Macroboard(_) => self.start_uttt(),
                GameUpdate::Field(tokens) if tokens.contains(&Token::Wall) => self.start_tron(),
                _ => {
                    pending.push(update);
                    return;
                }
            }
        }
        match &mut self.game {
            CurrentGame::Playing(p) => p.update(update),
            CurrentGame::Undecided(_) => unreachable!("decided above"),
        }
    }

    /// Chooses and formats a move; never fails and never panics out: a bug in a search
    /// is logged and answered with a legal fallback move.
    fn act(&mut self, bank_ms: Option<u64>, received: Instant) -> String {
        if let CurrentGame::Undecided(pending) = &self.game {
            let last_field = pending.iter().rev().find_map(|u| match u {
                GameUpdate::Field(tokens) => Some(tokens.len()),
                _ => None,
            });
            if last_field.is_some_and(|cells| cells != 81) {
                warn!("asked to move before the game is known; a field of {last_field:?} values: Light Riders");
                self.start_tron();
            } else {
                warn!("asked to move before the game is known; assuming Ultimate Tic-Tac-Toe");
                self.start_uttt();
            }
        }
        let (settings, config) = (&self.settings, &self.config);
        let CurrentGame::Playing(player) = &mut self.game else {
            unreachable!("a player was started above")
        };
        let clock = self
            .clock
            .get_or_insert_with(|| player.time_control(settings, config));
        let request = ActRequest {
            bank_ms,
            received,
            clock,
            settings,
            config,
        };
        panic::catch_unwind(AssertUnwindSafe(|| player.act(&request))).unwrap_or_else(|_| {
            error!("the search failed; answering a fallback move");
            player.recover()
        })
    }

    fn start_uttt(&mut self) {
        info!("game: Ultimate Tic-Tac-Toe");
        self.start(Box::new(uttt::UtttPlayer::new(self.seed())));
    }

    fn start_tron(&mut self) {
        info!("game: Light Riders");
        self.start(Box::new(tron::TronPlayer::new(self.seed())));
    }

    /// Starts `player`, replaying the updates that waited for the game to be known.
    fn start(&mut self, player: Box<dyn GamePlayer>) {
        self.clock = None;
        let pending = match std::mem::replace(&mut self.game, CurrentGame::Playing(player)) {
            CurrentGame::Undecided(pending) => pending,
            CurrentGame::Playing(_) => Vec::new(),
        };
        for update in pending {
            self.update(update);
        }
    }

    fn seed(&self) -> u64 {
        self.config.seed.unwrap_or_else(crate::cli::clock_seed)
    }
}

/// Plays one game: engine lines from `input`, answers to `output`, one flushed line per
/// `action`. Input that is not UTF-8 is read lossily rather than stopping the bot.
pub fn run<R: BufRead, W: Write>(mut input: R, mut output: W, config: Config) -> io::Result<()> {
    let mut session = Session::new(config);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(());
        }
        let received = Instant::now();
        let line = String::from_utf8_lossy(&buffer);
        if let Some(answer) = session.handle_line(&line, received) {
            writeln!(output, "{answer}")?;
            output.flush()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::TronState;
    use crate::uttt::Board;

    /// What `args` make the bot build: the UTTT tree's settings, the Light Riders
    /// searcher's (settings and evaluator), and both games' clocks.
    fn built(args: &[&str]) -> String {
        let config = Config::from_args(args).unwrap();
        let settings = Settings::default();
        let uttt_player = uttt::UtttPlayer::new(1);
        let tron_player = tron::TronPlayer::new(1);
        let searcher = tron::TronSearcher::new(&config.tron, TronState::light_riders_start(), 0, 1);
        format!(
            "{:?}\n{searcher:?}\n{:?}\n{:?}",
            uttt::new_tree(&config, Board::new(), 1).config(),
            uttt_player.time_control(&settings, &config),
            tron_player.time_control(&settings, &config),
        )
    }

    /// Every search option, each with the options it is measured against (the option
    /// must change what is built from there). `--no-endgame` changes what the player does
    /// rather than the searcher; the bot's Light Riders tests check it.
    const SEARCH_FLAGS: &[(&[&str], &[&str])] = &[
        (&[], &["--c", "0.7"]),
        (&[], &["--expand-visits", "3"]),
        (&[], &["--max-nodes", "1000"]),
        (&[], &["--final", "robust"]),
        (&[], &["--final", "secure"]),
        (&[], &["--no-solver"]),
        (&[], &["--safety-ms", "60"]),
        (&[], &["--time-horizon", "12"]),
        (&[], &["--tron-search", "alphabeta"]),
        (&[], &["--tron-variant", "suct"]),
        (&[], &["--tron-variant", "suct-tuned"]),
        (&[], &["--tron-variant", "duct-max"]),
        (&[], &["--tron-variant", "duct-mix"]),
        (&[], &["--tron-variant", "ducb1t-mix"]),
        (&[], &["--tron-variant", "exp3"]),
        (&[], &["--tron-variant", "rm"]),
        (&[], &["--tron-c", "0.7"]),
        (&["--tron-variant", "suct"], &["--tron-c", "0.7"]),
        (&["--tron-variant", "exp3"], &["--tron-gamma", "0.2"]),
        (&["--tron-variant", "rm"], &["--tron-gamma", "0.2"]),
        (&[], &["--tron-final", "mix"]),
        (&[], &["--tron-final", "secure"]),
        (&[], &["--tron-final", "max-robust"]),
        (&["--tron-variant", "duct-mix"], &["--tron-final", "max"]),
        (&["--tron-variant", "suct"], &["--tron-final", "secure"]),
        (&[], &["--tron-playout", "random"]),
        (&[], &["--tron-separation", "5"]),
        (&[], &["--tron-cutoff", "voronoi"]),
        (&[], &["--tron-cutoff", "chambers"]),
        (&[], &["--tron-cutoff", "space"]),
        (&["--tron-cutoff", "space"], &["--tron-cutoff-steps", "4"]),
        (&["--tron-cutoff", "space"], &["--tron-eval-scale", "100"]),
        (&[], &["--tron-pes"]),
        (&["--tron-variant", "suct"], &["--tron-pes"]),
        (&[], &["--tron-max-nodes", "1000"]),
        (&[], &["--tron-expand-visits", "1"]),
    ];

    /// Options that choose what runs rather than how it searches.
    const OTHER_FLAGS: &[&str] = &["--game", "--seed", "--no-endgame", "--help"];

    #[test]
    fn every_search_flag_changes_what_is_built() {
        for (base, flag) in SEARCH_FLAGS {
            let with_flag: Vec<&str> = base.iter().chain(flag.iter()).copied().collect();
            assert_ne!(
                built(base),
                built(&with_flag),
                "{flag:?} after {base:?} changes nothing"
            );
        }
    }

    #[test]
    fn every_option_in_the_help_is_covered() {
        for word in USAGE.split_whitespace() {
            let Some(flag) = word.strip_prefix("--").map(|f| format!("--{f}")) else {
                continue;
            };
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            if flag.len() <= 2 || OTHER_FLAGS.contains(&flag) {
                continue;
            }
            // `bench` flags belong to the subcommand.
            if ["--ms", "--iterations"].contains(&flag) {
                continue;
            }
            assert!(
                SEARCH_FLAGS.iter().any(|(_, f)| f[0] == flag),
                "{flag} is in --help but not in SEARCH_FLAGS"
            );
        }
    }
}
