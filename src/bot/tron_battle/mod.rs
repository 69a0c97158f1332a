//! CodinGame's Tron Battle wired: its configuration ([`config`], all the one-file
//! CodinGame build takes), its options ([`options`]: the `--battle-*` flags and help
//! section), the configuration from the command line ([`settings`]) and its player
//! ([`player`]: CodinGame's protocol and the paranoid alpha-beta).

pub mod config;
pub mod options;
pub mod player;

pub use config::{BattleConfig, Rivals};

use crate::bot::Config;

/// The Tron Battle player's configuration from the command line: its flags, and the
/// common `--safety-ms` when given.
pub fn settings(config: &Config) -> BattleConfig {
    BattleConfig {
        safety_margin_ms: config
            .common
            .safety_margin_ms
            .unwrap_or(config.battle.safety_margin_ms),
        ..config.battle
    }
}
