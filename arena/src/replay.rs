//! `arena replay`: a recorded game, position by position, to find the move that lost it.
//! This module replays Light Riders games; [`uttt`] replays UTTT games (`--game uttt` and
//! `--game uttt-cg`); [`select`] reads the games asked for, for both.
//!
//! Every position the bots saw is re-created from the record: the start is the first
//! field of the transcripts, the rounds are the game's line in `games.jsonl`, and every
//! later field of both transcripts must be the position the rounds lead to. In each
//! position the bot's own search (`TronSearcher`, with the bot's defaults or `--flags`)
//! is run in-process for each rider, for a fixed number of iterations from a seed, so the
//! output repeats; separated riders are valued by the fill race the endgame filler plays.
//! Beside it: the space evaluation's terms, and what the game's records say of each turn
//! (the timebank sent, the bot's own log line when it wrote one). The rounds where a
//! rider's value fell most are the candidates for the losing move. The table and the
//! closing summary are written by its `report` module.

use crate::cli::ReplayArgs;
use crate::game::{GameRecord, Winner};
use crate::openings::parse_tron;
use mctsbot::bot::tron::{
    plan, Evidence, Plan, RootMove, TronConfig, TronSearchKind, TronSearcher,
};
use mctsbot::bot::Config;
use mctsbot::game::GameKind;
use mctsbot::game::Player;
use mctsbot::protocol::{parse_command, Command, GameUpdate, Setting, Token};
use mctsbot::search::{FastRng, Limits, Search};
use mctsbot::tron::evaluate::{self, Space};
use mctsbot::tron::{endgame, Direction, TronState};
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

mod phases;
mod report;
mod select;
pub mod uttt;
mod uttt_report;

use crate::game::stderr_name;
use crate::record::log_word;
pub use report::{changes, largest_drops, Report};
use report::{replay_games, LEGEND};
use select::Source;

/// `--iterations` of the Light Riders searches unless told.
const TRON_ITERATIONS: u64 = 20_000;

/// One request for a move, as a transcript and the bot's log show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Turn {
    pub round: u32,
    /// The timebank sent with `action move`, ms.
    pub bank: u64,
    /// The line the bot answered, if it answered.
    pub answer: Option<String>,
    /// The arena's notes on it (`no answer in time`, `reversal ignored`, ...).
    pub notes: Vec<String>,
    /// The bot's own log line for this move (`move=K ...` on its stderr), if it wrote one.
    pub log: Option<String>,
}

impl Turn {
    /// A `key=value` of the bot's log line.
    pub fn logged(&self, key: &str) -> Option<&str> {
        log_word(self.log.as_deref()?, key)
    }
}

/// What one side's transcript tells of a Light Riders game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    pub botid: Option<Player>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    /// The fields sent, by round.
    pub fields: BTreeMap<u32, Vec<Token>>,
    /// The requests for a move, in order.
    pub turns: Vec<Turn>,
}

impl Transcript {
    /// Reads the `> ` lines sent (through the bot's own protocol parser), the `< `
    /// answers and the arena's `# ` notes.
    pub fn parse(text: &str) -> Result<Transcript, String> {
        let mut t = Transcript::default();
        let mut round = 0;
        for (n, line) in text.lines().enumerate() {
            if let Some(sent) = line.strip_prefix("> ") {
                let command = parse_command(sent).map_err(|e| format!("line {}: {e}", n + 1))?;
                match command {
                    Command::Settings(Setting::YourBotId(id)) => t.botid = Some(id),
                    Command::Settings(Setting::FieldWidth(w)) => t.width = Some(w as usize),
                    Command::Settings(Setting::FieldHeight(h)) => t.height = Some(h as usize),
                    Command::UpdateGame(GameUpdate::Round(r)) => round = r,
                    Command::UpdateGame(GameUpdate::Field(field)) => {
                        t.fields.insert(round, field);
                    }
                    Command::ActionMove { timebank_ms } => t.turns.push(Turn {
                        round,
                        bank: timebank_ms,
                        ..Turn::default()
                    }),
                    _ => {}
                }
            } else if let Some(turn) = t.turns.last_mut() {
                if let Some(answer) = line.strip_prefix("< ") {
                    turn.answer = Some(answer.to_string());
                } else if let Some(note) = line.strip_prefix("# ") {
                    turn.notes.push(note.to_string());
                }
            }
        }
        Ok(t)
    }

