//! Root parallelism (Chaslot, Winands and van den Herik 2008): one independent search per
//! thread, all from the same root with different seeds, searched at the same time; the
//! move is chosen from their root statistics added up. Nothing is shared while searching,
//! so the play-out loop keeps its single-thread speed, and with one thread this is the
//! plain search, move for move.
//!
//! [`RootParallelSearch`] holds the searches of any kind ([`RootSearch`]); what adds up
//! their root statistics is the search's own: here the sequential tree's ([`RootParallel`]:
//! visits summed, means weighted by visits, a proof found by any tree taken as it is),
//! and [`crate::search::simultaneous::root_parallel`] the decoupled search's.

use super::tree::{
    candidates, choose, is_max_robust, proof_value, MoveInfo, Proof, Tree, TreeConfig,
};
use super::{Evaluator, Game, Limits, Search, SearchStats, TreePolicy};

/// What [`RootParallelSearch`] needs of one search: to search and to move its root.
pub trait RootSearch: Send {
    type Position;
    fn search(&mut self, limits: Limits) -> SearchStats;
    /// Moves the root to `new_root`; whether the subtree there was kept.
    fn reroot(&mut self, new_root: &Self::Position) -> bool;
}

/// Searches of the same root on their own threads.
pub struct RootParallelSearch<S> {
    searches: Vec<S>,
}

/// Sequential trees searching the same root on their own threads.
pub type RootParallel<G, E> = RootParallelSearch<Tree<G, E>>;

impl<S: RootSearch> RootParallelSearch<S> {
    /// `threads` searches (at least one), search `k` made by `make` with seed `seed + k`.
    pub fn seeded(seed: u64, threads: usize, make: impl FnMut(u64) -> S) -> Self {
        let searches = (0..threads.max(1) as u64)
            .map(|k| seed.wrapping_add(k))
            .map(make)
            .collect();
        RootParallelSearch { searches }
    }

    pub fn threads(&self) -> usize {
        self.searches.len()
    }

    /// The searches, the first the one on this thread.
    pub fn searches(&self) -> &[S] {
        &self.searches
    }

    /// Searches every one to `limits` at once, the first on this thread, each other on its
    /// own thread; iterations, play-outs and nodes are the searches' sums.
    pub fn search(&mut self, limits: Limits) -> SearchStats {
        let (first, rest) = self
            .searches
            .split_first_mut()
            .expect("at least one search");
        std::thread::scope(|scope| {
            let others: Vec<_> = rest
                .iter_mut()
                .map(|s| scope.spawn(move || s.search(limits)))
                .collect();
            let mut stats = first.search(limits);
            for other in others {
                let other = other.join().expect("a search thread panicked");
                stats.iterations += other.iterations;
                stats.playouts += other.playouts;
                stats.nodes += other.nodes;
                stats.tree_full |= other.tree_full;
            }
            stats
        })
    }

    /// Moves every search's root to `new_root`; whether the first kept its subtree (they
    /// all saw the same moves).
    pub fn reroot_all(&mut self, new_root: &S::Position) -> bool {
        let kept: Vec<bool> = self
            .searches
            .iter_mut()
            .map(|s| s.reroot(new_root))
            .collect();
        kept[0]
    }
}

impl<G, E> RootSearch for Tree<G, E>
where
    G: Game + Send,
    G::Move: Send,
    E: Evaluator<G> + TreePolicy<G> + Send,
{
    type Position = G;

    fn search(&mut self, limits: Limits) -> SearchStats {
        Tree::search(self, limits)
    }

    fn reroot(&mut self, new_root: &G) -> bool {
        Tree::reroot(self, new_root.clone())
    }
}

