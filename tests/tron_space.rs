//! Space evaluation on hand-drawn boards (expected numbers counted by hand) and against
//! naive reference implementations on random boards.

use mctsbot::search::random_below;
use mctsbot::search::FastRng;
use mctsbot::tron::space::{
    articulation_points, checkerboard_estimate, components, evaluate, fill_estimates, parity_bound,
    reachable, separated, tree_of_chambers, voronoi, wall_following_fill,
};
use mctsbot::tron::{Bitboard, Direction, TronState};
use rand::SeedableRng;

fn state(d: &str) -> TronState {
    TronState::from_diagram(d).unwrap()
}

fn cells(b: &Bitboard) -> Vec<(usize, usize)> {
    b.cells().collect()
}

/// Two pockets and two isolated bits: rider 0 has 3 cells, rider 1 has 6.
const POCKETS: &str = "
0.#..
..#..
####.
..#.1";

#[test]
fn flood_fill_and_components_on_a_hand_drawn_board() {
    let s = state(POCKETS);
    assert_eq!(cells(&reachable(&s, 0)), vec![(1, 0), (0, 1), (1, 1)]);
    assert_eq!(reachable(&s, 1).count(), 6);
    let sizes: Vec<u32> = components(&s.free()).iter().map(|c| c.count()).collect();
    assert_eq!(sizes, vec![3, 5, 2, 1]);
    assert!(separated(&s));
}

#[test]
fn separation_needs_a_free_path() {
    assert!(!separated(&state("0...\n...1")));
    assert!(
        !separated(&state("0.1")),
        "a shared free neighbour joins them"
    );
    assert!(
        separated(&state("01\n##")),
        "adjacent heads with no free cell"
    );
    assert!(separated(&state("0#.\n.#.\n.#1")));
    assert!(!separated(&state("0#.\n.#.\n..1")));
}

#[test]
fn checkerboard_estimate_and_parity_bound() {
    let s = state(POCKETS);
    let r1 = reachable(&s, 1);
    // rider 1's region: 4 gray ((x + y) even) and 2 white squares
    assert_eq!(checkerboard_estimate(&r1), 6 - 2);
    // rider 1 stands on white, so it alternates gray, white, ...: 2 * 2 + 1
    assert_eq!(parity_bound(s.grid().index(4, 3), &r1), 5);
    let r0 = reachable(&s, 0);
    assert_eq!(
        checkerboard_estimate(&r0),
        2,
        "the paper's formula undercounts here"
    );
    assert_eq!(parity_bound(s.grid().index(0, 0), &r0), 3);
    assert_eq!(fill_estimates(&s), [3, 5]);
}

#[test]
fn wall_following_fill_is_a_lower_bound() {
    let s = state(POCKETS);
    assert_eq!(wall_following_fill(&s, 0), 3);
    // it must avoid the dead end (3, 3) and take the 5-cell pocket
    assert_eq!(wall_following_fill(&s, 1), 5);
    // an open 4x4 with a sealed opponent: 12 free cells, the greedy filler gets them all
    let open = state("0...\n....\n...#\n..#1");
    assert_eq!(wall_following_fill(&open, 0), 12);
}

#[test]
fn voronoi_on_an_open_board_has_a_battlefront_diagonal() {
    let v = voronoi(&state("0....\n.....\n....1"));
    assert_eq!(v.counts(), [5, 5]);
    assert_eq!(cells(&v.front), vec![(3, 0), (2, 1), (1, 2)]);
    assert_eq!(v.surplus(), 0);
}

#[test]
fn voronoi_follows_paths_around_walls() {
    let v = voronoi(&state("0#.\n.#.\n..1"));
    assert_eq!(cells(&v.owned[0]), vec![(0, 1)]);
    assert_eq!(cells(&v.front), vec![(0, 2)]);
    assert_eq!(cells(&v.owned[1]), vec![(2, 0), (2, 1), (1, 2)]);
    assert_eq!(v.surplus(), -2);
}

