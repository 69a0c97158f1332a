//! The replay viewer: one self-contained HTML page per recorded game (no network, no
//! external script: the game's frames and the bots' logged values are in the page), with
//! the board, step and play controls, a slider over the moves, the result and the reason
//! the game ended, and a plot of each of our bots' logged value per move with the move
//! where it fell most marked.
//!
//! `arena --out DIR` writes `DIR/view/game_NNNN.html` as each game ends; `arena view DIR`
//! writes them again for a recorded series (finished or interrupted), and `arena report`
//! links a copy of each game's page from its index.

mod frames;

use crate::cli::ViewArgs;
use crate::game::{side_name, GameRecord};
use crate::options::{Options, Referee};
use crate::record;
use frames::Frames;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The folder of a series' pages, inside its `--out` folder.
pub const VIEW_DIR: &str = "view";

/// The page's markup, style and script; the game's data replaces [`DATA_SLOT`].
const TEMPLATE: &str = include_str!("view/page.html");
const DATA_SLOT: &str = "/*GAME_DATA*/null";
const TITLE_SLOT: &str = "<!--TITLE-->";

/// `arena view`: writes the pages of a recorded series; the exit code.
pub fn run(args: &ViewArgs) -> i32 {
    match view_series(args) {
        Ok(written) => {
            for path in &written {
                println!("{}", path.display());
            }
            eprintln!("arena view: {} page(s)", written.len());
            0
        }
        Err(e) => {
            eprintln!("arena view: {e}");
            2
        }
    }
}

fn view_series(args: &ViewArgs) -> Result<Vec<PathBuf>, String> {
    let (opts, records) = record::read_series(&args.dir)?;
    let out = args.out.clone().unwrap_or_else(|| args.dir.join(VIEW_DIR));
    for &index in &args.games {
        if !records.iter().any(|r| r.index == index) {
            return Err(format!("{} holds no game {index}", args.dir.display()));
        }
    }
    records
        .iter()
        .filter(|r| args.games.is_empty() || args.games.contains(&r.index))
        .map(|r| write_page(&opts, r, &args.dir, &out))
        .collect()
}

/// The name of game `index`'s page.
pub fn page_name(index: usize) -> String {
    format!("game_{index:04}.html")
}

/// Writes the page of `record` (a game of the series `opts`, recorded in `dir`) into
/// `out`; its path.
pub fn write_page(
    opts: &Options,
    record: &GameRecord,
    dir: &Path,
    out: &Path,
) -> Result<PathBuf, String> {
    let text = page(opts, record, dir)?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let path = out.join(page_name(record.index));
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// What the page's script draws.
#[derive(Serialize)]
struct PageData {
    title: String,
    game: &'static str,
    /// Each side's name and command, A first.
    sides: Vec<SideInfo>,
    winner: String,
    reason: String,
    map: String,
    board: Frames,
    values: Vec<ValueSeries>,
}

#[derive(Serialize)]
struct SideInfo {
    letter: &'static str,
    name: String,
    command: String,
}

/// One bot's logged value (or score) at each frame it was asked in.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ValueSeries {
    /// `A`, or `A rider 2` when a side rides several seats.
    pub label: String,
    pub side: usize,
    /// The log's key: `value` (0..1, the bot's own view) or `score`.
    pub key: String,
    /// (frame, value) in order.
    pub points: Vec<(usize, f64)>,
    /// The largest fall between two of its moves in a row: the frame it fell at.
    pub drop: Option<Drop>,
}

#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Drop {
    pub frame: usize,
    pub from: f64,
    pub to: f64,
}

