//! Pass 2, **layers**: turns ground deeper than the dirt band into stone.
//!
//! Expects: dirt from `world.surface` down. Leaves: dirt for `dirt_depth + wander(x) +
//! jitter` tiles below the surface, stone below that, where `wander(x)` is slow 1D noise
//! in `0..=wander` (a line that wanders with x) and the jitter is `0..=dirt_jitter`, drawn
//! per tile (a speckled boundary) or per column (a stepped one). Then `blobs` per 100
//! columns: ragged ellipses of stone in the dirt band and of dirt in the stone above the
//! cavern layer, a few to a dozen tiles across.
//!
//! The depth layers themselves (surface, underground, cavern, underworld) are rows at fixed
//! shares of the height: [`Layers`], a pure function of the preset that the later passes,
//! the game's inspector and its backdrops all read.

use crate::base::noise::Basis;
use crate::base::noise::hash32;
use crate::base::rng::PassRng;
use crate::base::rng::hash3;
use crate::content::preset::{Jitter, LayerParams, Preset};
use crate::world::depth::Layers;
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

/// Salt of the dirt/stone line's wander key, hashed with the pass key.
pub const WANDER_SALT: u32 = 0x3c6e_f372;
/// Salt of the wander's second octave, xored with the wander key.
pub const WANDER_OCTAVE_SALT: u32 = 0x68e3_1da4;

/// The wander's two octaves of 1D noise at column `x`, in ±0.75.
pub fn wander_noise(basis: Basis, key: u32, x: usize, frequency: f32) -> f32 {
    basis.noise_1d(key, x as f32 * frequency)
        + 0.5 * basis.noise_1d(key ^ WANDER_OCTAVE_SALT, x as f32 * 2.0 * frequency)
}

/// Extra depth of the dirt/stone line in column `x`: `0..=wander` tiles, from 1D noise.
fn wander(key: u32, x: usize, p: &LayerParams) -> u32 {
    if p.wander == 0 {
        return 0;
    }
    let n = wander_noise(p.wander_basis, key, x, p.wander_frequency as f32);
    // Every basis' 1D range is ±0.5: scale to 0..=1.
    let t = (n / 1.5 + 0.5).clamp(0.0, 1.0) as f64;
    (t * p.wander as f64).round() as u32
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.layers;
    let jmax = p.dirt_jitter;
    let width = world.width();
    let wander_key = hash32(key ^ WANDER_SALT);
    // First row of the jitter zone per column (`surface + dirt_depth + wander`, saturating
    // as u32).
    let top: Vec<usize> = world
        .surface
        .par_iter()
        .enumerate()
        .with_min_len(256)
        .map(|(x, &s)| {
            s.saturating_add(p.dirt_depth)
                .saturating_add(wander(wander_key, x, p)) as usize
        })
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
    blobs(world, preset, &top, key);
}

