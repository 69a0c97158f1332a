//! CodinGame's line protocol (written down in `protocol/codingame/README.md`): each turn's input
//! is lines of integers, and the answer is one line. This module holds what both games
//! share (the lines, the clock, telling CodinGame apart) and knows no game: each game's
//! lines and answers live with the game (`uttt::codingame`, `tron::codingame`), so that
//! each game's one-file build takes only its own.

use std::fmt;
use std::io::{self, BufRead};
use std::time::Instant;

/// CodinGame's time for a player's first turn and for every later one (both games).
pub const FIRST_TURN_MS: u64 = 1000;
pub const TURN_MS: u64 = 100;
/// Kept back from a turn's time by default: the referee counts from sending the input
/// to reading the answer.
pub const SAFETY_MS: u64 = 10;

/// A turn's search target and hard stop in ms from the input's arrival: the turn's time
/// less twice and once the margin, which is `margin_ms` but at least a tenth of the turn
/// (on a loaded machine the first turn's long search was seen to end 20 ms late).
pub fn turn_deadlines(first_turn: bool, margin_ms: u64) -> (u64, u64) {
    let turn_ms = if first_turn { FIRST_TURN_MS } else { TURN_MS };
    let margin = margin_ms.max(turn_ms / 10);
    (
        turn_ms.saturating_sub(2 * margin),
        turn_ms.saturating_sub(margin),
    )
}

/// Where a CodinGame player's lines come from: any reader, or lines a thread reads and
/// stamps on arrival (the bot's `--ponder`, which searches while none is waiting).
pub trait LineSource {
    /// The next line and the moment it arrived; `None` once the input ends.
    fn next_stamped(&mut self) -> io::Result<Option<(String, Instant)>>;

    /// Whether the next line is already here (or the input has ended), so that reading
    /// it would not wait. A plain reader cannot tell, and says yes: nothing searches on
    /// the opponent's time.
    fn line_waiting(&mut self) -> bool {
        true
    }
}

impl<R: BufRead> LineSource for R {
    fn next_stamped(&mut self) -> io::Result<Option<(String, Instant)>> {
        let mut line = String::new();
        Ok((self.read_line(&mut line)? > 0).then(|| (line, Instant::now())))
    }
}

/// A CodinGame player's input, turn by turn: each turn's first line with the moment it
/// arrived (the turn's clock starts then), then the turn's other lines. The game's first
/// line may already have been read, to tell the protocol and the game apart.
pub struct TurnLines<R> {
    input: R,
    pending: Option<(String, Instant)>,
}

impl<R: LineSource> TurnLines<R> {
    /// The input after its first line `first`, which arrived at `received`.
    pub fn new(first: String, received: Instant, input: R) -> Self {
        TurnLines {
            input,
            pending: Some((first, received)),
        }
    }

    /// The next turn's first line and its arrival, blank lines skipped; `None` once the
    /// input ends.
    pub fn next_turn(&mut self) -> io::Result<Option<(String, Instant)>> {
        loop {
            let turn = match self.pending.take() {
                Some(first) => first,
                None => match self.input.next_stamped()? {
                    Some(line) => line,
                    None => return Ok(None),
                },
            };
            if !turn.0.trim().is_empty() {
                return Ok(Some(turn));
            }
        }
    }

    /// The next line of the turn; `None` once the input ends.
    pub fn next_line(&mut self) -> io::Result<Option<String>> {
        Ok(self.input.next_stamped()?.map(|(line, _)| line))
    }

    /// Whether the next turn's input is already here ([`LineSource::line_waiting`]).
    pub fn line_waiting(&mut self) -> bool {
        self.pending.is_some() || self.input.line_waiting()
    }
}

/// Why a CodinGame line is not the one the turn needs; `what` names the line (`a rider`;
/// empty: unnamed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    NotIntegers {
        what: &'static str,
        line: String,
    },
    Count {
        what: &'static str,
        count: usize,
        got: usize,
        line: String,
    },
    /// A cell off the `board` (`board`, `30x20 grid`).
    OffBoard {
        what: &'static str,
        x: i32,
        y: i32,
        board: &'static str,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LineError::NotIntegers { what, line } => {
                if !what.is_empty() {
                    write!(f, "{what}: ")?;
                }
                write!(f, "expected integers separated by spaces, got {line:?}")
            }
            LineError::Count {
                what,
                count,
                got,
                line,
            } => write!(
                f,
                "{what}: expected {count} integers, got {got} in {line:?}"
            ),
            LineError::OffBoard { what, x, y, board } => {
                write!(f, "{what}: {x} {y} is off the {board}")
            }
        }
    }
}

