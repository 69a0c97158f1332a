//! `arena merge`: the shards of a series (`--shard K/N`, each with its own `--out`)
//! joined into one series. The games are read back from each shard's `results.json`
//! (and its transcripts), checked to come from the same series, and summed up again:
//! the table, pairs and SPRT are recomputed from the games, never added up from the
//! shards' summaries.

use super::cli::{GameKind, Options};
use super::game::{GameRecord, SideStats, Winner};
use super::series::transcript_name;
use super::stats::Sprt;
use mctsbot::protocol::Dialect;
use mctsbot::uttt::EndRule;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The series the shards in `dirs` make up: its settings (from the first shard, with
/// the shard removed) and every game, sorted by index.
pub fn merge(dirs: &[PathBuf]) -> Result<(Options, Vec<GameRecord>), String> {
    let mut series: Option<(Value, Options)> = None;
    let mut records = Vec::new();
    for dir in dirs {
        let path = dir.join("results.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let results: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        let mut settings = results["settings"].clone();
        settings["shard"] = Value::Null;
        match &series {
            None => series = Some((settings.clone(), options(&settings, &results["sprt"])?)),
            Some((first, _)) if *first != settings => {
                return Err(format!(
                    "{} is from another series (settings differ from {})",
                    path.display(),
                    dirs[0].display()
                ))
            }
            Some(_) => {}
        }
        for game in results["games"].as_array().into_iter().flatten() {
            records.push(record(game, dir).map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    let (_, opts) = series.ok_or("arena merge needs at least one shard folder")?;
    records.sort_by_key(|r| r.index);
    if let Some(w) = records.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(format!("game {} is in two shards", w[0].index));
    }
    Ok((opts, records))
}

/// The options a series was run with, as far as the table and `results.json` need them.
fn options(settings: &Value, sprt: &Value) -> Result<Options, String> {
    let text = |key: &str| {
        settings[key]
            .as_str()
            .map(str::to_owned)
            .ok_or(format!("settings.{key} is missing"))
    };
    let int = |key: &str| {
        settings[key]
            .as_u64()
            .ok_or(format!("settings.{key} is missing"))
    };
    let sprt = match sprt {
        Value::Null => None,
        s => Some(Sprt {
            elo0: s["elo0"].as_f64().ok_or("sprt.elo0 is missing")?,
            elo1: s["elo1"].as_f64().ok_or("sprt.elo1 is missing")?,
            alpha: s["alpha"].as_f64().ok_or("sprt.alpha is missing")?,
            beta: s["beta"].as_f64().ok_or("sprt.beta is missing")?,
        }),
    };
    Ok(Options {
        game: GameKind::from_name(&text("game")?).unwrap_or(GameKind::Uttt),
        dialect: match text("dialect")?.as_str() {
            "Riddles" => Dialect::Riddles,
            _ => Dialect::TheAiGames,
        },
        // Series written before --end-rule have none: the engines' draw.
        end_rule: match settings["end_rule"].as_str() {
            Some("MoreBoards") => EndRule::MoreBoards,
            _ => EndRule::Draw,
        },
        timebank: int("timebank")?,
        time_per_move: int("time_per_move")?,
        games: int("games")? as u32,
        jobs: 1,
        seed: int("seed")?,
        out: None,
        watch: false,
        maps: Vec::new(),
        width: 16,
        height: 16,
        max_rounds: 256,
        // Series written before Tron Battle have no riders: two.
        riders: settings["riders"].as_u64().unwrap_or(2) as usize,
        names: [text("name_a")?, text("name_b")?],
        commands: [text("a")?, text("b")?],
        sprt,
        shard: None,
        openings: settings["openings"].as_str().map(str::to_owned),
    })
}

/// One game of `results.json`, with its transcripts read from the shard folder `dir`.
fn record(game: &Value, dir: &Path) -> Result<GameRecord, String> {
    let int = |value: &Value, what: &str| value.as_u64().ok_or(format!("game {what} is missing"));
    let side = |key: &str, s: &str| int(&game[key][s], &format!("{key}.{s}"));
    let stats = |s: &str| -> Result<SideStats, String> {
        Ok(SideStats {
            timeouts: side("timeouts", s)? as u32,
            illegal: side("illegal", s)? as u32,
            crashes: side("crashes", s)? as u32,
            answers: side("answers", s)? as u32,
            time_us: side("time_us", s)?,
            peak_rss_kib: side("peak_rss_kib", s)?,
        })
    };
    let index = int(&game["index"], "index")? as usize;
    let transcript =
        |s: usize| std::fs::read_to_string(dir.join(transcript_name(index, s))).unwrap_or_default();
    Ok(GameRecord {
        index,
        map: game["map"].as_str().unwrap_or("?").to_owned(),
        a_player: int(&game["a_player"], "a_player")? as u8,
        winner: match game["winner"].as_str() {
            Some("A") => Winner::A,
            Some("B") => Winner::B,
            Some("draw") => Winner::Draw,
            other => return Err(format!("game {index}: winner {other:?}")),
        },
        opening: game["opening"].as_str().unwrap_or("").to_owned(),
        moves: int(&game["moves"], "moves")? as u32,
        reason: game["reason"].as_str().unwrap_or("").to_owned(),
        wall_ms: int(&game["wall_ms"], "wall_ms")?,
        stats: [stats("A")?, stats("B")?],
        transcripts: [transcript(0), transcript(1)],
    })
}

/// Copies the bots' stderr files of the shards into the merged folder `out`.
pub fn copy_stderr(dirs: &[PathBuf], out: &Path) -> std::io::Result<()> {
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir.join("stderr")) else {
            continue;
        };
        std::fs::create_dir_all(out.join("stderr"))?;
        for entry in entries {
            let entry = entry?;
            std::fs::copy(entry.path(), out.join("stderr").join(entry.file_name()))?;
        }
    }
    Ok(())
}
