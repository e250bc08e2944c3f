//! The explored map: which parts of a world the player has seen, for the minimap and the
//! map view (the free camera), which show nothing else.
//!
//! Kept per cell of [`CELL`] x [`CELL`] tiles, one bit each, not per tile: the minimap
//! draws a Large world (8400 x 2400 tiles) at well under a pixel a tile and the map view
//! is for finding one's way, so a 4-tile grain is finer than either shows; it keeps the
//! map 16 times smaller (157 KB for a Large world, a few hundred bytes in a save) and lets
//! the game draw the fog as one texture of a texel per cell (2100 x 600 for a Large
//! world), updated a few texels at a time as cells are revealed.
//!
//! A cell is seen once any of its tiles is lit (at least [`REVEAL_LIGHT`]) within
//! [`REVEAL_RADIUS`] tiles of the player: daylight reveals the surface around the player,
//! underground the player's own light and torches do. [`Explored::reveal`] looks only at
//! that square around the player, so revealing costs the same on any world size.

/// Side of a cell of the explored map, in tiles.
pub const CELL: usize = 4;
/// How far from the player (a square, in tiles) light reveals the map: about half a
/// 1280-pixel screen at the play camera's zoom.
pub const REVEAL_RADIUS: usize = 32;
/// The least light level that reveals a tile (a level the screen shows as more than
/// near-black).
pub const REVEAL_LIGHT: u8 = 3;

/// A box of cells, half-open: `x0..x1` by `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cells {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Cells {
    /// The smallest box holding both.
    pub fn union(self, o: Cells) -> Cells {
        Cells {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    pub fn width(&self) -> usize {
        self.x1 - self.x0
    }

    pub fn height(&self) -> usize {
        self.y1 - self.y0
    }
}

/// One bit a cell: seen or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    /// The world's size in tiles.
    width: usize,
    height: usize,
    cols: usize,
    rows: usize,
    bits: Vec<u64>,
}

impl Explored {
    /// Nothing seen of a world of `width` x `height` tiles.
    pub fn new(width: usize, height: usize) -> Explored {
        let (cols, rows) = (width.div_ceil(CELL), height.div_ceil(CELL));
        Explored {
            width,
            height,
            cols,
            rows,
            bits: vec![0; (cols * rows).div_ceil(64)],
        }
    }

    /// Everything seen (a world saved before the map was kept).
    pub fn all_seen(width: usize, height: usize) -> Explored {
        let mut e = Explored::new(width, height);
        let n = e.cells();
        e.set_run(0, n);
        e
    }

    /// Cells across and down.
    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Every cell.
    pub fn cells(&self) -> usize {
        self.cols * self.rows
    }

    /// Has the cell `(cx, cy)` been seen? (Outside the map: no.)
    pub fn cell_seen(&self, cx: usize, cy: usize) -> bool {
        cx < self.cols && cy < self.rows && self.bit(cy * self.cols + cx)
    }

    /// Has the tile `(x, y)` been seen (its cell)?
    pub fn seen(&self, x: usize, y: usize) -> bool {
        self.cell_seen(x / CELL, y / CELL)
    }

    /// How many cells have been seen.
    pub fn seen_count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn bit(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }

    /// Marks cells `from..from + n` (row-major) seen.
    fn set_run(&mut self, from: usize, n: usize) {
        for i in from..from + n {
            self.bits[i / 64] |= 1 << (i % 64);
        }
    }

    /// Marks the cell `(cx, cy)` seen; true if it was not before.
    pub fn mark(&mut self, cx: usize, cy: usize) -> bool {
        if cx >= self.cols || cy >= self.rows || self.cell_seen(cx, cy) {
            return false;
        }
        self.set_run(cy * self.cols + cx, 1);
        true
    }

    /// Marks seen every cell not seen yet that has a tile within `radius` tiles (a
    /// square) of `centre` for which `lit(x, y)` holds. Returns the box of the cells newly
    /// seen, if any. Looks at no tile outside that square.
    pub fn reveal(
        &mut self,
        centre: (f32, f32),
        radius: usize,
        lit: impl Fn(usize, usize) -> bool,
    ) -> Option<Cells> {
        if !(centre.0.is_finite() && centre.1.is_finite()) {
            return None;
        }
        let clamp = |v: f32, most: usize| (v.max(0.0) as usize).min(most.saturating_sub(1));
        let (px, py) = (clamp(centre.0, self.width), clamp(centre.1, self.height));
        let (x0, y0) = (px.saturating_sub(radius), py.saturating_sub(radius));
        let (x1, y1) = (
            (px + radius + 1).min(self.width),
            (py + radius + 1).min(self.height),
        );
        let mut new: Option<Cells> = None;
        for cy in y0 / CELL..y1.div_ceil(CELL) {
            for cx in x0 / CELL..x1.div_ceil(CELL) {
                if self.cell_seen(cx, cy) {
                    continue;
                }
                let ys = (cy * CELL).max(y0)..((cy + 1) * CELL).min(y1);
                let xs = (cx * CELL).max(x0)..((cx + 1) * CELL).min(x1);
                let any = ys
                    .flat_map(|y| xs.clone().map(move |x| (x, y)))
                    .any(|(x, y)| lit(x, y));
                if any && self.mark(cx, cy) {
                    let c = Cells {
                        x0: cx,
                        y0: cy,
                        x1: cx + 1,
                        y1: cy + 1,
                    };
                    new = Some(new.map_or(c, |n| n.union(c)));
                }
            }
        }
        new
    }

