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

/// What the session needs from the player of one game.
trait GamePlayer {
    /// Takes an `update game` line.
    fn update(&mut self, update: GameUpdate);
    /// Answers `action move`: searches within the budget, returns the answer line.
    fn act(
        &mut self,
        bank_ms: Option<u64>,
        received: Instant,
        settings: &Settings,
        config: &Config,
    ) -> String;
    /// A legal answer without a search (after a failed one), dropping any kept tree.
    fn recover(&mut self) -> String;
}

/// The player of the game being played.
enum Player {
    /// No line has told the game yet; the updates so far wait to be replayed.
    Undecided(Vec<GameUpdate>),
    Playing(Box<dyn GamePlayer>),
}

/// One game against one engine.
pub struct Session {
    config: Config,
    settings: Settings,
    player: Player,
}

impl Session {
    pub fn new(config: Config) -> Self {
        let mut session = Session {
            config,
            settings: Settings::default(),
            player: Player::Undecided(Vec::new()),
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
            Setting::PlayerNames(_) | Setting::YourBot(_) | Setting::MaxRounds(_) => {}
            Setting::Unknown { key, value } => warn!("unknown setting ignored: {key} {value}"),
        }
        let tron_board = s.field_width.is_some() || s.field_height.is_some();
        if tron_board && matches!(self.player, Player::Undecided(_)) {
            self.start_tron();
        }
    }

    /// Hands an update to the player; before the game is known, a macroboard means
    /// UTTT and walls mean Light Riders, anything else waits for a clearer line.
    fn update(&mut self, update: GameUpdate) {
        if let Player::Undecided(pending) = &mut self.player {
            match &update {
                GameUpdate::Macroboard(_) => self.start_uttt(),
                GameUpdate::Field(tokens) if tokens.contains(&Token::Wall) => self.start_tron(),
                _ => {
                    pending.push(update);
                    return;
                }
            }
        }
        match &mut self.player {
            Player::Playing(p) => p.update(update),
            Player::Undecided(_) => unreachable!("decided above"),
        }
    }

    /// Chooses and formats a move; never fails and never panics out: a bug in a search
    /// is logged and answered with a legal fallback move.
    fn act(&mut self, bank_ms: Option<u64>, received: Instant) -> String {
        if let Player::Undecided(pending) = &self.player {
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
        let Player::Playing(player) = &mut self.player else {
            unreachable!("a player was started above")
        };
        panic::catch_unwind(AssertUnwindSafe(|| {
            player.act(bank_ms, received, settings, config)
        }))
        .unwrap_or_else(|_| {
            error!("the search failed; answering a fallback move");
            player.recover()
        })
    }

    fn start_uttt(&mut self) {
        info!("game: Ultimate Tic-Tac-Toe");
        let player = Player::Playing(Box::new(uttt::UtttPlayer::new(self.seed())));
        self.replace_player(player);
    }

    fn start_tron(&mut self) {
        info!("game: Light Riders");
        let player = Player::Playing(Box::new(tron::TronPlayer::new(self.seed())));
        self.replace_player(player);
    }

    /// Starts `player`, replaying the updates that waited for the game to be known.
    fn replace_player(&mut self, player: Player) {
        let pending = match std::mem::replace(&mut self.player, player) {
            Player::Undecided(pending) => pending,
            _ => Vec::new(),
        };
        for update in pending {
            self.update(update);
        }
    }

    fn seed(&self) -> u64 {
        self.config.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x5eed, |d| d.as_nanos() as u64)
        })
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

/// Searches `tree` until `budget.target_ms` after `received`; with the max-robust rule,
/// goes on in short slices until the robust child is also the best-valued one or
/// `budget.hard_ms` is reached. Returns the statistics of all slices together.
pub(crate) fn think<G: crate::search::Game, E: crate::search::Evaluator<G>>(
    tree: &mut crate::search::tree::Tree<G, E>,
    budget: crate::timeman::Budget,
    received: Instant,
) -> crate::search::SearchStats {
    use crate::search::{tree::FinalMove, Limits};
    use std::time::Duration;
    let at = |ms: u64| Limits {
        deadline: Some(received + Duration::from_millis(ms)),
        max_iterations: None,
    };
    let mut stats = tree.search(at(budget.target_ms));
    if tree.config().final_move == FinalMove::MaxRobust {
        let slice = (budget.target_ms / 10).max(5);
        let mut until = budget.target_ms;
        while until < budget.hard_ms && !tree.max_robust_found() {
            until = (until + slice).min(budget.hard_ms);
            let more = tree.search(at(until));
            stats.iterations += more.iterations;
            stats.playouts += more.playouts;
            stats.tree_full |= more.tree_full;
            stats.nodes = more.nodes;
        }
    }
    stats.elapsed = received.elapsed();
    stats
}
