//! Fuzzing the session layer: engine transcripts from `protocol/fixtures/`, mutated
//! (lines dropped, duplicated, swapped, cut; tokens replaced by huge, negative or
//! non-numeric values; fields of the wrong length or with out-of-range cells; CRLF, tabs,
//! blanks, upper case, bytes that are not UTF-8, a 300,000-value line, unknown and
//! truncated commands, an `action` before any position), fed to the bot's `run` loop.
//!
//! Properties: no panic; every line that starts with `action` gets exactly one answer;
//! when the last position before an `action` is a valid one of a game, the answer is of
//! that game and, in UTTT, a legal move.
//!
//! `cargo test --release --test session_fuzz` runs a few thousand cases; the long run is
//! `FUZZ_CASES=1000000 cargo test --release --test session_fuzz -- --nocapture`, which
//! prints its figures (with `FUZZ_SHOW_WRONG=1`, each input answered in the wrong game).
//! Its last figures (seed 2026, 92 minutes on a shared core): 10^6 inputs, 11,933,986
//! actions, 0 failures, and 3,052 well-formed actions (0.026%) answered in the other game
//! than the transcript's, mostly a corrupt macroboard beside a field that also reads as a
//! square Light Riders board: no setting then says which game the engine plays.

use mctsbot::bot::{run, Config};
use mctsbot::protocol::{parse_command, Command, GameUpdate, Setting, Token};
use mctsbot::search::{random_below, FastRng};
use mctsbot::tron::{parse_tron_answer, TronState};
use mctsbot::uttt::Dialect;
use mctsbot::uttt::{detect_dialect, parse_place_move, Board, Move};
use rand::SeedableRng;
use std::path::Path;

/// The engine lines (`> `) of every fixture transcript.
/// The game a fixture transcript plays, told by its file name (`None`: malformed lines).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Game {
    Uttt,
    Tron,
}

fn seeds() -> Vec<(Option<Game>, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/fixtures");
    let mut transcripts = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let game = if name.starts_with("uttt") {
            Some(Game::Uttt)
        } else if name.starts_with("lightriders") {
            Some(Game::Tron)
        } else {
            None
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("> "))
            .map(str::to_owned)
            .collect();
        if !lines.is_empty() {
            transcripts.push((game, lines));
        }
    }
    assert!(transcripts.len() >= 4, "fixtures missing");
    transcripts
}

fn pick<'a, T>(rng: &mut FastRng, items: &'a [T]) -> &'a T {
    &items[random_below(rng, items.len() as u32) as usize]
}

/// Values a token may be replaced with.
const ODD_VALUES: &[&str] = &[
    "99999999999999999999",
    "-1",
    "-99999",
    "4294967296",
    "abc",
    "",
    "x",
    ".",
    "2",
    "3",
    "-2",
    "1e9",
    "0x10",
    "+5",
    "NaN",
];

