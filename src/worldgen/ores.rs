//! Pass 4, **ores**: 2D Perlin noise sampled at `(x, y) * frequency`, checked against the
//! preset's ore table in order; the first row whose threshold its noise exceeds and whose
//! minimum depth below the local surface the tile exceeds wins. With `veins: Shared` every
//! row reads one noise field (rarer ores sit inside commoner ones, in rings); with
//! `veins: Separate` each row reads a field of its own, keyed by its place in the table.
//!
//! Expects: stone. Leaves: some stone replaced by ore; nothing else touched. Noise is only
//! evaluated where it may pass a threshold: the thresholds are high, and a bound on the
//! noise over each quarter of a lattice cell, from the cell's corner gradients alone,
//! rules out about nine tenths of every row without sampling it ([`BandJob`]). That bound
//! is Perlin's; ore fields in another basis (`ores.basis`) are sampled whole, row by row,
//! on the rows some table row may place ore in ([`place_rows`]).

use crate::base::noise::{
    Basis, FactoredRow, LatticeRow, QuarterMax, RowNoise, RowPlan, RowPosition, cell_row_exact,
    column_corners, corner_signs, corners_of, factored_sample, factored_terms, floor_i32, hash32,
    perlin_2d_row_cached, perlin_2d_row_factored, quarter, quarter_max,
};
use crate::base::rng::PassRng;
use crate::content::preset::{Ore, Preset, Veins};
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

/// The key of table row `i`'s own field (with `Veins::Separate`), from the pass key.
pub fn vein_key(key: u32, i: usize) -> u32 {
    hash32(key ^ (i as u32 + 1).wrapping_mul(0x9E37_79B9))
}