    /// The map as runs of cells in row-major order, alternately unseen and seen, the first
    /// unseen (0 long when the first cell is seen); every other run is at least 1 long.
    pub fn runs(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let (mut state, mut len) = (false, 0u64);
        for i in 0..self.cells() {
            if self.bit(i) != state {
                out.push(len);
                state = !state;
                len = 0;
            }
            len += 1;
        }
        out.push(len);
        out
    }

    /// A map of a `width` x `height` world from [`Explored::runs`]; an error unless the
    /// runs cover its cells exactly, with no empty run but the first.
    pub fn from_runs(
        width: usize,
        height: usize,
        runs: impl IntoIterator<Item = u64>,
    ) -> Result<Explored, String> {
        let mut e = Explored::new(width, height);
        let total = e.cells() as u64;
        let (mut at, mut seen) = (0u64, false);
        for (i, len) in runs.into_iter().enumerate() {
            if len == 0 && i > 0 {
                return Err(format!("an empty run at cell {at}"));
            }
            if len > total - at {
                return Err(format!(
                    "a run of {len} cells at cell {at} (the map has {total})"
                ));
            }
            if seen {
                e.set_run(at as usize, len as usize);
            }
            at += len;
            seen = !seen;
        }
        if at != total {
            return Err(format!("runs cover {at} of {total} cells"));
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_reveals_the_cells_around_the_player_and_nothing_further() {
        let mut e = Explored::new(100, 60);
        assert_eq!((e.cols(), e.rows(), e.seen_count()), (25, 15, 0));
        // Everything lit: the square of radius 5 around (50, 30) is revealed, by cells.
        let got = e.reveal((50.5, 30.5), 5, |_, _| true).unwrap();
        assert_eq!(
            got,
            Cells {
                x0: 11,
                y0: 6,
                x1: 14,
                y1: 9
            }
        );
        assert_eq!(e.seen_count(), 9);
        assert!(e.seen(44, 25) && e.seen(55, 35) && !e.seen(43, 30) && !e.seen(56, 30));
        // Again: nothing new, and no tile is even looked at.
        assert_eq!(e.reveal((50.5, 30.5), 5, |_, _| panic!("looked")), None);
        // In the dark, nothing; a single lit tile reveals its cell only.
        assert_eq!(e.reveal((10.0, 10.0), 5, |_, _| false), None);
        let one = e.reveal((10.0, 10.0), 5, |x, y| (x, y) == (7, 13)).unwrap();
        assert_eq!((one.x0, one.y0, one.width(), one.height()), (1, 3, 1, 1));
        assert!(e.seen(4, 12) && !e.seen(8, 13));
    }

    #[test]
    fn reveal_looks_only_at_tiles_in_its_square_and_in_the_world() {
        let mut e = Explored::new(30, 20);
        let looked = std::cell::RefCell::new(Vec::new());
        e.reveal((1.0, 18.0), 3, |x, y| {
            looked.borrow_mut().push((x, y));
            false
        });
        let looked = looked.into_inner();
        assert!(!looked.is_empty());
        assert!(looked.iter().all(|&(x, y)| x <= 4 && (15..20).contains(&y)));
        // Off the world or not a number: clamped, or nothing.
        assert!(e.reveal((-50.0, 999.0), 2, |_, _| true).is_some());
        assert!(e.seen(0, 19));
        assert_eq!(e.reveal((f32::NAN, 3.0), 2, |_, _| true), None);
    }

    #[test]
    fn runs_round_trip_and_bad_runs_are_refused() {
        let mut e = Explored::new(41, 23); // 11 x 6 cells, the last ones partial
        for (x, y) in [(0, 0), (1, 0), (10, 5), (4, 2), (5, 2)] {
            assert!(e.mark(x, y));
        }
        assert!(!e.mark(4, 2) && !e.mark(11, 0));
        let runs = e.runs();
        assert_eq!(runs[0], 0, "the first cell is seen");
        assert_eq!(runs.iter().sum::<u64>(), 66);
        assert_eq!(Explored::from_runs(41, 23, runs.clone()).unwrap(), e);
        let none = Explored::new(41, 23);
        assert_eq!(none.runs(), [66]);
        let all = Explored::all_seen(41, 23);
        assert_eq!((all.runs(), all.seen_count()), (vec![0, 66], 66));
        assert!(
            Explored::from_runs(41, 23, [65])
                .unwrap_err()
                .contains("65 of 66")
        );
        assert!(
            Explored::from_runs(41, 23, [60, 7])
                .unwrap_err()
                .contains("run of 7")
        );
        assert!(
            Explored::from_runs(41, 23, [6, 0, 60])
                .unwrap_err()
                .contains("empty run")
        );
        assert!(Explored::from_runs(41, 23, [u64::MAX]).is_err());
    }
}
