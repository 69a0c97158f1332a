//! The inputs of a learned UTTT evaluation (the `tune` package's `uttt-selfplay` and
//! `uttt-train` make the data and the network): 209 sparse features of a position, from
//! the view of the player to move.
//!
//! - 0..81: the mover's marks, by cell (`board * 9 + cell`);
//! - 81..162: the opponent's marks;
//! - 162..171: micro boards the mover won; 171..180: the opponent's; a drawn micro board
//!   (full, no line) counts as won by both, as it is for the lines of boards: nobody can
//!   use it;
//! - 180..190: the board the mover is sent to (180 + board), or 189 for any open board;
//! - 190: CodinGame's end rule (a lineless game goes to the player with more boards);
//! - 191..200: open micro boards where the mover has a cell that wins the board (a
//!   threat); 200..209: the opponent's. A threat is an AND of two marks and an empty
//!   cell, which one hidden layer learns only from much data.

use super::board::{Board, EndRule};
use super::Move;
use crate::game::Player;
use std::sync::OnceLock;

/// The number of input features.
pub const INPUTS: usize = 209;
/// Hidden units of the network.
pub const HIDDEN: usize = 128;
/// The integer scale of the first layer: a hidden unit's clipped ReLU spans 0..QA.
pub const QA: i32 = 255;
/// The integer scale of the output weights.
pub const QB: i32 = 64;
const OPPONENT_MARKS: usize = 81;
const MOVER_WON: usize = 162;
const OPPONENT_WON: usize = 171;
const TARGET: usize = 180;
const ANY_TARGET: usize = 189;
const MORE_BOARDS_RULE: usize = 190;
const MOVER_THREATS: usize = 191;
const OPPONENT_THREATS: usize = 200;

/// Appends the indices of `board`'s active features, from the view of the player to move,
/// in increasing order.
pub fn active_features(board: &Board, out: &mut Vec<u16>) {
    features_for(board, board.turn(), &mut |f| out.push(f));
}

/// The embedded network's value (0..1) of `board` for the player to move, its first layer
/// summed from scratch (for a position seen once, as a new node's prior).
pub fn value_of(board: &Board) -> f32 {
    let net = embedded(board.end_rule);
    net.value(&accumulator_for(net, board, board.turn()))
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
        let mut won = board.won[player] | board.drawn;
        while won != 0 {
            out((offset + won.trailing_zeros() as usize) as u16);
            won &= won - 1;
        }
    }
    out(target_feature(board));
    if board.end_rule == EndRule::MoreBoards {
        out(MORE_BOARDS_RULE as u16);
    }
    for (offset, player) in [(MOVER_THREATS, mover), (OPPONENT_THREATS, 1 - mover)] {
        let mut threats = threat_boards(board, player);
        while threats != 0 {
            out((offset + threats.trailing_zeros() as usize) as u16);
            threats &= threats - 1;
        }
    }
}

/// Whether `player` has a threat in micro board `micro`: it is open and one empty cell
/// there completes a line of `player`'s marks.
#[inline]
fn has_threat(board: &Board, player: usize, micro: usize) -> bool {
    board.open_boards() >> micro & 1 == 1 && board.can_win_board(player, micro)
}

/// The open micro boards where `player` has a threat ([`has_threat`]), as a mask.
fn threat_boards(board: &Board, player: usize) -> u16 {
    (0..9)
        .filter(|&micro| has_threat(board, player, micro))
        .fold(0, |mask, micro| mask | 1 << micro)
}

/// The trained weights the bot embeds for each end rule, as weights files (`uttt-train`
/// writes them; `tune/README.md`): CodinGame's network, where a lineless game goes to the
/// player with more boards, fine-tuned on generation 5's games (docs/uttt.md, "The
/// generations so far"), and the engines' (TheAIGames, riddles.io), where it is drawn.
/// The one-file CodinGame build replaces each `include_bytes!` with [`unpack_weights`] of
/// the file packed into text ([`pack_weights`]).
fn weights_file(rule: EndRule) -> Vec<u8> {
    match rule {
        EndRule::MoreBoards => include_bytes!("nn_weights_codingame.bin").to_vec(),
        EndRule::Draw => include_bytes!("nn_weights.bin").to_vec(),
    }
}

