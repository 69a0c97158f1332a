//! `arena replay` on UTTT series (`--game uttt` and `--game uttt-cg`): every ply of a
//! recorded game, the replayed side's searched again by a long search beside what the bot
//! logged when it played them.
//!
//! Every position is re-created from the game's `line` in `games.jsonl` (the opening's plies
//! included) with the bot's own rules ([`mctsbot::uttt::Board`]) under the series' end rule
//! (`--game uttt-cg`: CodinGame's, more small boards wins a lineless game); the last
//! position must be the recorded result, or a fault must have ended the game. For each ply
//! of the replayed side after the opening, the bot's own UTTT search (its defaults, the
//! value network included, or `--flags`) is run in-process from that position, seeded, and
//! its best move, its value of the position and its value of the move played are set beside
//! the bot's own log line for that request (`move=K ... chosen=C,R value=V` on the engines,
//! `turn=K ... chosen=R,C value=V` on CodinGame, in `stderr/game_NNNN_S.txt`): the K-th
//! request of a side is its K-th ply after the opening. The table and the summaries are
//! written by the `uttt_report` module.

use super::uttt_report;
use crate::cli::ReplayArgs;
use crate::game::{stderr_name, GameRecord, Winner};
use crate::openings::parse_game_line;
use crate::options::{Options, Referee};
use crate::record::log_word as logged;
use mctsbot::bot::uttt::UtttSearch;
use mctsbot::bot::Config;
use mctsbot::game::{Outcome, Player};
use mctsbot::search::tree::{MoveInfo, Proof};
use mctsbot::search::{Limits, Search};
use mctsbot::uttt::{Board, EndRule, Move};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

/// `--iterations` of the UTTT searches unless told: about ten times what the default bot
/// searches in CodinGame's 100 ms turn (80,000 to 110,000 iterations here; docs/uttt.md,
/// "Replaying UTTT games").
pub const UTTT_ITERATIONS: u64 = 1_000_000;

/// Plies of the opening phase at least: the game's first ten (an opening suite's plies
/// when it has more).
pub const OPENING_PLIES: usize = 10;
/// Plies of the end phase: the game's last fifteen.
pub const END_PLIES: usize = 15;
/// A value error: the logged value is this far from the long search's, or farther...
pub const VALUE_GAP: f32 = 0.15;
/// ...while the move played is within this of the long search's best; a move choice: the
/// move played is worth this much less than the long search's best, or more.
pub const MOVE_LOSS: f32 = 0.10;

/// One request's log line, as the bot wrote it on stderr.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Logged {
    /// The move it chose.
    pub chosen: Option<Move>,
    /// Its search's value of that move for the mover, 0..1 (none when the move had no
    /// visits: the bot then logs 0.5).
    pub value: Option<f32>,
    pub iterations: Option<u64>,
    pub elapsed: Option<u64>,
    /// Whether it kept its tree from the turn before.
    pub reused: Option<bool>,
}

impl Logged {
    /// Reads a log line; `row_first`: CodinGame's `chosen=ROW,COL`, else `chosen=COL,ROW`.
    pub fn parse(line: &str, row_first: bool) -> Logged {
        let chosen = logged(line, "chosen").and_then(|text| {
            let (a, b) = text.split_once(',')?;
            let (a, b) = (a.parse().ok()?, b.parse().ok()?);
            if row_first {
                Move::from_xy(b, a)
            } else {
                Move::from_xy(a, b)
            }
        });
        let visits: Option<u64> = logged(line, "visits").and_then(|v| v.parse().ok());
        Logged {
            chosen,
            value: logged(line, "value")
                .and_then(|v| v.parse().ok())
                .filter(|_| visits != Some(0)),
            iterations: logged(line, "iterations").and_then(|v| v.parse().ok()),
            elapsed: logged(line, "elapsed").and_then(|v| v.parse().ok()),
            reused: logged(line, "reused").and_then(|v| v.parse().ok()),
        }
    }
}

/// Each request's log line by its number K (`move=K` or `turn=K`), from a side's stderr.
pub fn log_lines(stderr: &str, referee: Referee) -> BTreeMap<usize, Logged> {
    let key = if referee.is_codingame() {
        "turn"
    } else {
        "move"
    };
    stderr
        .lines()
        .filter_map(|line| {
            let k = logged(line, key)?.parse().ok()?;
            Some((k, Logged::parse(line, referee.is_codingame())))
        })
        .collect()
}

