//! The bot on CodinGame's Ultimate Tic-Tac-Toe (`--protocol codingame`, or detected from
//! a first line of two integers): CodinGame's referee sends only the opponent's last move
//! and the valid actions, so the bot keeps the position itself, under CodinGame's end rule
//! (a game without a line of boards goes to the player who won more of them). Each turn
//! has a fixed time: 1000 ms for the first, 100 ms after.

use crate::protocol::codingame::{parse_exactly, turn_deadlines, LineSource, TurnLines};
use crate::search::minimax_uct::{ChildValues, MinimaxUct};
use crate::search::root_move::MoveInfo;
use crate::search::{random_below, think, FastRng, Game, Limits, Search, PONDER_SLICE};
use crate::uttt::codingame::{format_move, parse_move};
use crate::uttt::symmetry::{inverse, move_image};
use crate::uttt::{Board, EndRule, Move};
use log::{error, info, warn};
use rand::SeedableRng;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// What the CodinGame player needs of the options besides its search (this module
/// depends on no other part of the bot's glue, so that the one-file CodinGame build can
/// take it alone, with the one search it plays).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub seed: u64,
    /// Kept back from each turn's time.
    pub safety_margin_ms: u64,
    /// Our first turns answered by a uniformly random valid action instead of a search
    /// (`--random-turns`: for testing, so that games against a deterministic bot differ).
    pub random_turns: u32,
    /// The symmetry the game is played through (`crate::uttt::symmetry`; 0, the identity,
    /// but under `--random-symmetry`, for testing: the same play, other lines against a
    /// deterministic bot).
    pub symmetry: usize,
}

/// The symmetry `--random-symmetry` plays a game through: one of the eight, picked by the
/// seed alone (a stream of its own, apart from `--random-turns`' choices).
pub fn symmetry_of_seed(seed: u64) -> usize {
    let mut rng = FastRng::seed_from_u64(seed ^ 0x005E_ED0F_5E77);
    random_below(&mut rng, 8) as usize
}

impl Settings {
    /// A move of the real board as the game is played ([`Settings::symmetry`]'s image).
    fn seen(&self, mv: Move) -> Move {
        move_image(self.symmetry, mv)
    }

    /// A move of the game as played, on the real board.
    fn shown(&self, mv: Move) -> Move {
        move_image(inverse(self.symmetry), mv)
    }
}

/// A search the CodinGame player can keep from turn to turn: the bot's, which the
/// options build ([`crate::bot::uttt::UtttSearch`]), or the one-file build's, UCT with
/// minimax backups over the network alone.
pub trait TurnSearch: Search {
    /// Moves the root to `board`, keeping what the search knows of it; whether anything
    /// was kept.
    fn reroot(&mut self, board: Board) -> bool;
    /// The move to play and what the search knows of it.
    fn best_move(&self) -> Option<MoveInfo<Move>>;
}

impl<V: ChildValues<Board>> TurnSearch for MinimaxUct<Board, V> {
    fn reroot(&mut self, board: Board) -> bool {
        MinimaxUct::reroot(self, board)
    }

    fn best_move(&self) -> Option<MoveInfo<Move>> {
        MinimaxUct::best_move(self)
    }
}

/// The position and the search, kept from turn to turn.
struct CodinGameUttt<S> {
    board: Board,
    search: Option<S>,
    turns: u32,
    /// Iterations searched on the opponent's time since our last answer.
    pondered: u64,
}

impl<S: TurnSearch> CodinGameUttt<S> {
    fn new() -> Self {
        CodinGameUttt {
            board: Board::with_end_rule(EndRule::MoreBoards),
            search: None,
            turns: 0,
            pondered: 0,
        }
    }

    /// Plays the opponent's move, read as `row col` (`-1 -1`: there was none) of the real
    /// board.
    fn opponent_played(&mut self, row: i32, col: i32, settings: &Settings) {
        if (row, col) == (-1, -1) {
            if self.board.ply() > 0 {
                warn!("the referee says no move was played, but the game is under way");
            }
            return;
        }
        let mv = Move::from_row_col(row, col)
            .map(|mv| settings.seen(mv))
            .filter(|&mv| self.board.is_legal(mv));
        match mv {
            Some(mv) => self.board.play_move(mv),
            None => error!(
                "the opponent's move {row} {col} is not legal in our position: it is ignored"
            ),
        }
    }

