//! The learned play-outs' tests: the tables' layout and averages, what each learning
//! policy learns from a play-out and reads back, and that tables kept only for the tree
//! leave the play-outs as the policy plays them.

use super::tables::{
    ngram_add, ngram_count, ngram_reward, NGramEntry, StepSlots, Tables, MEAN_ONE, NGRAM_MEMORY,
    NO_REPLY,
};
use super::*;
use crate::search::{Evaluator, FastRng};
use crate::tron::playout::PlayoutPolicy;
use crate::tron::{Direction, Grid, TronState};
use rand::SeedableRng;

fn learner(learning: Learning) -> TronPlayout {
    TronPlayout::new(PlayoutPolicy::avoid_crash(), Some(learning), 0.3)
}

/// A learner whose tables have seen one play-out of `rounds` with player 0's reward.
fn taught(learning: Learning, rounds: &[[u16; 2]], reward0: f32) -> TronPlayout {
    taught_with(learner(learning), rounds, reward0)
}

/// `playout` after its tables have seen one play-out of `rounds`.
fn taught_with(mut playout: TronPlayout, rounds: &[[u16; 2]], reward0: f32) -> TronPlayout {
    let kept = playout.kept().expect("a learning play-out keeps tables");
    // Stride 19: the tests' cells 40..=70 are on rows 1 and 2.
    let grid = Grid::new(18, 16).expect("a valid board");
    playout.tables = Some(Box::new(Tables::new(grid, kept, playout.extraction)));
    playout.rounds = rounds.to_vec();
    playout.learn(kept, reward0);
    playout
}

const ROUNDS: [[u16; 2]; 3] = [[40, 60], [41, 61], [42, 62]];

/// `player`'s average reward for the 2-gram `(opponent_last, mv)`, if seen.
fn two(tables: &Tables, player: Player, opponent_last: u16, mv: u16) -> Option<f32> {
    ngram_reward(tables.two_gram(player, opponent_last, mv))
}

/// `player`'s average reward for the 3-gram `(first, opponent_last, mv)`, if seen.
fn three(tables: &Tables, player: Player, first: u16, opponent_last: u16, mv: u16) -> Option<f32> {
    let context = NGramContext {
        older: first,
        opponent: opponent_last,
    };
    tables
        .three_gram(player, &context, mv)
        .and_then(ngram_reward)
}

/// [`Tables::ngram_score`] as an average reward (`None`: nothing known).
fn score_reward(score: u32) -> Option<f32> {
    (score > 0).then(|| (score - 1) as f32 / (2.0 * MEAN_ONE))
}

#[test]
fn each_three_gram_step_has_its_own_slot_of_the_row_and_a_step_back_has_none() {
    let stride = 17;
    let two_steps = [-34, -18, -16, -2, 2, 16, 18, 34];
    let one_step = [-17, -1, 1, 17];
    for (extraction, steps) in [
        (Extraction::Simultaneous, &two_steps[..]),
        (Extraction::Sequential, &one_step[..]),
    ] {
        let slots = StepSlots::new(extraction, stride);
        let first = 200;
        let mut seen: Vec<usize> = steps
            .iter()
            .map(|&step| {
                let slot = slots.of(first, (first as isize + step) as u16);
                slot.expect("every step of the extraction has a slot")
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), steps.len(), "{extraction:?}");
        assert!(seen.iter().all(|&slot| slot < THREE_GRAM_ROW));
        assert_eq!(slots.of(first, first), None, "{extraction:?}");
        assert_eq!(slots.of(first, first + 3 * stride as u16), None);
    }
}

