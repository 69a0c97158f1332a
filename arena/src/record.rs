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

use super::game::{side_name, GameRecord, SideStats, Winner};
use super::options::{Clock, Options, Referee, Shard};
use super::schema::{self, EngineRow, GameRow, Results, SeriesFile, Settings, Sides, SprtSettings};
use super::stats::Sprt;
use mctsbot::uttt::Dialect;
use mctsbot::uttt::EndRule;
use serde::de::DeserializeOwned;
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
    format!("transcripts/game_{index:04}_{}.txt", side_name(side))
}

/// The value of a `key=value` word of a bot's per-move log line (docs/formats.md).
pub fn log_word<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
}

/// The settings of a series, as `results.json` and `series.json` hold them.
pub fn settings(opts: &Options) -> Settings {
    let (a, b) = (opts.clocks[0], opts.clocks[1]);
    let ffa = (0..opts.sides())
        .filter(|_| opts.ffa)
        .map(|side| EngineRow {
            name: opts.names[side].clone(),
            cmd: opts.commands[side].clone(),
            tc: Some(opts.clocks[side].to_string()),
        });
    Settings {
        game: opts.game.name().into(),
        dialect: format!("{:?}", opts.dialect),
        end_rule: format!("{:?}", opts.end_rule),
        timebank: a.timebank,
        time_per_move: a.time_per_move,
        timebank_b: Some(b.timebank),
        time_per_move_b: Some(b.time_per_move),
        riders: opts.riders,
        games: opts.games,
        seed: opts.seed,
        a: opts.commands[0].clone(),
        b: opts.commands[1].clone(),
        name_a: opts.names[0].clone(),
        name_b: opts.names[1].clone(),
        openings: opts.openings.clone(),
        shard: opts.shard.map(|s| s.to_string()),
        maps: opts.maps.clone(),
        width: opts.width,
        height: opts.height,
        max_rounds: Some(opts.max_rounds),
        ffa: ffa.collect(),
    }
}

/// The test of a series, as `results.json` and `series.json` hold it.
pub fn sprt_settings(sprt: &Sprt) -> SprtSettings {
    SprtSettings {
        elo0: sprt.elo0,
        elo1: sprt.elo1,
        alpha: sprt.alpha,
        beta: sprt.beta,
    }
}

/// One game, as a line of `games.jsonl` and an entry of `results.json`'s `games`.
pub fn game_row(r: &GameRecord) -> GameRow {
    let sides = |f: fn(&SideStats) -> u32| Sides::of(&r.stats, f);
    let side_indexes: Vec<usize> = (0..r.stats.len()).collect();
    GameRow {
        index: r.index,
        map: r.map.clone(),
        a_player: r.a_player,
        winner: r.winner.as_str().into(),
        places: (!r.places.is_empty()).then(|| Sides::of(&r.places, |&p| p)),
        opening: r.opening.clone(),
        reason: r.reason.clone(),
        moves: r.moves,
        line: r.line.clone(),
        wall_ms: r.wall_ms,
        timeouts: sides(|s| s.timeouts),
        illegal: sides(|s| s.illegal),
        crashes: sides(|s| s.crashes),
        answers: sides(|s| s.answers),
        peak_rss_kib: Sides::of(&r.stats, |s| s.peak_rss_kib),
        time_ms: Sides::of(&r.stats, |s| schema::round(s.time_us as f64 / 1000.0, 1)),
        time_us: Sides::of(&r.stats, |s| s.time_us),
        transcripts: Sides::of(&side_indexes, |&side| transcript_name(r.index, side)),
    }
}

/// Writes a game's transcripts (one per side) into the series folder `dir`.
pub fn write_transcripts(dir: &Path, r: &GameRecord) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("transcripts"))?;
    for (side, transcript) in r.transcripts.iter().enumerate() {
        std::fs::write(dir.join(transcript_name(r.index, side)), transcript)?;
    }
    Ok(())
}

/// The record of a running series: each finished game is appended as it ends.
pub struct GameLog {
    dir: PathBuf,
    games: Mutex<std::fs::File>,
}

