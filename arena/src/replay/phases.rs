//! The Light Riders replay's closing table by phase: over all the games replayed, where
//! the side's value fell and where its moves were not the replay's search's choice, before
//! the riders separate, in the round they separate, and after (the fill).

use super::{Game, Ply};
use crate::replay::report::{changes, largest_drops};
use mctsbot::bot::tron::Plan;
use std::fmt::Write as _;

/// A game's phases, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The riders can still reach each other.
    Open,
    /// They are apart after this round.
    Separating,
    /// They are apart: each fills its own room.
    Separated,
}

impl Phase {
    /// The phase of the round played from `ply`, `next` the position after it.
    pub fn of(ply: &Ply, next: Option<&Ply>) -> Phase {
        match (ply.space.separated, next.map(|n| n.space.separated)) {
            (true, _) => Phase::Separated,
            (false, Some(true)) => Phase::Separating,
            (false, _) => Phase::Open,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Phase::Open => "open",
            Phase::Separating => "the riders separate in this round",
            Phase::Separated => "separated",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A move the search valued this far below its own choice counts as a costly one.
pub const COSTLY: f32 = 0.05;

/// One phase's counts for the side, over the games added.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub rounds: u32,
    /// Rounds where the side's move was its own choice (not forced).
    pub chosen: u32,
    /// Of those, the rounds where the move played was not the search's choice.
    pub differs: u32,
    /// Of those, the ones the search valued at least [`COSTLY`] below its choice.
    pub costly: u32,
    /// The search's value of its choice minus its value of the move played, summed over
    /// the rounds where both are known (the open search's root moves).
    pub loss: f32,
    pub loss_rounds: u32,
    /// The side's value drops over the phase's rounds, summed (a negative number).
    pub fell: f32,
    /// Games whose largest drop of the side's value came in this phase.
    pub largest: u32,
}

/// [`Counts`] for each [`Phase`].
#[derive(Debug, Default)]
pub struct PhaseTable {
    pub games: u32,
    pub phases: [Counts; 3],
}

impl PhaseTable {
    /// Adds one replayed game, seen from player `view`.
    pub fn add(&mut self, game: &Game, plies: &[Ply], view: usize) {
        self.games += 1;
        let changes = changes(plies, game.results());
        if let Some(&k) = largest_drops(&changes, view, 1).first() {
            self.phases[Phase::of(&plies[k], plies.get(k + 1)).index()].largest += 1;
        }
        for (k, ply) in plies.iter().enumerate() {
            let phase = Phase::of(ply, plies.get(k + 1));
            let c = &mut self.phases[phase.index()];
            c.rounds += 1;
            let rider = &ply.riders[view];
            let played = ply.played.map(|r| r[view]);
            if !matches!(rider.plan, Plan::Forced(_)) && played.is_some() {
                c.chosen += 1;
                if played != rider.best {
                    c.differs += 1;
                    let cost = rider.played.map(|m| rider.value - m.value);
                    c.costly += u32::from(cost.is_some_and(|d| d >= COSTLY));
                }
                if let Some(m) = rider.played {
                    c.loss += (rider.value - m.value).max(0.0);
                    c.loss_rounds += 1;
                }
            }
            if let Some(drop) = changes[k][view].filter(|&d| d < 0.0) {
                c.fell += drop;
            }
        }
    }

    pub fn text(&self) -> String {
        let mut out = format!(
            "\nby phase, over {} game(s): rounds; the side's own moves; of them not the \
             search's choice, and costly (valued {COSTLY} or more below it); mean loss a \
             searched move; the side's value drops summed; games whose largest drop is here\n\
             phase                                rounds  chosen  differs  costly  mean loss  \
             fell  largest\n",
            self.games
        );
        for phase in [Phase::Open, Phase::Separating, Phase::Separated] {
            let c = &self.phases[phase.index()];
            let mean = match c.loss_rounds {
                0 => "-".to_string(),
                n => format!("{:.3}", c.loss / n as f32),
            };
            let _ = writeln!(
                out,
                "{:<36} {:>6}  {:>6}  {:>7}  {:>6}  {:>9}  {:>+5.2}  {:>7}",
                phase.words(),
                c.rounds,
                c.chosen,
                c.differs,
                c.costly,
                mean,
                c.fell,
                c.largest
            );
        }
        out
    }
}
