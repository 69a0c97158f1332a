//! What every game of a series shares: its setup, the two seats (bot process, timebank,
//! fault counts) and the record it leaves. The rules themselves live in the game modules.

use super::maps::Map;
use super::openings::Opening;
use super::options::{Clock, Options};
use super::process::{BotProcess, Reply};
use super::timebank::Timebank;
use mctsbot::game::Player;
use mctsbot::protocol::Command;
use std::path::PathBuf;
use std::time::Instant;

/// Bot A or bot B of the series (index 0 = A); in a free-for-all, engines C and D too.
pub type Side = usize;

/// The letter a side goes by in tables, labels and file names.
pub fn side_name(side: Side) -> &'static str {
    ["A", "B", "C", "D"][side]
}

/// The side at engine player (or Tron Battle seat) `player` when A sits at `a_player`:
/// the sides in order A, B, ... from A's seat on, wrapping round. With two sides, A has
/// the seats of `a_player`'s parity; turning `a_player` game by game puts every side in
/// every seat equally often.
pub fn side_at(player: usize, a_player: Player, sides: usize) -> Side {
    (player + sides - a_player as usize % sides) % sides
}

/// The seat of `side` in a game of `sides` riders (one each) where A sits at `a_player`.
pub fn seat_of(side: Side, a_player: Player, sides: usize) -> usize {
    (side + a_player as usize) % sides
}

/// How a game ended, from the series' point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    A,
    B,
    /// A free-for-all's third or fourth engine.
    C,
    D,
    Draw,
}

impl Winner {
    /// The win of `side`.
    pub fn of_side(side: Side) -> Winner {
        [Winner::A, Winner::B, Winner::C, Winner::D][side]
    }

    /// A's points in halves: 2 for a win, 1 for a draw.
    pub fn half_points(self) -> u32 {
        match self {
            Winner::A => 2,
            Winner::Draw => 1,
            Winner::B | Winner::C | Winner::D => 0,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Winner::A => "A",
            Winner::B => "B",
            Winner::C => "C",
            Winner::D => "D",
            Winner::Draw => "draw",
        }
    }

    /// Reads [`Winner::as_str`] back.
    pub fn parse(text: &str) -> Option<Winner> {
        ["A", "B", "C", "D", "draw"]
            .iter()
            .position(|&w| w == text)
            .map(|k| [Winner::A, Winner::B, Winner::C, Winner::D, Winner::Draw][k])
    }
}

/// Faults and time of one side in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Answers that came later than the timebank allowed (or never).
    pub timeouts: u32,
    /// Answers that were unparsable, oversized, illegal moves or reversals.
    pub illegal: u32,
    /// 1 if the bot exited or closed its output during the game.
    pub crashes: u32,
    /// Requests answered or timed out, and the microseconds they took.
    pub answers: u32,
    pub time_us: u64,
    /// Peak resident memory of the bot process in KiB (0 if unknown); over several
    /// games, the largest.
    pub peak_rss_kib: u64,
}

impl SideStats {
    pub fn add(&mut self, o: &SideStats) {
        self.timeouts += o.timeouts;
        self.illegal += o.illegal;
        self.crashes += o.crashes;
        self.answers += o.answers;
        self.time_us += o.time_us;
        self.peak_rss_kib = self.peak_rss_kib.max(o.peak_rss_kib);
    }
}

/// Where a side's stderr goes, relative to `--out`; `suffix` tells a side's seats apart
/// (Tron Battle's `_riderR`).
pub fn stderr_name(index: usize, side: usize, suffix: &str) -> String {
    format!("stderr/game_{index:04}_{}{suffix}.txt", side_name(side))
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: usize,
    pub map: String,
    /// The engine's player index (0 = moves first / start `0`) that bot A had (in a
    /// free-for-all, A's seat: the others follow in order, [`side_at`]).
    pub a_player: Player,
    pub winner: Winner,
    /// The opening the arena played before the bots (file format), or empty.
    pub opening: String,
    /// Plies (UTTT) or rounds (Light Riders) played, the opening's included.
    pub moves: u32,
    /// The moves, the opening's included, in the openings file's notation (UTTT
    /// `column,row` plies, Light Riders rounds such as `rl`; Tron Battle turns as each
    /// rider's `u`/`d`/`l`/`r`, `x` for one put out), space-separated.
    pub line: String,
    pub reason: String,
    pub wall_ms: u64,
    /// Per side (A, B; a free-for-all's C and D too).
    pub stats: Vec<SideStats>,
    /// Per side: `> ` sent / `< ` answered, as in the real engines' transcripts.
    pub transcripts: Vec<String>,
    /// A free-for-all: each side's place (1 = won); empty otherwise.
    pub places: Vec<u32>,
}

