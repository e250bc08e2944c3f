//! Pass **lodes**: ore veins laid by random-walk runners, as Terraria's ore pass lays its
//! deposits, one ore of each pair per world.
//!
//! Expects: the ground, caves and tunnels (veins only turn ground into ore: dirt, stone
//! and the biomes' stone, never air, liquid or what grows on the surface). Leaves: ore.
//!
//! Each row of `lodes.table` is one ore, or a pair: the seed draws whether this world has
//! the `tile` or its `twin` ([`chosen`]), so a world has copper or tin, never both. A row
//! lays `per_million` veins per million tiles of ground at the top of its layers, rising
//! linearly to `deep_per_million` at their bottom; a vein starts at a random spot and walks:
//! each step lays a blob (a diamond, its rim ragged tile by tile) `size` tiles across,
//! smaller at each step, then moves by a velocity that turns a little at random. Deeper
//! veins are larger (`size` to `deep_size`, `steps` to `deep_steps`). Rows are laid in
//! order, a later row's ore over an earlier one's.
//!
//! Vein `i` of row `r` draws everything from `hash3(key, r << 32 | i, n)`: the veins are
//! walked in parallel into lists of tiles, laid in order on one thread.

use crate::base::rng::{PassRng, hash3, pass_rng};
use crate::content::preset::{Lode, Preset};
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// A uniform number in `[0, 1)` from the top 53 bits of a hash.
#[inline]
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Draw salt of a row's choice between its tile and its twin.
const PAIR: u64 = 0x5041_4952;

/// Ground a vein may turn into ore.
#[inline]
pub fn is_ground(t: Tile) -> bool {
    matches!(
        t,
        Tile::Dirt
            | Tile::Stone
            | Tile::Sandstone
            | Tile::HardenedSand
            | Tile::Ice
            | Tile::Mud
            | Tile::Snow
    )
}

/// The ore each row of the table lays in the world made from `preset` and `seed`: its
/// tile or its twin.
pub fn chosen(preset: &Preset, seed: u64) -> Vec<Tile> {
    let key = pass_rng(seed, "lodes").next_u64();
    chosen_with(&preset.lodes.table, key)
}

fn chosen_with(table: &[Lode], key: u64) -> Vec<Tile> {
    table
        .iter()
        .enumerate()
        .map(|(r, l)| match l.twin {
            Some(twin) if hash3(key, r as u64, PAIR) & 1 == 1 => twin,
            _ => l.tile,
        })
        .collect()
}

/// Where `u` in `[0, 1)` falls in a band whose density rises linearly from `a` at its
/// top (0) to `b` at its bottom (1): the inverse of the density's distribution.
fn depth_share(u: f64, a: f64, b: f64) -> f64 {
    if (b - a).abs() < 1e-9 * (a + b).max(1e-9) {
        return u;
    }
    let t = (-a + (a * a + (b - a) * u * (a + b)).max(0.0).sqrt()) / (b - a);
    t.clamp(0.0, 1.0)
}