    /// Our answer, searched within the turn's time, among `valid` (the referee's list).
    fn act(
        &mut self,
        valid: &[Move],
        received: Instant,
        settings: &Settings,
        new_search: &impl Fn(Board, u64) -> S,
    ) -> Move {
        self.turns += 1;
        // Taken whether or not this turn searches, so that the log counts one wait.
        let pondered = std::mem::take(&mut self.pondered);
        // The board lists its moves in increasing order; the referee's list may not be.
        let mut legal = Vec::new();
        self.board.legal_moves(&mut legal);
        let mut given = valid.to_vec();
        given.sort_by_key(|m| m.0);
        if !valid.is_empty() && legal != given {
            error!(
                "the referee's {} valid actions differ from the {} legal moves of our position: \
                 answering from its list",
                valid.len(),
                legal.len()
            );
            self.search = None;
            if self.board.is_legal(valid[0]) {
                self.board.play_move(valid[0]);
            }
            return valid[0];
        }
        let choices = if valid.is_empty() { &legal } else { valid };
        let Some(&fallback) = choices.first() else {
            error!("no valid action and no legal move: answering 4 4");
            return Move::from_xy(4, 4).expect("on the board");
        };
        if choices.len() == 1 {
            self.board.play_move(fallback);
            return fallback;
        }
        if self.turns <= settings.random_turns {
            // The seed and the turn alone pick it: two bots given the same seed open alike.
            let mut rng = FastRng::seed_from_u64(settings.seed ^ u64::from(self.turns));
            let mv = choices[random_below(&mut rng, choices.len() as u32) as usize];
            let (x, y) = settings.shown(mv).xy();
            info!(
                "turn={} chosen={y},{x} at random (--random-turns)",
                self.turns
            );
            self.board.play_move(mv);
            return mv;
        }
        let (target_ms, hard_ms) = turn_deadlines(self.turns == 1, settings.safety_margin_ms);
        let board = self.board;
        let reused = self.search.as_mut().is_some_and(|s| s.reroot(board));
        let search = self
            .search
            .get_or_insert_with(|| new_search(board, settings.seed));
        let stats = think(
            search,
            received,
            received + Duration::from_millis(target_ms),
            received + Duration::from_millis(hard_ms),
        );
        let chosen = search.best_move();
        let mv = chosen
            .map(|c| c.mv)
            .filter(|mv| choices.contains(mv))
            .unwrap_or(fallback);
        let (x, y) = settings.shown(mv).xy();
        info!(
            "turn={} budget={target_ms} hard={hard_ms} elapsed={} iterations={} nodes={} \
             chosen={y},{x} value={:.3} visits={} reused={reused} pondered={}",
            self.turns,
            received.elapsed().as_millis(),
            stats.iterations,
            stats.nodes,
            chosen.map_or(0.5, |c| c.value),
            chosen.map_or(0, |c| c.visits),
            pondered,
        );
        self.board.play_move(mv);
        mv
    }

    /// Searches on the opponent's time, from the position after our answer, until its
    /// next line is waiting (never, from a plain reader: [`LineSource::line_waiting`]),
    /// the tree is full or the root is proven; the turn then reroots into what was found.
    fn ponder<L: LineSource>(&mut self, lines: &mut TurnLines<L>) {
        let Some(search) = self.search.as_mut() else {
            return;
        };
        if self.board.outcome().is_some() || lines.line_waiting() {
            return;
        }
        search.reroot(self.board);
        while !lines.line_waiting() {
            let stats = search.search(Limits::until(Instant::now() + PONDER_SLICE));
            self.pondered += stats.iterations;
            if stats.tree_full || stats.iterations == 0 {
                return;
            }
        }
    }
}

