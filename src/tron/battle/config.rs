//! How the Tron Battle bot plays: [`BattleConfig`] (its `--battle-*` flags), with
//! [`Rivals`], which riders its search plays against, and the search's root they make.

use super::eval::RegionLead;
use super::rules::Battle;
use super::view::Paranoid;

/// How the Tron Battle bot plays (its `--battle-*` flags).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BattleConfig {
    /// Which riders the search plays against.
    pub rivals: Rivals,
    /// The search's evaluation.
    pub eval: RegionLead,
    /// Once no rider can reach our space, play the longest path the endgame filler finds
    /// instead of searching.
    pub fill_alone: bool,
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
