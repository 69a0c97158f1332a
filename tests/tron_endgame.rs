//! The endgame filler against exhaustive search on tiny boards.

use mctsbot::search::{random_below, FastRng, Limits};
use mctsbot::tron::endgame::{fill_longest, longest_path_exact};
use mctsbot::tron::space::{parity_bound, reachable, wall_following_fill};
use mctsbot::tron::{Direction, TronState};
use rand::SeedableRng;

/// A `w` x `h` board with random walls, rider 0 somewhere and rider 1 sealed into the
/// bottom-right corner (so it crashes whatever it does and never touches rider 0's space).
fn random_board(rng: &mut FastRng, w: usize, h: usize, wall_pct: u32) -> TronState {
    let corner = (w - 1, h - 1);
    let seal = [(w - 2, h - 1), (w - 1, h - 2)];
    let cells: Vec<(usize, usize)> = (0..w * h)
        .map(|i| (i % w, i / w))
        .filter(|c| *c != corner && !seal.contains(c))
        .collect();
    let head = cells[random_below(rng, cells.len() as u32) as usize];
    let walls: Vec<(usize, usize)> = cells
        .iter()
        .copied()
        .filter(|&c| c != head && random_below(rng, 100) < wall_pct)
        .chain(seal)
        .collect();
    TronState::new(w, h, walls, [head, corner]).unwrap()
}

fn check(s: &TronState) {
    let exact = longest_path_exact(s, 0);
    let found = fill_longest(s, 0, Limits::iterations(u64::MAX));
    assert!(found.exact, "{}", s.render());
    assert_eq!(found.length, exact, "\n{}", s.render());
    assert!(wall_following_fill(s, 0) <= exact, "\n{}", s.render());
    let h = s.head_index(0);
    assert!(
        parity_bound(h, &reachable(s, 0)) >= exact,
        "\n{}",
        s.render()
    );
    match found.first {
        None => assert_eq!(exact, 0),
        Some(d) => {
            // the first move must keep the promised length: rider 1 crashes, rider 0 moves
            let mut next = s.clone();
            next.step(d, Direction::Up);
            assert!(next.is_alive(0));
            assert_eq!(1 + longest_path_exact(&next, 0), exact, "\n{}", s.render());
        }
    }
}

#[test]
fn filler_matches_brute_force_on_4x4_boards() {
    let mut rng = FastRng::seed_from_u64(21);
    for round in 0..400 {
        check(&random_board(&mut rng, 4, 4, (round % 4) * 10));
    }
}

#[test]
fn filler_matches_brute_force_on_5x5_boards() {
    let mut rng = FastRng::seed_from_u64(22);
    for round in 0..300 {
        check(&random_board(&mut rng, 5, 5, 5 + (round % 4) * 8));
    }
}

#[test]
fn filler_matches_brute_force_on_6x5_boards() {
    let mut rng = FastRng::seed_from_u64(23);
    for _ in 0..60 {
        check(&random_board(&mut rng, 6, 5, 20));
    }
}

#[test]
fn filler_avoids_the_dead_end() {
    // going up gives 1 move; going right the corridor of 8
    let s = TronState::from_diagram(".####\n0....\n####.\n1#...").unwrap();
    let r = fill_longest(&s, 0, Limits::iterations(10_000));
    assert_eq!(r.first, Some(Direction::Right));
    assert_eq!(r.length, 8);
    assert!(r.exact);
}

#[test]
fn trapped_rider_has_no_path() {
    let s = TronState::from_diagram("0#\n#1").unwrap();
    let r = fill_longest(&s, 0, Limits::iterations(100));
    assert_eq!((r.first, r.length), (None, 0));
}

#[test]
fn budget_stops_a_big_search_with_a_usable_answer() {
    // 16x16 with scattered walls, rider 1 sealed away: far too big to finish in 2000 nodes
    let mut rng = FastRng::seed_from_u64(24);
    let s = random_board(&mut rng, 16, 16, 12);
    let r = fill_longest(&s, 0, Limits::iterations(2_000));
    assert!(r.nodes <= 2_000);
    if !r.exact {
        assert!(r.first.is_some());
        assert!(r.length >= 20, "length {} on\n{}", r.length, s.render());
    }
    let bound = parity_bound(s.head_index(0), &reachable(&s, 0));
    assert!(r.length <= bound);
}

#[test]
fn open_board_fill_meets_the_parity_bound_quickly() {
    // rider 0 alone in an empty 16x14 rectangle (rows 14, 15 walled off with rider 1): a
    // rectangle with an even number of cells has a Hamiltonian path from any cell (to a
    // cell of the other colour), and the Warnsdorff order finds one without much
    // backtracking
    let walls: Vec<(usize, usize)> = (0..16).map(|x| (x, 14)).chain([(1, 15)]).collect();
    let s = TronState::new(16, 16, walls, [(3, 7), (0, 15)]).unwrap();
    let r = fill_longest(&s, 0, Limits::iterations(100_000));
    let bound = parity_bound(s.head_index(0), &reachable(&s, 0));
    assert_eq!(bound, 16 * 14 - 1);
    assert_eq!(r.length, bound);
    assert!(r.exact);
}
