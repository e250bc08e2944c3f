//! Pass **biomes**: swaps the ground's materials by biome, from the surface down into the
//! underground.
//!
//! Expects: dirt and stone laid (surface and layers). Leaves: in a desert, sand for
//! `sand_depth` tiles under the surface and sandstone below; in snow, snow for dirt and
//! mostly ice for stone; in a jungle, mud for dirt and mostly mud for stone. Air, water and
//! anything else is left alone; forest and ocean columns are untouched.
//!
//! The biome map ([`BiomeMap`]), the world's biome plan, is a pure function of the preset
//! (its size included) and the seed, so a loaded world and every later pass recompute it
//! (`BiomeMap::new(&world.preset, world.seed)`) and saves do not store it. Each listed
//! biome is a span of columns, and the seed draws the plan: how many of each (1 to
//! `1 + extra`), each one's width (within `width_jitter` of the listed one), which half
//! the jungle takes (snow the other, with `opposite`: [`BiomeMap::jungle_side`],
//! [`BiomeMap::dungeon_side`]), the order on each side of the spawn point (forest stays
//! around spawn) and the forest between. Below the surface each biome has its outline:
//! the jungle a band narrowing a little down to the underworld (`deep_jungle`), the snow
//! a funnel into the cavern layer whose ice the caves pass opens into ice caves, the
//! desert a shallow bowl of sand over a wide oval of sandstone and hardened sand (the
//! underground desert), anything else a rounded bowl `depth` deep. Each edge wanders from
//! row to row by up to `border` tiles, with a few tiles of speckle where it meets its
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
/// A uniform number in `[0, 1)` from a hash.
fn unit32(h: u32) -> f64 {
    (h >> 8) as f64 / (1u32 << 24) as f64
}

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

/// A half of the world, either side of the spawn point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// Share of a desert's `depth` its sand bowl reaches; the underground desert fills the
/// rest.
const DESERT_BOWL: f64 = 0.35;
/// Where the underground desert's oval begins, as a share of the desert's `depth`.
const DESERT_OVAL_TOP: f64 = 0.12;
/// Share of the width the deep jungle loses from its top to the underworld.
const JUNGLE_NARROWING: f64 = 0.3;
/// How far the deep jungle sways sideways on its way down, as a share of its half-width.
const JUNGLE_SWAY: f64 = 0.35;