/// The embedded network of positions under `rule`, read once.
pub fn embedded(rule: EndRule) -> &'static QuantizedNet {
    static NETS: [OnceLock<QuantizedNet>; 2] = [OnceLock::new(), OnceLock::new()];
    NETS[rule as usize].get_or_init(|| {
        QuantizedNet::from_bytes(&weights_file(rule))
            .expect("the embedded network is a weights file")
    })
}

/// The first character of [`pack_weights`]' text: CJK ideographs from U+4E00 on carry
/// 14 bits each, characters that no Unicode normalisation changes and that need no
/// escaping in a Rust string literal.
const PACKED_BASE: u32 = 0x4E00;
/// The bits a packed character carries.
const PACKED_BITS: u32 = 14;
/// Rice coding's parameter: a word's zigzag value `z` goes as `z >> RICE_BITS` in unary
/// (that many ones, then a zero) and its low `RICE_BITS` bits.
const RICE_BITS: u32 = 6;
/// A unary part this long is an escape: the zigzag value's 16 bits follow instead.
const RICE_ESCAPE: u32 = 15;

/// A weights file as text for the one-file CodinGame build, which may hold 100,000
/// characters and no other file: the file's 16-bit little-endian words (its weights;
/// the header as words too) Rice-coded, then 14 bits to a character. The weights are
/// small integers (88% within ±63): about 7.7 bits a word, near their entropy (7.4),
/// where a byte a word with escapes took 8.7 — 14,900 characters for the 128-unit
/// network with 209 inputs, which a byte a word would have put over CodinGame's limit.
/// A weights file has an even length.
pub fn pack_weights(file: &[u8]) -> String {
    let mut bits: Vec<bool> = Vec::with_capacity(file.len() * 4);
    let mut push =
        |value: u32, count: u32| bits.extend((0..count).rev().map(|k| value >> k & 1 == 1));
    for pair in file.chunks_exact(2) {
        let word = i16::from_le_bytes([pair[0], pair[1]]);
        let zigzag = ((word << 1) ^ (word >> 15)) as u16 as u32;
        let high = zigzag >> RICE_BITS;
        if high < RICE_ESCAPE {
            push(((1 << high) - 1) << 1, high + 1);
            push(zigzag, RICE_BITS);
        } else {
            push((1 << RICE_ESCAPE) - 1, RICE_ESCAPE);
            push(zigzag, 16);
        }
    }
    // The last character's spare bits are ones: an unfinished unary part, which the
    // unpacking drops.
    let spare = bits.len().next_multiple_of(PACKED_BITS as usize) - bits.len();
    bits.extend((0..spare).map(|_| true));
    bits.chunks(PACKED_BITS as usize)
        .map(|chunk| {
            let value = chunk.iter().enumerate().fold(0, |v, (k, &bit)| {
                v | (bit as u32) << (PACKED_BITS as usize - 1 - k)
            });
            char::from_u32(PACKED_BASE + value).expect("a CJK ideograph")
        })
        .collect()
}

/// The weights file [`pack_weights`] packed into `text`.
pub fn unpack_weights(text: &str) -> Vec<u8> {
    let mut bits = text.chars().flat_map(|c| {
        let value = c as u32 - PACKED_BASE;
        (0..PACKED_BITS).rev().map(move |k| value >> k & 1)
    });
    let mut read =
        |count: u32| -> Option<u32> { (0..count).try_fold(0, |v, _| Some(v << 1 | bits.next()?)) };
    let mut file = Vec::new();
    loop {
        let mut high = 0;
        while high < RICE_ESCAPE {
            match read(1) {
                Some(1) => high += 1,
                Some(_) => break,
                None => return file,
            }
        }
        let zigzag = if high == RICE_ESCAPE {
            read(16)
        } else {
            read(RICE_BITS).map(|low| high << RICE_BITS | low)
        };
        let Some(zigzag) = zigzag else {
            return file;
        };
        let word = (zigzag >> 1) as u16 as i16 ^ -((zigzag & 1) as i16);
        file.extend(word.to_le_bytes());
    }
}

