//! The obvious way: Strata's five passes and the connectivity analysis written as a
//! textbook (or the Java design Strata started from) would write them, kept only as a
//! yardstick for the benchmarks. Same parameters and the same kind of output, but its own
//! randomness, so its worlds are not Strata's worlds.
//!
//! - surface: 1D gradient noise from a permutation table, fBm per column, then a
//!   column-major loop over every tile;
//! - layers: one `rand` call per tile below the surface for the dirt jitter;
//! - caves: `Vec<bool>` cells, one `rand` call per tile for the fill, a new grid per step
//!   and eight bounds-checked neighbour reads per cell;
//! - ores: Ken Perlin's improved noise (permutation table, f64) per stone tile;
//! - grass: a per-tile check of the tile above;
//! - connectivity: a `VecDeque` breadth-first flood fill labelling every tile.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::VecDeque;
use strata::content::preset::{Jitter, Preset};
use strata::world::{Tile, World};

/// Ken Perlin's improved noise with a shuffled permutation table.
pub struct Perlin {
    p: Vec<usize>,
}

impl Perlin {
    pub fn new(seed: u64) -> Perlin {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut p: Vec<usize> = (0..256).collect();
        for i in (1..256).rev() {
            let j = rng.random_range(0..=i);
            p.swap(i, j);
        }
        let doubled = p.iter().chain(p.iter()).copied().collect();
        Perlin { p: doubled }
    }

    fn fade(t: f64) -> f64 {
        t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
    }

    fn lerp(t: f64, a: f64, b: f64) -> f64 {
        a + t * (b - a)
    }

    fn grad2(hash: usize, x: f64, y: f64) -> f64 {
        match hash & 3 {
            0 => x + y,
            1 => -x + y,
            2 => x - y,
            _ => -x - y,
        }
    }

    /// 2D noise in about [-1, 1].
    pub fn noise2(&self, x: f64, y: f64) -> f64 {
        let xi = (x.floor() as i64 & 255) as usize;
        let yi = (y.floor() as i64 & 255) as usize;
        let xf = x - x.floor();
        let yf = y - y.floor();
        let u = Self::fade(xf);
        let v = Self::fade(yf);
        let p = &self.p;
        let aa = p[p[xi] + yi];
        let ab = p[p[xi] + yi + 1];
        let ba = p[p[xi + 1] + yi];
        let bb = p[p[xi + 1] + yi + 1];
        Self::lerp(
            v,
            Self::lerp(u, Self::grad2(aa, xf, yf), Self::grad2(ba, xf - 1.0, yf)),
            Self::lerp(
                u,
                Self::grad2(ab, xf, yf - 1.0),
                Self::grad2(bb, xf - 1.0, yf - 1.0),
            ),
        )
    }

    /// 1D gradient noise in about [-0.5, 0.5].
    pub fn noise1(&self, x: f64) -> f64 {
        let xi = (x.floor() as i64 & 255) as usize;
        let xf = x - x.floor();
        let g = |h: usize| (self.p[h] as f64 / 127.5) - 1.0;
        let a = g(xi) * xf;
        let b = g(xi + 1) * (xf - 1.0);
        Self::lerp(Self::fade(xf), a, b)
    }
}

pub fn surface(world: &mut World, preset: &Preset, seed: u64) {
    let p = &preset.surface;
    let perlin = Perlin::new(seed ^ 1);
    let (w, h) = (world.width(), world.height());
    for x in 0..w {
        let (mut sum, mut weight, mut total, mut freq) = (0.0, 1.0, 0.0, p.frequency);
        for _ in 0..p.octaves {
            sum += weight * perlin.noise1(x as f64 * freq);
            total += weight;
            weight *= p.persistence;
            freq *= p.lacunarity;
        }
        let n = 2.0 * sum / total;
        let s = (p.base_height * h as f64 + p.amplitude * n)
            .round()
            .clamp(1.0, (h - 1) as f64) as usize;
        world.surface[x] = s as u32;
        for y in 0..h {
            world.set(x, y, if y >= s { Tile::Dirt } else { Tile::Air });
        }
    }
}

pub fn layers(world: &mut World, preset: &Preset, seed: u64) {
    let p = &preset.layers;
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 2);
    let column_jitter: Vec<u32> = (0..world.width())
        .map(|_| rng.random_range(0..=p.dirt_jitter))
        .collect();
    for (x, &column) in column_jitter.iter().enumerate() {
        let s = world.surface[x] as usize;
        for y in s..world.height() {
            let extra = match p.jitter {
                Jitter::PerTile => rng.random_range(0..=p.dirt_jitter),
                Jitter::PerColumn => column,
            };
            if world.tile(x, y) == Tile::Dirt && y - s >= (p.dirt_depth + extra) as usize {
                world.set(x, y, Tile::Stone);
            }
        }
    }
}

/// Cells as `Vec<bool>` (true = wall), row-major.
pub struct Cells {
    pub w: usize,
    pub h: usize,
    pub wall: Vec<bool>,
}

