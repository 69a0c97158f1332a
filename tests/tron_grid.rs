//! The bitboard against a naive `Vec<bool>` model, at many widths and on the edges.

use mctsbot::tron::{Bitboard, Grid};
use proptest::prelude::*;

/// The naive model: one bool per cell, row-major.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    w: usize,
    h: usize,
    cells: Vec<bool>,
}

impl Model {
    fn get(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.w
            && (y as usize) < self.h
            && self.cells[y as usize * self.w + x as usize]
    }

    /// Every cell moved by (dx, dy), cells leaving the board dropped.
    fn shifted(&self, dx: i32, dy: i32) -> Model {
        let mut out = self.clone();
        for y in 0..self.h as i32 {
            for x in 0..self.w as i32 {
                out.cells[(y * self.w as i32 + x) as usize] = self.get(x - dx, y - dy);
            }
        }
        out
    }

    fn to_bitboard(&self) -> Bitboard {
        let mut b = Bitboard::empty(Grid::new(self.w, self.h).unwrap());
        for y in 0..self.h {
            for x in 0..self.w {
                b.set(x, y, self.cells[y * self.w + x]);
            }
        }
        b
    }

    fn from_bitboard(b: &Bitboard) -> Model {
        let g = b.grid();
        let mut cells = vec![false; g.cells()];
        for (x, y) in b.cells() {
            cells[y * g.width() + x] = true;
        }
        Model {
            w: g.width(),
            h: g.height(),
            cells,
        }
    }

    /// Flood fill by repeated scans.
    fn fill(&self, seed: &Model) -> Model {
        let mut r = Model {
            cells: self
                .cells
                .iter()
                .zip(&seed.cells)
                .map(|(a, b)| *a && *b)
                .collect(),
            ..self.clone()
        };
        // seeds outside `self` still spread into it
        let mut changed = true;
        let mut first = true;
        while changed {
            changed = false;
            let src = if first { seed.clone() } else { r.clone() };
            first = false;
            for y in 0..self.h as i32 {
                for x in 0..self.w as i32 {
                    let i = (y * self.w as i32 + x) as usize;
                    if self.cells[i]
                        && !r.cells[i]
                        && [(0, 1), (0, -1), (1, 0), (-1, 0)]
                            .iter()
                            .any(|(dx, dy)| src.get(x + dx, y + dy) || r.get(x + dx, y + dy))
                    {
                        r.cells[i] = true;
                        changed = true;
                    }
                }
            }
        }
        r
    }
}

fn model_strategy() -> impl Strategy<Value = Model> {
    (1usize..=32, 1usize..=32).prop_flat_map(|(w, h)| {
        proptest::collection::vec(any::<bool>(), w * h).prop_map(move |cells| Model { w, h, cells })
    })
}

fn pair_strategy() -> impl Strategy<Value = (Model, Model)> {
    (1usize..=32, 1usize..=32).prop_flat_map(|(w, h)| {
        (
            proptest::collection::vec(prop::bool::weighted(0.6), w * h),
            proptest::collection::vec(prop::bool::weighted(0.05), w * h),
        )
            .prop_map(move |(a, b)| (Model { w, h, cells: a }, Model { w, h, cells: b }))
    })
}

proptest! {
    #[test]
    fn set_get_count_iterate_match_the_model(m in model_strategy()) {
        let b = m.to_bitboard();
        prop_assert_eq!(b.count() as usize, m.cells.iter().filter(|&&c| c).count());
        prop_assert_eq!(Model::from_bitboard(&b), m.clone());
        for y in 0..m.h {
            for x in 0..m.w {
                prop_assert_eq!(b.get(x, y), m.cells[y * m.w + x]);
            }
        }
        prop_assert_eq!(b.is_empty(), !m.cells.contains(&true));
        let comp = Model::from_bitboard(&b.complement());
        prop_assert!(comp.cells.iter().zip(&m.cells).all(|(a, b)| a != b));
    }

    #[test]
    fn shifts_match_the_model(m in model_strategy()) {
        let b = m.to_bitboard();
        prop_assert_eq!(Model::from_bitboard(&b.shift_up()), m.shifted(0, -1));
        prop_assert_eq!(Model::from_bitboard(&b.shift_down()), m.shifted(0, 1));
        prop_assert_eq!(Model::from_bitboard(&b.shift_left()), m.shifted(-1, 0));
        prop_assert_eq!(Model::from_bitboard(&b.shift_right()), m.shifted(1, 0));
    }

    #[test]
    fn inner_edges_count_the_model_s_neighbouring_pairs(m in model_strategy()) {
        let pairs = (0..m.h as i32)
            .flat_map(|y| (0..m.w as i32).map(move |x| (x, y)))
            .filter(|&(x, y)| m.get(x, y))
            .map(|(x, y)| u32::from(m.get(x + 1, y)) + u32::from(m.get(x, y + 1)))
            .sum::<u32>();
        prop_assert_eq!(m.to_bitboard().inner_edges(), pairs);
    }

    #[test]
    fn neighbours_and_fill_match_the_model((within, seed) in pair_strategy()) {
        let w = within.to_bitboard();
        let s = seed.to_bitboard();
        let mut expected = within.clone();
        for (i, c) in expected.cells.iter_mut().enumerate() {
            let (x, y) = ((i % within.w) as i32, (i / within.w) as i32);
            *c = within.cells[i]
                && [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|(dx, dy)| seed.get(x + dx, y + dy));
        }
        prop_assert_eq!(Model::from_bitboard(&s.neighbours(&w)), expected);
        prop_assert_eq!(Model::from_bitboard(&s.fill(&w)), within.fill(&seed));
    }

    #[test]
    fn set_operations_match_the_model((a, b) in pair_strategy()) {
        let (x, y) = (a.to_bitboard(), b.to_bitboard());
        let zip = |f: fn(bool, bool) -> bool| Model {
            cells: a.cells.iter().zip(&b.cells).map(|(p, q)| f(*p, *q)).collect(),
            ..a.clone()
        };
        prop_assert_eq!(Model::from_bitboard(&(x & y)), zip(|p, q| p && q));
        prop_assert_eq!(Model::from_bitboard(&(x | y)), zip(|p, q| p || q));
        prop_assert_eq!(Model::from_bitboard(&(x ^ y)), zip(|p, q| p != q));
        prop_assert_eq!(Model::from_bitboard(&x.and_not(&y)), zip(|p, q| p && !q));
        prop_assert_eq!(x.intersects(&y), a.cells.iter().zip(&b.cells).any(|(p, q)| *p && *q));
    }
}

