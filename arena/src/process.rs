//! A bot as a child process that can misbehave without stalling the arena.
//!
//! Each bot runs as `sh -c COMMAND` in its own process group, so that a bot that spawns
//! helpers is killed with all of them. Its stdout is read by a thread that cuts lines at
//! [`MAX_LINE`] bytes and stamps each with its arrival time (so two bots thinking at once
//! are timed fairly); its stdin is written by another thread (a bot that never reads
//! cannot block us); its stderr is drained to a file or discarded. At the end it is given
//! a moment to exit on its closed stdin, then killed, and reaped with `wait4` for its peak
//! memory.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

/// Longest answer line kept; the rest of a longer line is dropped (answers are tiny).
pub const MAX_LINE: usize = 1024;
/// Lines that may wait unread; a bot that floods stdout then blocks on its own writes.
const LINE_QUEUE: usize = 256;
/// How often a waiting arena checks whether the bot process is still alive.
const EXIT_POLL: Duration = Duration::from_millis(20);
/// How long a bot may take to exit on its own once its stdin is closed: long enough to
/// free a large tree, short enough not to slow a series down.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// What the stdout reader saw.
enum Event {
    Line {
        text: String,
        at: Instant,
        oversized: bool,
    },
    Closed,
}

/// One answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A line, `elapsed_us` microseconds after the request; `oversized` if it was cut at [`MAX_LINE`].
    Line {
        text: String,
        elapsed_us: u64,
        oversized: bool,
    },
    /// Nothing within the allowed time.
    Timeout,
    /// The bot closed its stdout or exited.
    Closed,
}

/// A running bot and the `> `/`< ` transcript of what it was sent and answered.
pub struct BotProcess {
    child: Child,
    stdin: Option<Sender<String>>,
    lines: Receiver<Event>,
    closed: bool,
    /// Set once the process has been reaped (by us or by `Child::try_wait`).
    reaped: bool,
    pub transcript: String,
}

impl BotProcess {
    /// Starts `sh -c command`; its stderr goes to `stderr_file` or nowhere.
    pub fn spawn(command: &str, stderr_file: Option<&Path>) -> io::Result<BotProcess> {
        let stderr = match stderr_file {
            Some(path) => Stdio::from(File::create(path)?),
            None => Stdio::null(),
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .process_group(0)
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        let (line_tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        thread::spawn(move || read_lines(stdout, line_tx));
        let (stdin_tx, stdin_rx) = mpsc::channel::<String>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for line in stdin_rx {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        Ok(BotProcess {
            child,
            stdin: Some(stdin_tx),
            lines,
            closed: false,
            reaped: false,
            transcript: String::new(),
        })
    }

    /// Sends one line (the newline is added) and records it as `> line`.
    pub fn send(&mut self, line: &str) {
        self.transcript.push_str("> ");
        self.transcript.push_str(line);
        self.transcript.push('\n');
        if let Some(tx) = &self.stdin {
            let _ = tx.send(format!("{line}\n"));
        }
    }

    /// Drops answers that arrived before a request (late answers to an earlier one), so
    /// they are not taken for the next answer; notes them in the transcript.
    pub fn discard_pending(&mut self) {
        while let Ok(event) = self.lines.try_recv() {
            match event {
                Event::Line { text, .. } => self
                    .transcript
                    .push_str(&format!("# discarded late line: {text}\n")),
                Event::Closed => self.closed = true,
            }
        }
    }

    /// Waits for the answer to a request sent at `sent`, for at most `allowed_ms` after it
    /// (a line that arrives is timed by its arrival, so a caller may wait for two bots in
    /// turn). Records the answer as `< line`.
    pub fn receive(&mut self, sent: Instant, allowed_ms: u64) -> Reply {
        if self.closed {
            return Reply::Closed;
        }
        let deadline = sent + Duration::from_millis(allowed_ms);
        // Wait in slices and watch the process too: a bot that exits while a child it
        // left behind keeps its stdout open never shows EOF, but it has still crashed.
        let event = loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait.min(EXIT_POLL)) {
                Ok(event) => break event,
                Err(RecvTimeoutError::Disconnected) => break Event::Closed,
                Err(RecvTimeoutError::Timeout) if wait <= EXIT_POLL => {
                    self.transcript.push_str("# no answer in time\n");
                    return Reply::Timeout;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Ok(Some(status)) = self.child.try_wait() {
                        self.reaped = true;
                        // A last answer may have arrived just before the exit.
                        match self.lines.try_recv() {
                            Ok(event) => break event,
                            Err(_) => {
                                self.transcript
                                    .push_str(&format!("# bot exited: {status}\n"));
                                break Event::Closed;
                            }
                        }
                    }
                }
            }
        };
        match event {
            Event::Line {
                text,
                at,
                oversized,
            } => {
                self.transcript.push_str("< ");
                self.transcript.push_str(&text);
                if oversized {
                    self.transcript.push_str(" [line cut]");
                }
                self.transcript.push('\n');
                let elapsed_us = at.saturating_duration_since(sent).as_micros() as u64;
                Reply::Line {
                    text,
                    elapsed_us,
                    oversized,
                }
            }
            Event::Closed => {
                self.closed = true;
                self.transcript.push_str("# bot closed its output\n");
                Reply::Closed
            }
        }
    }

    /// Whether the bot has closed its stdout.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Ends the bot: closes its stdin, waits up to [`EXIT_GRACE`] for it to exit, kills
    /// its whole process group and reaps it. Returns its peak resident memory in KiB (the
    /// largest of the process and the children it waited for, as `wait4` reports it), or
    /// `None` if it had already been reaped.
    pub fn kill(&mut self) -> Option<u64> {
        self.stdin = None;
        let pid = self.child.id() as libc::pid_t;
        let mut peak_kib = None;
        if !self.reaped {
            let grace_end = Instant::now() + EXIT_GRACE;
            while peak_kib.is_none() && Instant::now() < grace_end {
                peak_kib = reap(pid, libc::WNOHANG);
                if peak_kib.is_none() {
                    thread::sleep(Duration::from_millis(2));
                }
            }
        }
        // SAFETY: kill(2) with a negative pid signals the process group we created for
        // this bot (process_group(0) made its pgid equal to its pid), which takes any
        // helpers it left behind too; no memory involved.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        if !self.reaped && peak_kib.is_none() {
            peak_kib = reap(pid, 0);
        }
        self.reaped = true;
        peak_kib
    }
}

