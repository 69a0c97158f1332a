//! The Tron Battle tests: the rules (seat order, crashes, the referee's reports), the
//! regions and the leads they give, the riders left out of the search, and the search
//! itself on boards small enough to prove.

use super::eval::{OUTLAST_LEAD, OUTLAST_RIVAL};
use super::*;
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, PROVEN};
use crate::search::alphabeta::{Evaluate, Score};
use crate::search::Game;
use crate::search::Limits;
use crate::tron::direction::{DirSet, Direction};
use crate::tron::endgame::fill_longest_from;
use crate::tron::evaluate::{self, CELL, EDGE};
use crate::tron::TronState;

fn four_riders() -> Battle {
    Battle::codingame(&[(2, 2), (27, 2), (27, 17), (2, 17)]).unwrap()
}

#[test]
fn riders_move_in_seat_order_and_skip_those_out() {
    let mut b = four_riders();
    assert_eq!(b.to_move(), 0);
    b.play(Direction::Right);
    assert_eq!((b.head(0), b.to_move()), (Some((3, 2)), 1));
    b.eliminate(2);
    b.play(Direction::Left);
    assert_eq!(b.to_move(), 3, "rider 2 is out: 3 moves after 1");
    b.play(Direction::Up);
    assert_eq!(b.to_move(), 0);
    assert_eq!(b.alive_count(), 3);
    assert_eq!(b.trail(0).count(), 2);
}

#[test]
fn a_crash_takes_the_rider_out_and_its_trail_vanishes() {
    let mut b = Battle::new(5, 1, &[(0, 0), (2, 0)]).unwrap();
    b.play(Direction::Right); // rider 0 to (1, 0)
    assert_eq!(b.safe_moves(1), DirSet(1 << Direction::Right.index()));
    b.play(Direction::Left); // rider 1 runs into rider 0's head
    assert!(!b.is_alive(1));
    assert_eq!(b.winner(), Some(0));
    assert!(!b.blocked().get(2, 0), "rider 1's trail is gone");
    assert_eq!(b.to_move(), 0);

    let mut b = Battle::new(3, 3, &[(0, 0), (2, 2), (0, 2)]).unwrap();
    b.play(Direction::Up); // off the grid
    assert!(!b.is_alive(0) && b.trail(0).is_empty() && !b.blocked().get(0, 0));
    assert_eq!(b.to_move(), 1);
}

#[test]
fn a_vanished_trail_can_be_crossed_by_the_next_rider() {
    // rider 1 at (1, 0) is walled in by rider 0's trail and the edge; once it is out,
    // rider 2 may move onto its old cell
    let mut b = Battle::new(3, 2, &[(0, 0), (1, 0), (1, 1)]).unwrap();
    b.play(Direction::Down); // rider 0 to (0, 1)
    assert_eq!(b.safe_moves(1), DirSet(1 << Direction::Right.index()));
    b.play(Direction::Up); // rider 1 leaves the grid
    assert_eq!(b.to_move(), 2);
    assert!(b.safe_moves(2).contains(Direction::Up));
    b.play(Direction::Up);
    assert_eq!(b.head(2), Some((1, 0)));
}

#[test]
fn observing_the_referee_rebuilds_the_trails() {
    let mut played = four_riders();
    let mut seen = four_riders();
    for d in [
        Direction::Right,
        Direction::Left,
        Direction::Up,
        Direction::Down,
    ] {
        played.play(d);
    }
    played.eliminate(2);
    for rider in 0..4 {
        seen.observe(rider, played.head(rider)).unwrap();
    }
    seen.set_to_move(played.to_move());
    assert_eq!(seen, played);
    assert!(seen.observe(0, Some((10, 10))).is_err(), "not one step");
    assert!(seen.observe(0, Some((30, 0))).is_err(), "off the grid");
}

