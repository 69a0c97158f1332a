//! The inputs of a learned UTTT evaluation (the `tune` package's `uttt-selfplay` and
//! `uttt-train` make the data and the network): 190 sparse features of a position, from
//! the view of the player to move.
//!
//! - 0..81: the mover's marks, by cell (`board * 9 + cell`);
//! - 81..162: the opponent's marks;
//! - 162..171: micro boards the mover won; 171..180: the opponent's;
//! - 180..190: the board the mover is sent to (180 + board), or 189 for any open board.
//!
//! Full micro boards without a line need no feature of their own: their marks say it.

use super::board::Board;
use super::Move;
use crate::game::{Outcome, Player};
use crate::search::Game;
use std::sync::OnceLock;

/// The number of input features.
pub const INPUTS: usize = 190;
/// Hidden units of the network.
pub const HIDDEN: usize = 64;
/// The integer scale of the first layer: a hidden unit's clipped ReLU spans 0..QA.
pub const QA: i32 = 255;
/// The integer scale of the output weights.
pub const QB: i32 = 64;
const OPPONENT_MARKS: usize = 81;
const MOVER_WON: usize = 162;
const OPPONENT_WON: usize = 171;
const TARGET: usize = 180;
const ANY_TARGET: usize = 189;

/// Appends the indices of `board`'s active features, from the view of the player to move,
/// in increasing order.
pub fn active_features(board: &Board, out: &mut Vec<u16>) {
    features_for(board, board.turn(), &mut |f| out.push(f));
}

/// The embedded network's value (0..1) of `board` for the player to move, its first layer
/// summed from scratch (for a position seen once, as a new node's prior).
pub fn value_of(board: &Board) -> f32 {
    let net = embedded();
    let mut acc = Accumulator([0; HIDDEN]);
    acc.0.copy_from_slice(&net.b1);
    features_for(board, board.turn(), &mut |f| acc.add(net, f));
    net.value(&acc)
}

/// The target feature: the board the player to move is sent to, or any.
fn target_feature(board: &Board) -> u16 {
    match board.target() {
        Some(micro) => (TARGET + micro as usize) as u16,
        None => ANY_TARGET as u16,
    }
}

/// [`active_features`] as `viewer` sees the position (the target feature is the same for
/// both viewers: where the player to move is sent).
fn features_for(board: &Board, viewer: Player, out: &mut impl FnMut(u16)) {
    let mover = viewer as usize;
    for (offset, player) in [(0, mover), (OPPONENT_MARKS, 1 - mover)] {
        for (micro, &marks) in board.marks[player].iter().enumerate() {
            let mut bits = marks;
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out((offset + Move::from_board_cell(micro as u8, cell as u8).0 as usize) as u16);
            }
        }
    }
    for (offset, player) in [(MOVER_WON, mover), (OPPONENT_WON, 1 - mover)] {
        let mut won = board.won[player];
        while won != 0 {
            out((offset + won.trailing_zeros() as usize) as u16);
            won &= won - 1;
        }
    }
    out(target_feature(board));
}

/// The trained weights the bot embeds (`uttt-train` writes them; `tune/README.md`).
static WEIGHTS: &[u8] = include_bytes!("nn_weights.bin");

/// The embedded network, read once.
pub fn embedded() -> &'static QuantizedNet {
    static NET: OnceLock<QuantizedNet> = OnceLock::new();
    NET.get_or_init(|| {
        QuantizedNet::from_bytes(WEIGHTS).expect("src/uttt/nn_weights.bin is a weights file")
    })
}

/// A position with both players' first-layer sums of the embedded network, updated move
/// by move (features added and removed, never recomputed), for the network-valued search.
///
/// The sums are kept here, not in the evaluator, because they are the position's own
/// state in another form: a function of the marks, wins and target alone, changed by
/// every move (a few feature rows added or removed per move, where a leaf's evaluator
/// would rebuild them from some 40 rows), and only `play` sees each move. The network's
/// output layer, which turns them into a value, is the evaluator's
/// ([`super::NetworkValue`]); the position holds no reference to a network.
#[derive(Clone, Copy, Debug)]
pub struct NnBoard {
    board: Board,
    /// `acc[p]`: the sums of the features as player `p` sees the position.
    acc: [Accumulator; 2],
}

