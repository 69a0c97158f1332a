//! The replay pages: written for every recorded game, rewritten by `arena view`, linked
//! by `arena report`, and (where Chromium is installed) drawn by a real browser.

mod arena_common;
use arena_common::{arena, arena_engines, bot, Run};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The game data a page carries (the JSON its script draws).
fn page_data(page: &str) -> Value {
    let start = page.find("const DATA = ").expect("the page's data") + "const DATA = ".len();
    let end = start + page[start..].find(";\n").expect("the data's end");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

fn read_page(dir: &Path, game: usize) -> String {
    std::fs::read_to_string(dir.join(format!("view/game_{game:04}.html")))
        .unwrap_or_else(|e| panic!("no page for game {game} in {}: {e}", dir.display()))
}

/// The games' lines of `games.jsonl`, by index.
fn games(run: &Run) -> Vec<Value> {
    let text = std::fs::read_to_string(run.dir.join("games.jsonl")).expect("games.jsonl");
    let mut rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    rows.sort_by_key(|r| r["index"].as_u64());
    rows
}

/// Nothing the page would fetch: no script, style, image or frame from elsewhere.
fn assert_self_contained(page: &str) {
    for needle in [
        "<script src",
        "<link",
        "@import",
        "url(",
        "https://",
        "<iframe",
        "<img",
    ] {
        assert!(!page.contains(needle), "the page holds {needle:?}");
    }
    // The one http:// is SVG's namespace name, which is never fetched.
    assert_eq!(
        page.matches("http://").count(),
        page.matches("http://www.w3.org/2000/svg").count()
    );
}

fn uttt_series(test: &str) -> Run {
    let args = [
        "--game",
        "uttt",
        "--games",
        "2",
        "-j",
        "1",
        "--seed",
        "3",
        "--timebank",
        "2000",
        "--time-per-move",
        "100",
    ];
    arena(
        test,
        &args,
        &bot("logged", "first_legal"),
        &bot("first_legal", ""),
    )
}

#[test]
fn every_recorded_uttt_game_gets_a_page_with_its_frames_and_logged_values() {
    let run = uttt_series("view-uttt");
    for row in games(&run) {
        let index = row["index"].as_u64().unwrap() as usize;
        let page = read_page(&run.dir, index);
        assert_self_contained(&page);
        let data = page_data(&page);
        let board = &data["board"];
        assert_eq!(board["kind"], "uttt");
        let frames = board["frames"].as_array().unwrap();
        let plies = row["moves"].as_u64().unwrap() as usize;
        assert_eq!(
            frames.len(),
            plies + 1,
            "game {index}: a frame per ply and the start"
        );
        assert_eq!(board["moves"].as_array().unwrap().len(), plies);
        let line: Vec<&str> = row["line"].as_str().unwrap().split_whitespace().collect();
        assert_eq!(board["moves"], serde_json::json!(line));
        // The cells fill one mark a ply, and the last move is where the line says.
        for (k, frame) in frames.iter().enumerate() {
            let cells = frame["cells"].as_str().unwrap();
            assert_eq!(cells.chars().filter(|&c| c != '.').count(), k);
            if k > 0 {
                let (c, r) = line[k - 1].split_once(',').unwrap();
                let at = r.parse::<usize>().unwrap() * 9 + c.parse::<usize>().unwrap();
                assert_eq!(frame["last"], at);
                let mark = char::from(b'0' + ((k - 1) % 2) as u8);
                assert_eq!(cells.as_bytes()[at] as char, mark);
            }
        }
        assert_eq!(frames[0]["next"], 0x1ff, "every board is open at the start");
        assert_eq!(data["winner"], row["winner"]);
        assert_eq!(data["reason"], row["reason"]);
        // A's wrapper logs values; B's bot logs none.
        let values = data["values"].as_array().unwrap();
        assert_eq!(values.len(), 1, "game {index}: only A logged values");
        assert_eq!(values[0]["label"], "A");
        let points = values[0]["points"].as_array().unwrap();
        let a_player = row["a_player"].as_u64().unwrap() as usize;
        // A's K-th request is its K-th ply: frames a_player, a_player + 2, ...
        for (k, point) in points.iter().enumerate() {
            assert_eq!(point[0], a_player + 2 * k);
        }
        assert_eq!(points[0][1], 0.6);
        // The largest fall (0.65 to 0.3) is at A's 4th move.
        assert_eq!(values[0]["drop"]["frame"], a_player + 6);
        assert_eq!(values[0]["drop"]["from"], 0.65);
    }
}

#[test]
fn light_riders_and_tron_battle_pages_draw_the_grid_and_the_heads() {
    let args = [
        "--game",
        "tron",
        "--games",
        "1",
        "--seed",
        "7",
        "--map",
        "brackets13",
        "--timebank",
        "1000",
        "--time-per-move",
        "100",
    ];
    let run = arena(
        "view-tron",
        &args,
        &bot("logged", "rider"),
        &bot("rider", ""),
    );
    let row = &games(&run)[0];
    let data = page_data(&read_page(&run.dir, 0));
    let board = &data["board"];
    assert_eq!(board["kind"], "grid");
    assert_eq!(
        (board["width"].as_u64(), board["height"].as_u64()),
        (Some(13), Some(13))
    );
    assert!(
        !board["walls"].as_array().unwrap().is_empty(),
        "brackets13 has walls"
    );
    let frames = board["frames"].as_array().unwrap();
    assert_eq!(frames.len(), row["moves"].as_u64().unwrap() as usize + 1);
    // The first frame's heads are where the transcript's first field puts them.
    let field = run
        .transcript(0, "A")
        .lines()
        .find_map(|l| l.strip_prefix("> update game field ").map(str::to_string))
        .unwrap();
    let cells: Vec<&str> = field.split(',').collect();
    let heads = |frame: &Value| -> Vec<i64> {
        let heads = frame["heads"].as_array().unwrap();
        heads.iter().map(|h| h.as_i64().unwrap()).collect()
    };
    for (p, head) in heads(&frames[0]).into_iter().enumerate() {
        let at = cells.iter().position(|&c| c == p.to_string()).unwrap();
        assert_eq!(head, at as i64);
    }
    // Heads move one cell a round while the game lasts.
    for pair in frames.windows(2) {
        for (a, b) in heads(&pair[0]).into_iter().zip(heads(&pair[1])) {
            assert!([0, 1, 13].contains(&(a - b).abs()), "a head jumped");
        }
    }
    assert_eq!(data["values"][0]["label"], "A");

    let riders = [
        "--game", "tron-cg", "--ffa", "--games", "1", "--seed", "5", "-j", "1",
    ];
    let safe = bot("safe_cg", "");
    let run = arena_engines("view-battle", &riders, &[&safe, &safe, &safe]);
    let row = &games(&run)[0];
    let board = page_data(&read_page(&run.dir, 0))["board"].clone();
    assert_eq!(board["trails_vanish"], true);
    assert_eq!(
        (board["width"].as_u64(), board["height"].as_u64()),
        (Some(30), Some(20))
    );
    let frames = board["frames"].as_array().unwrap();
    assert_eq!(frames.len(), row["moves"].as_u64().unwrap() as usize + 1);
    // One rider is left in the end: the others' heads are gone with their trails.
    let last = frames.last().unwrap()["heads"].as_array().unwrap();
    assert_eq!(last.iter().filter(|h| !h.is_null()).count(), 1);
}

fn arena_cmd(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("run arena")
}

#[test]
fn arena_view_rewrites_the_pages_and_report_links_each_game() {
    let run = uttt_series("view-rewrite");
    let dir = run.dir.display().to_string();
    let out = run.dir.join("again");
    let done = arena_cmd(&["view", &dir, "--out", &out.display().to_string()]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    for game in 0..2 {
        let first = read_page(&run.dir, game);
        let again = std::fs::read_to_string(out.join(format!("game_{game:04}.html"))).unwrap();
        assert_eq!(
            first, again,
            "game {game}'s page is made the same way again"
        );
    }
    let one = run.dir.join("one");
    let done = arena_cmd(&[
        "view",
        &dir,
        "--game",
        "1",
        "--out",
        &one.display().to_string(),
    ]);
    assert!(done.status.success());
    let written: Vec<PathBuf> = std::fs::read_dir(&one)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(written, [one.join("game_0001.html")]);
    let missing = arena_cmd(&["view", &dir, "--game", "7"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no game 7"));

    let report = run.dir.join("report");
    let done = arena_cmd(&["report", "--out", &report.display().to_string(), &dir]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    for game in 0..2 {
        let link = format!("run0_games/game_{game:04}.html");
        assert!(
            index.contains(&format!("href=\"{link}\"")),
            "no link to {link}"
        );
        assert_eq!(
            std::fs::read_to_string(report.join(&link)).unwrap(),
            read_page(&run.dir, game)
        );
    }
}

/// Chromium, where it is installed (`ARENA_CHROMIUM` names another binary).
fn chromium() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("ARENA_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// A headless screenshot of `page` opened at `fragment` (the page's `#move=K` or
/// `#clicks=N`), decoded: (width, height, RGBA pixels).
fn screenshot(browser: &Path, page: &Path, fragment: &str, png: &Path) -> (u32, u32, Vec<u8>) {
    let profile = png.with_extension("profile");
    let done = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1000,760",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}#{fragment}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        png.exists(),
        "chromium wrote no screenshot: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    let decoder = png::Decoder::new(std::fs::File::open(png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgba = pixels
        .chunks(channels)
        .flat_map(|p| [p[0], p[1 % channels], p[2 % channels], 255])
        .collect();
    (info.width, info.height, rgba)
}

/// The inside of the board's canvas in a screenshot (the page puts the 486-pixel canvas
/// below a header of three lines at the left): the controls and the status text, which
/// change with every step whatever the board shows, stay outside.
const BOARD: (std::ops::Range<u32>, std::ops::Range<u32>) = (40..460, 170..600);

/// The distinct colours inside the board.
fn board_colours(shot: &(u32, u32, Vec<u8>)) -> std::collections::HashSet<[u8; 4]> {
    board_pixels(shot)
        .chunks(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

/// The pixels inside the board, row by row.
fn board_pixels(shot: &(u32, u32, Vec<u8>)) -> Vec<u8> {
    let (w, _, rgba) = shot;
    let (xs, ys) = BOARD;
    ys.flat_map(|y| {
        let from = ((y * w + xs.start) * 4) as usize;
        rgba[from..from + (xs.len() * 4)].to_vec()
    })
    .collect()
}

#[test]
fn a_real_browser_draws_the_page_and_stepping_changes_it() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("ARENA_REQUIRE_BROWSER").is_none(),
            "ARENA_REQUIRE_BROWSER is set but no Chromium was found"
        );
        eprintln!("skipped: no Chromium (apt-get install chromium; .ci/run installs it)");
        return;
    };
    let run = uttt_series("view-browser");
    let page = run.dir.join("view/game_0000.html");
    let start = screenshot(&browser, &page, "move=0", &run.dir.join("start.png"));
    let stepped = screenshot(&browser, &page, "clicks=5", &run.dir.join("stepped.png"));
    let moved = screenshot(&browser, &page, "move=5", &run.dir.join("moved.png"));
    for shot in [&start, &stepped] {
        assert!(
            shot.0 >= 900 && shot.1 >= 700,
            "a {}x{} screenshot",
            shot.0,
            shot.1
        );
        // A blank board is one colour; a drawn one has its lines, marks and highlights.
        let colours = board_colours(shot).len();
        assert!(colours > 8, "the board is blank ({colours} colours)");
    }
    // Plain asserts: the pixels themselves would flood the message.
    assert!(
        board_pixels(&start) != board_pixels(&stepped),
        "five clicks on the forward button did not change the board"
    );
    assert!(
        board_pixels(&stepped) == board_pixels(&moved),
        "five clicks forward do not show move 5"
    );
}
