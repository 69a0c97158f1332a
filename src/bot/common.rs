//! The options every game shares: which game and protocol, the seed, the clock's
//! overrides, pondering and threads.

use super::flags::{unknown, Flag, OptionError, Section};
use crate::game::GameKind;
use crate::timeman::TimeControl;

/// Which protocol the bot speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// CodinGame when the first line is two integers, else the engines'.
    Auto,
    /// TheAIGames / riddles.io (`settings`, `update game`, `action move`).
    Engine,
    /// CodinGame's UTTT (`row col` lines, its end rule and clock) and Tron Battle.
    CodinGame,
}

/// The options every game shares.
#[derive(Clone, Debug, PartialEq)]
pub struct CommonConfig {
    /// The game; `None` detects it from the engine's first lines.
    pub game: Option<GameKind>,
    pub protocol: ProtocolChoice,
    /// Seed of the search's random numbers; `None` seeds from the clock.
    pub seed: Option<u64>,
    /// Milliseconds kept back from the timebank; `None` keeps each game's default.
    pub safety_margin_ms: Option<u64>,
    /// Our moves over which the timebank surplus is spread; `None` keeps the default.
    pub time_horizon: Option<u32>,
    /// Search threads, one tree each (root parallelism).
    pub threads: usize,
    /// Search on while the opponent thinks.
    pub ponder: bool,
}

impl Default for CommonConfig {
    fn default() -> Self {
        CommonConfig {
            game: None,
            protocol: ProtocolChoice::Auto,
            seed: None,
            safety_margin_ms: None,
            time_horizon: None,
            threads: 1,
            ponder: false,
        }
    }
}

impl CommonConfig {
    /// `base`, a game's time control for the engine's settings, with these overrides.
    pub fn time_control(&self, base: TimeControl) -> TimeControl {
        let mut tc = base;
        if let Some(ms) = self.safety_margin_ms {
            tc.safety_margin_ms = ms;
        }
        if let Some(moves) = self.time_horizon {
            tc.horizon_moves = moves;
        }
        tc
    }

    /// The seed given, else one from the clock.
    pub fn seed_or_clock(&self) -> u64 {
        self.seed.unwrap_or_else(crate::cli::clock_seed)
    }

    /// Refuses values the flags cannot take together.
    pub fn validate(&self) -> Result<(), OptionError> {
        if !(1..=256).contains(&self.threads) {
            return Err(OptionError::OutOfRange {
                flag: "--threads",
                low: 1,
                high: 256,
            });
        }
        Ok(())
    }
}

// Here rather than in `game`, which the CodinGame bundles take whole and which knows no
// flags.
impl std::str::FromStr for GameKind {
    type Err = OptionError;

    /// `uttt`, `tron` (also `lightriders`) or `tron-battle`, as `--game` takes them.
    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "uttt" => Ok(GameKind::Uttt),
            "tron" | "lightriders" => Ok(GameKind::LightRiders),
            "tron-battle" => Ok(GameKind::TronBattle),
            other => Err(unknown("game", other, "")),
        }
    }
}

/// The common flags.
pub const SECTIONS: &[Section<CommonConfig>] = &[Section {
    title: "",
    flags: FLAGS,
}];

const FLAGS: &[Flag<CommonConfig>] = &[
    Flag {
        name: "--game",
        value: "auto|uttt|tron|tron-battle",
        needs: "a game",
        help: &[
            "the game; auto detects it from the engine's lines; tron is",
            "Light Riders over the engines' protocol and Tron Battle",
            "over CodinGame's, as is tron-battle [auto]",
        ],
        set: |c, v| {
            c.game = match v.text {
                "auto" => None,
                name => Some(name.parse()?),
            };
            Ok(())
        },
    },
    Flag {
        name: "--protocol",
        value: "auto|theaigames|codingame",
        needs: "a protocol",
        help: &[
            "the engines' protocol (TheAIGames and riddles.io), or",
            "CodinGame's UTTT (its end rule and 100 ms turns) and",
            "Tron Battle (2-4 riders in seat order); auto: CodinGame",
            "when the first line is two integers, Tron Battle when",
            "the second is four (or as --game says) [auto]",
        ],
        set: |c, v| {
            c.protocol = match v.text {
                "auto" => ProtocolChoice::Auto,
                "theaigames" | "riddles" | "engine" => ProtocolChoice::Engine,
                "codingame" => ProtocolChoice::CodinGame,
                other => return Err(unknown("protocol", other, "")),
            };
            Ok(())
        },
    },
    Flag {
        name: "--seed",
        value: "N",
        needs: "a number",
        help: &["seed of the random numbers, for reproducible games [clock]"],
        set: |c, v| {
            c.seed = Some(v.number()?);
            Ok(())
        },
    },
    Flag {
        name: "--safety-ms",
        value: "N",
        needs: "ms",
        help: &[
            "milliseconds kept back from the timebank for pipes and",
            "scheduling [40 UTTT, 30 Tron, 10 CodinGame (at least",
            "a tenth of the turn)]",
        ],
        set: |c, v| {
            c.safety_margin_ms = Some(v.number()?);
            Ok(())
        },
    },
    Flag {
        name: "--time-horizon",
        value: "N",
        needs: "moves",
        help: &[
            "our moves over which the timebank surplus is spread",
            "[30 UTTT, cells/8 but at least 32 Tron]",
        ],
        set: |c, v| {
            c.time_horizon = Some(v.number()?);
            Ok(())
        },
    },
    Flag {
        name: "--ponder",
        value: "",
        needs: "",
        help: &[
            "search on while the opponent thinks (where a server allows",
            "it), in 2 ms slices between engine lines; Light Riders:",
            "the MCTS tree of the round just answered; CodinGame's UTTT",
            "too, not Tron Battle [off]",
        ],
        set: |c, _| {
            c.ponder = true;
            Ok(())
        },
    },
    Flag {
        name: "--threads",
        value: "N",
        needs: "threads",
        help: &[
            "search threads, one tree each, their root statistics added",
            "up (root parallelism: UTTT's MCTS and the decoupled Light",
            "Riders variants, not UCT with minimax backups; memory grows",
            "with N) [1]",
        ],
        set: |c, v| {
            c.threads = v.number()?;
            Ok(())
        },
    },
];