/// Reaps `pid` with `wait4(2)` and returns its peak RSS in KiB; `None` if it has not
/// exited (with `WNOHANG`) or cannot be waited for.
fn reap(pid: libc::pid_t, flags: libc::c_int) -> Option<u64> {
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes only into the two locals passed by pointer; `pid` is our own
    // child, not yet reaped (the caller checks), so no other process can be waited for.
    let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
    (reaped == pid).then(|| usage.ru_maxrss.max(0) as u64)
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill();
        }
    }
}

/// Splits stdout into lines of at most [`MAX_LINE`] bytes; skips blank lines.
fn read_lines(mut stdout: impl Read, tx: SyncSender<Event>) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    loop {
        let n = match stdout.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty() || oversized {
                    let event = Event::Line {
                        text,
                        at: Instant::now(),
                        oversized,
                    };
                    if tx.send(event).is_err() {
                        return;
                    }
                }
                line.clear();
                oversized = false;
            } else if line.len() < MAX_LINE {
                line.push(b);
            } else {
                oversized = true;
            }
        }
    }
    let _ = tx.send(Event::Closed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<(String, bool)> {
        let (tx, rx) = mpsc::sync_channel(LINE_QUEUE);
        read_lines(bytes, tx);
        let mut out = Vec::new();
        for event in rx {
            match event {
                Event::Line {
                    text, oversized, ..
                } => out.push((text, oversized)),
                Event::Closed => out.push(("<closed>".into(), false)),
            }
        }
        out
    }

    #[test]
    fn splits_trims_skips_blanks_and_cuts_long_lines() {
        let mut input = b"place_move 4 4\r\n\n  up \n".to_vec();
        input.extend(std::iter::repeat(b'x').take(3 * MAX_LINE));
        input.extend(b"\nlast without newline");
        let got = lines_of(&input);
        assert_eq!(got[0], ("place_move 4 4".to_string(), false));
        assert_eq!(got[1], ("up".to_string(), false));
        assert_eq!(got[2].0.len(), MAX_LINE);
        assert!(got[2].1, "cut lines are flagged");
        assert_eq!(
            got[3].0, "<closed>",
            "a line without newline is not an answer"
        );
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn a_silent_bot_times_out_and_a_dead_one_is_closed() {
        let mut bot = BotProcess::spawn("read line; echo got $line; exit 0", None).unwrap();
        let sent = Instant::now();
        assert_eq!(bot.receive(sent, 50), Reply::Timeout);
        bot.send("hello");
        match bot.receive(Instant::now(), 5000) {
            Reply::Line { text, .. } => assert_eq!(text, "got hello"),
            other => panic!("{other:?}"),
        }
        assert_eq!(bot.receive(Instant::now(), 5000), Reply::Closed);
        assert!(bot.is_closed());
        assert!(bot
            .transcript
            .starts_with("# no answer in time\n> hello\n< got hello\n"));
    }
}
