//! Time management: how long the next move may think.
//!
//! The engine's timebank starts full (10 s), loses what each move takes, gains
//! `time_per_move` after every move and is capped at its maximum. So a bot that spends
//! exactly `time_per_move` a move never runs dry, a bot that hoards wastes the refill
//! that the cap throws away, and a bot that overspends starves its endgame. The budget
//! therefore spends the refill every move plus a share of the surplus above it, spread
//! over the moves the game is still expected to last and weighted by how open the
//! position is (Liang 2017, Table 4.2, gave more time to positions with more moves).

use log::warn;
use std::time::{Duration, Instant};

/// The engines' timebank (TheAIGames, riddles.io): full at the start, and its maximum.
pub const ENGINE_TIMEBANK_MS: u64 = 10_000;
/// What the UTTT engines add to the bank after every move.
pub const UTTT_TIME_PER_MOVE_MS: u64 = 500;
/// What the Light Riders engine adds to the bank after every move.
pub const TRON_TIME_PER_MOVE_MS: u64 = 200;

/// The engine's time rules and the bot's margins for one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// The timebank's maximum (and initial value), from `settings timebank`.
    pub timebank_max_ms: u64,
    /// Added to the bank after every move, from `settings time_per_move`.
    pub time_per_move_ms: u64,
    /// Our moves in a typical long game: the surplus is spread until then.
    pub horizon_moves: u32,
    /// The surplus is never spread over fewer moves than this, so the bank lasts.
    pub min_moves_left: u32,
    /// Kept back for reading the command, answering, pipes and the scheduler.
    pub safety_margin_ms: u64,
    /// Weigh the budget by the number of legal moves (UTTT, where it ranges from 1 to
    /// 81); Light Riders always has at most three, so there it would only waste time.
    pub weigh_by_moves: bool,
}

impl TimeControl {
    /// Ultimate Tic-Tac-Toe on TheAIGames / riddles.io: at most 41 moves each, most
    /// games between two strong bots last 25–30 moves each.
    pub fn uttt(timebank_max_ms: u64, time_per_move_ms: u64) -> Self {
        TimeControl {
            timebank_max_ms,
            time_per_move_ms,
            horizon_moves: 30,
            min_moves_left: 6,
            safety_margin_ms: 40,
            weigh_by_moves: true,
        }
    }

    /// Light Riders: a game can last about as many rounds as a quarter of the cells, but
    /// the space is won or lost in the first half (the riders cut the board apart, or
    /// one is boxed in), so the surplus is spread over an eighth of the cells, at least
    /// 32 rounds: 32 on the 16×16 board, where this beat a quarter by 0.713 to 0.575
    /// against alpha-beta (README).
    pub fn tron(timebank_max_ms: u64, time_per_move_ms: u64, cells: u32) -> Self {
        TimeControl {
            timebank_max_ms,
            time_per_move_ms,
            horizon_moves: (cells / 8).max(32),
            min_moves_left: 10,
            safety_margin_ms: 30,
            weigh_by_moves: false,
        }
    }

    /// What a move may spend of `bank_ms`: the bank less the safety margin.
    pub fn spendable_ms(&self, bank_ms: u64) -> u64 {
        bank_ms.saturating_sub(self.safety_margin_ms)
    }

    /// The bank to plan with: the engine's, but never above the timebank's maximum (a
    /// larger one is the engine's mistake, or a corrupt line: it is clamped, with a
    /// warning); when the `action` line could not be read, one move's refill (the safe
    /// assumption).
    pub fn usable_bank(&self, bank_ms: Option<u64>) -> u64 {
        match bank_ms {
            None => self.time_per_move_ms,
            Some(bank) if bank > self.timebank_max_ms => {
                warn!(
                    "timebank {bank} ms is above the maximum of {} ms: planning with the maximum",
                    self.timebank_max_ms
                );
                self.timebank_max_ms
            }
            Some(bank) => bank,
        }
    }
}

