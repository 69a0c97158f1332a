//! The reply check: before the worst-reply rule commits to a root move, the opponent's
//! replies to it that the search tried least are searched again, each on its own, so
//! that the rule sees what they lead to rather than the few visits' guess.
//!
//! Why: decoupled selection gives a reply its visits by its mean over all of our moves,
//! so a reply that is poor on average but strong against the move we then play gets a
//! few per cent of the visits, and its subtree's value can be far off (issue 66's
//! replays of the losses against the riddles.io bots: most of them right after such a
//! reply). Forcing a share of the root's visits on every reply distorts the means the
//! bandits learn from; searching them apart does not touch the tree.

use super::arena::ROOT;
use super::SimSearch;
use crate::game::Player;
use crate::search::{reward_for, Evaluator, FinalMove, Limits, SimGame, TreePolicy};
use rand::SeedableRng;

/// A reply is checked when its joint move has fewer than this share (as a divisor) of
/// the move's visits: the most tried reply's value is the search's own.
const CHECKED_BELOW_DIVISOR: u32 = 4;
/// The root moves checked: the two best by the worst-reply blend.
const CHECKED_CANDIDATES: usize = 2;

/// What the reply check found.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplyCheck<M> {
    /// The move to play.
    pub mv: M,
    /// The replies searched apart.
    pub searched: usize,
    /// Whether the check plays another move than the worst-reply rule alone would.
    pub changed: bool,
    /// The move's worst-reply blend before and after the check.
    pub blend_before: f32,
    pub blend_after: f32,
}

