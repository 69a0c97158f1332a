//! What a game's player offers the engines' protocol session ([`super::session`]): the
//! [`GamePlayer`] trait, the [`ActRequest`] it answers and the [`Settings`] it reads. Its
//! own file, so that the session and the players both import it and not each other.

use super::Config;
use crate::protocol::GameUpdate;
use crate::timeman::{TimeControl, ENGINE_TIMEBANK_MS};
use std::time::{Duration, Instant};

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
pub(crate) trait GamePlayer {
    /// Takes an `update game` line (every player sees every line).
    fn update(&mut self, update: &GameUpdate);
    /// Whether the last position the engine sent is a valid one of this game.
    fn has_position(&self, settings: &Settings) -> bool;
    /// This game's time control for the engine's settings and the options; the session
    /// builds it once (again only if the settings or the game change).
    fn time_control(&self, settings: &Settings, config: &Config) -> TimeControl;
    /// Answers `action move`: searches within the budget, returns the answer line.
    fn act(&mut self, request: &ActRequest) -> String;
    /// A legal answer without a search (after a failed one), dropping any kept tree.
    fn recover(&mut self) -> String;
    /// Searches on for about `slice` while the opponent thinks (`--ponder`); false when
    /// there is nothing to ponder.
    fn ponder(&mut self, _slice: Duration) -> bool {
        false
    }
}

/// One slice of pondering for a player: searches its kept `search` (`None` when there is
/// nothing to ponder) for about `slice`, adding the iterations to `pondered`; whether it
/// searched.
pub(crate) fn ponder_slice<S: crate::search::Search>(
    search: Option<&mut S>,
    slice: Duration,
    pondered: &mut u64,
) -> bool {
    match search {
        Some(search) => {
            *pondered += search
                .search(crate::search::Limits::until(Instant::now() + slice))
                .iterations;
            true
        }
        None => false,
    }
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
