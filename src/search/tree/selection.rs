//! Selection: the rule that scores a node's children ([`SelectionRule`]: UCB1, UCB1-Tuned,
//! RAVE/GRAVE, Progressive Bias; UCT-ULM's untried children before any of them), resolved
//! once from the [`TreeConfig`], and the scans that apply it.

use super::arena::{Amaf, Node};
use super::{Selection, Tree, TreeConfig};
use crate::search::bandit::{exploration_from_ln, fast_ln, rave_beta, ucb1_tuned_bonus};
use crate::search::root_move::Proof;
use crate::search::{progressive_bias, Evaluator, Game, Guidance, TreePolicy};

/// How a visited child is scored, and which of the untried children comes first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum SelectionRule {
    /// UCT: `mean + C·√(ln N)·(1/√n)`; an untried child scores +∞, the first one wins.
    Ucb1,
    /// `mean` plus [`ucb1_tuned_bonus`]; the first untried child before any tried one.
    Ucb1Tuned,
    /// RAVE (GRAVE with a [`TreeConfig::grave_reference`]): `(1 − β)·mean + β·amaf_mean +
    /// C·√(ln N / n)` with [`rave_beta`]; the untried child of best AMAF mean first.
    Rave { constant: f32 },
    /// UCB1 (or UCB1-Tuned) plus [`progressive_bias`] of the evaluator's move value; the
    /// first untried child before any tried one.
    ProgressiveBias { weight: f32, tuned: bool },
}

impl SelectionRule {
    /// The rule of `config`: UCB1-Tuned takes precedence over RAVE, and Progressive Bias
    /// scores with UCB1 or UCB1-Tuned whatever `rave` says. (UCT-ULM only orders the
    /// untried children: see [`Tree::select_child`].)
    pub(super) fn of(config: &TreeConfig) -> Self {
        match (config.guidance, config.selection, config.rave) {
            (Guidance::ProgressiveBias { weight }, selection, _) => {
                SelectionRule::ProgressiveBias {
                    weight,
                    tuned: selection == Selection::Ucb1Tuned,
                }
            }
            (_, Selection::Ucb1Tuned, _) => SelectionRule::Ucb1Tuned,
            (_, Selection::Ucb1, Some(constant)) => SelectionRule::Rave { constant },
            (_, Selection::Ucb1, None) => SelectionRule::Ucb1,
        }
    }
}

impl<G: Game, E: Evaluator<G> + TreePolicy<G>> Tree<G, E> {
    /// The child of `parent` that selection descends into: with UCT-ULM
    /// ([`TreeConfig::guidance`]) the untried child of best move value while there is
    /// one, else the best by the tree's rule. `state` is the parent's position, whose
    /// moves the guided rules value. (A child proven won never gets here: its parent is
    /// then proven and not descended into.)
    #[inline(always)]
    pub(super) fn select_child(&mut self, parent: usize, state: &G) -> usize {
        if self.untried_by_value {
            if let Some(untried) = self.best_untried_by_value(parent, state) {
                return untried;
            }
        }
        match self.rule {
            SelectionRule::Ucb1 => self.select_child_ucb1(parent),
            SelectionRule::Ucb1Tuned => self.select_child_tuned(parent),
            SelectionRule::Rave { constant } => self.select_child_rave(parent, constant),
            SelectionRule::ProgressiveBias { weight, tuned } => {
                self.select_child_biased(parent, state, weight, tuned)
            }
        }
    }

    /// The child of `parent` with the highest mean for its mover (the first of equals).
    pub(super) fn best_child_by_mean(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let children = p.children();
        let first = children.start;
        children
            .fold((first, f32::NEG_INFINITY), |(best, best_mean), child| {
                let mean = self.nodes[child].mean;
                if mean > best_mean {
                    (child, mean)
                } else {
                    (best, best_mean)
                }
            })
            .0
    }