#[test]
fn cells_are_numbered_row_by_row_and_every_bit_off_the_board_is_one_more() {
    let grid = Grid::new(13, 13).unwrap();
    let kept = Kept::of(Some(Learning::NGram), None).unwrap();
    let tables = Tables::new(grid, kept, Extraction::Simultaneous);
    assert_eq!(tables.cells, 13 * 13 + 1);
    assert_eq!(tables.index(grid.index(0, 0) as u16), 0);
    assert_eq!(tables.index(grid.index(12, 0) as u16), 12);
    assert_eq!(tables.index(grid.index(0, 1) as u16), 13);
    assert_eq!(tables.index(grid.index(12, 12) as u16), 168);
    for bit in 0..grid.words() * 64 {
        let on_board = grid.coords(bit).is_some();
        assert_eq!(tables.index(bit as u16) == 169, !on_board, "bit {bit}");
    }
    assert_eq!(tables.three_grams[0].len(), 170 * 170 * THREE_GRAM_ROW);
}

#[test]
fn an_entry_keeps_the_average_reward_then_a_moving_average() {
    let mut entry: NGramEntry = 0;
    assert_eq!(ngram_reward(entry), None);
    for reward in [1.0, 0.0, 0.5, 1.0] {
        ngram_add(&mut entry, reward);
    }
    assert!((ngram_reward(entry).unwrap() - 0.625).abs() < 1e-4);
    for _ in 0..NGRAM_MEMORY {
        ngram_add(&mut entry, 1.0);
    }
    assert_eq!(ngram_count(entry), NGRAM_MEMORY as u32);
    let settled = ngram_reward(entry).unwrap();
    assert!(settled > 0.6, "{settled}");
    // A moving average now: the newest play-outs move it by 1/NGRAM_MEMORY each.
    for _ in 0..NGRAM_MEMORY {
        ngram_add(&mut entry, 0.0);
    }
    assert_eq!(ngram_count(entry), NGRAM_MEMORY as u32);
    let moved = ngram_reward(entry).unwrap();
    assert!((moved - settled * (-1.0f32).exp()).abs() < 0.02, "{moved}");
}

#[test]
fn ngrams_learn_each_riders_reward_with_the_previous_rounds_as_context() {
    let playout = taught(Learning::NGram, &ROUNDS, 1.0);
    let tables = playout.tables.as_deref().unwrap();
    // Round 1: rider 0 moved to 11 after the opponent's 20; rider 1 to 21 after 10.
    assert_eq!(two(tables, 0, 60, 41), Some(1.0));
    assert_eq!(two(tables, 1, 40, 61), Some(0.0));
    // Round 2's 3-gram: rider 0's cell two rounds back, the opponent's last, the move.
    assert_eq!(three(tables, 0, 40, 61, 42), Some(1.0));
    assert_eq!(three(tables, 1, 60, 41, 62), Some(0.0));
    // The opponent's move of the same round is no context.
    assert_eq!(two(tables, 0, 61, 41), None);
    assert_eq!(two(tables, 1, 41, 61), None);
    let rounds = &ROUNDS[..];
    let score = |player, mv| {
        let context = Extraction::Simultaneous.context(&rounds[..2], rounds[2][0], player);
        score_reward(tables.ngram_score(player, &context, mv))
    };
    assert_eq!(score(0, 42), Some(1.0));
    assert_eq!(score(1, 62), Some(0.0));
    assert_eq!(score(0, 43), None);
}

#[test]
fn sequential_ngrams_read_rider_zero_before_rider_one_in_each_round() {
    let sequential = learner(Learning::NGram).with_extraction(Extraction::Sequential);
    let playout = taught_with(sequential, &ROUNDS, 1.0);
    let tables = playout.tables.as_deref().unwrap();
    // The list 40 60 41 61 42 62: rider 1's move follows rider 0's of the same round.
    assert_eq!(two(tables, 1, 41, 61), Some(0.0));
    assert_eq!(three(tables, 1, 60, 41, 61), Some(0.0));
    // Rider 0's follows rider 1's of the round before, its own move before that.
    assert_eq!(two(tables, 0, 60, 41), Some(1.0));
    assert_eq!(three(tables, 0, 41, 61, 42), Some(1.0));
    // Not the simultaneous sequences.
    assert_eq!(two(tables, 1, 40, 61), None);
    // A play-out in progress: rider 1 reads rider 0's move of the open round.
    let context = Extraction::Sequential.context(&[[40, 60]], 41, 1);
    assert_eq!((context.older, context.opponent), (60, 41));
    assert_eq!(score_reward(tables.ngram_score(1, &context, 61)), Some(0.0));
}