/// How long a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to answer after this many milliseconds.
    pub target_ms: u64,
    /// Never answer later than this, even while a search is still undecided
    /// (the max-robust extension stops here).
    pub hard_ms: u64,
    /// A search that knows when its move is decided may answer from here on
    /// (`--tron-early-stop`): the time saved stays in the bank.
    pub earliest_ms: u64,
}

impl Budget {
    /// Answer at once.
    pub const IMMEDIATE: Budget = Budget::fixed(0);

    /// Exactly `ms`: the target is also the hard limit, and no early answer.
    pub const fn fixed(ms: u64) -> Budget {
        Budget {
            target_ms: ms,
            hard_ms: ms,
            earliest_ms: ms,
        }
    }

    /// When to aim to answer a request received at `received`.
    pub fn target_at(&self, received: Instant) -> Instant {
        received + Duration::from_millis(self.target_ms)
    }

    /// When a decided search may answer a request received at `received`.
    pub fn earliest_at(&self, received: Instant) -> Instant {
        received + Duration::from_millis(self.earliest_ms)
    }

    /// When to answer at the latest a request received at `received`.
    pub fn hard_at(&self, received: Instant) -> Instant {
        received + Duration::from_millis(self.hard_ms)
    }
}

/// The budget for our `move_number`-th move (1 = our first) with `bank_ms` left in the
/// timebank and `legal_moves` to choose from. Never above `bank_ms − safety margin`.
pub fn budget(tc: &TimeControl, bank_ms: u64, move_number: u32, legal_moves: u32) -> Budget {
    if legal_moves <= 1 {
        return Budget::IMMEDIATE;
    }
    let usable = tc.spendable_ms(bank_ms);
    let moves_left = tc
        .horizon_moves
        .saturating_sub(move_number)
        .max(tc.min_moves_left) as u64;
    // The part of the bank above one move's refill can be spent over the moves left.
    let surplus = bank_ms.saturating_sub(tc.time_per_move_ms);
    let base = tc.time_per_move_ms + surplus / moves_left;
    let target = if tc.weigh_by_moves {
        base * openness_percent(legal_moves) / 100
    } else {
        base
    };
    // Time that the cap would throw away is free: after spending up to
    // `bank + refill − maximum` the next bank is full either way (at CodinGame's form,
    // a 100 ms bank refilled by 100 ms, that is the whole bank, whatever the position).
    let free = (bank_ms + tc.time_per_move_ms).saturating_sub(tc.timebank_max_ms);
    let target = target.max(free).min(usable);
    let hard = (target * 2).min(usable).max(target);
    // A decided move may answer after a quarter of the target, but not before the
    // refill the cap would throw away is spent.
    let earliest = (target / 4).max(free).min(target);
    Budget {
        target_ms: target,
        hard_ms: hard,
        earliest_ms: earliest,
    }
}

/// The budget of iterative-deepening alpha-beta for our `move_number`-th move: Liang
/// 2017's Table 4.1 (500 ms for the first 14 moves, then 500 / 800 / 1100 / 1700 ms for
/// < 4, < 7, < 10 and ≥ 10 legal moves), scaled to the refill (Liang 2017's 500 ms) and
/// never above the bank less the safety margin. Alpha-beta keeps the last finished
/// iteration's move, so the target is also the hard limit.
pub fn alphabeta_budget(
    tc: &TimeControl,
    bank_ms: u64,
    move_number: u32,
    legal_moves: u32,
) -> Budget {
    if legal_moves <= 1 {
        return Budget::IMMEDIATE;
    }
    let seed_ms: u64 = match (move_number, legal_moves) {
        (0..=14, _) | (_, 0..=3) => 500,
        (_, 4..=6) => 800,
        (_, 7..=9) => 1100,
        _ => 1700,
    };
    Budget::fixed((seed_ms * tc.time_per_move_ms / 500).min(tc.spendable_ms(bank_ms)))
}

