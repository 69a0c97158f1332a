//! One Light Riders game, refereed like the riddles.io engine: settings `player_names`,
//! `your_bot`, `timebank`, `time_per_move`, `your_botid`, `field_width`, `field_height`;
//! each round both bots get `update game round` (from 0), `update game field` and
//! `action move BANK`, think at the same time, and both moves apply at once.
//!
//! A rider keeps its current direction when its bot answers late, `pass`, an unknown
//! word, or (after round 0) the reverse of its direction. A late answer (or none) from a
//! rider with no safe move left is still a timeout, as the engine counts it, with a note
//! in the transcript (`no move left`): some bots say nothing when every move crashes. The direction before any
//! answer faces the opponent's start (player 0 on the left of a default board faces
//! right, player 1 left): the transcripts don't show the engine's choice because both
//! bots answered in round 0, and facing each other keeps the two sides mirror images of
//! each other, so a silent bot is treated the same from either start.

use super::game::{Asked, GameRecord, GameSetup};
use super::openings::{Opening, TronLine};
use mctsbot::game::Outcome;
use mctsbot::protocol::{Command, GameUpdate, Setting, Token};
use mctsbot::tron::parse_tron_answer;
use mctsbot::tron::Direction;
use std::time::Instant;

/// The direction a rider has before its first answer: towards the other start, along the
/// axis where they are further apart.
pub fn initial_direction(me: (u32, u32), other: (u32, u32)) -> Direction {
    let dx = other.0 as i64 - me.0 as i64;
    let dy = other.1 as i64 - me.1 as i64;
    if dx.abs() >= dy.abs() {
        if dx >= 0 {
            Direction::Right
        } else {
            Direction::Left
        }
    } else if dy >= 0 {
        Direction::Down
    } else {
        Direction::Up
    }
}

/// The transcript's note on a fault (a late answer or none) of a rider that had no safe
/// move left.
pub const NO_MOVE_LEFT: &str = "no move left: every move crashed";

/// Plays one game between the setup's bots.
// Long by choice: the engine's game loop as the riddles engine runs it (settings, opening,
// rounds, answers, outcome), read top to bottom like its transcripts.
pub fn play(setup: &GameSetup) -> GameRecord {
    let started = Instant::now();
    let opts = setup.opts;
    let map = setup.map.as_ref().expect("a Light Riders game has a map");
    let mut seats = setup.seats();
    let mut state = match map.start_state() {
        Ok(state) => state,
        Err(e) => return setup.finish(seats, None, 0, format!("bad map: {e}"), started),
    };
    let names = vec!["player0".to_string(), "player1".to_string()];
    for p in 0..2usize {
        let clock = setup.clock(p);
        let seat = &mut seats[p];
        seat.send(&Command::Settings(Setting::PlayerNames(names.clone())));
        seat.send(&Command::Settings(Setting::YourBot(names[p].clone())));
        seat.send(&Command::Settings(Setting::Timebank(clock.timebank)));
        seat.send(&Command::Settings(Setting::TimePerMove(
            clock.time_per_move,
        )));
        seat.send(&Command::Settings(Setting::YourBotId(p as u8)));
        seat.send(&Command::Settings(Setting::FieldWidth(map.width)));
        seat.send(&Command::Settings(Setting::FieldHeight(map.height)));
    }
    let mut dirs = [
        initial_direction(map.starts[0], map.starts[1]),
        initial_direction(map.starts[1], map.starts[0]),
    ];
    let mut round = 0u32;
    let mut played = Vec::new();
    // An opening's rounds are played by the arena; the bots' first round is the next one
    // (so a reversal of the opening's last move is refused, as it would be in a game).
    // Its board, if it sets one, is already the setup's map.
    if let Some(Opening::Tron(line, _)) = &setup.opening {
        for &[d0, d1] in &line.rounds {
            state.step(d0, d1);
            dirs = [d0, d1];
            played.push(dirs);
            round += 1;
        }
    }
    let (winner, reason) = loop {
        let field: Vec<Token> = state.engine_field();
        let mut sent = [Instant::now(); 2];
        for p in 0..2 {
            let seat = &mut seats[p];
            seat.send(&Command::UpdateGame(GameUpdate::Round(round)));
            seat.send(&Command::UpdateGame(GameUpdate::Field(field.clone())));
            sent[p] = seat.request();
        }
        for p in 0..2 {
            let seat = &mut seats[p];
            let asked = seat.answer(sent[p]);
            if matches!(asked, Asked::Fault) && state.safe_moves(p as u8).is_empty() {
                // Lost whatever it answered: some bots stay silent when every move crashes,
                // and a series scored without its timeout games must tell those apart.
                seat.note(NO_MOVE_LEFT);
            }
            if let Asked::Answer(text) = asked {
                match parse_tron_answer(&text) {
                    Some(answer) => match answer.0 {
                        Some(d) if round > 0 && d == dirs[p].opposite() => {
                            seat.stats.illegal += 1;
                            seat.note("reversal ignored");
                        }
                        Some(d) => dirs[p] = d,
                        None => {} // pass
                    },
                    None => {
                        seat.stats.illegal += 1;
                        seat.note("unknown answer ignored");
                    }
                }
            }
        }
        state.step(dirs[0], dirs[1]);
        played.push(dirs);
        round += 1;
        if opts.watch {
            eprintln!(
                "game {} round {}: {:?} / {:?}\n{}",
                setup.index,
                round - 1,
                dirs[0],
                dirs[1],
                state.render()
            );
        }
        match state.outcome() {
            Some(Outcome::Win(p)) => break (Some(p), format!("{} survived", setup.label(p))),
            Some(Outcome::Draw) => break (None, "both riders crashed".to_string()),
            None if round >= opts.max_rounds => break (None, format!("{round} rounds played")),
            None => {}
        }
    };
    GameRecord {
        // The rounds alone: the record names the board, and the transcripts the starts.
        line: Opening::Tron(
            TronLine {
                rounds: played,
                ..TronLine::default()
            },
            None,
        )
        .text(),
        ..setup.finish(seats, winner, round, reason, started)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn riders_face_each_other() {
        assert_eq!(initial_direction((3, 7), (12, 7)), Direction::Right);
        assert_eq!(initial_direction((12, 7), (3, 7)), Direction::Left);
        assert_eq!(initial_direction((0, 0), (12, 12)), Direction::Right);
        assert_eq!(initial_direction((12, 12), (0, 0)), Direction::Left);
        assert_eq!(initial_direction((5, 0), (5, 9)), Direction::Down);
    }
}
