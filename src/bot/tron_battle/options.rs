//! The Tron Battle options: its `--battle-*` flags and their section of `--help`. The
//! configuration they set is [`super::config`], which the CodinGame bundle takes without
//! this file.

use super::config::{BattleConfig, Rivals};
use crate::bot::flags::{on_off, unknown, Flag, OptionError, Section};
use crate::tron::battle::RegionLead;
use std::str::FromStr;

impl FromStr for Rivals {
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "all" => Ok(Rivals::All),
            "nearby" => Ok(Rivals::InReach),
            other => Err(unknown("--battle-rivals", other, "")),
        }
    }
}

impl FromStr for RegionLead {
    type Err = OptionError;

    fn from_str(name: &str) -> Result<Self, OptionError> {
        match name {
            "largest" => Ok(RegionLead::Largest),
            "space" => Ok(RegionLead::Space),
            "outlast" => Ok(RegionLead::Outlast),
            other => Err(unknown("--battle-eval", other, "")),
        }
    }
}

/// The Tron Battle flags.
pub const SECTIONS: &[Section<BattleConfig>] = &[Section {
    title: "Tron Battle (CodinGame, 2-4 riders) search:",
    flags: FLAGS,
}];

const FLAGS: &[Flag<BattleConfig>] = &[
    Flag {
        name: "--battle-rivals",
        value: "all|nearby",
        needs: "all or nearby",
        help: &[
            "search against every other rider, or only those that can",
            "still reach our space (the others stand still in the",
            "search) [nearby]",
        ],
        set: |c, v| {
            c.rivals = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--battle-eval",
        value: "largest|space|outlast",
        needs: "largest, space or outlast",
        help: &[
            "our Voronoi region minus the largest rival's; space: the",
            "Light Riders space evaluation against a lone rival, else",
            "that lead with regions scored by cells and edges;",
            "outlast: space against a lone rival, else the rivals we",
            "expect to outlast (those out, and the tanh of our lead",
            "over each searched rival) [outlast]",
        ],
        set: |c, v| {
            c.eval = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--battle-fill",
        value: "on|off",
        needs: "on or off",
        help: &[
            "once no rider can reach our space, play the endgame",
            "filler's longest path instead of searching [on]",
        ],
        set: |c, v| {
            c.fill_alone = on_off("--battle-fill", v.text)?;
            Ok(())
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::tron_battle::settings;
    use crate::bot::Config;

    #[test]
    fn battle_flags_set_the_tron_battle_search_and_refuse_unknown_values() {
        assert_eq!(Config::default().battle, BattleConfig::default());
        let args = [
            "--battle-rivals",
            "all",
            "--battle-eval",
            "largest",
            "--battle-fill",
            "off",
        ];
        let battle = Config::from_args(&args).unwrap().battle;
        assert_eq!(battle, BattleConfig::PARANOID_ALL);
        let space = Config::from_args(&["--battle-eval", "space"]).unwrap();
        assert_eq!(space.battle.eval, RegionLead::Space);
        let outlast = Config::from_args(&["--battle-eval", "outlast"]).unwrap();
        assert_eq!(outlast.battle.eval, RegionLead::Outlast);
        for (flag, bad) in [
            ("--battle-rivals", "some"),
            ("--battle-eval", "cells"),
            ("--battle-fill", "yes"),
        ] {
            let err = Config::from_args(&[flag, bad]).unwrap_err().to_string();
            assert!(err.contains(flag), "{err}");
        }
    }

    #[test]
    fn the_turn_margin_is_the_common_safety_ms_when_given() {
        let default = Config::default();
        assert_eq!(
            settings(&default).safety_margin_ms,
            crate::protocol::codingame::SAFETY_MS
        );
        let given = Config::from_args(&["--safety-ms", "45", "--battle-fill", "off"]).unwrap();
        let battle = settings(&given);
        assert_eq!((battle.safety_margin_ms, battle.fill_alone), (45, false));
    }
}
