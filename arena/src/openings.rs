//! Openings: the moves the arena plays before it hands a game to the bots, so that a
//! series covers many positions instead of replaying the start. Both games of a pair get
//! the same opening (with colours swapped), from a file or a seeded random generator.
//!
//! File format, one opening per line (blank lines and `#` comments skipped):
//! - UTTT: plies as the engine's `place_move` coordinates `column,row`, e.g. `4,4 3,5`;
//! - Light Riders: optionally `map=NAME` (a map as `--map` takes it, or `emptyWxH` for
//!   the riddles engine's empty board) and `start=X,Y` (player 0's start; player 1's is
//!   its mirror image, as the map is mirrored), then rounds as two letters, player 0's
//!   direction then player 1's, from `u d l r`: e.g. `rl ul`,
//!   `map=empty16x16 start=3,7`, `map=rooms16 start=2,5 rl`. A line's board replaces
//!   `--map` for its pair of games.
//!
//! `--openings NAME` also finds the suites shipped in `protocol/openings/NAME.txt`.
//!
//! `book`: where the openings come from and a pair's opening; `uttt` and `tron`:
//! the lines of each game, parsed, checked and drawn at random; `suite`: the generator
//! of balanced suites (`arena openings`).

mod book;
mod suite;
mod tron;
mod uttt;

pub use book::{Book, Opening};
pub use suite::{balanced_tron_suite, balanced_uttt_suite, SuiteSpec};
pub use tron::{letter, parse_tron, TronLine};
pub use uttt::{parse_game_line, parse_uttt};
