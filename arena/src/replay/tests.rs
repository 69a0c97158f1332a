//! The Light Riders replay's own tests: a game where a rider turns into a dead end, and a
//! transcript's fields, turns and notes.

use super::*;
use Direction::{Down, Left, Up};

fn searches(iterations: u64) -> Searches {
    Searches {
        config: TronConfig::default(),
        iterations: Some(iterations),
        ms: 0,
        seed: 3,
    }
}

/// Player 0 walks left along row 1, then up into the one-cell pocket at (1, 0) and
/// crashes; player 1 walks left along the bottom row.
fn blunder() -> Game {
    let start = TronState::from_diagram(
        "
        #.######
        ...0....
        ........
        ........
        ........
        ......1.",
    )
    .unwrap();
    Game {
        index: Some(0),
        map: "pocket".into(),
        sides: [0, 1],
        names: ["A".into(), "B".into()],
        reason: "B (player 1) survived".into(),
        first_round: 0,
        start,
        rounds: vec![[Left, Left], [Left, Left], [Up, Left], [Up, Left]],
        turns: [Vec::new(), Vec::new()],
        complete: true,
    }
}

#[test]
fn the_move_into_the_pocket_is_the_largest_drop() {
    let game = blunder();
    assert_eq!(game.winner(), Winner::B);
    let plies = searches(2_000).replay(&game, |_, _| {});
    assert_eq!(plies.len(), 4, "one position per round");
    assert_eq!(plies[2].state.head(0), (1, 1));
    assert_eq!(plies[3].state.head(0), (1, 0));
    // In the pocket player 0 is cut off with nothing to fill: the race is lost.
    assert!(plies[3].space.separated);
    assert_eq!(plies[3].riders[0].value, 0.0);
    assert_eq!(plies[3].riders[1].value, 1.0);
    assert_eq!(plies[3].riders[0].plan, Plan::Forced(None));
    assert_eq!(plies[3].riders[0].run, Some(0));
    assert!(plies[3].riders[1].run > Some(20), "{:?}", plies[3].riders);
    // Before it, an open board: the search's choice is not the pocket.
    assert!(plies[2].riders[0].value > 0.3, "{:?}", plies[2].riders);
    assert_ne!(plies[2].riders[0].best, Some(Up));
    assert!(plies[2].riders[0].played.unwrap().value < plies[2].riders[0].value);
    let changes = changes(&plies, game.results());
    assert_eq!(largest_drops(&changes, 0, 1), [2]);
    assert_eq!(changes[3], [Some(0.0), Some(0.0)], "the result was known");
    let text = Report {
        game: &game,
        plies: &plies,
        view: 0,
        top: 2,
        boards: false,
    }
    .text();
    assert!(text.contains("\n    2 u l   |"), "{text}");
    assert!(text.contains("<<\n    3 u l"), "{text}");
    assert!(text.contains("\n  round 2: "), "{text}");
    assert!(
        text.contains("the riders separate in this round (the filler's runs then 0:"),
        "{text}"
    );
}

#[test]
fn the_phase_table_puts_the_pocket_in_the_separating_round() {
    let game = blunder();
    let plies = searches(2_000).replay(&game, |_, _| {});
    let mut table = phases::PhaseTable::default();
    table.add(&game, &plies, 0);
    let [open, separating, separated] = table.phases;
    assert_eq!(
        (open.rounds, separating.rounds, separated.rounds),
        (2, 1, 1)
    );
    // Into the pocket: not the search's choice, valued far below it, the largest drop.
    assert_eq!(
        (separating.differs, separating.costly, separating.largest),
        (1, 1, 1)
    );
    assert!(separating.fell < -0.3, "{separating:?}");
    assert_eq!(open.largest + separated.largest, 0);
    // Forced into the wall at the end: no move of its own.
    assert_eq!(separated.chosen, 0);
    let text = table.text();
    assert!(text.contains("over 1 game(s)"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("the riders separate in this round")
                && l.split_whitespace().last() == Some("1")),
        "{text}"
    );
}

#[test]
fn a_transcript_gives_fields_turns_and_notes() {
    let game = blunder();
    let positions = game.positions();
    let field = |k: usize| {
        positions[k]
            .engine_field()
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut text = String::from(
        "> settings timebank 1000\n> settings your_botid 0\n\
         > settings field_width 8\n> settings field_height 6\n",
    );
    for k in 0..3 {
        text += &format!(
            "> update game round {k}\n> update game field {}\n> action move {}\n< left\n",
            field(k),
            1000 - 10 * k
        );
    }
    text += "# no answer in time\n";
    let t = Transcript::parse(&text).unwrap();
    assert_eq!((t.botid, t.width, t.height), (Some(0), Some(8), Some(6)));
    assert_eq!(t.fields.len(), 3);
    assert_eq!(t.turns.len(), 3);
    assert_eq!(t.turns[2].bank, 980);
    assert_eq!(t.turns[2].answer.as_deref(), Some("left"));
    assert_eq!(t.turns[2].notes, ["no answer in time"]);
    // The rounds between the fields are the game's; the last round is not known.
    let alone = Game::from_transcript(&text).unwrap();
    assert_eq!(alone.rounds, game.rounds[..2]);
    assert!(!alone.complete);
    assert_eq!(searches(100).replay(&alone, |_, _| {}).len(), 3);
    // The bot's log line of its K-th move goes to its K-th turn.
    let mut t = t;
    t.attach_log("[INFO  x] move=2 timebank=990 elapsed=87 chosen=left\n");
    assert_eq!(t.turns[1].logged("elapsed"), Some("87"));
    assert_eq!(t.turns[0].log, None);
    // A field the rounds cannot lead to is refused.
    let (head, last) = text.split_at(text.rfind("> update game field").unwrap());
    let bad = format!("{head}{}", last.replacen(",.,", ",x,", 1));
    let err = Game::from_transcript(&bad).unwrap_err();
    assert!(err.contains("round 2"), "{err}");
    assert_eq!(step_between((2, 2), (4, 2)), None);
    assert_eq!(step_between((2, 2), (2, 1)), Some(Up));
    assert_eq!(step_between((2, 2), (2, 3)), Some(Down));
}