/// Where every biome lies: the world's biome plan.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeMap {
    /// Placed spans, left to right, not overlapping.
    pub spans: Vec<Placed>,
    /// Columns of ocean at each end (the sea's columns and its shore).
    pub ocean: usize,
    /// The half the jungle lies on (the one with the most jungle; drawn by the seed when
    /// there is none).
    pub jungle_side: Side,
    width: usize,
    depth: f64,
    border: f64,
    /// Row the deep jungle reaches (a little into the underworld); `None`: no deep jungle.
    jungle_floor: Option<f64>,
    /// The underground desert's width, times its desert's.
    under_desert: f64,
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
        let draw = |salt: u32, i: u32| unit32(hash32(key ^ salt ^ i.wrapping_mul(0x85EB_CA6B)));
        // Every span the plan holds: each listed one, and as many extra as the seed draws
        // (`id` keys each one's own draws).
        let mut members: Vec<(Biome, f64, u32)> = vec![];
        for (i, s) in p.spans.iter().enumerate() {
            let n = 1 + (draw(0xC0A7, i as u32) * (s.extra + 1) as f64) as u32;
            for k in 0..n.min(s.extra + 1) {
                let id = i as u32 * 8 + k;
                let grow = 1.0 + p.width_jitter * (2.0 * draw(0x3173, id) - 1.0);
                members.push((s.biome, s.width * w * grow, id));
            }
        }
        // Shuffle (Fisher-Yates on counter-based draws), then deal to the two sides.
        for i in (1..members.len()).rev() {
            let j = (hash32(key ^ (i as u32).wrapping_mul(0x9E37_79B9)) as usize) % (i + 1);
            members.swap(i, j);
        }
        let first_left = hash32(key ^ 0x51DE) & 1 == 0;
        let drawn_side = if first_left { Side::Left } else { Side::Right };
        let (mut left, mut right): (Vec<_>, Vec<_>) = (vec![], vec![]);
        if p.opposite {
            // The jungle on the drawn half, snow on the other; the rest to whichever
            // half has less land taken so far.
            let mut taken = [0.0, 0.0];
            let mut rest = vec![];
            for m in members {
                match m.0 {
                    Biome::Jungle => {
                        taken[(drawn_side == Side::Right) as usize] += m.1;
                        if drawn_side == Side::Left {
                            left.push(m)
                        } else {
                            right.push(m)
                        }
                    }
                    Biome::Snow => {
                        taken[(drawn_side == Side::Left) as usize] += m.1;
                        if drawn_side == Side::Left {
                            right.push(m)
                        } else {
                            left.push(m)
                        }
                    }
                    _ => rest.push(m),
                }
            }
            for m in rest {
                if taken[0] <= taken[1] {
                    taken[0] += m.1;
                    left.push(m);
                } else {
                    taken[1] += m.1;
                    right.push(m);
                }
            }
            // Each half's order shuffled again, so the jungle is not always outermost.
            for (h, half) in [&mut left, &mut right].into_iter().enumerate() {
                for i in (1..half.len()).rev() {
                    let j =
                        (hash32(key ^ 0x0D0E ^ ((h as u32) << 8) ^ i as u32) as usize) % (i + 1);
                    half.swap(i, j);
                }
            }
        } else {
            for (n, m) in members.into_iter().enumerate() {
                if (n % 2 == 0) == first_left {
                    left.push(m);
                } else {
                    right.push(m);
                }
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
            let total: f64 = members.iter().map(|m| m.1).sum();
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
            for (n, &(biome, width, id)) in members.iter().enumerate() {
                x += free * weights[n] / sum;
                let start = x;
                x += width * scale;
                spans.push(Placed {
                    biome,
                    start,
                    end: x,
                    key: hash32(key ^ (id + 1).wrapping_mul(0x27D4_EB2D)),
                });
            }
        }
        spans.retain(|s| s.end - s.start >= 1.0);
        spans.sort_by(|a, b| a.start.total_cmp(&b.start));
        // The jungle's half: where most of its columns lie.
        let centre = w / 2.0;
        let lean: f64 = spans
            .iter()
            .filter(|s| s.biome == Biome::Jungle)
            .map(|s| (s.end - s.start) * ((s.start + s.end) / 2.0 - centre).signum())
            .sum();
        let jungle_side = if lean < 0.0 {
            Side::Left
        } else if lean > 0.0 {
            Side::Right
        } else {
            drawn_side
        };
        let layers = crate::world::depth::Layers::of(preset);
        BiomeMap {
            spans,
            ocean,
            jungle_side,
            width,
            depth: p.depth * preset.height as f64,
            border: p.border as f64,
            jungle_floor: p.deep_jungle.then_some(layers.underworld as f64 + 8.0),
            under_desert: p.underground_desert,
            key,
        }
    }

    /// The half the dungeon goes on: away from the jungle, as in Terraria (the snow's
    /// half, when the plan keeps them apart).
    pub fn dungeon_side(&self) -> Side {
        self.jungle_side.other()
    }

    /// The half-width factors the span's outline reaches in some row, at most (for the
    /// columns a pass must look at).
    pub fn widest(&self, span: &Placed) -> f64 {
        match span.biome {
            Biome::Desert => self.under_desert.max(1.0),
            Biome::Jungle => 1.0 + JUNGLE_SWAY,
            _ => 1.0,
        }
    }

    /// The columns the span may reach in any row, its edges' wander and blend included.
    pub fn reach(&self, span: &Placed) -> (f64, f64) {
        let half = (span.end - span.start) / 2.0;
        let centre = (span.start + span.end) / 2.0;
        let r = half * self.widest(span) + self.border + 0.1 * half + SOFT + 2.0;
        (centre - r, centre + r)
    }

    /// Is row `y` (of a span whose top row is `top`) in the underground desert rather
    /// than its sand bowl?
    pub fn under_desert(&self, y: usize, top: u32) -> bool {
        self.under_desert > 0.0 && y as f64 - top as f64 > DESERT_BOWL * self.depth * 0.6
    }

    /// The span's columns in row `y`, `top` being its highest surface row: the full span
    /// down to `top`, narrowing into a rounded bowl below, its edges wandering row by row.
    /// `None` below the bowl.
    pub fn edges(&self, span: &Placed, y: usize, top: u32) -> Option<(f64, f64)> {
        let d = y as f64 - top as f64;
        let shrink = if d <= 0.0 {
            1.0
        } else {
            self.outline(span.biome, d, top)?
        };
        let (mut centre, half) = ((span.start + span.end) / 2.0, (span.end - span.start) / 2.0);
        // The deep jungle sways from side to side on its way down (up to JUNGLE_SWAY of
        // its half-width), from nothing at its top.
        if span.biome == Biome::Jungle && self.jungle_floor.is_some() && d > 0.0 {
            let swing = perlin_1d(hash32(span.key ^ 0x5A7), y as f32 / 300.0) as f64;
            centre += JUNGLE_SWAY * half * (2.0 * swing).clamp(-1.0, 1.0) * (d / 150.0).min(1.0);
        }
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

    /// The half-width of a biome's outline `d` rows (> 0) under its top row `top`, as a
    /// share of its half-width at the surface; `None` below it.
    fn outline(&self, biome: Biome, d: f64, top: u32) -> Option<f64> {
        let bowl = |depth: f64| (d < depth).then(|| (1.0 - (d / depth).powi(2)).sqrt());
        match biome {
            Biome::Jungle if self.jungle_floor.is_some() => {
                let full = (self.jungle_floor.unwrap_or(0.0) - top as f64).max(1.0);
                (d < full).then(|| 1.0 - JUNGLE_NARROWING * d / full)
            }
            // A funnel: wide under the surface, narrowing into the cavern layer, its foot
            // rounded.
            Biome::Snow => {
                let t = d / self.depth;
                (t < 1.0).then(|| (1.0 - 0.45 * t) * (1.0 - t.powi(6)).sqrt())
            }
            Biome::Desert if self.under_desert > 0.0 => {
                let sand = bowl(DESERT_BOWL * self.depth).unwrap_or(0.0);
                let (a, b) = (DESERT_OVAL_TOP * self.depth, self.depth);
                let (mid, semi) = ((a + b) / 2.0, (b - a) / 2.0);
                let v = (d - mid) / semi;
                let oval = if v.abs() < 1.0 {
                    self.under_desert * (1.0 - v * v).sqrt()
                } else {
                    0.0
                };
                let s = sand.max(oval);
                (s > 0.0).then_some(s)
            }
            _ => bowl(self.depth),
        }
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
fn swap(
    biome: Biome,
    tile: Tile,
    depth: usize,
    sand_depth: usize,
    pocket: f32,
    under: bool,
) -> Tile {
    match (biome, tile) {
        (Biome::Desert, Tile::Dirt | Tile::Grass) if depth < sand_depth => Tile::Sand,
        // The underground desert: hardened sand in broad seams through the sandstone.
        (Biome::Desert, Tile::Dirt | Tile::Stone) if under && pocket > -0.05 => Tile::HardenedSand,
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
            let (lo, hi) = map.reach(span);
            let a = lo.floor().max(0.0) as usize;
            let b = (hi.ceil().max(0.0) as usize).min(width).max(a);
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
                    let under = span.biome == Biome::Desert && map.under_desert(y, top);
                    if matches!(span.biome, Biome::Snow | Biome::Jungle) || under {
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
                            row[x] = swap(span.biome, row[x], y - s, sand_depth, pocket(x), under);
                        }
                    }
                    for x in inner_a..inner_b {
                        let s = surface[x] as usize;
                        if y >= s {
                            row[x] = swap(span.biome, row[x], y - s, sand_depth, pocket(x), under);
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
            assert!((3..=4).contains(&m.spans.len()), "seed {seed}");
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
            Tile::HardenedSand,
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
            // Below its outline nothing: the bowl's or funnel's foot, or for the jungle
            // the underworld's floor.
            let foot = match span.biome {
                Biome::Jungle => map.jungle_floor.unwrap() as usize + 1,
                _ => top as usize + map.depth as usize + 1,
            };
            assert!(map.edges(span, foot, top).is_none(), "{:?}", span.biome);
        }
        // The map names what the pass laid: a tile of sandstone is in the desert, of ice
        // in the snow; the runs cover the width in order.
        for (x, y) in [(0, 0), (1, 1)].into_iter().chain(
            (0..w.width())
                .step_by(7)
                .map(|x| (x, w.surface[x] as usize + 30)),
        ) {
            let want = match w.tile(x, y) {
                Tile::Sandstone | Tile::HardenedSand => Some(Biome::Desert),
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

    #[test]
    fn the_plan_differs_by_seed_with_snow_and_jungle_on_opposite_halves() {
        let p = Preset::default();
        let centre = p.width as f64 / 2.0;
        let half = |s: &Placed| {
            if (s.start + s.end) / 2.0 < centre {
                Side::Left
            } else {
                Side::Right
            }
        };
        let (mut deserts, mut widths, mut sides) = (vec![], vec![], vec![]);
        for seed in 0..40 {
            let m = BiomeMap::new(&p, seed);
            for s in &m.spans {
                match s.biome {
                    Biome::Jungle => assert_eq!(half(s), m.jungle_side, "seed {seed}"),
                    Biome::Snow => assert_eq!(half(s), m.dungeon_side(), "seed {seed}"),
                    _ => {}
                }
            }
            let desert: Vec<&Placed> = m
                .spans
                .iter()
                .filter(|s| s.biome == Biome::Desert)
                .collect();
            deserts.push(desert.len());
            widths.extend(desert.iter().map(|s| s.end - s.start));
            sides.push(m.jungle_side);
        }
        // One desert in some worlds, two in others; widths within 30% of the listed one
        // either way, and not all alike; the jungle on either half.
        assert!(deserts.contains(&1) && deserts.contains(&2), "{deserts:?}");
        let listed = 0.07 * p.width as f64;
        let (lo, hi) = widths
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &w| (a.min(w), b.max(w)));
        assert!(lo >= listed * 0.69 && hi <= listed * 1.31, "{lo}..{hi}");
        assert!(hi > lo * 1.3, "desert widths barely differ: {lo}..{hi}");
        assert!(sides.contains(&Side::Left) && sides.contains(&Side::Right));
    }

    #[test]
    fn outlines_reach_down_each_their_own_way() {
        let p = Preset::default();
        let layers = crate::world::depth::Layers::of(&p);
        let surface = vec![(p.height as f64 * 0.3) as u32; p.width as usize];
        for seed in 0..20 {
            let m = BiomeMap::new(&p, seed);
            let tops = m.tops(&surface);
            for (s, &top) in m.spans.iter().zip(&tops) {
                let mid = ((s.start + s.end) / 2.0) as usize;
                let width = s.end - s.start;
                match s.biome {
                    // Down to the underworld.
                    Biome::Jungle => {
                        let y = layers.underworld + 2;
                        assert_eq!(m.at(mid, y, &surface, &tops), Biome::Jungle, "seed {seed}");
                    }
                    // Into the cavern layer, narrower than at the surface.
                    Biome::Snow => {
                        let (l, r) = m.edges(s, layers.cavern + 40, top).unwrap();
                        assert!(r - l < width && r - l > width * 0.4, "seed {seed}");
                    }
                    // The underground desert: wider than the desert at the surface, under
                    // its sand, and hardened sand there.
                    Biome::Desert => {
                        let y = top as usize + (m.depth * 0.55) as usize;
                        let (l, r) = m.edges(s, y, top).unwrap();
                        assert!(r - l > width * 1.05, "seed {seed}: {} of {width}", r - l);
                        assert!(m.under_desert(y, top) && !m.under_desert(top as usize + 10, top));
                    }
                    _ => {}
                }
            }
        }
    }
}