/// The tiles (as `y * width + x`) one vein covers: a runner from `(x, y)`, blobs `size`
/// across shrinking over `steps` steps.
fn run(
    key: u64,
    salt: u64,
    (x, y): (f64, f64),
    size: f64,
    steps: u32,
    dims: (usize, usize),
) -> Vec<u32> {
    let (width, height) = dims;
    let mut out = Vec::new();
    let draw = |n: u64| unit(hash3(key, salt, n)) * 2.0 - 1.0;
    let (mut x, mut y) = (x, y);
    let (mut vx, mut vy) = (draw(0), draw(1) * 0.6);
    for s in 0..steps {
        let rad = 0.5 * size * (steps - s) as f64 / steps as f64 + 0.5;
        let (y0, y1) = (
            (y - rad).floor().max(0.0),
            (y + rad).ceil().min(height as f64 - 1.0),
        );
        let (x0, x1) = (
            (x - rad).floor().max(0.0),
            (x + rad).ceil().min(width as f64 - 1.0),
        );
        let mut ty = y0;
        while ty <= y1 {
            let mut tx = x0;
            while tx <= x1 {
                let d = (tx + 0.5 - x).abs() + (ty + 0.5 - y).abs();
                // A ragged rim: each tile's own reach, 80% to 120% of the radius (drawn
                // only on the rim: within 80% every tile is ore whatever it draws).
                let inside = d < rad * 0.8
                    || d < rad * (0.8 + 0.4 * unit(hash3(key ^ salt, tx as u64, ty as u64)));
                if inside {
                    out.push((ty as usize * width + tx as usize) as u32);
                }
                tx += 1.0;
            }
            ty += 1.0;
        }
        x += vx;
        y += vy;
        vx = (vx + draw(2 + 2 * s as u64) * 0.5).clamp(-1.0, 1.0);
        vy = (vy + draw(3 + 2 * s as u64) * 0.5).clamp(-0.8, 0.8);
    }
    out
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let p = &preset.lodes;
    if !p.enabled || p.table.is_empty() {
        return;
    }
    let (width, height) = (world.width(), world.height());
    let layers = Layers::of(preset);
    let ores = chosen_with(&p.table, key);
    let surface = std::mem::take(&mut world.surface);
    for (r, (lode, &ore)) in p.table.iter().zip(&ores).enumerate() {
        let (first, end) = layers.rows(lode.from, lode.to);
        let end = end.min(height);
        // Each column's band: from its top (under the surface) to the layers' end.
        let top: Vec<usize> = surface
            .iter()
            .map(|&s| first.max(s as usize + p.min_depth as usize))
            .collect();
        let ground: f64 = top.iter().map(|&t| end.saturating_sub(t) as f64).sum();
        let (a, b) = (lode.per_million, lode.deep_per_million);
        let veins = ((a + b) / 2.0 * ground / 1e6).round() as u64;
        let salt = (r as u64) << 32;
        let tiles: Vec<u32> = (0..veins)
            .into_par_iter()
            .flat_map_iter(|i| {
                let s = salt | i;
                let x = unit(hash3(key, s, u64::MAX)) * width as f64;
                let t0 = top[(x as usize).min(width - 1)];
                if t0 >= end {
                    return Vec::new();
                }
                let t = depth_share(unit(hash3(key, s, u64::MAX - 1)), a, b);
                let y = t0 as f64 + t * (end - t0) as f64;
                let size = lode.size + (lode.deep_size - lode.size) * t;
                let steps = (lode.steps as f64 + (lode.deep_steps as f64 - lode.steps as f64) * t)
                    .round()
                    .max(1.0) as u32;
                run(key, s, (x, y), size, steps, (width, height))
            })
            .collect();
        let cells = world.tiles_mut();
        for i in tiles {
            let (x, y) = (i as usize % width, i as usize / width);
            if y >= top[x] && y < end && is_ground(cells[i as usize]) {
                cells[i as usize] = ore;
            }
        }
    }
    world.surface = surface;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn depth_share_follows_a_rising_density() {
        // Flat: uniform. Rising: more of the draws deep down.
        assert_eq!(depth_share(0.3, 5.0, 5.0), 0.3);
        assert!((depth_share(1.0, 1.0, 4.0) - 1.0).abs() < 1e-12);
        assert_eq!(depth_share(0.0, 1.0, 4.0), 0.0);
        let deep = (0..1000)
            .filter(|&i| depth_share(i as f64 / 1000.0, 1.0, 4.0) > 0.5)
            .count();
        // Density 1 + 3t: the bottom half holds (0.5 + 1.125) / 2.5 = 65% of it.
        assert!((630..=670).contains(&deep), "{deep}");
    }

    /// The world made from `p` and `seed` as the lodes pass leaves it.
    fn after_lodes(p: &Preset, seed: u64) -> World {
        let never = std::sync::atomic::AtomicBool::new(false);
        let last = crate::worldgen::pass_named("lodes").unwrap();
        crate::worldgen::generate_until(p, seed, last, &mut |_| {}, &never)
            .unwrap()
            .0
    }

    #[test]
    fn copper_or_tin_lies_near_the_spawn_in_most_seeds() {
        // Within 40 columns and 60 rows of the spawn point (the centre column's surface):
        // what a new player finds digging around where they start.
        let p = Preset {
            width: 1000,
            height: 700,
            ..Preset::default()
        };
        let near = |seed| {
            let w = after_lodes(&p, seed);
            let (cx, cy) = (w.width() / 2, w.surface[w.width() / 2] as usize);
            (cx - 40..=cx + 40).any(|x| {
                (cy.saturating_sub(60)..=cy + 60)
                    .any(|y| matches!(w.tile(x, y), Tile::CopperOre | Tile::TinOre))
            })
        };
        let hits = (0..10).filter(|&s| near(s)).count();
        assert!(
            hits >= 8,
            "copper or tin near the spawn in {hits} of 10 seeds"
        );
    }

    #[test]
    fn iron_or_lead_is_at_least_twice_as_dense_deep_down() {
        // Share of the ground that is iron or lead, 10-25% of the way from each column's
        // surface to the underworld against the deepest quarter of that.
        let p = Preset {
            width: 1400,
            height: 900,
            ..Preset::default()
        };
        let layers = Layers::of(&p);
        let (mut shallow, mut deep) = ([0u64; 2], [0u64; 2]);
        for seed in 0..3 {
            let w = after_lodes(&p, seed);
            for x in 0..w.width() {
                let s = w.surface[x] as usize;
                let u = layers.underworld;
                if s + 20 >= u {
                    continue;
                }
                for y in s..u {
                    let f = (y - s) as f64 / (u - s) as f64;
                    let band = if (0.1..0.25).contains(&f) {
                        &mut shallow
                    } else if f >= 0.75 {
                        &mut deep
                    } else {
                        continue;
                    };
                    let t = w.tile(x, y);
                    band[0] += t.is_solid() as u64;
                    band[1] += matches!(t, Tile::IronOre | Tile::LeadOre) as u64;
                }
            }
        }
        let share = |b: [u64; 2]| b[1] as f64 / b[0].max(1) as f64;
        let ratio = share(deep) / share(shallow);
        assert!(
            share(shallow) > 0.0 && ratio >= 2.0,
            "iron or lead {:.4} of the ground 10-25% down, {:.4} in the deepest quarter: {ratio:.2}x",
            share(shallow),
            share(deep)
        );
    }

    #[test]
    fn a_world_has_one_ore_of_each_pair_and_seeds_differ() {
        let p = Preset {
            width: 600,
            height: 300,
            ..Preset::default()
        };
        let mut seen = std::collections::HashSet::new();
        for seed in 0..6 {
            let (w, _) = generate(&p, seed);
            let counts = w.counts();
            let ores = chosen(&p, seed);
            for (lode, ore) in p.lodes.table.iter().zip(&ores) {
                let twin = lode.twin.unwrap();
                let other = if *ore == lode.tile { twin } else { lode.tile };
                assert_eq!(
                    counts[other as usize], 0,
                    "seed {seed}: {other:?} beside {ore:?}"
                );
                assert!(counts[*ore as usize] > 0, "seed {seed}: no {ore:?}");
            }
            seen.extend(ores);
        }
        assert!(seen.len() > 4, "every seed drew the same ores: {seen:?}");
    }
}
