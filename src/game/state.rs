//! The world on screen and its caches. Every edit goes through [`Loaded::set_tile`], which
//! marks the chunk texture for rebuilding and notes that connectivity is stale.

use super::chunks::{ChunkTextures, Grid};
use super::masks::CaveMask;
use super::worker::Generated;
use crate::analysis::{self, CaveReport};
use crate::world::{Tile, World};
use crate::worldgen::PassTiming;

/// A world that is (being) shown, with its chunk textures and analysis.
pub struct Loaded {
    pub world: World,
    pub report: CaveReport,
    pub timings: Vec<PassTiming>,
    pub chunks: ChunkTextures,
    /// Tint of the largest cave.
    pub largest: CaveMask,
    /// Tint of the cave under the mouse.
    pub hovered: CaveMask,
    /// Tiles changed since the last analysis.
    pub analysis_stale: bool,
}

impl Loaded {
    pub fn new(g: Generated) -> Loaded {
        let grid = Grid::new(g.world.width(), g.world.height());
        let largest = CaveMask::new(grid, g.report.largest_cave);
        Loaded {
            chunks: ChunkTextures::new(grid, g.pixels),
            world: g.world,
            report: g.report,
            timings: g.timings,
            largest,
            hovered: CaveMask::new(grid, None),
            analysis_stale: false,
        }
    }

    pub fn size(&self) -> (usize, usize) {
        (self.world.width(), self.world.height())
    }

    /// The one way to change a tile after generation (digging and placing use it).
    pub fn set_tile(&mut self, x: usize, y: usize, tile: Tile) {
        if x >= self.world.width() || y >= self.world.height() || self.world.tile(x, y) == tile {
            return;
        }
        self.world.set(x, y, tile);
        self.chunks.mark_dirty(self.chunks.grid.index_of(x, y));
        self.analysis_stale = true;
    }

    /// Brings caches up to date after edits: chunk textures (a few per frame) and, when
    /// tiles changed, connectivity and the cave tints.
    pub fn refresh(&mut self) {
        self.chunks.refresh(&self.world, 16);
        if self.analysis_stale {
            self.analysis_stale = false;
            self.report = analysis::analyse(&self.world);
            self.largest = CaveMask::new(self.chunks.grid, self.report.largest_cave);
            self.hovered = CaveMask::new(self.chunks.grid, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;
    use std::sync::atomic::AtomicBool;

    fn loaded() -> Loaded {
        let p = Preset {
            width: 600,
            height: 300,
            ..Preset::default()
        };
        let (world, timings) = crate::worldgen::generate(&p, 3);
        let report = analysis::analyse(&world);
        let pixels = super::super::chunks::build_all(&world, &AtomicBool::new(false)).unwrap();
        Loaded::new(Generated {
            world,
            report,
            timings,
            pixels,
            requested: std::time::Instant::now(),
        })
    }

    #[test]
    fn set_tile_marks_the_chunk_and_the_analysis() {
        let mut l = loaded();
        let before = l.report.sky_air;
        let (x, y) = (300, l.world.surface[300] as usize);
        assert_eq!(l.world.tile(x, y - 1), Tile::Air);
        l.set_tile(x, y - 1, Tile::Air);
        assert!(!l.analysis_stale, "no change, nothing to redo");
        l.set_tile(x, y, Tile::Air);
        assert!(l.analysis_stale);
        l.set_tile(9999, 0, Tile::Dirt); // outside: ignored
        l.refresh();
        assert!(!l.analysis_stale);
        assert_eq!(l.report.sky_air, before + 1);
    }
}
