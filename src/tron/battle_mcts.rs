//! Monte-Carlo tree search for three and four riders of Tron Battle (UCT with a value
//! vector, one entry per rider: Sturtevant 2008's max-n UCT, Nijssen and Winands 2011's
//! multi-player MCTS). Every rider chooses its child by its own entry's upper confidence
//! bound (max-n), or the rivals choose by the lowest value for us (paranoid). There are
//! no play-outs: a new leaf is valued at once by the riders' Voronoi regions, each rider's
//! region lead over the largest other searched region squashed by a logistic curve, as
//! the Light Riders search values its leaves. Riders frozen in the position
//! ([`Paranoid::frozen`]) stand still, as in the alpha-beta searches.

use super::battle::{region_scores, Found, Paranoid, MAX_RIDERS};
use super::direction::Direction;
use super::evaluate::logistic;
use crate::search::alphabeta::Score;
use crate::search::bandit::ucb1_bonus;
use crate::search::{Game, Limits, SearchStats};
use std::time::Instant;

/// A reward for every rider, by seat, each in `0.0..=1.0`.
type Rewards = [f32; MAX_RIDERS];

/// The region lead (in [`region_scores`]'s units: 11 a cell, 39 an edge) that the
/// logistic curve turns into a reward of 1/(1 + e⁻¹), as the Light Riders leaves.
const LEAD_SCALE: f32 = 400.0;

/// How the rivals choose their moves in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RivalChoice {
    /// Each rival maximises its own reward (max-n).
    OwnReward,
    /// Each rival minimises ours (paranoid).
    AgainstUs,
}

/// A node of the tree: the move that led to it, its children (contiguous in the tree's
/// list) and the rewards summed over its visits.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Direction,
    first_child: u32,
    children: u8,
    visits: u32,
    sums: Rewards,
}

impl Node {
    fn new(mv: Direction) -> Node {
        Node {
            mv,
            first_child: 0,
            children: 0,
            visits: 0,
            sums: [0.0; MAX_RIDERS],
        }
    }
}

/// Searches `root` (the searcher `root.me` to move) until `limits`, with the UCT
/// constant `exploration`: the root's most visited move, its mean reward for the searcher
/// in thousandths, and the longest line from the root.
pub fn search(root: &Paranoid, limits: Limits, exploration: f32, rivals: RivalChoice) -> Found {
    let started = Instant::now();
    let mut nodes = vec![Node::new(Direction::Up)];
    let mut path = Vec::with_capacity(64);
    let mut moves = Vec::with_capacity(4);
    let mut iterations = 0u64;
    let mut depth = 0;
    while !limits.reached(iterations) {
        iterations += 1;
        let mut position = root.clone();
        path.clear();
        path.push(0usize);
        let rewards = loop {
            let node = *path.last().expect("the root");
            if position.outcome().is_some() {
                break ended(&position);
            }
            if nodes[node].children == 0 {
                if nodes[node].visits == 0 && node != 0 {
                    break evaluate(&position);
                }
                moves.clear();
                position.legal_moves(&mut moves);
                nodes[node].first_child = nodes.len() as u32;
                nodes[node].children = moves.len() as u8;
                nodes.extend(moves.iter().map(|&mv| Node::new(mv)));
            }
            let rider = position.battle.to_move();
            let child = select(&nodes, node, rider, position.me, exploration, rivals);
            position.play(nodes[child].mv);
            path.push(child);
        };
        depth = depth.max(path.len() as u32 - 1);
        for &node in &path {
            let node = &mut nodes[node];
            node.visits += 1;
            for (sum, reward) in node.sums.iter_mut().zip(rewards) {
                *sum += reward;
            }
        }
    }
    let root_node = nodes[0];
    let children = &nodes[root_node.first_child as usize..][..root_node.children as usize];
    let best = children
        .iter()
        .max_by_key(|child| child.visits)
        .map(|child| child.mv);
    let score = if root_node.visits == 0 {
        0
    } else {
        (root_node.sums[root.me] / root_node.visits as f32 * 1000.0) as Score
    };
    Found {
        best,
        score,
        depth,
        stats: SearchStats {
            iterations,
            playouts: 0,
            elapsed: started.elapsed(),
            nodes: nodes.len(),
            tree_full: false,
        },
    }
}

