//! The UTTT value network in floating point, its training and its quantised export.
//!
//! 209 sparse inputs (`mctsbot::uttt::nn::active_features`) → `HIDDEN` units with a
//! clipped ReLU (0..1) → one output, squashed by the logistic function into the value
//! for the player to move. Trained by mini-batch Adam on the cross-entropy against a
//! blend of the game's result and the search's root value (a soft target; its gradient
//! at the output is simply `prediction − target`, where the squared error's vanishes on
//! the logistic's flat ends). Written by hand: two dense layers need no machine-learning
//! crate, PyTorch is not on the machines this runs on, and the export must match the
//! bot's integer inference exactly (`mctsbot::uttt::nn`).

use mctsbot::uttt::nn::{QuantizedNet, HIDDEN, INPUTS, QA, QB};

/// The network in `f32`: `w1` feature-major (`w1[feature * HIDDEN + unit]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// One training example: the active features and the target value (0..1).
pub struct Example {
    pub features: Vec<u16>,
    pub target: f32,
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// A small deterministic generator for the initial weights (no crate needed).
fn uniform(state: &mut u64) -> f32 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

impl Network {
    /// Small random weights, seeded.
    pub fn new(seed: u64) -> Network {
        let mut state = seed ^ 0x5851_f42d_4c95_7f2d;
        // About 30 features are active: keep the first layer's sums near 0..1.
        let w1 = (0..INPUTS * HIDDEN)
            .map(|_| uniform(&mut state) * 0.1)
            .collect();
        let w2 = (0..HIDDEN).map(|_| uniform(&mut state) * 0.5).collect();
        Network {
            w1,
            b1: vec![0.25; HIDDEN],
            w2,
            b2: 0.0,
        }
    }

    /// The float network of `net`, a quantised network of `hidden` units (at most
    /// [`HIDDEN`]), widened to [`HIDDEN`] units: the new units get small random input
    /// weights and a zero output weight, so that the widened network values every
    /// position exactly as `net` does, and training grows them from there. How a larger
    /// network starts from the embedded one, whose games are gone; with `hidden` equal to
    /// [`HIDDEN`], the float network whose [`Network::quantize`] is `net`.
    pub fn widened_from(net: &QuantizedNet, hidden: usize, seed: u64) -> Network {
        assert!(hidden <= HIDDEN, "{hidden} units do not fit in {HIDDEN}");
        let mut wide = Network::new(seed);
        let narrow = |w: &[i16], scale: i32, at: usize| f32::from(w[at]) / scale as f32;
        for feature in 0..INPUTS {
            for unit in 0..hidden {
                wide.w1[feature * HIDDEN + unit] = narrow(&net.w1, QA, feature * hidden + unit);
            }
        }
        for unit in 0..HIDDEN {
            let old = unit < hidden;
            wide.b1[unit] = if old {
                narrow(&net.b1, QA, unit)
            } else {
                wide.b1[unit]
            };
            wide.w2[unit] = if old { narrow(&net.w2, QB, unit) } else { 0.0 };
        }
        wide.b2 = net.b2 as f32 / (QA * QB) as f32;
        wide
    }