    /// The position of a field of this transcript's board.
    fn position(&self, field: &[Token]) -> Result<TronState, String> {
        match (self.width, self.height) {
            (Some(w), Some(h)) => TronState::from_engine(w, h, field),
            _ => TronState::from_square_field(field),
        }
        .map_err(|e| e.to_string())
    }

    /// The first field sent: its round and position.
    fn start(&self) -> Result<(u32, TronState), String> {
        let (&round, field) = self
            .fields
            .iter()
            .next()
            .ok_or("the transcript holds no field")?;
        Ok((round, self.position(field)?))
    }

    /// Gives each turn the bot's log line `move=K` for the K-th request (the bot's
    /// stderr, as the arena keeps it).
    fn attach_log(&mut self, stderr: &str) {
        for line in stderr.lines() {
            let number = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("move=")?.parse::<usize>().ok());
            if let Some(turn) = number.and_then(|k| self.turns.get_mut(k.wrapping_sub(1))) {
                let from = line.find("move=").unwrap_or(0);
                turn.log = Some(line[from..].to_string());
            }
        }
    }
}

/// A recorded Light Riders game, ready to replay: the position the bots were first
/// asked about and every round played from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Its index in the series (none for a transcript alone).
    pub index: Option<usize>,
    pub map: String,
    /// The side (0 = A, 1 = B) that played each player.
    pub sides: [usize; 2],
    /// The sides' names.
    pub names: [String; 2],
    /// Why it ended, as recorded.
    pub reason: String,
    /// The round of `start` (after an opening, its rounds).
    pub first_round: u32,
    pub start: TronState,
    /// The rounds played from `start`: player 0's and player 1's direction.
    pub rounds: Vec<[Direction; 2]>,
    /// Each player's turns, from its side's transcript.
    pub turns: [Vec<Turn>; 2],
    /// Whether the last round is known (a transcript alone stops at its last field).
    pub complete: bool,
}

impl Game {
    /// Game `record` of the series in `dir`: its line, both transcripts (which must show
    /// the positions the line leads to) and, where the bots wrote them, their logs.
    pub fn from_record(
        record: &GameRecord,
        dir: &Path,
        names: [String; 2],
    ) -> Result<Game, String> {
        let index = record.index;
        let sides = [0, 1].map(|p| (p + record.a_player as usize) % 2);
        let mut transcripts = [0, 1].map(|p| Transcript::parse(&record.transcripts[sides[p]]));
        for (p, t) in transcripts.iter_mut().enumerate() {
            let t = t
                .as_mut()
                .map_err(|e| format!("game {index}, player {p}'s transcript: {e}"))?;
            let stderr = dir.join(stderr_name(index, sides[p], ""));
            if let Ok(text) = std::fs::read_to_string(stderr) {
                t.attach_log(&text);
            }
        }
        let [t0, t1] = transcripts;
        let transcripts = [t0?, t1?];
        let (first_round, start) = transcripts[0]
            .start()
            .map_err(|e| format!("game {index}: {e}"))?;
        let line = parse_tron(&record.line).map_err(|e| format!("game {index}: {e}"))?;
        let rounds = line
            .rounds
            .get(first_round as usize..)
            .ok_or(format!(
                "game {index}: the line has {} rounds, the transcript starts at round {first_round}",
                line.rounds.len()
            ))?
            .to_vec();
        let game = Game {
            index: Some(index),
            map: record.map.clone(),
            sides,
            names,
            reason: record.reason.clone(),
            first_round,
            start,
            rounds,
            turns: transcripts.clone().map(|t| t.turns),
            complete: true,
        };
        game.check(&transcripts)?;
        if game.winner() != record.winner {
            return Err(format!(
                "game {index}: the rounds end in {:?}, the record says {:?}",
                game.winner(),
                record.winner
            ));
        }
        Ok(game)
    }