/// Everything one game needs to know.
pub struct GameSetup<'a> {
    pub opts: &'a Options,
    pub index: usize,
    pub a_player: Player,
    /// Light Riders board.
    pub map: Option<Map>,
    /// Per-game seed, also put into `{seed}` of the commands.
    pub seed: u64,
    /// Played by the arena before the bots are asked.
    pub opening: Option<Opening>,
}

impl GameSetup<'_> {
    /// The side (0 = A, 1 = B, ...) that plays engine player (or Tron Battle rider)
    /// `player` ([`side_at`]).
    pub fn side(&self, player: usize) -> Side {
        side_at(player, self.a_player, self.opts.sides())
    }

    /// The winner as a side, from the engine player who won (`None` = draw).
    pub fn winner(&self, player: Option<Player>) -> Winner {
        player.map_or(Winner::Draw, |p| Winner::of_side(self.side(p as usize)))
    }

    /// Label for messages: "A (player 1)".
    pub fn label(&self, player: Player) -> String {
        format!(
            "{} (player {player})",
            side_name(self.side(player as usize))
        )
    }

    /// Starts both bots, indexed by engine player.
    pub fn seats(&self) -> [Seat; 2] {
        [0, 1].map(|p| self.seat(p, ""))
    }

    /// The clock of engine player (or rider) `player`: its side's.
    pub fn clock(&self, player: usize) -> Clock {
        self.opts.clocks[self.side(player)]
    }

    /// Starts the bot of engine player (or rider) `player`; `stderr_suffix` tells its
    /// stderr file from its side's other seats.
    pub fn seat(&self, player: usize, stderr_suffix: &str) -> Seat {
        let side = self.side(player);
        let command = self.opts.commands[side]
            .replace("{seed}", &self.seed.wrapping_add(player as u64).to_string())
            .replace("{game}", &self.index.to_string());
        let stderr = self
            .opts
            .out
            .as_ref()
            .map(|dir| dir.join(stderr_name(self.index, side, stderr_suffix)));
        let clock = self.clock(player);
        Seat::start(
            &command,
            stderr,
            Timebank::new(clock.timebank, clock.time_per_move),
        )
    }

    /// Ends the bots (noting their peak memory) and turns the game into its record.
    pub fn finish(
        &self,
        seats: [Seat; 2],
        winner: Option<Player>,
        moves: u32,
        reason: String,
        started: Instant,
    ) -> GameRecord {
        let seats = seats.into_iter().enumerate().collect();
        self.finish_seats(seats, self.winner(winner), moves, reason, started)
    }

    /// [`GameSetup::finish`] for any number of seats, indexed by player: each side's
    /// faults and times summed, its transcripts one after another (each after
    /// `# rider N` when a side holds several seats).
    pub fn finish_seats(
        &self,
        seats: Vec<(usize, Seat)>,
        winner: Winner,
        moves: u32,
        reason: String,
        started: Instant,
    ) -> GameRecord {
        let sides = self.opts.sides();
        let several = seats.len() > sides;
        let mut stats = vec![SideStats::default(); sides];
        let mut transcripts = vec![String::new(); sides];
        for (player, mut seat) in seats {
            if let Some(bot) = &mut seat.bot {
                seat.stats.peak_rss_kib = bot.kill().unwrap_or(0);
            }
            let side = self.side(player);
            stats[side].add(&seat.stats);
            if several {
                transcripts[side] += &format!("# rider {player}\n");
            }
            transcripts[side] += &seat.transcript();
        }
        GameRecord {
            index: self.index,
            map: self
                .map
                .as_ref()
                .map_or_else(|| self.opts.game.name().to_string(), |m| m.name.clone()),
            a_player: self.a_player,
            winner,
            opening: self.opening.as_ref().map_or(String::new(), Opening::text),
            moves,
            line: String::new(),
            reason,
            wall_ms: started.elapsed().as_millis() as u64,
            stats,
            transcripts,
            places: Vec::new(),
        }
    }
}