#[test]
fn articulation_points_of_a_dumbbell_and_a_ring() {
    let dumbbell = Bitboard::from_diagram(
        "
        oo...
        oooo.
        ...oo
        ...oo",
    )
    .unwrap();
    assert_eq!(
        cells(&articulation_points(&dumbbell)),
        vec![(1, 1), (2, 1), (3, 1), (3, 2)]
    );
    let ring = Bitboard::from_diagram("ooo\no.o\nooo").unwrap();
    assert!(articulation_points(&ring).is_empty());
    let path = Bitboard::from_diagram("ooooo").unwrap();
    assert_eq!(
        cells(&articulation_points(&path)),
        vec![(1, 0), (2, 0), (3, 0)]
    );
    // a ring with a tail: the tail hangs off (2, 2), so every tail cell but the tip and
    // the ring cell it hangs from are cut points; the other ring cells are not
    let tailed = Bitboard::from_diagram("ooo.o\no.o.o\nooooo").unwrap();
    assert_eq!(
        cells(&articulation_points(&tailed)),
        vec![(4, 1), (2, 2), (3, 2), (4, 2)]
    );
    // two components at once
    let two = Bitboard::from_diagram("ooo.oo\n......\n.ooo..").unwrap();
    assert_eq!(cells(&articulation_points(&two)), vec![(1, 0), (2, 2)]);
}

#[test]
fn articulation_points_on_a_long_snake_do_not_overflow_the_stack() {
    // a 32x32 serpentine corridor: every cell except the two ends is a cut point
    let mut rows = Vec::new();
    for y in 0..32 {
        let row: String = (0..32)
            .map(|x| {
                if y % 2 == 0 || (y % 4 == 1 && x == 31) || (y % 4 == 3 && x == 0) {
                    'o'
                } else {
                    '.'
                }
            })
            .collect();
        rows.push(row);
    }
    let snake = Bitboard::from_diagram(&rows.join("\n")).unwrap();
    assert_eq!(articulation_points(&snake).count(), snake.count() - 2);
}

#[test]
fn tree_of_chambers_on_a_corridor() {
    // "..0...1.": Voronoi gives rider 0 {0, 1, 3}, rider 1 {5, 7}, front {4}.
    // Rider 0's chamber is empty (both neighbours are cut points); the chamber behind
    // (1) is {1, 0}: value 2. Rider 1's chamber is {7}, plus the chamber {5}: value 2.
    let s = state("..0...1.");
    assert_eq!(voronoi(&s).counts(), [3, 2]);
    assert_eq!(tree_of_chambers(&s), [2, 2]);
    // without cut points the value is the Voronoi region
    let open = state("0....\n.....\n....1");
    assert_eq!(tree_of_chambers(&open), [5, 5]);
}

#[test]
fn evaluate_prefers_the_rider_with_more_space() {
    let s = state(POCKETS);
    assert!(evaluate(&s) < 0.2, "rider 1 has 5 moves against 3");
    let mut won = state("0.\n#1");
    won.step(Direction::Right, Direction::Left);
    assert_eq!(evaluate(&won), 1.0, "rider 1 crashed into the wall");
    let mut lost = state("0.\n#1");
    lost.step(Direction::Down, Direction::Up);
    assert_eq!(evaluate(&lost), 0.0, "rider 0 crashed into the wall");
    let even = state("0....\n.....\n....1");
    assert!((evaluate(&even) - 0.5).abs() < 1e-6);
}

/// Breadth-first distances through free cells, the slow obvious way.
fn naive_distances(s: &TronState, p: u8) -> Vec<Option<u32>> {
    let (w, h) = (s.width(), s.height());
    let mut dist = vec![None; w * h];
    let (hx, hy) = s.head(p);
    let mut queue = std::collections::VecDeque::from([(hx, hy, 0u32)]);
    let mut seen = vec![false; w * h];
    seen[hy * w + hx] = true;
    while let Some((x, y, d)) = queue.pop_front() {
        for dir in Direction::ALL {
            let (dx, dy) = dir.offset();
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                continue;
            }
            let (nx, ny) = (nx as usize, ny as usize);
            if seen[ny * w + nx] || s.is_blocked(nx, ny) {
                continue;
            }
            seen[ny * w + nx] = true;
            dist[ny * w + nx] = Some(d + 1);
            queue.push_back((nx, ny, d + 1));
        }
    }
    dist
}

fn random_state(rng: &mut FastRng, w: usize, h: usize, wall_pct: u32) -> TronState {
    let n = w * h;
    let a = random_below(rng, n as u32) as usize;
    let mut b = random_below(rng, n as u32 - 1) as usize;
    if b >= a {
        b += 1;
    }
    let walls: Vec<(usize, usize)> = (0..n)
        .filter(|&i| i != a && i != b && random_below(rng, 100) < wall_pct)
        .map(|i| (i % w, i / w))
        .collect();
    TronState::new(w, h, walls, [(a % w, a / w), (b % w, b / w)]).unwrap()
}