/// One mutation of `lines` (as bytes, so that not every input is UTF-8).
fn mutate(lines: &mut Vec<Vec<u8>>, rng: &mut FastRng) {
    if lines.is_empty() {
        lines.push(b"action move 10".to_vec());
        return;
    }
    let i = random_below(rng, lines.len() as u32) as usize;
    match random_below(rng, 16) {
        0 => {
            lines.remove(i);
        }
        1 => lines.insert(i, lines[i].clone()),
        2 if i + 1 < lines.len() => lines.swap(i, i + 1),
        3 => {
            let cut = random_below(rng, lines[i].len() as u32 + 1) as usize;
            lines[i].truncate(cut);
        }
        4 | 5 => {
            // A token (split at spaces and commas) replaced by an odd value.
            let text = String::from_utf8_lossy(&lines[i]).into_owned();
            let mut tokens: Vec<String> = text.split([' ', ',']).map(str::to_owned).collect();
            let t = random_below(rng, tokens.len() as u32) as usize;
            tokens[t] = pick(rng, ODD_VALUES).to_string();
            let rebuilt = if text.contains(',') && t >= 3 {
                // keep the command words apart, rejoin the values with commas
                let (head, values) = tokens.split_at(3.min(tokens.len()));
                format!("{} {}", head.join(" "), values.join(","))
            } else {
                tokens.join(" ")
            };
            lines[i] = rebuilt.into_bytes();
        }
        6 => {
            // A field or macroboard one value shorter or longer.
            if lines[i].starts_with(b"update game field")
                || lines[i].starts_with(b"update game macroboard")
            {
                if random_below(rng, 2) == 0 {
                    if let Some(comma) = lines[i].iter().rposition(|&b| b == b',') {
                        lines[i].truncate(comma);
                    }
                } else {
                    lines[i].extend_from_slice(b",.");
                }
            }
        }
        7 => lines[i].extend_from_slice(b"\r"),
        8 => {
            let at = random_below(rng, lines[i].len() as u32 + 1) as usize;
            lines[i].insert(at, b'\t');
        }
        9 => {
            lines[i].insert(0, b' ');
            lines[i].push(b' ');
        }
        10 => lines[i].make_ascii_uppercase(),
        11 => {
            let at = random_below(rng, lines[i].len() as u32 + 1) as usize;
            let byte = [0xff, 0xc3, 0x80, 0x00][random_below(rng, 4) as usize];
            lines[i].insert(at, byte);
        }
        12 => {
            let huge = vec!["."; 300_000].join(",");
            lines.insert(i, format!("update game field {huge}").into_bytes());
        }
        13 => {
            let odd: &[&[u8]] = &[
                b"frobnicate 1 2",
                b"update",
                b"settings",
                b"action",
                b"action move",
                b"update game",
                b"update game field",
                b"settings timebank",
                b"update player0 row 3",
                b"action shoot 10",
            ];
            lines.insert(i, pick(rng, odd).to_vec());
        }
        14 => lines.insert(0, b"action move 10".to_vec()),
        _ => {
            // Stray settings of the other game.
            let odd: &[&[u8]] = &[
                b"settings field_height 0",
                b"settings field_width 16",
                b"settings your_botid 7",
                b"update game macroboard -1,-1,-1,-1,-1,-1,-1,-1,-1",
            ];
            lines.insert(i, pick(rng, odd).to_vec());
        }
    }
}

/// The answer the position before each `action` asks for, tracked with the bot's own
/// parsers: `None` while the last position is valid in neither game.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expected {
    Uttt(Board),
    Tron,
    Either,
}

/// What each `action` line of `lines` expects, in order, and whether it is a well-formed
/// `action move MS` after a field (some evidence of the game).
fn expectations(lines: &[Vec<u8>]) -> Vec<(Expected, bool)> {
    let (mut field, mut macroboard) = (None::<Vec<Token>>, None::<Vec<Token>>);
    let (mut width, mut height, mut bot_id) = (None, None, None);
    let mut out = Vec::new();
    for raw in lines {
        let line = String::from_utf8_lossy(raw);
        if line.trim().is_empty() {
            continue;
        }
        let parsed = parse_command(&line);
        match parsed {
            Ok(Command::Settings(Setting::FieldWidth(w))) => width = Some(w as usize),
            Ok(Command::Settings(Setting::FieldHeight(h))) => height = Some(h as usize),
            Ok(Command::Settings(Setting::YourBotId(id))) => bot_id = Some(id),
            Ok(Command::UpdateGame(GameUpdate::Field(f))) => field = Some(f),
            Ok(Command::UpdateGame(GameUpdate::Macroboard(m))) => macroboard = Some(m),
            _ if line.split_whitespace().next() == Some("action") => {
                let uttt = match (&field, &macroboard) {
                    (Some(f), Some(m)) => {
                        let hint = bot_id.and_then(Dialect::from_bot_id);
                        Board::from_engine(f, m, detect_dialect(f, m, hint)).ok()
                    }
                    _ => None,
                };
                let tron = field.as_ref().is_some_and(|f| match (width, height) {
                    (Some(w), Some(h)) => TronState::from_engine(w, h, f).is_ok(),
                    _ => TronState::from_square_field(f).is_ok(),
                });
                let expected = match (uttt, tron) {
                    (Some(board), false) => Expected::Uttt(board),
                    (None, true) => Expected::Tron,
                    _ => Expected::Either,
                };
                let well_formed =
                    matches!(parsed, Ok(Command::ActionMove { .. })) && field.is_some();
                out.push((expected, well_formed));
            }
            _ => {}
        }
    }
    out
}

