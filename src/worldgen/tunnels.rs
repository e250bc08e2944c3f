//! Pass 4, **tunnels**: long worm tunnels that thread the caverns into one network, and
//! tunnels from the surface down into it (cave mouths and shafts).
//!
//! Expects: caves carved, `world.surface` set. Leaves: more air below the surface; the
//! surface itself is only opened where a mouth starts, never within `spawn_clear` columns
//! of the world's centre, and long tunnels stay below `surface + caves.margin`.
//!
//! A tunnel is a random walk of discs, one tile a step. A **long tunnel** (`worms` per
//! million tiles of the band it lives in) starts anywhere between the top of the
//! underground layer and the underworld, meanders (its heading follows two octaves of
//! noise, swung `meander` times as far as plain) and keeps to the horizontal (`flatness` damps its vertical moves), so it runs across
//! caverns and joins them, and bounces off the layer it lives in and the world's sides;
//! its radius grows from `radius_top` at the top of the underground layer to
//! `radius_deep` at the underworld (narrow tunnels near the surface, wide ones deep down)
//! and swells and narrows along its length (by `swell` of it). A **mouth** starts on the surface and slopes
//! down (a quarter of them nearly vertical shafts) at `mouth_radius`, wide enough for the
//! player, until it is deeper than the top of the cavern layer and 36% of its column's
//! depth, so every mouth leads into the network.
//!
//! Tunnel `i` draws everything from `hash3(key, i, step)`, so no tunnel depends on another's
//! draws. Carving only ever turns solid tiles into air, so the order discs are carved in
//! cannot change the world: the tunnels' paths are walked in parallel into a list of discs,
//! and the discs are carved by bands of rows in parallel.

use crate::base::noise::{Basis, Perlin1, ceil_i64, floor_i64};
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;
use std::f64::consts::PI;

/// 1D noise along a tunnel in the preset's basis: Perlin's through [`Perlin1`] (its cell's
/// gradients kept while the path stays in it), the others per step.
enum Along {
    Perlin(Perlin1),
    Other(Basis, u32),
}

impl Along {
    fn new(basis: Basis, key: u32) -> Along {
        match basis {
            Basis::Perlin => Along::Perlin(Perlin1::new(key)),
            b => Along::Other(b, key),
        }
    }

    /// `basis.noise_1d(key, x)`.
    #[inline]
    fn at(&mut self, x: f32) -> f32 {
        match self {
            Along::Perlin(p) => p.at(x),
            Along::Other(b, key) => b.noise_1d(*key, x),
        }
    }
}

/// Most steps of one tunnel.
const MAX_STEPS: u32 = 4000;

/// A uniform number in `[0, 1)` from the top 53 bits of a hash.
#[inline]
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// A disc to carve: centre, radius, and whether it may open the ground right under the
/// surface (a mouth's) or must stay below the surface's margin (a long tunnel's).
#[derive(Clone, Copy, Debug)]
struct Disc {
    x: f64,
    y: f64,
    r: f64,
    mouth: bool,
}

impl Disc {
    /// Rows the disc touches, clipped to `0..height`.
    fn rows(&self, height: usize) -> std::ops::Range<usize> {
        let y0 = floor_i64(self.y - self.r).max(0) as usize;
        let y1 = (ceil_i64(self.y + self.r).max(-1) + 1).min(height as i64) as usize;
        y0..y1.max(y0)
    }
}

/// Bit `t` set for every solid tile kind `t`.
const SOLID: u128 = {
    assert!(Tile::COUNT <= 128, "the solid mask holds 128 tile kinds");
    let mut mask = 0;
    let mut t = 0;
    while t < Tile::COUNT {
        if matches!(crate::world::TILES[t].matter, crate::world::Matter::Solid) {
            mask |= 1 << t;
        }
        t += 1;
    }
    mask
};

/// The columns `x0..x1` of row `y` whose tile centres lie within the disc, clipped to
/// `0..width` (empty if none).
#[inline]
fn span(y: usize, d: &Disc, width: usize) -> (usize, usize) {
    let dy = y as f64 + 0.5 - d.y;
    let half = d.r * d.r - dy * dy;
    if half < 0.0 {
        return (0, 0);
    }
    let half = half.sqrt();
    let x0 = ceil_i64(d.x - half - 0.5).max(0) as usize;
    let x1 = (floor_i64(d.x + half - 0.5) + 1).clamp(0, width as i64) as usize;
    (x0, x1.max(x0))
}