/// The child of `node` that `rider` (to move there) chooses: an unvisited one first, then
/// the highest upper confidence bound on the reward it plays for.
fn select(
    nodes: &[Node],
    node: usize,
    rider: usize,
    me: usize,
    exploration: f32,
    rivals: RivalChoice,
) -> usize {
    let parent = &nodes[node];
    let first = parent.first_child as usize;
    let log_visits = (parent.visits.max(1) as f32).ln();
    let mut best = (first, f32::NEG_INFINITY);
    let children = &nodes[first..first + parent.children as usize];
    for (index, child) in (first..).zip(children) {
        if child.visits == 0 {
            return index;
        }
        let visits = child.visits as f32;
        let sum = match rivals {
            RivalChoice::AgainstUs if rider != me => visits - child.sums[me],
            _ => child.sums[rider],
        };
        let bound = sum / visits + ucb1_bonus(exploration, log_visits, child.visits);
        if bound > best.1 {
            best = (index, bound);
        }
    }
    best.0
}

/// The rewards once the paranoid view's game is over: the searcher out (0 for it, the
/// others still in share the rest by their regions) or the last rider in (1).
fn ended(position: &Paranoid) -> Rewards {
    if position.battle.is_alive(position.me) {
        let mut rewards = [0.0; MAX_RIDERS];
        rewards[position.me] = 1.0;
        rewards
    } else {
        evaluate(position)
    }
}

/// Each searched rider's region lead over the largest other searched region, squashed;
/// a rider out (or not searched) gets 0.
fn evaluate(position: &Paranoid) -> Rewards {
    let scores = region_scores(&position.battle);
    position
        .leads(scores)
        .map(|lead| lead.map_or(0.0, |lead| logistic(lead as f32, LEAD_SCALE)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::battle::Battle;

    fn run(battle: Battle, me: usize, rivals: RivalChoice) -> Found {
        search(
            &Paranoid::all(battle, me),
            Limits::iterations(20_000),
            1.0,
            rivals,
        )
    }

    #[test]
    fn it_steps_where_the_rival_is_walled_in() {
        // . 0 . 1   right: rider 1 has no free cell left and goes out; left: rider 0 is
        // walled in at the edge and goes out first.
        for rivals in [RivalChoice::OwnReward, RivalChoice::AgainstUs] {
            let b = Battle::new(4, 1, &[(1, 0), (3, 0)]).unwrap();
            let result = run(b, 0, rivals);
            assert_eq!(result.best, Some(Direction::Right), "{result:?}");
            assert!(result.score > 900, "{result:?}");
        }
    }

    #[test]
    fn the_exploration_constant_and_the_rivals_choice_change_the_search() {
        let board = || Battle::new(10, 10, &[(2, 2), (7, 2), (5, 7)]).unwrap();
        let at = |exploration, rivals| {
            search(
                &Paranoid::all(board(), 0),
                Limits::iterations(3_000),
                exploration,
                rivals,
            )
        };
        let (narrow, wide) = (
            at(0.1, RivalChoice::OwnReward),
            at(5.0, RivalChoice::OwnReward),
        );
        assert!(narrow.depth > wide.depth, "{narrow:?} {wide:?}");
        let against = at(1.0, RivalChoice::AgainstUs);
        let own = at(1.0, RivalChoice::OwnReward);
        assert!(
            against.score < own.score,
            "rivals against us leave us less: {against:?} {own:?}"
        );
    }

    #[test]
    fn rewards_squash_each_searched_riders_lead() {
        // 0 . . . . 1 . . . 2   regions 2, 3 and 1 cells: rider 1 leads
        let b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
        let rewards = evaluate(&Paranoid::all(b.clone(), 0));
        assert!(rewards[1] > 0.5 && rewards[0] < 0.5 && rewards[2] < rewards[0]);
        let frozen = Paranoid {
            frozen: 0b100,
            ..Paranoid::all(b, 0)
        };
        assert_eq!(evaluate(&frozen)[2], 0.0, "a frozen rider is not valued");
    }
}
