//! Pass 1, **surface**: picks each column's surface row and makes everything from the
//! surface down dirt, everything above it air.
//!
//! The row is a sum of shapes, each off when its preset field is 0: rolling hills (fBm of
//! 1D Perlin noise, `amplitude`), mountains and valleys hundreds of columns across (a
//! slower fBm, `relief`), plateaus and cliffs (the height pulled towards terrace steps
//! where a slow noise says so, `terrace_height`), and at both ends the ocean basins (the
//! ground sinks below sea level towards the edges and rises to a beach, `ocean.width`).
//!
//! Expects: any world. Leaves: `world.surface` set, air above it, dirt from it down.

use super::biomes::BiomeMap;
use super::ocean::Oceans;
use crate::base::noise::{Basis, Fbm1, hash32};
use crate::base::rng::PassRng;
use crate::content::preset::{Biome, Preset};
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// Wavelength of the noise that decides where the ground is terraced, in columns.
pub const TERRACE_REGION: f64 = 700.0;
/// Salt of the relief's key (mountains and valleys), hashed with the pass key.
pub const RELIEF_SALT: u32 = 0x5EED_0001;
/// Salt of the terrace noise's key, hashed with the pass key.
pub const TERRACE_SALT: u32 = 0x7E88_ACE5;
/// Salt of the dunes' key, hashed with the pass key.
pub const DUNE_SALT: u32 = 0xD0E5;
/// Octaves of the hills that terraces shape; the rest is detail on top.
const TERRACED_OCTAVES: u32 = 2;

/// The relief's fBm (mountains and valleys) in `basis`, from the pass key `key`.
pub fn relief(basis: Basis, key: u32) -> Fbm1 {
    Fbm1 {
        basis,
        key: hash32(key ^ RELIEF_SALT),
        octaves: 3,
        persistence: 0.45,
        lacunarity: 2.3,
    }
}

/// Surface row of every column: `base_height * height` plus the shapes above, rounded and
/// kept inside `1..height` so every column has sky and ground.
pub fn heights(width: usize, height: usize, preset: &Preset, key: u32) -> Vec<u32> {
    let p = &preset.surface;
    let fbm = Fbm1 {
        basis: p.basis,
        key,
        octaves: p.octaves,
        persistence: p.persistence as f32,
        lacunarity: p.lacunarity as f32,
    };
    let relief = relief(p.relief_basis, key);
    let relief_at = |x: usize| {
        if p.relief > 0.0 {
            p.relief * relief.sample((x as f64 * p.relief_frequency) as f32) as f64
        } else {
            0.0
        }
    };
    let terrace_key = hash32(key ^ TERRACE_SALT);
    let oceans = Oceans::new(width, height, &preset.ocean);
    let base = p.base_height * height as f64;
    let max = height.saturating_sub(1).max(1) as f64;
    // Each column on its own: columns in parallel.
    (0..width)
        .into_par_iter()
        .with_min_len(256)
        .map(|x| {
            let at = (x as f64 * p.frequency) as f32;
            let h = if p.terrace_height > 0.0 {
                // Terraces shape the slow part of the ground (relief and the first
                // octaves); the finer octaves then roughen plateaus and cliffs alike.
                // 1D noise is in ±0.5 in every basis: a bit over half of the world is terraced, fully
                // so in its middle, fading at the edges of each terraced region.
                let (coarse, fine) = fbm.sample_split(at, TERRACED_OCTAVES);
                let slow = p.amplitude * coarse as f64 + relief_at(x);
                let n = p
                    .terrace_basis
                    .noise_1d(terrace_key, (x as f64 / TERRACE_REGION) as f32)
                    as f64;
                let m = ((n + 0.2) * 5.0).clamp(0.0, 1.0);
                let shelf =
                    slow + m * (terrace(slow, p.terrace_height, p.terrace_sharpness) - slow);
                shelf + p.amplitude * fine as f64
            } else {
                p.amplitude * fbm.sample(at) as f64 + relief_at(x)
            };
            let y = oceans.map_or(base + h, |o| o.shape(x, base + h));
            y.round().clamp(1.0, max) as u32
        })
        .collect()
}

/// Wavelength of desert dunes, in columns.
pub const DUNE_WAVE: f32 = 70.0;

