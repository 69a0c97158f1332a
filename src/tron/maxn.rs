//! Max-n search (Luckhardt and Irani 1986) over a Tron Battle position: every rider
//! chooses the move that maximises its own entry of a value vector, one entry per rider,
//! instead of all rivals minimising ours as in the paranoid search. Nothing like
//! alpha-beta's cut-offs applies to it (Sturtevant's shallow pruning needs a bounded sum of
//! values, which Voronoi leads are not), so it is iterative deepening over whole rounds
//! without pruning. Riders frozen in the position ([`Paranoid::frozen`]) stand still, as in
//! the paranoid search, and its evaluation is that search's region lead seen by each rider.

use super::battle::{regions, Found, Paranoid, MAX_RIDERS};
use super::direction::Direction;
use crate::search::alphabeta::{Score, WIN};
use crate::search::{Game, Limits, SearchStats};
use std::time::Instant;

/// A value for every rider, by seat.
type Values = [Score; MAX_RIDERS];

/// Searches `root` (the searcher `root.me` to move) round by round until `limits`: the
/// move and value of the deepest search finished.
pub fn search(root: &Paranoid, limits: Limits) -> Found {
    let started = Instant::now();
    let mut search = MaxN {
        limits,
        nodes: 0,
        aborted: false,
    };
    let searched = root.searched();
    let free_cells = root.battle.blocked().inverted().count();
    let mut found = (None, 0, 0);
    for rounds in 1.. {
        let depth = rounds * searched;
        let (values, best) = search.node(root, depth, 0);
        if search.aborted {
            break;
        }
        found = (best, values[root.me], depth);
        // Deeper than the free cells, every line has ended.
        if values[root.me].abs() >= WIN - 1000 || depth > free_cells {
            break;
        }
    }
    let (best, score, depth) = found;
    Found {
        best,
        score,
        depth,
        stats: SearchStats {
            iterations: search.nodes,
            playouts: 0,
            elapsed: started.elapsed(),
            nodes: search.nodes as usize,
            tree_full: false,
        },
    }
}

struct MaxN {
    limits: Limits,
    nodes: u64,
    aborted: bool,
}

impl MaxN {
    /// The values of `position` searched `depth` more plies (then on to the searcher's
    /// turn), and the best move of the rider to move.
    fn node(&mut self, position: &Paranoid, depth: u32, ply: u32) -> (Values, Option<Direction>) {
        self.nodes += 1;
        if self.limits.reached(self.nodes) {
            self.aborted = true;
            return ([0; MAX_RIDERS], None);
        }
        if let Some(values) = ended(position, ply) {
            return (values, None);
        }
        let rider = position.battle.to_move();
        if depth == 0 && rider == position.me {
            return (evaluate(position), None);
        }
        let mut moves = Vec::with_capacity(4);
        position.legal_moves(&mut moves);
        let mut best: Option<(Values, Direction)> = None;
        for mv in moves {
            let mut child = position.clone();
            child.play(mv);
            let (values, _) = self.node(&child, depth.saturating_sub(1), ply + 1);
            if self.aborted {
                return ([0; MAX_RIDERS], None);
            }
            // Ties go against the searcher (the usual paranoid tie-break of max-n).
            let better = match best {
                None => true,
                Some((held, _)) => {
                    values[rider] > held[rider]
                        || values[rider] == held[rider] && values[position.me] < held[position.me]
                }
            };
            if better {
                best = Some((values, mv));
            }
        }
        let (values, mv) = best.expect("at least one move");
        (values, Some(mv))
    }
}

/// The values once the searcher is out or the last rider in (the paranoid view's
/// outcome: with the searched rivals out and a frozen one still in, the searcher goes on
/// alone), sooner counting more.
fn ended(position: &Paranoid, ply: u32) -> Option<Values> {
    let battle = &position.battle;
    let me = position.me;
    position.outcome()?;
    let won = battle.is_alive(me);
    let mut values = [-WIN + ply as Score; MAX_RIDERS];
    if won {
        values[me] = WIN - ply as Score;
    } else {
        for (rider, value) in values.iter_mut().enumerate() {
            if rider != me && battle.is_alive(rider) {
                *value = WIN - ply as Score;
            }
        }
    }
    Some(values)
}

/// Each searched rider's Voronoi region minus the largest other searched rider's; a rider
/// out of the game gets `-WIN`.
fn evaluate(position: &Paranoid) -> Values {
    let counts = regions(&position.battle).map(|cells| cells as Score);
    position.leads(counts).map(|lead| lead.unwrap_or(-WIN))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tron::battle::Battle;

    #[test]
    fn it_steps_where_the_rival_is_walled_in_and_proves_the_win() {
        // . 0 . 1   right: rider 1 has no free cell left; left: rider 0 is walled in
        let b = Battle::new(4, 1, &[(1, 0), (3, 0)]).unwrap();
        let result = search(&Paranoid::all(b, 0), Limits::iterations(100_000));
        assert_eq!(result.best, Some(Direction::Right), "{result:?}");
        assert!(result.score >= WIN - 1000, "{result:?}");
    }

    #[test]
    fn a_line_is_won_only_when_every_other_rider_is_out() {
        // 0 . . 1 . . . . . 2   rider 2 frozen (out of the search)
        let mut b = Battle::new(10, 1, &[(0, 0), (3, 0), (9, 0)]).unwrap();
        b.eliminate(1);
        let alone = Paranoid {
            frozen: 0b100,
            ..Paranoid::all(b.clone(), 0)
        };
        assert_eq!(ended(&alone, 3), None, "rider 2 is still in");
        assert_eq!(
            evaluate(&alone)[0],
            4,
            "cells 1 to 4: nobody searched to beat"
        );
        b.eliminate(2);
        assert_eq!(ended(&Paranoid::all(b, 0), 3).unwrap()[0], WIN - 3);
    }

    #[test]
    fn every_rider_is_valued_by_its_own_lead_and_the_out_by_minus_win() {
        // 0 . . . . 1 . . . 2   regions 2, 3 and 1
        let mut b = Battle::new(10, 1, &[(0, 0), (5, 0), (9, 0)]).unwrap();
        assert_eq!(evaluate(&Paranoid::all(b.clone(), 0))[..3], [-1, 1, -2]);
        // rider 2 frozen: leads among riders 0 and 1 only, rider 2 not valued
        let frozen = Paranoid {
            frozen: 0b100,
            ..Paranoid::all(b.clone(), 0)
        };
        assert_eq!(evaluate(&frozen)[..3], [-1, 1, -WIN]);
        b.eliminate(1);
        assert_eq!(evaluate(&Paranoid::all(b, 0))[1], -WIN);
    }
}
