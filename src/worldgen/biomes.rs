//! Pass **biomes**: swaps the ground's materials by biome, from the surface down into the
//! underground.
//!
//! Expects: dirt and stone laid (surface and layers). Leaves: in a desert, sand for
//! `sand_depth` tiles under the surface and sandstone below; in snow, snow for dirt and
//! mostly ice for stone; in a jungle, mud for dirt and mostly mud for stone. Air, water and
//! anything else is left alone; forest and ocean columns are untouched.
//!
//! The biome map ([`BiomeMap`]) is a pure function of the preset (its size included) and
//! the seed, so a loaded world recomputes it and saves do not store it. Each listed biome
//! is a span of columns: the seed shuffles the spans, deals them to both sides of the
//! spawn point (forest stays around spawn) and spreads them with forest between. Below the
//! surface a span narrows into a rounded bowl `depth` deep, and each of its edges wanders
//! from row to row by up to `border` tiles, with a few tiles of speckle where it meets its
//! neighbour: no biome ends in a vertical cut.

use crate::base::noise::{RowNoise, RowPlan, hash32, perlin_1d};
use crate::base::rng::{PassRng, pass_rng};
use crate::content::preset::{Biome, Preset};
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// Share of the width around the world's centre kept as forest (the spawn point's).
const SPAWN_FOREST: f64 = 0.05;
/// Rows under the sea floor that still count as ocean.
const OCEAN_DEPTH: usize = 40;
/// Tiles of speckled blend where a biome's edge meets its neighbour.
pub(crate) const SOFT: f64 = 5.0;
/// Rows per wander of a biome's edges (the slow swing; a faster one adds detail).
const EDGE_WAVE: f32 = 56.0;
/// Rows a thread takes at a time: a lattice row of the pocket noise spans 40 rows, so
/// runs this long reuse its terms.
const ROWS_PER_JOB: usize = 48;
/// Frequency of the noise that leaves pockets of stone in jungle mud and snow ice.
const POCKETS: f32 = 0.025;

impl Biome {
    /// What players read in the inspector (`jungle`).
    pub fn label(self) -> &'static str {
        match self {
            Biome::Forest => "forest",
            Biome::Desert => "desert",
            Biome::Snow => "snow",
            Biome::Jungle => "jungle",
            Biome::Ocean => "ocean",
        }
    }

    /// The biome's colour on maps: the colour of its top tile.
    pub fn color(self) -> [u8; 4] {
        match self {
            Biome::Forest => Tile::Grass,
            Biome::Desert => Tile::Sand,
            Biome::Snow => Tile::Snow,
            Biome::Jungle => Tile::JungleGrass,
            Biome::Ocean => Tile::Water,
        }
        .color()
    }
}

/// A biome placed as a span of columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub biome: Biome,
    /// First and one past the last column at the surface.
    pub start: f64,
    pub end: f64,
    key: u32,
}

/// Where every biome lies.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeMap {
    /// Placed spans, left to right, not overlapping.
    pub spans: Vec<Placed>,
    /// Columns of ocean at each end (the sea's columns and its shore).
    pub ocean: usize,
    width: usize,
    depth: f64,
    border: f64,
    key: u32,
}

impl BiomeMap {
    /// The biome map of a world made from `preset` and `seed`.
    pub fn new(preset: &Preset, seed: u64) -> BiomeMap {
        let mut rng = pass_rng(seed, "biomes");
        let key = rng.next_u32();
        let width = preset.width as usize;
        let w = width as f64;
        let p = &preset.biomes;
        let ocean = match super::ocean::Oceans::new(width, preset.height as usize, &preset.ocean) {
            Some(o) => (o.columns as usize + preset.ocean.shore as usize).min(width / 2),
            None => 0,
        };
        // Shuffle the spans (Fisher-Yates on counter-based draws), then deal them to the
        // two sides alternately, the first side drawn too.
        let mut order: Vec<usize> = (0..p.spans.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (hash32(key ^ (i as u32).wrapping_mul(0x9E37_79B9)) as usize) % (i + 1);
            order.swap(i, j);
        }
        let first_left = hash32(key ^ 0x51DE) & 1 == 0;
        let (mut left, mut right) = (vec![], vec![]);
        for (n, &i) in order.iter().enumerate() {
            if (n % 2 == 0) == first_left {
                left.push(i);
            } else {
                right.push(i);
            }
        }
        let clear = SPAWN_FOREST * w;
        let sides = [
            (ocean as f64, (w / 2.0 - clear).max(ocean as f64), left),
            (
                (w / 2.0 + clear).min(w - ocean as f64),
                w - ocean as f64,
                right,
            ),
        ];
        let mut spans = vec![];
        for (lo, hi, members) in sides {
            let room = hi - lo;
            let widths: Vec<f64> = members.iter().map(|&i| p.spans[i].width * w).collect();
            let total: f64 = widths.iter().sum();
            let scale = if total > room * 0.8 {
                room * 0.8 / total.max(1e-9)
            } else {
                1.0
            };
            // Forest between the spans: the free room split by random weights.
            let free = room - total * scale;
            let weights: Vec<f64> = (0..=members.len())
                .map(|g| {
                    let h =
                        hash32(key ^ 0x6A9 ^ ((spans.len() + g) as u32).wrapping_mul(0x85EB_CA6B));
                    0.3 + (h >> 8) as f64 / (1u32 << 24) as f64
                })
                .collect();
            let sum: f64 = weights.iter().sum();
            let mut x = lo;
            for (n, &i) in members.iter().enumerate() {
                x += free * weights[n] / sum;
                let start = x;
                x += widths[n] * scale;
                spans.push(Placed {
                    biome: p.spans[i].biome,
                    start,
                    end: x,
                    key: hash32(key ^ (i as u32 + 1).wrapping_mul(0x27D4_EB2D)),
                });
            }
        }
        spans.retain(|s| s.end - s.start >= 1.0);
        spans.sort_by(|a, b| a.start.total_cmp(&b.start));
        BiomeMap {
            spans,
            ocean,
            width,
            depth: p.depth * preset.height as f64,
            border: p.border as f64,
            key,
        }
    }

