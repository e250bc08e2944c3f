//! Cave connectivity: the 4-connected components of the ground's air.
//!
//! **Ground air** is every air tile at or below its column's surface row (`world.surface`,
//! as the surface pass set it); air above that row is **sky**. **Caves** are the
//! 4-connected components of ground air (liquids are not air). A cave is **open** when one
//! of its tiles is 4-adjacent to sky air, and a **mouth** is a maximal run of adjacent
//! columns whose surface tile `(x, surface[x])` is cave air: where a player walks in
//! from the surface. Sky air is only counted.
//!
//! Air is labelled as
//! horizontal runs (one label per run, not per tile): runs are found row by row, runs that
//! overlap in neighbouring rows are joined with a union-find that always links to the
//! smaller run index, so every component's root is its first run in row-major order and
//! component ids come out in that order for any thread count.

use crate::world::{Tile, World};
use rayon::prelude::*;

pub mod oracle;
pub mod reanalyse;
pub mod underground;

/// A horizontal run of air `x0..x1` in one row, and the component it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub x0: u32,
    pub x1: u32,
    pub id: u32,
}

/// Inclusive bounding box in tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BBox {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// One cave: a connected body of ground air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    pub area: u64,
    pub bbox: BBox,
    /// One of its tiles is 4-adjacent to sky air: it opens to the surface.
    pub open: bool,
}

/// What connectivity found.
#[derive(Clone, Debug, PartialEq)]
pub struct CaveReport {
    pub width: usize,
    pub height: usize,
    /// Every cave, by id (ids in order of each cave's first tile, row-major).
    pub components: Vec<Component>,
    pub cave_count: usize,
    /// Caves that open to the sky.
    pub open_caves: usize,
    /// Cave mouths: maximal runs of columns whose surface tile is cave air, as `x0..x1`.
    pub mouths: Vec<(u32, u32)>,
    /// Id of the largest cave (ties: the first), if there is a cave.
    pub largest_cave: Option<u32>,
    pub cave_air: u64,
    pub sky_air: u64,
    runs: Vec<Run>,
    /// `runs[row_start[y]..row_start[y + 1]]` are row `y`'s runs, left to right.
    row_start: Vec<usize>,
}

impl CaveReport {
    /// Runs of air in row `y`, left to right.
    pub fn runs_in_row(&self, y: usize) -> &[Run] {
        &self.runs[self.row_start[y]..self.row_start[y + 1]]
    }

    /// Component id of the air tile at `(x, y)`, `None` for solid tiles and outside.
    pub fn component_at(&self, x: usize, y: usize) -> Option<u32> {
        if y >= self.height {
            return None;
        }
        let runs = self.runs_in_row(y);
        let i = runs.partition_point(|r| (r.x1 as usize) <= x);
        runs.get(i).filter(|r| r.x0 as usize <= x).map(|r| r.id)
    }

    pub fn component(&self, id: u32) -> Option<&Component> {
        self.components.get(id as usize)
    }

    /// Area of the largest cave, 0 without caves.
    pub fn largest_cave_area(&self) -> u64 {
        self.largest_cave
            .and_then(|id| self.component(id))
            .map_or(0, |c| c.area)
    }

    /// Total number of air runs (a measure of the report's size).
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }
}

/// Open air of up to 64 tiles as bits (bit `i` = tile `i`).
#[inline(always)]
fn open_bits(tiles: &[Tile]) -> u64 {
    crate::world::tile_bits(tiles, Tile::Air)
}

/// The air of a world as bits, one per tile (bit `x % 64` of word `x / 64` of row `y`;
/// bits past the width are 0), split at the surface into ground air and sky air, with
/// the surface rows: all that connectivity looks at, in a quarter of the world's memory.
/// The re-analysis thread keeps one as its copy of the world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AirGrid {
    width: usize,
    height: usize,
    words_per_row: usize,
    /// Ground air.
    bits: Vec<u64>,
    /// Sky air, in the rows above the lowest surface row (below it there is none).
    sky: Vec<u64>,
    surface: Vec<u32>,
}

