//! What the self-play tools share: games played on several threads, each record written as
//! one line as its game ends, progress now and then, and a clean stop on Ctrl-C that keeps
//! every record written.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Set by the first Ctrl-C: no game starts after it.
static STOP: AtomicBool = AtomicBool::new(false);

/// What a run wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub games: u64,
    pub positions: u64,
    /// Whether a write failed (the run stopped there).
    pub failed: bool,
}

/// The first Ctrl-C stops starting games (those in flight finish and are written), the
/// second kills. `tool` names the messages.
pub fn stop_on_ctrl_c(tool: &'static str) {
    if let Err(e) = ctrlc::set_handler(move || {
        eprintln!("\n{tool}: stopping after the games in flight (Ctrl-C again kills)");
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    }) {
        eprintln!("{tool}: no Ctrl-C handler: {e}");
    }
}

/// `path` opened for appending, or stdout without one.
pub fn open_out(path: Option<&std::path::Path>) -> std::io::Result<Box<dyn Write + Send>> {
    Ok(match path {
        Some(path) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?,
        ),
        None => Box::new(std::io::stdout()),
    })
}

/// Plays games `first..first + games` on `threads` threads with `play` (a game's index to
/// its record: its text, ending in a newline, and how many positions it holds), writing
/// each record to `out` as its game ends, until all are played, Ctrl-C or a failed write.
pub fn play_games(
    tool: &str,
    first: u64,
    games: u64,
    threads: u64,
    out: Box<dyn Write + Send>,
    play: impl Fn(u64) -> (String, u64) + Sync,
) -> Written {
    let started = Instant::now();
    let next = AtomicU64::new(first);
    let sink = Mutex::new((out, 0u64, 0u64));
    let failed = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                if STOP.load(Ordering::SeqCst) || failed.load(Ordering::SeqCst) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= first + games {
                    return;
                }
                let (text, positions) = play(index);
                let mut guard = sink.lock().expect("no writer panics");
                let (out, done, written) = &mut *guard;
                // One write per record: an interrupted run keeps whole lines.
                if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    eprintln!("{tool}: writing a record: {e}");
                    failed.store(true, Ordering::SeqCst);
                    return;
                }
                *done += 1;
                *written += positions;
                let every = (games / 100).clamp(1, 50);
                if *done % every == 0 || *done == games {
                    let rate = *done as f64 / started.elapsed().as_secs_f64();
                    let eta = (games - *done) as f64 / rate;
                    eprintln!(
                        "{tool}: {done}/{games} games, {written} positions, \
                         {rate:.2} games/s, ETA {eta:.0} s"
                    );
                }
            });
        }
    });
    let (_, games, positions) = *sink.lock().expect("no writer panics");
    let failed = failed.load(Ordering::SeqCst);
    eprintln!(
        "{tool}: {games} games, {positions} positions in {:.1?}{}",
        started.elapsed(),
        if failed || STOP.load(Ordering::SeqCst) {
            " (stopped early)"
        } else {
            ""
        }
    );
    Written {
        games,
        positions,
        failed,
    }
}
