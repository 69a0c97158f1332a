//! The static evaluation of Light Riders positions for alpha-beta search.
//!
//! Space decides Tron, so the evaluation measures what each rider can still fill (Kang
//! 2012, Sections 4.2 and 4.3; the scheme of the 2010 Google AI Challenge winner):
//!
//! - the **Voronoi partition**: the free cells each rider reaches strictly first, by
//!   breadth-first fills in lock step on the bitboards (a cell reached by both in the same
//!   step is on the battlefront and counts for neither);
//! - the **tree of chambers**: inside its region a rider's space falls apart at
//!   articulation points (one-cell doors). Entering a room through its door uses the door
//!   up, so of the rooms hanging off a chamber the rider fills only one. One depth-first
//!   search per rider (Tarjan's low points) finds the biconnected blocks and sums, along
//!   the best chain of blocks from the head, the cells it can fill. It runs on few nodes:
//!   the cells that the eight around them do not prove to be no articulation point (the
//!   *doors*), and the *pieces* the doors cut the region into, each found by one fill;
//! - the **checkerboard parity bound**: every move changes square colour, so a chain with
//!   `a` cells of the first step's colour and `b` of the head's holds at most
//!   `2 min(a, b) + [a > b]` moves;
//! - the **edges** between the chain's cells: at equal size, open space beats corridors,
//!   where a rider has fewer ways on (measured in docs/light-riders.md, "How it plays").
//!
//! Once no free path joins the riders the game is settled by who can run longer: the same
//! fill estimate over each rider's whole component decides, with a margin that puts every
//! won separation above any territory lead.
//!
//! The sets are copied into fixed-size arrays of as many words as the board needs (5 up to
//! 16x16), so that the fills are a handful of word operations per step. The evaluation
//! before the search ran on the contracted region is kept for the tests (`reference`),
//! which check that it gives the same on every position.
//!
//! The files: `score`: [`Space`], what the evaluation sees, and its score; `cells`: the
//! fixed-size cell sets; `board`: a position in them, its Voronoi partition and the two
//! low-point searches for the best chain of chambers; `chambers`: the contracted region
//! the first of them searches; `chain` and `scratch`: what both count and the working
//! space they share.

mod board;
mod cells;
mod chain;
mod chambers;
mod score;
mod scratch;

pub use score::{logistic, Space, CELL, EDGE, FEATURES, FEATURE_NAMES, SEPARATION};

use super::grid::WORDS;
use super::TronState;
use crate::game::Player;
use crate::search::alphabeta::Score;
use board::Board;

/// Runs `$body` with `$board` the [`Board`] of `$state` in the fewest words that hold its
/// grid: every fill and shift of the evaluation loops over all of a board's words.
macro_rules! sized_board {
    ($state:expr, $board:ident => $body:expr) => {
        match $state.grid().words() {
            words if words <= SMALL => {
                let $board = Board::<SMALL>::new($state);
                $body
            }
            words if words <= MEDIUM => {
                let $board = Board::<MEDIUM>::new($state);
                $body
            }
            _ => {
                let $board = Board::<WORDS>::new($state);
                $body
            }
        }
    };
}

/// The evaluation of a position whose riders both live, from `player`'s view.
pub fn evaluate(state: &TronState, player: Player) -> Score {
    space(state).score(player)
}

/// The settled value of separated riders from `player`'s view, or `None` while they share
/// space (cheaper than [`evaluate`]: the fills stop where the riders' regions meet).
pub fn settled(state: &TronState, player: Player) -> Option<Score> {
    let separated = sized_board!(state, board => board.separated());
    separated.then(|| space(state).score(player))
}

/// The Voronoi territories, separation and fillable space of both riders.
pub fn space(state: &TronState) -> Space {
    sized_board!(state, board => board.space())
}

/// Words of the boards up to 16x16 ((16 + 2) * 17 = 306 bits).
const SMALL: usize = 5;
/// Words of the boards up to CodinGame's 30x20 ((20 + 2) * 31 = 682 bits).
const MEDIUM: usize = 11;

