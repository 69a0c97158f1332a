//! The official engines' timebank: a bot starts with the maximum, each answer costs the
//! time it took, and every request refills `time_per_move` (capped at the maximum).
//! Kept as pure arithmetic so the rules the bots are judged by are unit-tested.

/// One player's timebank in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timebank {
    remaining: u64,
    max: u64,
    per_move: u64,
}

impl Timebank {
    /// A full timebank of `max` ms that earns `per_move` ms after each answer.
    pub fn new(max: u64, per_move: u64) -> Self {
        Timebank {
            remaining: max,
            max,
            per_move,
        }
    }

    /// What `action move` announces: the milliseconds the bot may use for this answer.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// Whether an answer that took `elapsed_ms` came too late (strictly more than the bank).
    pub fn is_late(&self, elapsed_ms: u64) -> bool {
        elapsed_ms > self.remaining
    }

    /// Charges an answer (or a timeout) that took `elapsed_ms`:
    /// `min(max(bank - elapsed, 0) + time_per_move, max)`.
    pub fn charge(&mut self, elapsed_ms: u64) {
        self.remaining = (self.remaining.saturating_sub(elapsed_ms) + self.per_move).min(self.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_full_and_is_capped() {
        let mut bank = Timebank::new(10_000, 500);
        assert_eq!(bank.remaining(), 10_000);
        bank.charge(300);
        assert_eq!(bank.remaining(), 10_000, "refill is capped at the maximum");
    }

    #[test]
    fn matches_the_theaigames_transcript() {
        // Player 1 of the 2016 transcript: 10000, 10000, 9396, 8792, 8189.
        let mut bank = Timebank::new(10_000, 500);
        bank.charge(500);
        assert_eq!(bank.remaining(), 10_000);
        bank.charge(1104);
        assert_eq!(bank.remaining(), 9396);
        bank.charge(1104);
        assert_eq!(bank.remaining(), 8792);
        bank.charge(1103);
        assert_eq!(bank.remaining(), 8189);
    }

    #[test]
    fn never_negative_and_lateness_is_strict() {
        let mut bank = Timebank::new(1000, 100);
        assert!(!bank.is_late(1000));
        assert!(bank.is_late(1001));
        bank.charge(5000);
        assert_eq!(
            bank.remaining(),
            100,
            "an empty bank still earns time_per_move"
        );
        bank.charge(100);
        assert_eq!(bank.remaining(), 100);
        bank.charge(40);
        assert_eq!(bank.remaining(), 160);
    }
}