/// A recorded UTTT game, ready to replay.
#[derive(Clone, Debug, PartialEq)]
pub struct UtttGame {
    pub index: usize,
    /// The side (0 = A, 1 = B) that played each player (player 0 moves first, X).
    pub sides: [usize; 2],
    pub names: [String; 2],
    pub reason: String,
    pub winner: Winner,
    pub end_rule: EndRule,
    /// Plies of the arena's opening, at the start of `moves`.
    pub opening: usize,
    /// Every ply of the game, the opening's included.
    pub moves: Vec<Move>,
    /// Each player's log lines by request number.
    pub logs: [BTreeMap<usize, Logged>; 2],
    /// Whether the plies end the game by the rules (else a fault ended it).
    pub finished: bool,
}

impl UtttGame {
    /// Game `record` of the series `opts` in `dir`, with the bots' logs where they wrote
    /// them; its plies must be legal and end in its recorded result (or a fault).
    pub fn from_record(record: &GameRecord, dir: &Path, opts: &Options) -> Result<Self, String> {
        let index = record.index;
        let err = |e: String| format!("game {index}: {e}");
        let end_rule = opts.uttt_end_rule();
        if record.a_player > 1 {
            return Err(err(format!("a_player {} is not 0 or 1", record.a_player)));
        }
        let moves = parse_game_line(&record.line, end_rule).map_err(err)?;
        let opening =
            parse_game_line(&record.opening, end_rule).map_err(|e| err(format!("opening {e}")))?;
        if !moves.starts_with(&opening) {
            return Err(err("the line does not start with the opening".into()));
        }
        let sides = [0, 1].map(|p| (p + record.a_player as usize) % 2);
        let logs = [0, 1].map(|p| {
            std::fs::read_to_string(dir.join(stderr_name(index, sides[p], "")))
                .map(|text| log_lines(&text, opts.game))
                .unwrap_or_default()
        });
        let mut game = UtttGame {
            index,
            sides,
            names: [opts.names[0].clone(), opts.names[1].clone()],
            reason: record.reason.clone(),
            winner: record.winner,
            end_rule,
            opening: opening.len(),
            moves,
            logs,
            finished: false,
        };
        let last = game.positions().pop().expect("the start at least");
        match last.outcome() {
            Some(outcome) => {
                let by_rules = match outcome {
                    Outcome::Win(p) => [Winner::A, Winner::B][sides[p as usize]],
                    Outcome::Draw => Winner::Draw,
                };
                if by_rules != record.winner {
                    return Err(err(format!(
                        "the plies end in {by_rules:?} ({end_rule:?}), the record says {:?}",
                        record.winner
                    )));
                }
                game.finished = true;
            }
            None => {
                let faults = record
                    .stats
                    .iter()
                    .map(|s| s.timeouts + s.illegal + s.crashes);
                if record.winner == Winner::Draw || faults.sum::<u32>() == 0 {
                    return Err(err(format!(
                        "the {} plies leave the game open, and no fault ended it (the record \
                         says {:?}: {})",
                        game.moves.len(),
                        record.winner,
                        record.reason
                    )));
                }
            }
        }
        Ok(game)
    }

    /// The position before every ply, and the last one after them.
    pub fn positions(&self) -> Vec<Board> {
        let mut board = Board::with_end_rule(self.end_rule);
        let mut all = vec![board];
        for &mv in &self.moves {
            board.play_move(mv);
            all.push(board);
        }
        all
    }

    /// The player who made ply `k` (0-based).
    pub fn mover(&self, k: usize) -> Player {
        (k % 2) as Player
    }

    /// The bot's log line for ply `k`: its player's request number K is its K-th ply
    /// after the opening.
    pub fn log(&self, k: usize) -> Option<&Logged> {
        if k < self.opening {
            return None;
        }
        let p = self.mover(k);
        let request = (self.opening..=k).filter(|&j| self.mover(j) == p).count();
        self.logs[p as usize].get(&request)
    }

    /// The phase of ply `k`: the opening (its first [`OPENING_PLIES`], or the arena's
    /// opening when longer) before the end (its last [`END_PLIES`]), the middle between.
    pub fn phase(&self, k: usize) -> Phase {
        if k < OPENING_PLIES.max(self.opening) {
            Phase::Opening
        } else if k + END_PLIES >= self.moves.len() {
            Phase::End
        } else {
            Phase::Middle
        }
    }