/// Bits of the columns `x0..x0 + 64` whose surface row is at or above `y` (ground rows);
/// also the tunnels' columns whose first row they may open is at or above `y`.
#[inline]
pub(crate) fn ground_mask(surface: &[u32], x0: usize, y: u32) -> u64 {
    let mut m = 0u64;
    for (i, &s) in surface[x0..(x0 + 64).min(surface.len())].iter().enumerate() {
        m |= ((y >= s) as u64) << i;
    }
    m
}

/// Rows per band of [`AirGrid::of_with`].
pub const PACK_ROWS: usize = 4;

impl AirGrid {
    /// Packs a world's air, rows in parallel.
    pub fn of(world: &World) -> AirGrid {
        AirGrid::of_with(world, |_, _| ()).0
    }

    /// Packs a world's air as [`AirGrid::of`] does and, in the same sweep, hands each band
    /// of [`PACK_ROWS`] rows (the last may be shorter) to `visit` while it is in cache:
    /// `visit(first row, tiles)`. Returns the grid and what `visit` returned, band by band
    /// from the top. (The stats count and hash the tiles this way: one read of the world,
    /// not three.)
    pub fn of_with<T: Send>(
        world: &World,
        visit: impl Fn(usize, &[Tile]) -> T + Sync,
    ) -> (AirGrid, Vec<T>) {
        let (width, height) = (world.width(), world.height());
        let words_per_row = width.div_ceil(64);
        let surface = &world.surface;
        let top = surface.iter().copied().min().unwrap_or(0);
        let bottom = surface.iter().copied().max().unwrap_or(0);
        let mut bits = vec![0u64; words_per_row * height];
        // Sky lies above the lowest surface row only: each band's part of it, empty below.
        let sky_rows = (bottom as usize).min(height);
        let mut sky = vec![0u64; words_per_row * sky_rows];
        let mut sky_bands: Vec<&mut [u64]> = sky.chunks_mut(PACK_ROWS * words_per_row).collect();
        sky_bands.resize_with(height.div_ceil(PACK_ROWS), Default::default);
        let visited = bits
            .par_chunks_mut(PACK_ROWS * words_per_row)
            .zip(sky_bands)
            .zip(world.tiles().par_chunks(PACK_ROWS * width))
            .enumerate()
            .with_min_len(4)
            .map(|(band, ((ground, sky), rows))| {
                let y0 = band * PACK_ROWS;
                let mut sky_rows = sky.chunks_mut(words_per_row);
                let rows_words = ground.chunks_mut(words_per_row).zip(rows.chunks(width));
                for (i, (ground, row)) in rows_words.enumerate() {
                    let y = (y0 + i) as u32;
                    let mut sky = sky_rows.next();
                    for (w, tiles) in row.chunks(64).enumerate() {
                        let air = open_bits(tiles);
                        // Rows wholly above or below the surface need no per-column compare.
                        let mask = if y < top {
                            0
                        } else if y >= bottom {
                            !0
                        } else {
                            ground_mask(surface, w * 64, y)
                        };
                        ground[w] = air & mask;
                        if let Some(sky) = sky.as_deref_mut() {
                            sky[w] = air & !mask;
                        }
                    }
                }
                visit(y0, rows)
            })
            .collect();
        let grid = AirGrid {
            width,
            height,
            words_per_row,
            bits,
            sky,
            surface: surface.clone(),
        };
        (grid, visited)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Marks tile `(x, y)` open or not; outside the grid, nothing happens.
    pub fn set(&mut self, x: usize, y: usize, open: bool) {
        if x < self.width && y < self.height {
            let grid = if y as u32 >= self.surface[x] {
                &mut self.bits
            } else {
                &mut self.sky
            };
            let word = &mut grid[y * self.words_per_row + x / 64];
            *word = *word & !(1 << (x % 64)) | (open as u64) << (x % 64);
        }
    }

    /// The ground air, to label.
    fn ground(&self) -> BitRows<'_> {
        BitRows {
            bits: &self.bits,
            words_per_row: self.words_per_row,
            width: self.width,
            height: self.height,
        }
    }

    /// Row `y`'s words of ground air.
    fn row(&self, y: usize) -> &[u64] {
        &self.bits[y * self.words_per_row..(y + 1) * self.words_per_row]
    }