    /// The hidden units' sums (before the clipped ReLU).
    fn accumulate(&self, features: &[u16]) -> Vec<f32> {
        let mut acc = self.b1.clone();
        for &f in features {
            let row = &self.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The value (0..1) for the player to move.
    pub fn predict(&self, features: &[u16]) -> f32 {
        let acc = self.accumulate(features);
        let z: f32 = self.b2
            + acc
                .iter()
                .zip(&self.w2)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        sigmoid(z)
    }

    /// The mean squared error over `examples`.
    pub fn loss(&self, examples: &[Example]) -> f32 {
        let total: f32 = examples
            .iter()
            .map(|e| (self.predict(&e.features) - e.target).powi(2))
            .sum();
        total / examples.len().max(1) as f32
    }

    /// The weights in the bot's integers: the first layer and its bias times `QA`, the
    /// output weights times `QB`, the output bias times `QA · QB`.
    pub fn quantize(&self) -> QuantizedNet {
        let q = |x: f32, scale: f32| (x * scale).round().clamp(-32767.0, 32767.0) as i16;
        QuantizedNet {
            w1: self.w1.iter().map(|&w| q(w, QA as f32)).collect(),
            b1: self.b1.iter().map(|&b| q(b, QA as f32)).collect(),
            w2: self.w2.iter().map(|&w| q(w, QB as f32)).collect(),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

/// Adam's moment estimates for every weight, in the order w1, b1, w2, b2.
pub struct Trainer {
    pub learning_rate: f32,
    m: Vec<f32>,
    v: Vec<f32>,
    /// The batch's gradient, kept between steps to spare an allocation.
    grad: Vec<f32>,
    steps: i32,
}

impl Trainer {
    pub fn new(learning_rate: f32) -> Trainer {
        let count = INPUTS * HIDDEN + 2 * HIDDEN + 1;
        Trainer {
            learning_rate,
            m: vec![0.0; count],
            v: vec![0.0; count],
            grad: vec![0.0; count],
            steps: 0,
        }
    }

    /// One Adam step on the cross-entropy of `batch`; returns the batch's mean squared
    /// error (the loss the tools report).
    pub fn step(&mut self, net: &mut Network, batch: &[&Example]) -> f32 {
        self.grad.iter_mut().for_each(|g| *g = 0.0);
        let (g_w1, rest) = self.grad.split_at_mut(INPUTS * HIDDEN);
        let (g_b1, rest) = rest.split_at_mut(HIDDEN);
        let (g_w2, g_b2) = rest.split_at_mut(HIDDEN);
        let mut loss = 0.0;
        let scale = 1.0 / batch.len() as f32;
        let mut d_acc = [0.0f32; HIDDEN];
        for example in batch {
            let acc = net.accumulate(&example.features);
            let z: f32 = net.b2
                + acc
                    .iter()
                    .zip(&net.w2)
                    .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                    .sum::<f32>();
            let p = sigmoid(z);
            let error = p - example.target;
            loss += error * error;
            let dz = error * scale;
            g_b2[0] += dz;
            for unit in 0..HIDDEN {
                g_w2[unit] += dz * acc[unit].clamp(0.0, 1.0);
                // The clipped ReLU passes gradient only between its bounds.
                d_acc[unit] = if acc[unit] > 0.0 && acc[unit] < 1.0 {
                    dz * net.w2[unit]
                } else {
                    0.0
                };
                g_b1[unit] += d_acc[unit];
            }
            // Row by row: each active feature's gradient row is one contiguous slice.
            for &f in &example.features {
                let row = &mut g_w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (g, d) in row.iter_mut().zip(&d_acc) {
                    *g += d;
                }
            }
        }
        let grad = std::mem::take(&mut self.grad);
        self.apply(net, &grad);
        self.grad = grad;
        loss * scale
    }

    fn apply(&mut self, net: &mut Network, grad: &[f32]) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps);
        let correction2 = 1.0 - BETA2.powi(self.steps);
        let params = net
            .w1
            .iter_mut()
            .chain(net.b1.iter_mut())
            .chain(net.w2.iter_mut())
            .chain(std::iter::once(&mut net.b2));
        for (i, param) in params.enumerate() {
            let g = grad[i];
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * g;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * g * g;
            let m_hat = self.m[i] / correction1;
            let v_hat = self.v[i] / correction2;
            *param -= self.learning_rate * m_hat / (v_hat.sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mctsbot::search::Game;
    use mctsbot::uttt::nn::active_features;
    use mctsbot::uttt::Board;

    /// The active features of up to `plies` positions along one line of play, whose
    /// `ply`th move is the legal move at `pick(ply) % count`.
    fn features_along_a_line(plies: usize, pick: impl Fn(usize) -> usize) -> Vec<Vec<u16>> {
        let mut board = Board::new();
        let mut moves = Vec::new();
        let mut positions = Vec::new();
        for ply in 0..plies {
            moves.clear();
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut features = Vec::new();
            active_features(&board, &mut features);
            positions.push(features);
            board.play(moves[pick(ply) % moves.len()]);
        }
        positions
    }

    #[test]
    fn training_fits_a_simple_rule() {
        // The target: 0.9 when the mover holds the centre cell of the centre board.
        let examples: Vec<Example> = (0..200)
            .map(|i| {
                let features = vec![(i % 80) as u16, 81 + ((i * 7) % 81) as u16, 189];
                let target = if features[0] == 40 { 0.9 } else { 0.3 };
                Example { features, target }
            })
            .collect();
        let mut net = Network::new(1);
        let mut trainer = Trainer::new(0.01);
        let before = net.loss(&examples);
        for _ in 0..200 {
            let batch: Vec<&Example> = examples.iter().collect();
            trainer.step(&mut net, &batch);
        }
        let after = net.loss(&examples);
        assert!(after < before / 4.0, "{before} -> {after}");
    }

    #[test]
    fn the_bots_integer_inference_agrees_with_the_float_network() {
        let net = Network::new(7);
        let quantized = net.quantize();
        for features in features_along_a_line(40, |ply| ply * 5 + 1) {
            let float = net.predict(&features);
            let integer = quantized.value_from_features(&features);
            // Each weight rounds to 1/255 (first layer) and 1/64 (output): over 128 units
            // and some 40 inputs the logit drifts by a few hundredths at most.
            assert!((float - integer).abs() < 0.02, "{float} vs {integer}");
        }
    }

    #[test]
    fn a_widened_network_values_positions_as_the_narrow_one() {
        // A narrow network of 16 units, written and read back as a file of its width.
        let wide = Network::new(3).quantize();
        let hidden = 16;
        let narrow = QuantizedNet {
            w1: (0..INPUTS)
                .flat_map(|f| wide.w1[f * HIDDEN..f * HIDDEN + hidden].to_vec())
                .collect(),
            b1: wide.b1[..hidden].to_vec(),
            w2: wide.w2[..hidden].to_vec(),
            b2: wide.b2,
        };
        let (width, read) = QuantizedNet::from_bytes_any_width(&narrow.to_bytes()).unwrap();
        assert_eq!((width, &read), (hidden, &narrow));
        assert!(QuantizedNet::from_bytes(&narrow.to_bytes()).is_none());
        let widened = Network::widened_from(&narrow, hidden, 9);
        assert!(widened.w2[hidden..].iter().all(|&w| w == 0.0));
        assert!(widened.w1[hidden..HIDDEN].iter().any(|&w| w != 0.0));
        for features in features_along_a_line(30, |ply| ply * 7 + 3) {
            let sums: f32 = (0..hidden)
                .map(|u| {
                    let acc = features
                        .iter()
                        .fold(f32::from(narrow.b1[u]) / QA as f32, |a, &f| {
                            a + f32::from(narrow.w1[f as usize * hidden + u]) / QA as f32
                        });
                    acc.clamp(0.0, 1.0) * f32::from(narrow.w2[u]) / QB as f32
                })
                .sum();
            let expected = sigmoid(sums + narrow.b2 as f32 / (QA * QB) as f32);
            assert!((widened.predict(&features) - expected).abs() < 1e-5);
        }
    }

    #[test]
    fn the_embedded_weights_come_back_from_their_float_network() {
        let embedded = mctsbot::uttt::nn::embedded(mctsbot::uttt::EndRule::Draw);
        let float = Network::widened_from(embedded, HIDDEN, 0);
        assert_eq!(&float.quantize(), embedded);
        // And it values positions as the bot does, to the output layer's rounding.
        for features in features_along_a_line(30, |ply| ply * 3 + 2) {
            let (f, q) = (
                float.predict(&features),
                embedded.value_from_features(&features),
            );
            assert!((f - q).abs() < 1e-3, "{f} vs {q}");
        }
    }
}