    /// Player `p`'s result: won, drew or lost.
    pub fn result(&self, p: usize) -> &'static str {
        match self.winner {
            Winner::Draw => "drew",
            w if w == [Winner::A, Winner::B][self.sides[p]] => "won",
            _ => "lost",
        }
    }
}

/// Where in a game a ply falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Opening,
    Middle,
    End,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middle, Phase::End];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middle => "middle",
            Phase::End => "end",
        }
    }
}

/// What the long search makes of one position of the replayed side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Its best move, and its value of it for the mover (the value of the position).
    pub best: Option<MoveInfo<Move>>,
    /// Its value of the move played (none: not searched, or alpha-beta's other move).
    pub played: Option<f32>,
    pub iterations: u64,
}

impl Verdict {
    /// The value of the position for the mover, 0..1 (0.5 when nothing was searched).
    pub fn value(&self) -> f32 {
        self.best.map_or(0.5, |b| b.value)
    }

    /// How much less the move played is worth than the best move, by this search (0 when
    /// it is the best, or not known).
    pub fn loss(&self) -> f32 {
        self.played.map_or(0.0, |v| (self.value() - v).max(0.0))
    }
}

/// One ply of the game and what the replay found in it.
#[derive(Clone, Debug, PartialEq)]
pub struct UtttPly {
    /// 0-based: the position before it is `positions()[k]`.
    pub k: usize,
    pub played: Move,
    pub log: Option<Logged>,
    /// The long search's, for the replayed side's plies after the opening.
    pub verdict: Option<Verdict>,
}

impl UtttPly {
    /// |logged value − long search's value|, where both exist.
    pub fn gap(&self) -> Option<f32> {
        Some((self.log.as_ref()?.value? - self.verdict?.value()).abs())
    }

    /// The logged value minus the long search's: over-confident when positive.
    pub fn signed_gap(&self) -> Option<f32> {
        Some(self.log.as_ref()?.value? - self.verdict?.value())
    }

    pub fn loss(&self) -> Option<f32> {
        self.verdict.map(|v| v.loss())
    }

    /// A move choice whose move the bot's own search valued [`VALUE_GAP`] or more above the
    /// long search's value of it: the short search did not see the reply that refutes it.
    pub fn unseen(&self) -> bool {
        let logged = self.log.as_ref().and_then(|l| l.value);
        let played = self.verdict.and_then(|v| v.played);
        self.error() == Some(ErrorKind::MoveChoice)
            && logged.zip(played).is_some_and(|(l, p)| l - p >= VALUE_GAP)
    }

