//! The positions of a recorded game, one frame per move, as the viewer page draws them:
//! UTTT's 81 cells, won boards and the boards open to the next move; Light Riders' and
//! Tron Battle's walls and each rider's head, from which the page draws the trails.
//!
//! Every frame is re-created with the bot's own rules ([`mctsbot::uttt`],
//! [`mctsbot::tron`]) from the game's `line`, so the page shows what the referee saw.

use crate::game::GameRecord;
use crate::openings::{letter, parse_game_line, parse_tron};
use crate::options::Options;
use crate::replay::Game;
use crate::tron_codingame::random_starts;
use mctsbot::game::GameKind;
use mctsbot::tron::battle::Battle;
use mctsbot::tron::Direction;
use mctsbot::uttt::{Board, Move};
use serde::Serialize;

/// A game's frames: frame 0 is the start, frame k the position after k moves.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Frames {
    Uttt(UtttFrames),
    Grid(GridFrames),
}

impl Frames {
    /// The side (0 = A, ...) of each seat (player or rider).
    pub fn sides(&self) -> Vec<usize> {
        match self {
            Frames::Uttt(u) => u.sides.to_vec(),
            Frames::Grid(g) => g.sides.clone(),
        }
    }

    /// For each seat (player or rider), the frames in which its bot was asked for a
    /// move, in order (an opening's moves were the arena's).
    pub fn asked(&self) -> &[Vec<usize>] {
        match self {
            Frames::Uttt(u) => &u.asked,
            Frames::Grid(g) => &g.asked,
        }
    }
}

/// UTTT: one entry per position.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct UtttFrames {
    /// The side (0 = A) that played player 0 (X, first to move) and player 1 (O).
    pub sides: [usize; 2],
    pub frames: Vec<UtttFrame>,
    /// The move that led to each frame after the first: `column,row`.
    pub moves: Vec<String>,
    /// The plies of the opening, played by the arena.
    pub opening: usize,
    #[serde(skip)]
    pub asked: Vec<Vec<usize>>,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct UtttFrame {
    /// Row-major 9 x 9 cells: `.` empty, `0` player 0's mark, `1` player 1's.
    pub cells: String,
    /// The nine small boards, row-major: `.` open, `0` / `1` won by that player, `-` drawn.
    pub boards: String,
    /// Bit b set: small board b is open to the next move (none once the game is over).
    pub next: u16,
    /// The cell (row-major index) of the move that led here.
    pub last: Option<usize>,
}

/// Light Riders and Tron Battle: the board and every rider's head in every frame.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GridFrames {
    pub width: usize,
    pub height: usize,
    /// The cells (row-major indexes) that are walls from the start.
    pub walls: Vec<usize>,
    /// The side (0 = A, ...) of each rider.
    pub sides: Vec<usize>,
    /// Whether a rider's trail vanishes when it goes out (Tron Battle).
    pub trails_vanish: bool,
    pub frames: Vec<GridFrame>,
    /// What led to each frame after the first: Light Riders `rl` (both riders at once),
    /// Tron Battle `rider 2 u`.
    pub moves: Vec<String>,
    /// The rounds of the opening, played by the arena.
    pub opening: usize,
    #[serde(skip)]
    pub asked: Vec<Vec<usize>>,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GridFrame {
    /// Each rider's head cell (row-major index), `None` once it is out of the game.
    pub heads: Vec<Option<usize>>,
    /// Where each rider crashed, in the move that led here (off the board: `None`).
    pub crashes: Vec<usize>,
}

/// The frames of `record`, a game of the series `opts` (recorded in `dir`).
pub fn frames(
    opts: &Options,
    record: &GameRecord,
    dir: &std::path::Path,
) -> Result<Frames, String> {
    match opts.game.game() {
        GameKind::Uttt => uttt(opts, record).map(Frames::Uttt),
        GameKind::LightRiders => light_riders(record, dir).map(Frames::Grid),
        GameKind::TronBattle => battle(opts, record).map(Frames::Grid),
    }
}

