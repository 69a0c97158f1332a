//! Light Riders positions labelled with their game's result: what `tron-fit play` writes
//! and `tron-fit fit` reads (`tune/README.md`), and the logistic regression that fits the
//! space cut-off's weights to them (as chess engines tune their evaluation against game
//! results).
//!
//! One position per line, every round of a game where both riders live and share space:
//!
//! ```text
//! GAME RESULT FILL0 FILL1 EDGE0 EDGE1 TERRITORY0 TERRITORY1 FREE
//! ```
//! - GAME: the game's index (a held-out set is made of whole games);
//! - RESULT: rider 0's result, `1`, `0.5` or `0`;
//! - then the space evaluation of the position for each rider (`mctsbot::tron::evaluate`):
//!   fillable cells, their edges, territory; and the board's free cells.

use mctsbot::tron::evaluate::{Space, FEATURES};
use nalgebra::{DMatrix, DVector};

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub game: u64,
    /// Rider 0's result: 1, 0.5 or 0.
    pub result0: f32,
    /// The space evaluation's view (the riders share space).
    pub space: Space,
    pub free: u32,
}

impl Position {
    /// The record's line, without its newline.
    pub fn to_line(&self) -> String {
        let s = &self.space;
        format!(
            "{} {} {} {} {} {} {} {} {}",
            self.game,
            self.result0,
            s.fillable[0],
            s.fillable[1],
            s.edges[0],
            s.edges[1],
            s.territory[0],
            s.territory[1],
            self.free
        )
    }

    /// Reads a record's line.
    pub fn parse(line: &str) -> Result<Position, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(format!("9 fields expected, got {}", fields.len()));
        }
        let number = |i: usize| -> Result<u32, String> {
            fields[i]
                .parse()
                .map_err(|_| format!("field {} is not a count: {:?}", i + 1, fields[i]))
        };
        let game = fields[0]
            .parse()
            .map_err(|_| format!("not a game index: {:?}", fields[0]))?;
        let result0 = match fields[1] {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(format!("a result is 1, 0.5 or 0, not {other:?}")),
        };
        Ok(Position {
            game,
            result0,
            space: Space {
                separated: false,
                fillable: [number(2)?, number(3)?],
                edges: [number(4)?, number(5)?],
                territory: [number(6)?, number(7)?],
            },
            free: number(8)?,
        })
    }

    /// Rider 0's leads ([`Space::features`]).
    pub fn features(&self) -> [f32; FEATURES] {
        self.space.features()
    }
}

/// The logistic model's chance that rider 0 wins: `1 / (1 + e^−(β·x))`.
pub fn predict(beta: &[f64], x: &[f64]) -> f64 {
    let z: f64 = beta.iter().zip(x).map(|(b, x)| b * x).sum();
    1.0 / (1.0 + (-z).exp())
}

/// The mean cross-entropy of `beta`'s predictions against the results `ys` (a draw is a
/// label of one half): ln 2 for a model that always says one half.
pub fn log_loss(beta: &[f64], xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    let total: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, &y)| {
            let p = predict(beta, x).clamp(1e-12, 1.0 - 1e-12);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / xs.len().max(1) as f64
}

/// The `beta` of least [`log_loss`] on `xs` and `ys`, without an intercept (the riders
/// are interchangeable: a position and its mirror image get chances that add up to one),
/// by Newton's method. A handful of features needs no more: this is the whole solver
/// (a regression crate would bring its own matrix stack for the same few lines).
pub fn fit(xs: &[Vec<f64>], ys: &[f64]) -> Vec<f64> {
    let k = xs.first().map_or(0, Vec::len);
    let mut beta = DVector::zeros(k);
    for _ in 0..100 {
        let mut gradient = DVector::zeros(k);
        // A tiny ridge keeps the Hessian invertible when a feature is always zero.
        let mut hessian = DMatrix::identity(k, k) * 1e-9;
        for (x, &y) in xs.iter().zip(ys) {
            let x = DVector::from_column_slice(x);
            let p = predict(beta.as_slice(), x.as_slice());
            gradient += &x * (p - y);
            hessian += &x * x.transpose() * (p * (1.0 - p));
        }
        let Some(step) = hessian.cholesky().map(|c| c.solve(&gradient)) else {
            break;
        };
        beta -= &step;
        if step.amax() < 1e-10 * (1.0 + beta.amax()) {
            break;
        }
    }
    beta.as_slice().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mctsbot::search::{random_below, FastRng};
    use rand::SeedableRng;

    #[test]
    fn a_line_reads_back_and_bad_lines_are_refused() {
        let position = Position {
            game: 12,
            result0: 0.5,
            space: Space {
                separated: false,
                fillable: [40, 37],
                edges: [60, 51],
                territory: [44, 41],
            },
            free: 180,
        };
        let line = position.to_line();
        assert_eq!(line, "12 0.5 40 37 60 51 44 41 180");
        assert_eq!(Position::parse(&line), Ok(position));
        assert_eq!(Position::parse("3 1 1 2 3 4 5 6 7").unwrap().result0, 1.0);
        for bad in [
            "12 0.5 40 37 60 51 44 41",
            "12 0.7 40 37 60 51 44 41 180",
            "12 0.5 40 x 60 51 44 41 180",
            "-1 0 40 37 60 51 44 41 180",
        ] {
            assert!(Position::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_model_that_says_one_half_loses_ln_2() {
        let xs = vec![vec![3.0, -1.0], vec![-2.0, 5.0]];
        let loss = log_loss(&[0.0, 0.0], &xs, &[1.0, 0.5]);
        assert!((loss - std::f64::consts::LN_2).abs() < 1e-12);
    }

    #[test]
    fn the_fit_finds_the_weights_that_made_the_results() {
        // Results drawn from a known logistic model over two features: the fit gets its
        // weights back, and predicts better than they do on data it did not see.
        let truth = [0.08, -0.03];
        let mut rng = FastRng::seed_from_u64(5);
        let mut sample = |n: usize| {
            let mut xs = Vec::new();
            let mut ys = Vec::new();
            for _ in 0..n {
                let x = vec![
                    random_below(&mut rng, 61) as f64 - 30.0,
                    random_below(&mut rng, 81) as f64 - 40.0,
                ];
                let p = predict(&truth, &x);
                let y = (f64::from(random_below(&mut rng, 1_000_000)) < p * 1e6) as u8;
                xs.push(x);
                ys.push(f64::from(y));
            }
            (xs, ys)
        };
        let (xs, ys) = sample(20_000);
        let beta = fit(&xs, &ys);
        assert!((beta[0] - truth[0]).abs() < 0.01, "{beta:?}");
        assert!((beta[1] - truth[1]).abs() < 0.01, "{beta:?}");
        assert!(log_loss(&beta, &xs, &ys) <= log_loss(&truth, &xs, &ys));
        let (held_xs, held_ys) = sample(5_000);
        let zero = log_loss(&[0.0, 0.0], &held_xs, &held_ys);
        assert!(log_loss(&beta, &held_xs, &held_ys) < zero - 0.1);
    }
}