#[test]
fn regions_split_the_free_cells_by_who_reaches_them_first() {
    // a 5x1 corridor: riders at both ends, the middle cell reached by both at once
    let b = Battle::new(5, 1, &[(0, 0), (4, 0)]).unwrap();
    assert_eq!(regions(&b)[..2], [1, 1]);
    let b = Battle::new(6, 1, &[(0, 0), (5, 0)]).unwrap();
    assert_eq!(regions(&b)[..2], [2, 2]);
    // four corners of an empty 30x20 grid share it evenly by symmetry
    let counts = regions(&four_riders());
    assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    assert!(counts[0] > 100);
}

#[test]
fn rivals_in_reach_are_the_riders_whose_head_borders_our_space() {
    // 0 . 1 . . . 2   (one row): rider 1 stands between 0 and 2
    let b = Battle::new(7, 1, &[(0, 0), (2, 0), (6, 0)]).unwrap();
    assert_eq!(b.rivals_in_reach(0), 0b010);
    assert_eq!(b.rivals_in_reach(1), 0b101);
    assert_eq!(b.rivals_in_reach(2), 0b010);
    let mut b = b;
    b.eliminate(1);
    assert_eq!(b.rivals_in_reach(0), 0b100, "its trail vanished");
}

/// Two rows; rider 1's trail walls off rider 0's three cells on the left, then
/// rider 1 walks away from the wall:
/// ```text
/// 0 . . 1 . .       0 . . 1 . .
/// . . . . . .   ->  0 0 . 1 1 .
/// ```
fn walled_off() -> Battle {
    let mut b = Battle::new(6, 2, &[(0, 0), (3, 0)]).unwrap();
    for d in [
        Direction::Down,
        Direction::Down,
        Direction::Right,
        Direction::Right,
    ] {
        b.play(d);
    }
    b
}

#[test]
fn a_walled_off_rider_is_frozen_and_the_filler_plays_its_space() {
    let b = walled_off();
    assert_eq!(b.rivals_in_reach(0), 0);
    let fill = fill_longest_from(b.blocked(), b.head_index(0), Limits::iterations(u64::MAX));
    assert_eq!((fill.length, fill.exact), (3, true));
    assert!(b.safe_moves(0).contains(fill.first.unwrap()));

    let mut position = Paranoid::nearby(b.clone(), 0);
    assert_eq!(position.frozen, 0b10);
    position.play(Direction::Up);
    assert_eq!(position.battle.to_move(), 0, "rider 1's turn is skipped");
    assert_eq!(position.battle.head(1), b.head(1));
    assert_eq!(Paranoid::all(b, 0).frozen, 0);
}

#[test]
fn region_leads_count_the_largest_rival_and_skip_the_frozen() {
    // 0 . . . . 1 . . . 2   regions 2, 3 and 1 (cell 7 is a tie)
    let b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
    assert_eq!(regions(&b)[..3], [2, 3, 1]);
    let all = Paranoid::all(b.clone(), 0);
    assert_eq!(RegionLead::Largest.evaluate(&all, 0), 2 - 3);
    assert_eq!(RegionLead::Largest.evaluate(&all, 1), 1, "player 1's view");
    let without_1 = Paranoid {
        frozen: 0b010,
        ..all
    };
    assert_eq!(RegionLead::Largest.evaluate(&without_1, 0), 2 - 1);

    // cells {1, 2}, {3, 4, 6}, {8}: one edge each in the first two
    assert_eq!(
        region_scores(&b)[..3],
        [2 * CELL + EDGE, 3 * CELL + EDGE, CELL]
    );
    let all = Paranoid::all(b.clone(), 0);
    assert_eq!(
        RegionLead::Space.evaluate(&all, 0),
        -CELL,
        "two rivals: regions by cells and edges"
    );

    // one rival left in the search: the Light Riders evaluation of the two riders
    // (rider 2's head and trail a wall between them)
    let duel = Paranoid {
        frozen: 0b010,
        ..all
    };
    let state = TronState::new(10, 1, [(5, 0)], [(0, 0), (9, 0)]).unwrap();
    for player in [0, 1] {
        assert_eq!(
            RegionLead::Space.evaluate(&duel, player),
            evaluate::evaluate(&state, player)
        );
    }
    assert!(
        RegionLead::Space.evaluate(&duel, 0) > 0,
        "4 cells against 3"
    );
}

