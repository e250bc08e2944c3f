//! Pass 4, **ores**: 2D Perlin noise sampled at `(x, y) * frequency`, checked against the
//! preset's ore table in order; the first row whose threshold its noise exceeds and whose
//! minimum depth below the local surface the tile exceeds wins. With `veins: Shared` every
//! row reads one noise field (rarer ores sit inside commoner ones, in rings); with
//! `veins: Separate` each row reads a field of its own, keyed by its place in the table.
//!
//! Expects: stone. Leaves: some stone replaced by ore; nothing else touched. Noise is only
//! evaluated where it may pass a threshold: the thresholds are high, and a bound on the
//! noise over each quarter of a lattice cell, from the cell's corner gradients alone,
//! rules out about nine tenths of every row without sampling it ([`BandJob`]).

use super::noise::{
    QuarterMax, RowPlan, RowPosition, cell_row_exact, cell_row_factored, column_corners,
    corners_of, floor_i32, hash32, quarter, quarter_max,
};
use crate::preset::{Ore, Preset, Veins};
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// The ore at a depth, given each table row's noise value (`noise[i]` for row `i`; the
/// same value throughout for shared veins), or `None` to keep the stone.
#[inline]
pub fn pick(table: &[Ore], noise: &[f32], depth: i64) -> Option<Tile> {
    table
        .iter()
        .zip(noise)
        .find(|(o, n)| **n as f64 > o.threshold && depth > o.min_depth as i64)
        .map(|(o, _)| o.tile)
}

/// The noise key of each noise field, and which field each table row reads.
fn fields(key: u32, veins: Veins, rows: usize) -> (Vec<u32>, Vec<usize>) {
    match veins {
        Veins::Shared => (vec![key], vec![0; rows]),
        Veins::Separate => (
            (0..rows as u32)
                .map(|i| hash32(key ^ (i + 1).wrapping_mul(0x9E37_79B9)))
                .collect(),
            (0..rows).collect(),
        ),
    }
}

/// The largest `f32` whose value is at most `t`, so that for every `f32` noise value
/// `n`, `n > below_or_at(t)` exactly when `n as f64 > t` (the comparison [`pick`] makes).
fn below_or_at(t: f64) -> f32 {
    let c = t as f32;
    if c as f64 > t { c.next_down() } else { c }
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.ores;
    if p.table.is_empty() {
        return;
    }
    let layers = super::layers::Layers::of(preset);
    let (keys, field_of) = fields(key, p.veins, p.table.len());
    let table: Vec<Entry> = p
        .table
        .iter()
        .zip(field_of)
        .map(|(o, field)| Entry::new(o, field, &layers))
        .collect();
    let smin = world.surface.iter().copied().min().unwrap_or(0) as i32;
    let first_row = table
        .iter()
        .map(|e| (smin + e.min_depth + 1).max(e.top))
        .min()
        .unwrap_or(0) as usize;
    let width = world.width();
    let freq = p.frequency as f32;
    let plan = RowPlan::new(0, width, freq);
    let surface = Surface::new(&world.surface);
    // Bands of rows that share a lattice row, so each band hashes its cells' corner
    // gradients once (a band is the unit of parallel work).
    let height = world.height();
    let lattice_row = |y: usize| floor_i32(y as i32 as f32 * freq);
    let mut bands: Vec<(usize, &mut [Tile])> = Vec::new();
    let mut rest = &mut world.tiles_mut()[first_row.min(height) * width..];
    let mut y0 = first_row;
    while y0 < height {
        let y1 = (y0 + 1..height)
            .find(|&y| lattice_row(y) != lattice_row(y0))
            .unwrap_or(height);
        let (band, tail) = std::mem::take(&mut rest).split_at_mut((y1 - y0) * width);
        bands.push((y0, band));
        (rest, y0) = (tail, y1);
    }
    let job = BandJob {
        keys: &keys,
        plan: &plan,
        quarters: &quarters(&plan),
        bounds: quarter_max(),
        exact: p.veins == Veins::Shared,
        freq,
        table: &table,
        surface: &surface,
    };
    bands.into_par_iter().for_each_init(
        || Scratch {
            noise: vec![vec![0f32; width]; keys.len()],
            ore: vec![Tile::Stone; width],
            live: vec![Vec::new(); keys.len()],
            spans: vec![Vec::new(); keys.len()],
            columns: Vec::new(),
        },
        |scratch, (y0, band)| job.band(y0, band, scratch),
    );
}