/// The first-layer sums of `board` as `viewer` sees it, from scratch.
pub fn accumulator_for(net: &QuantizedNet, board: &Board, viewer: Player) -> Accumulator {
    // At most 81 marks, 18 boards (a drawn one counts for both), the target, the rule and
    // 18 threats.
    let mut features = [0u16; 122];
    let mut count = 0;
    features_for(board, viewer, &mut |f| {
        features[count] = f;
        count += 1;
    });
    net.accumulate(&features[..count])
}

/// The first-layer sums of `child`, one move after `parent`, as its player to move sees
/// it, from `parent_sums` (the parent's as that same player sees it): a few rows added or
/// removed (the move's mark, a small board it closed, the target), where computing them
/// afresh adds some forty. This is how a node's children are all valued at once.
pub fn child_accumulator(
    net: &QuantizedNet,
    parent: &Board,
    parent_sums: &Accumulator,
    child: &Board,
) -> Accumulator {
    let mover = parent.turn() as usize;
    let mut acc = *parent_sums;
    let micro = (0..9)
        .find(|&b| parent.marks[mover][b] != child.marks[mover][b])
        .expect("the child is one move after the parent");
    let cell = (parent.marks[mover][micro] ^ child.marks[mover][micro]).trailing_zeros() as usize;
    // The viewer is the mover's opponent: the new mark and a won board are the opponent's.
    acc.add(net, (OPPONENT_MARKS + micro * 9 + cell) as u16);
    if child.won[mover] >> micro & 1 == 1 {
        acc.add(net, (OPPONENT_WON + micro) as u16);
    } else if child.drawn >> micro & 1 == 1 {
        acc.add(net, (MOVER_WON + micro) as u16);
        acc.add(net, (OPPONENT_WON + micro) as u16);
    }
    // Only the played board's threats change (its marks, or it closed).
    let viewer = 1 - mover;
    for (offset, player) in [(MOVER_THREATS, viewer), (OPPONENT_THREATS, mover)] {
        let feature = (offset + micro) as u16;
        match (
            has_threat(parent, player, micro),
            has_threat(child, player, micro),
        ) {
            (false, true) => acc.add(net, feature),
            (true, false) => acc.remove(net, feature),
            _ => {}
        }
    }
    let (old_target, new_target) = (target_feature(parent), target_feature(child));
    if old_target != new_target {
        acc.remove(net, old_target);
        acc.add(net, new_target);
    }
    acc
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
    /// The weights file: [`MAGIC`], the input and hidden counts (u32; the hidden count is
    /// `b1`'s length), then `w1`, `b1`,
    /// `w2` (i16) and `b2` (i32), all little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((INPUTS as u32).to_le_bytes());
        bytes.extend((self.b1.len() as u32).to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            bytes.extend(w.to_le_bytes());
        }
        bytes.extend(self.b2.to_le_bytes());
        bytes
    }

    /// Reads a weights file; `None` if it is not one for these inputs and hidden units.
    pub fn from_bytes(bytes: &[u8]) -> Option<QuantizedNet> {
        Self::from_bytes_any_width(bytes)
            .and_then(|(hidden, net)| (hidden == HIDDEN).then_some(net))
    }

    /// Reads a weights file for these inputs whatever its hidden units: their number and
    /// the network (`w1` then has that many units a row). For the tools, which widen a
    /// network into one with more units; the bot reads only its own width.
    pub fn from_bytes_any_width(bytes: &[u8]) -> Option<(usize, QuantizedNet)> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?))
        };
        let hidden = word(4)? as usize;
        if word(0)? as usize != INPUTS || hidden == 0 {
            return None;
        }
        let shorts = rest.get(8..rest.len().checked_sub(4)?)?;
        let values: Vec<i16> = shorts
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        if values.len() != INPUTS * hidden + 2 * hidden {
            return None;
        }
        let b2 = i32::from_le_bytes(rest[rest.len() - 4..].try_into().ok()?);
        let net = QuantizedNet {
            w1: values[..INPUTS * hidden].to_vec(),
            b1: values[INPUTS * hidden..INPUTS * hidden + hidden].to_vec(),
            w2: values[INPUTS * hidden + hidden..].to_vec(),
            b2,
        };
        Some((hidden, net))
    }

    /// The first-layer sums of `features`, computed from scratch. On x86-64 CPUs with
    /// AVX2 (detected at run time) the loop runs compiled for AVX2, 16 units an
    /// instruction where the baseline target has 8 (the same integers either way): a
    /// leaf's sums from scratch were a sixth of the blend search's time.
    pub fn accumulate(&self, features: &[u16]) -> Accumulator {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { accumulate_avx2(self, features) };
        }
        accumulate_portable(self, features)
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

