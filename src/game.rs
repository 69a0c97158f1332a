//! What every two-player game here shares: who plays and how a game ended.

/// A player index: 0 or 1 (the first and the second player of the engine).
pub type Player = u8;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The reward of this outcome for `player`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[inline]
    pub fn reward_for(self, player: Player) -> f32 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A game the bot plays: Ultimate Tic-Tac-Toe, or Tron (Light Riders over the engines'
/// protocol, Tron Battle over CodinGame's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Uttt,
    Tron,
}

impl GameKind {
    /// The game's name in the logs (the engines' Tron is Light Riders).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Uttt => "Ultimate Tic-Tac-Toe",
            GameKind::Tron => "Light Riders",
        }
    }
}

impl std::str::FromStr for GameKind {
    type Err = String;

    /// `uttt`, or `tron` (also `lightriders`), as `--game` takes them.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "uttt" => Ok(GameKind::Uttt),
            "tron" | "lightriders" => Ok(GameKind::Tron),
            other => Err(format!("unknown game {other:?}")),
        }
    }
}