fn uttt(opts: &Options, record: &GameRecord) -> Result<UtttFrames, String> {
    let end_rule = opts.uttt_end_rule();
    let played = parse_game_line(&record.line, end_rule)
        .map_err(|e| format!("game {}: {e}", record.index))?;
    let mut board = Board::with_end_rule(end_rule);
    let mut frames = vec![uttt_frame(&board, None)];
    let mut moves = Vec::new();
    for mv in played {
        board.play_move(mv);
        let (x, y) = mv.xy();
        frames.push(uttt_frame(&board, Some(y as usize * 9 + x as usize)));
        moves.push(format!("{x},{y}"));
    }
    let opening = record.opening.split_whitespace().count();
    Ok(UtttFrames {
        sides: [0, 1].map(|p| (p + record.a_player as usize) % 2),
        asked: (0..2)
            .map(|p| (opening..moves.len()).filter(|i| i % 2 == p).collect())
            .collect(),
        frames,
        moves,
        opening,
    })
}

fn uttt_frame(board: &Board, last: Option<usize>) -> UtttFrame {
    let mut cells = String::with_capacity(81);
    for i in 0..81 {
        let mv = Move::from_xy((i % 9) as u8, (i / 9) as u8).expect("on the board");
        cells.push(board.owner(mv).map_or('.', |p| char::from(b'0' + p)));
    }
    let (won0, won1, drawn) = (
        board.won_boards(0),
        board.won_boards(1),
        board.drawn_boards(),
    );
    let boards = (0..9)
        .map(|b| match () {
            _ if won0 >> b & 1 == 1 => '0',
            _ if won1 >> b & 1 == 1 => '1',
            _ if drawn >> b & 1 == 1 => '-',
            _ => '.',
        })
        .collect();
    let next = if board.outcome().is_some() {
        0
    } else {
        board.playable_boards()
    };
    UtttFrame {
        cells,
        boards,
        next,
        last,
    }
}

/// Light Riders: the start from the transcripts and the rounds of the line (as `arena
/// replay` reads them); an opening's rounds, played before the transcripts begin, are
/// walked back from the start's heads, so their trails are drawn as the riders'.
fn light_riders(record: &GameRecord, dir: &std::path::Path) -> Result<GridFrames, String> {
    let game = Game::from_record(record, dir, ["A".into(), "B".into()])?;
    let (width, height) = (game.start.width(), game.start.height());
    let cell = |(x, y): (usize, usize)| y * width + x;
    let line = parse_tron(&record.line).map_err(|e| format!("game {}: {e}", record.index))?;
    let opening = &line.rounds[..game.first_round as usize];
    // The heads before the start: each opening round undone from the last.
    let mut before = Vec::new();
    let mut heads = [0, 1].map(|p| game.start.head(p));
    for round in opening.iter().rev() {
        for (p, head) in heads.iter_mut().enumerate() {
            *head = step(*head, round[p], -1, width, height).ok_or(format!(
                "game {}: the opening walks rider {p} off the board",
                record.index
            ))?;
        }
        before.push(heads);
    }
    before.reverse();
    let mut trail = std::collections::HashSet::new();
    let mut frames: Vec<GridFrame> = Vec::new();
    let mut moves = Vec::new();
    for heads in &before {
        trail.extend(heads.iter().map(|&h| cell(h)));
        frames.push(GridFrame {
            heads: heads.iter().map(|&h| Some(cell(h))).collect(),
            crashes: Vec::new(),
        });
    }
    moves.extend(
        opening
            .iter()
            .map(|r| format!("{}{}", letter(r[0]), letter(r[1]))),
    );
    let positions = game.positions();
    for (k, state) in positions.iter().enumerate() {
        let crashes = match k.checked_sub(1).map(|k| (&positions[k], game.rounds[k])) {
            Some((prev, round)) => (0..2)
                .filter(|&p| prev.is_alive(p as u8) && !state.is_alive(p as u8))
                .filter_map(|p| step(prev.head(p as u8), round[p], 1, width, height))
                .map(cell)
                .collect(),
            None => Vec::new(),
        };
        frames.push(GridFrame {
            heads: (0..2).map(|p| Some(cell(state.head(p)))).collect(),
            crashes,
        });
    }
    moves.extend(
        game.rounds
            .iter()
            .map(|r| format!("{}{}", letter(r[0]), letter(r[1]))),
    );
    let walls = game
        .start
        .blocked()
        .cells()
        .map(cell)
        .filter(|c| !trail.contains(c) && (0..2).all(|p| cell(game.start.head(p)) != *c))
        .collect();
    let asked: Vec<usize> = (opening.len()..moves.len()).collect();
    Ok(GridFrames {
        width,
        height,
        walls,
        sides: game.sides.to_vec(),
        trails_vanish: false,
        frames,
        moves,
        opening: opening.len(),
        asked: vec![asked.clone(), asked],
    })
}

