//! The UTTT replay's report: one game's table of plies with its largest value gaps and
//! losses in words, and the closing summary over the replayed games by phase and colour.

use super::uttt::VALUE_GAP;
use super::uttt::{ErrorKind, Phase, UtttGame, UtttPly, END_PLIES, MOVE_LOSS, OPENING_PLIES};
use mctsbot::uttt::Move;
use std::fmt::Write as _;

pub(super) const LEGEND: &str = "\
Each line is a ply of the game, in the position before it: its number (1 = the game's
first move), who made it (side, X moving first, O second) and the move played (column,row;
o: an opening ply, played by the arena). For the replayed side's plies after the opening:
bot: the bot's logged choice (! when it is not the move played), its logged value (its
search's value of its move for the mover, 0..1), iterations and r when it reused its tree;
long: the long search's best move (* when the move played differs), its value of the
position for the mover, its value of the move played; gap = |logged value - long value|;
loss = long value - its value of the move played. phase: opening (plies 1-10, or the
arena's opening when longer), end (the game's last 15 plies), middle. Flags: gN the N-th
largest gap, lN the N-th largest loss; V a value error (gap >= 0.15 while the move played
is within 0.10 of the long search's best), M a move choice (loss >= 0.10), unseen when the
bot's logged value is 0.15 or more above the long search's value of the move played (its
search did not see the refutation).";

/// What the table prints for one game, from player `view`'s side.
pub struct GameReport<'a> {
    pub game: &'a UtttGame,
    pub plies: &'a [UtttPly],
    pub view: usize,
    pub top: usize,
    pub boards: bool,
}

fn xy(mv: Move) -> String {
    let (x, y) = mv.xy();
    format!("{x},{y}")
}

/// `X` or `O` for player `p`.
fn mark(p: usize) -> char {
    ['X', 'O'][p]
}

/// "first" or "second".
fn colour(p: usize) -> &'static str {
    ["first", "second"][p]
}

/// The `top` plies (indexes into `plies`) with the largest `key` above 0, largest first.
pub fn largest(plies: &[UtttPly], top: usize, key: impl Fn(&UtttPly) -> Option<f32>) -> Vec<usize> {
    let mut found: Vec<(usize, f32)> = plies
        .iter()
        .enumerate()
        .filter_map(|(i, ply)| key(ply).filter(|&v| v > 0.0).map(|v| (i, v)))
        .collect();
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    found.into_iter().take(top).map(|(i, _)| i).collect()
}