/// Turns every solid tile of row `y` (`row`) within the disc, at or below row `floor[x]` of
/// its column, into air: one disc on its own, as [`carve`] does for all of them at once.
#[cfg(test)]
fn carve_row(row: &mut [Tile], y: usize, d: &Disc, floor: &[u32]) {
    let (x0, x1) = span(y, d, row.len());
    for (t, &f) in row[x0..x1].iter_mut().zip(&floor[x0..x1]) {
        if y as u32 >= f && t.is_solid() {
            *t = Tile::Air;
        }
    }
}

/// Rows per band when carving in parallel.
const BAND: usize = 32;

/// Sets bits `x0..x1` of a row of words, which has two words more than the columns need
/// (so a span of up to 64 bits sets two words without a branch; longer ones go a word at
/// a time, [`super::caves::set_span`]).
#[inline]
fn set_bits(words: &mut [u64], x0: usize, x1: usize) {
    let (w, lo, n) = (x0 / 64, x0 % 64, x1 - x0);
    if n <= 64 {
        let bits = ((1u128 << n) - 1) << lo;
        words[w] |= bits as u64;
        words[w + 1] |= (bits >> 64) as u64;
        return;
    }
    super::caves::set_span(words, x0, x1);
}

/// Carves every disc: mouths' from the surface down, long tunnels' below `below`. Bands of
/// rows run in parallel. A band first marks, one bit a tile, what each kind of disc
/// covers, then turns the solid tiles marked into air: each tile is looked at once
/// however many discs overlap on it (a tunnel's discs overlap about threefold).
fn carve(world: &mut World, discs: &[Disc], below: &[u32]) {
    // No tunnels (classic): nothing to mark, so no band to sweep.
    if discs.is_empty() {
        return;
    }
    let (width, height) = (world.width(), world.height());
    let bands = height.div_ceil(BAND);
    let mut in_band: Vec<Vec<u32>> = vec![Vec::new(); bands];
    for (i, d) in discs.iter().enumerate() {
        let rows = d.rows(height);
        if rows.is_empty() {
            continue;
        }
        for ids in &mut in_band[rows.start / BAND..=(rows.end - 1) / BAND] {
            ids.push(i as u32);
        }
    }
    let wpr = width.div_ceil(64);
    // Two spare words a row for `set_bits`.
    let stride = wpr + 2;
    // Per word of a row, the deepest `below` of its columns: rows at or under it need no
    // per-column check.
    let deepest: Vec<u32> = below
        .chunks(64)
        .map(|c| c.iter().copied().max().unwrap_or(0))
        .collect();
    world
        .tiles_mut()
        .par_chunks_mut(BAND * width)
        .zip(in_band)
        .enumerate()
        .for_each_init(
            || (Vec::new(), Vec::new()),
            |(worm, mouth): &mut (Vec<u64>, Vec<u64>), (b, (band, ids))| {
                let n_rows = band.len() / width;
                for marks in [&mut *worm, &mut *mouth] {
                    marks.clear();
                    marks.resize(n_rows * stride, 0);
                }
                for i in ids {
                    let d = &discs[i as usize];
                    let marks = if d.mouth { &mut *mouth } else { &mut *worm };
                    let rows = d.rows(height);
                    for y in rows.start.max(b * BAND)..rows.end.min(b * BAND + BAND) {
                        let r = y - b * BAND;
                        let (x0, x1) = span(y, d, width);
                        set_bits(&mut marks[r * stride..(r + 1) * stride], x0, x1);
                    }
                }
                for (r, row) in band.chunks_mut(width).enumerate() {
                    let y = b * BAND + r;
                    for w in 0..wpr {
                        let (long, short) = (worm[r * stride + w], mouth[r * stride + w]);
                        if long | short == 0 {
                            continue;
                        }
                        let under = if y as u32 >= deepest[w] {
                            !0
                        } else {
                            crate::analysis::ground_mask(below, w * 64, y as u32)
                        };
                        let mut marked = short | long & under;
                        // Branch-free, so the loads of tiles not in cache overlap.
                        while marked != 0 {
                            let t = &mut row[w * 64 + marked.trailing_zeros() as usize];
                            *t = if SOLID >> (*t as u64) & 1 == 1 {
                                Tile::Air
                            } else {
                                *t
                            };
                            marked &= marked - 1;
                        }
                    }
                }
            },
        );
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let (discs, below) = plan(world, preset, key);
    carve(world, &discs, &below);
}