/// What a request for a move gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// An answer line in time, still to be checked by the game.
    Answer(String),
    /// Late, or an oversized line: already counted.
    Fault,
    /// The bot is gone: already counted.
    Crashed,
}

/// One player's bot, timebank and faults.
pub struct Seat {
    pub bot: Option<BotProcess>,
    pub bank: Timebank,
    pub stats: SideStats,
    spawn_error: Option<String>,
}

impl Seat {
    fn start(command: &str, stderr: Option<PathBuf>, bank: Timebank) -> Seat {
        if let Some(dir) = stderr.as_ref().and_then(|p| p.parent()) {
            let _ = std::fs::create_dir_all(dir);
        }
        let (bot, spawn_error) = match BotProcess::spawn(command, stderr.as_deref()) {
            Ok(bot) => (Some(bot), None),
            Err(e) => (None, Some(format!("# could not start {command:?}: {e}\n"))),
        };
        Seat {
            bot,
            bank,
            stats: SideStats::default(),
            spawn_error,
        }
    }

    /// Sends one engine line.
    pub fn send(&mut self, command: &Command) {
        if let Some(bot) = &mut self.bot {
            bot.send(&command.to_string());
        }
    }

    /// Sends `action move BANK` and returns when it was sent; stale answers are dropped first.
    pub fn request(&mut self) -> Instant {
        if let Some(bot) = &mut self.bot {
            bot.discard_pending();
        }
        self.send(&Command::ActionMove {
            timebank_ms: self.bank.remaining(),
        });
        Instant::now()
    }

    /// Sends the lines of a CodinGame turn (after dropping stale answers) and returns
    /// when they were sent; the turn's time is the seat's bank.
    pub fn request_lines(&mut self, lines: &[String]) -> Instant {
        if let Some(bot) = &mut self.bot {
            bot.discard_pending();
            for line in lines {
                bot.send(line);
            }
        }
        Instant::now()
    }

    /// Waits for the answer to the request sent at `sent`, charges the timebank and counts
    /// timeouts, oversized lines and the crash.
    pub fn answer(&mut self, sent: Instant) -> Asked {
        let allowed = self.bank.remaining();
        let reply = match &mut self.bot {
            Some(bot) if !bot.is_closed() => bot.receive(sent, allowed),
            _ => {
                self.stats.crashes = 1;
                return Asked::Crashed;
            }
        };
        match reply {
            Reply::Closed => {
                self.stats.crashes = 1;
                Asked::Crashed
            }
            Reply::Timeout => {
                self.charge(allowed * 1000);
                self.stats.timeouts += 1;
                Asked::Fault
            }
            Reply::Line {
                text,
                elapsed_us,
                oversized,
            } => {
                // The engines count whole milliseconds.
                let late = self.bank.is_late(elapsed_us / 1000);
                self.charge(elapsed_us);
                if late {
                    self.stats.timeouts += 1;
                    Asked::Fault
                } else if oversized {
                    self.stats.illegal += 1;
                    Asked::Fault
                } else {
                    Asked::Answer(text)
                }
            }
        }
    }

    fn charge(&mut self, elapsed_us: u64) {
        self.bank.charge(elapsed_us / 1000);
        self.stats.answers += 1;
        self.stats.time_us += elapsed_us;
    }

    /// Notes a line in the transcript (`# ` lines are the arena's comments).
    pub fn note(&mut self, text: &str) {
        if let Some(bot) = &mut self.bot {
            bot.transcript.push_str(&format!("# {text}\n"));
        }
    }

    /// Why a request got no usable answer: `crashed`, `timed out`, or the game's word
    /// for a bad answer.
    pub fn fault<'a>(&self, bad_answer: &'a str) -> &'a str {
        if self.crashed() {
            "crashed"
        } else if self.stats.timeouts > 0 {
            "timed out"
        } else {
            bad_answer
        }
    }

    /// Whether the bot crashed (or never started).
    pub fn crashed(&self) -> bool {
        self.bot.as_ref().map_or(true, |b| b.is_closed())
    }

    fn transcript(&self) -> String {
        let mut t = self.spawn_error.clone().unwrap_or_default();
        if let Some(bot) = &self.bot {
            t.push_str(&bot.transcript);
        }
        t
    }
}
