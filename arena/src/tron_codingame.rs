//! One game of CodinGame's Tron Battle, refereed as its statement says (see
//! `protocol/codingame/README.md`): 2 to 4 riders on the 30×20 grid move one after another
//! in seat order. At its turn a rider's bot gets `N P` and every rider's `X0 Y0 X1 Y1`
//! (`-1 -1 -1 -1` once out) and answers `UP`, `DOWN`, `LEFT` or `RIGHT` within the turn's
//! time (the first turn's for its first answer). A rider that crashes, answers late or
//! badly, or whose bot dies, is out and its trail vanishes; the side (A or B) of the last
//! rider left wins. Seats alternate A, B, A, B (B first in odd games).
//!
//! In a free-for-all (`--ffa`) each engine has one seat, the seat order turning by one
//! every game, and each gets its place: the last rider left is 1st, the others follow by
//! the turn they went out, later first (riders out on the same turn would share the
//! better place; moving one at a time, they never do).

use super::game::{side_name, Asked, GameRecord, GameSetup, Seat, Winner};
use super::openings::letter;
use super::timebank::Timebank;
use mctsbot::search::{random_below, FastRng};
use mctsbot::tron::battle::{Battle, HEIGHT, WIDTH};
use mctsbot::tron::codingame::{format_direction, format_rider, parse_direction};
use mctsbot::tron::Direction;
use rand::SeedableRng;
use std::time::Instant;

/// Distinct random start cells, no two next to each other (a rider must not lose at its
/// first move for being born beside another), the same for both games of a pair (for
/// every seat order of a free-for-all's round: `pair` is the game over the sides).
pub fn random_starts(riders: usize, seed: u64, pair: u64) -> Vec<(usize, usize)> {
    let mut rng = FastRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pair);
    let mut starts: Vec<(usize, usize)> = Vec::with_capacity(riders);
    while starts.len() < riders {
        let x = random_below(&mut rng, WIDTH as u32) as usize;
        let y = random_below(&mut rng, HEIGHT as u32) as usize;
        if starts
            .iter()
            .all(|&(a, b)| a.abs_diff(x) + b.abs_diff(y) > 1)
        {
            starts.push((x, y));
        }
    }
    starts
}

/// The turn's lines for `rider` in `battle`, whose riders started on `starts`.
pub fn turn_lines(battle: &Battle, starts: &[(usize, usize)], rider: usize) -> Vec<String> {
    let mut lines = vec![format!("{} {rider}", battle.riders())];
    lines.extend(
        starts
            .iter()
            .enumerate()
            .map(|(r, &start)| format_rider(battle.head(r).map(|head| (start, head)))),
    );
    lines
}

/// Plays one game between the setup's bots.
pub fn play(setup: &GameSetup) -> GameRecord {
    let started = Instant::now();
    let opts = setup.opts;
    let round = (setup.index / opts.sides()) as u64;
    let starts = random_starts(opts.riders, opts.seed, round);
    let mut battle = Battle::codingame(&starts).expect("distinct cells on the grid");
    let label = |rider: usize| format!("{} (rider {rider})", side_name(setup.side(rider)));
    let mut seats: Vec<Seat> = (0..opts.riders)
        .map(|r| setup.seat(r, &format!("_rider{r}")))
        .collect();
    let mut answered = vec![false; opts.riders];
    // The turn each rider went out on (never: u32::MAX), for the places.
    let mut out_on = vec![u32::MAX; opts.riders];
    let mut out = Vec::new();
    let mut line = String::new();
    let mut turns = 0;
    while battle.winner().is_none() {
        let rider = battle.to_move();
        let seat = &mut seats[rider];
        let first = !answered[rider];
        answered[rider] = true;
        let lines = turn_lines(&battle, &starts, rider);
        let answer = ask(setup, seat, &lines, rider, first);
        turns += 1;
        if !line.is_empty() {
            line.push(' ');
        }
        line.push(answer.map_or('x', letter));
        match answer {
            Some(d) => {
                let head = battle.head(rider);
                battle.play(d);
                if !battle.is_alive(rider) {
                    out_on[rider] = turns;
                    out.push(format!("{} crashed at turn {turns}", label(rider)));
                } else if opts.watch {
                    eprintln!(
                        "game {} turn {turns}: {} {:?} -> {:?} {}",
                        setup.index,
                        label(rider),
                        head,
                        battle.head(rider),
                        format_direction(d)
                    );
                }
            }
            None => {
                let why = seat.fault("answered badly");
                out_on[rider] = turns;
                out.push(format!("{} {why} at turn {turns}", label(rider)));
                battle.forfeit();
            }
        }
    }
    let winner = battle.winner().expect("the loop ends with one rider left");
    let reason = format!("{} is the last left; {}", label(winner), out.join(", "));
    let seats = seats.into_iter().enumerate().collect();
    let side = Winner::of_side(setup.side(winner));
    GameRecord {
        line,
        places: side_places(setup, &out_on),
        ..setup.finish_seats(seats, side, turns, reason, started)
    }
}

