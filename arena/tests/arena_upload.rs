//! scripts/upload_package.sh end to end: its zip, unpacked in an empty folder, builds
//! offline with an empty CARGO_HOME (so nothing comes from the local registry cache) and
//! the bot it builds plays a clean UTTT game in the arena.

mod arena_common;
use arena_common::{arena, has};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The bytes of the files under `dir`.
fn size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").path())
        .map(|p| {
            if p.is_dir() {
                size(&p)
            } else {
                p.metadata().expect("metadata").len()
            }
        })
        .sum()
}

/// Unpacks `zip` into `dir` with `unzip`, or python3's zipfile where there is none.
fn unpack(zip: &Path, dir: &Path) {
    let unzip = Command::new("unzip")
        .arg("-q")
        .arg(zip)
        .arg("-d")
        .arg(dir)
        .status();
    let status = match unzip {
        Ok(status) => status,
        Err(_) => Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(zip)
            .arg(dir)
            .status()
            .expect("run python3 -m zipfile"),
    };
    assert!(status.success(), "unpacking {} failed", zip.display());
}

#[test]
fn the_upload_zip_builds_offline_and_its_bot_plays_a_clean_game() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let tmp = std::env::temp_dir().join(format!("arena-upload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (zip_dir, unpacked, cargo_home) = (tmp.join("zip"), tmp.join("crate"), tmp.join("home"));
    for dir in [&unpacked, &cargo_home] {
        std::fs::create_dir_all(dir).expect("mkdir");
    }

    let made = Command::new("bash")
        .arg(root.join("scripts/upload_package.sh"))
        .arg("--out")
        .arg(&zip_dir)
        .env("CARGO", env!("CARGO"))
        .output()
        .expect("run upload_package.sh");
    let stdout = String::from_utf8_lossy(&made.stdout);
    assert!(
        made.status.success(),
        "upload_package.sh failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&made.stderr)
    );
    // The script's last line: "PATH: N bytes (...)", PATH named by the bot's version.
    let root_manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let version = root_manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \"")?.strip_suffix('"'))
        .expect("the package version");
    let zip: PathBuf = zip_dir.join(format!("mctsbot-{version}.zip"));
    assert!(
        stdout.starts_with(&format!("{}: ", zip.display())),
        "{stdout}"
    );
    let zip_bytes = zip.metadata().expect("the zip").len();

    unpack(&zip, &unpacked);
    let manifest = std::fs::read_to_string(unpacked.join("Cargo.toml")).expect("Cargo.toml");
    for section in ["[workspace]", "[dev-dependencies]", "[profile.test]"] {
        assert!(!manifest.contains(section), "{section} in:\n{manifest}");
    }
    assert!(manifest.contains("[profile.release]"), "{manifest}");
    let lock = std::fs::read_to_string(unpacked.join("Cargo.lock")).expect("Cargo.lock");
    for package in ["arena", "tune", "proptest", "plotters"] {
        assert!(
            !lock.contains(&format!("name = \"{package}\"\n")),
            "{package} in the lock"
        );
    }
    assert!(unpacked.join("src/uttt/nn_weights.bin").is_file());
    assert!(unpacked.join("src/uttt/nn_weights_codingame.bin").is_file());
    assert!(unpacked.join("UPLOAD.txt").is_file());
    let unpacked_bytes = size(&unpacked);

    // The cargo that runs this test; the empty CARGO_HOME has no registry to fall back on.
    let target = tmp.join("target");
    let started = Instant::now();
    let built = Command::new(env!("CARGO"))
        .args(["build", "--release", "--offline", "--locked"])
        .current_dir(&unpacked)
        .env("CARGO_HOME", &cargo_home)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("run cargo build");
    let build_time = started.elapsed();
    assert!(
        built.status.success(),
        "offline build failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let bot = target.join("release/mctsbot").display().to_string();

    let run = arena(
        "upload",
        &[
            "--games",
            "1",
            "--seed",
            "1",
            "--timebank",
            "1000",
            "--time-per-move",
            "50",
        ],
        &bot,
        &bot,
    );
    has(&run.json, "\"games\": 1");
    has(&run.json, "\"timeouts\": {\"A\": 0, \"B\": 0}, \"illegal\": {\"A\": 0, \"B\": 0}, \"crashes\": {\"A\": 0, \"B\": 0}");

    eprintln!(
        "upload zip: {} bytes; unpacked: {unpacked_bytes} bytes ({:.1} MiB)",
        zip_bytes,
        unpacked_bytes as f64 / (1 << 20) as f64
    );
    eprintln!(
        "offline build (cargo build --release --offline --locked, empty CARGO_HOME): {:.1} s",
        build_time.as_secs_f64()
    );
    eprintln!(
        "game ({:.1} s):\n{}",
        run.took.as_secs_f64(),
        run.stdout.trim_end()
    );
    let _ = std::fs::remove_dir_all(&tmp);
    let _ = std::fs::remove_dir_all(&run.dir);
}
