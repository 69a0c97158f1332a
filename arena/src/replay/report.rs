//! The replay's report: the table of one game's positions with its largest value drops
//! in words, and the closing summary's line for each game; [`replay_games`] prints them.

use super::phases::{Phase, PhaseTable};
use super::{progress, Assessment, Game, Ply, Searches};
use crate::cli::ReplayArgs;
use crate::game::Winner;
use crate::openings::letter;
use mctsbot::bot::tron::Plan;
use mctsbot::tron::evaluate::Space;
use mctsbot::tron::Direction;
use std::fmt::Write as _;
use std::io::Write as _;

/// The change of each rider's value over each round: the value after the round (its
/// result after the last) minus the value before. None where the next value is unknown.
pub fn changes(plies: &[Ply], results: Option<[f32; 2]>) -> Vec<[Option<f32>; 2]> {
    (0..plies.len())
        .map(|k| {
            [0, 1].map(|p| {
                let next = match plies.get(k + 1) {
                    Some(ply) => Some(ply.riders[p].value),
                    None => results.map(|r| r[p]),
                };
                next.map(|v| v - plies[k].riders[p].value)
            })
        })
        .collect()
}

/// The `top` rounds (indexes into `plies`) where player `p`'s value fell most, largest
/// fall first.
pub fn largest_drops(changes: &[[Option<f32>; 2]], p: usize, top: usize) -> Vec<usize> {
    let mut falls: Vec<(usize, f32)> = changes
        .iter()
        .enumerate()
        .filter_map(|(k, c)| c[p].filter(|&d| d < 0.0).map(|d| (k, d)))
        .collect();
    falls.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    falls.into_iter().take(top).map(|(k, _)| k).collect()
}

/// What the table prints for one game: a line per position, then the largest drops of
/// player `view`'s value and the board before the largest.
pub struct Report<'a> {
    pub game: &'a Game,
    pub plies: &'a [Ply],
    pub view: usize,
    pub top: usize,
    pub boards: bool,
}

pub(super) const LEGEND: &str = "\
Each line is a position, before the round whose moves it shows. space: whether the riders
are separated (S), each player's territory (cells it reaches first), fillable cells and
their edges (player 0:player 1), and the evaluation's score for player 0. Per player: the
move played; the move the bot plays here (* when it differs; F forced, E the endgame
filler); the rider's value of the position (0..1: the search's; separated, the fill race
1/0.5/0); the search's value of the move played (separated: =N, the filler's longest run);
the change of the value over the round (to the result after the last); the timebank sent
and the ms the bot reported in its log. << marks the largest drop of the side's value.";