    /// A game from one transcript alone: the rounds between its fields (each rider's head
    /// moves one cell), so the last round, after the last field, is missing.
    pub fn from_transcript(text: &str) -> Result<Game, String> {
        let t = Transcript::parse(text)?;
        let me = t
            .botid
            .ok_or("the transcript has no `settings your_botid`")?;
        let (first_round, start) = t.start()?;
        let mut rounds = Vec::new();
        let mut before = start.clone();
        for (&round, field) in t.fields.range(first_round + 1..) {
            if round != first_round + rounds.len() as u32 + 1 {
                return Err(format!(
                    "the transcript has no field for round {}",
                    round - 1
                ));
            }
            let after = t.position(field)?;
            let step = [0, 1].map(|p| step_between(before.head(p), after.head(p)));
            match step {
                [Some(d0), Some(d1)] => rounds.push([d0, d1]),
                _ => {
                    return Err(format!(
                        "round {}: a head moved more than one cell",
                        round - 1
                    ))
                }
            }
            before = after;
        }
        let mut turns = [Vec::new(), Vec::new()];
        turns[me as usize] = t.turns.clone();
        let game = Game {
            index: None,
            map: format!("{}x{}", start.width(), start.height()),
            // The transcript's own bot is side A.
            sides: [0, 1].map(|p| usize::from(p != me as usize)),
            names: ["this bot".into(), "its opponent".into()],
            reason: "the result is not in a transcript".into(),
            first_round,
            start,
            rounds,
            turns,
            complete: false,
        };
        game.check(&[t])?;
        Ok(game)
    }

    /// Every position of the game, `start` first: one more than the rounds.
    pub fn positions(&self) -> Vec<TronState> {
        let mut state = self.start.clone();
        let mut all = vec![state.clone()];
        for &[d0, d1] in &self.rounds {
            state.step(d0, d1);
            all.push(state.clone());
        }
        all
    }

    /// Checks that every field of the transcripts is the position the rounds lead to.
    fn check(&self, transcripts: &[Transcript]) -> Result<(), String> {
        let game = self.index.map_or(String::new(), |i| format!("game {i}, "));
        for (k, state) in self.positions().iter().enumerate() {
            let round = self.first_round + k as u32;
            for t in transcripts {
                if t.fields
                    .get(&round)
                    .is_some_and(|f| *f != state.engine_field())
                {
                    return Err(format!(
                        "{game}round {round}: the transcript of player {} shows another \
                         position than the rounds played lead to",
                        t.botid.map_or("?".into(), |p| p.to_string())
                    ));
                }
            }
        }
        Ok(())
    }

    /// The result of the rounds (a game the round cap ended is a draw).
    fn winner(&self) -> Winner {
        let last = self.positions().pop().expect("the start at least");
        match last.outcome() {
            Some(mctsbot::game::Outcome::Win(p)) => [Winner::A, Winner::B][self.sides[p as usize]],
            _ => Winner::Draw,
        }
    }

    /// Each player's result, 1, 0.5 or 0 (none for a transcript alone).
    fn results(&self) -> Option<[f32; 2]> {
        self.complete.then(|| {
            let won = |p: usize| match self.winner() {
                Winner::Draw => 0.5,
                w if w == [Winner::A, Winner::B][self.sides[p]] => 1.0,
                _ => 0.0,
            };
            [won(0), won(1)]
        })
    }

    /// Player `p`'s turn in `round`, if it was asked.
    fn turn(&self, p: usize, round: u32) -> Option<&Turn> {
        self.turns[p].iter().find(|t| t.round == round)
    }
}