impl GameReport<'_> {
    pub fn text(&self) -> String {
        let game = self.game;
        let gaps = largest(self.plies, self.top, UtttPly::gap);
        let losses = largest(self.plies, self.top, UtttPly::loss);
        let positions = game.positions();
        let mut out = self.header();
        let _ = writeln!(
            out,
            "  ply who  played | {:>5} {:>6} {:>8} r | {:>5} {:>5} {:>6} {:>6} {:>6} | phase   flags",
            "bot", "value", "iters", "long", "value", "played", "gap", "loss"
        );
        for (i, ply) in self.plies.iter().enumerate() {
            if self.boards {
                out += &positions[ply.k].render();
            }
            let mut flags = String::new();
            if let Some(n) = gaps.iter().position(|&g| g == i) {
                let _ = write!(flags, " g{}", n + 1);
            }
            if let Some(n) = losses.iter().position(|&l| l == i) {
                let _ = write!(flags, " l{}", n + 1);
            }
            match ply.error() {
                Some(ErrorKind::Value) => flags += " V",
                Some(ErrorKind::MoveChoice) => flags += " M",
                None => {}
            }
            if ply.unseen() {
                flags += " unseen";
            }
            let p = game.mover(ply.k) as usize;
            let _ = writeln!(
                out,
                "{:>5} {} {}  {:<6} |{}|{}| {:<7}{flags}",
                ply.k + 1,
                ["A", "B"][game.sides[p]],
                mark(p),
                xy(ply.played) + if ply.k < game.opening { "o" } else { "" },
                bot_columns(ply),
                long_columns(ply),
                game.phase(ply.k).name(),
            );
        }
        out += &self.words(&gaps, &losses);
        out
    }

    fn header(&self) -> String {
        let game = self.game;
        let name = |p: usize| {
            let side = ["A", "B"][game.sides[p]];
            let name = &game.names[game.sides[p]];
            if name == side {
                side.to_string()
            } else {
                format!("{side} ({name})")
            }
        };
        format!(
            "\ngame {}, {} plies{}: {}{}\nX (moves first): {}; O (moves second): {}\n",
            game.index,
            game.moves.len(),
            if game.opening > 0 {
                format!(" ({} of the opening)", game.opening)
            } else {
                String::new()
            },
            game.reason,
            if game.finished {
                ""
            } else {
                " (a fault ended it)"
            },
            name(0),
            name(1)
        )
    }

    /// The largest gaps and losses in words, the board before the largest, and the
    /// game's counts.
    fn words(&self, gaps: &[usize], losses: &[usize]) -> String {
        let game = self.game;
        let p = self.view;
        let side = ["A", "B"][game.sides[p]];
        let mut out = String::new();
        let who = format!(
            "{side} ({}, moving {}, {})",
            mark(p),
            colour(p),
            game.result(p)
        );
        if gaps.is_empty() {
            let _ = writeln!(
                out,
                "{who}: no logged value to set beside the long search's"
            );
        } else {
            let _ = writeln!(
                out,
                "{who}: the largest gaps between its logged value and the long search's"
            );
            for &i in gaps {
                let _ = writeln!(out, "  {}", self.describe(&self.plies[i]));
            }
        }
        if losses.is_empty() {
            let _ = writeln!(out, "{side}: no move played lost value by the long search");
        } else {
            let _ = writeln!(out, "{side}: the largest losses by the move played");
            for &i in losses {
                let _ = writeln!(out, "  {}", self.describe(&self.plies[i]));
            }
        }
        if let Some(&i) = losses.first().or(gaps.first()) {
            let k = self.plies[i].k;
            let _ = write!(
                out,
                "the board before ply {}:\n{}",
                k + 1,
                game.positions()[k].render()
            );
        }
        let tally = Tally::of(game, self.plies);
        let _ = writeln!(
            out,
            "game {}, {side}: {} plies searched; value errors {}, move choices {}, {} of them \
             unseen",
            game.index,
            tally.searched.iter().sum::<usize>(),
            by_phase(&tally.value_errors),
            by_phase(&tally.move_choices),
            tally.unseen.iter().sum::<usize>()
        );
        out
    }

    /// One ply in words: the logged value against the long search's, the moves, the
    /// kind of error.
    fn describe(&self, ply: &UtttPly) -> String {
        let game = self.game;
        let mut out = format!("ply {} ({})", ply.k + 1, game.phase(ply.k).name());
        let played = xy(ply.played);
        if let Some(log) = &ply.log {
            let _ = write!(
                out,
                ": logged {} for {}",
                log.value.map_or("?".into(), |v| format!("{v:.3}")),
                log.chosen.map_or("?".into(), xy)
            );
            let mut how = Vec::new();
            if let Some(n) = log.iterations {
                how.push(format!("{n} iterations"));
            }
            if let Some(ms) = log.elapsed {
                how.push(format!("{ms} ms"));
            }
            if log.reused == Some(true) {
                how.push("tree reused".into());
            }
            if !how.is_empty() {
                let _ = write!(out, " ({})", how.join(", "));
            }
        } else {
            out += ": no log line";
        }
        if let Some(v) = ply.verdict {
            let best = v.best.map_or("-".into(), |b| xy(b.mv));
            let _ = write!(out, "; the long search {:.3}", v.value());
            if v.best.map(|b| b.mv) == Some(ply.played) {
                let _ = write!(out, " (its best is {played}, the move played)");
            } else {
                let _ = write!(
                    out,
                    " (its best {best}; {played} played, worth {})",
                    v.played.map_or("?".into(), |p| format!("{p:.3}"))
                );
            }
        }
        if let Some(g) = ply.signed_gap() {
            let _ = write!(out, "; logged - long {g:+.3}");
        }
        match ply.error() {
            Some(ErrorKind::Value) => out += ": value error",
            Some(ErrorKind::MoveChoice) if ply.unseen() => {
                out += ": move choice, its refutation unseen by the bot's search"
            }
            Some(ErrorKind::MoveChoice) => out += ": move choice",
            None => {}
        }
        out
    }
}

