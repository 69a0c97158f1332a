//! The bot on CodinGame's Tron Battle (`--protocol codingame`, or detected from a first
//! line of two integers followed by a rider's four): each turn the referee sends `N P`
//! and every rider's `X0 Y0 X1 Y1`, so the bot keeps the trails itself from the heads'
//! steps (a rider out of the game loses its trail). It answers by iterative-deepening
//! alpha-beta over the paranoid view of the game ([`Paranoid`]): us against all other
//! riders, valued by the riders' Voronoi regions. With two riders that is the whole
//! game's search; with three or four, the paranoid reduction. Each turn has a fixed time:
//! 1000 ms for the first, 100 ms after, as in CodinGame's UTTT
//! ([`turn_deadlines`]).

use super::config::BattleConfig;
use crate::protocol::codingame::{parse_exactly, turn_deadlines, TurnLines};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::Limits;
use crate::tron::battle::{Battle, Found, Paranoid, RegionLead, HEIGHT, MAX_RIDERS, WIDTH};
use crate::tron::codingame::{format_direction, parse_rider, RiderLine, TronLineError};
use crate::tron::direction::Direction;
use crate::tron::endgame::fill_longest_from;
use log::{error, info, warn};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// One turn's input.
#[derive(Clone, Debug, PartialEq)]
struct Turn {
    me: usize,
    riders: Vec<RiderLine>,
}

/// The paranoid alpha-beta search; its transposition table is kept from turn to turn.
pub struct Searcher(AlphaBeta<Paranoid, RegionLead>);

impl Searcher {
    pub fn new(config: &BattleConfig) -> Searcher {
        Searcher(AlphaBeta::new(AlphaBetaConfig::default(), config.eval))
    }

    /// Searches `root` within `limits`.
    pub fn search(&mut self, root: &Paranoid, limits: Limits) -> Found {
        let r = self.0.search(root, limits);
        Found {
            best: r.best,
            score: r.score,
            depth: r.depth,
            stats: r.stats(),
        }
    }
}

/// The trails and the search (its transposition table), kept from turn to turn.
struct TronBattlePlayer {
    battle: Option<Battle>,
    search: Searcher,
    config: BattleConfig,
    turns: u32,
}

impl TronBattlePlayer {
    fn new(config: BattleConfig) -> Self {
        TronBattlePlayer {
            battle: None,
            search: Searcher::new(&config),
            config,
            turns: 0,
        }
    }

    /// The position the turn describes: the riders' new heads added to the trails kept
    /// so far (or, at the first turn, to their first cells).
    fn update(&mut self, turn: &Turn) -> Option<&Battle> {
        let fresh = self
            .battle
            .as_ref()
            .map_or(true, |b| b.riders() != turn.riders.len());
        if fresh {
            if self.battle.is_some() {
                error!("the number of riders changed: starting from the referee's lines");
            }
            let starts: Vec<_> = turn
                .riders
                .iter()
                .map(|r| r.map(|(start, _)| start))
                .collect();
            match Battle::with_riders_out(WIDTH, HEIGHT, &starts) {
                Ok(battle) => self.battle = Some(battle),
                Err(e) => {
                    error!("the riders' first cells make no position: {e}");
                    self.battle = None;
                    return None;
                }
            }
        }
        let battle = self.battle.as_mut()?;
        // The riders that went out first: a rider seated after one that crashed may step
        // onto its vanished trail in the same round, and read in seat order that step
        // would land on a trail the crash then erased, leaving a hole under the rider.
        let (out, in_game): (Vec<_>, Vec<_>) = turn
            .riders
            .iter()
            .enumerate()
            .partition(|(_, line)| line.is_none());
        for (rider, line) in out.into_iter().chain(in_game) {
            if let Err(e) = battle.observe(rider, line.map(|(_, head)| head)) {
                warn!("{e}");
            }
        }
        if turn.me < battle.riders() {
            battle.set_to_move(turn.me);
        }
        Some(battle)
    }