/// A replay's progress callback: every 5 s, how many of the game's positions are done.
pub(crate) fn progress(label: String) -> impl FnMut(usize, usize) {
    let mut last = Instant::now();
    move |done, total| {
        if last.elapsed() >= Duration::from_secs(5) {
            eprintln!("arena replay: {label}: {done}/{total} positions");
            last = Instant::now();
        }
    }
}

/// The direction of a one-cell step.
fn step_between(from: (usize, usize), to: (usize, usize)) -> Option<Direction> {
    let d = (to.0 as i64 - from.0 as i64, to.1 as i64 - from.1 as i64);
    match d {
        (0, -1) => Some(Direction::Up),
        (0, 1) => Some(Direction::Down),
        (-1, 0) => Some(Direction::Left),
        (1, 0) => Some(Direction::Right),
        _ => None,
    }
}

/// What the replay's search makes of one rider in one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assessment {
    /// How the bot answers the position.
    pub plan: Plan,
    /// The move it would play: the forced move, the filler's or the search's.
    pub best: Option<Direction>,
    /// The rider's value of the position, 0..1: its search's value of the best move
    /// (alpha-beta's score on the space cut-off's logistic curve); separated riders, the
    /// fill race: 1, 0.5 or 0.
    pub value: f32,
    /// The visits of the best move (MCTS, open positions; else 0).
    pub visits: u32,
    /// The search's value and visits of the move played (MCTS, open positions).
    pub played: Option<RootMove>,
    /// Separated riders: the longest run the filler found (exact unless it ran out of
    /// nodes), which the evaluation's fillable cells only bound.
    pub run: Option<u32>,
}

/// One position of the game and what the replay found in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    pub round: u32,
    pub state: TronState,
    /// The round played from it (none: the last field of a transcript alone).
    pub played: Option<[Direction; 2]>,
    pub space: Space,
    pub riders: [Assessment; 2],
}

/// The searches of a replay: the bot's settings, an effort and a seed.
pub struct Searches {
    pub config: TronConfig,
    /// Iterations (nodes) of each search; `None`: `ms` of time.
    pub iterations: Option<u64>,
    pub ms: u64,
    pub seed: u64,
}

impl Searches {
    fn limits(&self) -> Limits {
        match self.iterations {
            Some(n) => Limits::iterations(n),
            None => Limits::millis(self.ms),
        }
    }

    /// Both riders in `state` (both alive), `played` the round that followed.
    pub fn assess(&self, state: &TronState, round: u32, played: Option<[Direction; 2]>) -> Ply {
        let space = evaluate::space(state);
        let plans = [0, 1].map(|p| plan(&self.config, state, p));
        let riders = if space.separated && self.config.endgame {
            // The race the filler runs: the longer run wins, equal runs crash together.
            let fills = [0, 1].map(|p| endgame::fill_longest(state, p, self.limits()));
            [0, 1].map(|p| Assessment {
                plan: plans[p],
                best: match plans[p] {
                    Plan::Forced(mv) => mv,
                    _ => fills[p].first,
                },
                value: match fills[p].length.cmp(&fills[1 - p].length) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                },
                visits: 0,
                played: None,
                run: Some(fills[p].length),
            })
        } else {
            [0, 1].map(|p| self.search(state, round, p as Player, plans[p], played))
        };
        Ply {
            round,
            state: state.clone(),
            played,
            space,
            riders,
        }
    }

    /// `me`'s search of `state`, seeded by the round and the rider.
    fn search(
        &self,
        state: &TronState,
        round: u32,
        me: Player,
        plan: Plan,
        played: Option<[Direction; 2]>,
    ) -> Assessment {
        let seed =
            self.seed ^ (u64::from(round) << 1 | u64::from(me)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut searcher = TronSearcher::new(&self.config, state.clone(), me, seed, 1);
        searcher.search(self.limits());
        let choice = searcher.best_move(&mut FastRng::seed_from_u64(seed));
        let (value, visits) = choice.as_ref().map_or((0.0, 0), |c| match c.evidence {
            Evidence::Mcts { value, visits, .. } => (value, visits),
            Evidence::AlphaBeta { score, .. } => (self.config.space_score.squash(score), 0),
        });
        let mine = played.map(|round| round[me as usize]);
        let played = searcher
            .root_moves()
            .into_iter()
            .find(|m| Some(m.mv) == mine);
        Assessment {
            plan,
            best: match plan {
                Plan::Forced(mv) => mv,
                _ => choice.map(|c| c.mv),
            },
            value,
            visits,
            played,
            run: None,
        }
    }

    /// Every position of `game` (the last, after the game ended, is not searched),
    /// `progress` told each finished position.
    pub fn replay(&self, game: &Game, mut progress: impl FnMut(usize, usize)) -> Vec<Ply> {
        let positions = game.positions();
        let total = game.rounds.len() + usize::from(!game.complete);
        let mut plies = Vec::with_capacity(total);
        // The last position of a whole game is after its end: nothing to search.
        for (k, state) in positions.iter().take(total).enumerate() {
            let round = game.first_round + k as u32;
            plies.push(self.assess(state, round, game.rounds.get(k).copied()));
            progress(k + 1, total);
        }
        plies
    }
}

