//! The input read by a thread, each line stamped on arrival, so that the bot can search
//! on the opponent's time (`--ponder`) and still see at once that a line is waiting.

use crate::protocol::codingame::LineSource;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Instant;

/// A line as read (lossily decoded by whoever reads it) and when it arrived.
pub type Stamped = (Vec<u8>, Instant);

/// The lines a reader thread has stamped, taken one by one.
pub struct Arrivals {
    lines: Receiver<Stamped>,
    /// A line seen waiting and not yet taken.
    next: Option<Stamped>,
}

impl Arrivals {
    /// Starts a thread in `scope` that reads `input` line by line; it ends with the input
    /// (or once these arrivals are dropped and a line comes).
    pub fn spawn<'scope, R>(
        scope: &'scope Scope<'scope, '_>,
        mut input: R,
    ) -> (Self, ScopedJoinHandle<'scope, io::Result<()>>)
    where
        R: BufRead + Send + 'scope,
    {
        let (sender, lines) = mpsc::channel();
        let reader = scope.spawn(move || loop {
            let mut buffer = Vec::new();
            if input.read_until(b'\n', &mut buffer)? == 0
                || sender.send((buffer, Instant::now())).is_err()
            {
                return Ok(());
            }
        });
        (Arrivals { lines, next: None }, reader)
    }

    /// Whether a line is here, or the input has ended: [`Arrivals::take`] would not wait.
    pub fn waiting(&mut self) -> bool {
        if self.next.is_some() {
            return true;
        }
        match self.lines.try_recv() {
            Ok(line) => {
                self.next = Some(line);
                true
            }
            Err(TryRecvError::Empty) => false,
            Err(TryRecvError::Disconnected) => true,
        }
    }

    /// The next line, waiting for it; `None` once the input has ended.
    pub fn take(&mut self) -> Option<Stamped> {
        self.next.take().or_else(|| self.lines.recv().ok())
    }
}

impl LineSource for Arrivals {
    fn next_stamped(&mut self) -> io::Result<Option<(String, Instant)>> {
        Ok(self
            .take()
            .map(|(line, at)| (String::from_utf8_lossy(&line).into_owned(), at)))
    }

    fn line_waiting(&mut self) -> bool {
        self.waiting()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn lines_arrive_in_order_stamped_and_the_end_is_seen() {
        std::thread::scope(|scope| {
            let (mut arrivals, reader) = Arrivals::spawn(scope, "one\ntwo\n".as_bytes());
            let before = Instant::now();
            let (first, at) = arrivals.next_stamped().unwrap().unwrap();
            assert_eq!(first, "one\n");
            assert!(at <= Instant::now() && at + Duration::from_secs(5) > before);
            // The reader runs on: the second line is soon waiting without a wait to read it.
            while !arrivals.line_waiting() {
                std::thread::yield_now();
            }
            assert_eq!(arrivals.next_stamped().unwrap().unwrap().0, "two\n");
            reader.join().unwrap().unwrap();
            // The input has ended: reading would not wait, and finds nothing.
            assert!(arrivals.line_waiting());
            assert!(arrivals.next_stamped().unwrap().is_none());
        });
    }

    #[cfg(unix)]
    #[test]
    fn nothing_is_waiting_while_the_input_is_open_and_silent() {
        let (writer, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        std::thread::scope(|scope| {
            let (mut arrivals, thread) = Arrivals::spawn(scope, io::BufReader::new(reader));
            std::thread::sleep(Duration::from_millis(20));
            assert!(!arrivals.line_waiting());
            io::Write::write_all(&mut &writer, b"late\n").unwrap();
            assert_eq!(arrivals.next_stamped().unwrap().unwrap().0, "late\n");
            drop(writer);
            thread.join().unwrap().unwrap();
        });
    }
}