    /// The span's columns in row `y`, `top` being its highest surface row: the full span
    /// down to `top`, narrowing into a rounded bowl below, its edges wandering row by row.
    /// `None` below the bowl.
    pub fn edges(&self, span: &Placed, y: usize, top: u32) -> Option<(f64, f64)> {
        let d = y as f64 - top as f64;
        let shrink = if d <= 0.0 {
            1.0
        } else if d >= self.depth {
            return None;
        } else {
            let t = d / self.depth;
            (1.0 - t * t).sqrt()
        };
        let (centre, half) = ((span.start + span.end) / 2.0, (span.end - span.start) / 2.0);
        // Wide spans wander further (a tenth of their half-width on top of `border`), on
        // a slow swing with faster detail.
        let reach = self.border + 0.1 * half;
        let wander = |k: u32| {
            let slow = perlin_1d(k, y as f32 / EDGE_WAVE);
            let fast = perlin_1d(hash32(k), y as f32 / (EDGE_WAVE / 5.0));
            reach * (1.6 * slow + 0.4 * fast) as f64
        };
        Some((
            centre - half * shrink + wander(span.key),
            centre + half * shrink + wander(span.key ^ 0xED6E),
        ))
    }

    /// The highest surface row over each span (where its bowl is measured from).
    pub fn tops(&self, surface: &[u32]) -> Vec<u32> {
        self.spans
            .iter()
            .map(|s| {
                let (a, b) = (s.start as usize, (s.end as usize).min(surface.len()));
                surface[a.min(b)..b].iter().copied().min().unwrap_or(0)
            })
            .collect()
    }

    /// Does the tile `(x, y)`, `dist` tiles inside a span's edge (negative: outside),
    /// belong to it? Fully inside beyond [`SOFT`], a speckled blend across the edge.
    #[inline]
    pub(crate) fn takes(&self, x: usize, y: usize, dist: f64) -> bool {
        if dist >= SOFT {
            return true;
        }
        if dist <= -SOFT {
            return false;
        }
        let h = hash32(
            self.key ^ (x as u32).wrapping_mul(0x27d4_eb2d) ^ (y as u32).wrapping_mul(0x1656_67b1),
        );
        ((h >> 8) as f64 / (1u32 << 24) as f64) < (dist + SOFT) / (2.0 * SOFT)
    }

    /// The biome of tile `(x, y)` in a world with these surface rows (`tops` from
    /// [`BiomeMap::tops`]).
    pub fn at(&self, x: usize, y: usize, surface: &[u32], tops: &[u32]) -> Biome {
        let sea = x < self.ocean || x + self.ocean >= self.width;
        if sea && y <= surface[x] as usize + OCEAN_DEPTH {
            return Biome::Ocean;
        }
        for (span, &top) in self.spans.iter().zip(tops) {
            if let Some((l, r)) = self.edges(span, y, top) {
                let dist = (x as f64 + 0.5 - l).min(r - x as f64 - 0.5);
                if self.takes(x, y, dist) {
                    return span.biome;
                }
            }
        }
        Biome::Forest
    }

    /// The biome of tile `(x, y)` of `world` (made from this map's preset and seed).
    pub fn of_tile(&self, world: &World, x: usize, y: usize) -> Biome {
        self.at(x, y, &world.surface, &self.tops(&world.surface))
    }

