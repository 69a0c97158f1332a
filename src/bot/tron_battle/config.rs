//! How the Tron Battle bot plays: [`BattleConfig`] (its `--battle-*` flags and the turn's
//! safety margin), with [`Rivals`], which riders its search plays against, and the
//! search's root they make. The CodinGame bundle builds it with its defaults, so it needs
//! nothing of the command line.

use crate::protocol::codingame::SAFETY_MS;
use crate::tron::battle::{Battle, Paranoid, RegionLead};

/// How the Tron Battle bot plays (its `--battle-*` flags, and `--safety-ms`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BattleConfig {
    /// Which riders the search plays against.
    pub rivals: Rivals,
    /// The search's evaluation.
    pub eval: RegionLead,
    /// Once no rider can reach our space, play the longest path the endgame filler finds
    /// instead of searching.
    pub fill_alone: bool,
    /// Milliseconds kept back from each turn's time.
    pub safety_margin_ms: u64,
}

impl Default for BattleConfig {
    /// The strongest settings measured (docs/tron-battle.md): paranoid alpha-beta against
    /// the riders that can still reach us, the rivals we expect to outlast while two or
    /// more are searched and the Light Riders space evaluation against a lone rival, the
    /// filler once alone.
    fn default() -> Self {
        BattleConfig {
            rivals: Rivals::InReach,
            eval: RegionLead::Outlast,
            fill_alone: true,
            safety_margin_ms: SAFETY_MS,
        }
    }
}

impl BattleConfig {
    /// The settings before the free-for-all work (commit 86b6940): paranoid alpha-beta
    /// against every rider, our Voronoi region minus the largest other's, no filler.
    pub const PARANOID_ALL: BattleConfig = BattleConfig {
        rivals: Rivals::All,
        eval: RegionLead::Largest,
        fill_alone: false,
        safety_margin_ms: SAFETY_MS,
    };

    /// The search's root for rider `me` to move in `battle`.
    pub fn root(&self, battle: Battle, me: usize) -> Paranoid {
        match self.rivals {
            Rivals::All => Paranoid::all(battle, me),
            Rivals::InReach => Paranoid::nearby(battle, me),
        }
    }
}

/// The riders the Tron Battle search plays against; the others stand still in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rivals {
    /// Every other rider ([`Paranoid::all`]).
    All,
    /// Those that can still reach our space ([`Paranoid::nearby`]).
    InReach,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::direction::Direction;

    #[test]
    fn the_rivals_setting_builds_its_root() {
        // Rider 1's trail walls off rider 0's three cells on the left (the rules' tests'
        // board): only the nearby view leaves rider 1 standing still.
        let mut b = Battle::new(6, 2, &[(0, 0), (3, 0)]).unwrap();
        for d in [
            Direction::Down,
            Direction::Down,
            Direction::Right,
            Direction::Right,
        ] {
            b.play(d);
        }
        assert_eq!(BattleConfig::default().root(b.clone(), 0).frozen, 0b10);
        assert_eq!(BattleConfig::PARANOID_ALL.root(b, 0).frozen, 0);
    }
}
