//! Which games `arena replay` replays, shared by the Light Riders and the UTTT replays: a
//! series folder (its games the side lost or drew, `--game N,M` or `--all`), a file of it
//! (`games.jsonl`, `results.json`, `series.json`, one of its transcripts), or a Light
//! Riders transcript alone.

use super::Game;
use crate::cli::{parse_side, ReplayArgs};
use crate::game::{GameRecord, Winner};
use crate::options::Options;
use crate::record;
use std::path::{Path, PathBuf};

/// What `arena replay` was pointed at.
pub enum Source {
    /// Games of a recorded series, from `side`'s view.
    Series {
        dir: PathBuf,
        opts: Box<Options>,
        records: Vec<GameRecord>,
        side: usize,
    },
    /// One Light Riders game from a transcript outside its series, from `side`'s view.
    Transcript(Box<Game>, usize),
}

/// The games `arena replay` was asked for, with the side to view each from.
pub fn source(args: &ReplayArgs) -> Result<Source, String> {
    let path = &args.path;
    if path.is_file() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some((index, side)) = transcript_of(&name) {
            let dir = path
                .parent()
                .and_then(Path::parent)
                .unwrap_or(Path::new("."));
            if dir.join(record::SETTINGS_FILE).exists() || dir.join(record::RESULTS_FILE).exists() {
                let mut games = args.games.clone();
                games.push(index);
                return series(dir, &games, false, args.side.unwrap_or(side));
            }
        }
        if name == record::GAMES_FILE
            || name == record::RESULTS_FILE
            || name == record::SETTINGS_FILE
        {
            let dir = path.parent().unwrap_or(Path::new("."));
            return series(dir, &args.games, args.all, args.side.unwrap_or(0));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if text.contains("> update game macroboard") {
            return Err(format!(
                "{}: a UTTT transcript outside its series folder: UTTT games are replayed \
                 from their series (its games.jsonl holds the line)",
                path.display()
            ));
        }
        let game = Game::from_transcript(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Source::Transcript(Box::new(game), args.side.unwrap_or(0)));
    }
    series(path, &args.games, args.all, args.side.unwrap_or(0))
}

/// `game_NNNN_A.txt`: the game's index and side.
fn transcript_of(name: &str) -> Option<(usize, usize)> {
    let rest = name.strip_prefix("game_")?.strip_suffix(".txt")?;
    let (index, side) = rest.split_once('_')?;
    Some((index.parse().ok()?, parse_side(side).ok()?))
}

/// The records of the series in `dir`: `indexes`, all of them, or those `side` did not
/// win.
fn series(dir: &Path, indexes: &[usize], all: bool, side: usize) -> Result<Source, String> {
    let (opts, records) = record::read_series(dir)?;
    for index in indexes {
        if !records.iter().any(|r| r.index == *index) {
            return Err(format!("{} holds no game {index}", dir.display()));
        }
    }
    let won = [Winner::A, Winner::B][side];
    let records = records
        .into_iter()
        .filter(|r| {
            if indexes.is_empty() {
                all || r.winner != won
            } else {
                indexes.contains(&r.index)
            }
        })
        .collect();
    Ok(Source::Series {
        dir: dir.to_path_buf(),
        opts: Box::new(opts),
        records,
        side,
    })
}
