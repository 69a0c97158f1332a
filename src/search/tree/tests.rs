use super::selection::{best_ucb, best_ucb_wide, WIDE_SCAN};
use super::*;
use crate::search::bandit::fast_ln;
use crate::search::test_game::{RecordingPlayout, TicTacToe};
use crate::search::UniformPlayout;
use crate::search::{progressive_bias, Guidance, LeafNote};

type TicTacToeTree = Tree<TicTacToe, UniformPlayout<u8>>;

/// The settings the tests start from, written out here so that the search floor's
/// tests need nothing from the bot (they were the UTTT bot's defaults when written,
/// but need not follow them), with a draw worth one half to both players (the tests
/// compare values with exact ones).
fn config() -> TreeConfig {
    TreeConfig {
        exploration: 0.5,
        selection: Selection::Ucb1,
        expand_visits: 16,
        max_nodes: 4_000_000,
        final_move: FinalMove::MaxRobust,
        solver: true,
        rave: None,
        grave_reference: 0,
        prior_visits: 5,
        guidance: crate::search::Guidance::Uct,
        contempt: 0.0,
    }
}

fn new_tree(game: TicTacToe, config: TreeConfig, seed: u64) -> TicTacToeTree {
    Tree::new(game, config, UniformPlayout::default(), seed)
}

fn searched(game: TicTacToe, config: TreeConfig, iterations: u64) -> TicTacToeTree {
    let mut tree = new_tree(game, config, 7);
    let stats = tree.search(Limits::iterations(iterations));
    assert!(stats.iterations <= iterations);
    tree
}

#[test]
fn fast_ln_is_close_to_ln() {
    for x in [1.0f32, 1.5, 2.0, 3.0, 10.0, 81.0, 1000.0, 123_456.0, 4.0e9] {
        assert!(
            (fast_ln(x) - x.ln()).abs() < 2e-4,
            "ln {x}: {} vs {}",
            fast_ln(x),
            x.ln()
        );
    }
}

#[test]
fn exploration_term_is_c_sqrt_ln_n_on_both_sides_of_the_table() {
    let tree = new_tree(TicTacToe::new(), config(), 1);
    let c = tree.config().exploration;
    assert_eq!(tree.exploration_term(0), f32::MIN_POSITIVE);
    assert_eq!(tree.exploration_term(1), f32::MIN_POSITIVE);
    let limit = EXPLORATION_TABLE as u32;
    for n in [2, 3, 81, limit - 1, limit, limit + 1, 1 << 20, u32::MAX] {
        let exact = c * (n as f64).ln().sqrt() as f32;
        let term = tree.exploration_term(n);
        assert!(
            (term - exact).abs() < 1e-4 * exact,
            "{n}: {term} vs {exact}"
        );
    }
}

#[test]
fn the_wide_scan_picks_the_same_child_as_the_plain_one() {
    let mut rng = FastRng::seed_from_u64(9);
    let mut random = |n: u32| crate::search::random_below(&mut rng, n);
    for case in 0..2000 {
        let count = WIDE_SCAN + random(60) as usize;
        let children: Vec<Node<u8>> = (0..count)
            .map(|i| {
                let mut node = Node::new(i as u8, 0);
                // Few distinct values, so that ties are common; some unvisited (+∞
                // score) and some proven lost (mean −∞).
                node.mean = match random(8) {
                    0 => f32::NEG_INFINITY,
                    _ => random(4) as f32 / 4.0,
                };
                let visits = random(5);
                if visits > 0 {
                    node.inv_sqrt_visits = 1.0 / (visits as f32).sqrt();
                }
                node
            })
            .collect();
        let exploration = random(3) as f32 * 0.5 + f32::MIN_POSITIVE;
        assert_eq!(
            best_ucb_wide(&children, exploration),
            best_ucb(&children, exploration),
            "case {case}"
        );
    }
}