    /// The surface's biomes as runs of columns `(first, end, biome)`, left to right, from
    /// the spans' nominal edges (for maps: no per-column work).
    pub fn runs(&self) -> Vec<(usize, usize, Biome)> {
        let mut runs = vec![(0, self.ocean, Biome::Ocean)];
        let mut x = self.ocean;
        for s in &self.spans {
            let (a, b) = (s.start.round() as usize, s.end.round() as usize);
            runs.push((x, a, Biome::Forest));
            runs.push((a, b, s.biome));
            x = b;
        }
        let end = self.width - self.ocean;
        runs.push((x, end, Biome::Forest));
        runs.push((end, self.width, Biome::Ocean));
        runs.retain(|r| r.0 < r.1);
        runs
    }

    /// The biome at the surface of every column.
    pub fn surface_biomes(&self, surface: &[u32]) -> Vec<Biome> {
        let tops = self.tops(surface);
        (0..surface.len())
            .map(|x| self.at(x, surface[x] as usize, surface, &tops))
            .collect()
    }

    /// How much column `x` belongs to a `biome` span at the surface, 0..1, rising over
    /// `border` columns inside its edges (for shaping the ground before it is laid).
    pub fn weight(&self, x: usize, biome: Biome) -> f64 {
        let ramp = self.border.max(1.0);
        self.spans
            .iter()
            .filter(|s| s.biome == biome)
            .map(|s| {
                let d = (x as f64 - s.start).min(s.end - x as f64);
                (d / ramp).clamp(0.0, 1.0)
            })
            .fold(0.0, f64::max)
    }
}

/// What a biome makes of a tile `depth` rows under its column's surface (`pocket`: the
/// pocket noise there, in [-1, 1]).
#[inline]
fn swap(biome: Biome, tile: Tile, depth: usize, sand_depth: usize, pocket: f32) -> Tile {
    match (biome, tile) {
        (Biome::Desert, Tile::Dirt | Tile::Grass) if depth < sand_depth => Tile::Sand,
        (Biome::Desert, Tile::Dirt | Tile::Grass | Tile::Stone) => Tile::Sandstone,
        (Biome::Snow, Tile::Dirt | Tile::Grass) => Tile::Snow,
        (Biome::Snow, Tile::Stone) if pocket > -0.2 => Tile::Ice,
        (Biome::Jungle, Tile::Dirt | Tile::Grass) => Tile::Mud,
        (Biome::Jungle, Tile::Stone) if pocket > -0.15 => Tile::Mud,
        _ => tile,
    }
}

