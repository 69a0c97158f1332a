//! The bot glue: options → searcher per game, and one session loop.
//!
//! Each game wires itself the same way, in its own folder: [`uttt`], [`tron`] (Light
//! Riders) and [`tron_battle`] each hold their options (flags, defaults, help section),
//! their searcher (what the options build) and their players (the engines' protocol, or
//! CodinGame's). [`common`] holds the
//! flags every game shares; [`options`] only dispatches each flag to its owner and
//! assembles `--help` from the sections ([`flags`] is the table they are written in).
//!
//! [`run`] reads engine lines and chooses the protocol: over the engines' one, the
//! [`Session`] keeps the settings and hands game updates and `action` requests to the
//! player of the game being played (each a [`player::GamePlayer`]), detected from the first lines unless `--game` says;
//! over CodinGame's, the game's CodinGame player plays. stdout carries answers only;
//! everything else is logged.

pub mod arrivals;
pub mod common;
pub mod flags;
pub mod options;
pub mod player;
pub mod session;
pub mod tron;
pub mod tron_battle;
pub mod uttt;

#[cfg(test)]
mod tests;

pub use common::{CommonConfig, ProtocolChoice};
pub use options::{usage, Config};
pub use player::Settings;
pub use session::Session;

use crate::game::GameKind;
use crate::protocol;
use arrivals::Arrivals;
use log::{info, warn};
use session::respond;
use std::io::{self, BufRead, Write};
use std::time::Instant;

pub use crate::search::PONDER_SLICE;

/// Plays one game: engine lines from `input`, answers to `output`, one flushed line per
/// `action`. Input that is not UTF-8 is read lossily rather than stopping the bot. With
/// `--ponder`, a thread reads the input (stamping each line on arrival) while this one
/// searches in [`PONDER_SLICE`]s between lines.
pub fn run<R, W>(mut input: R, mut output: W, config: Config) -> io::Result<()>
where
    R: BufRead + Send,
    W: Write,
{
    let mut first = Vec::new();
    if input.read_until(b'\n', &mut first)? == 0 {
        return Ok(());
    }
    let received = Instant::now();
    let first_line = String::from_utf8_lossy(&first).into_owned();
    let codingame = match config.common.protocol {
        ProtocolChoice::CodinGame => true,
        ProtocolChoice::Engine => false,
        ProtocolChoice::Auto => protocol::codingame::looks_like_codingame(&first_line),
    };
    if codingame {
        return run_codingame(first_line, received, input, output, &config);
    }
    let ponder = config.common.ponder;
    let mut session = Session::new(config);
    respond(&mut session, &mut output, &first, received)?;
    if ponder {
        return run_pondering(session, input, output);
    }
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(());
        }
        respond(&mut session, &mut output, &buffer, Instant::now())?;
    }
}

/// Plays CodinGame's UTTT or Tron Battle, told apart by the second line (a rider's four
/// numbers, or UTTT's count) unless `--game` says; `first` arrived at `received`.
fn run_codingame<R: BufRead + Send, W: Write>(
    first: String,
    received: Instant,
    mut input: R,
    output: W,
    config: &Config,
) -> io::Result<()> {
    let mut second = Vec::new();
    input.read_until(b'\n', &mut second)?;
    let tron_battle = match config.common.game {
        Some(game) => game.on_codingame() == GameKind::TronBattle,
        None => crate::tron::codingame::looks_like_tron_battle(&String::from_utf8_lossy(&second)),
    };
    let input = io::Read::chain(io::Cursor::new(second), input);
    if tron_battle {
        info!("CodinGame Tron Battle");
        if config.common.ponder {
            warn!("--ponder is not used in Tron Battle: nothing is searched on the others' time");
        }
        let config = tron_battle::settings(config);
        return tron_battle::player::run(first, received, input, output, config);
    }
    info!("CodinGame Ultimate Tic-Tac-Toe");
    let settings = uttt::codingame_settings(config);
    let new_search = uttt::codingame_search(config);
    if !config.common.ponder {
        return uttt::codingame::run(first, received, input, output, &settings, new_search);
    }
    std::thread::scope(|scope| {
        let (arrivals, reader) = Arrivals::spawn(scope, input);
        uttt::codingame::run(first, received, arrivals, output, &settings, new_search)?;
        reader.join().expect("the input thread panicked")
    })
}

/// The session loop with `--ponder`: a thread reads the input, stamping each line on
/// arrival, while this one ponders in [`PONDER_SLICE`]s between lines.
fn run_pondering<R, W>(mut session: Session, input: R, mut output: W) -> io::Result<()>
where
    R: BufRead + Send,
    W: Write,
{
    std::thread::scope(|scope| {
        let (mut arrivals, reader) = Arrivals::spawn(scope, input);
        // Ponder while no line is waiting; once there is nothing to ponder, block until
        // the next line instead of spinning.
        let mut idle = false;
        loop {
            if !idle && !arrivals.waiting() {
                idle = !session.ponder(PONDER_SLICE);
                continue;
            }
            let Some((line, received)) = arrivals.take() else {
                break;
            };
            idle = false;
            respond(&mut session, &mut output, &line, received)?;
        }
        reader.join().expect("the input thread panicked")
    })
}