impl Report<'_> {
    pub fn text(&self) -> String {
        let game = self.game;
        let changes = changes(self.plies, game.results());
        let drops = largest_drops(&changes, self.view, self.top);
        let mut out = self.header();
        let _ = writeln!(
            out,
            "round moves |sep territory  fillable   edges      score |{}|{}",
            rider_header(game, 0),
            rider_header(game, 1)
        );
        for (k, ply) in self.plies.iter().enumerate() {
            if self.boards {
                out += &ply.state.render();
            }
            let mark = if drops.first() == Some(&k) { " <<" } else { "" };
            let _ = writeln!(
                out,
                "{:>5} {:<5} |{}|{}|{}{mark}",
                ply.round,
                ply.played
                    .map_or("-".into(), |[a, b]| format!("{} {}", letter(a), letter(b))),
                space_columns(&ply.space),
                self.rider_columns(ply, 0, changes[k][0]),
                self.rider_columns(ply, 1, changes[k][1]),
            );
        }
        out += &self.drops_text(&drops, &changes);
        out
    }

    fn header(&self) -> String {
        let game = self.game;
        let name = |p: usize| {
            let (side, name) = (["A", "B"][game.sides[p]], &game.names[game.sides[p]]);
            if name == side {
                side.to_string()
            } else {
                format!("{side} ({name})")
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n{} on {}, rounds {}..{}: {}",
            game.index
                .map_or("a transcript".into(), |i| format!("game {i}")),
            game.map,
            game.first_round,
            game.first_round + game.rounds.len() as u32,
            game.reason
        );
        let _ = writeln!(out, "player 0: {}; player 1: {}", name(0), name(1));
        out
    }

    fn rider_columns(&self, ply: &Ply, p: usize, change: Option<f32>) -> String {
        let a = &ply.riders[p];
        let played = ply.played.map(|r| r[p]);
        let differs = played.is_some() && a.best.is_some() && played != a.best;
        let how = match a.plan {
            Plan::Forced(_) => 'F',
            Plan::Fill => 'E',
            Plan::Search => ' ',
        };
        let turn = self.game.turn(p, ply.round);
        format!(
            " {} {}{}{} {:.3} {:>5} {:>6} {:>5} {:>4} ",
            played.map_or('-', letter),
            a.best.map_or('-', letter),
            if differs { '*' } else { ' ' },
            how,
            a.value,
            match (a.played, a.run) {
                (Some(m), _) => format!("{:.3}", m.value),
                (None, Some(run)) => format!("={run}"),
                (None, None) => "-".into(),
            },
            change.map_or("-".into(), |c| format!("{c:+.3}")),
            turn.map_or("-".into(), |t| t.bank.to_string()),
            turn.and_then(|t| t.logged("elapsed")).unwrap_or("-"),
        )
    }

    fn drops_text(&self, drops: &[usize], changes: &[[Option<f32>; 2]]) -> String {
        let game = self.game;
        let p = self.view;
        let mut out = String::new();
        let side = ["A", "B"][game.sides[p]];
        if drops.is_empty() {
            let _ = writeln!(out, "{side} (player {p}): its value never dropped");
            return out;
        }
        let _ = writeln!(out, "{side} (player {p}): the largest drops of its value");
        for &k in drops {
            let _ = writeln!(out, "  {}", describe(game, self.plies, k, p, changes[k][p]));
        }
        let worst = &self.plies[drops[0]];
        let _ = writeln!(
            out,
            "the board before round {}:\n{}",
            worst.round,
            worst.state.render()
        );
        out
    }
}

/// The heading of a player's columns.
fn rider_header(game: &Game, p: usize) -> String {
    let side = ["A", "B"][game.sides[p]];
    format!(" p{p}={side} best value  play change  bank   ms ")
}

/// The space evaluation's columns.
fn space_columns(s: &Space) -> String {
    let pair = |v: [u32; 2]| format!("{}:{}", v[0], v[1]);
    format!(
        " {} {:<10} {:<10} {:<10} {:>6} ",
        if s.separated { 'S' } else { '.' },
        pair(s.territory),
        pair(s.fillable),
        pair(s.edges),
        s.score(0)
    )
}

/// One round where player `p`'s value fell, in words: how much, each rider's move
/// against its search's choice (the opponent's too: a reply the search undervalued shows
/// as its value jumping the round after), and the facts that tell the kinds of loss apart.
fn describe(game: &Game, plies: &[Ply], k: usize, p: usize, change: Option<f32>) -> String {
    let (ply, next) = (&plies[k], plies.get(k + 1));
    let side = |q: usize| ["A", "B"][game.sides[q]];
    let (h0, h1) = (ply.state.head(0), ply.state.head(1));
    let apart = h0.0.abs_diff(h1.0) + h0.1.abs_diff(h1.1);
    let phase = Phase::of(ply, next).words();
    let moves = [p, 1 - p].map(|q| {
        let then = next.map_or(String::new(), |n| {
            format!(", then {:.3}", n.riders[q].value)
        });
        format!(
            "{} played {}{then}",
            side(q),
            move_words(&ply.riders[q], ply.played.map(|r| r[q]))
        )
    });
    let runs = next
        .filter(|n| !ply.space.separated && n.space.separated)
        .and_then(|n| Some([n.riders[p].run?, n.riders[1 - p].run?]))
        .map_or(String::new(), |[mine, theirs]| {
            format!(" (the filler's runs then {mine}:{theirs})")
        });
    let time = game.turn(p, ply.round).map_or(String::new(), |t| {
        let used = t.logged("elapsed");
        let notes = t.notes.iter().map(|n| format!(", {n}")).collect::<String>();
        let used = used.map_or(String::new(), |ms| format!(", {ms} ms used"));
        format!("; bank {} ms{used}{notes}", t.bank)
    });
    format!(
        "round {}: {:.3} -> {} ({}); {}; {}; {phase}{runs}, heads {apart} apart, fillable {}:{}{time}",
        ply.round,
        ply.riders[p].value,
        change.map_or("?".into(), |c| format!("{:.3}", ply.riders[p].value + c)),
        change.map_or("?".into(), |c| format!("{c:+.3}")),
        moves[0],
        moves[1],
        ply.space.fillable[0],
        ply.space.fillable[1],
    )
}