/// The page of one game.
pub fn page(opts: &Options, record: &GameRecord, dir: &Path) -> Result<String, String> {
    let board = frames::frames(opts, record, dir)?;
    let values = values(opts, record, &board, dir);
    let sides = (0..opts.sides())
        .map(|s| SideInfo {
            letter: side_name(s),
            name: opts.names[s].clone(),
            command: opts.commands[s].clone(),
        })
        .collect();
    let title = format!(
        "{} game {}: {}",
        opts.game.name(),
        record.index,
        opts.names.join(" vs ")
    );
    let data = PageData {
        title: title.clone(),
        game: opts.game.name(),
        sides,
        winner: record.winner.as_str().to_string(),
        reason: record.reason.clone(),
        map: record.map.clone(),
        board,
        values,
    };
    let json = serde_json::to_string(&data).map_err(|e| e.to_string())?;
    // Inside a <script>, "</" could close it: JSON allows "<\/" for the same text.
    let json = json.replace("</", "<\\/");
    Ok(TEMPLATE
        .replacen(TITLE_SLOT, &escape_html(&title), 1)
        .replacen(DATA_SLOT, &json, 1))
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Each seat's logged values, from its bot's stderr (our bot writes one `key=value` line
/// per move, numbered `move=K` or `turn=K` by the requests it got: the K-th is the
/// seat's K-th frame asked). Seats without such lines (another bot) have none.
fn values(opts: &Options, record: &GameRecord, board: &Frames, dir: &Path) -> Vec<ValueSeries> {
    let sides = board.sides();
    // Tron Battle's seats are riders, each with its own stderr (`GameSetup::seat`).
    let riders = opts.game == Referee::TRON_BATTLE;
    let mut series = Vec::new();
    for (seat, asked) in board.asked().iter().enumerate() {
        let side = sides[seat];
        let suffix = if riders {
            format!("_rider{seat}")
        } else {
            String::new()
        };
        let path = dir.join(crate::game::stderr_name(record.index, side, &suffix));
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let logged = logged_values(&text);
        let Some(key) = logged.first().map(|l| l.key) else {
            continue;
        };
        let points: Vec<(usize, f64)> = logged
            .iter()
            .filter(|l| l.key == key)
            .filter_map(|l| Some((*asked.get(l.request.checked_sub(1)?)?, l.value)))
            .collect();
        let label = if riders {
            format!("{} rider {seat}", side_name(side))
        } else {
            side_name(side).to_string()
        };
        series.push(ValueSeries {
            label,
            side,
            key: key.to_string(),
            drop: largest_drop(&points),
            points,
        });
    }
    series
}

/// One move's line of our bot's log.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Logged {
    /// The request it answered, from 1.
    pub request: usize,
    pub key: &'static str,
    pub value: f64,
}

/// The move lines of a bot's stderr: `move=K` (or CodinGame's `turn=K`) with `value=V`
/// (or, where the search has no value, `score=S`).
pub fn logged_values(stderr: &str) -> Vec<Logged> {
    let field = record::log_word;
    stderr
        .lines()
        .filter_map(|line| {
            let request = field(line, "move")
                .or_else(|| field(line, "turn"))?
                .parse()
                .ok()?;
            let (key, value) = ["value", "score"]
                .into_iter()
                .find_map(|key| Some((key, field(line, key)?.parse::<f64>().ok()?)))?;
            value.is_finite().then_some(Logged {
                request,
                key,
                value,
            })
        })
        .collect()
}

/// The largest fall between two points in a row, the first of equal ones (none if the
/// values never fall).
pub fn largest_drop(points: &[(usize, f64)]) -> Option<Drop> {
    let mut best: Option<Drop> = None;
    for w in points.windows(2) {
        let fall = w[0].1 - w[1].1;
        if fall > 0.0 && best.map_or(true, |b| fall > b.from - b.to) {
            best = Some(Drop {
                frame: w[1].0,
                from: w[0].1,
                to: w[1].1,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_give_the_request_and_the_value_or_the_score() {
        let text = "[INFO  mctsbot::bot::session] game: Ultimate Tic-Tac-Toe\n\
             [INFO  mctsbot::bot::uttt::player] move=1 timebank=2000 chosen=4,4 value=0.556 visits=3\n\
             [WARN  mctsbot::bot] a malformed line\n\
             [INFO  mctsbot::bot::uttt::codingame] turn=2 budget=80 value=0.25 reused=true\n\
             [INFO  mctsbot::bot::tron::battle] turn=3 riders=3 score=-1992 chosen=UP\n\
             move=4 value=nan\n";
        let got = logged_values(text);
        assert_eq!(
            got,
            vec![
                Logged {
                    request: 1,
                    key: "value",
                    value: 0.556
                },
                Logged {
                    request: 2,
                    key: "value",
                    value: 0.25
                },
                Logged {
                    request: 3,
                    key: "score",
                    value: -1992.0
                },
            ]
        );
    }

    #[test]
    fn the_largest_drop_is_the_steepest_fall_between_neighbours() {
        // Falls of 0.25 (frame 4), 0.25 again (frame 8) and 0.125: the first of the largest.
        let points = [
            (0, 0.625),
            (2, 0.75),
            (4, 0.5),
            (6, 0.625),
            (8, 0.375),
            (9, 0.25),
        ];
        let drop = largest_drop(&points).unwrap();
        assert_eq!((drop.frame, drop.from, drop.to), (4, 0.75, 0.5));
        assert_eq!(largest_drop(&[(0, 0.1), (1, 0.2)]), None);
        assert_eq!(largest_drop(&[]), None);
    }
}
