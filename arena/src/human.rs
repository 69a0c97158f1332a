//! A person's seat: `arena play` sets a person against any bot in the terminal, UTTT or
//! Light Riders, refereed and recorded like any other game (its page can be viewed).
//!
//! The person sits behind `arena seat`, a bot process like any other: it speaks the
//! engine protocol on stdin/stdout, shows the position and the legal moves, and asks for
//! a move until it gets a legal one (a typo costs nothing). The arena runs bots in
//! process groups of their own, which may not read the terminal, so `arena play` relays:
//! what the person types reaches the seat through one FIFO, what the seat shows comes
//! back through another.

use crate::cli::{Cli, PlayArgs, SeatArgs};
use crate::game::{GameRecord, Winner};
use crate::options::Referee;
use crate::replay::Game;
use mctsbot::protocol::{parse_command, Command, GameUpdate, Setting, Token};
use mctsbot::tron::{parse_tron_answer, Direction, TronState};
use mctsbot::uttt::{detect_dialect, empty_token, Board, Dialect, Move};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// A person's clock when none is asked: a day for every move.
const UNTIMED_MS: u64 = 86_400_000;

/// `arena play`: one game between the person and the bot; the exit code.
pub fn run_play(args: &PlayArgs) -> i32 {
    match play(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arena play: {e}");
            2
        }
    }
}

fn play(args: &PlayArgs) -> Result<(), String> {
    let game = Referee::from_name(&args.game)
        .filter(|referee| !referee.is_codingame())
        .ok_or(format!("--game {}: a person plays uttt or tron", args.game))?;
    let seat_game = if game == Referee::UTTT {
        "uttt"
    } else {
        "tron"
    };
    let fifos = Fifos::make()?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find arena itself: {e}"))?;
    let clock = args.your_clock.clone().unwrap_or(format!("{UNTIMED_MS}+0"));
    let seat = format!(
        "name=you tc={clock} cmd={} seat --game {seat_game} --input {} --output {}{}",
        quote(&exe.display().to_string()),
        quote(&fifos.input.display().to_string()),
        quote(&fifos.output.display().to_string()),
        if args.your_clock.is_none() {
            " --untimed"
        } else {
            ""
        }
    );
    let out = args.out.clone().unwrap_or_else(|| {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        PathBuf::from(format!("arena-play/game-{secs}"))
    });
    let argv = series_argv(args, seat_game, seat, &out);
    let cli = <Cli as clap::Parser>::try_parse_from(&argv).map_err(|e| e.to_string())?;
    let opts = crate::cli::series(cli.series)?;
    fifos.relay();
    println!(
        "You are {} against {:?}. Type a move when asked; `help` says how.",
        if args.you == "first" {
            "A (player 0), moving first"
        } else {
            "B (player 1), moving second"
        },
        args.bot
    );
    let (opts, records) = crate::play_series(&opts)?;
    let record = records.first().ok_or("the game was not played")?;
    crate::series::write_out(&out, &opts, &records)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let you = if args.you == "first" { 0 } else { 1 };
    print_result(game, record, you, &out);
    Ok(())
}

/// The arena's command line for the one game: the person's `seat` and the bot, in the
/// order `--you` says, recorded in `out`.
fn series_argv(args: &PlayArgs, seat_game: &str, seat: String, out: &Path) -> Vec<String> {
    let bot = format!("name=bot cmd={}", args.bot);
    let mut argv: Vec<String> = ["arena", "--game", seat_game, "--games", "1", "-j", "1"]
        .map(String::from)
        .to_vec();
    argv.extend(["--out".into(), out.display().to_string()]);
    let engines = if args.you == "first" {
        [seat, bot]
    } else {
        [bot, seat]
    };
    for engine in engines {
        argv.extend(["--engine".into(), engine]);
    }
    let optional = [
        ("--timebank", args.timebank.map(|v| v.to_string())),
        ("--time-per-move", args.time_per_move.map(|v| v.to_string())),
        ("--map", args.map.clone()),
        ("--seed", args.seed.map(|v| v.to_string())),
    ];
    for (flag, value) in optional {
        if let Some(value) = value {
            argv.extend([flag.to_string(), value]);
        }
    }
    argv
}

/// The final position, who won (`you`: the person's side) and where the game is recorded.
fn print_result(game: Referee, record: &GameRecord, you: usize, out: &Path) {
    println!("\n{}", final_position(game, record, out));
    println!(
        "{}: {}",
        match record.winner {
            Winner::Draw => "A draw".to_string(),
            w if w == [Winner::A, Winner::B][you] => "You won".to_string(),
            _ => "The bot won".to_string(),
        },
        record.reason
    );
    println!(
        "Recorded in {}; watch it again: {}",
        out.display(),
        out.join(crate::view::VIEW_DIR)
            .join(crate::view::page_name(record.index))
            .display()
    );
}

