//! The eight symmetries of UTTT (`mctsbot::uttt::symmetry`) as training uses them: a
//! game's image under σ is a legal game with the same result and every position's value
//! is the same, so each position is free data eight times over, and a test of a network
//! (its values over the eight images should agree).

use mctsbot::uttt::nn::INPUTS;
pub use mctsbot::uttt::symmetry::{move_image, GRID_MAPS};
use mctsbot::uttt::Move;

/// `feature_maps()[s][f]`: the image of network input `f` (`mctsbot::uttt::nn`) under
/// symmetry `s`: marks move with their cell, won boards and the target with their board;
/// "any board" and the end rule stay.
pub fn feature_maps() -> Vec<[u16; INPUTS]> {
    (0..8)
        .map(|s| {
            let map = &GRID_MAPS[s];
            std::array::from_fn(|f| match f {
                0..=161 => ((f / 81) * 81 + move_image(s, Move((f % 81) as u8)).0 as usize) as u16,
                162..=188 => (162 + (f - 162) / 9 * 9 + map[(f - 162) % 9] as usize) as u16,
                191..=208 => (191 + (f - 191) / 9 * 9 + map[(f - 191) % 9] as usize) as u16,
                _ => f as u16,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mctsbot::search::Game;
    use mctsbot::uttt::nn::active_features;
    use mctsbot::uttt::{Board, EndRule};

    #[test]
    fn a_games_image_is_legal_with_the_same_result_and_mapped_features() {
        let maps = feature_maps();
        for seed in 0..30u64 {
            let rule = if seed % 2 == 0 {
                EndRule::Draw
            } else {
                EndRule::MoreBoards
            };
            let mut board = Board::with_end_rule(rule);
            let mut images = [board; 8];
            let mut legal = Vec::new();
            let mut k = seed;
            while board.outcome().is_none() {
                legal.clear();
                board.legal_moves(&mut legal);
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = legal[(k >> 33) as usize % legal.len()];
                board.play(mv);
                let mut features = Vec::new();
                active_features(&board, &mut features);
                for (s, image) in images.iter_mut().enumerate() {
                    assert!(
                        image.is_legal(move_image(s, mv)),
                        "seed {seed} symmetry {s}"
                    );
                    image.play(move_image(s, mv));
                    let mut mapped: Vec<u16> =
                        features.iter().map(|&f| maps[s][f as usize]).collect();
                    mapped.sort_unstable();
                    let mut direct = Vec::new();
                    active_features(image, &mut direct);
                    assert_eq!(mapped, direct, "seed {seed} symmetry {s}");
                }
            }
            for image in &images {
                assert_eq!(image.outcome(), board.outcome());
            }
        }
    }
}
