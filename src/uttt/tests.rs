//! Checks that need the play-out's internals: its move choice must cover exactly the
//! legal moves, and its fast move application must match `Board::play`.

use super::board::{Board, EndRule};
use super::playout::{play_to_end, random_playout, PlayoutState};
use super::Move;
use crate::game::Outcome;
use crate::search::{random_below, FastRng, Game};
use rand::SeedableRng;

/// Every move the play-out can pick, in the order of its index.
fn playout_choices(board: &Board) -> Vec<Move> {
    let (state, target, target_free) = PlayoutState::new(board);
    (0..state.choice_count(target_free))
        .map(|index| {
            let (board_index, cell) = state.nth_choice(target, target_free, index);
            Move(board_index * 9 + cell)
        })
        .collect()
}

/// Plays `games` random games (moves drawn by a generator seeded with `seed`) and calls
/// `visit` with the game's index, each unfinished position and its legal moves.
fn each_random_position(games: usize, seed: u64, mut visit: impl FnMut(usize, &Board, &[Move])) {
    let mut rng = FastRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for game in 0..games {
        let mut board = Board::new();
        while board.outcome().is_none() {
            moves.clear();
            board.legal_moves(&mut moves);
            visit(game, &board, &moves);
            board.play(moves[random_below(&mut rng, moves.len() as u32) as usize]);
        }
    }
}

#[test]
fn playout_choices_are_exactly_the_legal_moves_in_random_games() {
    let mut positions = 0;
    each_random_position(300, 42, |_, board, moves| {
        assert_eq!(playout_choices(board), moves, "\n{}", board.render());
        positions += 1;
    });
    assert!(positions > 300 * 30);
}

#[test]
fn random_choice_picks_every_legal_move_equally_often() {
    // `random_choice` maps 32 random bits to a move; evenly spaced bits must hit every
    // legal move equally often (to within one), the targeted and the "any board" case.
    let samples = 20_000u64;
    each_random_position(40, 5, |game, board, moves| {
        if game % 4 != 0 && board.target().is_some() {
            return;
        }
        let (state, target, target_free) = PlayoutState::new(board);
        let mut hits = std::collections::HashMap::new();
        for sample in 0..samples {
            let bits = (sample << 32) / samples;
            let (b, c) = state.random_choice(target, target_free, bits as u32);
            *hits.entry(Move(b * 9 + c)).or_insert(0u64) += 1;
        }
        assert_eq!(hits.len(), moves.len(), "\n{}", board.render());
        let fair = samples / moves.len() as u64;
        for mv in moves {
            let count = hits[mv];
            assert!(
                count + 1 >= fair && count <= fair + 2,
                "{mv:?} {count} of {samples}"
            );
        }
    });
}

#[test]
fn playout_steps_match_board_play() {
    let mut rng = FastRng::seed_from_u64(7);
    for _ in 0..300 {
        let mut board = Board::new();
        let (mut state, mut target, mut target_free) = PlayoutState::new(&board);
        loop {
            let index = random_below(&mut rng, state.choice_count(target_free));
            let (board_index, cell) = state.nth_choice(target, target_free, index);
            let ended = state.apply(board_index, cell);
            board.play(Move(board_index * 9 + cell));
            let mut stored = Board::new();
            state.store(&mut stored, cell);
            assert_eq!(stored, board, "\n{}", board.render());
            assert_eq!(ended.then(|| state.final_outcome()), board.outcome());
            if ended {
                break;
            }
            target = cell;
            target_free = state.free_cells(cell);
            // The running state offers exactly the board's legal moves (its target may
            // name the last open board where the board's canonical target says "any").
            let running: Vec<Move> = (0..state.choice_count(target_free))
                .map(|index| {
                    let (b, c) = state.nth_choice(target, target_free, index);
                    Move(b * 9 + c)
                })
                .collect();
            let mut moves = Vec::new();
            board.legal_moves(&mut moves);
            assert_eq!(running, moves);
        }
    }
}

#[test]
fn playout_plays_legal_games_to_the_end_and_reports_their_outcome() {
    let mut rng = FastRng::seed_from_u64(3);
    for (plies, rule) in [0, 5, 20, 40]
        .into_iter()
        .flat_map(|plies| [(plies, EndRule::Draw), (plies, EndRule::MoreBoards)])
    {
        for seed in 0..200 {
            let start = crate::search::seeded_position(Board::with_end_rule(rule), plies, seed);
            if start.outcome().is_some() {
                continue;
            }
            let mut replay = rng.clone();
            let end = play_to_end(&start, &mut rng);
            let mut finished = Board::with_end_rule(rule);
            end.store(&mut finished, 0);
            assert_eq!(finished.outcome(), Some(end.final_outcome()));
            assert_eq!(finished.legal_move_count(), 0);
            let lined = |p: u8| super::tables::is_line(finished.won_boards(p));
            if let Outcome::Win(winner) = end.final_outcome() {
                if lined(winner) {
                    assert_eq!(finished.turn(), 1 - winner, "the winner made the last move");
                } else {
                    assert_eq!(rule, EndRule::MoreBoards, "a win without a line");
                    let count = |p| finished.won_boards(p).count_ones();
                    assert!(count(winner) > count(1 - winner));
                }
            }
            assert_eq!(
                random_playout(&start, &mut replay),
                end.final_outcome().reward_for(0)
            );
            // The game went on from `start`: every mark of `start` is still there, and
            // the two players' mark counts never differ by more than one.
            let marks = |b: &Board, p: usize| b.marks[p].iter().map(|m| m.count_ones()).sum();
            for player in 0..2 {
                for index in 0..9 {
                    let kept = start.marks[player][index];
                    assert_eq!(finished.marks[player][index] & kept, kept);
                }
            }
            let (x, o): (u32, u32) = (marks(&finished, 0), marks(&finished, 1));
            assert!(x == o || x == o + 1, "{x} {o}");
        }
    }
}

