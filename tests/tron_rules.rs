//! Light Riders rules: a real engine game replayed, and hand-drawn tiny boards.

use mctsbot::game::Outcome;
use mctsbot::protocol::Token;
use mctsbot::search::{Evaluator, FastRng, SimGame};
use mctsbot::tron::TronAnswer;
use mctsbot::tron::{Direction, PlayoutPolicy, TronState};
use rand::SeedableRng;

fn parse_field(s: &str) -> Vec<Token> {
    s.split(',')
        .map(|t| match t {
            "." => Token::Dot,
            "x" => Token::Wall,
            n => Token::Number(n.parse().expect("number token")),
        })
        .collect()
}

/// (width, height, fields) from the fixture copied from a real engine transcript.
fn fixture() -> (usize, usize, Vec<Vec<Token>>) {
    let text = include_str!("fixtures/lightriders-fields.txt");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let size: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (size[0], size[1], lines.map(parse_field).collect())
}

fn direction_between(a: (usize, usize), b: (usize, usize)) -> Direction {
    let d = (b.0 as i32 - a.0 as i32, b.1 as i32 - a.1 as i32);
    Direction::ALL
        .into_iter()
        .find(|dir| dir.offset() == d)
        .unwrap_or_else(|| panic!("heads {a:?} -> {b:?} are not one step apart"))
}

#[test]
fn replay_of_a_real_engine_game_matches_every_field() {
    let (w, h, fields) = fixture();
    assert_eq!((w, h), (16, 16));
    assert_eq!(fields.len(), 33);
    for pair in fields.windows(2) {
        let before = TronState::from_engine(w, h, &pair[0]).unwrap();
        let after = TronState::from_engine(w, h, &pair[1]).unwrap();
        assert_eq!(
            before.engine_field(),
            pair[0],
            "parse -> engine_field round trip"
        );
        let d = [0, 1].map(|p| direction_between(before.head(p), after.head(p)));
        let mut stepped = before.clone();
        stepped.step(d[0], d[1]);
        assert_eq!(stepped.outcome(), None);
        assert_eq!(stepped.engine_field(), pair[1]);
        assert_eq!(stepped, after);
    }
}

#[test]
fn start_position_is_the_engine_start() {
    let (w, h, fields) = fixture();
    let parsed = TronState::from_engine(w, h, &fields[0]).unwrap();
    assert_eq!(parsed, TronState::light_riders_start());
    assert_eq!(parsed.head(0), (3, 7));
    assert_eq!(parsed.head(1), (12, 7));
}

#[test]
fn from_engine_rejects_bad_fields_without_panicking() {
    let ok = parse_field(".,0,.,1");
    assert!(TronState::from_engine(2, 2, &ok).is_ok());
    assert!(TronState::from_engine(3, 2, &ok).is_err(), "wrong length");
    assert!(
        TronState::from_engine(2, 2, &parse_field(".,0,.,.")).is_err(),
        "missing rider"
    );
    assert!(
        TronState::from_engine(2, 2, &parse_field("0,0,.,1")).is_err(),
        "duplicate rider"
    );
    assert!(
        TronState::from_engine(2, 2, &parse_field("2,0,.,1")).is_err(),
        "unknown rider"
    );
    assert!(TronState::from_engine(2, 2, &parse_field("-1,0,.,1")).is_err());
    assert!(TronState::from_engine(0, 0, &[]).is_err());
    assert!(
        TronState::from_engine(100, 1, &[Token::Dot; 100]).is_err(),
        "too wide"
    );
}

fn state(d: &str) -> TronState {
    TronState::from_diagram(d).unwrap()
}

#[test]
fn running_into_a_wall_loses() {
    let mut s = state("0#..\n...1");
    s.step(Direction::Right, Direction::Left);
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
    assert_eq!(s.head(1), (2, 1));
    assert!(s.is_blocked(3, 1), "the winner's old head is a wall");
}

#[test]
fn leaving_the_board_loses_on_every_edge() {
    // rider 1 sits in the corner (3, 2) of a 4x3 board; rider 0 moves to safety
    let cases = [
        (Direction::Right, "..0.\n....\n...1", true),
        (Direction::Down, "..0.\n....\n...1", true),
        (Direction::Up, "..0.\n....\n...1", false),
        (Direction::Left, "..0.\n....\n...1", false),
    ];
    for (d, diagram, crashes) in cases {
        let mut s = state(diagram);
        s.step(Direction::Down, d);
        let expected = if crashes { Some(Outcome::Win(0)) } else { None };
        assert_eq!(s.outcome(), expected, "rider 1 moving {d:?}");
    }
    // the left and top edges, with rider 0 in the corner (0, 0)
    for (d, crashes) in [
        (Direction::Left, true),
        (Direction::Up, true),
        (Direction::Right, false),
    ] {
        let mut s = state("0...\n....\n...1");
        s.step(d, Direction::Up);
        let expected = if crashes { Some(Outcome::Win(1)) } else { None };
        assert_eq!(s.outcome(), expected, "rider 0 moving {d:?}");
    }
}

#[test]
fn both_entering_one_cell_is_a_draw() {
    let mut s = state("0.1\n...");
    s.step(Direction::Right, Direction::Left);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
}

