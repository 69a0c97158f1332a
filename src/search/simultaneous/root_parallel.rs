//! Root parallelism for the decoupled search, as [`crate::search::parallel`] does for the
//! sequential tree: one [`SimSearch`] per thread from the same root with its own seed,
//! nothing shared while searching, the root statistics added up when a move is chosen
//! (visits summed, means and final-move probabilities weighted by visits). With one
//! thread every call goes to the single search unchanged.

use super::{RootAction, SimConfig, SimSearch};
use crate::game::Player;
use crate::search::parallel::{RootParallelSearch, RootSearch};
use crate::search::{Evaluator, FastRng, FinalMove, Limits, SearchStats, SimGame, TreePolicy};
use rand::SeedableRng;

/// Decoupled searches of the same root on their own threads.
pub type SimRootParallel<G, E> = RootParallelSearch<SimSearch<G, E>>;

impl<G, E> RootSearch for SimSearch<G, E>
where
    G: SimGame + Send,
    G::Move: Send,
    E: Evaluator<G> + TreePolicy<G> + Send,
{
    type Position = G;

    fn search(&mut self, limits: Limits) -> SearchStats {
        SimSearch::search(self, limits)
    }

    fn reroot(&mut self, new_root: &G) -> bool {
        SimSearch::reroot(self, new_root)
    }
}