#[test]
fn outlast_counts_the_riders_out_and_a_bounded_lead_over_each_searched_rival() {
    // 0 . . . . 1 . . . 2   region scores as in the test above
    let b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
    let [ours, one, two, ..] = region_scores(&b);
    let term = |theirs: Score| ((ours - theirs) as f32 / OUTLAST_LEAD).tanh();
    let expected = ((term(one) + term(two)) * OUTLAST_RIVAL) as Score;
    let all = Paranoid::all(b.clone(), 0);
    assert_eq!(RegionLead::Outlast.evaluate(&all, 0), expected);
    assert_eq!(RegionLead::Outlast.evaluate(&all, 1), -expected);
    // each rival counts at most one outlasted, whatever the lead
    assert!(RegionLead::Outlast.evaluate(&all, 0) < 2 * OUTLAST_RIVAL as Score);
    // a rider out counts one outlasted, with a lone rival searched the duel's space
    let mut four = Battle::new(10, 1, &[(0, 0), (3, 0), (6, 0), (9, 0)]).unwrap();
    four.eliminate(3);
    let three_searched = Paranoid::all(four.clone(), 0);
    let [ours, one, two, ..] = region_scores(&four);
    let term = |theirs: Score| ((ours - theirs) as f32 / OUTLAST_LEAD).tanh();
    assert_eq!(
        RegionLead::Outlast.evaluate(&three_searched, 0),
        ((1.0 + term(one) + term(two)) * OUTLAST_RIVAL) as Score
    );
    let duel = Paranoid {
        frozen: 0b010,
        ..Paranoid::all(b, 0)
    };
    assert_eq!(
        RegionLead::Outlast.evaluate(&duel, 0),
        RegionLead::Space.evaluate(&duel, 0)
    );
}

fn search(position: &Paranoid, depth: u32) -> (Option<Direction>, Score) {
    let mut ab = AlphaBeta::new(
        AlphaBetaConfig {
            max_depth: Some(depth),
            ..AlphaBetaConfig::default()
        },
        RegionLead::Largest,
    );
    let result = ab.search(position, Limits::iterations(u64::MAX));
    (result.best, result.score)
}

#[test]
fn the_search_proves_wins_and_losses_and_avoids_dead_ends() {
    // 0 . 1      rider 0 moves first; wherever rider 1 turns, it is walled in
    // . . .      one move later
    let won = Battle::new(3, 2, &[(0, 0), (2, 0)]).unwrap();
    let (best, score) = search(&Paranoid::all(won, 0), 8);
    assert!(best.is_some() && score >= PROVEN, "{score}");
    // 0 . 1 .    rider 0 must step next to rider 1, which escapes to the right
    let lost = Battle::new(4, 1, &[(0, 0), (2, 0)]).unwrap();
    let (_, score) = search(&Paranoid::all(lost, 0), 8);
    assert!(score <= -PROVEN, "{score}");

    // with four riders, the searcher never steps off the grid or into a trail
    let mut b = four_riders();
    for d in [
        Direction::Up,
        Direction::Up,
        Direction::Down,
        Direction::Down,
    ] {
        b.play(d);
    }
    b.play(Direction::Up); // rider 0 to (2, 0): Up would leave the grid
    b.set_to_move(0);
    let (best, _) = search(&Paranoid::all(b.clone(), 0), 4);
    assert!(b.safe_moves(0).contains(best.unwrap()));
    assert!(!b.safe_moves(0).contains(Direction::Up));
}
