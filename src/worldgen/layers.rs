//! Pass 2, **layers**: turns ground deeper than the dirt band into stone.
//!
//! Expects: dirt from `world.surface` down. Leaves: dirt for `dirt_depth + jitter` tiles
//! below the surface, stone below that, where the jitter is `0..=dirt_jitter`, drawn per
//! tile (a speckled boundary) or per column (a stepped one).

use super::noise::hash32;
use crate::preset::{Jitter, Preset};
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// Extra dirt depth for one tile, uniform in `0..=max` (counter-based: the same for any
/// visiting order).
#[inline]
fn jitter(key: u32, x: usize, y: usize, max: u32) -> u32 {
    if max == 0 {
        return 0;
    }
    let h = hash32(key ^ (x as u32).wrapping_mul(0x27d4_eb2d) ^ (y as u32).wrapping_mul(0x1656_67b1));
    // Multiply-shift maps 32 random bits to 0..=max without a division.
    ((h as u64 * (max as u64 + 1)) >> 32) as u32
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.layers;
    let surface = world.surface.clone();
    let width = world.width();
    world.tiles_mut().par_chunks_mut(width).enumerate().for_each(|(y, row)| {
        for (x, (tile, &s)) in row.iter_mut().zip(&surface).enumerate() {
            let top = s.saturating_add(p.dirt_depth) as usize;
            if y < top || *tile != Tile::Dirt {
                continue;
            }
            let extra = match p.jitter {
                Jitter::PerTile if y <= top + p.dirt_jitter as usize => jitter(key, x, y, p.dirt_jitter),
                Jitter::PerTile => 0,
                Jitter::PerColumn => jitter(key, x, 0, p.dirt_jitter),
            };
            if y >= top + extra as usize {
                *tile = Tile::Stone;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    fn layered(jitter: Jitter) -> (World, Preset) {
        let mut preset = Preset { width: 300, height: 120, ..Default::default() };
        preset.layers.dirt_depth = 10;
        preset.layers.dirt_jitter = 4;
        preset.layers.jitter = jitter;
        preset.surface.base_height = 0.2;
        preset.surface.amplitude = 10.0;
        let mut w = World::new(300, 120, 5, preset.clone());
        super::super::surface::apply(&mut w, &preset, &mut crate::rng::pass_rng(5, "surface"));
        apply(&mut w, &preset, &mut crate::rng::pass_rng(5, "layers"));
        (w, preset)
    }

    /// Depth below the surface of the first stone in each column.
    fn dirt_depths(w: &World) -> Vec<usize> {
        (0..w.width())
            .map(|x| {
                let s = w.surface[x] as usize;
                (s..w.height()).find(|&y| w.tile(x, y) == Tile::Stone).unwrap() - s
            })
            .collect()
    }

    #[test]
    fn dirt_band_depth_is_within_jitter() {
        for mode in [Jitter::PerTile, Jitter::PerColumn] {
            let (w, _) = layered(mode);
            let depths = dirt_depths(&w);
            assert!(depths.iter().all(|d| (10..=14).contains(d)), "{mode:?}: {depths:?}");
            assert!(depths.contains(&10) && depths.contains(&14), "{mode:?} jitter unused");
            for x in 0..w.width() {
                let s = w.surface[x] as usize;
                assert!((s + 15..w.height()).all(|y| w.tile(x, y) == Tile::Stone));
            }
        }
    }

    #[test]
    fn per_column_jitter_is_a_clean_boundary() {
        let (w, _) = layered(Jitter::PerColumn);
        for (x, d) in dirt_depths(&w).into_iter().enumerate() {
            let s = w.surface[x] as usize;
            assert!((s..s + d).all(|y| w.tile(x, y) == Tile::Dirt));
        }
        let (w, _) = layered(Jitter::PerTile);
        let speckled = (0..w.width()).any(|x| {
            let s = w.surface[x] as usize;
            (s + 10..s + 15).any(|y| w.tile(x, y) == Tile::Dirt && w.tile(x, y - 1) == Tile::Stone)
        });
        assert!(speckled, "per-tile jitter should leave dirt under stone somewhere");
    }

    #[test]
    fn jitter_is_uniform_enough() {
        let mut seen = [0u32; 5];
        for i in 0..5000 {
            seen[jitter(9, i, i * 7, 4) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }
}