    /// Whether `(x, y)` is ground air (`false` outside the world).
    fn ground_at(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.row(y)[x / 64] >> (x % 64) & 1 == 1
    }

    /// Whether `(x, y)` is sky air (`false` outside the world and below the sky's rows).
    fn sky_at(&self, x: usize, y: usize) -> bool {
        x < self.width
            && self
                .sky
                .get(y * self.words_per_row + x / 64)
                .is_some_and(|w| w >> (x % 64) & 1 == 1)
    }
}

/// Bits where a run of air starts: open, with the west neighbour not (`carry` is the
/// previous word's top bit).
#[inline(always)]
fn run_starts(m: u64, carry: u64) -> u64 {
    m & !(m << 1 | carry)
}

/// The runs of one row from its bit words (bits past the width are zero), in order. Starts
/// and ends are read in two separate scans, so no branch depends on which comes next.
#[inline(always)]
fn runs_from_bits(bits: &[u64], width: usize, out: &mut [Run]) {
    let (mut starts, mut ends) = (0, 0);
    let mut carry = 0u64;
    for (w, &m) in bits.iter().enumerate() {
        let base = (w * 64) as u32;
        let mut s = run_starts(m, carry);
        while s != 0 {
            out[starts].x0 = base + s.trailing_zeros();
            starts += 1;
            s &= s - 1;
        }
        // A run ends at a closed tile whose west neighbour is open.
        let mut e = !m & (m << 1 | carry);
        while e != 0 {
            out[ends].x1 = base + e.trailing_zeros();
            ends += 1;
            e &= e - 1;
        }
        carry = m >> 63;
    }
    if carry == 1 {
        out[ends].x1 = width as u32;
    }
}

/// Rows of bits to label (bit `x % 64` of word `x / 64` of row `y`; bits past the width
/// are 0): the ground air of an [`AirGrid`], or the open cells of the caves' grid.
#[derive(Clone, Copy)]
pub struct BitRows<'a> {
    pub bits: &'a [u64],
    pub words_per_row: usize,
    pub width: usize,
    pub height: usize,
}

impl BitRows<'_> {
    fn row(&self, y: usize) -> &[u64] {
        &self.bits[y * self.words_per_row..(y + 1) * self.words_per_row]
    }
}

/// The 4-connected bodies of set bits, as runs: `runs[row_start[y]..row_start[y + 1]]`
/// are row `y`'s runs, left to right (their `id` unset), and following `parent` from a
/// run leads to its body's root, the body's first run in row-major order; every link
/// goes to a smaller index.
pub struct RunLabels {
    pub runs: Vec<Run>,
    pub row_start: Vec<usize>,
    pub parent: Vec<u32>,
}

impl RunLabels {
    /// Points every run straight at its root (in index order a run's parent already
    /// points at its root, as links only go to smaller indices).
    pub fn flatten(&mut self) {
        for i in 0..self.parent.len() {
            self.parent[i] = self.parent[self.parent[i] as usize];
        }
    }
}

/// Labels the set bits of `rows`: runs per row, then a union-find over bands of rows in
/// parallel (each band's runs are a contiguous index range and links only go to smaller
/// indices inside it), then the seams between bands.
pub fn label_runs(rows: BitRows) -> RunLabels {
    let height = rows.height;
    let (runs, row_start) = extract_runs(rows);
    let row = |y: usize| (rows.row(y), row_start[y]);
    let n = runs.len();
    assert!(n < u32::MAX as usize, "too many runs");
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let bands = (rayon::current_num_threads() * 8).clamp(1, height.max(1));
    let rows_per_band = height.div_ceil(bands).max(1);
    let band_rows: Vec<(usize, usize)> = (0..height)
        .step_by(rows_per_band)
        .map(|y0| (y0, (y0 + rows_per_band).min(height)))
        .collect();
    {
        let mut slices = Vec::new();
        let mut rest: &mut [u32] = &mut parent;
        for &(y0, y1) in &band_rows {
            let len = row_start[y1] - row_start[y0];
            let (head, tail) = rest.split_at_mut(len);
            slices.push((y0, y1, head));
            rest = tail;
        }
        slices.into_par_iter().for_each(|(y0, y1, slice)| {
            let base = row_start[y0];
            for y in y0 + 1..y1 {
                join_rows(slice, base, row(y - 1), row(y));
            }
        });
    }
    for &(y0, _) in band_rows.iter().skip(1) {
        join_rows(&mut parent, 0, row(y0 - 1), row(y0));
    }
    RunLabels {
        runs,
        row_start,
        parent,
    }
}