/// `arena replay`: prints each game's table as it is replayed, then one line per game.
/// Returns the exit code.
pub fn run(args: &ReplayArgs) -> i32 {
    match replay(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arena replay: {e}");
            2
        }
    }
}

fn replay(args: &ReplayArgs) -> Result<(), String> {
    let flags = args.flags.as_deref().unwrap_or("");
    let words: Vec<&str> = flags.split_whitespace().collect();
    let config = Config::from_args(&words).map_err(|e| format!("--flags: {e}"))?;
    let (games, side) = match select::source(args)? {
        Source::Transcript(game, side) => (vec![*game], side),
        Source::Series {
            dir,
            opts,
            records,
            side,
        } => match opts.game.game() {
            GameKind::LightRiders => {
                let names = [opts.names[0].clone(), opts.names[1].clone()];
                let games = records
                    .iter()
                    .map(|r| Game::from_record(r, &dir, names.clone()))
                    .collect::<Result<Vec<_>, _>>()?;
                (games, side)
            }
            GameKind::Uttt => return uttt::replay(args, &config, &dir, &opts, &records, side),
            GameKind::TronBattle => {
                return Err(format!(
                    "{} holds a {} series: replay reads Light Riders (--game tron) and UTTT \
                     (--game uttt, uttt-cg) series",
                    dir.display(),
                    opts.game.name()
                ))
            }
        },
    };
    let iterations = args.iterations.unwrap_or(TRON_ITERATIONS);
    let searches = Searches {
        config: config.tron,
        iterations: args.ms.is_none().then_some(iterations),
        ms: args.ms.unwrap_or(0),
        seed: args.seed,
    };
    if games.is_empty() {
        eprintln!(
            "arena replay: no game to replay ({} won them all; --all replays every game)",
            ["A", "B"][side]
        );
    }
    let effort = args
        .ms
        .map_or(format!("{iterations} iterations"), |ms| format!("{ms} ms"));
    let flags = if flags.is_empty() {
        String::new()
    } else {
        format!(" ({flags})")
    };
    print!(
        "{LEGEND}\nsearches: {}{flags}, {effort} a position, seed {}\n",
        match searches.config.search {
            TronSearchKind::Mcts => format!("MCTS {:?}", searches.config.variant),
            TronSearchKind::AlphaBeta => "alpha-beta".into(),
        },
        args.seed
    );
    replay_games(args, &searches, &games, side);
    Ok(())
}

#[cfg(test)]
mod tests;