#[test]
fn voronoi_matches_naive_distances_on_random_boards() {
    let mut rng = FastRng::seed_from_u64(11);
    for round in 0..300 {
        let (w, h) = (3 + round % 14, 2 + round % 9);
        let s = random_state(&mut rng, w, h, 25);
        let v = voronoi(&s);
        let (d0, d1) = (naive_distances(&s, 0), naive_distances(&s, 1));
        for i in 0..w * h {
            let (x, y) = (i % w, i / w);
            let (o0, o1, f) = (
                v.owned[0].get(x, y),
                v.owned[1].get(x, y),
                v.front.get(x, y),
            );
            let expected = match (d0[i], d1[i]) {
                (Some(a), Some(b)) if a == b => (false, false, true),
                (Some(a), Some(b)) => (a < b, b < a, false),
                (Some(_), None) => (true, false, false),
                (None, Some(_)) => (false, true, false),
                (None, None) => (false, false, false),
            };
            assert_eq!((o0, o1, f), expected, "cell ({x}, {y}) of\n{}", s.render());
        }
        let sep = d0.iter().zip(&d1).all(|(a, b)| a.is_none() || b.is_none());
        assert_eq!(separated(&s), sep, "\n{}", s.render());
        // the space evaluation's fill, on its fixed-size sets, finds the same regions
        let space = mctsbot::tron::evaluate::space(&s);
        assert_eq!(space.territory, v.counts(), "\n{}", s.render());
        assert_eq!(space.separated, sep, "\n{}", s.render());
        // Tree of Chambers never exceeds the Voronoi region
        let tc = tree_of_chambers(&s);
        let vc = v.counts();
        assert!(tc[0] <= vc[0] && tc[1] <= vc[1], "\n{}", s.render());
    }
}

#[test]
fn articulation_points_match_removal_on_random_boards() {
    let mut rng = FastRng::seed_from_u64(12);
    for round in 0..200 {
        let (w, h) = (2 + round % 9, 2 + round % 7);
        let s = random_state(&mut rng, w, h, 35);
        let set = s.free();
        let aps = articulation_points(&set);
        let base = components(&set).len();
        for i in set.iter() {
            let mut without = set;
            without.clear_index(i);
            let cut = components(&without).len() > base;
            assert_eq!(aps.get_index(i), cut, "bit {i} of\n{}", s.render());
        }
    }
}

mod predictive_expansion {
    use mctsbot::game::Outcome;
    use mctsbot::search::{Evaluator, SimGame};
    use mctsbot::tron::space::predicted_outcome;
    use mctsbot::tron::{PlayoutPolicy, TronState};

    fn state(diagram: &str) -> TronState {
        TronState::from_diagram(diagram).unwrap()
    }

    #[test]
    fn a_rider_with_more_certain_space_wins() {
        // Separated: player 0 has a 4x4 room (a long sure run), player 1 a 2x2 corner.
        let s = state("....#..\n.0..#1.\n....###\n....#..");
        assert_eq!(predicted_outcome(&s), Some(Outcome::Win(0)));
    }

    #[test]
    fn touching_riders_are_not_predicted() {
        let s = state("......\n.0..1.\n......");
        assert_eq!(predicted_outcome(&s), None);
    }

    #[test]
    fn equal_exact_runs_are_a_draw() {
        // Two identical corridors of three cells: both run 2 moves and crash together.
        let s = state("0..\n###\n1..");
        assert_eq!(predicted_outcome(&s), Some(Outcome::Draw));
    }

    #[test]
    fn close_spaces_are_not_certain() {
        // Player 0: 2x3 room; player 1: 2x3 room too but with parity slack: no certainty
        // unless the bounds separate.
        let s = state("0..#1..\n...#...");
        let predicted = predicted_outcome(&s);
        assert!(
            predicted.is_none() || predicted == Some(Outcome::Draw),
            "{predicted:?}"
        );
    }

    #[test]
    fn the_search_sees_predicted_positions_as_finished_only_when_asked() {
        let s = state("....#..\n.0..#1.\n....###\n....#..");
        let plain = PlayoutPolicy::avoid_crash();
        let pes = plain.with_predictive_expansion(true);
        assert_eq!(plain.certain_outcome(&s), None);
        assert_eq!(pes.certain_outcome(&s), Some(Outcome::Win(0)));
        // The rules do not predict: the game goes on.
        assert_eq!(SimGame::outcome(&s), None);
    }
}