/// Runs of set bits of every row, concatenated in row order, and where each row's starts:
/// runs are counted per row in parallel, then each band of rows writes its runs straight
/// into its part of one allocation.
fn extract_runs(grid: BitRows) -> (Vec<Run>, Vec<usize>) {
    let (width, height) = (grid.width, grid.height);
    let mut counts = vec![0usize; height];
    counts
        .par_iter_mut()
        .enumerate()
        .with_min_len(64)
        .for_each(|(y, c)| {
            let mut carry = 0;
            for &m in grid.row(y) {
                *c += run_starts(m, carry).count_ones() as usize;
                carry = m >> 63;
            }
        });
    let mut row_start = Vec::with_capacity(height + 1);
    row_start.push(0);
    let mut total = 0;
    for c in &counts {
        total += c;
        row_start.push(total);
    }
    let mut runs = vec![
        Run {
            x0: 0,
            x1: 0,
            id: 0
        };
        total
    ];
    // Split the run buffer at row boundaries into one slice per band of rows.
    let band_rows = 32;
    let mut slices = Vec::with_capacity(height.div_ceil(band_rows));
    let mut rest: &mut [Run] = &mut runs;
    for y0 in (0..height).step_by(band_rows) {
        let y1 = (y0 + band_rows).min(height);
        let (head, tail) = rest.split_at_mut(row_start[y1] - row_start[y0]);
        slices.push((y0, y1, head));
        rest = tail;
    }
    slices.into_par_iter().for_each(|(y0, y1, out)| {
        let base = row_start[y0];
        for y in y0..y1 {
            runs_from_bits(
                grid.row(y),
                width,
                &mut out[row_start[y] - base..row_start[y + 1] - base],
            );
        }
    });
    (runs, row_start)
}

#[inline]
fn find(parent: &mut [u32], base: usize, mut i: usize) -> usize {
    while parent[i - base] as usize != i {
        let grand = parent[parent[i - base] as usize - base];
        parent[i - base] = grand;
        i = grand as usize;
    }
    i
}

/// Puts lower run `j` in the same set as upper run `i` (`i < j`); links always go to the
/// smaller index.
#[inline(always)]
fn union(parent: &mut [u32], base: usize, i: usize, j: usize) {
    let ri = find(parent, base, i);
    if parent[j - base] as usize == j {
        // Lower run still its own root (its first overlap, usually): hang it under the
        // upper root, which has a smaller index.
        parent[j - base] = ri as u32;
    } else {
        let rj = find(parent, base, j);
        if ri != rj {
            let (lo, hi) = if ri < rj { (ri, rj) } else { (rj, ri) };
            parent[hi - base] = lo as u32;
        }
    }
}

/// [`join_rows_kernel`] with the CPU's popcount instruction when it has one (baseline
/// x86-64 counts bits with a dozen instructions).
fn join_rows(parent: &mut [u32], base: usize, upper: (&[u64], usize), lower: (&[u64], usize)) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above).
        unsafe { join_rows_popcnt(parent, base, upper, lower) };
        return;
    }
    join_rows_kernel(parent, base, upper, lower)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn join_rows_popcnt(
    parent: &mut [u32],
    base: usize,
    upper: (&[u64], usize),
    lower: (&[u64], usize),
) {
    join_rows_kernel(parent, base, upper, lower)
}

