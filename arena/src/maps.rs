//! Light Riders boards: text maps (`#` wall, `.` empty, `0`/`1` the riders' starts, lines
//! starting with `;` are comments) and the riddles.io engine's random empty board.
//! `--map` takes a path or the name of a map shipped in `protocol/maps/`.

use mctsbot::search::FastRng;
use mctsbot::tron::TronState;
use rand::{RngCore, SeedableRng};

/// A board before the game: walls and the two starts, as (x, y) = (column, row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Row-major, `true` = wall.
    pub walls: Vec<bool>,
    pub starts: [(u32, u32); 2],
}

/// The maps shipped in `protocol/maps/NAME.txt`.
pub const SHIPPED: &[&str] = &[
    "empty13",
    "empty6",
    "pillars13",
    "brackets13",
    "rooms16",
    "chevrons16",
    "gate16",
    "doors13",
];

/// Where `--map NAME` may be found, in order: a file by that path, then
/// `protocol/maps/NAME.txt` under the current directory, then under the workspace the
/// arena was built from. (Read at run time, not compiled in.)
fn candidates(spec: &str) -> Vec<std::path::PathBuf> {
    let file = format!("protocol/maps/{spec}.txt");
    vec![
        spec.into(),
        file.clone().into(),
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(file),
    ]
}

impl Map {
    /// The position before round 0.
    pub fn start_state(&self) -> Result<TronState, String> {
        let walls = (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.walls[(y * self.width + x) as usize])
            .map(|(x, y)| (x as usize, y as usize));
        let heads = self.starts.map(|(x, y)| (x as usize, y as usize));
        TronState::new(self.width as usize, self.height as usize, walls, heads)
            .map_err(|e| e.to_string())
    }

    /// Parses a text map: the comment lines dropped, the rest is a
    /// [`TronState::from_diagram`] picture (the same cells, the same checks).
    pub fn parse(name: &str, text: &str) -> Result<Map, String> {
        let diagram: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
        let state =
            TronState::from_diagram(&diagram.join("\n")).map_err(|e| format!("map {name}: {e}"))?;
        let (width, height) = (state.width() as u32, state.height() as u32);
        if width < 2 || height < 2 {
            return Err(format!("map {name}: too small"));
        }
        let starts = [0, 1].map(|p| {
            let (x, y) = state.head(p);
            (x as u32, y as u32)
        });
        // The heads are blocked in a position; on the map they are starts, not walls.
        let walls = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| state.is_blocked(x as usize, y as usize) && !starts.contains(&(x, y)))
            .collect();
        Ok(Map {
            name: name.to_string(),
            width,
            height,
            walls,
            starts,
        })
    }

    /// A map file by path, or a shipped map by name (see [`SHIPPED`]).
    pub fn load(spec: &str) -> Result<Map, String> {
        let path = candidates(spec)
            .into_iter()
            .find(|p| p.is_file())
            .ok_or(format!("map {spec}: no such file or shipped map"))?;
        let text = std::fs::read_to_string(&path).map_err(|e| format!("map {spec}: {e}"))?;
        let name = path
            .file_stem()
            .map_or(spec.to_string(), |s| s.to_string_lossy().into_owned());
        Map::parse(&name, &text)
    }

    /// The riddles.io engine's board: empty, player 0 at a random x in `1..=w/2-2` and y in
    /// `1..=h-2`, player 1 at the mirror image (w-1-x, y).
    pub fn random_empty(width: u32, height: u32, seed: u64) -> Map {
        let mut rng = FastRng::seed_from_u64(seed);
        let xs = (width / 2).saturating_sub(2).max(1);
        let ys = height.saturating_sub(2).max(1);
        let x = 1 + (rng.next_u64() % xs as u64) as u32;
        let y = 1 + (rng.next_u64() % ys as u64) as u32;
        Map {
            name: format!("empty{width}x{height}"),
            width,
            height,
            walls: vec![false; (width * height) as usize],
            starts: [(x, y), (width - 1 - x, y)],
        }
    }

    /// Whether the map is fair: the same under a point reflection or a left/right or
    /// top/bottom mirror that swaps the two starts.
    pub fn is_symmetric(&self) -> bool {
        self.symmetry().is_some()
    }

    /// The mirror that makes the map fair, left/right first (the riddles engine's).
    fn symmetry(&self) -> Option<Symmetry> {
        let (w, h) = (self.width, self.height);
        let wall = |x: u32, y: u32| self.walls[(y * w + x) as usize];
        [Symmetry::LeftRight, Symmetry::Point, Symmetry::TopBottom]
            .into_iter()
            .find(|s| {
                s.image(self, self.starts[0]) == self.starts[1]
                    && (0..h).all(|y| {
                        (0..w).all(|x| {
                            let (mx, my) = s.image(self, (x, y));
                            wall(x, y) == wall(mx, my)
                        })
                    })
            })
    }

    /// The map with player 0 starting at `cell` and player 1 at its image under the
    /// map's mirror, so that the game stays fair.
    pub fn with_start(&self, cell: (u32, u32)) -> Result<Map, String> {
        let name = &self.name;
        let (x, y) = cell;
        if x >= self.width || y >= self.height {
            return Err(format!("start {x},{y} is off the {name} board"));
        }
        let symmetry = self
            .symmetry()
            .ok_or(format!("map {name} has no mirror to place player 1 by"))?;
        let other = symmetry.image(self, cell);
        if self.walls[(y * self.width + x) as usize] {
            return Err(format!("start {x},{y} is a wall of {name}"));
        }
        if other == cell {
            return Err(format!("start {x},{y} is its own mirror image on {name}"));
        }
        Ok(Map {
            starts: [cell, other],
            ..self.clone()
        })
    }
}

