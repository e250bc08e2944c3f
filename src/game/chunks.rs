//! The world as GPU textures: one pixel per tile in square chunks, so far zoom costs one
//! draw per visible chunk instead of one per tile.
//!
//! Pixel buffers are built off the render thread ([`build_all`], run by the worker with the
//! world); the render thread uploads them a few at a time and then drops them, so no CPU
//! copy stays behind. An edited tile marks its chunk dirty and only that chunk is rebuilt.

use crate::export;
use crate::world::World;
use macroquad::prelude::{FilterMode, Texture2D};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Chunk side in tiles.
pub const CHUNK: usize = 256;

/// How a world of a given size is cut into chunks (row-major chunk indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub cols: usize,
    pub rows: usize,
}

/// A chunk's tiles: `x0..x0 + w`, `y0..y0 + h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRect {
    pub x0: usize,
    pub y0: usize,
    pub w: usize,
    pub h: usize,
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Grid {
        Grid {
            width,
            height,
            cols: width.div_ceil(CHUNK),
            rows: height.div_ceil(CHUNK),
        }
    }

    pub fn len(&self) -> usize {
        self.cols * self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn rect(&self, i: usize) -> ChunkRect {
        let (cx, cy) = (i % self.cols, i / self.cols);
        let (x0, y0) = (cx * CHUNK, cy * CHUNK);
        ChunkRect {
            x0,
            y0,
            w: CHUNK.min(self.width - x0),
            h: CHUNK.min(self.height - y0),
        }
    }

    /// The chunk holding tile `(x, y)`.
    pub fn index_of(&self, x: usize, y: usize) -> usize {
        (y / CHUNK) * self.cols + x / CHUNK
    }

    /// Chunks overlapping the half-open tile range, row by row.
    pub fn overlapping(
        &self,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
    ) -> impl Iterator<Item = usize> + '_ {
        let (cx0, cy0) = (x0 / CHUNK, y0 / CHUNK);
        let (cx1, cy1) = if x1 <= x0 || y1 <= y0 {
            (cx0, cy0) // an empty range overlaps nothing
        } else {
            (
                x1.div_ceil(CHUNK).min(self.cols),
                y1.div_ceil(CHUNK).min(self.rows),
            )
        };
        (cy0..cy1).flat_map(move |cy| (cx0..cx1).map(move |cx| cy * self.cols + cx))
    }
}

/// Writes chunk `rect`'s RGBA pixels (`rect.w * rect.h * 4` bytes) into `out`.
pub fn build_pixels(world: &World, rect: ChunkRect, out: &mut Vec<u8>) {
    out.clear();
    out.reserve(rect.w * rect.h * 4);
    for y in rect.y0..rect.y0 + rect.h {
        for x in rect.x0..rect.x0 + rect.w {
            out.extend_from_slice(&export::pixel(world, x, y));
        }
    }
}

/// Every chunk's pixels, in parallel; `None` once `cancel` is set.
pub fn build_all(world: &World, cancel: &AtomicBool) -> Option<Vec<Vec<u8>>> {
    let grid = Grid::new(world.width(), world.height());
    let chunks: Vec<Option<Vec<u8>>> = (0..grid.len())
        .into_par_iter()
        .map(|i| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut buf = Vec::new();
            build_pixels(world, grid.rect(i), &mut buf);
            Some(buf)
        })
        .collect();
    chunks.into_iter().collect()
}

/// The chunk textures of one world.
pub struct ChunkTextures {
    pub grid: Grid,
    textures: Vec<Option<Texture2D>>,
    /// Pixels waiting for upload; emptied as they go up.
    pending: Vec<Option<Vec<u8>>>,
    dirty: Vec<usize>,
    scratch: Vec<u8>,
}

