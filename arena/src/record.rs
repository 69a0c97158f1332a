//! What a series leaves in its `--out` folder, and reading it back:
//! - `series.json`: the settings, written when the series starts;
//! - `games.jsonl`: one line per finished game (moves, result, reason, faults, times),
//!   appended as each game ends, with the game's transcripts, so that an interrupted
//!   series keeps its games and `--resume` continues it;
//! - `results.json`: settings, games and summaries, written when the series ends (or by
//!   `arena merge`).
//!
//! A folder is read back from `results.json` when there is one, else from `series.json`
//! and `games.jsonl` (an interrupted series): `arena merge`, `arena report` and
//! `--resume` all read it this way.

use super::cli::{Clock, GameKind, Options};
use super::game::{GameRecord, SideStats, Winner};
use super::stats::Sprt;
use mctsbot::json;
use mctsbot::protocol::Dialect;
use mctsbot::uttt::EndRule;
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The settings file, written when a series starts.
pub const SETTINGS_FILE: &str = "series.json";
/// One line per finished game.
pub const GAMES_FILE: &str = "games.jsonl";
/// The whole series, written when it ends.
pub const RESULTS_FILE: &str = "results.json";

/// Where a side's transcript of a game goes, relative to `--out`.
pub fn transcript_name(index: usize, side: usize) -> String {
    format!("transcripts/game_{index:04}_{}.txt", ["A", "B"][side])
}

fn side_pair(a: impl ToString, b: impl ToString) -> String {
    json::object(&[("A", a.to_string()), ("B", b.to_string())])
}

/// The settings of a series, as `results.json` and `series.json` hold them.
pub fn settings_json(opts: &Options) -> String {
    let [a, b] = opts.clocks;
    let maps: Vec<String> = opts.maps.iter().map(|m| json::string(m)).collect();
    let or_null = |text: Option<String>| text.map_or("null".to_string(), |t| json::string(&t));
    json::object(&[
        ("game", json::string(opts.game.name())),
        ("dialect", json::string(&format!("{:?}", opts.dialect))),
        ("end_rule", json::string(&format!("{:?}", opts.end_rule))),
        ("timebank", a.timebank.to_string()),
        ("time_per_move", a.time_per_move.to_string()),
        ("timebank_b", b.timebank.to_string()),
        ("time_per_move_b", b.time_per_move.to_string()),
        ("riders", opts.riders.to_string()),
        ("games", opts.games.to_string()),
        ("seed", opts.seed.to_string()),
        ("a", json::string(&opts.commands[0])),
        ("b", json::string(&opts.commands[1])),
        ("name_a", json::string(&opts.names[0])),
        ("name_b", json::string(&opts.names[1])),
        ("openings", or_null(opts.openings.clone())),
        ("shard", or_null(opts.shard.map(|s| s.to_string()))),
        ("maps", format!("[{}]", maps.join(", "))),
        ("width", opts.width.to_string()),
        ("height", opts.height.to_string()),
        ("max_rounds", opts.max_rounds.to_string()),
    ])
}

/// The test of a series, as `results.json` and `series.json` hold it (its state is
/// added in `results.json`).
pub fn sprt_fields(sprt: &Sprt) -> Vec<(&'static str, String)> {
    vec![
        ("elo0", json::number(sprt.elo0, 2)),
        ("elo1", json::number(sprt.elo1, 2)),
        ("alpha", json::number(sprt.alpha, 4)),
        ("beta", json::number(sprt.beta, 4)),
    ]
}

/// One game, as a line of `games.jsonl` and an entry of `results.json`'s `games`.
pub fn game_json(r: &GameRecord) -> String {
    let [a, b] = &r.stats;
    json::object(&[
        ("index", r.index.to_string()),
        ("map", json::string(&r.map)),
        ("a_player", r.a_player.to_string()),
        ("winner", json::string(r.winner.as_str())),
        ("opening", json::string(&r.opening)),
        ("reason", json::string(&r.reason)),
        ("moves", r.moves.to_string()),
        ("line", json::string(&r.line)),
        ("wall_ms", r.wall_ms.to_string()),
        ("timeouts", side_pair(a.timeouts, b.timeouts)),
        ("illegal", side_pair(a.illegal, b.illegal)),
        ("crashes", side_pair(a.crashes, b.crashes)),
        ("answers", side_pair(a.answers, b.answers)),
        ("peak_rss_kib", side_pair(a.peak_rss_kib, b.peak_rss_kib)),
        (
            "time_ms",
            json::object(&[
                ("A", json::number(a.time_us as f64 / 1000.0, 1)),
                ("B", json::number(b.time_us as f64 / 1000.0, 1)),
            ]),
        ),
        ("time_us", side_pair(a.time_us, b.time_us)),
        (
            "transcripts",
            json::object(&[
                ("A", json::string(&transcript_name(r.index, 0))),
                ("B", json::string(&transcript_name(r.index, 1))),
            ]),
        ),
    ])
}