impl<G, E> RootParallel<G, E>
where
    G: Game + Send,
    G::Move: Send,
    E: Evaluator<G> + TreePolicy<G> + Clone + Send,
{
    /// `threads` trees (at least one) rooted at `root`, tree `k` seeded `seed + k`.
    pub fn new(root: G, config: TreeConfig, evaluator: E, seed: u64, threads: usize) -> Self {
        Self::seeded(seed, threads, |seed| {
            Tree::new(root.clone(), config, evaluator.clone(), seed)
        })
    }

    pub fn config(&self) -> &TreeConfig {
        self.searches()[0].config()
    }

    pub fn evaluator(&self) -> &E {
        self.searches()[0].evaluator()
    }

    /// Moves every tree's root to `new_root` (see [`Tree::reroot`]); whether the first
    /// tree kept anything (they all saw the same moves).
    pub fn reroot(&mut self, new_root: G) -> bool {
        self.reroot_all(&new_root)
    }

    /// The root's moves with the trees' statistics added up, most visited first.
    pub fn root_moves(&self) -> Vec<MoveInfo<G::Move>> {
        let mut merged: Vec<(MoveInfo<G::Move>, f64)> = Vec::new();
        for tree in self.searches() {
            for m in tree.root_moves() {
                let weighted = m.value as f64 * m.visits as f64;
                match merged.iter_mut().find(|(seen, _)| seen.mv == m.mv) {
                    Some((seen, sum)) => {
                        seen.visits += m.visits;
                        *sum += weighted;
                        if m.proof != Proof::Unknown {
                            seen.proof = m.proof;
                        }
                    }
                    None => merged.push((m, weighted)),
                }
            }
        }
        let mut moves: Vec<MoveInfo<G::Move>> = merged
            .into_iter()
            .map(|(mut m, sum)| {
                if m.proof == Proof::Unknown && m.visits > 0 {
                    m.value = (sum / m.visits as f64) as f32;
                } else if let Some(exact) = proof_value(m.proof) {
                    m.value = exact;
                }
                m
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        moves
    }

    /// The move to play under the trees' final-move rule, from the added-up statistics.
    pub fn best_move(&self) -> Option<MoveInfo<G::Move>> {
        choose(candidates(self.root_moves()), self.config().final_move)
    }
}

impl<G, E> Search for RootParallel<G, E>
where
    G: Game + Send,
    G::Move: Send,
    E: Evaluator<G> + TreePolicy<G> + Clone + Send,
{
    /// Searches every tree to `limits`, the first on this thread; iterations and nodes
    /// are the trees' sums.
    fn search(&mut self, limits: Limits) -> SearchStats {
        RootParallelSearch::search(self, limits)
    }

    fn final_move_settled(&self) -> bool {
        self.config().final_move != super::FinalMove::MaxRobust
            || is_max_robust(&candidates(self.root_moves()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_game::TicTacToe;
    use crate::search::{FinalMove, UniformPlayout};
    const CONFIG: TreeConfig = TreeConfig {
        exploration: 0.5,
        selection: crate::search::tree::Selection::Ucb1,
        expand_visits: 4,
        max_nodes: 100_000,
        final_move: FinalMove::MostVisits,
        solver: true,
        rave: None,
        grave_reference: 0,
        prior_visits: 0,
        guidance: crate::search::Guidance::Uct,
        contempt: 0.0,
    };

    #[test]
    fn one_thread_is_the_plain_tree() {
        let mut single = Tree::new(TicTacToe::new(), CONFIG, UniformPlayout::default(), 9);
        let mut parallel =
            RootParallel::new(TicTacToe::new(), CONFIG, UniformPlayout::default(), 9, 1);
        single.search(Limits::iterations(3000));
        parallel.search(Limits::iterations(3000));
        assert_eq!(parallel.root_moves(), single.root_moves());
        assert_eq!(parallel.best_move(), single.best_move());
    }

    #[test]
    fn threads_add_up_the_trees_they_would_have_grown_alone() {
        let mut parallel =
            RootParallel::new(TicTacToe::new(), CONFIG, UniformPlayout::default(), 9, 3);
        let stats = parallel.search(Limits::iterations(2000));
        assert_eq!(stats.iterations, 3 * 2000);
        let alone: Vec<Vec<MoveInfo<_>>> = (9..12)
            .map(|seed| {
                let mut tree = Tree::new(TicTacToe::new(), CONFIG, UniformPlayout::default(), seed);
                tree.search(Limits::iterations(2000));
                tree.root_moves()
            })
            .collect();
        let merged = parallel.root_moves();
        assert_eq!(merged.len(), 9);
        for m in &merged {
            let same: Vec<&MoveInfo<_>> = alone
                .iter()
                .filter_map(|moves| moves.iter().find(|a| a.mv == m.mv))
                .collect();
            let visits: u32 = same.iter().map(|a| a.visits).sum();
            assert_eq!(m.visits, visits, "{m:?}");
            let mean = same
                .iter()
                .map(|a| a.value as f64 * a.visits as f64)
                .sum::<f64>()
                / visits as f64;
            assert!((m.value as f64 - mean).abs() < 1e-4, "{m:?}: {mean}");
        }
        assert!(merged.windows(2).all(|w| w[0].visits >= w[1].visits));
        assert_eq!(parallel.best_move().unwrap().mv, merged[0].mv);
        // Rerooting keeps every tree's subtree.
        let mv = merged[0].mv;
        let mut next = TicTacToe::new();
        next.play(mv);
        assert!(parallel.reroot(next));
    }
}
