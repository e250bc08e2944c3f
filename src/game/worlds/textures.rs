//! Chunk textures on the GPU, for one level of detail of one world (see [`super::chunks`]
//! for the geometry and painting). The overview's texels come from the worker; level-0
//! chunks are painted on the render thread as they are uploaded, a few per frame and
//! visible ones first, then dropped, so no CPU copy of the world's pixels stays behind. An
//! edited tile marks its chunk dirty and only that chunk is rebuilt.

use super::chunks::{Grid, build_pixels, texel};
use crate::world::World;
use crate::world::depth::Layers;
use macroquad::miniquad::MipmapFilterMode;
use macroquad::prelude::{FilterMode, Texture2D};
use macroquad::window::get_internal_gl;

/// Nearest when magnified (crisp pixel art), linear when minified (a little smoothing at
/// far zoom); no mipmaps, whose generation is costly on software GL.
pub fn set_world_filter(tex: &Texture2D) {
    let id = tex.raw_miniquad_id();
    // SAFETY: called on the main thread between draws, like every macroquad call.
    let gl = unsafe { get_internal_gl() };
    gl.quad_context
        .texture_set_min_filter(id, FilterMode::Linear, MipmapFilterMode::None);
    gl.quad_context
        .texture_set_mag_filter(id, FilterMode::Nearest);
}

/// RGBA texels of the `size` tiles from `at`, a texel per tile, in the chunks' palette.
pub fn box_pixels(world: &World, at: (usize, usize), size: (usize, usize), out: &mut Vec<u8>) {
    out.clear();
    out.reserve(size.0 * size.1 * 4);
    let layers = Layers::of_world(world);
    for y in at.1..at.1 + size.1 {
        for x in at.0..at.0 + size.0 {
            out.extend_from_slice(&texel(world, &layers, x, y));
        }
    }
}

/// The chunk textures of one world at one level of detail. Chunks come from texels built
/// by the worker (the overview) or, when there are none, straight from the world on the
/// render thread, one reused buffer at a time (level 0: a chunk takes well under a
/// millisecond, and no 80 MB copy of a Large world is ever made).
pub struct ChunkTextures {
    pub grid: Grid,
    textures: Vec<Option<Texture2D>>,
    /// Texels from the worker waiting for upload; emptied as they go up.
    prebuilt: Vec<Option<Vec<u8>>>,
    /// Dirty chunks, each with the box of changed tiles in it `(x0, y0, x1, y1)`,
    /// inclusive, in world tiles.
    dirty: Vec<(usize, (usize, usize, usize, usize))>,
    scratch: Vec<u8>,
    /// Slowest upload seen, to stop before a budget would be overrun.
    slowest: std::time::Duration,
}

impl ChunkTextures {
    /// `prebuilt` holds every chunk's texels, or is empty to build them from the world.
    pub fn new(grid: Grid, prebuilt: Vec<Vec<u8>>) -> ChunkTextures {
        let mut prebuilt: Vec<Option<Vec<u8>>> = prebuilt.into_iter().map(Some).collect();
        prebuilt.resize(grid.len(), None);
        ChunkTextures {
            grid,
            textures: (0..grid.len()).map(|_| None).collect(),
            prebuilt,
            dirty: Vec::new(),
            scratch: Vec::new(),
            slowest: std::time::Duration::ZERO,
        }
    }

    pub fn get(&self, i: usize) -> Option<&Texture2D> {
        self.textures.get(i).and_then(|t| t.as_ref())
    }

    /// Chunks not on the GPU yet.
    pub fn missing(&self) -> usize {
        self.textures.iter().filter(|t| t.is_none()).count()
    }

    fn upload(&mut self, world: &World, i: usize) {
        if self.textures[i].is_some() {
            return;
        }
        let start = std::time::Instant::now();
        let buf = match self.prebuilt[i].take() {
            Some(buf) => buf,
            None => {
                let mut buf = std::mem::take(&mut self.scratch);
                build_pixels(world, &self.grid, i, &mut buf);
                buf
            }
        };
        let (w, h) = self.grid.texels(i);
        let tex = Texture2D::from_rgba8(w as u16, h as u16, &buf);
        set_world_filter(&tex);
        self.textures[i] = Some(tex);
        self.scratch = buf;
        // Forget old outliers slowly: one slow upload must not stall uploads for good.
        self.slowest = (self.slowest * 15 / 16).max(start.elapsed());
    }