#[test]
fn ngram_averages_rewards_over_play_outs() {
    let mut playout = taught(Learning::NGram, &ROUNDS, 1.0);
    playout.rounds = ROUNDS.to_vec();
    playout.learn(playout.kept().unwrap(), 0.5);
    let tables = playout.tables.as_deref().unwrap();
    let reward = two(tables, 0, 60, 41).expect("seen twice");
    assert!((reward - 0.75).abs() < 1e-4, "{reward}");
    let three_reward = three(tables, 0, 40, 61, 42).expect("seen twice");
    assert!((three_reward - 0.75).abs() < 1e-4, "{three_reward}");
}

#[test]
fn last_good_replies_are_kept_by_lgr_and_forgotten_by_lgrf_after_a_loss() {
    let context = [41, 61];
    for learning in [Learning::Lgr, Learning::Lgrf] {
        let mut playout = taught(learning, &ROUNDS, 1.0);
        let tables = playout.tables.as_deref().unwrap();
        assert_eq!(tables.reply(0, context), Some(42), "{learning:?}");
        // The loser learns no reply.
        assert_eq!(tables.reply(1, context), None, "{learning:?}");
        // The same moves now lose for rider 0.
        playout.rounds = ROUNDS.to_vec();
        playout.learn(playout.kept().unwrap(), 0.0);
        let tables = playout.tables.as_deref().unwrap();
        let expected = (learning == Learning::Lgr).then_some(42);
        assert_eq!(tables.reply(0, context), expected, "{learning:?}");
        assert_eq!(tables.reply(1, context), Some(62), "{learning:?}");
    }
}

#[test]
fn lgr_two_answers_before_lgr_one() {
    let mut playout = taught(Learning::Lgr, &ROUNDS, 1.0);
    // Another play-out: after (43, 61) rider 0 went to 44, so LGR-1 for 61 says 44.
    playout.rounds = vec![[43, 61], [44, 70]];
    playout.learn(playout.kept().unwrap(), 1.0);
    let tables = playout.tables.as_deref().unwrap();
    assert_eq!(tables.reply(0, [41, 61]), Some(42));
    assert_eq!(tables.reply(0, [50, 61]), Some(44));
}

#[test]
fn learned_play_outs_end_with_a_reward_and_fill_their_tables() {
    let start = TronState::light_riders_start();
    for learning in [
        Learning::NGram,
        Learning::Lgr,
        Learning::Lgrf,
        Learning::NGramLgr,
    ] {
        let mut playout = learner(learning);
        let mut rng = FastRng::seed_from_u64(9);
        for _ in 0..500 {
            let reward = playout.evaluate(&mut start.clone(), &mut rng);
            assert!((0.0..=1.0).contains(&reward), "{learning:?} {reward}");
        }
        let tables = playout.tables.as_deref().unwrap();
        let seen = |table: &[NGramEntry]| table.iter().any(|&entry| entry != 0);
        assert_eq!(
            seen(&tables.two_grams[0]),
            learning.uses_ngrams(),
            "{learning:?}"
        );
        assert_eq!(
            seen(&tables.three_grams[1]),
            learning.uses_ngrams(),
            "{learning:?}"
        );
        let replies = tables.lgr2[0].iter().filter(|&&r| r != NO_REPLY).count();
        assert_eq!(replies > 0, learning.uses_replies(), "{learning:?}");
    }
}