/// Sends `rider`'s turn `lines` to its bot and reads its direction, with the first
/// turn's time for its first answer and a turn's time after; none when it answered
/// badly, late or not at all.
fn ask(
    setup: &GameSetup,
    seat: &mut Seat,
    lines: &[String],
    rider: usize,
    first: bool,
) -> Option<Direction> {
    let clock = setup.clock(rider);
    let turn_ms = if first {
        clock.timebank
    } else {
        clock.time_per_move
    };
    seat.bank = Timebank::new(turn_ms, 0);
    let sent = seat.request_lines(lines);
    match seat.answer(sent) {
        Asked::Answer(text) => {
            let d = parse_direction(&text).ok();
            if d.is_none() {
                seat.stats.illegal += 1;
                seat.note("not UP, DOWN, LEFT or RIGHT");
            }
            d
        }
        Asked::Fault | Asked::Crashed => None,
    }
}

/// A free-for-all's places by side (none in a game between two sides): one rider per
/// side, so seat r's place goes to its side.
fn side_places(setup: &GameSetup, out_on: &[u32]) -> Vec<u32> {
    if !setup.opts.ffa {
        return Vec::new();
    }
    let mut places = vec![0; setup.opts.sides()];
    for (rider, place) in places_by_turn_out(out_on).into_iter().enumerate() {
        places[setup.side(rider)] = place;
    }
    places
}

/// Each rider's place from the turn it went out on (`u32::MAX`: never): 1 + the riders
/// that lasted longer, so that riders out on the same turn share the better place.
pub fn places_by_turn_out(out_on: &[u32]) -> Vec<u32> {
    out_on
        .iter()
        .map(|&mine| 1 + out_on.iter().filter(|&&other| other > mine).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_are_distinct_apart_and_the_same_for_a_pair() {
        for riders in 2..=4 {
            for pair in 0..50 {
                let starts = random_starts(riders, 7, pair);
                assert_eq!(starts, random_starts(riders, 7, pair));
                assert!(Battle::codingame(&starts).is_ok());
                for (i, a) in starts.iter().enumerate() {
                    for b in &starts[i + 1..] {
                        assert!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1) > 1);
                    }
                }
            }
        }
        assert_ne!(random_starts(2, 7, 0), random_starts(2, 7, 1));
    }

    #[test]
    fn places_follow_the_turn_a_rider_went_out_and_ties_share_the_better() {
        assert_eq!(places_by_turn_out(&[7, u32::MAX, 3]), [2, 1, 3]);
        assert_eq!(places_by_turn_out(&[u32::MAX, 5, 5, 2]), [1, 2, 2, 4]);
    }

    #[test]
    fn a_turn_gives_the_riders_and_every_trail_end() {
        let starts = [(0, 0), (5, 5), (9, 9)];
        let mut battle = Battle::codingame(&starts).unwrap();
        battle.play(mctsbot::tron::Direction::Right);
        battle.forfeit(); // rider 1 is out
        assert_eq!(
            turn_lines(&battle, &starts, 2),
            ["3 2", "0 0 1 0", "-1 -1 -1 -1", "9 9 9 9"]
        );
    }
}