/// The position the game ended in, as a picture.
fn final_position(game: Referee, record: &GameRecord, dir: &Path) -> String {
    if game == Referee::UTTT {
        let mut board = Board::new();
        match crate::openings::parse_game_line(&record.line, board.end_rule()) {
            Ok(moves) => moves.into_iter().for_each(|mv| board.play_move(mv)),
            Err(e) => return format!("(the last position cannot be shown: {e})"),
        }
        return render_uttt(&board);
    }
    match Game::from_record(record, dir, ["A".into(), "B".into()]) {
        Ok(game) => game
            .positions()
            .last()
            .map(TronState::render)
            .unwrap_or_default(),
        Err(e) => format!("(the last position cannot be shown: {e})"),
    }
}

/// `text` quoted for `sh -c`.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The two FIFOs between `arena play` and its seat, in a folder of their own.
struct Fifos {
    dir: PathBuf,
    input: PathBuf,
    output: PathBuf,
}

impl Fifos {
    fn make() -> Result<Fifos, String> {
        let dir = std::env::temp_dir().join(format!("arena-play-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let fifos = Fifos {
            input: dir.join("input"),
            output: dir.join("output"),
            dir,
        };
        for path in [&fifos.input, &fifos.output] {
            let _ = std::fs::remove_file(path);
            let name = std::ffi::CString::new(path.display().to_string())
                .map_err(|_| format!("a NUL in {}", path.display()))?;
            // SAFETY: a valid C string and a mode; mkfifo touches nothing else.
            if unsafe { libc::mkfifo(name.as_ptr(), 0o600) } != 0 {
                return Err(format!(
                    "cannot make the FIFO {}: {}",
                    path.display(),
                    std::io::Error::last_os_error()
                ));
            }
        }
        Ok(fifos)
    }

    /// Copies what the person types into the seat's input and what the seat shows to
    /// stdout, each in a thread of its own (each blocks until the seat opens its end).
    fn relay(&self) {
        let (input, output) = (self.input.clone(), self.output.clone());
        std::thread::spawn(move || {
            let Ok(mut fifo) = std::fs::OpenOptions::new().write(true).open(&input) else {
                return;
            };
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if writeln!(fifo, "{line}")
                    .and_then(|()| fifo.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        std::thread::spawn(move || {
            let Ok(mut fifo) = std::fs::File::open(&output) else {
                return;
            };
            // Flushed at every read: a prompt has no newline to flush it.
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = std::io::Read::read(&mut fifo, &mut chunk) {
                let mut out = std::io::stdout().lock();
                if out
                    .write_all(&chunk[..n])
                    .and_then(|()| out.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
    }
}

impl Drop for Fifos {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `arena seat`: the person's side of the engine protocol; the exit code (0 also when
/// the person resigns or their input ends, which ends the game as a crash would).
pub fn run_seat(args: &SeatArgs) -> i32 {
    let opened = std::fs::File::open(&args.input).and_then(|input| {
        let output = std::fs::OpenOptions::new().write(true).open(&args.output)?;
        Ok((input, output))
    });
    let (input, output) = match opened {
        Ok(files) => files,
        Err(e) => {
            eprintln!("arena seat: cannot open the person's input or output: {e}");
            return 2;
        }
    };
    let mut person = Person {
        entries: BufReader::new(input),
        screen: output,
    };
    let mut seat = SeatState {
        untimed: args.untimed,
        ..SeatState::default()
    };
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let command = match parse_command(&line) {
            Ok(command) => command,
            Err(e) => {
                eprintln!("arena seat: {e}");
                continue;
            }
        };
        let answer = match command {
            Command::ActionMove { timebank_ms } => match args.game.as_str() {
                "uttt" => seat.ask_uttt(&mut person, timebank_ms),
                _ => seat.ask_tron(&mut person, timebank_ms),
            },
            other => {
                seat.update(other);
                continue;
            }
        };
        let Some(answer) = answer else {
            person.say("You resigned (or your input ended): the game is over.");
            return 0;
        };
        let mut out = stdout.lock();
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return 1;
        }
    }
    0
}

/// The person: entries in, the board and prompts out.
struct Person {
    entries: BufReader<std::fs::File>,
    screen: std::fs::File,
}

impl Person {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.screen, "{text}");
        let _ = self.screen.flush();
    }

    /// The next entry, trimmed; none when the input ended.
    fn entry(&mut self, prompt: &str) -> Option<String> {
        let _ = write!(self.screen, "{prompt}");
        let _ = self.screen.flush();
        let mut line = String::new();
        match self.entries.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    }
}

/// What the engine has told the seat.
#[derive(Default)]
struct SeatState {
    untimed: bool,
    me: Option<u8>,
    width: Option<usize>,
    height: Option<usize>,
    field: Vec<Token>,
    macroboard: Vec<Token>,
    /// The field when the person last moved: the bot's move is what changed since.
    before: Vec<Token>,
}

/// What a person may type besides a move.
enum Word {
    Help,
    Moves,
    Quit,
}

fn word(entry: &str) -> Option<Word> {
    match entry.to_ascii_lowercase().as_str() {
        "help" | "h" | "?" => Some(Word::Help),
        "moves" | "m" => Some(Word::Moves),
        "quit" | "resign" | "q" => Some(Word::Quit),
        _ => None,
    }
}

impl SeatState {
    fn update(&mut self, command: Command) {
        match command {
            Command::Settings(Setting::YourBotId(id)) => self.me = Some(id),
            Command::Settings(Setting::FieldWidth(w)) => self.width = Some(w as usize),
            Command::Settings(Setting::FieldHeight(h)) => self.height = Some(h as usize),
            Command::UpdateGame(GameUpdate::Field(field)) => self.field = field,
            Command::UpdateGame(GameUpdate::Macroboard(m)) => self.macroboard = m,
            _ => {}
        }
    }

    fn clock(&self, bank_ms: u64) -> String {
        if self.untimed {
            "you play untimed".into()
        } else {
            format!("your timebank: {:.1} s", bank_ms as f64 / 1000.0)
        }
    }

    fn ask_uttt(&mut self, person: &mut Person, bank_ms: u64) -> Option<String> {
        let hint = self.me.and_then(Dialect::from_bot_id);
        let dialect = detect_dialect(&self.field, &self.macroboard, hint);
        let board = match Board::from_engine(&self.field, &self.macroboard, dialect) {
            Ok(board) => board,
            Err(e) => {
                person.say(&format!("The engine sent a position I cannot read ({e})."));
                Board::new()
            }
        };
        let legal: Vec<Move> = (0..81)
            .filter_map(Move::from_field_index)
            .filter(|&mv| board.is_legal(mv))
            .collect();
        // The bot's last move: the mark that was not on the field after ours.
        let empty = empty_token(dialect);
        let theirs = (0..self.field.len())
            .find(|&i| self.field[i] != empty && self.before.get(i).map_or(true, |b| *b == empty));
        let mark = if board.turn() == 0 { 'X' } else { 'O' };
        let mut text = format!("\n{}", render_uttt(&board));
        if let Some(i) = theirs {
            let _ = write!(text, "\nThe bot played {} {}.", i % 9, i / 9);
        }
        let _ = write!(text, "\nYou are {mark}; {}.", self.clock(bank_ms));
        person.say(&text);
        loop {
            let entry = person.entry("Your move (column row, e.g. 4 4): ")?;
            match word(&entry) {
                Some(Word::Quit) => return None,
                Some(Word::Help) => person.say(
                    "Type the column and the row of a cell, each 0 to 8 (as the axes show), \
                     e.g. `4 4` or `4,4`; `*` marks the cells you may play. `moves` lists \
                     them, `quit` resigns.",
                ),
                Some(Word::Moves) => person.say(&format!("Legal: {}", list_moves(&legal))),
                None => match parse_cell(&entry) {
                    None => person.say(&format!(
                        "{entry:?} is not a move: type a column and a row, each 0 to 8, \
                         such as `4 4` (or `help`)."
                    )),
                    Some(mv) if !legal.contains(&mv) => {
                        let (x, y) = mv.xy();
                        let why = if board.owner(mv).is_some() {
                            "that cell is taken"
                        } else {
                            "its small board is not open to this move"
                        };
                        person.say(&format!(
                            "{x} {y} is not legal: {why}. Legal: {}",
                            list_moves(&legal)
                        ));
                    }
                    Some(mv) => {
                        let (x, y) = mv.xy();
                        self.before = self.field.clone();
                        if let Some(i) = self.before.get_mut(y as usize * 9 + x as usize) {
                            *i = Token::Number(dialect.engine_id(board.turn()) as i8);
                        }
                        return Some(mctsbot::uttt::format_place_move(x, y));
                    }
                },
            }
        }
    }

    fn ask_tron(&mut self, person: &mut Person, bank_ms: u64) -> Option<String> {
        let state = match (self.width, self.height) {
            (Some(w), Some(h)) => TronState::from_engine(w, h, &self.field),
            _ => TronState::from_square_field(&self.field),
        };
        let me = self.me.unwrap_or(0);
        let state = match state {
            Ok(state) => state,
            Err(e) => {
                person.say(&format!("The engine sent a position I cannot read ({e})."));
                return Some("up".into());
            }
        };
        let safe = state.safe_moves(me);
        let safe_words: Vec<&str> = Direction::ALL
            .into_iter()
            .filter(|&d| safe.contains(d))
            .map(direction_word)
            .collect();
        person.say(&format!(
            "\n{}\nYou are rider {me} (the bot is {}); {}. Safe: {}.",
            state.render(),
            1 - me,
            self.clock(bank_ms),
            if safe_words.is_empty() {
                "none: every way crashes".to_string()
            } else {
                safe_words.join(", ")
            }
        ));
        let mut confirming: Option<Direction> = None;
        loop {
            let entry = person.entry("Your move (up, down, left, right or u d l r): ")?;
            match word(&entry) {
                Some(Word::Quit) => return None,
                Some(Word::Help) => person.say(
                    "Type a direction: up, down, left or right (or u, d, l, r; w a s d). \
                     Rows count down from the top. `moves` lists the safe ones, `quit` \
                     resigns.",
                ),
                Some(Word::Moves) => person.say(&format!("Safe: {}", safe_words.join(", "))),
                None => match parse_direction(&entry) {
                    None => person.say(&format!(
                        "{entry:?} is not a direction: type up, down, left or right (or `help`)."
                    )),
                    Some(d) if !safe.contains(d) && !safe.is_empty() && confirming != Some(d) => {
                        confirming = Some(d);
                        person.say(&format!(
                            "{} crashes at once. Type it again to crash anyway, or another way.",
                            direction_word(d)
                        ));
                    }
                    Some(d) => {
                        let answer = direction_word(d);
                        debug_assert!(parse_tron_answer(answer).is_some());
                        return Some(answer.to_string());
                    }
                },
            }
        }
    }
}

/// `4 4`, `4,4` or `place_move 4 4`.
fn parse_cell(entry: &str) -> Option<Move> {
    let entry = entry.strip_prefix("place_move").unwrap_or(entry);
    let words: Vec<&str> = entry
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    match words[..] {
        [c, r] => Move::from_xy(c.parse().ok()?, r.parse().ok()?),
        _ => None,
    }
}

fn list_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|mv| {
            let (x, y) = mv.xy();
            format!("{x},{y}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_direction(entry: &str) -> Option<Direction> {
    match entry.to_ascii_lowercase().as_str() {
        "up" | "u" | "w" => Some(Direction::Up),
        "down" | "d" | "s" => Some(Direction::Down),
        "left" | "l" | "a" => Some(Direction::Left),
        "right" | "r" => Some(Direction::Right),
        _ => None,
    }
}

fn direction_word(d: Direction) -> &'static str {
    match d {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// The board with its axes: `X`, `O`, `*` a cell the player to move may play.
pub fn render_uttt(board: &Board) -> String {
    let mut out = String::from("    0 1 2   3 4 5   6 7 8\n");
    for (row, line) in board.render().lines().enumerate() {
        if row < 11 {
            let label = match row {
                3 | 7 => "  ".to_string(),
                _ => {
                    let r = row - row / 4;
                    format!("{r} ")
                }
            };
            let _ = writeln!(out, "{label}  {line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_as_column_and_row() {
        assert_eq!(parse_cell("4 4"), Move::from_xy(4, 4));
        assert_eq!(parse_cell(" 3,5 "), Move::from_xy(3, 5));
        assert_eq!(parse_cell("place_move 8 0"), Move::from_xy(8, 0));
        for bad in ["", "4", "4 4 4", "9 0", "a b", "-1 2", "44"] {
            assert_eq!(parse_cell(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn directions_take_words_letters_and_wasd() {
        assert_eq!(parse_direction("UP"), Some(Direction::Up));
        assert_eq!(parse_direction("l"), Some(Direction::Left));
        assert_eq!(parse_direction("s"), Some(Direction::Down));
        assert_eq!(parse_direction("north"), None);
    }

    #[test]
    fn the_uttt_picture_has_both_axes() {
        let text = render_uttt(&Board::new());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0].trim(), "0 1 2   3 4 5   6 7 8");
        // Nine rows labelled 0..8 and two separators.
        let labels: Vec<&str> = lines[1..12]
            .iter()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.len() == 1 && w.as_bytes()[0].is_ascii_digit())
            .collect();
        assert_eq!(labels, ["0", "1", "2", "3", "4", "5", "6", "7", "8"]);
    }
}