pub fn apply(world: &mut World, preset: &Preset, _rng: &mut PassRng) {
    let map = BiomeMap::new(preset, world.seed);
    if map.spans.is_empty() {
        return;
    }
    let tops = map.tops(&world.surface);
    let width = world.width();
    let sand_depth = preset.biomes.sand_depth as usize;
    let pocket_key = hash32(map.key ^ 0x90C4);
    let pocket_basis = preset.biomes.pocket_basis;
    let surface = std::mem::take(&mut world.surface);
    let first = tops.iter().copied().min().unwrap_or(0) as usize;
    // The pocket noise's columns for each span: all it can reach (its edges wander at
    // most `reach` tiles), planned once; each thread keeps its lattice rows across rows.
    let plans: Vec<(usize, RowPlan)> = map
        .spans
        .iter()
        .map(|span| {
            let reach = map.border + 0.1 * (span.end - span.start) / 2.0 + SOFT + 2.0;
            let a = (span.start - reach).floor().max(0.0) as usize;
            let b = ((span.end + reach).ceil().max(0.0) as usize)
                .min(width)
                .max(a);
            (a, RowPlan::new(a, b - a, POCKETS))
        })
        .collect();
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .with_min_len(ROWS_PER_JOB)
        .enumerate()
        .skip(first)
        .for_each_init(
            || (vec![RowNoise::new(pocket_basis); plans.len()], Vec::new()),
            |(lattices, pockets), (y, row)| {
                for (i, (span, &top)) in map.spans.iter().zip(&tops).enumerate() {
                    let Some((l, r)) = map.edges(span, y, top) else {
                        continue;
                    };
                    let (p0, plan) = &plans[i];
                    let a = ((l - SOFT).floor().max(0.0) as usize).max(*p0);
                    let b = ((r + SOFT).ceil().max(0.0) as usize).min(p0 + plan.len());
                    if a >= b {
                        continue;
                    }
                    pockets.resize(plan.len(), 0.0);
                    if matches!(span.biome, Biome::Snow | Biome::Jungle) {
                        lattices[i].row(pocket_key, plan, y, POCKETS, pockets);
                    }
                    let pocket = |x: usize| pockets[x - p0];
                    // The speckled margins ask per tile; the inside is the biome's outright.
                    let inner_a = ((l + SOFT).ceil().max(a as f64) as usize).min(b);
                    let inner_b = ((r - SOFT).floor().max(inner_a as f64) as usize).min(b);
                    for x in (a..inner_a).chain(inner_b..b) {
                        let s = surface[x] as usize;
                        let dist = (x as f64 + 0.5 - l).min(r - x as f64 - 0.5);
                        if y >= s && map.takes(x, y, dist) {
                            row[x] = swap(span.biome, row[x], y - s, sand_depth, pocket(x));
                        }
                    }
                    for x in inner_a..inner_b {
                        let s = surface[x] as usize;
                        if y >= s {
                            row[x] = swap(span.biome, row[x], y - s, sand_depth, pocket(x));
                        }
                    }
                }
            },
        );
    world.surface = surface;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn map_is_a_pure_function_of_preset_and_seed_and_keeps_spawn_forest() {
        let p = Preset::default();
        for seed in 0..20 {
            let m = BiomeMap::new(&p, seed);
            assert_eq!(m, BiomeMap::new(&p, seed));
            assert_eq!(m.spans.len(), 3, "seed {seed}");
            let centre = p.width as f64 / 2.0;
            for s in &m.spans {
                assert!(s.end < centre - 100.0 || s.start > centre + 100.0, "{s:?}");
                assert!(s.start >= m.ocean as f64 && s.end <= (p.width as usize - m.ocean) as f64);
            }
            assert!(m.spans.windows(2).all(|w| w[0].end <= w[1].start));
        }
        let sides = |seed| {
            let m = BiomeMap::new(&p, seed);
            m.spans.iter().map(|s| s.biome).collect::<Vec<_>>()
        };
        assert!(
            (1..10).any(|s| sides(s) != sides(0)),
            "the seed orders the biomes"
        );
    }

    #[test]
    fn biomes_swap_materials_and_reach_down_with_ragged_edges() {
        let p = Preset {
            width: 1600,
            height: 500,
            ..Preset::default()
        }
        .without_landmarks();
        let (w, _) = generate(&p, 4);
        let counts = w.counts();
        for t in [
            Tile::Sand,
            Tile::Sandstone,
            Tile::Snow,
            Tile::Ice,
            Tile::Mud,
        ] {
            assert!(counts[t as usize] > 500, "{t:?}: {}", counts[t as usize]);
        }
        let map = BiomeMap::new(&p, 4);
        let tops = map.tops(&w.surface);
        for (span, &top) in map.spans.iter().zip(&tops) {
            // Deep below the span's top its middle is still the biome; its left edge moves
            // from row to row.
            let y = top as usize + (map.depth * 0.3) as usize;
            let mid = ((span.start + span.end) / 2.0) as usize;
            assert_eq!(map.at(mid, y, &w.surface, &tops), span.biome);
            let lefts: Vec<i64> = (top as usize..top as usize + 200)
                .step_by(20)
                .filter_map(|y| map.edges(span, y, top).map(|e| e.0.round() as i64))
                .collect();
            let spread = lefts.iter().max().unwrap() - lefts.iter().min().unwrap();
            assert!(spread >= 8, "{:?} edge barely moves: {lefts:?}", span.biome);
            assert!(
                map.edges(span, top as usize + map.depth as usize + 1, top)
                    .is_none()
            );
        }
        // The map names what the pass laid: a tile of sandstone is in the desert, of ice
        // in the snow; the runs cover the width in order.
        for (x, y) in [(0, 0), (1, 1)].into_iter().chain(
            (0..w.width())
                .step_by(7)
                .map(|x| (x, w.surface[x] as usize + 30)),
        ) {
            let want = match w.tile(x, y) {
                Tile::Sandstone => Some(Biome::Desert),
                Tile::Ice => Some(Biome::Snow),
                _ => None,
            };
            if let Some(b) = want {
                assert_eq!(map.of_tile(&w, x, y), b, "({x}, {y})");
            }
        }
        let runs = map.runs();
        assert!(runs.windows(2).all(|r| r[0].1 == r[1].0) && runs[0].0 == 0);
        assert_eq!(runs.last().unwrap().1, w.width());
        // Desert columns are sand at the surface, never grass.
        let biomes = map.surface_biomes(&w.surface);
        let desert: Vec<usize> = (0..w.width())
            .filter(|&x| biomes[x] == Biome::Desert)
            .collect();
        assert!(desert.len() > 60);
        let sandy = desert
            .iter()
            .filter(|&&x| w.tile(x, w.surface[x] as usize) == Tile::Sand)
            .count();
        assert!(
            sandy * 10 >= desert.len() * 9,
            "{sandy} of {}",
            desert.len()
        );
    }
}