/// The file that marks a series folder as being played into, holding the arena's pid.
pub const LOCK_FILE: &str = "arena.lock";

/// Claims the series folder `dir` for this process: two arenas appending to one
/// `games.jsonl` would interleave two series. A lock left by an arena that is gone (a
/// killed run) is taken over.
fn lock(dir: &Path) -> Result<(), String> {
    let path = dir.join(LOCK_FILE);
    for _ in 0..2 {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut file) => {
                return write!(file, "{}", std::process::id())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let owner = std::fs::read_to_string(&path).unwrap_or_default();
                let alive = owner.trim().parse::<libc::pid_t>().is_ok_and(|pid| {
                    // SAFETY: signal 0 only asks whether the process exists.
                    pid > 0 && unsafe { libc::kill(pid, 0) } == 0
                });
                if alive {
                    return Err(format!(
                        "another arena (pid {}) is playing into {}",
                        owner.trim(),
                        dir.display()
                    ));
                }
                let _ = std::fs::remove_file(&path);
            }
            Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
        }
    }
    Err(format!("cannot claim {}", path.display()))
}

/// [`GameLog::open`] once the folder is claimed: the recorded games (checked against
/// `opts`), the settings written, and `games.jsonl` opened for appending.
fn prepare(opts: &mut Options, dir: &Path) -> Result<(std::fs::File, Vec<GameRecord>), String> {
    let games_path = dir.join(GAMES_FILE);
    let recorded = games_path.exists() || dir.join(RESULTS_FILE).exists();
    let done = if opts.resume && recorded {
        let (saved, records) = read_series(dir)?;
        if !opts.seed_given {
            opts.seed = saved.seed;
        }
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
    // A resumed series' results.json would hide the games recorded from now on.
    let _ = std::fs::remove_file(dir.join(RESULTS_FILE));
    std::fs::write(dir.join(SETTINGS_FILE), schema::to_text(&series_file(opts))).map_err(io)?;
    // The games read back are written out again: a line cut by an interruption (or
    // a results.json without games.jsonl) leaves a clean file to append to.
    let mut lines = String::new();
    for r in &done {
        lines += &schema::to_line(&game_row(r));
        lines.push('\n');
    }
    std::fs::write(&games_path, lines).map_err(io)?;
    let games = std::fs::OpenOptions::new()
        .append(true)
        .open(&games_path)
        .map_err(io)?;
    Ok((games, done))
}

impl Drop for GameLog {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.dir.join(LOCK_FILE));
    }
}

impl GameLog {
    /// Opens the record of the series `opts` in its `--out` folder. A new series writes
    /// its settings and refuses a folder that already holds games; with `--resume` the
    /// folder must hold the same series (only `--games` may differ), whose recorded
    /// games are returned to be kept.
    ///
    /// Resumed without `--seed`, `opts` takes the recorded series' seed, so that its
    /// games stay the same.
    pub fn open(opts: &mut Options) -> Result<(GameLog, Vec<GameRecord>), String> {
        let dir = opts.out.clone().expect("a game log needs --out");
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        lock(&dir)?;
        match prepare(opts, &dir) {
            Ok((games, done)) => Ok((
                GameLog {
                    dir,
                    games: Mutex::new(games),
                },
                done,
            )),
            Err(e) => {
                let _ = std::fs::remove_file(dir.join(LOCK_FILE));
                Err(e)
            }
        }
    }

    /// Records a finished game: its transcripts, then its line (flushed at once).
    pub fn append(&self, r: &GameRecord) -> std::io::Result<()> {
        write_transcripts(&self.dir, r)?;
        let mut file = self.games.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(file, "{}", schema::to_line(&game_row(r)))?;
        file.flush()
    }
}

/// `series.json`: the settings and the test.
fn series_file(opts: &Options) -> SeriesFile {
    SeriesFile {
        settings: settings(opts),
        sprt: opts.sprt.as_ref().map(sprt_settings),
    }
}

