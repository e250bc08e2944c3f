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
    let h =
        hash32(key ^ (x as u32).wrapping_mul(0x27d4_eb2d) ^ (y as u32).wrapping_mul(0x1656_67b1));
    // Multiply-shift maps 32 random bits to 0..=max without a division.
    ((h as u64 * (max as u64 + 1)) >> 32) as u32
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.layers;
    let jmax = p.dirt_jitter;
    let width = world.width();
    // First row of the jitter zone per column (`surface + dirt_depth`, saturating as u32).
    let top: Vec<usize> = world
        .surface
        .iter()
        .map(|&s| s.saturating_add(p.dirt_depth) as usize)
        .collect();
    // Per-column mode: the first stone row of each column, drawn once.
    let stone_from: Vec<usize> = match p.jitter {
        Jitter::PerColumn => top
            .iter()
            .enumerate()
            .map(|(x, &t)| t + jitter(key, x, 0, jmax) as usize)
            .collect(),
        Jitter::PerTile => Vec::new(),
    };
    // Rows above `lo` keep their dirt; from `hi` on every dirt tile is stone. Only rows in
    // between look at single columns.
    let (lo, hi) = match p.jitter {
        Jitter::PerColumn => (min(&stone_from), max(&stone_from)),
        Jitter::PerTile => (min(&top), max(&top).saturating_add(jmax as usize + 1)),
    };
    let per_tile = p.jitter == Jitter::PerTile;
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .with_min_len(8)
        .enumerate()
        .skip(lo)
        .for_each(|(y, row)| {
            if y >= hi {
                for t in row.iter_mut() {
                    *t = if *t == Tile::Dirt { Tile::Stone } else { *t };
                }
            } else if per_tile {
                for (x, (tile, &t)) in row.iter_mut().zip(&top).enumerate() {
                    // Stone from `top + jitter(x, y)` down; below `top + jmax` always stone.
                    if *tile == Tile::Dirt
                        && y >= t
                        && (y > t + jmax as usize || y >= t + jitter(key, x, y, jmax) as usize)
                    {
                        *tile = Tile::Stone;
                    }
                }
            } else {
                for (tile, &s) in row.iter_mut().zip(&stone_from) {
                    *tile = if *tile == Tile::Dirt && y >= s {
                        Tile::Stone
                    } else {
                        *tile
                    };
                }
            }
        });
}

fn min(v: &[usize]) -> usize {
    v.iter().copied().min().unwrap_or(0)
}

fn max(v: &[usize]) -> usize {
    v.iter().copied().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preset::Preset;

    fn layered(jitter: Jitter) -> (World, Preset) {
        let mut preset = Preset {
            width: 300,
            height: 120,
            ..Default::default()
        };
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
                (s..w.height())
                    .find(|&y| w.tile(x, y) == Tile::Stone)
                    .unwrap()
                    - s
            })
            .collect()
    }

    #[test]
    fn dirt_band_depth_is_within_jitter() {
        for mode in [Jitter::PerTile, Jitter::PerColumn] {
            let (w, _) = layered(mode);
            let depths = dirt_depths(&w);
            assert!(
                depths.iter().all(|d| (10..=14).contains(d)),
                "{mode:?}: {depths:?}"
            );
            assert!(
                depths.contains(&10) && depths.contains(&14),
                "{mode:?} jitter unused"
            );
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
        assert!(
            speckled,
            "per-tile jitter should leave dirt under stone somewhere"
        );
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