/// Joins the runs of two neighbouring rows, given as bit words, wherever they overlap.
/// Each stretch of columns open in both rows links one upper run to one lower run, and a
/// run's index is its row's first index plus the number of run starts up to the column
/// (popcounts), so finding the pairs takes no data-dependent branches; only the unions do.
#[inline(always)]
fn join_rows_kernel(
    parent: &mut [u32],
    base: usize,
    (upper, first_upper): (&[u64], usize),
    (lower, first_lower): (&[u64], usize),
) {
    // Index of the last run started before the current word, plus one.
    let (mut nu, mut nl) = (first_upper, first_lower);
    let (mut carry_u, mut carry_l, mut carry_o) = (0, 0, 0);
    for (&u, &l) in upper.iter().zip(lower) {
        let (su, sl) = (run_starts(u, carry_u), run_starts(l, carry_l));
        let both = u & l;
        let mut overlaps = run_starts(both, carry_o);
        while overlaps != 0 {
            let upto = u64::MAX >> (63 - overlaps.trailing_zeros());
            let i = nu + (su & upto).count_ones() as usize - 1;
            let j = nl + (sl & upto).count_ones() as usize - 1;
            union(parent, base, i, j);
            overlaps &= overlaps - 1;
        }
        nu += su.count_ones() as usize;
        nl += sl.count_ones() as usize;
        (carry_u, carry_l, carry_o) = (u >> 63, l >> 63, both >> 63);
    }
}

/// Labels the air of `world`.
pub fn analyse(world: &World) -> CaveReport {
    analyse_air(&AirGrid::of(world))
}

/// Labels the air of a packed world.
pub fn analyse_air(grid: &AirGrid) -> CaveReport {
    let (width, height) = (grid.width, grid.height);
    // 1. and 2. Runs per row and their union-find.
    let RunLabels {
        mut runs,
        row_start,
        mut parent,
    } = label_runs(grid.ground());

    // 3. Ids in order of each component's first run; areas, boxes, sky. Links only go to
    //    smaller indices, so in index order a run's parent already points at its root:
    //    one pass flattens every run onto its root and hands out ids.
    let mut components: Vec<Component> = Vec::new();
    for y in 0..height {
        #[allow(clippy::needless_range_loop)] // `i` is both a run index and a union-find node
        for i in row_start[y]..row_start[y + 1] {
            let root = parent[parent[i] as usize] as usize;
            parent[i] = root as u32;
            let id = if root == i {
                components.push(Component {
                    area: 0,
                    bbox: BBox {
                        x0: u32::MAX,
                        y0: y as u32,
                        x1: 0,
                        y1: 0,
                    },
                    open: false,
                });
                components.len() as u32 - 1
            } else {
                runs[root].id
            };
            let r = &mut runs[i];
            r.id = id;
            let c = &mut components[id as usize];
            c.area += (r.x1 - r.x0) as u64;
            c.bbox.x0 = c.bbox.x0.min(r.x0);
            c.bbox.x1 = c.bbox.x1.max(r.x1 - 1);
            c.bbox.y1 = y as u32;
        }
    }

    let mut report = CaveReport {
        width,
        height,
        components,
        cave_count: 0,
        open_caves: 0,
        mouths: Vec::new(),
        largest_cave: None,
        cave_air: 0,
        sky_air: grid.sky.par_iter().map(|w| w.count_ones() as u64).sum(),
        runs,
        row_start,
    };
    mark_open_caves(grid, &mut report);
    for (id, c) in report.components.iter().enumerate() {
        report.cave_count += 1;
        report.open_caves += c.open as usize;
        report.cave_air += c.area;
        if report
            .largest_cave
            .is_none_or(|l| c.area > report.components[l as usize].area)
        {
            report.largest_cave = Some(id as u32);
        }
    }
    report
}