impl PartialEq for NnBoard {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

impl NnBoard {
    /// `board` with its first-layer sums of the [`embedded`] network.
    pub fn new(board: Board) -> NnBoard {
        let net = embedded();
        let mut features = Vec::with_capacity(64);
        let acc = [0, 1].map(|viewer| {
            features.clear();
            features_for(&board, viewer, &mut |f| features.push(f));
            net.accumulate(&features)
        });
        NnBoard { board, acc }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The first-layer sums as the player to move sees the position (what the network's
    /// output layer values).
    #[inline]
    pub fn accumulator(&self) -> &Accumulator {
        &self.acc[self.board.turn() as usize]
    }
}

impl Game for NnBoard {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.board.turn()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.board.legal_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let mover = self.board.turn() as usize;
        let (old_target, won_before) = (target_feature(&self.board), self.board.won[mover]);
        self.board.play_move(mv);
        let net = embedded();
        let [mine, theirs] = if mover == 0 {
            let [a, b] = &mut self.acc;
            [a, b]
        } else {
            let [a, b] = &mut self.acc;
            [b, a]
        };
        mine.add(net, mv.0 as u16);
        theirs.add(net, (OPPONENT_MARKS + mv.0 as usize) as u16);
        if self.board.won[mover] != won_before {
            let micro = mv.board() as usize;
            mine.add(net, (MOVER_WON + micro) as u16);
            theirs.add(net, (OPPONENT_WON + micro) as u16);
        }
        let new_target = target_feature(&self.board);
        if new_target != old_target {
            for acc in [mine, theirs] {
                acc.remove(net, old_target);
                acc.add(net, new_target);
            }
        }
    }

    #[inline]
    fn amaf_slot(mv: Move) -> u32 {
        mv.0 as u32
    }
}

/// The network in the bot's integers (see `tune/src/net.rs` for how it is trained):
/// `w1[feature * HIDDEN + unit]` and `b1` scaled by [`QA`], `w2` by [`QB`], `b2` by both.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedNet {
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    pub w2: Vec<i16>,
    pub b2: i32,
}

/// The first bytes of a weights file.
const MAGIC: &[u8; 8] = b"UTTTNN1\0";

impl QuantizedNet {
    /// The weights file: [`MAGIC`], the input and hidden counts (u32), then `w1`, `b1`,
    /// `w2` (i16) and `b2` (i32), all little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((INPUTS as u32).to_le_bytes());
        bytes.extend((HIDDEN as u32).to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            bytes.extend(w.to_le_bytes());
        }
        bytes.extend(self.b2.to_le_bytes());
        bytes
    }

    /// Reads a weights file; `None` if it is not one for these inputs and hidden units.
    pub fn from_bytes(bytes: &[u8]) -> Option<QuantizedNet> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?))
        };
        if word(0)? as usize != INPUTS || word(4)? as usize != HIDDEN {
            return None;
        }
        let shorts = rest.get(8..rest.len().checked_sub(4)?)?;
        let values: Vec<i16> = shorts
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        if values.len() != INPUTS * HIDDEN + 2 * HIDDEN {
            return None;
        }
        let b2 = i32::from_le_bytes(rest[rest.len() - 4..].try_into().ok()?);
        Some(QuantizedNet {
            w1: values[..INPUTS * HIDDEN].to_vec(),
            b1: values[INPUTS * HIDDEN..INPUTS * HIDDEN + HIDDEN].to_vec(),
            w2: values[INPUTS * HIDDEN + HIDDEN..].to_vec(),
            b2,
        })
    }

    /// The first-layer sums of `features`, computed from scratch.
    pub fn accumulate(&self, features: &[u16]) -> Accumulator {
        let mut acc = Accumulator([0; HIDDEN]);
        acc.0.copy_from_slice(&self.b1);
        for &f in features {
            acc.add(self, f);
        }
        acc
    }

    /// The value (0..1) for the player to move of the position whose first-layer sums are
    /// `acc`: clipped ReLU, output layer in `i32`, logistic function.
    #[inline]
    pub fn value(&self, acc: &Accumulator) -> f32 {
        let z = output_sum(&acc.0, &self.w2, self.b2) as f32 / (QA * QB) as f32;
        1.0 / (1.0 + (-z).exp())
    }

    /// The value of a position given by its active features.
    pub fn value_from_features(&self, features: &[u16]) -> f32 {
        self.value(&self.accumulate(features))
    }
}