    /// UCT: the child maximising [`ucb_score`]. An unvisited child scores +∞ (its 1/√n is
    /// infinite), so the first one is taken; a child proven lost for its mover has mean
    /// −∞. One pass over the children, no branch on them.
    #[inline(always)]
    fn select_child_ucb1(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let exploration = self.exploration_term(p.visits);
        let children = &self.nodes[p.children()];
        let best = if children.len() >= WIDE_SCAN {
            best_ucb_wide(children, exploration)
        } else {
            best_ucb(children, exploration)
        };
        p.first_child as usize + best
    }

    /// `C·√(ln N)` for a parent with `visits` visits, kept above zero so that 0·∞ never
    /// makes an unvisited child's score NaN. Read from a table for the small counts of the
    /// deep nodes: computing it is a chain of about fifty cycles that every level of the
    /// descent would otherwise wait for before scoring its children.
    #[inline(always)]
    pub(super) fn exploration_term(&self, visits: u32) -> f32 {
        match self.exploration_terms.get(visits as usize) {
            Some(&term) => term,
            None => exploration_from_ln(self.config.exploration, fast_ln(visits as f32)),
        }
    }

    /// UCB1-Tuned: the first unvisited child, else the best [`Tree::tuned_score`].
    #[inline(never)]
    fn select_child_tuned(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let ln_parent = fast_ln(p.visits.max(1) as f32);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in p.children() {
            if self.nodes[child].visits == 0 {
                return child;
            }
            let score = self.tuned_score(child, ln_parent);
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// A visited child's UCB1-Tuned score (−∞ when proven lost for its mover).
    #[inline]
    fn tuned_score(&self, child: usize, ln_parent: f32) -> f32 {
        let c = &self.nodes[child];
        if c.proof == Proof::Loss {
            return f32::NEG_INFINITY;
        }
        let bonus = ucb1_tuned_bonus(
            self.config.exploration,
            ln_parent,
            c.visits,
            c.mean,
            self.square_means[child],
        );
        c.mean + bonus
    }

    /// The evaluator's value of `child`'s move from the parent's position `state`
    /// (unknown counts as 0.5).
    fn move_value(&self, state: &G, child: usize) -> f32 {
        self.evaluator
            .move_value(state, self.nodes[child].mv)
            .unwrap_or(0.5)
    }

    /// UCT-ULM: the untried child of best move value, if there is one.
    // Kept out of line, as the other guided rule: the plain descent loop stays small.
    #[inline(never)]
    fn best_untried_by_value(&self, parent: usize, state: &G) -> Option<usize> {
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for child in self.nodes[parent]
            .children()
            .filter(|&c| self.nodes[c].visits == 0)
        {
            let v = self.move_value(state, child);
            if v > best_value {
                best_value = v;
                best = Some(child);
            }
        }
        best
    }

    /// Progressive Bias: untried children first in order, as UCT takes them, then the
    /// best UCB1 (or UCB1-Tuned) score plus [`progressive_bias`].
    #[inline(never)]
    fn select_child_biased(&self, parent: usize, state: &G, weight: f32, tuned: bool) -> usize {
        let p = self.nodes[parent];
        if let Some(untried) = p.children().find(|&c| self.nodes[c].visits == 0) {
            return untried;
        }
        let exploration = self.exploration_term(p.visits);
        let ln_parent = fast_ln(p.visits.max(1) as f32);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in p.children() {
            let c = self.nodes[child];
            let base = if tuned {
                self.tuned_score(child, ln_parent)
            } else {
                ucb_score(&c, exploration)
            };
            let value = self.move_value(state, child);
            let score = base + progressive_bias(weight, value, c.visits, c.mean);
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// RAVE (Liang 2017, §4.3.2): the child maximising `(1 − β)·mean + β·amaf_mean +
    /// C·√(ln N / n)` with [`rave_beta`]. Unvisited children come first, as in UCT, the
    /// one with the best AMAF mean first (Liang 2017's formula leaves their order open).
    /// With GRAVE the AMAF values are those of the same move at the source node.
    #[inline(never)]
    pub(super) fn select_child_rave(&mut self, parent: usize, constant: f32) -> usize {
        let p = &self.nodes[parent];
        let to_move = (1 - p.mover) as usize & 1;
        let reference = self.config.grave_reference;
        if reference == 0 || p.visits >= reference {
            self.grave_sources[to_move] = parent as u32;
        }
        let source = self.grave_sources[to_move] as usize;
        // GRAVE: the source's AMAF value of each move slot (a parent is its own source,
        // and plain RAVE needs no table).
        let source_amaf = (source != parent).then(|| {
            let mut by_slot = [Amaf::default(); 128];
            for child in self.nodes[source].children() {
                by_slot[G::amaf_slot(self.nodes[child].mv) as usize] = self.amaf[child];
            }
            by_slot
        });
        let exploration = self.exploration_term(p.visits);
        let mut best = p.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        let mut best_unvisited = None;
        for child in p.children() {
            let c = &self.nodes[child];
            let amaf = match &source_amaf {
                None => self.amaf[child],
                Some(by_slot) => by_slot[G::amaf_slot(c.mv) as usize],
            };
            if c.visits == 0 {
                let amaf_mean = if amaf.visits > 0 { amaf.mean } else { 0.5 };
                if best_unvisited.map_or(true, |(_, mean)| amaf_mean > mean) {
                    best_unvisited = Some((child, amaf_mean));
                }
                continue;
            }
            let score = if c.proof == Proof::Loss {
                f32::NEG_INFINITY
            } else {
                let beta = rave_beta(constant, c.visits, amaf.visits);
                (1.0 - beta) * c.mean + beta * amaf.mean + exploration * c.inv_sqrt_visits
            };
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best_unvisited.map_or(best, |(child, _)| child)
    }
}

/// Nodes with at least this many children are scanned by [`best_ucb_wide`].
pub(super) const WIDE_SCAN: usize = 32;

/// A child's UCT score `mean + exploration·(1/√n)` (`exploration` = `C·√(ln N)`).
#[inline(always)]
fn ucb_score<M>(child: &Node<M>, exploration: f32) -> f32 {
    child.mean + exploration * child.inv_sqrt_visits
}

/// The index of the child with the best [`ucb_score`], the first one on ties.
#[inline(always)]
pub(super) fn best_ucb<M>(children: &[Node<M>], exploration: f32) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in children.iter().enumerate() {
        let score = ucb_score(child, exploration);
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    best
}

/// The same choice as [`best_ucb`], with four running maxima (child `i` in lane `i % 4`)
/// merged at the end. Each comparison of the single running maximum waits for the one
/// before; four independent chains make the scan of the UTTT root's 81 children about a
/// fifth faster, while few children are faster with the plain loop.
#[inline(always)]
pub(super) fn best_ucb_wide<M>(children: &[Node<M>], exploration: f32) -> usize {
    const LANES: usize = 4;
    let mut best = [0; LANES];
    let mut best_score = [f32::NEG_INFINITY; LANES];
    let mut consider = |lane: usize, i: usize, child: &Node<M>| {
        let score = ucb_score(child, exploration);
        if score > best_score[lane] {
            best_score[lane] = score;
            best[lane] = i;
        }
    };
    let chunks = children.chunks_exact(LANES);
    let rest_start = children.len() - chunks.remainder().len();
    for (chunk_index, chunk) in chunks.enumerate() {
        for (lane, child) in chunk.iter().enumerate() {
            consider(lane, chunk_index * LANES + lane, child);
        }
    }
    for (lane, child) in children[rest_start..].iter().enumerate() {
        consider(lane, rest_start + lane, child);
    }
    // The best lane; on equal scores the lower index, as the plain loop would find it.
    let mut winner = 0;
    for lane in 1..LANES {
        let (score, index) = (best_score[lane], best[lane]);
        if score > best_score[winner] || (score == best_score[winner] && index < best[winner]) {
            winner = lane;
        }
    }
    best[winner]
}

/// Visit counts below this read `C·√(ln N)` from a table (16 KiB).
pub(super) const EXPLORATION_TABLE: usize = 4096;
