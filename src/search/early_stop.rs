//! Answering before the move's target time once the move is decided (Baier and Winands
//! 2015's STOP rule), for the searches that can tell ([`Search::decided_within`]). Its own
//! module: only Light Riders uses it, and CodinGame's UTTT bundle leaves it out.

use super::{extend_while_unsettled, thinking_slice, Limits, Search, SearchStats};
use std::time::Instant;

/// [`think`](super::think), but answering before `target` once the move is decided (Baier and Winands
/// 2015's STOP rule): from `earliest` on, after every slice of a tenth of the target
/// time, the search is asked whether its move would stand if `share` of the iterations
/// the rest of the target allows (at the rate so far) all went to the runner-up. The
/// time saved stays in the bank for the moves that are not decided.
pub fn think_stopping_early<S: Search>(
    search: &mut S,
    start: Instant,
    earliest: Instant,
    target: Instant,
    hard: Instant,
    share: f32,
) -> SearchStats {
    let slice = thinking_slice(start, target);
    let mut until = earliest.min(target);
    let mut stats = search.search(Limits::until(until));
    while until < target {
        let now = Instant::now();
        let rate = stats.iterations as f64 / now.duration_since(start).as_secs_f64().max(1e-6);
        let remaining = rate * target.saturating_duration_since(now).as_secs_f64();
        if search.decided_within((remaining * f64::from(share)) as u64) {
            stats.elapsed = start.elapsed();
            return stats;
        }
        until = (until + slice).min(target);
        stats.absorb(search.search(Limits::until(until)));
    }
    extend_while_unsettled(search, stats, start, slice, until, hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A search that sleeps to each deadline, counting a millisecond as an iteration, and
    /// calls its move decided once fewer than `decided_below` iterations could change it.
    struct Idle {
        decided_below: u64,
    }

    impl Search for Idle {
        fn search(&mut self, limits: Limits) -> SearchStats {
            let deadline = limits.deadline.expect("think searches to deadlines");
            let start = Instant::now();
            std::thread::sleep(deadline.saturating_duration_since(start));
            let iterations = start.elapsed().as_millis() as u64;
            SearchStats {
                iterations,
                ..SearchStats::default()
            }
        }

        fn final_move_settled(&self) -> bool {
            true
        }

        fn decided_within(&self, remaining_iterations: u64) -> bool {
            remaining_iterations < self.decided_below
        }
    }

    /// How long `think_stopping_early` thinks with the earliest answer at 100 ms, the
    /// target at 1 s and the hard limit at 2 s.
    fn thinking_time(decided_below: u64, share: f32) -> Duration {
        let start = Instant::now();
        let at = |ms| start + Duration::from_millis(ms);
        let mut search = Idle { decided_below };
        let (earliest, target, hard) = (at(100), at(1_000), at(2_000));
        let stats = think_stopping_early(&mut search, start, earliest, target, hard, share);
        assert!(stats.elapsed >= Duration::from_millis(100), "{stats:?}");
        stats.elapsed
    }

    #[test]
    fn the_search_stops_once_the_iterations_left_could_not_change_its_move() {
        // Decided whatever is left: the earliest answer.
        assert!(thinking_time(u64::MAX, 1.0) < Duration::from_millis(400));
        // Never decided: the target.
        assert!(thinking_time(0, 1.0) >= Duration::from_millis(1_000));
        // Decided with under 500 iterations (ms) left: about half-way to the target...
        let half_way = thinking_time(500, 1.0);
        assert!(half_way >= Duration::from_millis(500), "{half_way:?}");
        assert!(half_way < Duration::from_millis(1_000), "{half_way:?}");
        // ...and at once when only half of what is left counts (450 at 100 ms).
        assert!(thinking_time(500, 0.5) < Duration::from_millis(400));
    }
}
