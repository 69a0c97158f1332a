//! CodinGame's Tron Battle: a 30×20 grid and 2 to 4 riders that move one after another
//! in seat order (not at once, as in Light Riders). A rider that moves off the grid or
//! into any trail, heads included, is out, and its trail vanishes at once; the last rider
//! left wins. So there are no draws.
//!
//! The search sees it through [`Paranoid`]: the searching rider against all the others as
//! one side (Sturtevant's paranoid reduction of a multi-player game to two players), by
//! alpha-beta over [`regions`], the Voronoi partition among all riders. Riders that can no
//! longer reach the searcher's space may be left out of it ([`Battle::rivals_in_reach`]):
//! their moves change nothing the searcher can meet, and skipping them buys depth.
//!
//! `rules`: [`Battle`], the game itself; `view`: [`Paranoid`], the game as one rider
//! searches it, and what a search [`Found`]; `eval`: the Voronoi regions and the search's
//! evaluation, [`RegionLead`]. The bot's settings belong to the Tron Battle player
//! (`bot::tron_battle`). The items are re-exported here, so callers name them
//! `tron::battle::Battle` whatever file holds them.

mod eval;
mod rules;
#[cfg(test)]
mod tests;
mod view;

pub use eval::{region_scores, regions, RegionLead};
pub use rules::{Battle, BattleError, HEIGHT, MAX_RIDERS, WIDTH};
pub use view::{Found, Paranoid};
