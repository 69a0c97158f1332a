//! The Light Riders player: engine fields in, a direction out.

use std::str::FromStr;

/// The search variant of seed 003 that the Tron player runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TronVariant {
    /// Sequential UCT: we commit first inside the tree.
    SequentialUct,
    /// Sequential UCB1-Tuned.
    SequentialUcb1Tuned,
    DecoupledUctMax,
    DecoupledUctMix,
    DecoupledUcb1TunedMax,
    DecoupledUcb1TunedMix,
    Exp3,
    RegretMatching,
}

impl FromStr for TronVariant {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Ok(match name {
            "suct" => TronVariant::SequentialUct,
            "suct-tuned" => TronVariant::SequentialUcb1Tuned,
            "duct-max" => TronVariant::DecoupledUctMax,
            "duct-mix" => TronVariant::DecoupledUctMix,
            "ducb1t-max" => TronVariant::DecoupledUcb1TunedMax,
            "ducb1t-mix" => TronVariant::DecoupledUcb1TunedMix,
            "exp3" => TronVariant::Exp3,
            "rm" => TronVariant::RegretMatching,
            other => return Err(format!("unknown Tron variant {other:?}")),
        })
    }
}

/// How play-outs choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutChoice {
    Random,
    /// Avoid an immediate crash when a safe move exists.
    Safe,
}

impl FromStr for PlayoutChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "random" => Ok(PlayoutChoice::Random),
            "safe" => Ok(PlayoutChoice::Safe),
            other => Err(format!("unknown play-out policy {other:?}")),
        }
    }
}

/// Settings of the Light Riders search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TronConfig {
    pub variant: TronVariant,
    pub exploration: f32,
    pub gamma: f32,
    pub playout: PlayoutChoice,
    /// Steps after which a play-out is decided by the space evaluation (0 = never).
    pub cutoff_steps: u32,
    /// Switch to the space-filling search once the riders are separated.
    pub endgame: bool,
}

impl Default for TronConfig {
    fn default() -> Self {
        TronConfig {
            variant: TronVariant::DecoupledUctMax,
            exploration: 1.5,
            gamma: 0.3,
            playout: PlayoutChoice::Safe,
            cutoff_steps: 20,
            endgame: true,
        }
    }
}

/// INTERIM (replaced when the Tron rules land): answers without searching.
pub struct TronPlayer;

impl TronPlayer {
    pub fn new(_seed: u64) -> Self {
        TronPlayer
    }
    pub fn update(&mut self, _update: crate::protocol::GameUpdate) {}
    pub fn act(
        &mut self,
        _bank: Option<u64>,
        _received: std::time::Instant,
        _s: &super::Settings,
        _c: &super::Config,
    ) -> String {
        self.recover()
    }
    pub fn recover(&mut self) -> String {
        "pass".into()
    }
}