#[test]
fn takes_an_immediate_win() {
    // x x . / o o . / . . .  — x to move wins at 2.
    let tree = searched(TicTacToe::from_picture("xx.oo...."), config(), 2000);
    let best = tree.best_move().unwrap();
    assert_eq!(best.mv, 2);
    assert_eq!(best.proof, Proof::Win);
    assert_eq!(tree.root_proof(), Proof::Win);
}

#[test]
fn blocks_the_only_threat_without_the_solver() {
    // x . . / o o . / x . .  — x to move must block at 5.
    let config = TreeConfig {
        solver: false,
        rave: None,
        grave_reference: 0,
        prior_visits: 0,
        ..config()
    };
    let tree = searched(TicTacToe::from_picture("x..oo.x.."), config, 20_000);
    assert_eq!(tree.best_move().unwrap().mv, 5);
}

#[test]
fn contempt_values_a_draw_below_half_for_the_player_to_move_at_the_root() {
    // x o x / x o o / o x .  — x's last move draws.
    // x o x / x o o / . x .  — o draws at 6 (8 lets x win at 6).
    for (picture, best) in [("xoxxooox.", 8), ("xoxxoo.x.", 6)] {
        for contempt in [0.0, 0.2, -0.1] {
            let config = TreeConfig {
                solver: false,
                contempt,
                ..config()
            };
            let tree = searched(TicTacToe::from_picture(picture), config, 3000);
            let chosen = tree.best_move().unwrap();
            assert_eq!(chosen.mv, best, "{picture} contempt {contempt}");
            assert!(
                (chosen.value - (0.5 - contempt)).abs() < 1e-4,
                "{picture} contempt {contempt}: {}",
                chosen.value
            );
        }
    }
}

#[test]
fn contempt_stays_the_bots_when_the_tree_is_rooted_at_the_opponents_position() {
    // Made with x to move, then rooted at o's move (as pondering does): o's draw at 6
    // is worth 0.5 + contempt to o, as x sees it.
    let config = TreeConfig {
        solver: false,
        contempt: 0.2,
        ..config()
    };
    let mut tree = new_tree(TicTacToe::from_picture("xoxxoo..."), config, 7);
    tree.search(Limits::iterations(500));
    tree.reroot(TicTacToe::from_picture("xoxxoo.x."));
    tree.search(Limits::iterations(3000));
    let chosen = tree.best_move().unwrap();
    assert_eq!(chosen.mv, 6);
    assert!((chosen.value - 0.7).abs() < 1e-4, "{}", chosen.value);
}

/// Exact value for the player to move: 1 win, 0.5 draw, 0 loss.
fn minimax(game: &TicTacToe) -> f32 {
    if let Some(outcome) = game.outcome() {
        return outcome.reward_for(game.to_move());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut next = *game;
            next.play(mv);
            1.0 - minimax(&next)
        })
        .fold(0.0, f32::max)
}

