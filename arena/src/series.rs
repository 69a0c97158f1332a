//! A series: games in parallel with colours alternated (and each Light Riders map played
//! from both starts), so that games `2k` and `2k + 1` make a pair; an optional SPRT that
//! stops it early; then the table and `results.json`.
//!
//! `play` plays the games, `summary` sums them up (totals, pairs, the SPRT, the
//! table), `write` makes `results.json` and writes the series' folder.

mod play;
mod summary;
#[cfg(test)]
mod tests;
mod write;

pub use play::{map_for, openings, run, run_recorded, schedule, PlayFn};
pub use summary::{pair_points, pentanomial, place_rows, table, SprtStatus, Totals};
pub use write::{results, write_out};