#[inline(always)]
fn accumulate_portable(net: &QuantizedNet, features: &[u16]) -> Accumulator {
    let mut acc = Accumulator([0; HIDDEN]);
    acc.0.copy_from_slice(&net.b1);
    for &f in features {
        acc.add(net, f);
    }
    acc
}

/// [`accumulate_portable`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn accumulate_avx2(net: &QuantizedNet, features: &[u16]) -> Accumulator {
    accumulate_portable(net, features)
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
    fn the_sums_from_scratch_are_the_portable_loops_on_any_cpu() {
        let net = embedded(EndRule::Draw);
        let mut rng = FastRng::seed_from_u64(9);
        for _ in 0..200 {
            let count = crate::search::random_below(&mut rng, 100) as usize;
            let features: Vec<u16> = (0..count)
                .map(|_| crate::search::random_below(&mut rng, INPUTS as u32) as u16)
                .collect();
            assert_eq!(
                net.accumulate(&features),
                accumulate_portable(net, &features)
            );
        }
    }

    #[test]
    fn packed_weights_unpack_to_the_embedded_files_in_cjk_ideographs() {
        for rule in [EndRule::Draw, EndRule::MoreBoards] {
            packed_weights_unpack_to(rule);
        }
    }

    fn packed_weights_unpack_to(rule: EndRule) {
        let file = weights_file(rule);
        let text = pack_weights(&file);
        assert!(text.chars().all(|c| ('\u{4E00}'..='\u{8DFF}').contains(&c)));
        // About 7.7 bits a word: fewer characters than even a byte a word with no
        // escapes would need (4 bits a file byte, 14 to a character).
        assert!(
            text.chars().count() * 14 < file.len() * 4,
            "{} characters for {} bytes",
            text.chars().count(),
            file.len()
        );
        assert_eq!(unpack_weights(&text), file);
        assert_eq!(
            QuantizedNet::from_bytes(&unpack_weights(&text)).as_ref(),
            Some(embedded(rule))
        );
    }

    #[test]
    fn packing_keeps_random_words_of_every_size() {
        let mut rng = FastRng::seed_from_u64(12);
        for spread in [1u32, 64, 300, 5000, 65536] {
            let words: Vec<i16> = (0..999)
                .map(|_| {
                    (crate::search::random_below(&mut rng, spread) as i32 - spread as i32 / 2)
                        as i16
                })
                .collect();
            let file: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(
                unpack_weights(&pack_weights(&file)),
                file,
                "spread {spread}"
            );
        }
    }

    #[test]
    fn packing_keeps_every_word_whatever_the_length() {
        let words: [i16; 8] = [0, 1, -1, 127, -127, -128, 128, i16::MIN];
        for len in 0..=words.len() {
            let file: Vec<u8> = words[..len].iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(unpack_weights(&pack_weights(&file)), file, "{len} words");
        }
        let spares: Vec<u8> = (0..40u8).flat_map(|k| [k, 0]).collect();
        for len in (0..spares.len()).step_by(2) {
            assert_eq!(
                unpack_weights(&pack_weights(&spares[..len])),
                &spares[..len]
            );
        }
    }

    #[test]
    fn a_childs_sums_from_its_parents_equal_those_computed_from_scratch() {
        use crate::search::Game;
        let mut rng = FastRng::seed_from_u64(5);
        let mut moves = Vec::new();
        for game in 0..50 {
            // Both end rules: CodinGame's has an input of its own.
            let rule = [EndRule::Draw, EndRule::MoreBoards][game % 2];
            let net = embedded(rule);
            let mut board = Board::with_end_rule(rule);
            while board.outcome().is_none() {
                moves.clear();
                board.legal_moves(&mut moves);
                let viewer = 1 - board.turn();
                let parent_sums = accumulator_for(net, &board, viewer);
                for &mv in &moves {
                    let mut child = board;
                    child.play(mv);
                    assert_eq!(
                        child_accumulator(net, &board, &parent_sums, &child),
                        accumulator_for(net, &child, viewer),
                        "{mv:?} after\n{}",
                        board.render()
                    );
                }
                board.play(
                    moves[crate::search::random_below(&mut rng, moves.len() as u32) as usize],
                );
                let mut features = Vec::new();
                active_features(&board, &mut features);
                assert_eq!(
                    net.value(&accumulator_for(net, &board, board.turn())),
                    net.value_from_features(&features)
                );
            }
        }
    }

    #[test]
    fn the_simd_and_portable_output_layers_agree() {
        let net = embedded(EndRule::Draw);
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
        for rule in [EndRule::Draw, EndRule::MoreBoards] {
            let net = embedded(rule);
            assert_eq!(
                QuantizedNet::from_bytes(&net.to_bytes()).as_ref(),
                Some(net)
            );
            assert!(QuantizedNet::from_bytes(&net.to_bytes()[..100]).is_none());
        }
        // Each rule has its own network.
        assert_ne!(embedded(EndRule::Draw), embedded(EndRule::MoreBoards));
    }

    #[test]
    fn features_name_the_marks_wins_and_target_from_the_movers_view() {
        use crate::search::Game;
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
        features.clear();
        active_features(&board.under(EndRule::MoreBoards), &mut features);
        assert_eq!(features.last(), Some(&(MORE_BOARDS_RULE as u16)));
    }

    #[test]
    fn a_threat_is_two_marks_of_a_line_with_the_third_cell_empty_in_an_open_board() {
        use crate::search::Game;
        let mut board = Board::new();
        // X at cells 0 and 1 of board 4, O answering in boards 0 and 1: X threatens 4.
        for (micro, cell) in [(4, 0), (0, 4), (4, 1), (1, 4)] {
            board.play(Move::from_board_cell(micro, cell));
        }
        let mut features = Vec::new();
        active_features(&board, &mut features);
        assert!(
            features.contains(&((MOVER_THREATS + 4) as u16)),
            "{features:?}"
        );
        assert!(!features.iter().any(|&f| f as usize >= OPPONENT_THREATS));
        // An O mark in cell 2 of board 4 blocks the line.
        let mut blocked = board;
        blocked.marks[1][4] |= 1 << 2;
        features.clear();
        active_features(&blocked, &mut features);
        assert!(!features.iter().any(|&f| f as usize >= MOVER_THREATS));
        // A won board holds no threat.
        let mut won = board;
        won.marks[0][4] |= 1 << 2;
        won.won[0] |= 1 << 4;
        features.clear();
        active_features(&won, &mut features);
        assert!(!features.iter().any(|&f| f as usize >= MOVER_THREATS));
    }

    #[test]
    fn a_drawn_small_board_counts_as_won_by_both() {
        // Board 0 filled without a line: X O X / X O O / O X X.
        let mut board = Board::new();
        let cells_x = [0, 2, 3, 7, 8];
        let cells_o = [1, 4, 5, 6];
        for i in 0..9 {
            let (x, o) = (cells_x.get(i), cells_o.get(i));
            if let Some(&c) = x {
                board.marks[0][0] |= 1 << c;
            }
            if let Some(&c) = o {
                board.marks[1][0] |= 1 << c;
            }
        }
        board.drawn = 1;
        let mut features = Vec::new();
        active_features(&board, &mut features);
        assert!(features.contains(&(MOVER_WON as u16)));
        assert!(features.contains(&(OPPONENT_WON as u16)));
        assert_eq!(
            features
                .iter()
                .filter(|&&f| f as usize >= MOVER_WON && (f as usize) < TARGET)
                .count(),
            2
        );
    }
}