    /// The kind of error, as documented: a move choice when the move played is worth
    /// [`MOVE_LOSS`] less than the best, else a value error when the logged value is
    /// [`VALUE_GAP`] from the long search's.
    pub fn error(&self) -> Option<ErrorKind> {
        if self.loss()? >= MOVE_LOSS {
            Some(ErrorKind::MoveChoice)
        } else if self.gap()? >= VALUE_GAP {
            Some(ErrorKind::Value)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Value,
    MoveChoice,
}

/// The long searches: the bot's options, an effort and a seed.
pub struct UtttSearches {
    pub config: Config,
    /// Iterations of each search; `None`: `ms` of time.
    pub iterations: Option<u64>,
    pub ms: u64,
    pub seed: u64,
}

impl UtttSearches {
    /// The search of `board`, before ply `k`, and its value of `played`.
    pub fn assess(&self, board: Board, k: usize, played: Move) -> Verdict {
        let seed = self.seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let uttt = &self.config.uttt;
        let mut search = UtttSearch::new(
            uttt.tree,
            &uttt.play,
            self.config.common.threads,
            board,
            seed,
        );
        let limits = match self.iterations {
            Some(n) => Limits::iterations(n),
            None => Limits::millis(self.ms),
        };
        let stats = search.search(limits);
        let best = search.best_move();
        let moves = search.root_moves();
        let played_value = moves
            .iter()
            .find(|m| m.mv == played && (m.visits > 0 || m.proof != Proof::Unknown))
            .map(|m| m.value)
            .or_else(|| best.filter(|b| b.mv == played).map(|b| b.value));
        Verdict {
            best,
            played: played_value,
            iterations: stats.iterations,
        }
    }

    /// Every ply of `game`, those of `view` (a player) after the opening searched;
    /// `progress` told each search done.
    pub fn replay(
        &self,
        game: &UtttGame,
        view: Player,
        mut progress: impl FnMut(usize, usize),
    ) -> Vec<UtttPly> {
        let positions = game.positions();
        let searched = |k: usize| k >= game.opening && game.mover(k) == view;
        let total = (0..game.moves.len()).filter(|&k| searched(k)).count();
        let mut done = 0;
        (0..game.moves.len())
            .map(|k| {
                let played = game.moves[k];
                let verdict = searched(k).then(|| {
                    let verdict = self.assess(positions[k], k, played);
                    done += 1;
                    progress(done, total);
                    verdict
                });
                UtttPly {
                    k,
                    played,
                    log: game.log(k).cloned(),
                    verdict,
                }
            })
            .collect()
    }
}

/// `arena replay` on a UTTT series: each game's table as it is replayed, then the
/// summaries.
pub fn replay(
    args: &ReplayArgs,
    config: &Config,
    dir: &Path,
    opts: &Options,
    records: &[GameRecord],
    side: usize,
) -> Result<(), String> {
    let games = records
        .iter()
        .map(|r| UtttGame::from_record(r, dir, opts))
        .collect::<Result<Vec<_>, _>>()?;
    if games.is_empty() {
        eprintln!(
            "arena replay: no game to replay ({} won them all; --all replays every game)",
            ["A", "B"][side]
        );
    }
    let iterations = args.iterations.unwrap_or(UTTT_ITERATIONS);
    let searches = UtttSearches {
        config: config.clone(),
        iterations: args.ms.is_none().then_some(iterations),
        ms: args.ms.unwrap_or(0),
        seed: args.seed,
    };
    let effort = args
        .ms
        .map_or(format!("{iterations} iterations"), |ms| format!("{ms} ms"));
    let flags = args
        .flags
        .as_deref()
        .filter(|f| !f.trim().is_empty())
        .map_or(String::new(), |f| format!(" ({f})"));
    print!(
        "{}\nlong searches: the bot's UTTT search{flags}, {effort} a position, seed {}, \
         {} end rule\n",
        uttt_report::LEGEND,
        args.seed,
        if opts.game.is_codingame() {
            "CodinGame's"
        } else {
            "the series'"
        }
    );
    let mut replayed = Vec::new();
    for (n, game) in games.iter().enumerate() {
        eprintln!(
            "arena replay: game {} ({}/{}), {} plies",
            game.index,
            n + 1,
            games.len(),
            game.moves.len()
        );
        let view = game.sides.iter().position(|&s| s == side).unwrap_or(0);
        let label = format!("game {}", game.index);
        let plies = searches.replay(game, view as Player, super::progress(label));
        let report = uttt_report::GameReport {
            game,
            plies: &plies,
            view,
            top: args.top,
            boards: args.boards,
        };
        print!("{}", report.text());
        let _ = std::io::stdout().flush();
        replayed.push((game, plies, view));
    }
    print!("{}", uttt_report::summary(&replayed));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(line: &str, opening: usize) -> UtttGame {
        UtttGame {
            index: 0,
            sides: [1, 0],
            names: ["A".into(), "B".into()],
            reason: String::new(),
            winner: Winner::Draw,
            end_rule: EndRule::MoreBoards,
            opening,
            moves: parse_game_line(line, EndRule::MoreBoards).unwrap(),
            logs: [BTreeMap::new(), BTreeMap::new()],
            finished: false,
        }
    }

    #[test]
    fn log_lines_read_both_protocols_notations() {
        let engine = "[INFO  x] move=2 timebank=900 chosen=5,1 value=0.612 visits=300 \
                      iterations=4000 reused=true\n[INFO  x] moves=9 chosen=0,0\n";
        let logs = log_lines(engine, Referee::UTTT);
        assert_eq!(logs.keys().copied().collect::<Vec<_>>(), [2]);
        let log = &logs[&2];
        assert_eq!(log.chosen, Move::from_xy(5, 1));
        assert_eq!((log.value, log.iterations), (Some(0.612), Some(4000)));
        assert_eq!(log.reused, Some(true));
        // CodinGame's `chosen=ROW,COL`; a move without visits has no value.
        let cg = "turn=1 elapsed=90 chosen=5,1 value=0.500 visits=0 reused=false";
        let log = &log_lines(cg, Referee::UTTT_CODINGAME)[&1];
        assert_eq!(log.chosen, Move::from_xy(1, 5));
        assert_eq!((log.value, log.elapsed), (None, Some(90)));
    }

    #[test]
    fn requests_count_from_the_opening_and_phases_are_as_documented() {
        let line = "4,4 3,3 0,0 1,1 4,3 3,0 0,1 1,4 4,5 3,6 0,2 0,7";
        let mut g = game(line, 3);
        g.logs[1].insert(1, Logged::default());
        g.logs[1].insert(2, Logged::parse("chosen=1,4", false));
        // Player 1 moves at plies 2, 4, 6...: its first request after the three opening
        // plies is ply 4 (index 3), its second ply 6 (index 5).
        assert_eq!(g.log(1), None, "an opening ply");
        assert_eq!(g.log(3), Some(&Logged::default()));
        assert_eq!(g.log(5).and_then(|l| l.chosen), Move::from_xy(1, 4));
        assert_eq!(g.log(4), None, "player 0 logged nothing");
        // Twelve plies: the first ten are the opening, the last fifteen the end.
        assert_eq!(g.phase(9), Phase::Opening);
        assert_eq!(g.phase(10), Phase::End);
        // The first legal move each ply, 30 plies.
        let mut board = Board::new();
        let mut words = Vec::new();
        for _ in 0..30 {
            let mut moves = Vec::new();
            mctsbot::search::Game::legal_moves(&board, &mut moves);
            board.play_move(moves[0]);
            words.push(format!("{},{}", moves[0].xy().0, moves[0].xy().1));
        }
        let long = game(&words.join(" "), 0);
        assert_eq!(long.moves.len(), 30);
        assert_eq!(long.phase(10), Phase::Middle);
        assert_eq!(long.phase(long.moves.len() - END_PLIES), Phase::End);
        assert_eq!(game(line, 11).phase(10), Phase::Opening);
        assert_eq!(g.result(0), "drew");
    }

    /// A ply whose move played the long search values `played` against `best` for its
    /// best move, which the bot logged at `logged`.
    fn ply(logged: Option<f32>, best: f32, played: f32) -> UtttPly {
        let mv = Move::from_xy(4, 4).unwrap();
        UtttPly {
            k: 20,
            played: Move::from_xy(3, 3).unwrap(),
            log: Some(Logged {
                value: logged,
                ..Logged::default()
            }),
            verdict: Some(Verdict {
                best: Some(MoveInfo {
                    mv,
                    visits: 100,
                    value: best,
                    proof: Proof::Unknown,
                }),
                played: Some(played),
                iterations: 100,
            }),
        }
    }

    #[test]
    fn errors_are_classified_as_documented() {
        let close = |a: Option<f32>, b: f32| (a.unwrap() - b).abs() < 1e-6;
        // The move is fine, the value far off: a value error.
        let p = ply(Some(0.70), 0.50, 0.45);
        assert!(close(p.gap(), 0.20) && close(p.signed_gap(), 0.20));
        assert_eq!(p.error(), Some(ErrorKind::Value));
        assert!(!p.unseen());
        // The move much worse than the best: a move choice, whatever the value; unseen
        // when the bot valued it well above the long search's value of it.
        let p = ply(Some(0.50), 0.50, 0.30);
        assert_eq!((p.error(), p.unseen()), (Some(ErrorKind::MoveChoice), true));
        let p = ply(Some(0.35), 0.50, 0.30);
        assert_eq!(
            (p.error(), p.unseen()),
            (Some(ErrorKind::MoveChoice), false)
        );
        // Small errors, or no logged value: nothing, or only the loss counts.
        assert_eq!(ply(Some(0.55), 0.50, 0.45).error(), None);
        assert_eq!(ply(None, 0.50, 0.45).error(), None);
        assert_eq!(ply(None, 0.50, 0.20).error(), Some(ErrorKind::MoveChoice));
        // A played move the long search values above its best loses nothing.
        assert_eq!(ply(None, 0.50, 0.60).loss(), Some(0.0));
    }

    #[test]
    fn a_bad_line_is_refused() {
        let err = parse_game_line("4,4 4,4", EndRule::Draw).unwrap_err();
        assert_eq!(err, "ply 2: 4,4 is not legal there");
        let err = parse_game_line("4,4 x", EndRule::Draw).unwrap_err();
        assert!(err.contains("not column,row"), "{err}");
    }
}
