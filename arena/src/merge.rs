//! `arena merge`: the shards of a series (`--shard K/N`, each with its own `--out`)
//! joined into one series. The games are read back from each shard's folder (its
//! `results.json`, or the games recorded so far: see [`crate::record`]), checked to
//! come from the same series, and summed up again: the table, pairs and SPRT are
//! recomputed from the games, never added up from the shards' summaries.

use super::game::GameRecord;
use super::options::Options;
use super::record;
use super::schema::Settings;
use std::path::{Path, PathBuf};

/// The series the shards in `dirs` make up: its settings (from the first shard, with
/// the shard removed) and every game, sorted by index.
pub fn merge(dirs: &[PathBuf]) -> Result<(Options, Vec<GameRecord>), String> {
    let mut series: Option<(Settings, Options)> = None;
    let mut records = Vec::new();
    for dir in dirs {
        let mut file = record::read_settings(dir)?;
        file.settings.shard = None;
        match &series {
            None => series = Some((file.settings.clone(), record::options(&file)?)),
            Some((first, _)) if *first != file.settings => {
                return Err(format!(
                    "{} is from another series (settings differ from {})",
                    dir.display(),
                    dirs[0].display()
                ))
            }
            Some(_) => {}
        }
        records.extend(record::read_series(dir)?.1);
    }
    let (_, opts) = series.ok_or("arena merge needs at least one shard folder")?;
    records.sort_by_key(|r| r.index);
    if let Some(w) = records.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(format!("game {} is in two shards", w[0].index));
    }
    Ok((opts, records))
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
