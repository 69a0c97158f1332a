//! [`Sequentialized`]: a simultaneous-move game played as alternating moves.

use mctsbot::game::{Outcome, Player};
use mctsbot::search::{
    Evaluator, FastRng, Game, SequentialEvaluator, Sequentialized, SimGame, TreePolicy,
};
use rand::SeedableRng;

/// Two steps of picking numbers; player 0 picks from 0..2, player 1 from 0..3, so a move
/// given to the wrong player shows. Whoever has the larger total wins. Each joint move is
/// recorded in order, so the tests can see who moved what.
#[derive(Clone, PartialEq, Debug, Default)]
struct Totals {
    history: Vec<(u8, u8)>,
}

const STEPS: usize = 2;

impl SimGame for Totals {
    type Move = u8;
    type Moves = std::ops::Range<u8>;

    fn outcome(&self) -> Option<Outcome> {
        if self.history.len() < STEPS {
            return None;
        }
        let total0: u8 = self.history.iter().map(|&(m, _)| m).sum();
        let total1: u8 = self.history.iter().map(|&(_, m)| m).sum();
        Some(match total0.cmp(&total1) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn legal_moves(&self, player: Player) -> std::ops::Range<u8> {
        0..if player == 0 { 2 } else { 3 }
    }

    fn play_joint(&mut self, mv0: u8, mv1: u8) {
        self.history.push((mv0, mv1));
    }
}

/// Not a real play-out: reports player 1's last move as `move / 2`, so the tests can see
/// the reply that [`SequentialEvaluator`] picked.
struct LastReply;

impl TreePolicy<Totals> for LastReply {}

impl Evaluator<Totals> for LastReply {
    fn evaluate(&mut self, game: &mut Totals, _rng: &mut FastRng) -> f32 {
        game.history
            .last()
            .map_or(0.0, |&(_, mv1)| mv1 as f32 / 2.0)
    }
}

fn legal(game: &Sequentialized<Totals>) -> Vec<u8> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

#[test]
fn the_first_player_commits_then_the_other_answers() {
    for first in [0, 1] {
        let second = 1 - first;
        let mut game = Sequentialized::new(Totals::default(), first);
        assert_eq!(game.first(), first);
        assert_eq!(game.to_move(), first);
        assert_eq!(legal(&game).len(), if first == 0 { 2 } else { 3 });

        game.play(1);
        assert_eq!(game.pending(), Some(1));
        assert_eq!(game.to_move(), second);
        assert_eq!(legal(&game).len(), if second == 0 { 2 } else { 3 });
        assert!(
            game.game().history.is_empty(),
            "nothing is played before both moved"
        );

        game.play(0);
        assert_eq!(game.pending(), None);
        assert_eq!(game.to_move(), first);
        // The joint move is in player order, whoever moved first.
        let expected = if first == 0 { (1, 0) } else { (0, 1) };
        assert_eq!(game.game().history, vec![expected]);
    }
}

#[test]
fn the_outcome_waits_for_the_end_of_a_step() {
    let mut game = Sequentialized::new(Totals::default(), 1);
    game.play(2); // player 1
    game.play(1); // player 0
    game.play(2); // player 1: the game is decided (4 against 1) but only half played
    assert_eq!(game.outcome(), None);
    game.play(0); // player 0
    assert_eq!(game.outcome(), Some(Outcome::Win(1)));
    assert_eq!(game.clone().into_game().history, vec![(1, 2), (0, 2)]);
}

#[test]
fn a_playout_with_a_pending_move_adds_a_uniformly_random_reply() {
    let mut rng = FastRng::seed_from_u64(9);
    let mut game = Sequentialized::new(Totals::default(), 0);
    game.play(1);
    let mut reply_counts = [0u32; 3];
    let runs = 30_000;
    for _ in 0..runs {
        let mut copy = game.clone();
        let reward = SequentialEvaluator(LastReply).evaluate(&mut copy, &mut rng);
        assert_eq!(copy.pending(), None);
        let &[(mv0, mv1)] = copy.game().history.as_slice() else {
            panic!("exactly one joint move: {:?}", copy.game().history)
        };
        assert_eq!(mv0, 1, "the committed move is played");
        assert_eq!(
            reward,
            mv1 as f32 / 2.0,
            "the game's play-out ran after the reply"
        );
        reply_counts[mv1 as usize] += 1;
    }
    for count in reply_counts {
        let share = count as f32 / runs as f32;
        assert!((share - 1.0 / 3.0).abs() < 0.015, "{reply_counts:?}");
    }
}

#[test]
fn a_playout_between_steps_is_the_games_own() {
    let mut rng = FastRng::seed_from_u64(9);
    let mut game = Sequentialized::new(Totals::default(), 1);
    game.play(2);
    game.play(1);
    let mut copy = game.clone();
    // The last joint move was (1, 2): the game's play-out reports player 1's 2 as 1.0.
    assert_eq!(
        SequentialEvaluator(LastReply).evaluate(&mut copy, &mut rng),
        1.0
    );
    assert_eq!(copy, game, "no move was added");
}
