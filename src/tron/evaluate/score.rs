//! What the evaluation sees in a position, [`Space`], and how it is scored: the weights of
//! a cell and an edge, the separation margin, the leads a weighted evaluation sums, and
//! the logistic curve that turns a score into a leaf value.

use crate::game::Player;
use crate::search::alphabeta::Score;

/// The score of one cell of fillable space.
pub const CELL: Score = 11;
/// The score of one edge between fillable cells: open space, where a rider has choices,
/// is worth more than a corridor of as many cells (the 2010 winner's weights, 55 a cell
/// and 194 an edge, in the same ratio).
pub const EDGE: Score = 39;
/// Added to (or taken from) the score of separated riders whose space differs: larger than
/// any difference of territory, so a won separation is preferred to every open position.
pub const SEPARATION: Score = 100_000;

/// What the evaluation sees in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    /// Whether no free path joins the riders.
    pub separated: bool,
    /// The cells each rider reaches first (its whole component once separated).
    pub territory: [u32; 2],
    /// What each rider can fill of its territory: the best chain of chambers, bounded by
    /// the checkerboard parity.
    pub fillable: [u32; 2],
    /// The edges of each rider's best chain: half its cells' neighbours in the territory,
    /// so an edge inside the chain counts once.
    pub edges: [u32; 2],
}

/// How many leads [`Space::features`] gives.
pub const FEATURES: usize = 4;

/// The names of [`Space::features`], in order (for the options and the tools).
pub const FEATURE_NAMES: [&str; FEATURES] = ["fill", "edge", "territory", "share"];

impl Space {
    /// Rider 0's leads, the terms a weighted evaluation sums: fillable cells, their edges,
    /// territory, and the fill lead as a share of both riders' fill (−1..1: ten cells
    /// decide more when twenty are left than when two hundred are). [`Space::score`] is
    /// `CELL` and `EDGE` times the first two.
    pub fn features(&self) -> [f32; FEATURES] {
        let lead = |value: [u32; 2]| value[0] as f32 - value[1] as f32;
        let both = (self.fillable[0] + self.fillable[1]).max(1) as f32;
        [
            lead(self.fillable),
            lead(self.edges),
            lead(self.territory),
            lead(self.fillable) / both,
        ]
    }

    /// The evaluation from `player`'s view: the differences of fillable cells and of their
    /// edges, weighted by [`CELL`] and [`EDGE`]; separated riders compare cells only, plus
    /// or minus [`SEPARATION`] when they differ.
    pub fn score(&self, player: Player) -> Score {
        let me = player as usize;
        let lead = self.fillable[me] as Score - self.fillable[1 - me] as Score;
        if self.separated {
            lead.signum() * SEPARATION + lead * CELL
        } else {
            let edge_lead = self.edges[me] as Score - self.edges[1 - me] as Score;
            lead * CELL + edge_lead * EDGE
        }
    }
}

/// The logistic curve of scale `scale` at `score`: an evaluation turned into a reward in
/// `0.0..=1.0`, one half at 0, 1/(1 + e⁻¹) at `scale` (the searches' leaf values).
pub fn logistic(score: f32, scale: f32) -> f32 {
    1.0 / (1.0 + (-score / scale).exp())
}
