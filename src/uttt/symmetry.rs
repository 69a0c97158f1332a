//! The eight symmetries of UTTT: a rotation or reflection of the 3×3 grid applied at once
//! to the macro board and to every micro board. A move (board, cell) becomes
//! (σ board, σ cell) and still sends the opponent to the board of its cell, so a game's
//! image under σ is a legal game with the same result. Training uses them as free data
//! (`tune`); CodinGame's player can play a whole game through one (`--random-symmetry`),
//! the same play seen from another side, which a deterministic opponent answers with
//! other lines.

use super::Move;

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

/// The symmetry that undoes `s` (the quarter turns undo each other; every other one
/// undoes itself).
pub fn inverse(s: usize) -> usize {
    (0..8)
        .find(|&t| (0..9).all(|i| GRID_MAPS[t][GRID_MAPS[s][i] as usize] as usize == i))
        .expect("the eight maps are a group")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Game;
    use crate::uttt::{Board, EndRule};

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
    fn the_inverse_undoes_every_move_image() {
        assert_eq!(inverse(1), 3);
        assert_eq!(inverse(3), 1);
        for s in 0..8 {
            for m in 0..81 {
                assert_eq!(move_image(inverse(s), move_image(s, Move(m))), Move(m));
            }
        }
    }

    #[test]
    fn a_games_image_is_legal_with_the_same_result() {
        for seed in 0..30u64 {
            let mut board = Board::with_end_rule(if seed % 2 == 0 {
                EndRule::Draw
            } else {
                EndRule::MoreBoards
            });
            let mut images = [board; 8];
            let (mut legal, mut image_legal) = (Vec::new(), Vec::new());
            let mut k = seed;
            while board.outcome().is_none() {
                legal.clear();
                board.legal_moves(&mut legal);
                for (s, image) in images.iter().enumerate() {
                    image_legal.clear();
                    image.legal_moves(&mut image_legal);
                    let mut mapped: Vec<Move> = legal.iter().map(|&m| move_image(s, m)).collect();
                    mapped.sort_by_key(|m| m.0);
                    assert_eq!(mapped, image_legal, "seed {seed} symmetry {s}");
                }
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = legal[(k >> 33) as usize % legal.len()];
                board.play(mv);
                for (s, image) in images.iter_mut().enumerate() {
                    image.play(move_image(s, mv));
                }
            }
            for image in &images {
                assert_eq!(image.outcome(), board.outcome());
            }
        }
    }
}
