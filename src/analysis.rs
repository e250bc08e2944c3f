//! Cave connectivity: the 4-connected components of open air.
//!
//! Components that touch the top row are the sky; all others are caves. Air is labelled as
//! horizontal runs (one label per run, not per tile): runs are found row by row, runs that
//! overlap in neighbouring rows are joined with a union-find that always links to the
//! smaller run index, so every component's root is its first run in row-major order and
//! component ids come out in that order for any thread count.

use crate::world::World;
use rayon::prelude::*;

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

/// One connected body of air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    pub area: u64,
    pub bbox: BBox,
    /// Touches the top row of the world.
    pub sky: bool,
}

/// What connectivity found.
#[derive(Clone, Debug, PartialEq)]
pub struct CaveReport {
    pub width: usize,
    pub height: usize,
    /// Every component, sky and caves, by id.
    pub components: Vec<Component>,
    pub cave_count: usize,
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
        self.largest_cave.and_then(|id| self.component(id)).map_or(0, |c| c.area)
    }

    /// Total number of air runs (a measure of the report's size).
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }
}

fn row_runs(row: &[crate::world::Tile], out: &mut Vec<Run>) {
    let mut x = 0;
    let n = row.len();
    while x < n {
        while x < n && !row[x].is_open() {
            x += 1;
        }
        if x == n {
            break;
        }
        let start = x;
        while x < n && row[x].is_open() {
            x += 1;
        }
        out.push(Run { x0: start as u32, x1: x as u32, id: 0 });
    }
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

#[inline]
fn union(parent: &mut [u32], base: usize, a: usize, b: usize) {
    let (ra, rb) = (find(parent, base, a), find(parent, base, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi - base] = lo as u32;
    }
}

/// Joins the runs of two neighbouring rows that overlap (share a column).
fn join_rows(parent: &mut [u32], base: usize, runs: &[Run], upper: std::ops::Range<usize>, lower: std::ops::Range<usize>) {
    let (mut i, mut j) = (upper.start, lower.start);
    while i < upper.end && j < lower.end {
        let (a, b) = (runs[i], runs[j]);
        if a.x0 < b.x1 && b.x0 < a.x1 {
            union(parent, base, i, j);
        }
        if a.x1 <= b.x1 {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// Labels the air of `world`.
pub fn analyse(world: &World) -> CaveReport {
    let (width, height) = (world.width(), world.height());
    // 1. Runs per row, in parallel, then concatenated in row order.
    let per_row: Vec<Vec<Run>> = world
        .tiles()
        .par_chunks(width)
        .map(|row| {
            let mut v = Vec::new();
            row_runs(row, &mut v);
            v
        })
        .collect();
    let mut row_start = Vec::with_capacity(height + 1);
    row_start.push(0);
    for r in &per_row {
        row_start.push(row_start.last().copied().unwrap_or(0) + r.len());
    }
    let mut runs: Vec<Run> = Vec::with_capacity(row_start[height]);
    for r in per_row {
        runs.extend(r);
    }
    let n = runs.len();
    assert!(n < u32::MAX as usize, "too many runs");

    // 2. Union-find: bands of rows in parallel (each band's runs are a contiguous index
    //    range and links only go to smaller indices inside it), then the seams.
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let bands = rayon::current_num_threads().clamp(1, height);
    let rows_per_band = height.div_ceil(bands);
    let band_rows: Vec<(usize, usize)> =
        (0..height).step_by(rows_per_band).map(|y0| (y0, (y0 + rows_per_band).min(height))).collect();
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
                join_rows(slice, base, &runs, row_start[y - 1]..row_start[y], row_start[y]..row_start[y + 1]);
            }
        });
    }
    for &(y0, _) in band_rows.iter().skip(1) {
        join_rows(&mut parent, 0, &runs, row_start[y0 - 1]..row_start[y0], row_start[y0]..row_start[y0 + 1]);
    }

    // 3. Ids in order of each component's first run; areas, boxes, sky.
    let mut components: Vec<Component> = Vec::new();
    let mut id_of_root = vec![u32::MAX; 0];
    id_of_root.resize(n, u32::MAX);
    for y in 0..height {
        #[allow(clippy::needless_range_loop)] // `i` is both a run index and a union-find node
        for i in row_start[y]..row_start[y + 1] {
            let root = find(&mut parent, 0, i);
            let id = if id_of_root[root] == u32::MAX {
                id_of_root[root] = components.len() as u32;
                components.push(Component {
                    area: 0,
                    bbox: BBox { x0: u32::MAX, y0: y as u32, x1: 0, y1: 0 },
                    sky: y == 0,
                });
                components.len() as u32 - 1
            } else {
                id_of_root[root]
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
        largest_cave: None,
        cave_air: 0,
        sky_air: 0,
        runs,
        row_start,
    };
    for (id, c) in report.components.iter().enumerate() {
        if c.sky {
            report.sky_air += c.area;
        } else {
            report.cave_count += 1;
            report.cave_air += c.area;
            if report.largest_cave.is_none_or(|l| c.area > report.components[l as usize].area) {
                report.largest_cave = Some(id as u32);
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Independent labelling: a per-tile flood fill.
    fn flood(world: &World) -> (Vec<u32>, Vec<(u64, bool)>) {
        let (w, h) = (world.width(), world.height());
        let mut label = vec![u32::MAX; w * h];
        let mut comps = vec![];
        for start in 0..w * h {
            if label[start] != u32::MAX || !world.tiles()[start].is_open() {
                continue;
            }
            let id = comps.len() as u32;
            let (mut area, mut sky) = (0, false);
            let mut q = VecDeque::from([start]);
            label[start] = id;
            while let Some(i) = q.pop_front() {
                let (x, y) = (i % w, i / w);
                area += 1;
                sky |= y == 0;
                let mut push = |j: usize| {
                    if label[j] == u32::MAX && world.tiles()[j].is_open() {
                        label[j] = id;
                        q.push_back(j);
                    }
                };
                if x > 0 { push(i - 1) }
                if x + 1 < w { push(i + 1) }
                if y > 0 { push(i - w) }
                if y + 1 < h { push(i + w) }
            }
            comps.push((area, sky));
        }
        (label, comps)
    }

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
        assert_eq!(largest.bbox, BBox { x0: 2, y0: 1, x1: 4, y1: 3 });
        assert_eq!(r.component_at(4, 3), r.largest_cave);
        assert_eq!(r.component_at(0, 0), r.component_at(1, 1));
        assert!(r.component(r.component_at(0, 0).unwrap()).unwrap().sky);
        assert_eq!(r.component_at(2, 0), None);
        assert_ne!(r.component_at(6, 1), r.component_at(9, 2));
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
        let preset = crate::preset::Preset { width: 257, height: 180, ..Default::default() };
        for seed in 0..4 {
            let (world, _) = crate::worldgen::generate(&preset, seed);
            let (label, comps) = flood(&world);
            for threads in [1, 2, 5] {
                let r = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| analyse(&world));
                assert_eq!(r.components.len(), comps.len());
                // Flood ids are also in first-tile row-major order, so they must agree exactly.
                for y in 0..world.height() {
                    for x in 0..world.width() {
                        let l = label[y * world.width() + x];
                        assert_eq!(r.component_at(x, y), (l != u32::MAX).then_some(l), "({x},{y})");
                    }
                }
                for (c, &(area, sky)) in r.components.iter().zip(&comps) {
                    assert_eq!((c.area, c.sky), (area, sky));
                }
                let caves: Vec<u64> = comps.iter().filter(|c| !c.1).map(|c| c.0).collect();
                assert_eq!(r.cave_count, caves.len());
                assert_eq!(r.largest_cave_area(), caves.iter().copied().max().unwrap_or(0));
            }
        }
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