/// Writes a game's two transcripts into the series folder `dir`.
pub fn write_transcripts(dir: &Path, r: &GameRecord) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("transcripts"))?;
    for side in 0..2 {
        std::fs::write(
            dir.join(transcript_name(r.index, side)),
            &r.transcripts[side],
        )?;
    }
    Ok(())
}

/// The record of a running series: each finished game is appended as it ends.
pub struct GameLog {
    dir: PathBuf,
    games: Mutex<std::fs::File>,
}

impl GameLog {
    /// Opens the record of the series `opts` in its `--out` folder. A new series writes
    /// its settings and refuses a folder that already holds games; with `--resume` the
    /// folder must hold the same series (only `--games` may differ), whose recorded
    /// games are returned to be kept.
    pub fn open(opts: &Options) -> Result<(GameLog, Vec<GameRecord>), String> {
        let dir = opts.out.clone().expect("a game log needs --out");
        let games_path = dir.join(GAMES_FILE);
        let recorded = games_path.exists() || dir.join(RESULTS_FILE).exists();
        let done = if opts.resume && recorded {
            let (saved, records) = read_series(&dir)?;
            let differences = differing_settings(&saved, opts);
            if !differences.is_empty() {
                return Err(format!(
                    "{} holds another series (different {}): resume it with the same options",
                    dir.display(),
                    differences.join(", ")
                ));
            }
            records
        } else if recorded && !opts.resume {
            return Err(format!(
                "{} already holds games of a series: --resume continues it, or give another --out",
                dir.display()
            ));
        } else {
            Vec::new()
        };
        let io = |e: std::io::Error| format!("cannot write {}: {e}", dir.display());
        std::fs::create_dir_all(&dir).map_err(io)?;
        // A resumed series' results.json would hide the games recorded from now on.
        let _ = std::fs::remove_file(dir.join(RESULTS_FILE));
        std::fs::write(dir.join(SETTINGS_FILE), series_json(opts)).map_err(io)?;
        // The games read back are written out again: a line cut by an interruption (or
        // a results.json without games.jsonl) leaves a clean file to append to.
        let mut lines = String::new();
        for r in &done {
            lines += &game_json(r);
            lines.push('\n');
        }
        std::fs::write(&games_path, lines).map_err(io)?;
        let games = std::fs::OpenOptions::new()
            .append(true)
            .open(&games_path)
            .map_err(io)?;
        Ok((
            GameLog {
                dir,
                games: Mutex::new(games),
            },
            done,
        ))
    }

    /// Records a finished game: its transcripts, then its line (flushed at once).
    pub fn append(&self, r: &GameRecord) -> std::io::Result<()> {
        write_transcripts(&self.dir, r)?;
        let mut file = self.games.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(file, "{}", game_json(r))?;
        file.flush()
    }
}

/// `series.json`: the settings and the test.
fn series_json(opts: &Options) -> String {
    let sprt = opts
        .sprt
        .map_or("null".to_string(), |s| json::object(&sprt_fields(&s)));
    format!(
        "{{\n  \"settings\": {},\n  \"sprt\": {sprt}\n}}\n",
        settings_json(opts)
    )
}

/// The settings (and test) in which the recorded series `saved` differs from `opts`,
/// by name; `games` may differ.
fn differing_settings(saved: &Options, opts: &Options) -> Vec<String> {
    let parse = |o: &Options| -> Value {
        let mut v: Value = serde_json::from_str(&series_json(o)).expect("written as JSON");
        v["settings"]["games"] = Value::Null;
        v
    };
    let (saved, now) = (parse(saved), parse(opts));
    let mut names: Vec<String> = now["settings"]
        .as_object()
        .expect("an object")
        .iter()
        .filter(|(key, value)| saved["settings"][key.as_str()] != **value)
        .map(|(key, _)| key.clone())
        .collect();
    if saved["sprt"] != now["sprt"] {
        names.push("sprt".into());
    }
    names
}