impl<G, E> SimRootParallel<G, E>
where
    G: SimGame + Send,
    G::Move: Send,
    E: Evaluator<G> + TreePolicy<G> + Clone + Send,
{
    /// `threads` searches (at least one); search `k` is seeded `seed + k`.
    pub fn new(root: G, config: SimConfig, evaluator: E, seed: u64, threads: usize) -> Self {
        Self::seeded(seed, threads, |seed| {
            let rng = FastRng::seed_from_u64(seed);
            SimSearch::new(root.clone(), config, evaluator.clone(), rng)
        })
    }

    pub fn config(&self) -> &SimConfig {
        self.searches()[0].config()
    }

    pub fn evaluator(&self) -> &E {
        self.searches()[0].evaluator()
    }

    /// Moves every search's root (see [`SimSearch::reroot`]); whether the first kept its
    /// subtree (they all saw the same rounds).
    pub fn reroot(&mut self, new_root: &G) -> bool {
        self.reroot_all(new_root)
    }

    /// `player`'s root moves with the searches' statistics added up.
    pub fn root_actions(&self, player: Player) -> Vec<RootAction<G::Move>> {
        if let [single] = self.searches() {
            return single.root_actions(player);
        }
        let mut merged: Vec<(RootAction<G::Move>, f64, f64)> = Vec::new();
        for search in self.searches() {
            for action in search.root_actions(player) {
                let weight = action.visits as f64;
                let (mean, probability) = (
                    action.mean as f64 * weight,
                    action.final_probability as f64 * weight,
                );
                match merged.iter_mut().find(|(seen, _, _)| seen.mv == action.mv) {
                    Some((seen, mean_sum, probability_sum)) => {
                        seen.visits += action.visits;
                        *mean_sum += mean;
                        *probability_sum += probability;
                    }
                    None => merged.push((action, mean, probability)),
                }
            }
        }
        let total: f64 = merged.iter().map(|(a, _, _)| a.visits as f64).sum();
        merged
            .into_iter()
            .map(|(mut action, mean_sum, probability_sum)| {
                let visits = (action.visits as f64).max(1.0);
                action.mean = (mean_sum / visits) as f32;
                action.final_probability = (probability_sum / total.max(1.0)) as f32;
                action
            })
            .collect()
    }

    /// The move for `player` under the final-move rule: with one search its own choice;
    /// with several, sampled from the merged probabilities for a mixed rule, else the most
    /// visited move over all searches (ties to the better mean).
    pub fn best_move(&self, player: Player, rng: &mut FastRng) -> Option<G::Move> {
        if let [single] = self.searches() {
            return single.best_move(player, rng);
        }
        let actions = self.root_actions(player);
        if self.config().final_move == FinalMove::Mix {
            let weights: Vec<f32> = actions.iter().map(|a| a.final_probability).collect();
            return actions
                .get(super::policy::sample_index(&weights, rng))
                .map(|a| a.mv);
        }
        actions
            .iter()
            .max_by(|a, b| (a.visits, a.mean).partial_cmp(&(b.visits, b.mean)).unwrap())
            .map(|a| a.mv)
    }

    /// Whether `player`'s most visited root move (over all searches) also has the best
    /// mean (see [`SimSearch::max_robust_found`]).
    pub fn max_robust_found(&self, player: Player) -> bool {
        if let [single] = self.searches() {
            return single.max_robust_found(player);
        }
        let actions = self.root_actions(player);
        let Some(robust) = actions
            .iter()
            .max_by(|a, b| (a.visits, a.mean).partial_cmp(&(b.visits, b.mean)).unwrap())
        else {
            return true;
        };
        actions
            .iter()
            .filter(|a| a.visits > 0)
            .all(|a| a.mean <= robust.mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::search::simultaneous::SimPolicy;

    /// A simultaneous game of the search floor: `ROUNDS` rounds in which each player
    /// picks 0, 1 or 2; player 0 scores when the picks differ by one, player 1 when
    /// they are equal, and the higher score wins.
    #[derive(Clone, Debug, PartialEq)]
    struct Picks {
        round: u8,
        score: [i8; 2],
    }

    const ROUNDS: u8 = 4;

    impl SimGame for Picks {
        type Move = u8;
        type Moves = std::ops::Range<u8>;
        fn outcome(&self) -> Option<Outcome> {
            (self.round == ROUNDS).then(|| match self.score[0].cmp(&self.score[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(0),
                std::cmp::Ordering::Less => Outcome::Win(1),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        }
        fn legal_moves(&self, _: Player) -> std::ops::Range<u8> {
            0..3
        }
        fn play_joint(&mut self, a: u8, b: u8) {
            match a.abs_diff(b) {
                1 => self.score[0] += 1,
                0 => self.score[1] += 1,
                _ => {}
            }
            self.round += 1;
        }
    }

    /// Plays each round's picks uniformly at random to the end.
    #[derive(Clone)]
    struct RandomPicks;

    impl TreePolicy<Picks> for RandomPicks {}

    impl Evaluator<Picks> for RandomPicks {
        fn evaluate(&mut self, state: &mut Picks, rng: &mut FastRng) -> f32 {
            while state.outcome().is_none() {
                let a = crate::search::random_below(rng, 3) as u8;
                let b = crate::search::random_below(rng, 3) as u8;
                state.play_joint(a, b);
            }
            state.outcome().map_or(0.5, |o| o.reward_for(0))
        }
    }

    #[test]
    fn one_thread_is_the_single_search_and_more_add_up_their_visits() {
        let sim = SimConfig {
            expand_visits: 4,
            ..SimConfig::new(SimPolicy::DecoupledUct { c: 1.5 }, 300_000)
        };
        let root = Picks {
            round: 0,
            score: [0, 0],
        };
        let limits = Limits::iterations(3000);
        let mut single = SimSearch::new(root.clone(), sim, RandomPicks, FastRng::seed_from_u64(5));
        single.search(limits);
        let mut one = SimRootParallel::new(root.clone(), sim, RandomPicks, 5, 1);
        one.search(limits);
        assert_eq!(one.root_actions(0), single.root_actions(0));

        let mut three = SimRootParallel::new(root, sim, RandomPicks, 5, 3);
        let stats = three.search(limits);
        assert_eq!(stats.iterations, 3 * 3000);
        let visits: u32 = three.root_actions(0).iter().map(|a| a.visits).sum();
        let each: u32 = single.root_actions(0).iter().map(|a| a.visits).sum();
        assert_eq!(visits, 3 * each, "every tree's root visits are counted");
        let best = three.best_move(0, &mut FastRng::seed_from_u64(1)).unwrap();
        let most = three
            .root_actions(0)
            .into_iter()
            .max_by_key(|a| a.visits)
            .unwrap();
        assert_eq!(best, most.mv);
    }
}