/// More choices deserve more thought: the ratios of Liang 2017's Table 4.2
/// (500 / 800 / 1100 / 1700 ms for < 4, < 7, < 10 and ≥ 10 moves), scaled so that a
/// typical position (7–9 moves) gets the base budget.
fn openness_percent(legal_moves: u32) -> u64 {
    match legal_moves {
        0..=3 => 45,
        4..=6 => 73,
        7..=9 => 100,
        _ => 155,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uttt() -> TimeControl {
        TimeControl::uttt(10_000, 500)
    }

    #[test]
    fn a_bank_above_the_maximum_is_clamped() {
        let tc = uttt();
        assert_eq!(tc.usable_bank(Some(100_000_000)), 10_000);
        assert_eq!(tc.usable_bank(Some(10_001)), 10_000);
        assert_eq!(tc.usable_bank(Some(10_000)), 10_000);
        assert_eq!(tc.usable_bank(Some(0)), 0);
        assert_eq!(tc.usable_bank(None), 500);
        let small = TimeControl::uttt(2_000, 100);
        assert_eq!(small.usable_bank(Some(5_000)), 2_000);
    }

    #[test]
    fn alphabeta_follows_the_seeds_table_within_the_bank() {
        let tc = uttt();
        let target =
            |bank, move_number, legal| alphabeta_budget(&tc, bank, move_number, legal).target_ms;
        assert_eq!(target(10_000, 3, 40), 500, "the first 14 moves");
        assert_eq!(target(10_000, 20, 3), 500);
        assert_eq!(target(10_000, 20, 6), 800);
        assert_eq!(target(10_000, 20, 9), 1100);
        assert_eq!(target(10_000, 20, 10), 1700);
        assert_eq!(
            target(1_000, 20, 10),
            960,
            "never beyond the bank less the margin"
        );
        let fast = TimeControl::uttt(2_000, 100);
        assert_eq!(
            alphabeta_budget(&fast, 2_000, 20, 10).target_ms,
            340,
            "scaled to the refill"
        );
        assert_eq!(alphabeta_budget(&tc, 10_000, 20, 1), Budget::IMMEDIATE);
    }

    #[test]
    fn a_single_legal_move_is_answered_at_once() {
        assert_eq!(budget(&uttt(), 10_000, 5, 1), Budget::IMMEDIATE);
    }

    #[test]
    fn never_above_the_bank_minus_the_margin() {
        let tc = uttt();
        for bank in [0, 1, 39, 40, 41, 100, 250, 500, 501, 1000, 3000, 10_000] {
            for move_number in [1, 10, 29, 30, 41, 200] {
                for legal in [2, 3, 5, 8, 9, 20, 81] {
                    let b = budget(&tc, bank, move_number, legal);
                    let usable = bank.saturating_sub(tc.safety_margin_ms);
                    assert!(b.target_ms <= usable, "{b:?} at bank {bank}");
                    assert!(b.hard_ms <= usable, "{b:?} at bank {bank}");
                    assert!(b.target_ms <= b.hard_ms);
                }
            }
        }
    }

    #[test]
    fn a_full_bank_spends_more_than_the_refill_but_keeps_most_of_it() {
        let b = budget(&uttt(), 10_000, 5, 9);
        assert!(
            b.target_ms > 500,
            "{b:?} wastes the refill the cap throws away"
        );
        assert!(b.target_ms < 2_000, "{b:?} drains the bank too fast");
        assert!(b.hard_ms >= b.target_ms && b.hard_ms <= 4_000);
    }

    #[test]
    fn a_low_bank_lives_on_the_refill() {
        // With 500 ms left, spend about the refill so that the bank stays level.
        let b = budget(&uttt(), 500, 20, 9);
        assert!(b.target_ms <= 460 && b.target_ms >= 400, "{b:?}");
        let b = budget(&uttt(), 100, 20, 9);
        assert_eq!(b.target_ms, 60);
        assert_eq!(b.hard_ms, 60);
    }

    #[test]
    fn time_the_cap_would_throw_away_is_always_spent() {
        // A bank that every move refills to its maximum: spend it all, few moves or many.
        let refilled = TimeControl::uttt(100, 100);
        for legal in [2, 3, 5, 8, 9, 20, 81] {
            let b = budget(&refilled, 100, 12, legal);
            assert_eq!((b.target_ms, b.hard_ms), (60, 60), "{legal} moves");
        }
        // A full official bank: even a forced-looking position spends the refill.
        assert!(budget(&uttt(), 10_000, 5, 2).target_ms >= 500);
        assert!(budget(&uttt(), 9_800, 5, 2).target_ms >= 300);
        // Below the cap nothing is thrown away, so few moves still get less time.
        assert!(budget(&uttt(), 5_000, 5, 2).target_ms < 500);
    }

    #[test]
    fn more_choices_get_more_time() {
        let tc = uttt();
        let few = budget(&tc, 8_000, 10, 3).target_ms;
        let some = budget(&tc, 8_000, 10, 8).target_ms;
        let many = budget(&tc, 8_000, 10, 30).target_ms;
        assert!(few < some && some < many, "{few} {some} {many}");
    }

    #[test]
    fn more_bank_never_means_less_time() {
        let tc = uttt();
        let mut last = 0;
        for bank in (0..=10_000).step_by(50) {
            let target = budget(&tc, bank, 12, 9).target_ms;
            assert!(target >= last, "bank {bank}: {target} < {last}");
            last = target;
        }
    }

    #[test]
    fn a_whole_game_at_the_budget_never_empties_the_bank() {
        // Simulate the engine's bank arithmetic over 41 moves spending the whole target.
        let tc = uttt();
        let mut bank = tc.timebank_max_ms;
        for move_number in 1..=41 {
            let spent = budget(&tc, bank, move_number, 9).target_ms;
            assert!(spent + tc.safety_margin_ms <= bank.max(tc.safety_margin_ms));
            bank = (bank - spent + tc.time_per_move_ms).min(tc.timebank_max_ms);
            assert!(
                bank >= tc.time_per_move_ms,
                "bank {bank} at move {move_number}"
            );
        }
    }

    #[test]
    fn tron_spends_its_surplus_in_the_first_half_and_then_its_refill() {
        let tron = TimeControl::tron(10_000, 200, 256);
        // 200 + 9800 / 31 moves left.
        let b = budget(&tron, 10_000, 1, 3);
        assert_eq!(b.target_ms, 516, "{b:?}");
        // Larger boards last longer.
        assert_eq!(TimeControl::tron(10_000, 200, 30 * 30).horizon_moves, 112);
        // Two or three moves make no difference in Light Riders.
        assert_eq!(budget(&tron, 10_000, 1, 2), b);
        // A bank that only holds the refill spends (nearly) all of it.
        assert_eq!(budget(&tron, 200, 50, 3).target_ms, 170);
    }

    #[test]
    fn a_decided_move_answers_after_a_quarter_of_its_target_but_never_wastes_the_refill() {
        let tron = TimeControl::tron(10_000, 200, 256);
        // A full bank: spending less than the refill would lose the rest of it to the cap.
        let full = budget(&tron, 10_000, 1, 3);
        assert_eq!((full.target_ms, full.earliest_ms), (516, 200));
        let b = budget(&tron, 4_000, 40, 3);
        assert_eq!(b.earliest_ms, b.target_ms / 4, "{b:?}");
        // Alpha-beta keeps its last finished iteration: no early answer.
        let ab = alphabeta_budget(&tron, 4_000, 40, 3);
        assert_eq!(ab.earliest_ms, ab.target_ms);
    }
}