    /// Uploads missing chunks, `first` (e.g. the visible ones) before the rest, while the
    /// next upload is expected to fit in `budget` (one of `first` always goes up, so a
    /// waiting world always progresses). Returns whether every chunk in `first` is up.
    pub fn upload_some(
        &mut self,
        world: &World,
        first: &[usize],
        budget: std::time::Duration,
    ) -> bool {
        let start = std::time::Instant::now();
        let fits = |slowest| start.elapsed() + slowest <= budget;
        let mut ready = true;
        let mut uploaded = 0;
        for &i in first {
            if self.textures[i].is_none() {
                if uploaded > 0 && !fits(self.slowest) {
                    ready = false;
                    break;
                }
                self.upload(world, i);
                uploaded += 1;
            }
        }
        if !ready || !fits(self.slowest) {
            return ready;
        }
        for i in 0..self.textures.len() {
            if self.textures[i].is_none() {
                if !fits(self.slowest) {
                    break;
                }
                self.upload(world, i);
            }
        }
        true
    }

    /// Notes that tile `(x, y)` changed.
    pub fn mark_dirty(&mut self, x: usize, y: usize) {
        let i = self.grid.index_of(x, y);
        match self.dirty.iter_mut().find(|(j, _)| *j == i) {
            Some((_, b)) => *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y)),
            None => self.dirty.push((i, (x, y, x, y))),
        }
    }

    /// Any chunk waiting to be rebuilt?
    pub fn is_dirty(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Rebuilds dirty chunks from the world (at most `max` per call). Returns how many.
    /// At a texel per tile, a change covering at most a sixteenth of its chunk (a dig,
    /// water moving) repaints only its box: flowing water repaints a few texels a tick,
    /// not a 256x256 chunk.
    pub fn refresh(&mut self, world: &World, max: usize) -> usize {
        let n = self.dirty.len().min(max);
        for (i, (x0, y0, x1, y1)) in self.dirty.drain(..n).collect::<Vec<_>>() {
            // Not uploaded yet: drop stale texels; the upload builds from the world.
            self.prebuilt[i] = None;
            let Some(t) = &self.textures[i] else { continue };
            let r = self.grid.rect(i);
            let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
            if self.grid.scale == 1 && bw * bh * 16 <= r.w * r.h {
                box_pixels(world, (x0, y0), (bw, bh), &mut self.scratch);
                let image = macroquad::texture::Image {
                    bytes: std::mem::take(&mut self.scratch),
                    width: bw as u16,
                    height: bh as u16,
                };
                let (ox, oy) = ((x0 - r.x0) as i32, (y0 - r.y0) as i32);
                t.update_part(&image, ox, oy, bw as i32, bh as i32);
                self.scratch = image.bytes;
                continue;
            }
            build_pixels(world, &self.grid, i, &mut self.scratch);
            let (w, h) = self.grid.texels(i);
            t.update_from_bytes(w as u32, h as u32, &self.scratch);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::worlds::chunks::Grid;

    #[test]
    fn a_box_of_texels_matches_the_whole_chunk_painting() {
        let preset = crate::content::preset::Preset {
            width: 300,
            height: 200,
            ..Default::default()
        };
        let (world, _) = crate::worldgen::generate(&preset, 4);
        let grid = Grid::new(300, 200);
        let mut chunk = Vec::new();
        build_pixels(&world, &grid, 0, &mut chunk);
        let r = grid.rect(0);
        let mut part = Vec::new();
        box_pixels(&world, (40, 90), (7, 5), &mut part);
        for dy in 0..5 {
            for dx in 0..7 {
                let c = ((90 + dy - r.y0) * r.w + 40 + dx - r.x0) * 4;
                let p = (dy * 7 + dx) * 4;
                assert_eq!(part[p..p + 4], chunk[c..c + 4], "({dx}, {dy})");
            }
        }
    }
}