/// Marks the caves with a tile beside sky air, and lists the mouths. Ground air can only
/// touch the sky near the surface: at `(x, surface[x])` from above, or beside a
/// neighbouring column whose surface is lower down, so each column checks a few rows.
fn mark_open_caves(grid: &AirGrid, report: &mut CaveReport) {
    let s = &grid.surface;
    let mut mouth_start = None;
    for x in 0..grid.width {
        let top = s[x] as usize;
        let left = if x > 0 { s[x - 1] as usize } else { top };
        let right = s.get(x + 1).map_or(top, |&r| r as usize);
        let bottom = (top + 1).max(left).max(right).min(grid.height);
        for y in top..bottom {
            if !grid.ground_at(x, y) {
                continue;
            }
            let beside_sky = (y == top && y > 0 && grid.sky_at(x, y - 1))
                || (x > 0 && grid.sky_at(x - 1, y))
                || grid.sky_at(x + 1, y);
            if beside_sky && let Some(id) = report.component_at(x, y) {
                report.components[id as usize].open = true;
            }
        }
        match (grid.ground_at(x, top), mouth_start) {
            (true, None) => mouth_start = Some(x as u32),
            (false, Some(x0)) => {
                report.mouths.push((x0, x as u32));
                mouth_start = None;
            }
            _ => {}
        }
    }
    if let Some(x0) = mouth_start {
        report.mouths.push((x0, grid.width as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn hand_built_components() {
        let w = World::from_ascii(&[
            "  ##########",
            "# ## #  ####",
            "#### ## # ##",
            "##   ########",
        ]);
        assert!(w.is_none(), "ragged art is refused");
        let w = World::from_ascii(&[
            "  ##########",
            "# ## #  ####",
            "#### ## # ##",
            "##   #######",
            "############",
        ])
        .unwrap();
        let r = analyse(&w);
        // Sky: (0,0),(1,0),(1,1). Caves: {(4,1),(4,2),(4,3),(3,3),(2,3)}, {(6,1),(7,1),(7,2)}, {(9,2)}.
        assert_eq!(r.sky_air, 3);
        assert_eq!(r.cave_count, 3, "{:?}", r.components);
        assert_eq!(r.cave_air, 5 + 3 + 1);
        let largest = r.component(r.largest_cave.unwrap()).unwrap();
        assert_eq!(largest.area, 5);
        assert_eq!(
            largest.bbox,
            BBox {
                x0: 2,
                y0: 1,
                x1: 4,
                y1: 3
            }
        );
        assert_eq!(r.component_at(4, 3), r.largest_cave);
        // Sky air is counted, not labelled.
        assert_eq!(r.component_at(0, 0), None);
        assert_eq!(r.component_at(1, 1), None);
        assert_eq!(r.component_at(2, 0), None);
        assert_ne!(r.component_at(6, 1), r.component_at(9, 2));
        assert_eq!((r.open_caves, r.mouths.len()), (0, 0));
    }

    #[test]
    fn mouths_and_open_caves_follow_the_surface_rows() {
        // Surface rows as the surface pass laid them: 2 everywhere, a hill of 1 at x=6..8.
        let mut w = World::from_ascii(&[
            "            ",
            "      ###   ",
            "##  ########",
            "#   ##   ###",
            "# ####   ###",
            "############",
        ])
        .unwrap();
        w.surface = vec![2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2];
        // A shaft down the hill's flank: (9,2) is cave air beside... nothing open yet.
        let r = analyse(&w);
        oracle::check(&w, &r).unwrap();
        // (2,2),(3,2) are a mouth of the cave below; the pocket at x=6..8 is closed.
        assert_eq!(r.mouths, vec![(2, 4)]);
        assert_eq!((r.cave_count, r.open_caves), (2, 1));
        let mouth_cave = r.component_at(1, 4).unwrap();
        assert!(r.component(mouth_cave).unwrap().open);
        assert!(!r.component(r.component_at(6, 3).unwrap()).unwrap().open);
        // Digging the hill's foot at (9,1)... is sky: opening (9,2) and (9,3) joins the
        // pocket to the sky from the side, without a mouth at its own surface row.
        w.set(9, 2, Tile::Air);
        w.set(9, 3, Tile::Stone);
        w.set(8, 2, Tile::Air);
        let r = analyse(&w);
        oracle::check(&w, &r).unwrap();
        assert_eq!(r.mouths, vec![(2, 4), (9, 10)]);
    }

    #[test]
    fn edits_through_the_air_grid_match_a_fresh_analysis() {
        let preset = crate::content::preset::Preset {
            width: 190,
            height: 120,
            ..Default::default()
        };
        let (mut world, _) = crate::worldgen::generate(&preset, 11);
        let mut grid = AirGrid::of(&world);
        for i in 0..400u64 {
            let x = (crate::base::rng::hash3(5, i, 0) % 190) as usize;
            let y = (crate::base::rng::hash3(5, i, 1) % 120) as usize;
            let t = if world.tile(x, y).is_open() {
                Tile::Stone
            } else {
                Tile::Air
            };
            world.set(x, y, t);
            grid.set(x, y, t.is_open());
        }
        assert_eq!(grid, AirGrid::of(&world));
        oracle::check(&world, &analyse_air(&grid)).unwrap();
    }

    #[test]
    fn diagonal_air_is_not_connected() {
        let w = World::from_ascii(&["####", "# ##", "## #", "####"]).unwrap();
        let r = analyse(&w);
        assert_eq!(r.cave_count, 2);
    }

    #[test]
    fn u_shape_merges_across_rows() {
        // Two arms joined only at the bottom, and a spiral: union-find must merge late.
        let w = World::from_ascii(&[
            "#########",
            "# # #   #",
            "# # # # #",
            "#   # # #",
            "#####   #",
            "#########",
        ])
        .unwrap();
        let r = analyse(&w);
        assert_eq!(r.cave_count, 2);
        assert_eq!(r.component_at(1, 1), r.component_at(3, 1));
        assert_eq!(r.component_at(5, 1), r.component_at(7, 4));
    }

    #[test]
    fn matches_flood_fill_on_generated_worlds_any_threads() {
        let preset = crate::content::preset::Preset {
            width: 257,
            height: 180,
            ..Default::default()
        };
        for seed in 0..4 {
            let (world, _) = crate::worldgen::generate(&preset, seed);
            for threads in [1, 2, 5] {
                let r = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| analyse(&world));
                oracle::check(&world, &r)
                    .unwrap_or_else(|e| panic!("seed {seed}, {threads} threads: {e}"));
            }
        }
    }

    #[test]
    fn matches_flood_fill_on_random_grids_at_word_edges() {
        // Widths around whole words, densities from sparse to nearly open: runs and
        // overlaps that start, end or continue exactly at word boundaries.
        for (k, width) in [1usize, 2, 63, 64, 65, 127, 128, 129, 200]
            .into_iter()
            .enumerate()
        {
            for air_in_16 in [2u64, 8, 13, 15] {
                let rows: Vec<String> = (0..40u64)
                    .map(|y| {
                        (0..width as u64)
                            .map(|x| {
                                let r = crate::base::rng::hash3(k as u64, x, y * 16 + air_in_16);
                                if r % 16 < air_in_16 { ' ' } else { '#' }
                            })
                            .collect()
                    })
                    .collect();
                let refs: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
                let mut world = World::from_ascii(&refs).unwrap();
                oracle::check(&world, &analyse(&world))
                    .unwrap_or_else(|e| panic!("width {width}, {air_in_16}/16 air: {e}"));
                // Surface rows that are not the first solid tile: sky and ground air meet
                // along ragged edges, inside runs and across word boundaries.
                for x in 0..width {
                    world.surface[x] =
                        (crate::base::rng::hash3(k as u64 + 77, x as u64, 0) % 41) as u32;
                }
                oracle::check(&world, &analyse(&world))
                    .unwrap_or_else(|e| panic!("width {width}, {air_in_16}/16, ragged: {e}"));
            }
        }
    }

    #[test]
    fn packed_air_with_edits_analyses_like_the_edited_world() {
        let preset = crate::content::preset::Preset {
            width: 200,
            height: 120,
            ..Default::default()
        };
        let (mut world, _) = crate::worldgen::generate(&preset, 8);
        let mut air = AirGrid::of(&world);
        assert_eq!(analyse_air(&air), analyse(&world));
        // Dig a tunnel and fill part of a cave, in the world and in its packed air.
        for (x, y, t) in (10..190)
            .map(|x| (x, 60, Tile::Air))
            .chain((0..200).map(|x| (x, 90, Tile::Stone)))
        {
            world.set(x, y, t);
            air.set(x, y, t.is_open());
        }
        air.set(500, 5, true); // outside: ignored
        assert_eq!(air, AirGrid::of(&world));
        assert_eq!(analyse_air(&air), analyse(&world));
    }

    #[test]
    fn all_solid_and_all_air() {
        let solid = World::from_ascii(&["###", "###"]).unwrap();
        let r = analyse(&solid);
        assert_eq!((r.cave_count, r.sky_air, r.largest_cave), (0, 0, None));
        let air = World::from_ascii(&["   ", "   "]).unwrap();
        let r = analyse(&air);
        assert_eq!((r.cave_count, r.sky_air), (0, 6));
    }
}