/// One row of the ore table, as the pass uses it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The threshold at the first row of its layers, and at the row after the last.
    threshold: f64,
    deep: f64,
    /// Its layers' rows: `top..bottom`.
    top: i32,
    bottom: i32,
    min_depth: i32,
    tile: Tile,
    /// The noise field it reads.
    field: usize,
}

impl Entry {
    fn new(o: &Ore, field: usize, layers: &super::layers::Layers) -> Entry {
        let (top, bottom) = layers.rows(o.from, o.to);
        Entry {
            threshold: o.threshold,
            deep: o.deep_threshold.unwrap_or(o.threshold),
            top: top as i32,
            bottom: bottom as i32,
            min_depth: o.min_depth as i32,
            tile: o.tile,
            field,
        }
    }

    /// Whether row `y` lies in its layers.
    #[inline]
    fn holds(&self, y: i32) -> bool {
        (self.top..self.bottom).contains(&y)
    }

    /// Its threshold in row `y`, as the largest f32 at or below the f64 value, so an f32
    /// comparison decides as an f64 one would ([`below_or_at`]). Constant when there is no
    /// `deep_threshold` (exactly `threshold`).
    #[inline]
    fn threshold_at(&self, y: i32) -> f32 {
        let t = (y - self.top) as f64 / (self.bottom - self.top).max(1) as f64;
        below_or_at(self.threshold + (self.deep - self.threshold) * t)
    }
}

/// Per-thread buffers, kept across the bands a thread handles: per noise field, a row of
/// noise (only its live stretches are written), the band's cells that may pass the
/// band's lowest threshold with their corner gradients, and the stretches of the current
/// row worth sampling; and the ore chosen per column (Stone: none), kept all Stone
/// between rows.
struct Scratch {
    noise: Vec<Vec<f32>>,
    ore: Vec<Tile>,
    live: Vec<Vec<(usize, u8)>>,
    spans: Vec<Vec<(usize, usize)>>,
    /// [`column_corners`] of each lattice column of the band.
    columns: Vec<u8>,
}

/// Each lattice cell's columns split at its quarters: the samples of cell `c`'s quarter
/// `q` are `quarters[c][q]..quarters[c][q + 1]` (a quarter may hold none).
fn quarters(plan: &RowPlan) -> Vec<[usize; 5]> {
    plan.cells()
        .iter()
        .map(|&(_, a, b)| {
            let dx = &plan.dx()[a..b];
            // Offsets rise across a cell, so each boundary is a partition point.
            [0, 1, 2, 3, 4].map(|q| a + dx.partition_point(|&d| quarter(d) < q))
        })
        .collect()
}

/// What one band of rows (all in one lattice row) needs.
///
/// The ore noise is single-octave Perlin noise and the thresholds are high (0.5 and up,
/// where noise ranges over [-1, 1]), so most of the field can never pass them: a cell whose
/// four corner gradients do not point inwards stays well below 0.5. [`quarter_max`]
/// bounds the noise over each quarter of a cell from its corner gradients alone, so the
/// pass samples only the quarters of a row whose bound is above the row's lowest
/// threshold, about a tenth of the row. Skipping the others changes nothing: no sample
/// there can pass any threshold, and the samples taken are the same values the whole-row
/// kernels give (the cell kernels are bit-identical to them).
struct BandJob<'a> {
    /// One per noise field.
    keys: &'a [u32],
    plan: &'a RowPlan,
    quarters: &'a [[usize; 5]],
    bounds: &'a QuarterMax,
    /// The exact kernel (shared veins, whose output predates the factored one), or the
    /// factored one (separate veins).
    exact: bool,
    freq: f32,
    table: &'a [Entry],
    surface: &'a Surface,
}

