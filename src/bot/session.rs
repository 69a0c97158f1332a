//! The session with an engine over its protocol (TheAIGames, riddles.io): the settings
//! received, the game being played (detected from the evidence unless `--game` says),
//! and the per-game players' answers, each behind [`GamePlayer`].

use super::player::{ActRequest, GamePlayer, Settings};
use super::tron::TronPlayer;
use super::uttt::UtttPlayer;
use super::Config;
use crate::game::GameKind;
use crate::protocol::{self, Command, GameUpdate, Setting, Token};
use crate::timeman::TimeControl;
use log::{error, info, warn};
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Which game the session plays and how sure it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Belief {
    /// Nothing has been asked yet.
    None,
    /// A guess made to answer an `action` before any valid position: revised by the next
    /// real evidence.
    Guessed(GameKind),
    /// A valid position of this game arrived (or `--game` said so).
    Decided(GameKind),
}

/// What a field's values suggest about the game, whatever their count: each game's
/// engine conversion says which of its values the other game never sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FieldSigns {
    len: usize,
    /// A value only Light Riders sends (a wall).
    wall: bool,
    /// A value only UTTT sends (TheAIGames' second player, `2`).
    uttt_only: bool,
}

impl FieldSigns {
    fn of(tokens: &[Token]) -> FieldSigns {
        FieldSigns {
            len: tokens.len(),
            wall: crate::tron::field_has_tron_only_value(tokens),
            uttt_only: crate::uttt::field_has_uttt_only_value(tokens),
        }
    }
}

/// One game against one engine. Both games' players see every line; at each `action`
/// the evidence chooses which one answers, strongest first: a position that is valid in
/// exactly one game decides; settings and the shape of the values only suggest, and are
/// used only while no position is valid (see [`Session::evidence`]).
pub struct Session {
    config: Config,
    settings: Settings,
    uttt: UtttPlayer,
    tron: TronPlayer,
    belief: Belief,
    /// A macroboard has been received (a UTTT sign while no position is valid).
    macroboard_seen: bool,
    /// What the last field's values suggest, whatever their count.
    last_field: Option<FieldSigns>,
    /// Built at the first `action` of a game, dropped when the settings or game change.
    clock: Option<(GameKind, TimeControl)>,
}

impl Session {
    pub fn new(config: Config) -> Self {
        let seed = config.common.seed_or_clock();
        let belief = match config.common.game {
            Some(game) => Belief::Decided(game.on_engines()),
            None => Belief::None,
        };
        Session {
            config,
            settings: Settings::default(),
            uttt: UtttPlayer::new(seed),
            tron: TronPlayer::new(seed),
            belief,
            macroboard_seen: false,
            last_field: None,
            clock: None,
        }
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
    }

    fn update(&mut self, update: GameUpdate) {
        match &update {
            GameUpdate::Macroboard(_) => self.macroboard_seen = true,
            GameUpdate::Field(tokens) => self.last_field = Some(FieldSigns::of(tokens)),
            GameUpdate::Unknown { key, value } => {
                info!("unknown game update ignored: {key} {value}")
            }
            GameUpdate::Round(_) | GameUpdate::Move(_) => {}
        }
        self.uttt.update(&update);
        self.tron.update(&update);
    }

    /// The game the evidence points to, and whether it decides (a valid position) or
    /// only suggests. Strongest first:
    /// 1. a position valid in one game only decides; valid in both (a 9x9 Light Riders
    ///    board with no wall yet reads as a riddles.io UTTT field, and a macroboard made
    ///    the UTTT position valid), Light Riders only if both board settings are there
    ///    (then they describe the field's shape): one stray setting does not outweigh
    ///    the macroboard;
    /// 2. otherwise signs suggest, the surest first: the last field's alphabet, even when
    ///    its length is wrong (a wall only in Light Riders, a `2` only in TheAIGames'
    ///    UTTT), then a macroboard (only UTTT has one), then the last field's length (81
    ///    values UTTT, another Light Riders), then board settings (Light Riders);
    /// 3. then the belief so far, and UTTT when there is none.
    ///
    /// A suggestion never overrides a decision (see [`Session::choose_game`]).
    fn evidence(&self) -> (GameKind, bool) {
        let board_settings =
            self.settings.field_width.is_some() || self.settings.field_height.is_some();
        // With both settings the Light Riders position is read with them, so if it is
        // valid they fit the field; with one, it is read as a square and the setting
        // says nothing about this field.
        let board_fits_settings =
            self.settings.field_width.is_some() && self.settings.field_height.is_some();
        let valid = (
            self.uttt.has_position(&self.settings),
            self.tron.has_position(&self.settings),
        );
        match valid {
            (true, false) => return (GameKind::Uttt, true),
            (false, true) => return (GameKind::LightRiders, true),
            // Valid in both: the UTTT position needed a macroboard (which Light Riders
            // never sends); only a width and height naming this field outweigh it.
            (true, true) if board_fits_settings => return (GameKind::LightRiders, true),
            (true, true) => return (GameKind::Uttt, true),
            (false, false) => {}
        }
        let suggested = match self.last_field {
            Some(FieldSigns { wall: true, .. }) => GameKind::LightRiders,
            Some(FieldSigns {
                uttt_only: true, ..
            }) => GameKind::Uttt,
            _ if self.macroboard_seen => GameKind::Uttt,
            Some(FieldSigns { len: 81, .. }) => GameKind::Uttt,
            Some(_) => GameKind::LightRiders,
            None if board_settings => GameKind::LightRiders,
            None => match self.belief {
                Belief::Guessed(game) | Belief::Decided(game) => game,
                Belief::None => GameKind::Uttt,
            },
        };
        (suggested, false)
    }