#[test]
fn head_on_swap_is_a_draw() {
    let mut s = state("01\n..");
    s.step(Direction::Right, Direction::Left);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
}

#[test]
fn following_into_the_cell_the_other_leaves_crashes() {
    // rider 0 moves right into 1's head cell while 1 moves away: the old head is a wall
    let mut s = state("01.\n...");
    s.step(Direction::Right, Direction::Right);
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn reversing_is_a_crash_into_the_own_trail() {
    let mut s = state("0...\n...1");
    s.step(Direction::Right, Direction::Left);
    assert_eq!(s.outcome(), None);
    s.step(Direction::Left, Direction::Up);
    assert_eq!(s.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn both_crashing_into_walls_is_a_draw() {
    let mut s = state("0#\n#1");
    s.step(Direction::Right, Direction::Up);
    assert_eq!(s.outcome(), Some(Outcome::Draw));
}

#[test]
fn safe_and_legal_moves() {
    let s = state("#0.\n.1.\n...");
    let safe0: Vec<_> = s.safe_moves(0).iter().collect();
    assert_eq!(safe0, vec![Direction::Right]);
    let safe1: Vec<_> = s.safe_moves(1).iter().collect();
    assert_eq!(
        safe1,
        vec![Direction::Down, Direction::Left, Direction::Right]
    );
    let open: Vec<_> = s.legal_moves(1).into_iter().collect();
    assert_eq!(
        open, safe1,
        "the legal moves of a free rider are its safe moves"
    );
    let trapped = state("#0#\n.1.");
    let moves: Vec<_> = trapped.legal_moves(0).into_iter().collect();
    assert_eq!(
        moves.len(),
        1,
        "a trapped rider still has one (losing) move"
    );
    let mut t = trapped.clone();
    t.play_joint(moves[0], Direction::Left);
    assert_eq!(t.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn direction_answers_round_trip() {
    for d in Direction::ALL {
        assert_eq!(
            mctsbot::tron::parse_tron_answer(&TronAnswer(Some(d)).to_string()),
            Some(TronAnswer(Some(d)))
        );
        assert_ne!(d.opposite(), d);
        assert_eq!(d.opposite().opposite(), d);
        let (dx, dy) = d.offset();
        assert_eq!(d.opposite().offset(), (-dx, -dy));
    }
    assert_eq!(TronAnswer(None).to_string(), "pass");
}

#[test]
fn render_shows_walls_heads_and_crashes() {
    let mut s = state("0.#\n..1");
    assert_eq!(s.render(), "0.#\n..1\n");
    s.step(Direction::Down, Direction::Up);
    // rider 1 ran up into the wall and stays, crashed, on its last cell
    assert_eq!(s.render(), "#.#\n0.X\n");
}

#[test]
fn playouts_end_and_return_a_reward_for_every_policy() {
    use mctsbot::tron::EvalCutoff;
    let policies = [
        PlayoutPolicy::random(),
        PlayoutPolicy::avoid_crash(),
        PlayoutPolicy::avoid_crash().with_separation_check(5),
        PlayoutPolicy::avoid_crash()
            .with_separation_check(5)
            .with_eval(Some(EvalCutoff::VORONOI)),
        PlayoutPolicy::random().with_eval(Some(EvalCutoff::TREE_OF_CHAMBERS)),
    ];
    let mut rng = FastRng::seed_from_u64(7);
    for mut p in policies {
        let start = TronState::light_riders_start();
        let mut total = 0.0;
        for _ in 0..300 {
            let r = p.evaluate(&mut start.clone(), &mut rng);
            assert!([0.0, 0.5, 1.0].contains(&r), "{p:?} gave {r}");
            total += r;
        }
        // the start is symmetric: neither side should win nearly everything
        let mean = total / 300.0;
        assert!((0.3..0.7).contains(&mean), "{p:?}: mean {mean}");
    }
}

#[test]
fn avoid_crash_playouts_never_crash_with_a_safe_move_available() {
    // corridors: rider 0 has 4 moves, rider 1 only 2, so an avoid-crash play-out always
    // ends with rider 0 winning (a random one often crashes rider 0 first)
    let s = state("0....\n#####\n1..##");
    let mut policy = PlayoutPolicy::avoid_crash();
    let mut rng = FastRng::seed_from_u64(3);
    for _ in 0..100 {
        assert_eq!(policy.evaluate(&mut s.clone(), &mut rng), 1.0);
    }
}

#[test]
fn separation_cutoff_decides_by_space() {
    // separated: rider 1 has 3 cells, rider 0 has 9; a random play-out could lose for
    // rider 0 but the cut-off after the first check must not
    let s = state("0....\n.....\n#####\n1..##");
    let mut policy = PlayoutPolicy::random().with_separation_check(1);
    let mut rng = FastRng::seed_from_u64(5);
    let mut wins = 0;
    for _ in 0..200 {
        let r = policy.evaluate(&mut s.clone(), &mut rng);
        if r == 1.0 {
            wins += 1;
        }
    }
    // rider 0 survives its first random move 2/4 of the time and rider 1 1/4: the
    // cut-off then gives rider 0 the win whenever both survive
    assert!(wins > 50, "wins {wins}");
}