impl BandJob<'_> {
    /// The lowest threshold of the table rows reading `field` that may place ore in row
    /// `y`, or `None` if none may.
    #[inline(always)]
    fn lowest_threshold(&self, field: usize, y: i32) -> Option<f32> {
        self.table
            .iter()
            .filter(|e| e.field == field && e.holds(y) && y - self.surface.min > e.min_depth)
            .map(|e| e.threshold_at(y))
            .reduce(f32::min)
    }

    /// [`BandJob::rows`], with AVX2 when the CPU has it (checked at run time): wider
    /// lanes for the hashing, the noise and the sweep, the same IEEE operations in the
    /// same order (Rust never fuses multiply-adds), so the same output.
    fn band(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.rows_avx2(y0, band, scratch) };
        }
        self.rows(y0, band, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn rows_avx2(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        self.rows(y0, band, scratch)
    }

    /// The rows of a band, from row `y0`.
    #[inline(always)]
    fn rows(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        let width = self.plan.len();
        let iy = RowPosition::of(y0, self.freq).iy;
        let y1 = (y0 + band.len() / width) as i32;
        let cells = self.plan.cells();
        let ix0 = cells.first().map_or(0, |c| c.0);
        let columns = cells.last().map_or(0, |c| c.0 - ix0 + 2) as usize;
        for (field, (&key, live)) in self.keys.iter().zip(&mut scratch.live).enumerate() {
            live.clear();
            let lowest = (y0 as i32..y1).filter_map(|y| self.lowest_threshold(field, y));
            let Some(threshold) = lowest.reduce(f32::min) else {
                continue;
            };
            // Each lattice column hashed once, in one loop that vectorises.
            let bits = &mut scratch.columns;
            bits.clear();
            bits.extend((0..columns as i32).map(|i| column_corners(key, ix0 + i, iy)));
            for (c, &(ix, _, _)) in cells.iter().enumerate() {
                let i = (ix - ix0) as usize;
                let corners = corners_of(bits[i], bits[i + 1]);
                if self.bounds.cell[corners as usize] > threshold {
                    live.push((c, corners));
                }
            }
        }
        for (y, row) in (y0..).zip(band.chunks_mut(width)) {
            self.row(y, row, scratch);
        }
    }

    /// One row: the live stretches of each field's noise, the ore choice there, then
    /// rock takes it.
    #[inline(always)]
    fn row(&self, y: usize, row: &mut [Tile], scratch: &mut Scratch) {
        let Scratch {
            noise,
            ore,
            live,
            spans,
            ..
        } = scratch;
        let y32 = y as i32;
        let at = RowPosition::of(y, self.freq);
        let qy = quarter(at.dy);
        let (dx, u) = (self.plan.dx(), self.plan.u());
        for (field, (noise, spans)) in noise.iter_mut().zip(spans.iter_mut()).enumerate() {
            spans.clear();
            let Some(threshold) = self.lowest_threshold(field, y32) else {
                continue;
            };
            for &(c, corners) in &live[field] {
                if self.bounds.row[corners as usize][qy] <= threshold {
                    continue;
                }
                let bound = &self.bounds.quarter[corners as usize][qy];
                // The first and last quarter that may pass; those between are sampled too.
                let first = (0..4).find(|&i| bound[i] > threshold).unwrap_or(0);
                let last = (first..4).rfind(|&i| bound[i] > threshold).unwrap_or(first);
                let q = &self.quarters[c];
                let (a, b) = (q[first], q[last + 1]);
                if a == b {
                    continue;
                }
                let (dx, u, out) = (&dx[a..b], &u[a..b], &mut noise[a..b]);
                if self.exact {
                    cell_row_exact(corners, dx, u, at, out);
                } else {
                    cell_row_factored(corners, dx, u, at, out);
                }
                spans.push((a, b));
            }
        }
        // The table last row first, so the first match wins (as in `pick`).
        for e in self.table.iter().rev() {
            if !e.holds(y32) || y32 - self.surface.min <= e.min_depth {
                continue;
            }
            let (threshold, min_depth, tile) = (e.threshold_at(y32), e.min_depth, e.tile);
            let noise = &noise[e.field];
            for &(a, b) in &spans[e.field] {
                let depths = &self.surface.heights[a..b];
                for ((o, &n), &s) in ore[a..b].iter_mut().zip(&noise[a..b]).zip(depths) {
                    if n > threshold && y32 - s > min_depth {
                        *o = tile;
                    }
                }
            }
        }
        // Ore takes rock: stone, and the underworld's ash. One sweep over the whole row
        // rather than over the stretches: the row is not in cache, and a straight walk
        // through it costs less than a cache miss per stretch.
        if spans.iter().all(|s| s.is_empty()) {
            return;
        }
        for (t, o) in row.iter_mut().zip(ore.iter_mut()) {
            *t = if (*t == Tile::Stone || *t == Tile::Ash) && *o != Tile::Stone {
                *o
            } else {
                *t
            };
            *o = Tile::Stone;
        }
    }
}