/// The settings (and test) in which the recorded series `saved` differs from `opts`,
/// by name; `games` may differ.
fn differing_settings(saved: &Options, opts: &Options) -> Vec<String> {
    let fields = |o: &Options| -> serde_json::Map<String, serde_json::Value> {
        let settings = Settings {
            games: 0,
            ..settings(o)
        };
        match serde_json::to_value(settings) {
            Ok(serde_json::Value::Object(fields)) => fields,
            _ => unreachable!("settings serialise to an object"),
        }
    };
    let (before, now) = (fields(saved), fields(opts));
    let mut names: Vec<String> = now
        .iter()
        .filter(|(key, value)| before.get(key.as_str()) != Some(value))
        .map(|(key, _)| key.clone())
        .collect();
    if saved.sprt != opts.sprt {
        names.push("sprt".into());
    }
    names
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The settings and test of the series in `dir`: from `results.json`, or from
/// `series.json` when the series has not ended.
pub fn read_settings(dir: &Path) -> Result<SeriesFile, String> {
    let results = dir.join(RESULTS_FILE);
    if results.exists() {
        let file: Results = read_json(&results)?;
        Ok(SeriesFile {
            settings: file.settings,
            sprt: file.sprt.map(|s| s.test),
        })
    } else {
        read_json(&dir.join(SETTINGS_FILE))
    }
}

/// The series recorded in `dir`: its options and every game, sorted by index, from
/// `results.json`, or from `series.json` and `games.jsonl` when the series did not end
/// (a last line cut short by the interruption is left out).
pub fn read_series(dir: &Path) -> Result<(Options, Vec<GameRecord>), String> {
    let results = dir.join(RESULTS_FILE);
    let (file, rows) = if results.exists() {
        let file: Results = read_json(&results)?;
        let series = SeriesFile {
            settings: file.settings,
            sprt: file.sprt.map(|s| s.test),
        };
        (series, file.games)
    } else {
        let series = read_json(&dir.join(SETTINGS_FILE))?;
        let path = dir.join(GAMES_FILE);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let mut rows = Vec::new();
        for (k, line) in lines.iter().enumerate() {
            match serde_json::from_str::<GameRow>(line) {
                Ok(row) => rows.push(row),
                Err(e) if k + 1 == lines.len() => {
                    eprintln!(
                        "arena: {}: the last line is cut short ({e}); that game is left out",
                        path.display()
                    )
                }
                Err(e) => return Err(format!("{} line {}: {e}", path.display(), k + 1)),
            }
        }
        (series, rows)
    };
    let mut opts = options(&file)?;
    let mut records = rows
        .iter()
        .map(|row| record(row, dir))
        .collect::<Result<Vec<_>, _>>()?;
    records.sort_by_key(|r| r.index);
    records.dedup_by_key(|r| r.index);
    opts.out = Some(dir.to_path_buf());
    Ok((opts, records))
}

/// The options a series was run with, as far as the table and `results.json` need them.
pub fn options(file: &SeriesFile) -> Result<Options, String> {
    let s = &file.settings;
    let clock_a = Clock {
        timebank: s.timebank,
        time_per_move: s.time_per_move,
    };
    // Series written before time odds have one clock.
    let clock_b = Clock {
        timebank: s.timebank_b.unwrap_or(clock_a.timebank),
        time_per_move: s.time_per_move_b.unwrap_or(clock_a.time_per_move),
    };
    // A free-for-all lists every engine; a series of two sides has A and B.
    let sides: Vec<(String, String, Clock)> = if s.ffa.is_empty() {
        vec![
            (s.name_a.clone(), s.a.clone(), clock_a),
            (s.name_b.clone(), s.b.clone(), clock_b),
        ]
    } else {
        s.ffa
            .iter()
            .map(|e| {
                let clock = e.tc.as_deref().map_or(Ok(clock_a), Clock::parse)?;
                Ok((e.name.clone(), e.cmd.clone(), clock))
            })
            .collect::<Result<_, String>>()?
    };
    Ok(Options {
        game: Referee::from_name(&s.game).unwrap_or(Referee::UTTT),
        dialect: match s.dialect.as_str() {
            "Riddles" => Dialect::Riddles,
            _ => Dialect::TheAiGames,
        },
        end_rule: match s.end_rule.as_str() {
            "MoreBoards" => EndRule::MoreBoards,
            _ => EndRule::Draw,
        },
        clocks: sides.iter().map(|side| side.2).collect(),
        games: s.games,
        jobs: 1,
        seed: s.seed,
        out: None,
        watch: false,
        maps: s.maps.clone(),
        width: s.width,
        height: s.height,
        max_rounds: s.max_rounds.unwrap_or(s.width * s.height),
        riders: s.riders,
        ffa: !s.ffa.is_empty(),
        names: sides.iter().map(|side| side.0.clone()).collect(),
        commands: sides.iter().map(|side| side.1.clone()).collect(),
        sprt: file.sprt.map(|t| Sprt {
            elo0: t.elo0,
            elo1: t.elo1,
            alpha: t.alpha,
            beta: t.beta,
        }),
        shard: s.shard.as_deref().map(Shard::parse).transpose()?,
        openings: s.openings.clone(),
        resume: false,
        seed_given: true,
    })
}

/// One recorded game, with its transcripts read from the series folder `dir`.
fn record(row: &GameRow, dir: &Path) -> Result<GameRecord, String> {
    let index = row.index;
    let [timeouts, illegal, crashes, answers] =
        [&row.timeouts, &row.illegal, &row.crashes, &row.answers].map(|s| s.clone().into_vec());
    let time_us = row.time_us.clone().into_vec();
    let peak_rss_kib = row.peak_rss_kib.clone().into_vec();
    let sides = timeouts.len();
    if [
        illegal.len(),
        crashes.len(),
        answers.len(),
        time_us.len(),
        peak_rss_kib.len(),
    ]
    .iter()
    .any(|&n| n != sides)
    {
        return Err(format!("game {index}: the sides' counts differ in number"));
    }
    let stats: Vec<SideStats> = (0..sides)
        .map(|k| SideStats {
            timeouts: timeouts[k],
            illegal: illegal[k],
            crashes: crashes[k],
            answers: answers[k],
            time_us: time_us[k],
            peak_rss_kib: peak_rss_kib[k],
        })
        .collect();
    let transcripts = (0..stats.len())
        .map(|s| std::fs::read_to_string(dir.join(transcript_name(index, s))).unwrap_or_default())
        .collect();
    Ok(GameRecord {
        index,
        map: row.map.clone(),
        a_player: row.a_player,
        winner: Winner::parse(&row.winner)
            .ok_or_else(|| format!("game {index}: winner {:?}", row.winner))?,
        places: row.places.clone().map_or(Vec::new(), Sides::into_vec),
        opening: row.opening.clone(),
        moves: row.moves,
        line: row.line.clone(),
        reason: row.reason.clone(),
        wall_ms: row.wall_ms,
        stats,
        transcripts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, winner: Winner) -> GameRecord {
        let side = |k: u64| SideStats {
            timeouts: k as u32,
            illegal: 0,
            crashes: 1 - k as u32,
            answers: 40 + k as u32,
            time_us: 123_456 * (k + 1),
            peak_rss_kib: 2048 * k,
        };
        GameRecord {
            index,
            map: "rooms16".into(),
            a_player: (index % 2) as u8,
            winner,
            opening: "map=rooms16 start=1,1".into(),
            moves: 42,
            line: "rl ud \"quoted\"".into(),
            reason: "B crashed".into(),
            wall_ms: 900,
            stats: vec![side(0), side(1)],
            transcripts: vec![format!("A{index}\n"), format!("B{index}\n")],
            places: Vec::new(),
        }
    }

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_series_reads_back_as_written_whether_it_ended_or_not() {
        let dir = folder("roundtrip");
        let out = dir.to_str().unwrap();
        let mut opts = crate::cli::parse(&[
            "--game=tron",
            "--games",
            "4",
            "--seed",
            "7",
            "--map",
            "rooms16",
            "--sprt",
            "elo0=0 elo1=5",
            "--out",
            out,
            "--engine",
            "name=x tc=900+9 cmd=./x",
            "--engine",
            "name=y cmd=./y",
        ])
        .unwrap();
        let games = [
            game(0, Winner::A),
            game(1, Winner::Draw),
            game(2, Winner::B),
        ];
        let (log, done) = GameLog::open(&mut opts).unwrap();
        assert!(dir.join(LOCK_FILE).exists(), "the folder is claimed");
        assert!(done.is_empty());
        for g in &games {
            log.append(g).unwrap();
        }
        drop(log);
        assert!(!dir.join(LOCK_FILE).exists(), "and released");
        // Interrupted: series.json and games.jsonl.
        let (read, records) = read_series(&dir).unwrap();
        assert_eq!(records, games);
        opts.jobs = 1;
        assert_eq!(read, opts);
        // Ended: results.json.
        crate::series::write_out(&dir, &opts, &games).unwrap();
        std::fs::remove_file(dir.join(GAMES_FILE)).unwrap();
        let (read, records) = read_series(&dir).unwrap();
        assert_eq!((read, records), (opts.clone(), games.to_vec()));
        let text = std::fs::read_to_string(dir.join(RESULTS_FILE)).unwrap();
        let results: Results = serde_json::from_str(&text).unwrap();
        assert_eq!(results, crate::series::results(&opts, &games));
        // Rounded as the table rounds: score to 4 decimals, Elo to 1.
        let summary = results.summary.unwrap();
        assert_eq!((summary.score, summary.elo), (Some(0.5), Some(0.0)));
        assert_eq!(results.games[0].time_ms.a, Some(123.5));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_old_results_file_without_the_newer_fields_still_reads() {
        let dir = folder("old-results");
        std::fs::create_dir_all(&dir).unwrap();
        // As the arena wrote it before move lines, time odds, maps, board sizes, riders,
        // end rules and shards.
        let old = r#"{
  "settings": {"game": "uttt", "dialect": "TheAiGames", "timebank": 10000, "time_per_move": 500, "games": 2, "seed": 5, "a": "./a", "b": "./b", "name_a": "A", "name_b": "B", "openings": null},
  "games": [{"index": 0, "map": "-", "a_player": 0, "winner": "A", "opening": "", "reason": "three in a row", "moves": 31, "wall_ms": 40, "timeouts": {"A": 0, "B": 0}, "illegal": {"A": 0, "B": 0}, "crashes": {"A": 0, "B": 0}, "answers": {"A": 16, "B": 15}, "peak_rss_kib": {"A": 0, "B": 0}, "time_ms": {"A": 1.5, "B": 1.0}, "time_us": {"A": 1500, "B": 1000}, "transcripts": {"A": "transcripts/game_0000_A.txt", "B": "transcripts/game_0000_B.txt"}}],
  "summary": {"games": 1, "a_wins": 1, "b_wins": 0, "draws": 0, "score": 1.0000, "score_ci95": 0.0000, "elo": null, "elo_ci95": null, "elo_low": null, "elo_high": null, "timeouts": {"A": 0, "B": 0}, "illegal": {"A": 0, "B": 0}, "crashes": {"A": 0, "B": 0}, "peak_rss_kib": {"A": 0, "B": 0}, "avg_moves": 31.00, "ms_per_move": {"A": 0.1, "B": 0.1}},
  "pairs": {"pairs": 0, "pentanomial": [0, 0, 0, 0, 0]},
  "sprt": null
}
"#;
        std::fs::write(dir.join(RESULTS_FILE), old).unwrap();
        let (opts, records) = read_series(&dir).unwrap();
        assert_eq!(
            (opts.riders, opts.end_rule, opts.shard),
            (2, EndRule::Draw, None)
        );
        assert_eq!((opts.width, opts.height, opts.max_rounds), (16, 16, 256));
        assert_eq!(opts.clocks[1], opts.clocks[0]);
        assert_eq!((records.len(), records[0].line.as_str()), (1, ""));
        assert_eq!(records[0].stats[0].answers, 16);
        assert_eq!(opts.seed, 5);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