/// What one input gave: actions answered, and well-formed actions of a transcript of a
/// known game answered in the other game.
struct Checked {
    actions: usize,
    wrong_game: usize,
}

/// Runs one input through the bot; returns a description of what went wrong, if anything.
fn check(lines: &[Vec<u8>], game: Option<Game>, config: &Config) -> Result<Checked, String> {
    let mut input = Vec::new();
    for line in lines {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let mut output = Vec::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run(&input[..], &mut output, config.clone())
    }));
    if result.is_err() {
        return Err("panic".into());
    }
    let answers: Vec<String> = String::from_utf8(output)
        .map_err(|_| "answer not UTF-8".to_string())?
        .lines()
        .map(str::to_owned)
        .collect();
    let expected = expectations(lines);
    if answers.len() != expected.len() {
        return Err(format!(
            "{} answers to {} actions",
            answers.len(),
            expected.len()
        ));
    }
    for (answer, (expected, _)) in answers.iter().zip(&expected) {
        let ok = match expected {
            Expected::Uttt(board) => parse_place_move(answer)
                .and_then(|(x, y)| Move::from_xy(x, y))
                .is_some_and(|mv| board.is_legal(mv)),
            Expected::Tron => parse_tron_answer(answer).is_some(),
            Expected::Either => {
                parse_place_move(answer).is_some() || parse_tron_answer(answer).is_some()
            }
        };
        if !ok {
            return Err(format!("answer {answer:?} where {expected:?} was asked"));
        }
    }
    let wrong_game = answers
        .iter()
        .zip(&expected)
        .filter(|(answer, (_, well_formed))| {
            *well_formed
                && match game {
                    Some(Game::Uttt) => parse_tron_answer(answer).is_some(),
                    Some(Game::Tron) => parse_place_move(answer).is_some(),
                    None => false,
                }
        })
        .count();
    Ok(Checked {
        actions: expected.len(),
        wrong_game,
    })
}

/// `cases` mutated inputs; panics with the first failures.
fn fuzz(cases: u64, seed: u64) {
    // No time to think: every action is answered at once, so the run measures the
    // session layer, not the search (the bot's own tests cover the searches).
    let config = Config::from_args(&["--seed", "1", "--safety-ms", "1000000000000000000"]).unwrap();
    let transcripts = seeds();
    let mut rng = FastRng::seed_from_u64(seed);
    let (mut actions, mut wrong_game, mut failures) = (0u64, 0u64, Vec::new());
    for case in 0..cases {
        let (game, transcript) = pick(&mut rng, &transcripts);
        let mut lines: Vec<Vec<u8>> = transcript.iter().map(|l| l.clone().into_bytes()).collect();
        for _ in 0..1 + random_below(&mut rng, 4) {
            mutate(&mut lines, &mut rng);
        }
        match check(&lines, *game, &config) {
            Ok(checked) => {
                actions += checked.actions as u64;
                wrong_game += checked.wrong_game as u64;
                if checked.wrong_game > 0 && std::env::var("FUZZ_SHOW_WRONG").is_ok() {
                    for l in &lines {
                        let l = String::from_utf8_lossy(l);
                        println!(
                            "  {} [{} values]",
                            l.chars().take(60).collect::<String>(),
                            l.split(',').count()
                        );
                    }
                    println!("----");
                }
            }
            Err(why) => failures.push(format!("case {case} (seed {seed}): {why}")),
        }
    }
    println!(
        "fuzz: {cases} inputs, {actions} actions answered, {wrong_game} well-formed actions \
         answered in the other game than the transcript's, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{:#?}",
        &failures[..failures.len().min(10)]
    );
}

#[test]
fn mutated_engine_inputs_are_always_answered_in_the_right_game() {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    fuzz(cases, 2026);
}