/// The noise key of each noise field, and which field each table row reads.
fn fields(key: u32, veins: Veins, rows: usize) -> (Vec<u32>, Vec<usize>) {
    match veins {
        Veins::Shared => (vec![key], vec![0; rows]),
        Veins::Separate => (
            (0..rows).map(|i| vein_key(key, i)).collect(),
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
    place(world, preset, rng, true)
}

/// The pass, with AVX2 where the CPU has it if `simd` (without, the plain kernels: the
/// same output, which a test checks).
fn place(world: &mut World, preset: &Preset, rng: &mut PassRng, simd: bool) {
    let key = rng.next_u32();
    let p = &preset.ores;
    if p.table.is_empty() {
        return;
    }
    let layers = crate::world::depth::Layers::of(preset);
    let (keys, field_of) = fields(key, p.veins, p.table.len());
    let table: Vec<Entry> = p
        .table
        .iter()
        .zip(field_of)
        .map(|(o, field)| Entry::new(o, field, &layers))
        .collect();
    let surface = Surface::new(&world.surface);
    if p.basis != Basis::Perlin {
        return place_rows(world, preset, &keys, &table, &surface);
    }
    let first_row = table
        .iter()
        .map(|e| (surface.min + e.min_depth + 1).max(e.top))
        .min()
        .unwrap_or(0) as usize;
    let width = world.width();
    let freq = p.frequency as f32;
    let plan = RowPlan::new(0, width, freq);
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
        bounds: quarter_max(),
        exact: p.veins == Veins::Shared,
        freq,
        table: &table,
        surface: &surface,
        lanes: &Lanes::new(&plan, &surface),
        simd,
    };
    bands.into_par_iter().for_each_init(
        || Scratch {
            ore: Vec::new(),
            placed: Vec::new(),
            live: Vec::new(),
            columns: Vec::new(),
            rows: Vec::new(),
            entries: Vec::new(),
            groups: Vec::new(),
            whole: WholeRows::default(),
        },
        |scratch, (y0, band)| job.band(y0, band, scratch),
    );
}

/// The pass for ore fields in a basis other than Perlin's: each row in parallel, every
/// field a table row there reads sampled along the whole row with the basis' row kernel,
/// then the table checked in order at each tile (as [`pick`]), ore into rock.
fn place_rows(world: &mut World, preset: &Preset, keys: &[u32], table: &[Entry], s: &Surface) {
    let p = &preset.ores;
    let (width, freq) = (world.width(), p.frequency as f32);
    let plan = RowPlan::new(0, width, freq);
    let first = table.iter().map(|e| e.top.max(0)).min().unwrap_or(0) as usize;
    let tiles = world.tiles_mut();
    let start = (first * width).min(tiles.len());
    let rows = tiles[start..].par_chunks_mut(width);
    rows.enumerate().for_each_init(
        || {
            (
                vec![RowNoise::new(p.basis); keys.len()],
                vec![vec![0f32; width]; keys.len()],
            )
        },
        |(rows, noise), (r, row)| {
            let y = (first + r) as i32;
            let here: Vec<(&Entry, f32)> = table
                .iter()
                .filter(|e| e.holds(y) && y - s.min > e.min_depth)
                .map(|e| (e, e.threshold_at(y)))
                .collect();
            for (field, (cache, out)) in rows.iter_mut().zip(noise.iter_mut()).enumerate() {
                if here.iter().any(|(e, _)| e.field == field) {
                    cache.row(keys[field], &plan, y as usize, freq, out);
                }
            }
            for (x, t) in row.iter_mut().enumerate() {
                let depth = y - s.heights[x];
                let hit = here
                    .iter()
                    .find(|(e, th)| noise[e.field][x] > *th && depth > e.min_depth);
                if let Some((e, _)) = hit
                    && (*t == Tile::Stone || *t == Tile::Ash)
                    && e.tile != Tile::Stone
                {
                    *t = e.tile;
                }
            }
        },
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
    fn new(o: &Ore, field: usize, layers: &crate::world::depth::Layers) -> Entry {
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

/// Per-thread buffers, kept across the bands a thread handles.
struct Scratch {
    /// The ore chosen per tile of the band (Stone: none), [`LANES`] more at the end; all
    /// Stone between bands.
    ore: Vec<Tile>,
    /// Per row of the band, whether any ore was chosen in it.
    placed: Vec<bool>,
    /// The current field's cells that may pass the band's lowest threshold, with their
    /// corner gradients.
    live: Vec<(usize, u8)>,
    /// [`column_corners`] of each lattice column of the band.
    columns: Vec<u8>,
    /// Per row of the band, for the current field.
    rows: Vec<RowInfo>,
    /// The table rows of every [`RowInfo`]: threshold, depth, tile.
    entries: Vec<(f32, i32, Tile)>,
    /// The current cell's groups of samples.
    groups: Vec<Group>,
    whole: WholeRows,
}

/// One row of noise, and the whole-row kernels' lattice terms ([`BandJob::whole_rows`]).
#[derive(Default)]
struct WholeRows {
    noise: Vec<f32>,
    lattice: LatticeRow,
    factored: FactoredRow,
}

/// One row of a band, for one noise field.
#[derive(Clone, Copy, Debug)]
struct RowInfo {
    at: RowPosition,
    /// Its [`quarter`] of the lattice cell.
    qy: usize,
    /// The lowest threshold of its table rows (infinite if none may place ore here).
    lowest: f32,
    /// Its table rows, last first: `entries[from..to]`.
    from: usize,
    to: usize,
}

/// What one band of rows (all in one lattice row) needs.
///
/// The ore noise is single-octave Perlin noise and the thresholds are high (0.5 and up,
/// where noise ranges over [-1, 1]), so most of the field can never pass them: a cell whose
/// four corner gradients do not point inwards stays well below 0.5. [`quarter_max`]
/// bounds the noise over each quarter of a cell from its corner gradients alone, so the
/// pass samples only the cells, and the groups of [`LANES`] samples of a cell's row, whose
/// bound is above the row's lowest threshold: about a tenth of the field. Skipping the
/// others changes nothing: no sample there can pass any threshold, and the samples taken
/// are the same values the whole-row kernels give (the cell kernels are bit-identical to
/// them).
///
/// The band is walked cell by cell, each cell down all its rows, so a cell's
/// row-independent half of the noise is worked out once for the band.
struct BandJob<'a> {
    /// One per noise field.
    keys: &'a [u32],
    plan: &'a RowPlan,
    bounds: &'a QuarterMax,
    /// The exact kernel (shared veins, whose output predates the factored one), or the
    /// factored one (separate veins).
    exact: bool,
    freq: f32,
    table: &'a [Entry],
    surface: &'a Surface,
    lanes: &'a Lanes,
    /// Whether AVX2 may be used where the CPU has it.
    simd: bool,
}

impl BandJob<'_> {
    /// [`BandJob::rows`], with AVX2 when the CPU has it (checked at run time): the same
    /// IEEE operations in the same order (Rust never fuses multiply-adds), so the same
    /// output.
    fn band(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        #[cfg(target_arch = "x86_64")]
        if self.simd && std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.rows_avx2(y0, band, scratch) };
        }
        self.rows::<false>(y0, band, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn rows_avx2(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        self.rows::<true>(y0, band, scratch)
    }

    /// The rows of a band, from row `y0`: each field's live cells, last table row first
    /// so the first match wins (as in `pick`), then rock takes the ore chosen.
    #[inline(always)]
    fn rows<const AVX2: bool>(&self, y0: usize, band: &mut [Tile], scratch: &mut Scratch) {
        let width = self.plan.len();
        let n_rows = band.len() / width;
        let iy = RowPosition::of(y0, self.freq).iy;
        let cells = self.plan.cells();
        let ix0 = cells.first().map_or(0, |c| c.0);
        let columns = cells.last().map_or(0, |c| c.0 - ix0 + 2) as usize;
        if scratch.ore.len() < n_rows * width + LANES {
            scratch.ore.resize(n_rows * width + LANES, Tile::Stone);
        }
        scratch.placed.clear();
        scratch.placed.resize(n_rows, false);
        // With separate veins field `i` is table row `i`; with shared veins one field
        // holds every row: either way, fields last first visit table rows last first.
        for field in (0..self.keys.len()).rev() {
            self.plan_rows(field, y0, n_rows, scratch);
            let lowest = scratch
                .rows
                .iter()
                .map(|r| r.lowest)
                .fold(f32::INFINITY, f32::min);
            if lowest == f32::INFINITY {
                continue;
            }
            // Each lattice column hashed once, in one loop that vectorises.
            let key = self.keys[field];
            let bits = &mut scratch.columns;
            bits.clear();
            bits.extend((0..columns as i32).map(|i| column_corners(key, ix0 + i, iy)));
            let mut live = std::mem::take(&mut scratch.live);
            live.clear();
            for (c, &(ix, _, _)) in cells.iter().enumerate() {
                let i = (ix - ix0) as usize;
                let corners = corners_of(bits[i], bits[i + 1]);
                if self.bounds.cell[corners as usize] > lowest {
                    live.push((c, corners));
                }
            }
            // Where most of the row is live (low thresholds, as classic's, or cells narrower
            // than a group), whole rows of noise cost less than the cells' groups.
            let live_lanes: usize = live
                .iter()
                .map(|&(c, _)| (cells[c].2 - cells[c].1).div_ceil(LANES) * LANES)
                .sum();
            if live_lanes > width / 2 {
                self.whole_rows(key, y0, scratch);
            } else {
                for &(c, corners) in &live {
                    self.cell::<AVX2>(c, corners, y0, scratch);
                }
            }
            scratch.live = live;
        }
        // Ore takes rock: stone, and the underworld's ash. One sweep over each whole row
        // that got ore, rather than over the cells: a straight walk costs less than a
        // cache miss per cell.
        for (r, row) in band.chunks_mut(width).enumerate() {
            if !scratch.placed[r] {
                continue;
            }
            let ore = &mut scratch.ore[r * width..(r + 1) * width];
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

    /// Every row of the band that holds table rows of the field (`key`, planned in
    /// `scratch.rows`) sampled in full by the whole-row kernel (bit-identical to the cell
    /// kernels), then each table row writes its tile where it passes.
    #[inline(always)]
    fn whole_rows(&self, key: u32, y0: usize, scratch: &mut Scratch) {
        let width = self.plan.len();
        let (rows, entries) = (&scratch.rows, &scratch.entries);
        let (ore, placed) = (&mut scratch.ore, &mut scratch.placed);
        let WholeRows {
            noise,
            lattice,
            factored,
        } = &mut scratch.whole;
        noise.resize(width, 0.0);
        let surface = &self.lanes.surface[..width];
        for (r, row) in rows.iter().enumerate() {
            if row.from == row.to {
                continue;
            }
            let y = y0 + r;
            if self.exact {
                perlin_2d_row_cached(key, self.plan, lattice, y, self.freq, noise);
            } else {
                perlin_2d_row_factored(key, self.plan, factored, y, self.freq, noise);
            }
            let ore = &mut ore[r * width..(r + 1) * width];
            let y = y as i32;
            for &(threshold, min_depth, tile) in &entries[row.from..row.to] {
                let mut any = false;
                for ((o, &n), &s) in ore.iter_mut().zip(noise.iter()).zip(surface) {
                    let hit = n > threshold && y - s > min_depth;
                    *o = if hit { tile } else { *o };
                    any |= hit;
                }
                placed[r] |= any;
            }
        }
    }

    /// `scratch.rows` and `scratch.entries` for `field` in the band's rows.
    #[inline(always)]
    fn plan_rows(&self, field: usize, y0: usize, n_rows: usize, scratch: &mut Scratch) {
        let Scratch { rows, entries, .. } = scratch;
        rows.clear();
        entries.clear();
        for y in y0..y0 + n_rows {
            let y32 = y as i32;
            let from = entries.len();
            entries.extend(self.table.iter().rev().filter_map(|e| {
                let here = e.field == field && e.holds(y32) && y32 - self.surface.min > e.min_depth;
                here.then(|| (e.threshold_at(y32), e.min_depth, e.tile))
            }));
            let lowest = entries[from..]
                .iter()
                .map(|e| e.0)
                .fold(f32::INFINITY, f32::min);
            let at = RowPosition::of(y, self.freq);
            let (qy, to) = (quarter(at.dy), entries.len());
            rows.push(RowInfo {
                at,
                qy,
                lowest,
                from,
                to,
            });
        }
    }

    /// One live cell (`c`, with corner gradients `corners`) down the band's rows: its
    /// groups of samples, then each row's groups whose bound passes the row's lowest
    /// threshold.
    #[inline(always)]
    fn cell<const AVX2: bool>(&self, c: usize, corners: u8, y0: usize, scratch: &mut Scratch) {
        let (_, a, b) = self.plan.cells()[c];
        let width = self.plan.len();
        let Scratch {
            ore,
            placed,
            rows,
            entries,
            groups,
            ..
        } = scratch;
        groups.clear();
        let bounds = &self.bounds.quarter[corners as usize];
        for start in (a..b).step_by(LANES) {
            let len = (b - start).min(LANES);
            // Offsets rise across a cell: the group's quarters are its ends' and those
            // between.
            let (q0, q1) = (
                quarter(self.plan.dx()[start]),
                quarter(self.plan.dx()[start + len - 1]),
            );
            let bound = bounds.map(|row| {
                row[q0..=q1]
                    .iter()
                    .copied()
                    .fold(f32::NEG_INFINITY, f32::max)
            });
            groups.push(Group::new(
                corners, start, len, bound, self.exact, self.lanes,
            ));
        }
        // Each group down the rows: whether its bound passes changes only a few times.
        for g in groups.iter() {
            for (r, row) in rows.iter().enumerate() {
                if g.bound[row.qy] <= row.lowest {
                    continue;
                }
                let (y, entries) = ((y0 + r) as i32, &entries[row.from..row.to]);
                let at = r * width + g.start;
                let ore = (&mut ore[at..at + LANES]).try_into().unwrap();
                placed[r] |= g.place::<AVX2>(self.exact, row.at, y, entries, ore);
            }
        }
    }
}

/// Samples per group: one AVX2 vector of `f32`.
const LANES: usize = 8;

/// The row-independent inputs of a [`Group`], each padded with [`LANES`] more entries so a
/// group that starts inside the row never runs off its end.
struct Lanes {
    dx: Vec<f32>,
    u: Vec<f32>,
    /// The surface row of each column.
    surface: Vec<i32>,
}

impl Lanes {
    fn new(plan: &RowPlan, surface: &Surface) -> Lanes {
        let pad = |v: &[f32]| v.iter().copied().chain([0.0; LANES]).collect();
        Lanes {
            dx: pad(plan.dx()),
            u: pad(plan.u()),
            surface: surface.heights.iter().copied().chain([0; LANES]).collect(),
        }
    }
}

/// Up to [`LANES`] samples of one lattice cell's rows, from column `start`: lanes from
/// `len` on lie past the cell and place nothing.
#[derive(Clone, Copy, Debug)]
struct Group {
    corners: u8,
    start: usize,
    len: usize,
    /// The noise bound over its samples in each quarter of the cell's rows.
    bound: [f32; 4],
    /// The factored kernel's row-independent half ([`factored_terms`]: `p0, q0, p1, q1`,
    /// lane by lane), or for the exact kernel `dx` and `u`.
    x: [[f32; LANES]; 4],
    /// The surface row of each lane's column.
    depth: [i32; LANES],
}

impl Group {
    fn new(
        corners: u8,
        start: usize,
        len: usize,
        bound: [f32; 4],
        exact: bool,
        lanes: &Lanes,
    ) -> Group {
        let dx: [f32; LANES] = lanes.dx[start..start + LANES].try_into().unwrap();
        let u: [f32; LANES] = lanes.u[start..start + LANES].try_into().unwrap();
        let x = if exact {
            [dx, u, [0.0; LANES], [0.0; LANES]]
        } else {
            let signs = [0, 1, 2, 3].map(|c| corner_signs(corners, c));
            let terms: [[f32; 4]; LANES] =
                std::array::from_fn(|i| factored_terms(signs, dx[i], u[i]));
            std::array::from_fn(|k| terms.map(|t| t[k]))
        };
        let depth = lanes.surface[start..start + LANES].try_into().unwrap();
        Group {
            corners,
            start,
            len,
            bound,
            x,
            depth,
        }
    }

    /// The noise of each lane in the row at `at`, then each of `entries` (threshold, depth,
    /// tile; last table row first) writes its tile into `ore` where it passes. Whether any
    /// did. With `AVX2` (only set where the CPU has it) the factored kernel's row half
    /// runs in AVX2 intrinsics: the same IEEE operations in the same order.
    #[inline(always)]
    fn place<const AVX2: bool>(
        &self,
        exact: bool,
        at: RowPosition,
        y: i32,
        entries: &[(f32, i32, Tile)],
        ore: &mut [Tile; LANES],
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: `AVX2` is only set where the CPU has AVX2.
            return unsafe { self.place_avx2(exact, at, y, entries, ore) };
        }
        let mut noise = [0f32; LANES];
        if exact {
            cell_row_exact(self.corners, &self.x[0], &self.x[1], at, &mut noise);
        } else {
            let [p0, q0, p1, q1] = &self.x;
            for i in 0..LANES {
                noise[i] = factored_sample([p0[i], q0[i], p1[i], q1[i]], at);
            }
        }
        let mut any = false;
        for &(threshold, min_depth, tile) in entries {
            for i in 0..self.len {
                if noise[i] > threshold && y - self.depth[i] > min_depth {
                    ore[i] = tile;
                    any = true;
                }
            }
        }
        any
    }

    /// [`Group::place`] in AVX2, eight lanes at a time: [`cell_row_exact`] if `exact`,
    /// else [`factored_sample`] (the same IEEE operations in the same order as the plain
    /// kernels: a plain scalar loop for the exact kernel made shared veins, classic's,
    /// several times slower than the whole-row kernel before it).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn place_avx2(
        &self,
        exact: bool,
        at: RowPosition,
        y: i32,
        entries: &[(f32, i32, Tile)],
        ore: &mut [Tile; LANES],
    ) -> bool {
        use std::arch::x86_64::*;
        let f = _mm256_set1_ps;
        let (add, sub, mul) = (_mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps);
        // SAFETY: each array holds exactly eight lanes.
        let load = |k: usize| unsafe { _mm256_loadu_ps(self.x[k].as_ptr()) };
        let noise = if exact {
            let (dx, u) = (load(0), load(1));
            let dx1 = sub(dx, f(1.0));
            let (sx00, sy00) = corner_signs(self.corners, 0);
            let (sx10, sy10) = corner_signs(self.corners, 1);
            let (sx01, sy01) = corner_signs(self.corners, 2);
            let (sx11, sy11) = corner_signs(self.corners, 3);
            let n00 = add(mul(f(sx00), dx), f(sy00 * at.dy));
            let n10 = add(mul(f(sx10), dx1), f(sy10 * at.dy));
            let n01 = add(mul(f(sx01), dx), f(sy01 * at.dy1));
            let n11 = add(mul(f(sx11), dx1), f(sy11 * at.dy1));
            let nx0 = add(n00, mul(u, sub(n10, n00)));
            let nx1 = add(n01, mul(u, sub(n11, n01)));
            add(nx0, mul(f(at.v), sub(nx1, nx0)))
        } else {
            let (p0, q0, p1, q1) = (load(0), load(1), load(2), load(3));
            let nx0 = add(p0, mul(f(at.dy), q0));
            let nx1 = add(p1, mul(f(at.dy1), q1));
            add(nx0, mul(f(at.v), sub(nx1, nx0)))
        };
        // SAFETY: eight lanes.
        let depth = unsafe { _mm256_loadu_si256(self.depth.as_ptr().cast()) };
        let below = _mm256_sub_epi32(_mm256_set1_epi32(y), depth);
        let in_cell = (1 << self.len) - 1;
        let mut any = 0;
        // The eight lanes' ores as the bytes of one word, each row's hits blended in
        // (where shared veins' low thresholds pass, most lanes of most groups hit).
        // SAFETY: `ore` is eight bytes (`Tile` is `repr(u8)`).
        let mut lanes = unsafe { ore.as_ptr().cast::<u64>().read_unaligned() };
        for &(threshold, min_depth, tile) in entries {
            let pass = _mm256_cmp_ps::<_CMP_GT_OQ>(noise, f(threshold));
            let deep = _mm256_cmpgt_epi32(below, _mm256_set1_epi32(min_depth));
            let hits = _mm256_movemask_ps(_mm256_and_ps(pass, _mm256_castsi256_ps(deep))) & in_cell;
            any |= hits;
            let m = BYTE_MASKS[hits as usize];
            lanes = (lanes & !m) | ((u64::from(tile as u8) * 0x0101_0101_0101_0101) & m);
        }
        // SAFETY: every byte is one `ore` held or a tile's own byte, so a valid `Tile`.
        unsafe { ore.as_mut_ptr().cast::<u64>().write_unaligned(lanes) };
        any != 0
    }
}

/// Each 8-bit lane mask spread to bytes (bit `i` set: byte `i` all ones), little-endian
/// as x86-64 reads a word.
#[cfg(target_arch = "x86_64")]
const BYTE_MASKS: [u64; 256] = {
    let mut masks = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut i = 0;
        while i < 8 {
            if m >> i & 1 == 1 {
                masks[m] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    masks
};

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
        let t = crate::content::preset::OreParams::default().table;
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
        use crate::base::noise::{
            FactoredRow, LatticeRow, perlin_2d_row_cached, perlin_2d_row_factored,
        };
        let p = &preset.ores;
        let layers = crate::world::depth::Layers::of(preset);
        let (keys, field_of) = fields(key, p.veins, p.table.len());
        let (w, h, f) = (world.width(), world.height(), p.frequency as f32);
        let plan = RowPlan::new(0, w, f);
        let mut noise = vec![vec![0f32; w]; keys.len()];
        for y in 0..h {
            for (k, out) in keys.iter().zip(&mut noise) {
                match p.veins {
                    _ if p.basis != Basis::Perlin => {
                        crate::base::noise::RowNoise::new(p.basis).row(*k, &plan, y, f, out)
                    }
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
        use crate::base::depth::Layer::*;
        use rand::RngExt;
        let mut rng = crate::base::rng::pass_rng(17, "ore test");
        let tiles = [Tile::Stone, Tile::Stone, Tile::Ash, Tile::Air, Tile::Dirt];
        let mut changed = 0;
        // Perlin's bounded cells in the first 12, the other bases' whole rows after.
        for case in 0..18 {
            let (w, h) = (rng.random_range(40..400), rng.random_range(40..300));
            let mut preset = Preset {
                width: w as u32,
                height: h as u32,
                ..Preset::default()
            };
            if case >= 12 {
                preset.ores.basis = [Basis::Simplex, Basis::Value][case % 2];
            }
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
            let mut plain = world.clone();
            let mut pass_rng = crate::base::rng::pass_rng(case as u64, "ores");
            let key = pass_rng.clone().next_u32();
            place(&mut plain, &preset, &mut pass_rng.clone(), false);
            apply(&mut fast, &preset, &mut pass_rng);
            assert!(
                fast.tiles() == plain.tiles(),
                "case {case}: SIMD and plain differ"
            );
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

    /// The noise ore table every ore came from before the lodes pass laid copper to gold:
    /// what these tests measure the ores pass with (the lodes pass off).
    fn all_ores(veins: Veins) -> crate::content::preset::Preset {
        use crate::base::depth::Layer::*;
        crate::content::preset::Preset {
            ores: crate::content::preset::OreParams {
                veins,
                table: vec![
                    Ore::layered(Tile::Hellstone, (Underworld, Underworld), 0.6, 0.52),
                    Ore::layered(Tile::DiamondOre, (Cavern, Cavern), 0.82, 0.7),
                    Ore::layered(Tile::GoldOre, (Cavern, Cavern), 0.76, 0.63),
                    Ore::layered(Tile::SilverOre, (Underground, Cavern), 0.76, 0.61),
                    Ore::layered(Tile::IronOre, (Surface, Cavern), 0.82, 0.57),
                    Ore::layered(Tile::CopperOre, (Surface, Cavern), 0.79, 0.555),
                ],
                ..Default::default()
            },
            lodes: crate::content::preset::LodeParams {
                enabled: false,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn separate_veins_do_not_nest() {
        // With one field, every diamond tile is ringed by gold; with a field per ore, many
        // diamonds touch no gold at all.
        let preset = |veins| crate::content::preset::Preset {
            width: 600,
            height: 500,
            ..all_ores(veins)
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
        let p = crate::content::preset::Preset {
            width: 2000,
            height: 800,
            ..all_ores(Veins::Separate)
        };
        let l = crate::world::depth::Layers::of(&p);
        let w = crate::worldgen::generate(&p, 5).0;
        // Per layer (surface, underground, cavern, underworld): rock, copper, all ore.
        let mut rock = [0u64; 4];
        let mut copper = [0u64; 4];
        let mut ore = [0u64; 4];
        for y in 0..w.height() {
            for x in 0..w.width() {
                let t = w.tile(x, y);
                let layer = match l.at(y, w.surface[x]) {
                    crate::world::depth::Layer::Sky => continue,
                    crate::world::depth::Layer::Surface => 0,
                    crate::world::depth::Layer::Underground => 1,
                    crate::world::depth::Layer::Cavern => 2,
                    crate::world::depth::Layer::Underworld => 3,
                };
                let is_ore = crate::analysis::underground::is_ore(t);
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
        let mut preset = crate::content::preset::Preset::default();
        preset.ores.frequency = 0.3;
        preset.ores.table = vec![Ore::everywhere(Tile::IronOre, -1.0, 6)];
        let before = World::from_ascii(&refs).unwrap();
        let mut after = before.clone();
        apply(
            &mut after,
            &preset,
            &mut crate::base::rng::pass_rng(3, "ores"),
        );
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