/// Raises dunes on the desert's ground: ridged noise (sharp crests, wide troughs) up to
/// `biomes.dune_height` tall, fading in over the border of each desert span.
fn dunes(surface: &mut [u32], preset: &Preset, seed: u64, key: u32) {
    let height = preset.biomes.dune_height;
    if height <= 0.0 || !preset.biomes.spans.iter().any(|s| s.biome == Biome::Desert) {
        return;
    }
    let map = BiomeMap::new(preset, seed);
    let basis = preset.biomes.dune_basis;
    for (x, s) in surface.iter_mut().enumerate() {
        let w = map.weight(x, Biome::Desert);
        if w > 0.0 {
            let ridge = 1.0 - (2.0 * basis.noise_1d(key, x as f32 / DUNE_WAVE)).abs();
            let lift = (height * w * (ridge * ridge) as f64).round() as u32;
            *s = s.saturating_sub(lift).max(1);
        }
    }
}

/// `h` pulled onto steps `step` tall: within each step the height follows
/// `u^k / (u^k + (1-u)^k)`, flat near the step's levels and steep (a cliff) between.
fn terrace(h: f64, step: f64, k: f64) -> f64 {
    let q = h / step;
    let f = q.floor();
    let u = q - f;
    let (a, b) = (u.powf(k), (1.0 - u).powf(k));
    step * (f + a / (a + b))
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let mut surface = heights(world.width(), world.height(), preset, key);
    dunes(&mut surface, preset, world.seed, hash32(key ^ DUNE_SALT));
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
                // Sky. A new world's rows are air already: leaving them unwritten leaves
                // their pages unmapped, so the kernel need not clear them.
                if row.iter().any(|&t| t != Tile::Air) {
                    row.fill(Tile::Air);
                }
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
        let preset = crate::content::preset::parse(
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/presets/classic.ron"
            )),
            "classic",
        )
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
        let preset = crate::content::preset::Preset {
            width: 64,
            height: 40,
            ..Default::default()
        };
        let mut w = World::new(64, 40, 1, preset.clone());
        apply(
            &mut w,
            &preset,
            &mut crate::base::rng::pass_rng(1, "surface"),
        );
        for x in 0..64 {
            let s = w.surface[x] as usize;
            assert!((1..40).contains(&s));
            assert!((0..s).all(|y| w.tile(x, y) == Tile::Air));
            assert!((s..40).all(|y| w.tile(x, y) == Tile::Dirt));
        }
    }

    #[test]
    fn default_relief_has_mountains_cliffs_and_stays_walkable() {
        let p = Preset::default();
        let (width, height) = (p.width as usize, p.height as usize);
        for key in 1..=10 {
            let h = heights(width, height, &p, key);
            // Peak to valley within some 500-column window.
            let relief = (0..width - 500)
                .step_by(50)
                .map(|a| h[a..a + 500].iter().max().unwrap() - h[a..a + 500].iter().min().unwrap())
                .max()
                .unwrap();
            assert!(relief >= 100, "key {key}: relief {relief}");
            let steps: Vec<u32> = h.windows(2).map(|s| s[0].abs_diff(s[1])).collect();
            let share = |f: &dyn Fn(u32) -> bool| {
                steps.iter().filter(|&&s| f(s)).count() as f64 / steps.len() as f64
            };
            assert!(share(&|s| s >= 3) >= 0.02, "key {key}: too few cliffs");
            // A jump clears 5 tiles; nearly every step is a walk or a hop.
            assert!(share(&|s| s <= 1) >= 0.9, "key {key}: too rough");
            assert!(share(&|s| s > 5) <= 0.001, "key {key}: unclimbable");
        }
    }

    #[test]
    fn oceans_dip_below_sea_level_at_both_ends_and_rise_to_a_beach() {
        let p = Preset::default();
        let (width, height) = (p.width as usize, p.height as usize);
        let o = Oceans::new(width, height, &p.ocean).unwrap();
        let h = heights(width, height, &p, 7);
        let sea = o.sea;
        assert!(h[0] as f64 > sea + 40.0 && h[width - 1] as f64 > sea + 40.0);
        let cols = o.columns as usize;
        // The beach at the end of the sea's columns is above sea level.
        assert!((h[cols] as f64) < sea && (h[width - 1 - cols] as f64) < sea);
    }

    #[test]
    fn extreme_amplitude_stays_inside_the_world() {
        let mut preset = crate::content::preset::Preset {
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