#[test]
fn playout_results_match_random_games_played_on_the_board() {
    // The same distribution as picking uniformly from `Board::legal_moves`: a biased
    // move choice shows up in the result frequencies. 4000 games each: one standard
    // deviation of a difference is about 1.1 percentage points.
    let games = 4000;
    let mut playout_rng = FastRng::seed_from_u64(11);
    let mut board_rng = FastRng::seed_from_u64(12);
    let mut counts = [[0u32; 3]; 2];
    let mut moves = Vec::new();
    let slot = |reward: f32| (reward * 2.0) as usize;
    for _ in 0..games {
        counts[0][slot(random_playout(&Board::new(), &mut playout_rng))] += 1;
        let mut board = Board::new();
        while board.outcome().is_none() {
            moves.clear();
            board.legal_moves(&mut moves);
            board.play(moves[random_below(&mut board_rng, moves.len() as u32) as usize]);
        }
        counts[1][slot(board.outcome().unwrap().reward_for(0))] += 1;
    }
    for result in 0..3 {
        let difference = counts[0][result].abs_diff(counts[1][result]);
        assert!(difference < games / 25, "{counts:?}");
    }
    // Random play: both sides win often and draws happen (roughly 35/45/20 percent).
    assert!(counts[0].iter().all(|&n| n > games / 8), "{counts:?}");
}

#[test]
fn win_first_finds_a_winning_move_exactly_when_there_is_one() {
    let mut found = 0;
    each_random_position(300, 7, |_, board, moves| {
        let mover = board.turn();
        let winning: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut after = *board;
                after.play(mv);
                after.outcome() == Some(Outcome::Win(mover))
            })
            .collect();
        let (state, target, target_free) = PlayoutState::new(board);
        let chosen = state
            .winning_move(target, target_free)
            .map(|(b, c)| Move::from_board_cell(b, c));
        match chosen {
            Some(mv) => {
                assert!(winning.contains(&mv), "\n{}", board.render());
                found += 1;
            }
            None => assert!(winning.is_empty(), "missed {winning:?}\n{}", board.render()),
        }
    });
    assert!(found > 100, "only {found} positions with a winning move");
}

#[test]
fn mover_wins_at_once_holds_exactly_when_a_legal_move_wins_the_game() {
    let mut winning_positions = 0;
    each_random_position(300, 11, |_, board, moves| {
        let mover = board.turn();
        let a_move_wins = moves.iter().any(|&mv| {
            let mut after = *board;
            after.play(mv);
            after.outcome() == Some(Outcome::Win(mover))
        });
        assert_eq!(
            board.mover_wins_at_once(),
            a_move_wins,
            "\n{}",
            board.render()
        );
        winning_positions += a_move_wins as u32;
    });
    assert!(
        winning_positions > 100,
        "only {winning_positions} positions with a win"
    );
}

/// X (player 0, to move) holds boards 0 and 1 and cells 0 and 1 of board 2, where it is
/// sent: cell 2 wins the game. O holds board 3 and cell 6 of board 2. (The bot's UTTT
/// search tests start from it too.)
pub(crate) fn x_wins_in_one() -> Board {
    let mut board = Board::new();
    board.marks[0][0] = 0b111;
    board.marks[0][1] = 0b111;
    board.marks[0][2] = 0b011;
    board.won[0] = 0b011;
    board.marks[1][3] = 0b111;
    board.marks[1][2] = 0b001_000_000;
    board.marks[1][7] = 0b011;
    board.won[1] = 0b1000;
    board.target = 2;
    board
}

#[test]
fn a_win_first_playout_takes_a_win_in_one_where_random_ones_may_not() {
    use super::Playout;
    use crate::search::Evaluator;
    let board = x_wins_in_one();
    let mut rng = FastRng::seed_from_u64(3);
    let mut win_first = Playout::new(true, None, false);
    for _ in 0..100 {
        assert_eq!(win_first.evaluate(&mut board.clone(), &mut rng), 1.0);
    }
    let random_rewards: Vec<f32> = (0..200)
        .map(|_| Playout::default().evaluate(&mut board.clone(), &mut rng))
        .collect();
    assert!(random_rewards.iter().any(|&r| r < 1.0));
}