    /// The game to answer in now: `--game` when given; else what the evidence decides
    /// (a contradiction with an earlier decision is reported, a guess is revised), or a
    /// guess from what it suggests while no position is valid.
    fn choose_game(&mut self) -> GameKind {
        if self.config.common.game.is_some() {
            let Belief::Decided(game) = self.belief else {
                unreachable!("--game decides at the start")
            };
            return game;
        }
        let (game, decides) = self.evidence();
        self.belief = match (self.belief, decides) {
            (Belief::Decided(before), true) if before != game => {
                error!(
                    "the engine's position is one of {}, not {}: playing {} from now on",
                    game.name(),
                    before.name(),
                    game.name()
                );
                Belief::Decided(game)
            }
            (Belief::Decided(before), false) => Belief::Decided(before),
            (Belief::None | Belief::Guessed(_), true) => {
                info!("game: {}", game.name());
                Belief::Decided(game)
            }
            (_, true) => Belief::Decided(game),
            (_, false) => {
                warn!(
                    "asked to move before a valid position; guessing {}",
                    game.name()
                );
                Belief::Guessed(game)
            }
        };
        match self.belief {
            Belief::Decided(game) | Belief::Guessed(game) => game,
            Belief::None => unreachable!("chosen above"),
        }
    }

    /// Searches for about `slice` on what the game being played expects next (after our
    /// answer, while the opponent thinks); false when there is nothing to search. A panic
    /// in the search is logged and drops the kept tree, as in [`Session::act`].
    pub fn ponder(&mut self, slice: Duration) -> bool {
        let player = match self.belief {
            Belief::Decided(game) => self.player(game),
            Belief::None | Belief::Guessed(_) => return false,
        };
        panic::catch_unwind(AssertUnwindSafe(|| player.ponder(slice))).unwrap_or_else(|_| {
            error!("pondering failed; the kept tree is dropped");
            player.recover();
            false
        })
    }

    /// The player of `game`, one of the engines' games.
    fn player(&mut self, game: GameKind) -> &mut dyn GamePlayer {
        match game {
            GameKind::Uttt => &mut self.uttt,
            GameKind::LightRiders | GameKind::TronBattle => &mut self.tron,
        }
    }

    /// Chooses and formats a move; never fails and never panics out: a bug in a search
    /// is logged and answered with a legal fallback move.
    fn act(&mut self, bank_ms: Option<u64>, received: Instant) -> String {
        let game = self.choose_game();
        let (settings, config) = (&self.settings, &self.config);
        let player: &mut dyn GamePlayer = match game {
            GameKind::Uttt => &mut self.uttt,
            // The session's games are the engines' (`GameKind::on_engines`): its Tron is
            // Light Riders.
            GameKind::LightRiders | GameKind::TronBattle => &mut self.tron,
        };
        if !matches!(self.clock, Some((clock_game, _)) if clock_game == game) {
            self.clock = Some((game, player.time_control(settings, config)));
        }
        let Some((_, clock)) = &self.clock else {
            unreachable!("built above")
        };
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
}

/// Hands one line to the session and writes its answer, if any, as one flushed line.
pub(crate) fn respond<W: Write>(
    session: &mut Session,
    output: &mut W,
    line: &[u8],
    received: Instant,
) -> io::Result<()> {
    if let Some(answer) = session.handle_line(&String::from_utf8_lossy(line), received) {
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}