#[test]
fn a_play_out_learns_the_sequences_its_extraction_reads() {
    let start = TronState::light_riders_start();
    for extraction in [Extraction::Simultaneous, Extraction::Sequential] {
        let mut playout = learner(Learning::NGram).with_extraction(extraction);
        let mut rng = FastRng::seed_from_u64(5);
        playout.evaluate(&mut start.clone(), &mut rng);
        let rounds = playout.rounds.clone();
        assert!(rounds.len() > 2 && !rounds.iter().flatten().any(|&m| m == UNKNOWN));
        let tables = playout.tables.as_deref().unwrap();
        // Rider 1's first move after rider 0's start, or after its first move.
        let same_round = two(tables, 1, rounds[1][0], rounds[1][1]);
        let round_before = two(tables, 1, rounds[0][0], rounds[1][1]);
        let expected = extraction == Extraction::Sequential;
        assert_eq!(same_round.is_some(), expected, "{extraction:?}");
        assert_eq!(round_before.is_some(), !expected, "{extraction:?}");
    }
}

#[test]
fn the_tree_reads_a_moves_two_gram_or_whether_it_is_the_last_good_reply() {
    let start = TronState::light_riders_start();
    let heads = [0, 1].map(|p| start.head_index(p) as u16);
    // Rider 0 went right, rider 1 left, and rider 0 won.
    let rounds = [heads, [heads[0] + 1, heads[1] - 1]];
    for (knowledge, right, up) in [
        (MoveKnowledge::NGram, Some(1.0), None),
        (MoveKnowledge::LastGoodReply, Some(1.0), Some(0.0)),
    ] {
        let mut playout =
            TronPlayout::from(PlayoutPolicy::avoid_crash()).with_knowledge(Some(knowledge));
        let kept = playout.kept().expect("the tree's knowledge keeps tables");
        let tables = Tables::new(start.grid(), kept, Extraction::Simultaneous);
        playout.tables = Some(Box::new(tables));
        playout.rounds = rounds.to_vec();
        playout.learn(kept, 1.0);
        let value = |player, direction| playout.move_value(&start, player, direction);
        assert_eq!(value(0, Direction::Right), right, "{knowledge:?}");
        assert_eq!(value(0, Direction::Up), up, "{knowledge:?}");
        let loser = (knowledge == MoveKnowledge::NGram).then_some(0.0);
        assert_eq!(value(1, Direction::Left), loser, "{knowledge:?}");
    }
}

/// Asserts that `a` and `b` play the same 100 play-outs from the start (same rewards,
/// same final positions) from equally seeded generators.
fn assert_same_play_outs(a: &mut impl Evaluator<TronState>, b: &mut impl Evaluator<TronState>) {
    let start = TronState::light_riders_start();
    let (mut rng_a, mut rng_b) = (FastRng::seed_from_u64(4), FastRng::seed_from_u64(4));
    for _ in 0..100 {
        let (mut x, mut y) = (start.clone(), start.clone());
        assert_eq!(
            a.evaluate(&mut x, &mut rng_a),
            b.evaluate(&mut y, &mut rng_b)
        );
        assert_eq!(x, y);
    }
}

#[test]
fn learning_for_the_tree_leaves_the_play_outs_the_policys() {
    let mut plain = TronPlayout::from(PlayoutPolicy::avoid_crash());
    let mut learning = TronPlayout::from(PlayoutPolicy::avoid_crash())
        .with_knowledge(Some(MoveKnowledge::LastGoodReply));
    assert_same_play_outs(&mut plain, &mut learning);
    let tables = learning
        .tables
        .as_deref()
        .expect("tables made by the play-outs");
    assert!(tables.lgr1[0].iter().any(|&r| r != NO_REPLY));
    assert!(tables.two_grams[0].is_empty() && tables.three_grams[0].is_empty());
}

#[test]
fn without_learning_the_play_out_is_the_policys() {
    let mut plain = TronPlayout::from(PlayoutPolicy::avoid_crash());
    assert_same_play_outs(&mut plain, &mut PlayoutPolicy::avoid_crash());
}
