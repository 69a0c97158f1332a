//! One Ultimate Tic-Tac-Toe game, refereed like the TheAIGames 2016 / riddles.io 2017
//! engines (see the transcripts in `protocol/`): the same settings in the same order, and
//! before each move `update game round` (the mover's own move number), `update game move`
//! (the ply, from 1), `field`, `macroboard`, then `action move BANK`.
//!
//! An opening (`--openings`) is played on the board first; the bots see its position.
//! `--end-rule boards` ends a lineless game as CodinGame does (more small boards wins).
//!
//! An answer that is late, unparsable or illegal is asked for once more (with the
//! refilled bank); a second failure, or a crash, loses the game.

use super::game::{Asked, GameRecord, GameSetup};
use super::openings::Opening;
use mctsbot::game::{Outcome, Player};
use mctsbot::protocol::{Command, GameUpdate, Setting};
use mctsbot::search::Game;
use mctsbot::uttt::parse_place_move;
use mctsbot::uttt::{Board, Move};
use std::time::Instant;

/// Requests per move: the first and the one repeat.
const ATTEMPTS: u32 = 2;

/// Plays one game between the setup's bots.
// Long by choice: the engine's game loop as TheAIGames runs it (settings, opening,
// requests with one repeat, outcome), read top to bottom like its transcripts.
pub fn play(setup: &GameSetup) -> GameRecord {
    let started = Instant::now();
    let opts = setup.opts;
    let dialect = opts.dialect;
    let mut seats = setup.seats();
    let names: Vec<String> = (0..2)
        .map(|p| format!("player{}", dialect.engine_id(p)))
        .collect();
    for p in 0..2u8 {
        let clock = setup.clock(p as usize);
        let seat = &mut seats[p as usize];
        seat.send(&Command::Settings(Setting::Timebank(clock.timebank)));
        seat.send(&Command::Settings(Setting::TimePerMove(
            clock.time_per_move,
        )));
        seat.send(&Command::Settings(Setting::PlayerNames(names.clone())));
        seat.send(&Command::Settings(Setting::YourBot(
            names[p as usize].clone(),
        )));
        seat.send(&Command::Settings(Setting::YourBotId(dialect.engine_id(p))));
    }
    let mut board = Board::with_end_rule(opts.end_rule);
    let mut line = Vec::new();
    if let Some(Opening::Uttt(moves)) = &setup.opening {
        for &mv in moves {
            board.play(mv);
            line.push(mv);
        }
    }
    let (winner, reason) = loop {
        match board.outcome() {
            Some(Outcome::Win(p)) => break (Some(p), format!("{} won the board", setup.label(p))),
            Some(Outcome::Draw) => break (None, "board drawn".to_string()),
            None => {}
        }
        let p: Player = board.to_move();
        let ply = board.ply();
        let seat = &mut seats[p as usize];
        seat.send(&Command::UpdateGame(GameUpdate::Round(ply / 2 + 1)));
        seat.send(&Command::UpdateGame(GameUpdate::Move(ply + 1)));
        seat.send(&Command::UpdateGame(GameUpdate::Field(
            board.engine_field(dialect),
        )));
        seat.send(&Command::UpdateGame(GameUpdate::Macroboard(
            board.engine_macroboard(dialect),
        )));
        let mut chosen = None;
        for _ in 0..ATTEMPTS {
            let sent = seat.request();
            match seat.answer(sent) {
                Asked::Answer(text) => {
                    let mv = parse_place_move(&text)
                        .and_then(|(column, row)| Move::from_xy(column, row))
                        .filter(|&mv| board.is_legal(mv));
                    match mv {
                        Some(mv) => {
                            chosen = Some(mv);
                            break;
                        }
                        None => {
                            seat.stats.illegal += 1;
                            seat.note("illegal or unparsable answer");
                        }
                    }
                }
                Asked::Fault => {}
                Asked::Crashed => break,
            }
        }
        let Some(mv) = chosen else {
            let why = if seat.crashed() {
                "crashed"
            } else {
                "failed twice to answer a legal move"
            };
            break (Some(1 - p), format!("{} {why}", setup.label(p)));
        };
        board.play(mv);
        line.push(mv);
        if opts.watch {
            let (x, y) = mv.xy();
            eprintln!(
                "game {} ply {}: {} plays {x} {y}\n{}",
                setup.index,
                ply + 1,
                setup.label(p),
                board.render()
            );
        }
    };
    GameRecord {
        line: Opening::Uttt(line).text(),
        ..setup.finish(seats, winner, board.ply(), reason, started)
    }
}