/// `blobs` per 100 columns, each a ragged ellipse: stone where it lies in the dirt band,
/// dirt where it lies in the stone between the line and the cavern layer. Blob `i` is
/// drawn from `hash3(key, i, ..)` alone, so the blobs do not depend on one another's draws.
fn blobs(world: &mut World, preset: &Preset, line: &[usize], key: u32) {
    let p = &preset.layers;
    let (width, height) = (world.width(), world.height());
    let count = (p.blobs * width as f64 / 100.0).round() as u64;
    let cavern = Layers::of(preset).cavern;
    let key = key as u64 ^ 0xb10b_5000_0000;
    for i in 0..count {
        let r = hash3(key, i, 0);
        let x = (r % width as u64) as usize;
        let s = world.surface[x] as usize;
        let stone_line = line[x].min(height);
        // Half the blobs are stone in the dirt, half dirt in the stone.
        let in_dirt = r >> 63 == 1;
        let (lo, hi, from, to) = if in_dirt {
            (s + 3, stone_line, Tile::Dirt, Tile::Stone)
        } else {
            (
                stone_line,
                cavern.max(stone_line + 40),
                Tile::Stone,
                Tile::Dirt,
            )
        };
        let hi = hi.min(height);
        if lo >= hi {
            continue;
        }
        let y = lo + (r >> 20) as usize % (hi - lo);
        let r2 = hash3(key, i, 1);
        let rx = 3 + (r2 % 7) as i64;
        let ry = 2 + (r2 >> 8) as i64 % 4;
        // The blob's columns and rows clipped to the world, each with its term of the
        // ellipse's equation, worked out once.
        let xs: Vec<(usize, f64)> = (-rx..=rx)
            .filter(|dx| (0..width as i64).contains(&(x as i64 + dx)))
            .map(|dx| {
                (
                    (x as i64 + dx) as usize,
                    (dx * dx) as f64 / (rx * rx) as f64,
                )
            })
            .collect();
        for dy in -ry..=ry {
            let ty = y as i64 + dy;
            if ty < 0 || ty >= height as i64 {
                continue;
            }
            let (ty, ey) = (ty as usize, (dy * dy) as f64 / (ry * ry) as f64);
            let row = &mut world.tiles_mut()[ty * width..(ty + 1) * width];
            for &(tx, ex) in &xs {
                if row[tx] != from {
                    continue;
                }
                // A ragged edge: the ellipse's radius moves by up to a quarter per tile.
                let jag = (hash3(key, tx as u64, ty as u64) >> 40) as f64 / (1u64 << 24) as f64;
                if ex + ey <= 0.75 + 0.5 * jag {
                    row[tx] = to;
                }
            }
        }
    }
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
    use crate::content::preset::Preset;
    use crate::world::depth::Layer;

    fn layered(jitter: Jitter) -> (World, Preset) {
        let mut preset = Preset {
            width: 300,
            height: 120,
            ..Default::default()
        };
        preset.layers.dirt_depth = 10;
        preset.layers.dirt_jitter = 4;
        preset.layers.jitter = jitter;
        preset.layers.wander = 0;
        preset.layers.blobs = 0.0;
        preset.surface.base_height = 0.2;
        preset.surface.amplitude = 10.0;
        let mut w = World::new(300, 120, 5, preset.clone());
        super::super::surface::apply(
            &mut w,
            &preset,
            &mut crate::base::rng::pass_rng(5, "surface"),
        );
        apply(
            &mut w,
            &preset,
            &mut crate::base::rng::pass_rng(5, "layers"),
        );
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
    fn layers_are_rows_at_shares_of_the_height() {
        let p = Preset::default();
        let l = Layers::new(&p.layers, 1000);
        assert_eq!((l.underground, l.cavern, l.underworld), (350, 450, 920));
        assert_eq!(l.at(99, 100), Layer::Sky);
        assert_eq!(l.at(100, 100), Layer::Surface);
        assert_eq!(l.at(349, 100), Layer::Surface);
        assert_eq!(l.at(350, 100), Layer::Underground);
        assert_eq!(l.at(450, 100), Layer::Cavern);
        assert_eq!(l.at(919, 100), Layer::Cavern);
        assert_eq!(l.at(920, 100), Layer::Underworld);
        // A column whose surface lies below the underground row is ground from there on.
        assert_eq!(l.at(400, 420), Layer::Sky);
        assert_eq!(l.at(420, 420), Layer::Underground);
        assert!(l.cavern_depth(450) == 0.0 && l.cavern_depth(920) == 1.0);
        assert!((l.cavern_depth(685) - 0.5).abs() < 1e-9);
    }

    /// A world of the default preset's surface and layers only, 600 wide.
    fn wandering(wander: u32, blobs: f64) -> World {
        let mut preset = Preset {
            width: 600,
            height: 300,
            ..Default::default()
        };
        preset.layers.wander = wander;
        preset.layers.blobs = blobs;
        let mut w = World::new(600, 300, 8, preset.clone());
        super::super::surface::apply(
            &mut w,
            &preset,
            &mut crate::base::rng::pass_rng(8, "surface"),
        );
        apply(
            &mut w,
            &preset,
            &mut crate::base::rng::pass_rng(8, "layers"),
        );
        w
    }

    #[test]
    fn the_stone_line_wanders_within_its_range() {
        let p = LayerParams::default();
        let depths = dirt_depths(&wandering(60, 0.0));
        let (lo, hi) = (
            p.dirt_depth as usize,
            (p.dirt_depth + 60 + p.dirt_jitter) as usize,
        );
        assert!(depths.iter().all(|d| (lo..=hi).contains(d)), "{depths:?}");
        let (min, max) = (depths.iter().min().unwrap(), depths.iter().max().unwrap());
        assert!(max - min > 20, "the line barely moves: {min}..{max}");
        let level = dirt_depths(&wandering(0, 0.0));
        assert!(
            level
                .iter()
                .all(|d| (lo..=lo + p.dirt_jitter as usize).contains(d))
        );
    }

    #[test]
    fn blobs_put_stone_in_the_dirt_and_dirt_in_the_stone() {
        let (plain, blobby) = (wandering(60, 0.0), wandering(60, 8.0));
        let (mut stone_in_dirt, mut dirt_in_stone) = (0, 0);
        for y in 0..plain.height() {
            for x in 0..plain.width() {
                match (plain.tile(x, y), blobby.tile(x, y)) {
                    (Tile::Dirt, Tile::Stone) => stone_in_dirt += 1,
                    (Tile::Stone, Tile::Dirt) => dirt_in_stone += 1,
                    (a, b) => assert_eq!(a, b, "({x}, {y})"),
                }
            }
        }
        // 48 blobs of about 10 to 150 tiles each, half of each kind.
        assert!(
            stone_in_dirt > 300 && dirt_in_stone > 300,
            "{stone_in_dirt} {dirt_in_stone}"
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