/// The surface row of every column, and the highest of them.
struct Surface {
    heights: Vec<i32>,
    min: i32,
}

impl Surface {
    fn new(surface: &[u32]) -> Surface {
        let heights: Vec<i32> = surface.iter().map(|&s| s as i32).collect();
        let min = heights.iter().copied().min().unwrap_or(0);
        Surface { heights, min }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    /// Classic's ore table: one threshold at every depth.
    fn classic_table() -> Vec<Ore> {
        vec![
            Ore::everywhere(Tile::DiamondOre, 0.6, 20),
            Ore::everywhere(Tile::GoldOre, 0.35, 10),
            Ore::everywhere(Tile::IronOre, 0.15, 5),
        ]
    }

    #[test]
    fn table_is_checked_in_order_with_depths() {
        let t = crate::preset::OreParams::default().table;
        let classic = classic_table();
        let shared = |n: f32| [n; 3];
        assert_eq!(pick(&classic, &shared(0.7), 21), Some(Tile::DiamondOre));
        assert_eq!(pick(&classic, &shared(0.7), 20), Some(Tile::GoldOre));
        assert_eq!(pick(&classic, &shared(0.7), 10), Some(Tile::IronOre));
        assert_eq!(pick(&classic, &shared(0.7), 5), None);
        assert_eq!(pick(&classic, &shared(0.2), 100), Some(Tile::IronOre));
        assert_eq!(pick(&classic, &shared(0.1), 100), None);
        // Separate fields: each row against its own value, the first match still wins.
        assert_eq!(pick(&classic, &[0.1, 0.5, 0.9], 100), Some(Tile::GoldOre));
        assert_eq!(pick(&classic, &[0.1, 0.2, 0.9], 100), Some(Tile::IronOre));
        assert_eq!(pick(&classic, &[0.65, 0.2, 0.9], 15), Some(Tile::IronOre));
        assert!(!t.is_empty());
    }

    /// The pass written plainly: every row's noise in full (the whole-row kernels), each
    /// tile's threshold worked out in f64, the table checked in order, ore into rock.
    fn reference(world: &mut World, preset: &Preset, key: u32) {
        use crate::worldgen::noise::{
            FactoredRow, LatticeRow, perlin_2d_row_cached, perlin_2d_row_factored,
        };
        let p = &preset.ores;
        let layers = super::super::layers::Layers::of(preset);
        let (keys, field_of) = fields(key, p.veins, p.table.len());
        let (w, h, f) = (world.width(), world.height(), p.frequency as f32);
        let plan = RowPlan::new(0, w, f);
        let mut noise = vec![vec![0f32; w]; keys.len()];
        for y in 0..h {
            for (k, out) in keys.iter().zip(&mut noise) {
                match p.veins {
                    Veins::Shared => {
                        perlin_2d_row_cached(*k, &plan, &mut LatticeRow::default(), y, f, out)
                    }
                    Veins::Separate => {
                        perlin_2d_row_factored(*k, &plan, &mut FactoredRow::default(), y, f, out)
                    }
                }
            }
            #[allow(clippy::needless_range_loop)] // x indexes noise, surface and tiles alike
            for x in 0..w {
                let depth = y as i64 - world.surface[x] as i64;
                let hit = p.table.iter().zip(&field_of).find(|(o, field)| {
                    let (top, bottom) = layers.rows(o.from, o.to);
                    let deep = o.deep_threshold.unwrap_or(o.threshold);
                    let t = (y as f64 - top as f64) / (bottom as f64 - top as f64).max(1.0);
                    (top..bottom).contains(&y)
                        && noise[**field][x] as f64 > o.threshold + (deep - o.threshold) * t
                        && depth > o.min_depth as i64
                });
                let t = world.tile(x, y);
                if let Some((o, _)) = hit
                    && (t == Tile::Stone || t == Tile::Ash)
                    && o.tile != Tile::Stone
                {
                    world.set(x, y, o.tile);
                }
            }
        }
    }

    #[test]
    fn pass_matches_a_plain_reference_on_random_worlds() {
        use crate::worldgen::layers::Layer::*;
        use rand::RngExt;
        let mut rng = crate::rng::pass_rng(17, "ore test");
        let tiles = [Tile::Stone, Tile::Stone, Tile::Ash, Tile::Air, Tile::Dirt];
        let mut changed = 0;
        for case in 0..12 {
            let (w, h) = (rng.random_range(40..400), rng.random_range(40..300));
            let mut preset = Preset {
                width: w as u32,
                height: h as u32,
                ..Preset::default()
            };
            preset.ores.frequency = [0.09, 0.3, 0.05, 1.0][case % 4];
            preset.ores.veins = [Veins::Shared, Veins::Separate][case % 2];
            let layer =
                |r: &mut PassRng| [Surface, Underground, Cavern, Underworld][r.random_range(0..4)];
            preset.ores.table = (0..rng.random_range(1..7))
                .map(|i| {
                    let (a, b) = (layer(&mut rng), layer(&mut rng));
                    Ore {
                        tile: [Tile::IronOre, Tile::GoldOre, Tile::Stone, Tile::Ash][i % 4],
                        threshold: rng.random_range(-0.2..0.9),
                        deep_threshold: rng.random_bool(0.5).then(|| rng.random_range(0.3..0.9)),
                        min_depth: rng.random_range(0..20),
                        from: a.min(b),
                        to: a.max(b),
                    }
                })
                .collect();
            let mut world = World::new(w, h, 1, preset.clone());
            for x in 0..w {
                world.surface[x] = rng.random_range(0..h as u32 / 2);
            }
            for t in world.tiles_mut() {
                *t = tiles[rng.random_range(0..tiles.len())];
            }
            let mut fast = world.clone();
            let mut pass_rng = crate::rng::pass_rng(case as u64, "ores");
            let key = pass_rng.clone().next_u32();
            apply(&mut fast, &preset, &mut pass_rng);
            changed += fast
                .tiles()
                .iter()
                .zip(world.tiles())
                .filter(|(a, b)| a != b)
                .count();
            reference(&mut world, &preset, key);
            assert!(
                fast.tiles() == world.tiles(),
                "case {case}: {:?}",
                preset.ores
            );
        }
        assert!(changed > 1000, "only {changed} tiles turned to ore");
    }

    #[test]
    fn separate_veins_do_not_nest() {
        // With one field, every diamond tile is ringed by gold; with a field per ore, many
        // diamonds touch no gold at all.
        let preset = |veins| crate::preset::Preset {
            width: 600,
            height: 500,
            ores: crate::preset::OreParams {
                veins,
                ..Default::default()
            },
            ..Default::default()
        };
        let ringed = |veins| {
            let (w, _) = crate::worldgen::generate(&preset(veins), 11);
            let (mut diamonds, mut beside_gold) = (0, 0);
            for y in 1..w.height() - 1 {
                for x in 1..w.width() - 1 {
                    if w.tile(x, y) == Tile::DiamondOre {
                        diamonds += 1;
                        let n = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)];
                        beside_gold += n.iter().any(|&(a, b)| w.tile(a, b) == Tile::GoldOre) as u32;
                    }
                }
            }
            assert!(diamonds > 20, "{veins:?}: {diamonds} diamonds");
            beside_gold as f64 / diamonds as f64
        };
        let (shared, separate) = (ringed(Veins::Shared), ringed(Veins::Separate));
        assert!(shared > 0.3, "shared veins nest diamonds in gold: {shared}");
        assert!(
            separate < shared / 3.0,
            "separate {separate} vs shared {shared}"
        );
    }

    #[test]
    fn ores_keep_to_their_layers_and_grow_richer_with_depth() {
        let p = crate::preset::Preset {
            width: 2000,
            height: 800,
            ..Default::default()
        };
        let l = super::super::layers::Layers::of(&p);
        let w = crate::worldgen::generate(&p, 5).0;
        // Per layer (surface, underground, cavern, underworld): rock, copper, all ore.
        let mut rock = [0u64; 4];
        let mut copper = [0u64; 4];
        let mut ore = [0u64; 4];
        for y in 0..w.height() {
            for x in 0..w.width() {
                let t = w.tile(x, y);
                let layer = match l.at(y, w.surface[x]) {
                    super::super::layers::Layer::Sky => continue,
                    super::super::layers::Layer::Surface => 0,
                    super::super::layers::Layer::Underground => 1,
                    super::super::layers::Layer::Cavern => 2,
                    super::super::layers::Layer::Underworld => 3,
                };
                let is_ore = crate::survey::is_ore(t);
                rock[layer] += (is_ore || t == Tile::Stone || t == Tile::Ash) as u64;
                ore[layer] += is_ore as u64;
                copper[layer] += (t == Tile::CopperOre) as u64;
                match t {
                    Tile::Hellstone => assert!(y >= l.underworld, "hellstone at ({x}, {y})"),
                    Tile::GoldOre | Tile::DiamondOre => {
                        assert!((l.cavern..l.underworld).contains(&y), "{t:?} at ({x}, {y})")
                    }
                    Tile::SilverOre => assert!(y >= l.underground, "silver at ({x}, {y})"),
                    Tile::CopperOre | Tile::IronOre => assert!(y < l.underworld),
                    _ => {}
                }
            }
        }
        let share = |n: u64, d: u64| n as f64 / d.max(1) as f64;
        let near = share(copper[0] + copper[1], rock[0] + rock[1]);
        let cavern = share(copper[2], rock[2]);
        assert!(near > 0.002, "copper near the surface: {near}");
        assert!(
            cavern >= 2.0 * near,
            "copper {cavern} in the caverns, {near} near the surface"
        );
        let all = share(ore.iter().sum(), rock.iter().sum());
        assert!((0.01..=0.05).contains(&all), "ore is {all} of the rock");
        assert!(ore[3] > 0, "no hellstone");
    }

    #[test]
    fn f32_thresholds_decide_like_f64_ones() {
        for t in [
            0.6,
            0.35,
            0.15,
            0.3,
            0.45,
            0.62,
            -1.0,
            1.0,
            0.1 + 0.2,
            1.0 / 3.0,
            -0.7,
        ] {
            let c = below_or_at(t);
            for n in [
                c.next_down(),
                c,
                c.next_up(),
                t as f32,
                (t as f32).next_up(),
                (t as f32).next_down(),
            ] {
                assert_eq!(n > c, n as f64 > t, "n {n} t {t}");
            }
        }
    }

    #[test]
    fn ore_only_replaces_stone_and_respects_depth() {
        let mut rows = vec!["          ".to_string(); 4];
        for y in 0..40 {
            rows.push(if y % 3 == 0 {
                "#. #.#  ##".into()
            } else {
                "##########".into()
            });
        }
        let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
        let mut preset = crate::preset::Preset::default();
        preset.ores.frequency = 0.3;
        preset.ores.table = vec![Ore::everywhere(Tile::IronOre, -1.0, 6)];
        let before = World::from_ascii(&refs).unwrap();
        let mut after = before.clone();
        apply(&mut after, &preset, &mut crate::rng::pass_rng(3, "ores"));
        let mut ores = 0;
        for y in 0..before.height() {
            for x in 0..before.width() {
                let (b, a) = (before.tile(x, y), after.tile(x, y));
                let depth = y as i64 - before.surface[x] as i64;
                if b != Tile::Stone || depth <= 6 {
                    assert_eq!(a, b, "({x},{y}) changed from {b:?}");
                } else {
                    assert_eq!(a, Tile::IronOre, "threshold -1 makes all deep stone ore");
                    ores += 1;
                }
            }
        }
        assert!(ores > 100);
    }
}