/// The bot's logged columns of a ply.
fn bot_columns(ply: &UtttPly) -> String {
    match (&ply.log, ply.verdict) {
        (Some(log), _) => format!(
            " {:>4}{} {:>6} {:>8} {} ",
            log.chosen.map_or("?".into(), xy),
            if log.chosen.is_some_and(|c| c != ply.played) {
                '!'
            } else {
                ' '
            },
            log.value.map_or("-".into(), |v| format!("{v:.3}")),
            log.iterations.map_or("-".into(), |n| n.to_string()),
            if log.reused == Some(true) { 'r' } else { ' ' }
        ),
        (None, Some(_)) => format!(" {:>4}  {:>6} {:>8}   ", "-", "-", "-"),
        (None, None) => " ".repeat(25),
    }
}

/// The long search's columns of a ply.
fn long_columns(ply: &UtttPly) -> String {
    let Some(v) = ply.verdict else {
        return " ".repeat(34);
    };
    let best = v.best.map(|b| b.mv);
    format!(
        " {:>4}{} {:.3} {:>6} {:>6} {:>6} ",
        best.map_or("-".into(), xy),
        if best.is_some_and(|b| b != ply.played) {
            '*'
        } else {
            ' '
        },
        v.value(),
        v.played.map_or("-".into(), |p| format!("{p:.3}")),
        ply.gap().map_or("-".into(), |g| format!("{g:.3}")),
        format!("{:.3}", v.loss()),
    )
}

/// `N (opening a, middle b, end c)`.
fn by_phase(counts: &[usize; 3]) -> String {
    format!(
        "{} (opening {}, middle {}, end {})",
        counts.iter().sum::<usize>(),
        counts[0],
        counts[1],
        counts[2]
    )
}

/// Counts and sums of one game's searched plies, by phase.
#[derive(Clone, Debug, Default)]
struct Tally {
    searched: [usize; 3],
    /// Plies with a logged value, and their gaps' sums.
    logged: [usize; 3],
    gap: [f32; 3],
    signed: [f32; 3],
    loss: [f32; 3],
    value_errors: [usize; 3],
    move_choices: [usize; 3],
    /// Move choices whose refutation the bot did not see ([`UtttPly::unseen`]).
    unseen: [usize; 3],
}

impl Tally {
    fn of(game: &UtttGame, plies: &[UtttPly]) -> Tally {
        let mut t = Tally::default();
        for ply in plies.iter().filter(|p| p.verdict.is_some()) {
            let f = game.phase(ply.k) as usize;
            t.searched[f] += 1;
            t.loss[f] += ply.loss().unwrap_or(0.0);
            if let (Some(g), Some(s)) = (ply.gap(), ply.signed_gap()) {
                t.logged[f] += 1;
                t.gap[f] += g;
                t.signed[f] += s;
            }
            match ply.error() {
                Some(ErrorKind::Value) => t.value_errors[f] += 1,
                Some(ErrorKind::MoveChoice) => t.move_choices[f] += 1,
                None => {}
            }
            t.unseen[f] += usize::from(ply.unseen());
        }
        t
    }

    fn add(&mut self, o: &Tally) {
        for f in 0..3 {
            self.searched[f] += o.searched[f];
            self.logged[f] += o.logged[f];
            self.gap[f] += o.gap[f];
            self.signed[f] += o.signed[f];
            self.loss[f] += o.loss[f];
            self.value_errors[f] += o.value_errors[f];
            self.move_choices[f] += o.move_choices[f];
            self.unseen[f] += o.unseen[f];
        }
    }
}