/// The cell one step from `(x, y)` in direction `d` (`steps` 1), or against it (-1), if
/// it is on the `w` x `h` board.
fn step(
    (x, y): (usize, usize),
    d: Direction,
    steps: i32,
    w: usize,
    h: usize,
) -> Option<(usize, usize)> {
    let (dx, dy) = d.offset();
    let (x, y) = (x as i32 + steps * dx, y as i32 + steps * dy);
    let on_board = (0..w as i32).contains(&x) && (0..h as i32).contains(&y);
    on_board.then_some((x as usize, y as usize))
}

/// Tron Battle: the starts the referee drew for the game (from the series' seed) and the
/// turns of the line, one rider at a time in seat order (`x`: put out).
fn battle(opts: &Options, record: &GameRecord) -> Result<GridFrames, String> {
    let riders = opts.riders;
    let starts = random_starts(riders, opts.seed, (record.index / opts.sides()) as u64);
    let mut battle = Battle::codingame(&starts).map_err(|e| e.to_string())?;
    let width = battle.grid().width();
    let height = battle.grid().height();
    let cell = |(x, y): (usize, usize)| y * width + x;
    let heads = |b: &Battle| (0..riders).map(|r| b.head(r).map(cell)).collect();
    let mut frames = vec![GridFrame {
        heads: heads(&battle),
        crashes: Vec::new(),
    }];
    let mut moves = Vec::new();
    let mut asked = vec![Vec::new(); riders];
    for (turn, word) in record.line.split_whitespace().enumerate() {
        if battle.winner().is_some() {
            return Err(format!(
                "game {}: turn {} comes after the game was won",
                record.index,
                turn + 1
            ));
        }
        let rider = battle.to_move();
        asked[rider].push(turn);
        let head = battle.head(rider);
        let mut crashes = Vec::new();
        match word {
            "x" => battle.forfeit(),
            _ => {
                let d = Direction::ALL
                    .into_iter()
                    .find(|&d| word.len() == 1 && word.starts_with(letter(d)))
                    .ok_or(format!(
                        "game {}: turn {}: {word:?} is not u, d, l, r or x",
                        record.index,
                        turn + 1
                    ))?;
                battle.play(d);
                if !battle.is_alive(rider) {
                    crashes.extend(head.and_then(|h| step(h, d, 1, width, height)).map(cell));
                }
            }
        }
        frames.push(GridFrame {
            heads: heads(&battle),
            crashes,
        });
        moves.push(format!("rider {rider} {word}"));
    }
    Ok(GridFrames {
        width,
        height,
        walls: Vec::new(),
        sides: (0..riders)
            .map(|r| crate::game::side_at(r, record.a_player, opts.sides()))
            .collect(),
        trails_vanish: true,
        frames,
        moves,
        opening: 0,
        asked,
    })
}