/// A mirror of a board that swaps the riders' starts.
#[derive(Clone, Copy)]
enum Symmetry {
    LeftRight,
    Point,
    TopBottom,
}

impl Symmetry {
    fn image(self, map: &Map, (x, y): (u32, u32)) -> (u32, u32) {
        let (w, h) = (map.width, map.height);
        match self {
            Symmetry::LeftRight => (w - 1 - x, y),
            Symmetry::Point => (w - 1 - x, h - 1 - y),
            Symmetry::TopBottom => (x, h - 1 - y),
        }
    }
}

/// The size named by `emptyWxH`, the name [`Map::random_empty`] gives its boards.
pub fn empty_size(name: &str) -> Option<(u32, u32)> {
    let (w, h) = name.strip_prefix("empty")?.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_maps_parse_and_are_fair() {
        for name in SHIPPED {
            let map = Map::load(name).unwrap();
            assert_eq!(map.name, *name);
            assert!(map.is_symmetric(), "{name} is not symmetric");
            assert!([6, 13, 16].contains(&map.width), "{name}");
            assert_eq!(map.width, map.height, "{name}");
            for (x, y) in map.starts {
                assert!(!map.walls[(y * map.width + x) as usize]);
            }
        }
        let m = Map::load("empty13").unwrap();
        assert_eq!(m.starts, [(0, 0), (12, 12)]);
    }

    #[test]
    fn random_empty_follows_the_riddles_engine() {
        for seed in 0..200 {
            let m = Map::random_empty(16, 16, seed);
            let (x, y) = m.starts[0];
            assert!(
                (1..=6).contains(&x) && (1..=14).contains(&y),
                "{:?}",
                m.starts
            );
            assert_eq!(m.starts[1], (15 - x, y));
            assert!(m.is_symmetric());
        }
        assert_eq!(Map::random_empty(16, 16, 7), Map::random_empty(16, 16, 7));
        assert_eq!(
            empty_size(&Map::random_empty(16, 13, 7).name),
            Some((16, 13))
        );
        assert_eq!(empty_size("empty13"), None);
    }

    #[test]
    fn a_moved_start_is_mirrored_as_the_map_is() {
        // The riddles board and rooms16 mirror left/right, chevrons16 about its centre.
        let m = Map::random_empty(16, 16, 1).with_start((2, 5)).unwrap();
        assert_eq!(m.starts, [(2, 5), (13, 5)]);
        let rooms = Map::load("rooms16").unwrap();
        assert_eq!(rooms.with_start((1, 1)).unwrap().starts, [(1, 1), (14, 1)]);
        let chevrons = Map::load("chevrons16").unwrap();
        let moved = chevrons.with_start((2, 3)).unwrap();
        assert_eq!(moved.starts, [(2, 3), (13, 12)]);
        assert!(moved.is_symmetric());
        assert!(rooms.with_start((2, 2)).unwrap_err().contains("wall"));
        assert!(rooms.with_start((16, 0)).unwrap_err().contains("off"));
        let odd = Map::load("empty13").unwrap();
        assert!(odd.with_start((6, 6)).unwrap_err().contains("own mirror"));
    }

    #[test]
    fn rejects_bad_maps() {
        assert!(Map::parse("m", "0..\n..").is_err());
        assert!(Map::parse("m", "0.\n.?\n").is_err());
        assert!(Map::parse("m", "0.\n..\n").is_err());
        let m = Map::parse("m", "; c\n0#\n#1\n").unwrap();
        assert_eq!((m.width, m.height, m.starts), (2, 2, [(0, 0), (1, 1)]));
        assert!(m.is_symmetric());
    }
}
