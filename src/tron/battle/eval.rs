//! The paranoid search's evaluation: the riders' Voronoi regions ([`regions`],
//! [`region_scores`]) and the searcher's lead over its rivals by them
//! ([`RegionLead`]), apart from the rules so that other evaluations can be tried
//! without touching them.

use super::rules::{Battle, MAX_RIDERS};
use super::view::Paranoid;
use crate::game::Player;
use crate::search::alphabeta::{Evaluate, Score};
use crate::tron::evaluate::{self, CELL, EDGE};
use crate::tron::grid::Bitboard;
use crate::tron::space::voronoi_regions;
use crate::tron::TronState;

/// How many cells each rider reaches strictly before every other ([`region_cells`]), by
/// rider.
pub fn regions(battle: &Battle) -> [u32; MAX_RIDERS] {
    region_cells(battle).map(|cells| cells.count())
}

/// Each rider's Voronoi region (the cells it reaches strictly first) scored as the Light
/// Riders evaluation scores space: [`CELL`] a cell and [`EDGE`] an edge between two of its
/// cells, so that open space beats a corridor of as many cells.
pub fn region_scores(battle: &Battle) -> [Score; MAX_RIDERS] {
    region_cells(battle).map(|cells| region_score(&cells))
}

/// A region's score: [`CELL`] a cell and [`EDGE`] an edge between two of its cells.
fn region_score(cells: &Bitboard) -> Score {
    cells.count() as Score * CELL + cells.inner_edges() as Score * EDGE
}

/// The cells each rider reaches strictly before every other (by shortest free path, all
/// riders stepping at once), by rider; cells reached by two at once belong to nobody.
fn region_cells(battle: &Battle) -> [Bitboard; MAX_RIDERS] {
    let grid = battle.grid();
    let mut starts = [Bitboard::empty(grid); MAX_RIDERS];
    for (rider, start) in starts.iter_mut().enumerate().take(battle.riders()) {
        if battle.is_alive(rider) {
            *start = Bitboard::single(grid, battle.heads[rider] as usize);
        }
    }
    voronoi_regions(starts, battle.blocked().inverted()).0
}

/// The paranoid search's evaluation: `me`'s Voronoi region against its rivals' (the
/// riders not frozen); with two riders, the Voronoi heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionLead {
    /// `me`'s region minus the largest rival's.
    Largest,
    /// With one rival searched, the Light Riders space evaluation of the two riders
    /// ([`evaluate::evaluate`]: articulation points, chambers, edges, separation); with
    /// more, `me`'s region minus the largest rival's, each region scored by its cells and
    /// edges ([`region_scores`]).
    Space,
    /// With more than one rival searched, the rivals we expect to outlast, which is what
    /// a place counts: every rider out counts one, every searched rival
    /// `tanh(lead / OUTLAST_LEAD)`, the lead being our region's score minus its
    /// ([`region_scores`]), so that a lead over one rival beyond about `OUTLAST_LEAD`
    /// adds little and the search does not give up space against the nearest rival to
    /// crush a small one; with one rival, [`RegionLead::Space`]. The default (its
    /// measurements: docs/tron-battle.md).
    Outlast,
}

/// [`RegionLead::Outlast`]'s lead (in [`region_scores`]' units: about fifteen open
/// cells) at which a rival counts three quarters outlasted.
pub(super) const OUTLAST_LEAD: f32 = 1500.0;
/// [`RegionLead::Outlast`]'s score for one rival outlasted.
pub(super) const OUTLAST_RIVAL: f32 = 1000.0;

impl RegionLead {
    /// The lead of the searcher over its rivals in `position`, from `player`'s view
    /// (player 0 is the searcher).
    fn score(self, position: &Paranoid, player: Player) -> Score {
        let (battle, me) = (&position.battle, position.me);
        if matches!(self, RegionLead::Space | RegionLead::Outlast) {
            let mut rivals = position.rivals();
            if let (Some(rival), None) = (rivals.next(), rivals.next()) {
                let heads = [battle.heads[me], battle.heads[rival]];
                let duel = TronState::from_parts(*battle.blocked(), heads, [true, true]);
                return evaluate::evaluate(&duel, player);
            }
        }
        let values = match self {
            RegionLead::Largest => regions(battle).map(|n| n as Score),
            RegionLead::Space | RegionLead::Outlast => region_scores(battle),
        };
        let mine = values[me];
        let rivals = position.rivals().map(|r| values[r]);
        let score = match self {
            RegionLead::Outlast => {
                let outlasted: f32 = (0..battle.riders())
                    .filter(|&r| r != me)
                    .map(|r| match (battle.is_alive(r), position.is_searched(r)) {
                        (false, _) => 1.0,
                        (true, false) => 0.0,
                        (true, true) => ((mine - values[r]) as f32 / OUTLAST_LEAD).tanh(),
                    })
                    .sum();
                (outlasted * OUTLAST_RIVAL) as Score
            }
            RegionLead::Largest | RegionLead::Space => mine - rivals.max().unwrap_or(0),
        };
        if player == 0 {
            score
        } else {
            -score
        }
    }
}

impl Evaluate<Paranoid> for RegionLead {
    fn evaluate(&mut self, position: &Paranoid, player: Player) -> Score {
        self.score(position, player)
    }
}