/// A rider's move beside its search's choice: `u (0.402, 812 visits), the search
/// prefers d (0.610, 15000 visits)`.
fn move_words(a: &Assessment, played: Option<Direction>) -> String {
    let stats = |value: f32, visits: u32| match visits {
        0 => format!("{value:.3}"),
        n => format!("{value:.3}, {n} visits"),
    };
    match (played, a.best) {
        (Some(m), Some(b)) if m == b => {
            format!(
                "{} ({}), the search's choice",
                letter(m),
                stats(a.value, a.visits)
            )
        }
        (Some(m), best) => format!(
            "{} ({}), the search prefers {} ({})",
            letter(m),
            a.played.map_or("?".into(), |r| stats(r.value, r.visits)),
            best.map_or('-', letter),
            stats(a.value, a.visits)
        ),
        (None, _) => "nothing".into(),
    }
}

/// One line of the closing summary: the game, its result and its largest fall.
pub(super) fn summary_line(game: &Game, plies: &[Ply], view: usize) -> String {
    let changes = changes(plies, game.results());
    let drops = largest_drops(&changes, view, 1);
    let result = match game.winner() {
        _ if !game.complete => "?",
        Winner::Draw => "drew",
        w if w == [Winner::A, Winner::B][game.sides[view]] => "won",
        _ => "lost",
    };
    let fall = drops.first().map_or("-".to_string(), |&k| {
        let ply = &plies[k];
        let phase = Phase::of(ply, plies.get(k + 1)).words();
        format!(
            "{:+.3}  {:>5}  {phase}{}",
            changes[k][view].unwrap_or(0.0),
            ply.round,
            if ply.played.map(|r| r[view]) != ply.riders[view].best {
                ", not the search's choice"
            } else {
                ""
            }
        )
    });
    format!(
        "{:<5} {:<8} {:>6}  {:<4}  {fall}\n",
        game.index.map_or("-".into(), |i| i.to_string()),
        result,
        game.rounds.len(),
        ["A", "B"][game.sides[view]],
    )
}

/// Replays each Light Riders game from `side`'s view, printing its report as it goes,
/// then the summary line of each.
pub(super) fn replay_games(args: &ReplayArgs, searches: &Searches, games: &[Game], side: usize) {
    let mut summary = String::from("\ngame  result   rounds  side  largest drop  round  phase\n");
    let mut phases = PhaseTable::default();
    for (n, game) in games.iter().enumerate() {
        let label = game
            .index
            .map_or("the transcript".into(), |i| format!("game {i}"));
        eprintln!(
            "arena replay: {label} ({}/{}), {} rounds",
            n + 1,
            games.len(),
            game.rounds.len()
        );
        let plies = searches.replay(game, progress(label));
        let view = game.sides.iter().position(|&s| s == side).unwrap_or(0);
        let report = Report {
            game,
            plies: &plies,
            view,
            top: args.top,
            boards: args.boards,
        };
        print!("{}", report.text());
        let _ = std::io::stdout().flush();
        summary += &summary_line(game, &plies, view);
        phases.add(game, &plies, view);
    }
    print!("{}{summary}", phases.text());
}