/// The output layer in integers: `b2 + Σ clamp(acc, 0, QA) · w2`. On x86-64 CPUs with
/// AVX2 (detected at run time) the same loop runs compiled for AVX2, 16 units an
/// instruction; elsewhere the portable loop (SSE2 on the baseline target). Both give
/// the same integer: the sum fits an `i32` (255 · 32767 · 64 units at most).
#[inline]
fn output_sum(acc: &[i16; HIDDEN], w2: &[i16], b2: i32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { output_sum_avx2(acc, w2, b2) };
    }
    output_sum_portable(acc, w2, b2)
}

#[inline(always)]
fn output_sum_portable(acc: &[i16; HIDDEN], w2: &[i16], b2: i32) -> i32 {
    acc.iter()
        .zip(w2)
        .map(|(&a, &w)| i32::from(a).clamp(0, QA) * i32::from(w))
        .sum::<i32>()
        + b2
}

/// [`output_sum_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2(acc: &[i16; HIDDEN], w2: &[i16], b2: i32) -> i32 {
    output_sum_portable(acc, w2, b2)
}

/// The first layer's sums for one player's view, kept up to date move by move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Accumulator {
    /// Adds feature `f`'s weights (the compiler vectorises the loop).
    #[inline(always)]
    pub fn add(&mut self, net: &QuantizedNet, f: u16) {
        let row = &net.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
        for (a, &w) in self.0.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }

    /// Removes feature `f`'s weights.
    #[inline(always)]
    pub fn remove(&mut self, net: &QuantizedNet, f: u16) {
        let row = &net.w1[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
        for (a, &w) in self.0.iter_mut().zip(row) {
            *a = a.wrapping_sub(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::FastRng;
    use rand::SeedableRng;

    #[test]
    fn the_accumulators_kept_move_by_move_equal_those_computed_from_scratch() {
        let net = embedded();
        let mut rng = FastRng::seed_from_u64(5);
        let mut moves = Vec::new();
        for _ in 0..50 {
            let mut kept = NnBoard::new(Board::new());
            while kept.outcome().is_none() {
                moves.clear();
                kept.legal_moves(&mut moves);
                kept.play(
                    moves[crate::search::random_below(&mut rng, moves.len() as u32) as usize],
                );
                let fresh = NnBoard::new(kept.board);
                assert_eq!(kept.acc, fresh.acc, "\n{}", kept.board.render());
                let mut features = Vec::new();
                active_features(&kept.board, &mut features);
                assert_eq!(
                    net.value(kept.accumulator()),
                    net.value_from_features(&features)
                );
            }
        }
    }

    #[test]
    fn the_simd_and_portable_output_layers_agree() {
        let net = embedded();
        let mut rng = FastRng::seed_from_u64(8);
        for _ in 0..2000 {
            let mut acc = [0i16; HIDDEN];
            for a in &mut acc {
                *a = (crate::search::random_below(&mut rng, 1200) as i16) - 400;
            }
            assert_eq!(
                output_sum(&acc, &net.w2, net.b2),
                output_sum_portable(&acc, &net.w2, net.b2)
            );
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let acc = [300i16; HIDDEN];
            // SAFETY: AVX2 is present.
            let simd = unsafe { output_sum_avx2(&acc, &net.w2, net.b2) };
            assert_eq!(simd, output_sum_portable(&acc, &net.w2, net.b2));
        }
    }

    #[test]
    fn the_embedded_weights_read_back_as_they_were_written() {
        let net = embedded();
        assert_eq!(
            QuantizedNet::from_bytes(&net.to_bytes()).as_ref(),
            Some(net)
        );
        assert!(QuantizedNet::from_bytes(&net.to_bytes()[..100]).is_none());
    }

    #[test]
    fn features_name_the_marks_wins_and_target_from_the_movers_view() {
        let mut board = Board::new();
        let mut features = Vec::new();
        active_features(&board, &mut features);
        assert_eq!(features, [ANY_TARGET as u16], "the empty board: any board");
        board.play(Move::from_board_cell(4, 0)); // X in the middle board, O sent to board 0
        features.clear();
        active_features(&board, &mut features);
        // O to move: X's mark is the opponent's.
        assert_eq!(features, [(OPPONENT_MARKS + 36) as u16, TARGET as u16]);
        board.play(Move::from_board_cell(0, 8)); // O, X sent to board 8
        features.clear();
        active_features(&board, &mut features);
        assert_eq!(
            features,
            [36, (OPPONENT_MARKS + 8) as u16, (TARGET + 8) as u16]
        );
        assert!(features.iter().all(|&f| (f as usize) < INPUTS));
    }
}
