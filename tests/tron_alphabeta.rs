//! Alpha-beta on Light Riders positions drawn by hand: it avoids crashes and dead ends,
//! takes the cut that leaves it the bigger room, scores a head-on collision as a draw,
//! and finds the same values with and without its transposition table.

use mctsbot::game::Outcome;
use mctsbot::search::alphabeta::{AlphaBeta, AlphaBetaConfig, SearchResult, PROVEN};
use mctsbot::search::{Game, Limits, Sequentialized};
use mctsbot::tron::alphabeta::SpaceEvaluation;
use mctsbot::tron::evaluate::SEPARATION;
use mctsbot::tron::{Direction, TronState};

fn state(diagram: &str) -> TronState {
    TronState::from_diagram(diagram).unwrap()
}

/// A search as `me` to exactly `depth` plies.
fn search(
    position: &TronState,
    me: u8,
    depth: u32,
    table_entries: usize,
) -> SearchResult<Direction> {
    let config = AlphaBetaConfig {
        table_entries,
        max_depth: Some(depth),
        ..AlphaBetaConfig::default()
    };
    AlphaBeta::new(config, SpaceEvaluation).search(
        &Sequentialized::new(position.clone(), me),
        Limits::iterations(u64::MAX),
    )
}

#[test]
fn it_never_steps_into_a_wall_or_a_dead_end() {
    // Up is the board edge, Left a wall, Down a one-cell pocket; only Right lives on.
    let s = state(
        "
        #0.......
        #.#......
        .#.......
        ........1",
    );
    for depth in [2, 4, 6] {
        let result = search(&s, 0, depth, 1 << 16);
        assert_eq!(result.best, Some(Direction::Right), "depth {depth}");
        assert!(result.score > -PROVEN);
    }
}

#[test]
fn it_takes_the_cut_that_leaves_it_the_bigger_room() {
    // A wall row with one gap beside rider 0. Stepping into the gap (Right) and then up
    // seals rider 1 into the two bottom rows; anything else lets rider 1 through the gap
    // first. One round of search sees it through the Voronoi territories.
    let s = state(
        "
        .........
        .........
        .........
        ###0.####
        .........
        ....1....",
    );
    for depth in [2, 4, 6] {
        let result = search(&s, 0, depth, 1 << 16);
        assert_eq!(result.best, Some(Direction::Right), "depth {depth}");
        assert!(result.score > 0, "depth {depth}: {}", result.score);
    }
    // Deep enough, the search sees the separation itself.
    assert!(search(&s, 0, 6, 1 << 16).score > SEPARATION / 2);
}

#[test]
fn the_same_cell_for_both_is_a_draw() {
    // Both riders' only free cell is the one between them.
    let s = state(
        "
        0.1
        ###",
    );
    let mut position = Sequentialized::new(s.clone(), 0);
    position.play(Direction::Right);
    position.play(Direction::Left);
    assert_eq!(position.outcome(), Some(Outcome::Draw));
    for me in [0, 1] {
        let result = search(&s, me, 2, 1 << 10);
        assert_eq!(result.score, 0);
    }
}

#[test]
fn a_lost_separation_runs_as_long_as_it_can() {
    // Rider 0 is walled in with a corridor of three cells (Right) and a pocket of one
    // (Down); rider 1 has the room. Both lose, the corridor later.
    let s = state(
        "
        0...#....
        .####....
        #####....
        ........1",
    );
    let result = search(&s, 0, 4, 1 << 16);
    assert!(result.score <= -SEPARATION, "{}", result.score);
    assert_eq!(result.best, Some(Direction::Right));
}

#[test]
fn the_table_changes_no_value_at_a_fixed_depth() {
    let s = state(
        "
        ..........
        ..#.......
        ..#..0....
        ..#####...
        ......1...
        ..........",
    );
    for depth in [2, 4, 6] {
        for me in [0, 1] {
            let with = search(&s, me, depth, 1 << 16);
            let without = search(&s, me, depth, 0);
            assert_eq!(with.score, without.score, "depth {depth} as {me}");
        }
    }
}