/// What the search's RAVE tests once checked on UTTT's own play-out, which they no longer
/// use: a recording play-out reports each player's moves, and only theirs, as AMAF slots.
#[test]
fn a_recording_playout_reports_each_players_moves_as_their_amaf_slots() {
    use super::Playout;
    use crate::search::Evaluator;
    let mut rng = FastRng::seed_from_u64(5);
    let mut recording = Playout::new(false, None, true);
    for plies in [0, 10, 30] {
        let start = crate::search::seeded_position(Board::new(), plies, 11);
        assert!(start.outcome().is_none());
        let mut taken = [0u128; 2];
        for (p, cells) in taken.iter_mut().enumerate() {
            for (board, marks) in start.marks[p].iter().enumerate() {
                *cells |= (*marks as u128) << (board * 9);
            }
        }
        for _ in 0..50 {
            recording.evaluate(&mut start.clone(), &mut rng);
            let played = recording.played_slots();
            assert_eq!(played[0] & played[1], 0, "a cell played twice");
            assert_eq!((played[0] | played[1]) & (taken[0] | taken[1]), 0);
            assert!(played[0] | played[1] < 1 << 81);
            // The player to move made the play-out's first move, the other one as many
            // moves or one fewer.
            let [mine, theirs] = [start.turn(), 1 - start.turn()].map(|p| played[p as usize]);
            let (mine, theirs) = (mine.count_ones(), theirs.count_ones());
            assert!(
                mine == theirs || mine == theirs + 1,
                "{mine} and {theirs} moves"
            );
            assert!(mine > 0);
        }
    }
}

#[test]
fn early_termination_scores_by_the_evaluation_and_its_bound() {
    use super::evaluate::EvalKind;
    use super::{EarlyTermination, Playout};
    use crate::search::Evaluator;
    // X holds two boards, O one: the simple evaluation says +1 for X.
    let board = x_wins_in_one();
    let weights = EvalKind::Simple.seed_weights();
    let mut rng = FastRng::seed_from_u64(3);
    let mut cut = |bound| {
        let cut_off = EarlyTermination {
            moves: 0,
            bound,
            weights,
        };
        Playout::new(false, Some(cut_off), false).evaluate(&mut board.clone(), &mut rng)
    };
    assert_eq!(cut(0.5), 1.0);
    assert_eq!(cut(1.5), 0.5);
}

#[test]
fn a_lineless_full_board_is_drawn_on_theaigames_and_won_by_more_boards_on_codingame() {
    // X won boards 1, 3, 6 and 8, O won 0, 4 and 5, boards 2 and 7 are full: no line.
    for (rule, expected) in [
        (EndRule::Draw, Outcome::Draw),
        (EndRule::MoreBoards, Outcome::Win(0)),
    ] {
        let mut board = Board::with_end_rule(rule);
        board.won = [0b101_001_010, 0b000_110_001];
        board.drawn = 0b010_000_100;
        assert_eq!(board.outcome(), Some(expected));
        assert_eq!(board.legal_move_count(), 0);
        // Board 3 full instead of X's: three each, a draw under both rules.
        board.won[0] &= !(1 << 3);
        board.drawn |= 1 << 3;
        assert_eq!(board.outcome(), Some(Outcome::Draw));
    }
}

#[test]
fn a_childs_noted_network_value_is_its_value_from_scratch() {
    use super::nn;
    use super::NetworkValue;
    use crate::search::{Evaluator, TreePolicy};
    let network = NetworkValue::new(1.0).with_priors(0.0);
    // The network alone runs no play-out: the generator is never drawn from.
    let mut rng = FastRng::seed_from_u64(0);
    let mut noted = 0;
    each_random_position(30, 21, |_, board, moves| {
        for &mv in moves {
            let mut child = *board;
            child.play(mv);
            let (prior, mut note) = network.prior_noted(board, &child);
            assert!(prior.is_some());
            if child.outcome().is_some() {
                assert_eq!(note, 0, "a finished child's value is its result");
                continue;
            }
            assert_ne!(note, 0, "the prior notes the network's value");
            noted += 1;
            let exact = crate::search::reward_for(child.turn(), nn::value_of(&child));
            let mut evaluator = network.clone();
            let from_note = evaluator.evaluate_noted(&mut child.clone(), &mut rng, &mut note);
            assert!((from_note - exact).abs() <= 1e-4, "{from_note} {exact}");
            // A leaf without a note is valued from scratch and noted the same way.
            let mut fresh = 0;
            let afresh = evaluator.evaluate_noted(&mut child.clone(), &mut rng, &mut fresh);
            assert_eq!((afresh, fresh), (from_note, note));
        }
    });
    assert!(noted > 10_000, "{noted}");
}