    /// Our answer, searched within the turn's time.
    fn act(&mut self, turn: &Turn, received: Instant) -> Direction {
        self.turns += 1;
        // Alpha-beta stops within a few nodes of its deadline: the target is enough.
        let (deadline_ms, _) = turn_deadlines(self.turns == 1, self.config.safety_margin_ms);
        let Some(battle) = self.update(turn).cloned() else {
            return Direction::Up;
        };
        let me = turn.me;
        if me >= battle.riders() || !battle.is_alive(me) {
            error!("asked to move rider {me}, which is not in the game: answering UP");
            return Direction::Up;
        }
        let safe = battle.safe_moves(me);
        let Some(fallback) = safe.iter().next() else {
            info!("turn={} no safe move: answering UP", self.turns);
            return Direction::Up;
        };
        if safe.len() == 1 {
            return fallback;
        }
        let deadline = received + Duration::from_millis(deadline_ms);
        if self.config.fill_alone && battle.rivals_in_reach(me) == 0 {
            let fill = fill_longest_from(
                battle.blocked(),
                battle.head_index(me),
                Limits::until(deadline),
            );
            info!(
                "turn={} alone: fill length={} exact={} nodes={}",
                self.turns, fill.length, fill.exact, fill.nodes
            );
            return fill.first.filter(|&d| safe.contains(d)).unwrap_or(fallback);
        }
        let root = self.config.root(battle, me);
        let result = self.search.search(&root, Limits::until(deadline));
        let mv = result
            .best
            .filter(|&d| safe.contains(d))
            .unwrap_or(fallback);
        info!(
            "turn={} riders={} searched={} budget={deadline_ms} elapsed={} nodes={} depth={} \
             score={} chosen={}",
            self.turns,
            root.battle.alive_count(),
            root.searched(),
            received.elapsed().as_millis(),
            result.stats.nodes,
            result.depth,
            result.score,
            format_direction(mv),
        );
        mv
    }
}

/// Reads a turn after its first line `N P`; an error says what was wrong (the lines of
/// the turn are read all the same, so the next turn starts in step).
fn read_turn<R: BufRead>(
    header: &str,
    lines: &mut TurnLines<R>,
) -> io::Result<Option<Result<Turn, TronLineError>>> {
    let (riders, me) = match parse_exactly(header, 2, "the riders and our seat") {
        Ok(n) if (2..=MAX_RIDERS as i32).contains(&n[0]) && (0..n[0]).contains(&n[1]) => {
            (n[0] as usize, n[1] as usize)
        }
        Ok(n) => {
            return Ok(Some(Err(TronLineError::Seats {
                riders: n[0],
                seat: n[1],
            })))
        }
        Err(e) => return Ok(Some(Err(e.into()))),
    };
    let mut parsed = Vec::with_capacity(riders);
    let mut problem = None;
    for _ in 0..riders {
        let Some(line) = lines.next_line()? else {
            return Ok(None);
        };
        match parse_rider(&line) {
            Ok(rider) => parsed.push(rider),
            Err(e) => {
                problem.get_or_insert(e.into());
                parsed.push(None);
            }
        }
    }
    Ok(Some(match problem {
        Some(e) => Err(e),
        None => Ok(Turn { me, riders: parsed }),
    }))
}

/// Plays CodinGame's Tron Battle: `first` is the first line, already read (at `received`).
pub fn run<R: BufRead, W: Write>(
    first: String,
    received: Instant,
    input: R,
    mut output: W,
    config: BattleConfig,
) -> io::Result<()> {
    let mut player = TronBattlePlayer::new(config);
    let mut lines = TurnLines::new(first, received, input);
    while let Some((header, received)) = lines.next_turn()? {
        let answer = match read_turn(&header, &mut lines)? {
            None => return Ok(()),
            Some(Ok(turn)) => player.act(&turn, received),
            Some(Err(e)) => {
                error!("{e}: answering from the position kept so far");
                player.fallback()
            }
        };
        writeln!(output, "{}", format_direction(answer))?;
        output.flush()?;
    }
    Ok(())
}