impl Cells {
    fn wall_at(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            return true;
        }
        self.wall[y as usize * self.w + x as usize]
    }
}

/// Random fill: one `rand` call per cell below the margin.
pub fn cave_fill(world: &World, preset: &Preset, seed: u64) -> Cells {
    let c = &preset.caves;
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 3);
    let (w, h) = (world.width(), world.height());
    let mut wall = vec![true; w * h];
    for y in 0..h {
        for x in 0..w {
            if y >= world.surface[x] as usize + c.margin as usize {
                wall[y * w + x] = rng.random_bool(c.fill);
            }
        }
    }
    Cells { w, h, wall }
}

/// `iterations` automaton steps with eight bounds-checked reads per cell.
pub fn cave_automaton(cells: &mut Cells, preset: &Preset) {
    let c = &preset.caves;
    for _ in 0..c.iterations {
        let mut next = vec![false; cells.w * cells.h];
        for y in 0..cells.h {
            for x in 0..cells.w {
                let mut walls = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        if (dx != 0 || dy != 0) && cells.wall_at(x as i64 + dx, y as i64 + dy) {
                            walls += 1;
                        }
                    }
                }
                let here = cells.wall[y * cells.w + x];
                next[y * cells.w + x] = if walls > c.wall_above {
                    true
                } else if walls < c.open_below {
                    false
                } else {
                    here
                };
            }
        }
        cells.wall = next;
    }
}

pub fn caves(world: &mut World, preset: &Preset, seed: u64) {
    let mut cells = cave_fill(world, preset, seed);
    cave_automaton(&mut cells, preset);
    for y in 0..cells.h {
        for x in 0..cells.w {
            if !cells.wall[y * cells.w + x] {
                world.set(x, y, Tile::Air);
            }
        }
    }
}

pub fn ores(world: &mut World, preset: &Preset, seed: u64) {
    let p = &preset.ores;
    let perlin = Perlin::new(seed ^ 4);
    for y in 0..world.height() {
        for x in 0..world.width() {
            if world.tile(x, y) != Tile::Stone {
                continue;
            }
            let n = perlin.noise2(x as f64 * p.frequency, y as f64 * p.frequency);
            let depth = y as i64 - world.surface[x] as i64;
            if let Some(o) = p
                .table
                .iter()
                .find(|o| n > o.threshold && depth > o.min_depth as i64)
            {
                world.set(x, y, o.tile);
            }
        }
    }
}

pub fn grass(world: &mut World) {
    for y in 1..world.height() {
        for x in 0..world.width() {
            if world.tile(x, y) == Tile::Dirt && world.tile(x, y - 1) == Tile::Air {
                world.set(x, y, Tile::Grass);
            }
        }
    }
}

/// One component found by the flood fill.
pub struct Body {
    pub area: u64,
    pub bbox: (usize, usize, usize, usize),
    pub sky: bool,
}

/// Per-tile labels (`u32::MAX` for solid) and the components, by breadth-first search.
pub fn bfs(world: &World) -> (Vec<u32>, Vec<Body>) {
    let (w, h) = (world.width(), world.height());
    let mut label = vec![u32::MAX; w * h];
    let mut bodies = Vec::new();
    let mut queue = VecDeque::new();
    for sy in 0..h {
        for sx in 0..w {
            if label[sy * w + sx] != u32::MAX || world.tile(sx, sy) != Tile::Air {
                continue;
            }
            let id = bodies.len() as u32;
            let mut body = Body {
                area: 0,
                bbox: (sx, sy, sx, sy),
                sky: false,
            };
            label[sy * w + sx] = id;
            queue.push_back((sx, sy));
            while let Some((x, y)) = queue.pop_front() {
                body.area += 1;
                body.sky |= y == 0;
                body.bbox = (
                    body.bbox.0.min(x),
                    body.bbox.1.min(y),
                    body.bbox.2.max(x),
                    body.bbox.3.max(y),
                );
                let neighbours = [
                    (x as i64 - 1, y as i64),
                    (x as i64 + 1, y as i64),
                    (x as i64, y as i64 - 1),
                    (x as i64, y as i64 + 1),
                ];
                for (nx, ny) in neighbours {
                    if world.get(nx, ny) == Some(Tile::Air)
                        && label[ny as usize * w + nx as usize] == u32::MAX
                    {
                        label[ny as usize * w + nx as usize] = id;
                        queue.push_back((nx as usize, ny as usize));
                    }
                }
            }
            bodies.push(body);
        }
    }
    (label, bodies)
}

/// All five passes and the flood fill.
pub fn pipeline(preset: &Preset, seed: u64) -> (World, Vec<Body>) {
    let mut world = World::new(
        preset.width as usize,
        preset.height as usize,
        seed,
        preset.clone(),
    );
    surface(&mut world, preset, seed);
    layers(&mut world, preset, seed);
    caves(&mut world, preset, seed);
    ores(&mut world, preset, seed);
    grass(&mut world);
    let (_, bodies) = bfs(&world);
    (world, bodies)
}
