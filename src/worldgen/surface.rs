//! Pass 1, **surface**: picks each column's surface row from fBm of 1D Perlin noise and
//! makes everything from the surface down dirt, everything above it air.
//!
//! Expects: any world. Leaves: `world.surface` set, air above it, dirt from it down.

use super::noise::Fbm1;
use crate::preset::Preset;
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// Surface row of every column: `base_height * height + amplitude * fbm(x * frequency)`,
/// rounded and kept inside `1..height` so every column has sky and ground.
pub fn heights(width: usize, height: usize, preset: &Preset, key: u32) -> Vec<u32> {
    let p = &preset.surface;
    let fbm = Fbm1 {
        key,
        octaves: p.octaves,
        persistence: p.persistence as f32,
        lacunarity: p.lacunarity as f32,
    };
    let base = p.base_height * height as f64;
    let max = height.saturating_sub(1).max(1) as f64;
    (0..width)
        .map(|x| {
            let n = fbm.sample((x as f64 * p.frequency) as f32) as f64;
            (base + p.amplitude * n).round().clamp(1.0, max) as u32
        })
        .collect()
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let surface = heights(world.width(), world.height(), preset, key);
    let width = world.width();
    // Rows above the highest surface are all air, rows below the lowest all dirt: plain
    // fills. Only the band between needs a per-column compare (branch-free, vectorised).
    let lo = surface.iter().copied().min().unwrap_or(0) as usize;
    let hi = surface.iter().copied().max().unwrap_or(0) as usize;
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .with_min_len(8)
        .enumerate()
        .for_each(|(y, row)| {
            if y < lo {
                row.fill(Tile::Air);
            } else if y >= hi {
                row.fill(Tile::Dirt);
            } else {
                ground_row(row, &surface, y as u32);
            }
        });
    world.surface = surface;
}

/// Dirt where the row is at or below the column's surface, air above.
#[inline]
fn ground_row(row: &mut [Tile], surface: &[u32], y: u32) {
    for (tile, &s) in row.iter_mut().zip(surface) {
        *tile = if y >= s { Tile::Dirt } else { Tile::Air };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_is_continuous_and_near_base() {
        let preset =
            crate::preset::parse(include_str!("../../config/presets/classic.ron"), "classic")
                .unwrap();
        let h = heights(1000, 500, &preset, 42);
        let base = 500.0 / 3.0;
        for x in 1..h.len() {
            assert!(
                h[x].abs_diff(h[x - 1]) <= 2,
                "jump at {x}: {} -> {}",
                h[x - 1],
                h[x]
            );
        }
        for &y in &h {
            assert!(
                (y as f64 - base).abs() <= preset.surface.amplitude + 1.0,
                "{y}"
            );
        }
        let spread = h.iter().max().unwrap() - h.iter().min().unwrap();
        assert!(spread >= 8, "surface too flat: {spread}");
    }

    #[test]
    fn dirt_from_surface_down_air_above() {
        let preset = crate::preset::Preset {
            width: 64,
            height: 40,
            ..Default::default()
        };
        let mut w = World::new(64, 40, 1, preset.clone());
        apply(&mut w, &preset, &mut crate::rng::pass_rng(1, "surface"));
        for x in 0..64 {
            let s = w.surface[x] as usize;
            assert!((1..40).contains(&s));
            assert!((0..s).all(|y| w.tile(x, y) == Tile::Air));
            assert!((s..40).all(|y| w.tile(x, y) == Tile::Dirt));
        }
    }

    #[test]
    fn extreme_amplitude_stays_inside_the_world() {
        let mut preset = crate::preset::Preset {
            width: 200,
            height: 16,
            ..Default::default()
        };
        preset.surface.amplitude = 4000.0;
        for &y in &heights(200, 16, &preset, 3) {
            assert!((1..16).contains(&y));
        }
    }
}