/// The seed of the series recorded in `dir` (for `--resume` without `--seed`).
pub fn saved_seed(dir: &Path) -> Result<u64, String> {
    let (settings, _) = read_settings(dir)?;
    settings["seed"]
        .as_u64()
        .ok_or(format!("{}: settings.seed is missing", dir.display()))
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// The settings and test of the series in `dir`: from `results.json`, or from
/// `series.json` when the series has not ended.
pub fn read_settings(dir: &Path) -> Result<(Value, Value), String> {
    let results = dir.join(RESULTS_FILE);
    let path = if results.exists() {
        results
    } else {
        dir.join(SETTINGS_FILE)
    };
    let mut file = read_json(&path)?;
    Ok((file["settings"].take(), file["sprt"].take()))
}

/// The series recorded in `dir`: its options and every game, sorted by index, from
/// `results.json`, or from `series.json` and `games.jsonl` when the series did not end
/// (a last line cut short by the interruption is left out).
pub fn read_series(dir: &Path) -> Result<(Options, Vec<GameRecord>), String> {
    let (settings, sprt) = read_settings(dir)?;
    let mut opts = options(&settings, &sprt)?;
    let results = dir.join(RESULTS_FILE);
    let mut records = Vec::new();
    if results.exists() {
        let file = read_json(&results)?;
        for game in file["games"].as_array().into_iter().flatten() {
            records.push(record(game, dir).map_err(|e| format!("{}: {e}", results.display()))?);
        }
    } else {
        let path = dir.join(GAMES_FILE);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        for (k, line) in lines.iter().enumerate() {
            let parsed = serde_json::from_str::<Value>(line)
                .map_err(|e| e.to_string())
                .and_then(|game| record(&game, dir));
            match parsed {
                Ok(r) => records.push(r),
                Err(e) if k + 1 == lines.len() => {
                    eprintln!(
                        "arena: {}: the last line is cut short ({e}); that game is left out",
                        path.display()
                    )
                }
                Err(e) => return Err(format!("{} line {}: {e}", path.display(), k + 1)),
            }
        }
    }
    records.sort_by_key(|r| r.index);
    records.dedup_by_key(|r| r.index);
    opts.out = Some(dir.to_path_buf());
    Ok((opts, records))
}

/// The options a series was run with, as far as the table and `results.json` need them.
pub fn options(settings: &Value, sprt: &Value) -> Result<Options, String> {
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
    let clock_a = Clock {
        timebank: int("timebank")?,
        time_per_move: int("time_per_move")?,
    };
    // Series written before time odds have one clock.
    let clock_b = Clock {
        timebank: settings["timebank_b"].as_u64().unwrap_or(clock_a.timebank),
        time_per_move: settings["time_per_move_b"]
            .as_u64()
            .unwrap_or(clock_a.time_per_move),
    };
    let (width, height) = (
        settings["width"].as_u64().unwrap_or(16) as u32,
        settings["height"].as_u64().unwrap_or(16) as u32,
    );
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
        clocks: [clock_a, clock_b],
        games: int("games")? as u32,
        jobs: 1,
        seed: int("seed")?,
        out: None,
        watch: false,
        maps: settings["maps"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect(),
        width,
        height,
        max_rounds: settings["max_rounds"]
            .as_u64()
            .map_or(width * height, |r| r as u32),
        // Series written before Tron Battle have no riders: two.
        riders: settings["riders"].as_u64().unwrap_or(2) as usize,
        names: [text("name_a")?, text("name_b")?],
        commands: [text("a")?, text("b")?],
        sprt,
        shard: settings["shard"]
            .as_str()
            .map(super::cli::Shard::parse)
            .transpose()?,
        openings: settings["openings"].as_str().map(str::to_owned),
        resume: false,
    })
}

/// One recorded game, with its transcripts read from the series folder `dir`.
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
        // Series written before move lists have none.
        line: game["line"].as_str().unwrap_or("").to_owned(),
        reason: game["reason"].as_str().unwrap_or("").to_owned(),
        wall_ms: int(&game["wall_ms"], "wall_ms")?,
        stats: [stats("A")?, stats("B")?],
        transcripts: [transcript(0), transcript(1)],
    })
}