/// The closing summary: a line per game (its largest gap and loss and where they fall),
/// then over all the replayed games, by the replayed side's colour and the phase.
pub fn summary(replayed: &[(&UtttGame, Vec<UtttPly>, usize)]) -> String {
    let mut out = String::from(
        "\ngame  result  plies  side  moving  searched   largest gap  ply  phase      largest loss  ply  phase    value errors  move choices  unseen\n",
    );
    let totals = game_lines(replayed, &mut out);
    let _ = writeln!(
        out,
        "\nover the {} replayed games, by the side's colour and the phase (opening: plies \
         1-{OPENING_PLIES} or the arena's opening; end: the last {END_PLIES}):\n\
         moving  phase    games  plies  mean gap  mean logged-long  mean loss  value errors  \
         move choices  unseen  largest gap here  largest loss here",
        replayed.len()
    );
    phase_lines(&totals, &mut out);
    let _ = writeln!(
        out,
        "value error: gap >= {VALUE_GAP:.2} while the move played is within {MOVE_LOSS:.2} of \
         the long search's best; move choice: loss >= {MOVE_LOSS:.2}; unseen: a move choice the \
         bot valued {VALUE_GAP:.2} or more above the long search's value of it"
    );
    out
}

/// The replayed games' counts by the side's colour (then the phase), for the summary's
/// phase lines.
#[derive(Default)]
struct Totals {
    tallies: [Tally; 2],
    /// Games whose largest gap, and largest loss, fall in each phase.
    where_gap: [[usize; 3]; 2],
    where_loss: [[usize; 3]; 2],
    games: [usize; 2],
}

/// Writes the summary's line of each game; what they add up to.
fn game_lines(replayed: &[(&UtttGame, Vec<UtttPly>, usize)], out: &mut String) -> Totals {
    let mut totals = Totals::default();
    for (game, plies, view) in replayed {
        let view = *view;
        let tally = Tally::of(game, plies);
        let at = |i: Option<&usize>, value: fn(&UtttPly) -> Option<f32>| {
            i.map_or(format!("{:>12}  {:>3}  {:<7}", "-", "-", "-"), |&i| {
                let ply = &plies[i];
                format!(
                    "{:>12.3}  {:>3}  {:<7}",
                    value(ply).unwrap_or(0.0),
                    ply.k + 1,
                    game.phase(ply.k).name()
                )
            })
        };
        let gap = largest(plies, 1, UtttPly::gap);
        let loss = largest(plies, 1, UtttPly::loss);
        if let Some(&i) = gap.first() {
            totals.where_gap[view][game.phase(plies[i].k) as usize] += 1;
        }
        if let Some(&i) = loss.first() {
            totals.where_loss[view][game.phase(plies[i].k) as usize] += 1;
        }
        let _ = writeln!(
            out,
            "{:<5} {:<6} {:>6}  {:<4}  {:<6}  {:>8}  {}   {}  {:>12}  {:>12}  {:>6}",
            game.index,
            game.result(view),
            game.moves.len(),
            ["A", "B"][game.sides[view]],
            colour(view),
            tally.searched.iter().sum::<usize>(),
            at(gap.first(), UtttPly::gap),
            at(loss.first(), UtttPly::loss),
            tally.value_errors.iter().sum::<usize>(),
            tally.move_choices.iter().sum::<usize>(),
            tally.unseen.iter().sum::<usize>(),
        );
        totals.tallies[view].add(&tally);
        totals.games[view] += 1;
    }
    totals
}

/// Writes the summary's line of each colour and phase.
fn phase_lines(totals: &Totals, out: &mut String) {
    for view in 0..2 {
        if totals.games[view] == 0 {
            continue;
        }
        let t = &totals.tallies[view];
        for phase in Phase::ALL {
            let f = phase as usize;
            let mean = |sum: f32, n: usize| match n {
                0 => "-".to_string(),
                n => format!("{:.3}", sum / n as f32),
            };
            let signed = match t.logged[f] {
                0 => "-".to_string(),
                n => format!("{:+.3}", t.signed[f] / n as f32),
            };
            let _ = writeln!(
                out,
                "{:<6}  {:<7}  {:>5}  {:>5}  {:>8}  {:>16}  {:>9}  {:>12}  {:>12}  {:>6}  {:>16}  {:>17}",
                colour(view),
                phase.name(),
                totals.games[view],
                t.searched[f],
                mean(t.gap[f], t.logged[f]),
                signed,
                mean(t.loss[f], t.searched[f]),
                t.value_errors[f],
                t.move_choices[f],
                t.unseen[f],
                totals.where_gap[view][f],
                totals.where_loss[view][f],
            );
        }
    }
}