#[test]
fn proofs_and_chosen_moves_agree_with_minimax() {
    let mut rng = FastRng::seed_from_u64(11);
    let mut proven = 0;
    for _ in 0..40 {
        let mut game = TicTacToe::new();
        for _ in 0..5 {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            if !moves.is_empty() {
                let pick = crate::search::random_below(&mut rng, moves.len() as u32);
                game.play(moves[pick as usize]);
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        let tree = searched(game, config(), 30_000);
        let exact = minimax(&game);
        let expected_proof = match exact {
            1.0 => Proof::Win,
            0.0 => Proof::Loss,
            _ => Proof::Draw,
        };
        let root_proof = tree.root_proof();
        if root_proof != Proof::Unknown {
            assert_eq!(root_proof, expected_proof, "{game:?}");
            proven += 1;
        }
        let mut after = game;
        after.play(tree.best_move().unwrap().mv);
        assert_eq!(
            1.0 - minimax(&after),
            exact,
            "a move that throws the game away in {game:?}"
        );
    }
    assert!(proven >= 20, "only {proven} positions proven");
}

#[test]
fn solver_proves_a_lost_position() {
    // x x . / . o . / x . o with o to move: x threatens both 2 (row 0-1-2) and 3
    // (column 0-3-6), and o can block only one.
    let game = TicTacToe::from_picture("xx..o.x.o");
    assert_eq!(game.to_move(), 1);
    let tree = searched(game, config(), 50_000);
    assert_eq!(tree.root_proof(), Proof::Loss);
}

#[test]
fn iteration_limit_is_exact_and_stats_add_up() {
    let mut tree = new_tree(TicTacToe::new(), config(), 3);
    let stats = tree.search(Limits::iterations(500));
    assert_eq!(stats.iterations, 500);
    assert_eq!(tree.root_visits(), 500);
    let child_visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
    assert_eq!(child_visits, 500, "the root is expanded at once");
    assert!(stats.playouts <= stats.iterations);
    assert_eq!(stats.nodes, tree.node_count());
}

#[test]
fn reroot_keeps_the_subtree_of_the_moves_played() {
    let config = TreeConfig {
        solver: false,
        rave: None,
        grave_reference: 0,
        prior_visits: 0,
        ..config()
    };
    let mut tree = new_tree(TicTacToe::new(), config, 5);
    tree.search(Limits::iterations(5000));
    let mut after = TicTacToe::new();
    after.play(4);
    after.play(0);
    let (node, _) = tree
        .descendant(&[4, 0])
        .expect("two plies deep after 5000 iterations");
    let expected_visits = tree.nodes[node].visits;
    assert!(tree.reroot(after));
    assert_eq!(tree.root_visits(), expected_visits);
    assert_eq!(tree.root_state(), &after);
    // Child blocks are intact: the children hold every visit but the play-outs the
    // node had before it was expanded.
    let child_visits: u32 = tree.root_moves().iter().map(|m| m.visits).sum();
    assert_eq!(child_visits + config.expand_visits, expected_visits);
    tree.search(Limits::iterations(100));
    assert_eq!(tree.root_visits(), expected_visits + 100);
}

#[test]
fn reroot_to_an_unreachable_position_starts_afresh() {
    let mut tree = new_tree(TicTacToe::new(), config(), 5);
    tree.search(Limits::iterations(1000));
    // Three plies away: more than a move and its reply.
    let far = TicTacToe::from_picture("x...o...x");
    assert!(!tree.reroot(far));
    assert_eq!(tree.root_visits(), 0);
    assert_eq!(tree.node_count(), 1);
    assert_eq!(tree.root_state(), &far);
    // From there, a position one ply on is found and searched.
    tree.search(Limits::iterations(1000));
    let mut next = far;
    next.play(2);
    assert!(tree.reroot(next));
    assert!(tree.root_visits() > 0);
}

#[test]
fn the_secure_final_move_prefers_a_sure_value_to_visits() {
    let config = TreeConfig {
        final_move: FinalMove::Secure { a: 1.0 },
        solver: false,
        rave: None,
        grave_reference: 0,
        prior_visits: 0,
        ..config()
    };
    let tree = searched(TicTacToe::new(), config, 3000);
    let best = tree.best_move().unwrap();
    let lower_bound = |m: &MoveInfo<u8>| m.value - 1.0 / (m.visits as f32).sqrt();
    for m in tree.root_moves() {
        assert!(
            lower_bound(&m) <= lower_bound(&best),
            "{m:?} beats {best:?}"
        );
    }
}

/// Values a tic-tac-toe position by the marks in the centre and corners, counting
/// its calls; deterministic when told so.
struct CountingHeuristic {
    calls: u64,
    deterministic: bool,
}

impl TreePolicy<TicTacToe> for CountingHeuristic {}

impl Evaluator<TicTacToe> for CountingHeuristic {
    fn evaluate(&mut self, game: &mut TicTacToe, _rng: &mut FastRng) -> f32 {
        self.calls += 1;
        let weight = |marks: u16| (marks & 0x155).count_ones() as f32;
        0.5 + (weight(game.marks[0]) - weight(game.marks[1])) / 10.0
    }

    fn is_deterministic(&self) -> bool {
        self.deterministic
    }
}

/// Uniform play-outs, and one move the evaluator values highly wherever it is legal.
struct FavouredMove(u8);

impl Evaluator<TicTacToe> for FavouredMove {
    fn evaluate(&mut self, game: &mut TicTacToe, rng: &mut FastRng) -> f32 {
        UniformPlayout::default().evaluate(game, rng)
    }
}

impl TreePolicy<TicTacToe> for FavouredMove {
    fn move_value(&self, _state: &TicTacToe, mv: u8) -> Option<f32> {
        Some(if mv == self.0 { 1.0 } else { 0.2 })
    }
}

fn guided(guidance: Guidance) -> TreeConfig {
    TreeConfig {
        expand_visits: 1,
        solver: false,
        prior_visits: 0,
        guidance,
        ..config()
    }
}

#[test]
fn ulm_tries_the_best_valued_untried_child_first_and_every_child_before_any_twice() {
    let mut tree = Tree::new(
        TicTacToe::new(),
        guided(Guidance::UntriedByValue),
        FavouredMove(7),
        3,
    );
    tree.search(Limits::iterations(1));
    let visited: Vec<u8> = tree
        .root_moves()
        .iter()
        .filter(|m| m.visits > 0)
        .map(|m| m.mv)
        .collect();
    assert_eq!(visited, [7]);
    tree.search(Limits::iterations(8));
    assert!(tree.root_moves().iter().all(|m| m.visits == 1));
}

#[test]
fn progressive_bias_is_weight_times_value_over_losses_and_steers_visits() {
    assert_eq!(progressive_bias(10.0, 0.5, 4, 0.75), 2.5);
    assert_eq!(progressive_bias(10.0, 1.0, 9, 0.0), 1.0);
    let visits_of_edge = |guidance| {
        let mut tree = Tree::new(TicTacToe::new(), guided(guidance), FavouredMove(1), 3);
        tree.search(Limits::iterations(3000));
        tree.root_moves().iter().find(|m| m.mv == 1).unwrap().visits
    };
    let (plain, biased) = (
        visits_of_edge(Guidance::Uct),
        visits_of_edge(Guidance::ProgressiveBias { weight: 10.0 }),
    );
    assert!(biased > 2 * plain, "{biased} vs {plain}");
}

#[test]
fn a_deterministic_evaluator_is_asked_once_per_leaf() {
    let run = |deterministic| {
        let evaluator = CountingHeuristic {
            calls: 0,
            deterministic,
        };
        let mut tree = Tree::new(TicTacToe::new(), config(), evaluator, 11);
        let stats = tree.search(Limits::iterations(5_000));
        (tree.root_moves(), stats.playouts, tree.evaluator().calls)
    };
    let (reused, reused_playouts, reused_calls) = run(true);
    let (fresh, fresh_playouts, fresh_calls) = run(false);
    assert_eq!(reused, fresh, "the same values make the same tree");
    assert_eq!(fresh_calls, fresh_playouts);
    assert_eq!(reused_calls, reused_playouts);
    assert!(
        reused_calls * 4 < fresh_calls,
        "{reused_calls} evaluations against {fresh_calls}"
    );
}

/// Notes each position by its marks (in its prior or at its first evaluation) and
/// checks every note it is handed is that position's.
#[derive(Default)]
struct NotingPlayout {
    prior_notes: bool,
    handed: u64,
    noted_here: u64,
}

fn note_of(game: &TicTacToe) -> LeafNote {
    1 + (game.marks[0] | game.marks[1] << 9) % 60_000
}

impl TreePolicy<TicTacToe> for NotingPlayout {
    fn prior_noted(&self, _parent: &TicTacToe, child: &TicTacToe) -> (Option<f32>, LeafNote) {
        (Some(0.5), if self.prior_notes { note_of(child) } else { 0 })
    }
}

impl Evaluator<TicTacToe> for NotingPlayout {
    fn evaluate(&mut self, _game: &mut TicTacToe, _rng: &mut FastRng) -> f32 {
        unreachable!("the tree hands its nodes' notes")
    }

    fn evaluate_noted(
        &mut self,
        game: &mut TicTacToe,
        rng: &mut FastRng,
        note: &mut LeafNote,
    ) -> f32 {
        if *note == 0 {
            *note = note_of(game);
            self.noted_here += 1;
        } else {
            assert_eq!(*note, note_of(game), "a note of another position");
            self.handed += 1;
        }
        UniformPlayout::default().evaluate(game, rng)
    }
}

#[test]
fn a_nodes_note_from_its_prior_or_first_evaluation_comes_back_at_its_later_ones() {
    for prior_notes in [true, false] {
        let evaluator = NotingPlayout {
            prior_notes,
            ..NotingPlayout::default()
        };
        let mut tree = Tree::new(TicTacToe::new(), config(), evaluator, 3);
        let stats = tree.search(Limits::iterations(3_000));
        let NotingPlayout {
            handed, noted_here, ..
        } = *tree.evaluator();
        assert_eq!(handed + noted_here, stats.playouts);
        // With notes from the priors nothing is noted at an evaluation (the root is
        // expanded at once, never evaluated).
        if prior_notes {
            assert_eq!(noted_here, 0);
        } else {
            assert!(
                noted_here > 50 && handed > 4 * noted_here,
                "{noted_here} {handed}"
            );
        }
    }
}

#[test]
fn a_full_tree_keeps_searching_without_expanding() {
    let config = TreeConfig {
        max_nodes: 30,
        ..config()
    };
    let mut tree = new_tree(TicTacToe::new(), config, 9);
    let stats = tree.search(Limits::iterations(5000));
    assert_eq!(stats.iterations, 5000);
    assert!(stats.tree_full);
    assert!(tree.node_count() <= 30);
}

#[test]
fn a_finished_position_has_nothing_to_search() {
    let mut tree = new_tree(TicTacToe::from_picture("xxxoo...."), config(), 1);
    let stats = tree.search(Limits::iterations(100));
    assert_eq!(stats.iterations, 0);
    assert!(tree.best_move().is_none());
}

#[test]
fn max_robust_holds_when_the_most_visited_move_is_also_the_best() {
    let tree = searched(TicTacToe::from_picture("x..oo.x.."), config(), 20_000);
    assert!(tree.max_robust_found());
    let best = tree.best_move().unwrap();
    assert_eq!(best.mv, 5);
    let mut not_lost = tree
        .root_moves()
        .into_iter()
        .filter(|m| m.proof != Proof::Loss);
    assert!(not_lost.all(|m| m.value <= best.value));
}

#[test]
fn rave_counts_every_visit_of_a_node_in_its_amaf_statistics_and_more() {
    let config = TreeConfig {
        rave: Some(0.1),
        grave_reference: 0,
        prior_visits: 0,
        expand_visits: 2,
        ..config()
    };
    let mut tree = Tree::new(TicTacToe::new(), config, RecordingPlayout::default(), 3);
    tree.search(Limits::iterations(20_000));
    assert_eq!(tree.amaf.len(), tree.nodes.len());
    // A node's move is always played later in the iterations through it, by its mover.
    for (node, amaf) in tree.nodes.iter().zip(&tree.amaf).skip(1) {
        assert!(amaf.visits >= node.visits, "{node:?} {amaf:?}");
    }
    // Siblings learn from play-outs through other moves: more AMAF updates than visits.
    let root = tree.nodes[0];
    let visits: u32 = root.children().map(|c| tree.nodes[c].visits).sum();
    let amaf: u32 = root.children().map(|c| tree.amaf[c].visits).sum();
    // (x makes three to five moves a game: about four updates a visit.)
    assert!(amaf > 3 * visits, "{amaf} AMAF updates for {visits} visits");
    assert!(tree.best_move().is_some());
}

/// A tic-tac-toe tree searched with RAVE, GRAVE's reference `reference` (0: plain RAVE).
fn rave_tree(reference: u32) -> Tree<TicTacToe, RecordingPlayout> {
    let config = TreeConfig {
        rave: Some(0.1),
        grave_reference: reference,
        expand_visits: 2,
        ..config()
    };
    let mut tree = Tree::new(TicTacToe::new(), config, RecordingPlayout::default(), 5);
    tree.search(Limits::iterations(20_000));
    tree
}

#[test]
fn grave_steers_only_nodes_below_its_reference() {
    // Every node with children has been visited: reference 1 is plain RAVE.
    let rave = rave_tree(0);
    assert_eq!(rave.root_moves(), rave_tree(1).root_moves());
    assert_ne!(rave.root_moves(), rave_tree(1_000).root_moves());
}

#[test]
fn grave_orders_a_young_nodes_new_children_by_its_ancestors_amaf_values() {
    let mut tree = rave_tree(1_000);
    let root = tree.nodes[0];
    // A grandchild of the root (the root's player to move again), young and expanded,
    // with children not yet visited.
    let young = root
        .children()
        .flat_map(|c| tree.nodes[c].children())
        .flat_map(|c| tree.nodes[c].children())
        .find(|&g| {
            let node = tree.nodes[g];
            node.is_expanded()
                && node.visits < 1_000
                && node.children().any(|c| tree.nodes[c].visits == 0)
        })
        .expect("a young expanded grandchild");
    let root_amaf = |slot: u32| {
        root.children()
            .find(|&c| TicTacToe::amaf_slot(tree.nodes[c].mv) == slot)
            .map_or(0.5, |c| {
                let amaf = tree.amaf[c];
                if amaf.visits > 0 {
                    amaf.mean
                } else {
                    0.5
                }
            })
    };
    let expected = tree.nodes[young]
        .children()
        .filter(|&c| tree.nodes[c].visits == 0)
        .map(|c| (c, root_amaf(TicTacToe::amaf_slot(tree.nodes[c].mv))))
        .fold(None, |best: Option<(usize, f32)>, (c, mean)| match best {
            Some((_, best_mean)) if best_mean >= mean => best,
            _ => Some((c, mean)),
        })
        .map(|(c, _)| c);
    // The descent reached the root first: the root is the source for its player.
    tree.grave_sources = [0; 2];
    assert_eq!(Some(tree.select_child_rave(young, 0.1)), expected);
}

#[test]
fn rave_weighs_amaf_fully_at_first_and_less_with_visits() {
    assert_eq!(rave_beta(0.1, 0, 50), 1.0);
    assert_eq!(rave_beta(0.1, 10, 0), 0.0);
    assert!(rave_beta(0.1, 100, 1000) < rave_beta(0.1, 10, 1000));
    assert!((rave_beta(1.0, 10, 10) - 10.0 / 120.0).abs() < 1e-6);
}

#[test]
fn without_rave_no_amaf_statistics_are_kept() {
    let tree = searched(TicTacToe::new(), config(), 2_000);
    assert!(tree.amaf.is_empty());
}

#[test]
fn the_selection_rule_resolves_the_settings_as_selection_always_has() {
    use super::selection::SelectionRule;
    let with = |selection, rave, guidance| {
        SelectionRule::of(&TreeConfig {
            selection,
            rave,
            guidance,
            ..config()
        })
    };
    let (ucb1, tuned) = (Selection::Ucb1, Selection::Ucb1Tuned);
    let pb = Guidance::ProgressiveBias { weight: 2.0 };
    assert_eq!(with(ucb1, None, Guidance::Uct), SelectionRule::Ucb1);
    assert_eq!(
        with(tuned, Some(0.1), Guidance::Uct),
        SelectionRule::Ucb1Tuned
    );
    let rave = SelectionRule::Rave { constant: 0.1 };
    assert_eq!(with(ucb1, Some(0.1), Guidance::Uct), rave);
    // UCT-ULM orders the untried children and then scores by the same rule.
    assert_eq!(with(ucb1, Some(0.1), Guidance::UntriedByValue), rave);
    assert_eq!(
        with(ucb1, Some(0.1), pb),
        SelectionRule::ProgressiveBias {
            weight: 2.0,
            tuned: false
        }
    );
}
