//! What a search says of its root moves, and the final-move rules that choose among them
//! (shared by the sequential tree and its root-parallel form).

use super::FinalMove;

/// The game-theoretic value of a node when proven, from the view of the player who made
/// the move into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Unknown,
    Win,
    Loss,
    Draw,
}

/// What the search says of one move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveInfo<M> {
    pub mv: M,
    pub visits: u32,
    /// Mean reward for the player to move at the root, 0..1 (exact when proven).
    pub value: f32,
    pub proof: Proof,
}

/// The exact reward of a proof for the node's mover, `None` while unproven.
pub(crate) fn proof_value(proof: Proof) -> Option<f32> {
    match proof {
        Proof::Unknown => None,
        Proof::Win => Some(1.0),
        Proof::Loss => Some(0.0),
        Proof::Draw => Some(0.5),
    }
}

/// The moves worth choosing from among root moves sorted most visited first: the proven
/// wins if any; else the moves not proven lost (all of them when every move is lost).
pub fn candidates<M>(moves: Vec<MoveInfo<M>>) -> Vec<MoveInfo<M>> {
    if moves.iter().any(|m| m.proof == Proof::Win) {
        return moves
            .into_iter()
            .filter(|m| m.proof == Proof::Win)
            .collect();
    }
    if moves.iter().all(|m| m.proof == Proof::Loss) {
        return moves;
    }
    moves
        .into_iter()
        .filter(|m| m.proof != Proof::Loss)
        .collect()
}

/// The move to play under `rule` among `candidates` (most visited first): the robust
/// child (most visits, ties to the better mean), or the secure one. (The tree keeps no
/// mixed strategy: [`FinalMove::Mix`] plays the robust child too.)
pub fn choose<M: Copy>(candidates: Vec<MoveInfo<M>>, rule: FinalMove) -> Option<MoveInfo<M>> {
    match rule {
        FinalMove::Secure { a } => {
            let lower_bound = |m: &MoveInfo<M>| m.value - a / (m.visits.max(1) as f32).sqrt();
            candidates.into_iter().max_by(|x, y| {
                let key = |m| (lower_bound(m), m.visits);
                key(x)
                    .partial_cmp(&key(y))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
        }
        FinalMove::MostVisits | FinalMove::MaxRobust | FinalMove::Mix => {
            candidates.first().copied()
        }
    }
}

/// Whether the most visited of `candidates` also has the best mean.
pub fn is_max_robust<M>(candidates: &[MoveInfo<M>]) -> bool {
    let Some(robust) = candidates.first() else {
        return true;
    };
    candidates.iter().all(|m| m.value <= robust.value)
}