impl ChunkTextures {
    pub fn new(grid: Grid, pixels: Vec<Vec<u8>>) -> ChunkTextures {
        ChunkTextures {
            grid,
            textures: (0..grid.len()).map(|_| None).collect(),
            pending: pixels.into_iter().map(Some).collect(),
            dirty: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn get(&self, i: usize) -> Option<&Texture2D> {
        self.textures.get(i).and_then(|t| t.as_ref())
    }

    /// Chunks whose pixels are not on the GPU yet.
    pub fn pending_count(&self) -> usize {
        self.pending.iter().filter(|p| p.is_some()).count()
    }

    fn upload(&mut self, i: usize) {
        if let Some(buf) = self.pending[i].take() {
            let r = self.grid.rect(i);
            let tex = Texture2D::from_rgba8(r.w as u16, r.h as u16, &buf);
            tex.set_filter(FilterMode::Nearest);
            self.textures[i] = Some(tex);
        }
    }

    /// Uploads pending chunks, `first` (e.g. the visible ones) before the rest, until
    /// `budget` runs out. Returns whether every chunk in `first` is up.
    pub fn upload_some(&mut self, first: &[usize], budget: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        for &i in first {
            if start.elapsed() >= budget {
                return false;
            }
            self.upload(i);
        }
        for i in 0..self.pending.len() {
            if start.elapsed() >= budget {
                break;
            }
            self.upload(i);
        }
        true
    }

    /// Notes that a tile of chunk `i` changed.
    pub fn mark_dirty(&mut self, i: usize) {
        if !self.dirty.contains(&i) {
            self.dirty.push(i);
        }
    }

    /// Rebuilds dirty chunks from the world (at most `max` per call). Returns how many.
    pub fn refresh(&mut self, world: &World, max: usize) -> usize {
        let n = self.dirty.len().min(max);
        for i in self.dirty.drain(..n).collect::<Vec<_>>() {
            let r = self.grid.rect(i);
            if self.pending[i].is_some() {
                let mut buf = Vec::new();
                build_pixels(world, r, &mut buf);
                self.pending[i] = Some(buf);
                continue;
            }
            build_pixels(world, r, &mut self.scratch);
            if let Some(t) = &self.textures[i] {
                t.update_from_bytes(r.w as u32, r.h as u32, &self.scratch);
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{CAVE_BACKDROP, Tile};

    #[test]
    fn grid_covers_the_world_with_edge_chunks() {
        let g = Grid::new(600, 300);
        assert_eq!((g.cols, g.rows, g.len()), (3, 2, 6));
        assert_eq!(
            g.rect(2),
            ChunkRect {
                x0: 512,
                y0: 0,
                w: 88,
                h: 256
            }
        );
        assert_eq!(
            g.rect(5),
            ChunkRect {
                x0: 512,
                y0: 256,
                w: 88,
                h: 44
            }
        );
        let area: usize = (0..g.len()).map(|i| g.rect(i).w * g.rect(i).h).sum();
        assert_eq!(area, 600 * 300);
        assert_eq!(g.index_of(599, 299), 5);
        assert_eq!(g.index_of(255, 256), 3);
    }

    #[test]
    fn overlapping_chunks_of_a_range() {
        let g = Grid::new(8400, 2400);
        assert_eq!(g.overlapping(0, 0, 8400, 2400).count(), g.len());
        assert_eq!(
            g.overlapping(250, 250, 260, 260).collect::<Vec<_>>(),
            vec![0, 1, g.cols, g.cols + 1]
        );
        assert_eq!(
            g.overlapping(300, 300, 301, 301).collect::<Vec<_>>(),
            vec![g.cols + 1]
        );
        assert_eq!(g.overlapping(10, 10, 10, 20).count(), 0);
    }

    #[test]
    fn pixels_match_the_export_palette() {
        let w = World::from_ascii(&["  w ", ".#  ", ".###"]).unwrap();
        let g = Grid::new(w.width(), w.height());
        let all = build_all(&w, &AtomicBool::new(false)).unwrap();
        assert_eq!(all.len(), 1);
        let px = |x: usize, y: usize| &all[0][(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
        assert_eq!(px(2, 0), Tile::Grass.color());
        assert_eq!(px(0, 0), Tile::Air.color());
        assert_eq!(px(2, 1), CAVE_BACKDROP);
        assert_eq!(
            g.rect(0),
            ChunkRect {
                x0: 0,
                y0: 0,
                w: 4,
                h: 3
            }
        );
        assert!(build_all(&w, &AtomicBool::new(true)).is_none());
    }
}
