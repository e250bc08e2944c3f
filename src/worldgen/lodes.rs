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
//! order; ore is no ground, so where veins of two rows cross the earlier row's stays.
//!
//! Vein `i` of row `r` draws everything from `hash3(key, r << 32 | i, n)`: the veins are
//! walked in parallel into lists of tiles; as a tile only ever turns from ground into its row's
//! ore, the world is the same whatever order they are laid in.

use crate::base::noise::{ceil_i64, floor_i64};
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

/// One blob of a vein: its centre and the reach of its rim, in tiles.
#[derive(Clone, Copy)]
struct Blob {
    x: f64,
    y: f64,
    rad: f64,
}

/// A vein's blobs: a runner from `(x, y)`, blobs `size` across shrinking over `steps`
/// steps, its velocity turning a little at random each step.
fn walk(key: u64, salt: u64, (x, y): (f64, f64), size: f64, steps: u32, out: &mut Vec<Blob>) {
    out.clear();
    let draw = |n: u64| unit(hash3(key, salt, n)) * 2.0 - 1.0;
    let (mut x, mut y) = (x, y);
    let (mut vx, mut vy) = (draw(0), draw(1) * 0.6);
    for s in 0..steps {
        let rad = 0.5 * size * (steps - s) as f64 / steps as f64 + 0.5;
        out.push(Blob { x, y, rad });
        x += vx;
        y += vy;
        vx = (vx + draw(2 + 2 * s as u64) * 0.5).clamp(-1.0, 1.0);
        vy = (vy + draw(3 + 2 * s as u64) * 0.5).clamp(-0.8, 0.8);
    }
}

/// Where one vein may lay ore: the world's size, each column's top row and the row the
/// vein's layers end at.
struct Band<'a> {
    width: usize,
    height: usize,
    top: &'a [usize],
    end: usize,
}

/// A vein's own scratch: its blobs, and a bit per tile of its bounding box.
#[derive(Default)]
struct Scratch {
    blobs: Vec<Blob>,
    bits: Vec<u64>,
}

/// Sets bits `from..=to` of a row of words.
fn set_run(line: &mut [u64], from: usize, to: usize) {
    for (k, word) in line
        .iter_mut()
        .enumerate()
        .take(to / 64 + 1)
        .skip(from / 64)
    {
        let lo = from.max(k * 64) - k * 64;
        let hi = to.min(k * 64 + 63) - k * 64;
        *word |= (!0u64 >> (63 - hi)) & (!0u64 << lo);
    }
}

/// The tiles (as `y * width + x`, each once, row by row) one vein covers within its band:
/// the blobs of [`walk`], each a diamond whose rim is ragged tile by tile.
fn run(
    key: u64,
    salt: u64,
    start: (f64, f64),
    size: f64,
    steps: u32,
    band: &Band,
    scratch: &mut Scratch,
) -> Vec<u32> {
    let Scratch { blobs, bits } = scratch;
    walk(key, salt, start, size, steps, blobs);
    // Each blob's rows and columns, clamped to the world.
    let (w, h) = (band.width as f64, band.height as f64);
    let bounds = |b: &Blob| {
        (
            (floor_i64(b.x - b.rad) as f64).max(0.0),
            (ceil_i64(b.x + b.rad) as f64).min(w - 1.0),
            (floor_i64(b.y - b.rad) as f64).max(0.0),
            (ceil_i64(b.y + b.rad) as f64).min(h - 1.0),
        )
    };
    let (mut bx0, mut bx1, mut by0, mut by1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for b in blobs.iter() {
        let (x0, x1, y0, y1) = bounds(b);
        (bx0, bx1, by0, by1) = (bx0.min(x0), bx1.max(x1), by0.min(y0), by1.max(y1));
    }
    if bx0 > bx1 || by0 > by1 {
        return Vec::new();
    }
    let (ox, oy) = (bx0 as usize, by0 as usize);
    let wpr = (bx1 as usize - ox) / 64 + 1;
    let rows = by1 as usize - oy + 1;
    bits.clear();
    bits.resize(wpr * rows, 0);
    for b in blobs.iter() {
        let (x0, x1, y0, y1) = bounds(b);
        let (x0, x1) = (x0 as i64, x1 as i64);
        // A ragged rim: each tile's own reach, 80% to 120% of the radius (drawn only on
        // the rim: within 80% every tile is ore, from 120% none, whatever it draws).
        let inner = b.rad * 0.8;
        let outer = b.rad * (0.8 + 0.4);
        for ty in y0 as usize..=y1 as usize {
            let dy = (ty as f64 + 0.5 - b.y).abs();
            let reach = outer - dy;
            if reach <= 0.0 || ty >= band.end {
                continue;
            }
            let row = ty - oy;
            let d = |tx: i64| (tx as f64 + 0.5 - b.x).abs() + dy;
            // The columns the rim can reach (a tile of margin for rounding).
            let lo = (floor_i64(b.x - 0.5 - reach) - 1).max(x0);
            let hi = (ceil_i64(b.x - 0.5 + reach) + 1).min(x1);
            if lo > hi {
                continue;
            }
            // The tiles within 80% of the radius, `a..=z` (empty when a > z): the
            // distance falls then rises along the row, so they are one run, found from
            // an estimate by the exact test.
            let r = inner - dy;
            let mut a = (ceil_i64(b.x - 0.5 - r) - 1).max(lo);
            while a > lo && d(a - 1) < inner {
                a -= 1;
            }
            while a <= hi && d(a) >= inner {
                a += 1;
            }
            let mut z = a - 1;
            if a <= hi {
                // d(a) < inner here: the run's end lies from `a` on.
                z = (floor_i64(b.x - 0.5 + r) + 1).clamp(a, hi);
                while d(z) >= inner {
                    z -= 1;
                }
                while z < hi && d(z + 1) < inner {
                    z += 1;
                }
            }
            let line = &mut bits[row * wpr..(row + 1) * wpr];
            if a <= z {
                set_run(line, a as usize - ox, z as usize - ox);
            }
            let rim = (lo..a).chain(z + 1..=hi);
            for tx in rim {
                let j = tx as usize - ox;
                let word = &mut line[j / 64];
                if *word >> (j % 64) & 1 == 1 {
                    continue;
                }
                let d = d(tx);
                if d < outer
                    && d < b.rad * (0.8 + 0.4 * unit(hash3(key ^ salt, tx as u64, ty as u64)))
                {
                    *word |= 1 << (j % 64);
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, row) in bits.chunks_exact(wpr).enumerate() {
        let y = oy + i;
        for (k, &word) in row.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let x = ox + k * 64 + m.trailing_zeros() as usize;
                if y >= band.top[x] {
                    out.push((y * band.width + x) as u32);
                }
                m &= m - 1;
            }
        }
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
        let band = Band {
            width,
            height,
            top: &top,
            end,
        };
        let veins: Vec<Vec<u32>> = (0..veins)
            .into_par_iter()
            .map_init(Scratch::default, |scratch, i| {
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
                run(key, s, (x, y), size, steps, &band, scratch)
            })
            .collect();
        // Ore never turns into ore again: where veins of two rows cross, the earlier row's
        // stays, whatever order the tiles are laid in.
        let cells = world.tiles_mut();
        for i in veins.iter().flatten() {
            let c = &mut cells[*i as usize];
            if is_ground(*c) {
                *c = ore;
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
        let content = crate::content::config::Content::builtin();
        crate::worldgen::generate_until(p, seed, &content, last, &mut |_| {}, &never)
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