impl TronBattlePlayer {
    /// A safe move of the rider that moved last in our position, when a turn could not be
    /// read (`UP` if there is none).
    fn fallback(&self) -> Direction {
        self.battle
            .as_ref()
            .and_then(|b| {
                let me = b.to_move();
                b.safe_moves(me).iter().next()
            })
            .unwrap_or(Direction::Up)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::tron_battle::Rivals;
    use crate::tron::codingame::{format_rider, parse_direction};

    fn play(input: &str) -> Vec<Direction> {
        let mut lines = input.lines();
        let first = format!("{}\n", lines.next().unwrap());
        let rest: String = lines.map(|l| format!("{l}\n")).collect();
        let mut out = Vec::new();
        run(
            first,
            Instant::now(),
            rest.as_bytes(),
            &mut out,
            BattleConfig {
                safety_margin_ms: 40,
                ..BattleConfig::default()
            },
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| parse_direction(l).unwrap())
            .collect()
    }

    /// Rider `me`'s turn in `battle`, whose riders started on `starts`, as the referee's
    /// lines.
    fn turn_lines(battle: &Battle, starts: &[(usize, usize)], me: usize) -> String {
        let mut text = format!("{} {me}\n", battle.riders());
        for (rider, &start) in starts.iter().enumerate() {
            let line = battle.head(rider).map(|head| (start, head));
            text += &format!("{}\n", format_rider(line));
        }
        text
    }

    fn read(text: &str) -> Turn {
        let mut lines = TurnLines::new(String::new(), Instant::now(), text.as_bytes());
        let (header, _) = lines.next_turn().unwrap().unwrap();
        read_turn(&header, &mut lines).unwrap().unwrap().unwrap()
    }

    #[test]
    fn a_rider_stepping_onto_a_trail_that_vanished_that_round_keeps_its_cell_blocked() {
        use Direction::*;
        // Rider 2 crashes into rider 0's trail; rider 0, seated after it in the next
        // round, steps onto the cell rider 2's trail left free. The bot is rider 1.
        let starts = [(5, 5), (20, 10), (7, 5)];
        let mut referee = Battle::codingame(&starts).unwrap();
        let mut bot = TronBattlePlayer::new(BattleConfig::default());
        for [first, third] in [[Down, Left], [Right, Down]] {
            referee.play(first);
            bot.update(&read(&turn_lines(&referee, &starts, 1)));
            assert_eq!(bot.battle.as_ref(), Some(&referee));
            referee.play(Down);
            referee.play(third);
        }
        assert!(!referee.is_alive(2), "rider 2 crashed into (6, 6)");
        referee.play(Up);
        assert_eq!(
            referee.head(0),
            Some((6, 5)),
            "rider 0 on rider 2's old trail"
        );
        bot.update(&read(&turn_lines(&referee, &starts, 1)));
        assert_eq!(bot.battle.as_ref(), Some(&referee));
        assert!(bot.battle.unwrap().blocked().get(6, 5));
    }

    #[test]
    fn keeps_the_trails_from_the_referees_lines_and_never_crashes_while_it_can_move() {
        let configs = [
            BattleConfig::default(),
            BattleConfig::PARANOID_ALL,
            BattleConfig {
                rivals: Rivals::InReach,
                eval: RegionLead::Largest,
                fill_alone: false,
                ..BattleConfig::default()
            },
            BattleConfig {
                eval: RegionLead::Space,
                ..BattleConfig::default()
            },
        ];
        for config in configs {
            walk_a_three_rider_game(config);
        }
    }

    /// Three riders; the bot is rider 1. The others walk in fixed directions, turning
    /// when blocked, until the bot is the last or out.
    fn walk_a_three_rider_game(config: BattleConfig) {
        let starts = [(3, 3), (15, 10), (26, 16)];
        let mut referee = Battle::codingame(&starts).unwrap();
        let mut bot = TronBattlePlayer::new(BattleConfig {
            safety_margin_ms: 45,
            ..config
        });
        let mut turns = 0;
        while referee.winner().is_none() && referee.is_alive(1) {
            let rider = referee.to_move();
            if rider == 1 {
                let turn = read(&turn_lines(&referee, &starts, 1));
                let answer = bot.act(&turn, Instant::now());
                assert_eq!(
                    bot.battle.as_ref(),
                    Some(&referee),
                    "the bot's own position"
                );
                let could = !referee.safe_moves(1).is_empty();
                assert!(
                    !could || referee.safe_moves(1).contains(answer),
                    "{config:?} turn {turns}: {answer:?}"
                );
                referee.play(answer);
                turns += 1;
            } else {
                let walk = if rider == 0 {
                    Direction::Right
                } else {
                    Direction::Up
                };
                let safe = referee.safe_moves(rider);
                let d = if safe.contains(walk) {
                    walk
                } else {
                    safe.iter().next().unwrap_or(walk)
                };
                referee.play(d);
            }
        }
        assert!(turns > 20, "{config:?}: {turns}");
    }

    #[test]
    fn answers_only_safe_moves_in_a_four_rider_game() {
        let starts = [(0, 0), (29, 0), (29, 19), (0, 19)];
        let mut battle = Battle::codingame(&starts).unwrap();
        battle.play(Direction::Right); // rider 0; rider 1 (us) sits in the top-right corner
        let answers = play(&turn_lines(&battle, &starts, 1));
        assert_eq!(answers.len(), 1);
        assert!(battle.safe_moves(1).contains(answers[0]), "{answers:?}");
    }

    #[test]
    fn a_malformed_turn_is_reported_and_still_answered() {
        assert_eq!(play("2 0\n1 2 3\n4 4 4 4\n").len(), 1);
        assert_eq!(play("9 9\n").len(), 1);
        // a good turn after a bad one is still read in step
        let answers = play("2 0\nx\n4 4 4 4\n2 0\n1 1 1 1\n9 9 9 9\n");
        assert_eq!(answers.len(), 2);
    }
}
