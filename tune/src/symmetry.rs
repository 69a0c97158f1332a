//! The eight symmetries of UTTT: a rotation or reflection of the 3×3 grid applied at once
//! to the macro board and to every micro board. A move (board, cell) becomes
//! (σ board, σ cell) and still sends the opponent to the board of its cell, so a game's
//! image under σ is a legal game with the same result, and every position's value is
//! the same: free data for training, and a test of a network (its values over the eight
//! images should agree).

use mctsbot::uttt::nn::INPUTS;
use mctsbot::uttt::Move;

/// `GRID_MAPS[s][i]`: where symmetry `s` sends square `i` (`row * 3 + column`) of a 3×3
/// grid: the identity, the three rotations, and the four reflections.
pub const GRID_MAPS: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8], // identity
    [2, 5, 8, 1, 4, 7, 0, 3, 6], // a quarter turn
    [8, 7, 6, 5, 4, 3, 2, 1, 0], // a half turn
    [6, 3, 0, 7, 4, 1, 8, 5, 2], // three quarters
    [2, 1, 0, 5, 4, 3, 8, 7, 6], // left-right mirror
    [6, 7, 8, 3, 4, 5, 0, 1, 2], // top-bottom mirror
    [0, 3, 6, 1, 4, 7, 2, 5, 8], // main diagonal
    [8, 5, 2, 7, 4, 1, 6, 3, 0], // anti-diagonal
];

/// The image of `mv` under symmetry `s`.
pub fn move_image(s: usize, mv: Move) -> Move {
    let map = &GRID_MAPS[s];
    Move(map[mv.board() as usize] * 9 + map[mv.cell() as usize])
}

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
    fn the_grid_maps_are_the_eight_distinct_symmetries_of_the_square() {
        for (s, map) in GRID_MAPS.iter().enumerate() {
            let mut seen = [false; 9];
            map.iter().for_each(|&i| seen[i as usize] = true);
            assert!(seen.iter().all(|&x| x), "{s} is a permutation");
            assert_eq!(map[4], 4, "{s} keeps the centre");
            // Lines of three stay lines of three.
            for line in [[0, 1, 2], [0, 4, 8], [2, 4, 6], [1, 4, 7], [3, 4, 5]] {
                let image: u16 = line.iter().map(|&i| 1 << map[i]).sum();
                let lines = [7, 56, 448, 73, 146, 292, 273, 84];
                assert!(lines.contains(&image), "{s}: {line:?}");
            }
        }
        for (a, map) in GRID_MAPS.iter().enumerate() {
            assert!(
                !GRID_MAPS[..a].contains(map),
                "{a} repeats an earlier symmetry"
            );
        }
    }

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