impl std::error::Error for LineError {}

/// The integers of one line, separated by spaces or tabs; an error names the line.
///
/// `str::parse` rather than nom: this module goes into the one-file CodinGame build,
/// which compiles without crates, and a line of integers needs no grammar.
pub fn parse_integers(line: &str) -> Result<Vec<i32>, LineError> {
    let trimmed = line.trim_end_matches(['\r', '\n']);
    let numbers: Result<Vec<i32>, _> = trimmed
        .split([' ', '\t'])
        .filter(|word| !word.is_empty())
        .map(str::parse)
        .collect();
    match numbers {
        Ok(numbers) if !numbers.is_empty() => Ok(numbers),
        _ => Err(LineError::NotIntegers {
            what: "",
            line: trimmed.to_string(),
        }),
    }
}

/// Exactly `count` integers, or an error that says what `what` should have been.
pub fn parse_exactly(line: &str, count: usize, what: &'static str) -> Result<Vec<i32>, LineError> {
    let numbers = parse_integers(line).map_err(|e| match e {
        LineError::NotIntegers { line, .. } => LineError::NotIntegers { what, line },
        e => e,
    })?;
    if numbers.len() == count {
        Ok(numbers)
    } else {
        Err(LineError::Count {
            what,
            count,
            got: numbers.len(),
            line: line.trim_end().to_string(),
        })
    }
}

/// Whether `line` looks like the first line of a CodinGame game (UTTT or Tron Battle):
/// two integers (the engines of TheAIGames and riddles.io start every line with a word).
pub fn looks_like_codingame(line: &str) -> bool {
    parse_integers(line).is_ok_and(|numbers| numbers.len() == 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_integers_parse_and_anything_else_is_an_error() {
        assert_eq!(parse_integers("-1 -1"), Ok(vec![-1, -1]));
        assert_eq!(parse_integers("4 5\r\n"), Ok(vec![4, 5]));
        assert_eq!(parse_integers("81"), Ok(vec![81]));
        for bad in ["", "a b", "1,2", "1 2x", "--1 2", "settings timebank 10000"] {
            assert!(parse_integers(bad).is_err(), "{bad:?}");
        }
        let err = parse_exactly("1 2 3", 2, "a move").unwrap_err();
        assert_eq!(
            err.to_string(),
            "a move: expected 2 integers, got 3 in \"1 2 3\""
        );
        let err = parse_exactly("1 x\r\n", 2, "a move").unwrap_err();
        let line = "\"1 x\"";
        assert_eq!(
            err.to_string(),
            format!("a move: expected integers separated by spaces, got {line}")
        );
    }

    #[test]
    fn turns_keep_a_tenth_of_their_time_or_the_margin_back() {
        assert_eq!(turn_deadlines(true, SAFETY_MS), (800, 900));
        assert_eq!(turn_deadlines(false, SAFETY_MS), (80, 90));
        assert_eq!(turn_deadlines(false, 40), (20, 60));
        assert_eq!(turn_deadlines(false, 80), (0, 20));
    }

    #[test]
    fn turns_start_at_their_first_line_and_blank_lines_are_skipped() {
        let start = Instant::now();
        let mut lines = TurnLines::new("\n".into(), start, "\n1 2\n3\n\n4 5\n".as_bytes());
        let (first, _) = lines.next_turn().unwrap().unwrap();
        assert_eq!(first, "1 2\n");
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("3\n"));
        let (second, arrived) = lines.next_turn().unwrap().unwrap();
        assert_eq!(second, "4 5\n");
        assert!(arrived >= start);
        assert_eq!(lines.next_turn().unwrap(), None);
        assert_eq!(lines.next_line().unwrap(), None);
        let mut kept = TurnLines::new("7 8\n".into(), start, "".as_bytes());
        assert_eq!(kept.next_turn().unwrap(), Some(("7 8\n".into(), start)));
    }

    #[test]
    fn codingame_is_recognised_by_its_first_line_and_tron_battle_by_its_second() {
        assert!(looks_like_codingame("-1 -1\n"));
        assert!(looks_like_codingame("3 4"));
        assert!(!looks_like_codingame("settings timebank 10000"));
        assert!(!looks_like_codingame("81"));
    }
}