#[test]
fn shifts_drop_cells_at_every_edge_for_several_widths() {
    for (w, h) in [
        (4, 4),
        (13, 7),
        (16, 16),
        (31, 3),
        (32, 32),
        (1, 5),
        (62, 1),
    ] {
        let g = Grid::new(w, h).unwrap();
        let full = g.board_mask();
        assert_eq!(full.count() as usize, w * h);
        let mut col_last = Bitboard::empty(g);
        let mut col_first = Bitboard::empty(g);
        let mut row_last = Bitboard::empty(g);
        let mut row_first = Bitboard::empty(g);
        for y in 0..h {
            col_first.set(0, y, true);
            col_last.set(w - 1, y, true);
        }
        for x in 0..w {
            row_first.set(x, 0, true);
            row_last.set(x, h - 1, true);
        }
        // the whole board shifted loses exactly the edge it moved over
        assert_eq!(
            full.shift_right(),
            full.and_not(&col_first),
            "{w}x{h} right"
        );
        assert_eq!(full.shift_left(), full.and_not(&col_last), "{w}x{h} left");
        assert_eq!(full.shift_down(), full.and_not(&row_first), "{w}x{h} down");
        assert_eq!(full.shift_up(), full.and_not(&row_last), "{w}x{h} up");
        // an edge column moved across its edge vanishes instead of wrapping
        assert!(col_last.shift_right().is_empty(), "{w}x{h}");
        assert!(col_first.shift_left().is_empty(), "{w}x{h}");
        assert!(row_first.shift_up().is_empty(), "{w}x{h}");
        assert!(row_last.shift_down().is_empty(), "{w}x{h}");
        // corners: bit index <-> coordinates
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            let i = g.index(x, y);
            assert_eq!(g.coords(i), Some((x, y)));
            assert_eq!(
                Bitboard::single(g, i).cells().collect::<Vec<_>>(),
                vec![(x, y)]
            );
        }
    }
}

#[test]
fn the_board_mask_is_exactly_the_board_cells_at_any_width() {
    // Rows that straddle a word boundary, the widest rows, CodinGame's board.
    for (w, h) in [(62, 16), (61, 3), (33, 30), (30, 20), (16, 16), (1, 1)] {
        let g = Grid::new(w, h).unwrap();
        let mask = g.board_mask();
        let mut expected = Bitboard::empty(g);
        for y in 0..h {
            for x in 0..w {
                expected.set_index(g.index(x, y));
            }
        }
        assert_eq!(mask, expected, "{w}x{h}");
    }
}

#[test]
fn oversized_grids_are_rejected() {
    assert!(Grid::new(32, 32).is_ok());
    assert!(Grid::new(0, 5).is_err());
    assert!(Grid::new(5, 0).is_err());
    assert!(Grid::new(63, 1).is_err());
    assert!(Grid::new(40, 40).is_err());
}

#[test]
fn white_mask_is_a_checkerboard_for_odd_and_even_widths() {
    for (w, h) in [(4, 3), (5, 4), (16, 16), (31, 2)] {
        let g = Grid::new(w, h).unwrap();
        let white = g.white_mask();
        for y in 0..h {
            for x in 0..w {
                assert_eq!(white.get(x, y), (x + y) % 2 == 1, "{w}x{h} at ({x}, {y})");
            }
        }
    }
}