impl<G, E> SimSearch<G, E>
where
    G: SimGame,
    E: Evaluator<G> + TreePolicy<G> + Clone,
{
    /// `player`'s move under the worst-reply rule (`FinalMove::WorstReply`; `None` under
    /// another rule or at a terminal root) after the check: for each of the best
    /// [`CHECKED_CANDIDATES`] moves by the rule, every opponent reply tried less than a
    /// [`CHECKED_BELOW_DIVISOR`]th as often as the move gets a fresh search of `limits`
    /// from the position after the joint move, whose value for `player` replaces the
    /// matrix entry (a reply tried more than a quarter of `limits`' iterations keeps
    /// its entry: the tree knows it as well); the move with the best blend is played
    /// (ties to more visits).
    pub fn checked_move(&self, player: Player, limits: Limits) -> Option<ReplyCheck<G::Move>> {
        let FinalMove::WorstReply { weight } = self.config.final_move else {
            return None;
        };
        let (moves, stats) = self.player_actions(ROOT, player);
        let most_visits = stats.iter().map(|s| s.visits).max().filter(|&v| v > 0)?;
        let mut candidates: Vec<usize> = (0..moves.len())
            .filter(|&a| stats[a].visits * 10 >= most_visits)
            .collect();
        let blend = |a: usize| self.worst_reply_blend(ROOT, player, a, weight);
        candidates.sort_by(|&x, &y| {
            (blend(y), stats[y].visits)
                .partial_cmp(&(blend(x), stats[x].visits))
                .unwrap()
        });
        candidates.truncate(CHECKED_CANDIDATES);
        let first = *candidates.first()?;
        let check_iterations = limits.max_iterations.unwrap_or(u64::MAX);
        let blend_before = blend(first);
        let mut searched = 0;
        let mut best: Option<(f32, u32, usize)> = None;
        for &action in &candidates {
            let mean = stats[action].mean();
            let mut worst = mean;
            for (reply, visits, value) in self.replies(player, action) {
                let rarely_tried = visits * CHECKED_BELOW_DIVISOR < stats[action].visits
                    && u64::from(visits * CHECKED_BELOW_DIVISOR) < check_iterations;
                let value = if rarely_tried {
                    searched += 1;
                    self.value_after(player, action, reply, limits)
                } else {
                    value
                };
                worst = worst.min(value);
            }
            let checked = (1.0 - weight) * mean + weight * worst;
            let key = (checked, stats[action].visits, action);
            if best.map_or(true, |b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
        let (blend_after, _, action) = best?;
        Some(ReplyCheck {
            mv: moves[action],
            searched,
            changed: action != first,
            blend_before,
            blend_after,
        })
    }

    /// The opponent's replies to `player`'s root `action`: the reply's index, its joint
    /// move's visits and `player`'s mean after it.
    fn replies(&self, player: Player, action: usize) -> Vec<(usize, u32, f32)> {
        let n = self.nodes[ROOT as usize];
        let (n0, n1) = (n.n0 as usize, n.n1 as usize);
        let cells = &self.cells[n.cells as usize..][..n0 * n1];
        let replies = if player == 0 { n1 } else { n0 };
        (0..replies)
            .map(|reply| {
                let cell = match player {
                    0 => cells[action * n1 + reply],
                    _ => cells[reply * n1 + action],
                };
                (reply, cell.visits, reward_for(player, cell.mean0()))
            })
            .collect()
    }

    /// `player`'s value of the position after its root `action` and the opponent's
    /// `reply`: the result if the game is over, else a fresh search's root value.
    fn value_after(&self, player: Player, action: usize, reply: usize, limits: Limits) -> f32 {
        let mv = |p: Player, index: usize| self.moves[self.action_range(ROOT, p).start + index];
        let mut state = self.root_state.clone();
        match player {
            0 => state.play_joint(mv(0, action), mv(1, reply)),
            _ => state.play_joint(mv(0, reply), mv(1, action)),
        }
        if let Some(outcome) = self.outcome(&state) {
            return reward_for(player, self.reward0(outcome));
        }
        let seed = (action * 4 + reply) as u64;
        let mut search = SimSearch::new(
            state,
            self.config,
            self.evaluator.clone(),
            crate::search::FastRng::seed_from_u64(seed),
        );
        search.search(limits);
        let (_, stats) = search.player_actions(ROOT, player);
        let visits: u32 = stats.iter().map(|s| s.visits).sum();
        let rewards: f32 = stats.iter().map(|s| s.reward_sum).sum();
        if visits == 0 {
            return 0.5;
        }
        rewards / visits as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::search::simultaneous::{SimConfig, SimPolicy};
    use crate::search::FastRng;

    /// Two rounds: in the first, player 0 picks a row (0 or 1) and player 1 a column (0,
    /// 1 or 2); the second has one move each and ends the game: row 0 wins for player 0
    /// against columns 0 and 1 and loses against column 2, row 1 is a draw. The
    /// evaluator values every unfinished position 0.5, so only a search that plays the
    /// second round knows the result.
    #[derive(Clone, PartialEq)]
    struct Matrix {
        picked: Option<(u8, u8)>,
        over: bool,
    }

    impl SimGame for Matrix {
        type Move = u8;
        type Moves = std::ops::Range<u8>;
        fn outcome(&self) -> Option<Outcome> {
            match (self.picked, self.over) {
                (Some((1, _)), true) => Some(Outcome::Draw),
                (Some((_, 2)), true) => Some(Outcome::Win(1)),
                (Some(_), true) => Some(Outcome::Win(0)),
                _ => None,
            }
        }
        fn legal_moves(&self, player: Player) -> std::ops::Range<u8> {
            match (self.picked, player) {
                (None, 0) => 0..2,
                (None, _) => 0..3,
                _ => 0..1,
            }
        }
        fn play_joint(&mut self, a: u8, b: u8) {
            match self.picked {
                None => self.picked = Some((a, b)),
                Some(_) => self.over = true,
            }
        }
    }

    #[derive(Clone)]
    struct Half;

    impl TreePolicy<Matrix> for Half {}

    impl Evaluator<Matrix> for Half {
        fn evaluate(&mut self, _: &mut Matrix, _: &mut FastRng) -> f32 {
            0.5
        }
    }

    fn searched(final_move: FinalMove, iterations: u64) -> SimSearch<Matrix, Half> {
        let root = Matrix {
            picked: None,
            over: false,
        };
        let config = SimConfig {
            final_move,
            ..SimConfig::new(SimPolicy::DecoupledUct { c: 1.5 }, 10_000)
        };
        let mut search = SimSearch::new(root, config, Half, FastRng::seed_from_u64(3));
        search.search(Limits::iterations(iterations));
        search
    }

    const WORST_REPLY: FinalMove = FinalMove::WorstReply { weight: 0.5 };

    /// Sets the root's joint move `(row, col)` to `visits` visits of mean `mean0` and
    /// the actions' statistics to the sums of their joint moves.
    fn set_cell(
        search: &mut SimSearch<Matrix, Half>,
        row: usize,
        col: usize,
        visits: u32,
        mean0: f32,
    ) {
        let root = search.nodes[ROOT as usize];
        let cell = &mut search.cells[root.cells as usize + row * 3 + col];
        cell.visits = visits;
        cell.reward0_sum = mean0 * visits as f32;
        let cells = search.cells[root.cells as usize..][..6].to_vec();
        for player in [0, 1] {
            let range = search.action_range(ROOT, player);
            for (action, stats) in search.stats[range].iter_mut().enumerate() {
                let mine: Vec<_> = (0..6)
                    .filter(|&k| {
                        if player == 0 {
                            k / 3 == action
                        } else {
                            k % 3 == action
                        }
                    })
                    .map(|k| cells[k])
                    .collect();
                stats.visits = mine.iter().map(|c| c.visits).sum();
                stats.reward_sum = mine
                    .iter()
                    .map(|c| reward_for(player, c.mean0()) * c.visits as f32)
                    .sum();
            }
        }
    }

    #[test]
    fn a_reply_the_search_barely_tried_is_searched_and_refutes_the_move() {
        // The blind spot: row 0 looks strong (columns 0 and 1 well tried, column 2 once,
        // at the evaluator's 0.5), so the worst-reply rule plays it; the check searches
        // column 2 against it, finds the loss and plays the draw.
        let mut search = searched(WORST_REPLY, 20);
        for (row, col, visits, mean0) in [(0, 0, 20, 0.9), (0, 1, 20, 0.9), (0, 2, 1, 0.5)] {
            set_cell(&mut search, row, col, visits, mean0);
        }
        for col in 0..3 {
            set_cell(&mut search, 1, col, 5, 0.5);
        }
        let rule = search.best_move(0, &mut FastRng::seed_from_u64(1));
        assert_eq!(rule, Some(0), "the rule alone plays the refuted move");
        let check = search.checked_move(0, Limits::iterations(50)).unwrap();
        assert_eq!(check.mv, 1, "{check:?}");
        assert_eq!(check.searched, 1, "only column 2 against row 0: {check:?}");
        assert!(check.changed, "{check:?}");
        assert!(check.blend_after < check.blend_before, "{check:?}");
    }

    #[test]
    fn after_a_full_search_the_check_plays_the_rules_move() {
        let search = searched(WORST_REPLY, 20_000);
        let rule = search.best_move(0, &mut FastRng::seed_from_u64(1));
        assert_eq!(rule, Some(1));
        let check = search.checked_move(0, Limits::iterations(50)).unwrap();
        assert_eq!(Some(check.mv), rule, "{check:?}");
    }

    #[test]
    fn only_the_worst_reply_rule_is_checked() {
        let search = searched(FinalMove::MostVisits, 100);
        assert_eq!(search.checked_move(0, Limits::iterations(10)), None);
    }
}