#[cfg(test)]
pub(crate) mod reference;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::space;

    fn state(diagram: &str) -> TronState {
        TronState::from_diagram(diagram).unwrap()
    }

    #[test]
    fn territories_are_the_voronoi_regions() {
        for diagram in [
            "0......\n.......\n......1",
            "0..#...\n...#...\n......1",
            "..#..\n0.#.1\n..#..",
            "0...#\n.##.#\n...#1",
        ] {
            let s = state(diagram);
            let v = space::voronoi(&s);
            let sp = space(&s);
            assert_eq!(sp.separated, space::separated(&s), "{diagram}");
            if sp.separated {
                let reach = [0, 1].map(|p| space::reachable(&s, p).count());
                assert_eq!(sp.territory, reach, "{diagram}");
            } else {
                assert_eq!(sp.territory, v.counts(), "{diagram}");
            }
        }
    }

    #[test]
    fn an_open_room_is_filled_up_to_its_parity() {
        // 3x3 room minus the head: 4 cells of the first step's colour, 4 of the head's
        let s = state("...\n.0.\n...\n###\n##1");
        let sp = space(&s);
        assert!(sp.separated);
        assert_eq!(sp.territory[0], 8);
        assert_eq!(sp.fillable[0], 8);
        // the head in a corner of a 2x3 room: 3 + 2 cells, so at most 2 * 2 + 1 moves
        let s = state("0..\n...\n###\n1..");
        assert_eq!(space(&s).fillable[0], 5);
        assert_eq!(space(&s).fillable[1], 2);
        // the room's 5 cells have 5 edges between them (the head's are used up), the
        // corridor's 2 cells one
        assert_eq!(space(&s).edges, [5, 1]);
    }

    #[test]
    fn of_two_rooms_behind_doors_only_the_better_counts() {
        // Rider 0 has a door on each side: left to a 3x3 room, right to a corridor that
        // ends in a 2x2 room. It can fill one side, not both.
        let s = state(
            "
            ...####..
            ....0....
            ...######
            #########
            1........",
        );
        let sp = space(&s);
        assert!(sp.separated);
        assert_eq!(sp.territory, [16, 8]);
        // left: the door and the room hold 6 cells of the first step's colour and 4 of
        // the head's, so 2 * 4 + 1 moves (the room is entered on its minority colour);
        // right: 6 cells in a row of chambers
        assert_eq!(sp.fillable, [9, 8]);
        assert_eq!(sp.score(0), SEPARATION + CELL);
        assert_eq!(sp.score(1), -SEPARATION - CELL);
    }

    /// A random position: `width` x `height`, each cell a wall with probability
    /// `density`%, then both riders' random walks of `rounds` steps (trails, corridors
    /// and rooms as in play), from two random distinct cells.
    fn random_position(
        width: usize,
        height: usize,
        density: u64,
        rounds: usize,
        seed: u64,
    ) -> TronState {
        use crate::search::{random_below, FastRng, SimGame};
        use rand::SeedableRng;
        let mut rng = FastRng::seed_from_u64(seed);
        let cells = width * height;
        let mut below = |n: usize| random_below(&mut rng, n as u32) as usize;
        let walls: Vec<_> = (0..cells)
            .filter(|_| (below(100) as u64) < density)
            .map(|c| (c % width, c / width))
            .collect();
        let first = below(cells);
        let second = (first + 1 + below(cells - 1)) % cells;
        let heads = [first, second].map(|c| (c % width, c / width));
        let mut state = TronState::new(width, height, walls, heads).unwrap();
        for _ in 0..rounds {
            if state.outcome().is_some() {
                break;
            }
            let [m0, m1] = [0, 1].map(|p| {
                let safe = state.safe_moves(p);
                if safe.is_empty() {
                    state.legal_moves(p).nth(0)
                } else {
                    safe.nth(below(safe.len() as usize) as u32)
                }
            });
            let mut next = state.clone();
            next.play_joint(m0, m1);
            if next.outcome().is_some() {
                break;
            }
            state = next;
        }
        state
    }

    #[test]
    fn equal_chains_below_a_block_are_not_left_to_the_search_order() {
        // Below one block of a region, two doors lead to chains of as many moves
        // and cells but not as many edges: the cell search keeps the one it found last,
        // which the search on the contracted region cannot tell (it gives up there).
        let s = random_position(24, 26, 5, 24, 12188697053857143135);
        assert_eq!(space(&s), reference::space(&s));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10_000))]

        /// The evaluation gives what the old one gave, field for field, on boards of
        /// every shape up to the largest (and past 16x16, where the sets take more words).
        #[test]
        fn space_is_what_it_was(
            width in 3usize..=16,
            height in 3usize..=16,
            large in 0usize..8,
            density in 0u64..50,
            rounds in 0usize..120,
            seed: u64,
        ) {
            // one board in eight past 16x16, up to 32x32
            let (width, height) = if large == 0 {
                (width * 2, height * 2)
            } else {
                (width, height)
            };
            let s = random_position(width, height, density, rounds, seed);
            proptest::prop_assert_eq!(space(&s), reference::space(&s), "{:?}", s);
        }
    }
}