/// Plays CodinGame UTTT: `first` is the first line, already read (at `received`);
/// `new_search` makes the search of a position, with a seed, whenever the kept one cannot
/// be rerooted there. From a source that tells when a line is waiting (the bot's
/// `--ponder`), the search goes on between our answer and the opponent's move.
pub fn run<R: LineSource, W: Write, S: TurnSearch>(
    first: String,
    received: Instant,
    input: R,
    mut output: W,
    settings: &Settings,
    new_search: impl Fn(Board, u64) -> S,
) -> io::Result<()> {
    let mut game = CodinGameUttt::new();
    let mut lines = TurnLines::new(first, received, input);
    while let Some((line, received)) = lines.next_turn()? {
        match parse_exactly(&line, 2, "the opponent's move") {
            Ok(numbers) => game.opponent_played(numbers[0], numbers[1], settings),
            Err(e) => error!("{e}"),
        }
        let Some(count_line) = lines.next_line()? else {
            return Ok(());
        };
        let count = match parse_exactly(&count_line, 1, "the valid action count") {
            Ok(numbers) => usize::try_from(numbers[0]).unwrap_or(0),
            Err(e) => {
                error!("{e}: answering from our own position");
                0
            }
        };
        let mut valid = Vec::with_capacity(count);
        for _ in 0..count {
            let Some(action) = lines.next_line()? else {
                return Ok(());
            };
            match parse_move(&action, "a valid action") {
                Ok(mv) => valid.push(settings.seen(mv)),
                Err(e) => error!("{e}"),
            }
        }
        let mv = game.act(&valid, received, settings, &new_search);
        writeln!(output, "{}", format_move(settings.shown(mv)))?;
        output.flush()?;
        game.ponder(&mut lines);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::uttt::UtttSearch;

    fn play(input: &str, args: &[&str]) -> Vec<String> {
        let config = crate::bot::Config::from_args(args).unwrap();
        let settings = super::super::codingame_settings(&config);
        let mut lines = input.lines();
        let first = format!("{}\n", lines.next().unwrap());
        let rest: String = lines.map(|l| format!("{l}\n")).collect();
        let mut out = Vec::new();
        let search = super::super::codingame_search(&config);
        run(
            first,
            Instant::now(),
            rest.as_bytes(),
            &mut out,
            &settings,
            search,
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The turn input for `board` after the opponent's `last` move.
    fn turn(board: &Board, last: Option<Move>) -> String {
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        let last = last.map_or_else(|| "-1 -1".to_string(), format_move);
        let mut text = format!("{last}\n{}\n", moves.len());
        for mv in moves {
            text += &format!("{}\n", format_move(mv));
        }
        text
    }

    #[test]
    fn answers_the_first_turn_with_a_valid_action() {
        let answers = play(
            &turn(&Board::new(), None),
            &["--seed", "1", "--safety-ms", "80"],
        );
        assert_eq!(answers.len(), 1);
        let numbers = parse_exactly(&answers[0], 2, "answer").unwrap();
        assert!((0..9).contains(&numbers[0]) && (0..9).contains(&numbers[1]));
    }

    #[test]
    fn keeps_the_position_from_the_moves_and_answers_legally() {
        // We move second: the opponent opened in the centre.
        let mut board = Board::with_end_rule(EndRule::MoreBoards);
        let centre = Move::from_xy(4, 4).unwrap();
        board.play_move(centre);
        let answers = play(
            &turn(&board, Some(centre)),
            &["--seed", "1", "--safety-ms", "45"],
        );
        let ours = parse_move(&answers[0], "answer").unwrap();
        assert!(board.is_legal(ours), "{ours:?}");
    }

    #[test]
    fn random_turns_answer_a_valid_action_the_seed_picks() {
        let board = Board::with_end_rule(EndRule::MoreBoards);
        let answer = |seed: &str| {
            let args = ["--seed", seed, "--random-turns", "1"];
            parse_move(&play(&turn(&board, None), &args)[0], "answer").unwrap()
        };
        assert_eq!(answer("7"), answer("7"));
        let seen: std::collections::HashSet<Move> =
            (0..20).map(|seed| answer(&seed.to_string())).collect();
        assert!(seen.len() > 5, "{seen:?}");
        assert!(seen.iter().all(|&mv| board.is_legal(mv)));
    }

    #[test]
    fn a_game_played_through_a_symmetry_answers_on_the_real_board() {
        let config = crate::bot::Config::from_args(&["--seed", "1"]).unwrap();
        let new_search = super::super::codingame_search(&config);
        for symmetry in 0..8 {
            let settings = Settings {
                symmetry,
                ..super::super::codingame_settings(&config)
            };
            let mut game = CodinGameUttt::<UtttSearch>::new();
            let (mut real, mut image) = (game.board, game.board);
            for _ in 0..4 {
                // The opponent's move: the last legal one of the real board.
                let mut legal = Vec::new();
                real.legal_moves(&mut legal);
                let theirs = *legal.last().unwrap();
                let (x, y) = theirs.xy();
                game.opponent_played(i32::from(y), i32::from(x), &settings);
                real.play_move(theirs);
                image.play_move(move_image(symmetry, theirs));
                assert_eq!(
                    game.board, image,
                    "symmetry {symmetry}: the opponent's move"
                );
                legal.clear();
                real.legal_moves(&mut legal);
                let valid: Vec<Move> = legal.iter().map(|&mv| settings.seen(mv)).collect();
                // A short turn: the test is about the board, not the search.
                let received = Instant::now() - Duration::from_millis(95);
                let ours = settings.shown(game.act(&valid, received, &settings, &new_search));
                assert!(real.is_legal(ours), "symmetry {symmetry}: {ours:?}");
                real.play_move(ours);
                image.play_move(move_image(symmetry, ours));
                assert_eq!(game.board, image, "symmetry {symmetry}: our move");
            }
        }
    }

    #[test]
    fn the_seed_picks_every_symmetry() {
        let picked: std::collections::HashSet<usize> = (0..64).map(symmetry_of_seed).collect();
        assert_eq!(picked.len(), 8);
    }

    /// Our first turn moving first, then pondering on `source` (whose first line, a
    /// stand-in for the game's first, is taken first); what was pondered.
    fn ponder_after_first_turn<L: LineSource>(source: L) -> (CodinGameUttt<UtttSearch>, u64) {
        let config = crate::bot::Config::from_args(&["--seed", "1"]).unwrap();
        let settings = super::super::codingame_settings(&config);
        let new_search = super::super::codingame_search(&config);
        let mut game = CodinGameUttt::new();
        // A short first turn: the test is about the opponent's time.
        let long_ago = Instant::now() - Duration::from_millis(950);
        game.act(&[], long_ago, &settings, &new_search);
        let mut lines = TurnLines::new("-1 -1\n".to_string(), Instant::now(), source);
        lines.next_turn().unwrap();
        game.ponder(&mut lines);
        let pondered = game.pondered;
        (game, pondered)
    }

    #[test]
    fn a_plain_reader_is_never_pondered_on() {
        let (_, pondered) = ponder_after_first_turn("4 4\n".as_bytes());
        assert_eq!(pondered, 0);
    }

    #[cfg(unix)]
    #[test]
    fn pondering_searches_until_the_opponent_answers_and_the_turn_keeps_it() {
        use crate::bot::arrivals::Arrivals;
        use std::io::Write as _;
        let (writer, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        std::thread::scope(|scope| {
            let (arrivals, thread) = Arrivals::spawn(scope, io::BufReader::new(reader));
            scope.spawn(move || {
                (&writer).write_all(b"-1 -1\n").unwrap();
                std::thread::sleep(Duration::from_millis(30));
                (&writer).write_all(b"4 4\n").unwrap();
            });
            let (mut game, pondered) = ponder_after_first_turn(arrivals);
            assert!(pondered > 0, "searched while the opponent thought");
            // The pondered tree is rooted after our move: the opponent's reply is a
            // child, and the next turn keeps its subtree.
            let ours = game.board;
            let mut moves = Vec::new();
            ours.legal_moves(&mut moves);
            let mut next = ours;
            next.play_move(moves[0]);
            let search = game.search.as_mut().unwrap();
            assert!(search.reroot(next), "the tree pondered reaches the reply");
            thread.join().unwrap().unwrap();
        });
    }

    #[test]
    fn a_malformed_turn_is_reported_and_still_answered() {
        let answers = play("-1 -1\nmany\n", &["--seed", "1", "--safety-ms", "80"]);
        assert_eq!(answers.len(), 1, "answered from our own position");
        let ours = parse_move(&answers[0], "answer").unwrap();
        assert!(Board::new().is_legal(ours));
    }
}