/// Every disc of every tunnel, and the first row long tunnels may open in each column.
fn plan(world: &World, preset: &Preset, key: u64) -> (Vec<Disc>, Vec<u32>) {
    let p = &preset.tunnels;
    let (width, height) = (world.width(), world.height());
    let layers = Layers::of(preset);
    let columns = width as f64 / 1000.0;
    // Long tunnels stay below the surface's margin; mouths may open the surface.
    let margin = preset.caves.margin;
    let below: Vec<u32> = world
        .surface
        .iter()
        .map(|&s| s.saturating_add(margin))
        .collect();
    let top = layers.underground.max(1) as f64;
    // Down to the underworld, or a little into its open band's ceiling, so they open into it.
    let floor = super::underworld::band_ceiling(preset).map_or(layers.underworld, |c| c + 4);
    let bottom = (floor.min(height.saturating_sub(2)) as f64).max(top + 1.0);
    // Per million tiles of the band they wander in.
    let worms = (p.worms * width as f64 * (bottom - top) / 1e6).round() as u64;
    let worm = |i: u64| {
        let mut discs = Vec::new();
        let r = hash3(key, i, u64::MAX);
        let mut x = unit(r) * width as f64;
        let mut y = top + unit(hash3(key, i, u64::MAX - 1)) * (bottom - top);
        let a0 = unit(hash3(key, i, u64::MAX - 2)) * 2.0 * PI;
        let (turn, swell) = ((r >> 32) as u32, r as u32);
        let along = |key| Along::new(p.basis, key);
        let (mut slow, mut fast) = (along(turn), along(turn ^ 0x51ed_270b));
        let mut girth = along(swell);
        // Which way x and y run; flipped where the tunnel meets a side or its layer's ends.
        let (mut fx, mut fy) = (1.0, 1.0);
        let mut since = f64::MAX;
        for step in 0..p.length.min(MAX_STEPS) {
            // The heading meanders slowly: two octaves of noise along the tunnel.
            let t = step as f32;
            let swing = 4.0 * slow.at(t * 0.006) as f64 + 1.2 * fast.at(t * 0.03) as f64;
            let a = a0 + p.meander * swing;
            x += fx * a.cos();
            y += fy * a.sin() * (1.0 - p.flatness);
            if x < 0.0 || x >= width as f64 {
                fx = -fx;
                x = x.clamp(0.0, width as f64 - 1.0);
            }
            if y < top || y >= bottom {
                fy = -fy;
                y = y.clamp(top, bottom - 1.0);
            }
            let depth = ((y - top) / (bottom - top)).clamp(0.0, 1.0);
            let base = p.radius_top + (p.radius_deep - p.radius_top) * depth;
            let r = (base * (1.0 + p.swell * girth.at(t * 0.04) as f64)).max(0.8);
            // A disc every 0.8 radius: they overlap into a tube whose width varies by
            // under a tenth.
            since += 1.0;
            if since >= (r * 0.8).max(1.0) {
                discs.push(Disc {
                    x,
                    y,
                    r,
                    mouth: false,
                });
                since = 0.0;
            }
        }
        discs
    };
    let mut discs: Vec<Disc> = (0..worms).into_par_iter().flat_map_iter(worm).collect();
    let mouths = (p.mouths * columns).round() as u64;
    let centre = width as f64 / 2.0;
    let clear = p.spawn_clear as f64 + p.mouth_radius + 1.0;
    let spacing = (p.mouth_radius * 0.8).max(1.0);
    // A start outside the spawn area: drawn over the width less the cleared span.
    let span = (width as f64 - 2.0 * clear).max(0.0);
    let mouths = if span > 0.0 { mouths } else { 0 };
    let mouth = |i: u64| {
        let mut discs = Vec::new();
        let salt = 1 << 40 | i;
        let r = hash3(key, salt, u64::MAX);
        let mut x = unit(r) * span;
        if x >= centre - clear {
            x += 2.0 * clear;
        }
        let s = world.surface[(x as usize).min(width - 1)] as f64;
        let mut y = s - 1.0;
        let shaft = unit(hash3(key, salt, u64::MAX - 1)) < 0.25;
        let (lo, hi) = if shaft { (1.2, 1.45) } else { (0.45, 1.0) };
        let mut slope = lo + unit(hash3(key, salt, u64::MAX - 2)) * (hi - lo);
        let mut dir = if r >> 63 == 1 { 1.0 } else { -1.0 };
        // Down past the top of the cavern layer and 36% of the column's depth.
        let goal = (layers.cavern as f64 + 20.0).max(s + 0.36 * (height as f64 - s));
        let goal = goal.min(bottom - 1.0) + unit(hash3(key, salt, u64::MAX - 3)) * 40.0;
        let mut since = f64::MAX;
        for step in 0..MAX_STEPS {
            if y >= goal.min(height as f64 - 2.0) {
                break;
            }
            slope += (unit(hash3(key, salt, step as u64)) - 0.5) * 0.2;
            slope = slope.clamp(lo - 0.15, hi.min(1.5));
            let (dx, dy) = (slope.cos() * dir, slope.sin());
            x += dx;
            y += dy;
            // Off the sides and away from the spawn area.
            let near_spawn = (x - centre).abs() < clear;
            if x < 2.0 || x >= width as f64 - 2.0 || near_spawn {
                dir = -dir;
                x -= 2.0 * dx;
            }
            // A disc every 0.8 radius, and at the first step (the opening).
            since += 1.0;
            if since >= spacing {
                discs.push(Disc {
                    x,
                    y,
                    r: p.mouth_radius,
                    mouth: true,
                });
                since = 0.0;
            }
        }
        discs
    };
    discs.par_extend((0..mouths).into_par_iter().flat_map_iter(mouth));
    (discs, below)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::TunnelParams;

    fn world(preset: &Preset, seed: u64) -> World {
        crate::worldgen::generate(preset, seed).0
    }

    fn small() -> Preset {
        Preset {
            width: 1200,
            height: 500,
            ..Preset::default()
        }
        .without_landmarks()
    }

    #[test]
    fn tunnels_only_open_ground_and_mouths_avoid_the_spawn() {
        let p = small();
        let off = Preset {
            tunnels: TunnelParams {
                worms: 0.0,
                mouths: 0.0,
                ..p.tunnels.clone()
            },
            ..p.clone()
        };
        for seed in [1, 2] {
            let (a, b) = (world(&off, seed), world(&p, seed));
            let mut opened = 0;
            for y in 0..a.height() {
                for x in 0..a.width() {
                    let (before, after) = (a.tile(x, y), b.tile(x, y));
                    if before.is_open() {
                        // (Trees may stand elsewhere once mouths open the ground.)
                        assert!(!after.is_solid(), "({x}, {y}) filled");
                    } else if after.is_open() {
                        opened += 1;
                    }
                }
            }
            assert!(opened > 2000, "seed {seed}: {opened} tiles opened");
            // The surface is only opened by mouths, and none near the centre.
            let centre = b.width() / 2;
            let clear = p.tunnels.spawn_clear as usize;
            for x in centre - clear..=centre + clear {
                let s = b.surface[x] as usize;
                assert!(
                    (s..s + 6).all(|y| b.tile(x, y).is_solid()),
                    "seed {seed}: spawn area opened at column {x}"
                );
            }
            let mouths = crate::analysis::underground::survey(&b).mouths;
            assert!(mouths >= 2, "seed {seed}: {mouths} mouths");
            assert_eq!(crate::analysis::underground::survey(&a).mouths, 0);
        }
    }

    /// The most steps the tunnels may walk, as discs planned per tile of the world, in
    /// the heaviest preset the ranges allow: every count and length at its largest,
    /// radius 0 (a disc every step) or the largest radius.
    #[test]
    fn the_ranges_bound_the_tunnels_work() {
        let max = |path: &str| crate::content::preset::fields::field(path).unwrap().max;
        for radius in [0.0, max("tunnels.radius_deep")] {
            let p = Preset {
                width: 1600,
                height: 600,
                tunnels: TunnelParams {
                    worms: max("tunnels.worms"),
                    length: max("tunnels.length") as u32,
                    mouths: max("tunnels.mouths"),
                    mouth_radius: 1.0,
                    radius_top: radius,
                    radius_deep: radius,
                    ..TunnelParams::default()
                },
                ..Preset::default()
            };
            assert!(p.validate().is_ok(), "{:?}", p.validate());
            let w = world(
                &Preset {
                    tunnels: TunnelParams {
                        worms: 0.0,
                        mouths: 0.0,
                        ..p.tunnels.clone()
                    },
                    ..p.clone()
                },
                3,
            );
            let (discs, _) = plan(&w, &p, 7);
            let per_tile = discs.len() as f64 / (p.width * p.height) as f64;
            // 0.06 steps per tile of the tunnels' band, a disc a step at radius 0; the
            // mouths' discs besides. Before the ranges were bounded, over 2 per tile.
            assert!(
                per_tile < 0.06,
                "radius {radius}: {per_tile} discs per tile"
            );
            assert!(
                per_tile > 0.001,
                "radius {radius}: {per_tile} discs per tile"
            );
        }
    }

    #[test]
    fn set_bits_sets_exactly_the_span() {
        for x0 in 0..200 {
            for n in [0, 1, 5, 63, 64, 65, 130] {
                let x1 = (x0 + n).min(256);
                let mut words = [0u64; 6];
                set_bits(&mut words, x0, x1);
                for x in 0..6 * 64 {
                    let set = words[x / 64] >> (x % 64) & 1 == 1;
                    assert_eq!(set, (x0..x1).contains(&x), "{x0}..{x1} at {x}");
                }
            }
        }
    }

    #[test]
    fn the_solid_mask_is_the_tile_table_s() {
        for t in Tile::ALL {
            assert_eq!(SOLID >> t as u64 & 1 == 1, t.is_solid(), "{t:?}");
        }
    }

    #[test]
    fn carving_in_bands_in_parallel_equals_carving_disc_by_disc() {
        let p = Preset {
            width: 900,
            height: 400,
            ..Preset::default()
        }
        .without_landmarks();
        let mut w = world(&p, 8);
        // Refill with stone below the surface so every disc has something to carve.
        for x in 0..w.width() {
            for y in w.surface[x] as usize..w.height() {
                w.set(x, y, Tile::Stone);
            }
        }
        let (discs, below) = plan(&w, &p, 42);
        assert!(discs.len() > 100 && discs.iter().any(|d| d.mouth));
        let mut banded = w.clone();
        carve(&mut banded, &discs, &below);
        let sky = vec![0; w.width()];
        for d in discs.iter().rev() {
            let floor = if d.mouth { &sky } else { &below };
            for y in d.rows(w.height()) {
                let width = w.width();
                carve_row(&mut w.tiles_mut()[y * width..(y + 1) * width], y, d, floor);
            }
        }
        assert_eq!(banded.tiles(), w.tiles());
    }

    #[test]
    fn long_tunnels_run_mostly_sideways_and_widen_with_depth() {
        // One tunnel alone in solid rock: its air spans far more columns than rows.
        let mut p = small();
        p.tunnels = TunnelParams {
            // One tunnel: the band from row 175 to row 460 holds 342 000 tiles.
            worms: 2.9,
            mouths: 0.0,
            length: 600,
            ..p.tunnels.clone()
        };
        let mut w = World::new(1200, 500, 3, p.clone());
        w.surface = vec![100; 1200];
        for y in 100..500 {
            for x in 0..1200 {
                w.set(x, y, Tile::Stone);
            }
        }
        apply(&mut w, &p, &mut crate::base::rng::pass_rng(3, "tunnels"));
        let air: Vec<(usize, usize)> = (0..500)
            .flat_map(|y| (0..1200).map(move |x| (x, y)))
            .filter(|&(x, y)| y >= 100 && w.tile(x, y).is_open())
            .collect();
        assert!(air.len() > 600, "{} tiles", air.len());
        let xs = air.iter().map(|a| a.0).max().unwrap() - air.iter().map(|a| a.0).min().unwrap();
        let ys = air.iter().map(|a| a.1).max().unwrap() - air.iter().map(|a| a.1).min().unwrap();
        assert!(xs > 2 * ys, "spans {xs} columns and {ys} rows");
    }
}
