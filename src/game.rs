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

/// A game the bot plays: Ultimate Tic-Tac-Toe (over both protocols), Light Riders (the
/// engines' Tron) or Tron Battle (CodinGame's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Uttt,
    LightRiders,
    TronBattle,
}

impl GameKind {
    /// The game's name in the logs and on its platform.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Uttt => "Ultimate Tic-Tac-Toe",
            GameKind::LightRiders => "Light Riders",
            GameKind::TronBattle => "Tron Battle",
        }
    }

    /// This game as the engines' protocol plays it: its Tron is Light Riders.
    pub fn on_engines(self) -> GameKind {
        match self {
            GameKind::TronBattle => GameKind::LightRiders,
            game => game,
        }
    }

    /// This game as CodinGame's protocol plays it: its Tron is Tron Battle.
    pub fn on_codingame(self) -> GameKind {
        match self {
            GameKind::LightRiders => GameKind::TronBattle,
            game => game,
        }
    }
}
