//! Pass 4, **ores**: 2D Perlin noise sampled at `(x, y) * frequency`, checked against the
//! preset's ore table in order; the first row whose threshold its noise exceeds and whose
//! minimum depth below the local surface the tile exceeds wins. With `veins: Shared` every
//! row reads one noise field (rarer ores sit inside commoner ones, in rings); with
//! `veins: Separate` each row reads a field of its own, keyed by its place in the table.
//!
//! Expects: stone. Leaves: some stone replaced by ore; nothing else touched. Noise is
//! evaluated for whole rows from the first row deep enough for some ore: a row of noise is
//! one vectorised loop, cheaper than working out which parts of it hold stone.

use super::noise::hash32;
use super::noise::{
    FactoredRow, LatticeRow, RowPlan, floor_i32, perlin_2d_row_cached, perlin_2d_row_factored,
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
    // Bands of rows that share a lattice row, so each band builds its lattice terms
    // once (a band is the unit of parallel work).
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
    let job = RowJob {
        keys: &keys,
        plan: &plan,
        freq,
        table: &table,
        surface: &surface,
    };
    bands.into_par_iter().for_each_init(
        || Scratch {
            noise: vec![vec![0f32; width]; keys.len()],
            ore: vec![Tile::Stone; width],
            lattice: (0..keys.len()).map(|_| FieldRow::new(p.veins)).collect(),
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

/// Per-thread buffers, kept across the bands a thread handles: a row of noise and its
/// lattice terms per noise field.
struct Scratch {
    noise: Vec<Vec<f32>>,
    ore: Vec<Tile>,
    lattice: Vec<FieldRow>,
}

/// A noise field's lattice terms. Shared veins (classic) keep the exact row kernel, whose
/// output predates the factored one; separate veins, which have no older output to
/// match, use the factored kernel at about half the cost.
enum FieldRow {
    Exact(LatticeRow),
    Factored(FactoredRow),
}

impl FieldRow {
    fn new(veins: Veins) -> FieldRow {
        match veins {
            Veins::Shared => FieldRow::Exact(LatticeRow::default()),
            Veins::Separate => FieldRow::Factored(FactoredRow::default()),
        }
    }

    #[inline(always)]
    fn fill(&mut self, key: u32, plan: &RowPlan, y: usize, freq: f32, out: &mut [f32]) {
        match self {
            FieldRow::Exact(l) => perlin_2d_row_cached(key, plan, l, y, freq, out),
            FieldRow::Factored(f) => perlin_2d_row_factored(key, plan, f, y, freq, out),
        }
    }
}

/// What one row of the pass needs.
struct RowJob<'a> {
    /// One per noise field.
    keys: &'a [u32],
    plan: &'a RowPlan,
    freq: f32,
    table: &'a [Entry],
    surface: &'a Surface,
}

impl RowJob<'_> {
    /// A whole row of noise, the ore choice for every column, then stone takes it.
    #[inline(always)]
    fn run(&self, y: usize, row: &mut [Tile], scratch: &mut Scratch) {
        let Scratch {
            noise,
            ore,
            lattice,
        } = scratch;
        let y32 = y as i32;
        for (field, (&key, (noise, lattice))) in self
            .keys
            .iter()
            .zip(noise.iter_mut().zip(lattice))
            .enumerate()
        {
            // A field only rows too deep for this row's columns read is not needed.
            let wanted = self
                .table
                .iter()
                .any(|e| e.field == field && y32 - self.surface.min > e.min_depth && e.holds(y32));
            if wanted {
                lattice.fill(key, self.plan, y, self.freq, noise);
            }
        }
        pick_row(self.table, y32, noise, self.surface, ore);
        // Ore takes rock: stone, and the underworld's ash.
        for (t, &o) in row.iter_mut().zip(ore.iter()) {
            *t = if (*t == Tile::Stone || *t == Tile::Ash) && o != Tile::Stone {
                o
            } else {
                *t
            };
        }
    }

    /// The rows of a band, from row `y0`.
    #[inline(always)]
    fn rows(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        for (y, row) in (y0..).zip(band.chunks_mut(self.plan.len())) {
            self.run(y, row, scratch);
        }
    }

    /// [`RowJob::rows`], with AVX2 when the CPU has it (checked at run time): twice the
    /// lanes, the same IEEE operations in the same order (Rust never fuses multiply-adds),
    /// so the same output. (AVX-512 was tried: no faster, the loop waits on memory.)
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
}

/// The surface row of every column, and the highest and lowest of them.
struct Surface {
    heights: Vec<i32>,
    min: i32,
    max: i32,
}

impl Surface {
    fn new(surface: &[u32]) -> Surface {
        let heights: Vec<i32> = surface.iter().map(|&s| s as i32).collect();
        let min = heights.iter().copied().min().unwrap_or(0);
        let max = heights.iter().copied().max().unwrap_or(0);
        Surface { heights, min, max }
    }
}

/// `out[x]` = what [`pick`] chooses for column `x` of row `y`, with `Tile::Stone` for no
/// ore, given a row of noise per field. Branch-free: the table is applied last entry
/// first, so the first match wins, and each entry is one vectorised pass over the row. An
/// entry too deep for every column of the row is skipped, and one deep enough for every
/// column skips the depth test.
#[inline(always)]
fn pick_row(table: &[Entry], y: i32, noise: &[Vec<f32>], surface: &Surface, out: &mut [Tile]) {
    let (smin, smax, surface) = (surface.min, surface.max, &surface.heights);
    out.fill(Tile::Stone);
    for e in table.iter().rev() {
        if !e.holds(y) {
            continue;
        }
        let (threshold, min_depth, tile) = (e.threshold_at(y), e.min_depth, e.tile);
        let noise = &noise[e.field];
        if y - smin <= min_depth {
            continue;
        }
        if y - smax > min_depth {
            for (o, &n) in out.iter_mut().zip(noise) {
                *o = if n > threshold { tile } else { *o };
            }
            continue;
        }
        for ((o, &n), &s) in out.iter_mut().zip(noise).zip(surface) {
            *o = if (n > threshold) & (y - s > min_depth) {
                tile
            } else {
                *o
            };
        }
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

    #[test]
    fn row_picks_match_pick_for_shared_and_separate_veins() {
        let table = classic_table();
        let layers = super::super::layers::Layers::new(&Default::default(), 1000);
        let surface = Surface::new(&(0..4000).map(|i| i * 7 % 300).collect::<Vec<u32>>());
        for veins in [Veins::Shared, Veins::Separate] {
            let (keys, field_of) = fields(9, veins, table.len());
            let entries: Vec<Entry> = table
                .iter()
                .zip(&field_of)
                .map(|(o, &field)| Entry::new(o, field, &layers))
                .collect();
            let noise: Vec<Vec<f32>> = keys
                .iter()
                .map(|&k| {
                    (0..4000)
                        .map(|i| crate::worldgen::noise::perlin_2d(k, i as f32 * 0.37, 0.5) * 1.3)
                        .collect()
                })
                .collect();
            let mut out = vec![Tile::Air; 4000];
            for y in [0, 50, 130, 299, 400] {
                pick_row(&entries, y, &noise, &surface, &mut out);
                for x in 0..4000 {
                    let depth = (y - surface.heights[x]) as i64;
                    let at: Vec<f32> = field_of.iter().map(|&f| noise[f][x]).collect();
                    let want = pick(&table, &at, depth).unwrap_or(Tile::Stone);
                    assert_eq!(out[x], want, "{veins:?} x {x} y {y}");
                }
            }
        }
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