mod space_score {
    use mctsbot::search::{Contempt, Evaluator, FastRng};
    use mctsbot::tron::playout::{SpaceScore, DEFAULT_SPACE_WEIGHTS};
    use mctsbot::tron::{PlayoutPolicy, TronState};
    use rand::SeedableRng;

    const SCORE: SpaceScore = SpaceScore {
        steps: 0,
        scale: 400.0,
        weights: DEFAULT_SPACE_WEIGHTS,
        contempt: Contempt::NONE,
    };

    #[test]
    fn a_symmetric_position_is_even() {
        assert_eq!(SCORE.reward(&TronState::light_riders_start()), 0.5);
    }

    #[test]
    fn more_space_scores_higher_and_the_riders_are_zero_sum() {
        // Rider 1 sits in a corridor that opens onto rider 0's room through one door.
        let diagram = "......#....\n..0...#.1..\n......###.#\n...........";
        let mirrored = diagram
            .replace('0', "x")
            .replace('1', "0")
            .replace('x', "1");
        let ahead = SCORE.reward(&TronState::from_diagram(diagram).unwrap());
        let behind = SCORE.reward(&TronState::from_diagram(&mirrored).unwrap());
        assert!(ahead > 0.6, "{ahead}");
        assert!((ahead + behind - 1.0).abs() < 1e-6, "{ahead} + {behind}");
    }

    #[test]
    fn the_weights_score_the_space_leads() {
        use mctsbot::tron::evaluate::space;
        let diagram = "......#....\n..0...#.1..\n......###.#\n...........";
        let state = TronState::from_diagram(diagram).unwrap();
        let leads = space(&state).features();
        // The default weights are the alpha-beta evaluation's score.
        let score = space(&state).score(0) as f32;
        let expected = 1.0 / (1.0 + (-score / 400.0).exp());
        assert!((SCORE.reward(&state) - expected).abs() < 1e-6);
        // Territory alone: its lead over the scale.
        let territory = SpaceScore {
            weights: [0.0, 0.0, 1.0, 0.0],
            scale: 1.0,
            ..SCORE
        };
        assert!(leads[2] != 0.0, "{leads:?}");
        let expected = 1.0 / (1.0 + (-leads[2]).exp());
        assert!((territory.reward(&state) - expected).abs() < 1e-6);
        // The share of fill is the fill lead over both riders' fill.
        let s = space(&state);
        let both = (s.fillable[0] + s.fillable[1]) as f32;
        assert!((leads[3] - leads[0] / both).abs() < 1e-6);
        assert!(leads[3].abs() < 1.0);
    }

    #[test]
    fn separated_riders_are_decided_by_a_few_cells() {
        // Rider 0 can run 9 moves, rider 1 only 5.
        let s = TronState::from_diagram("0....#1..\n.....#...").unwrap();
        let reward = SCORE.reward(&s);
        assert!(reward > 0.95, "{reward}");
        let even = TronState::from_diagram("0..#1..\n...#...").unwrap();
        assert_eq!(SCORE.reward(&even), 0.5);
    }

    #[test]
    fn separated_riders_with_equal_space_are_worth_the_draws_reward() {
        let even = TronState::from_diagram("0..#1..\n...#...").unwrap();
        // Rider 0 searched for with a contempt of 0.1: a draw is worth 0.4 to it.
        let contempt = SpaceScore {
            contempt: Contempt::new(0.1, 0),
            ..SCORE
        };
        assert_eq!(contempt.reward(&even), 0.4);
        let ahead = TronState::from_diagram("0....#1..\n.....#...").unwrap();
        assert_eq!(contempt.reward(&ahead), SCORE.reward(&ahead));
    }

    #[test]
    fn the_cut_off_plays_its_rounds_then_scores() {
        // Rider 1 must run into its dead end within two rounds: a play-out of two rounds
        // ends the game, one of zero rounds only scores the position.
        let s = TronState::from_diagram("0.....\n......\n######\n1.####").unwrap();
        let mut rng = FastRng::seed_from_u64(1);
        let mut score = |steps| {
            let mut policy =
                PlayoutPolicy::avoid_crash().with_space_score(Some(SpaceScore { steps, ..SCORE }));
            policy.evaluate(&mut s.clone(), &mut rng)
        };
        assert_eq!(score(3), 1.0);
        let scored = score(0);
        assert!(scored > 0.5 && scored < 1.0, "{scored}");
    }
}
