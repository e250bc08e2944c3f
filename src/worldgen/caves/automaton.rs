//! The cave automaton, 64 cells a word: bit-sliced neighbour counts and a branch-free
//! rule, over bands of rows in parallel (with an AVX2 build chosen at run time).

use super::BitGrid;
use crate::content::preset::CaveParams;
use rayon::prelude::*;

/// `count > k` for 64 lanes of 4-bit counts, `k` given as bit-plane masks so the
/// comparison has no branches; `k < 0` (always true) and `k >= 15` (never) are folded
/// into `or` and `and`.
#[derive(Clone, Copy, Debug)]
struct Above {
    planes: [u64; 4],
    or: u64,
    and: u64,
}

impl Above {
    fn new(k: i64) -> Above {
        let planes = std::array::from_fn(|i| if k >= 0 && k >> i & 1 == 1 { !0 } else { 0 });
        Above {
            planes,
            or: if k < 0 { !0 } else { 0 },
            and: if k >= 15 { 0 } else { !0 },
        }
    }

    /// `n[0..4]` are the bit planes of the counts, least significant first.
    #[inline(always)]
    fn test(&self, n: [u64; 4]) -> u64 {
        let (mut gt, mut eq) = (0u64, !0u64);
        for i in (0..4).rev() {
            let k = self.planes[i];
            gt |= eq & n[i] & !k;
            eq &= !(n[i] ^ k);
        }
        (gt & self.and) | self.or
    }
}

/// The automaton rule as two comparisons: `count > wall_above` makes a wall,
/// `count > open_below - 1` keeps the cell as it is, anything less opens it.
#[derive(Clone, Copy, Debug)]
struct Rule {
    wall: Above,
    keep: Above,
}

impl Rule {
    fn new(wall_above: u32, open_below: u32) -> Rule {
        Rule {
            wall: Above::new(wall_above as i64),
            keep: Above::new(open_below as i64 - 1),
        }
    }
}

#[inline(always)]
fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let t = a ^ b;
    (t ^ c, (a & b) | (t & c))
}

/// The next state of 64 cells from the nine shifted neighbour words (`w`/`e`: the row
/// shifted so each lane sees its west/east neighbour).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn cell_word(
    aw: u64,
    a: u64,
    ae: u64,
    rw: u64,
    r: u64,
    re: u64,
    bw: u64,
    b: u64,
    be: u64,
    rule: &Rule,
) -> u64 {
    let (s1, c1) = full_add(aw, a, ae);
    let (s2, c2) = full_add(bw, b, be);
    let (s3, c3) = (rw ^ re, rw & re);
    let (ones, carry) = full_add(s1, s2, s3);
    let (ts, tc) = full_add(c1, c2, c3);
    let (twos, tc2) = (ts ^ carry, ts & carry);
    let (fours, eights) = (tc ^ tc2, tc & tc2);
    let count = [ones, twos, fours, eights];
    rule.wall.test(count) | (rule.keep.test(count) & r)
}

/// One automaton step for one row of words: `above`, `row`, `below` are the source rows
/// (guards for rows outside the world), `out` the destination row.
#[inline]
pub fn step_row(
    above: &[u64],
    row: &[u64],
    below: &[u64],
    out: &mut [u64],
    wall_above: u32,
    open_below: u32,
    pad: u64,
) {
    step_row_rule(
        above,
        row,
        below,
        out,
        &Rule::new(wall_above, open_below),
        pad,
    );
}

#[inline(always)]
fn step_row_rule(
    above: &[u64],
    row: &[u64],
    below: &[u64],
    out: &mut [u64],
    rule: &Rule,
    pad: u64,
) {
    let n = row.len();
    assert!(n > 0 && above.len() == n && below.len() == n && out.len() == n);
    // Edge words: the bit shifted in from outside the world is a wall.
    let west = |r: &[u64], i: usize| r[i] << 1 | if i == 0 { 1 } else { r[i - 1] >> 63 };
    let east = |r: &[u64], i: usize| r[i] >> 1 | if i + 1 == n { 1 << 63 } else { r[i + 1] << 63 };
    let edge = |i: usize| {
        let (a, r, b) = (above, row, below);
        cell_word(
            west(a, i),
            a[i],
            east(a, i),
            west(r, i),
            r[i],
            east(r, i),
            west(b, i),
            b[i],
            east(b, i),
            rule,
        )
    };
    out[0] = edge(0);
    if n > 1 {
        out[n - 1] = edge(n - 1);
    }
    // Interior words: three aligned slices per row, no bounds checks, vectorised.
    if n > 2 {
        let m = n - 2;
        let (ap, a0, an) = (&above[..m], &above[1..m + 1], &above[2..m + 2]);
        let (rp, r0, rn) = (&row[..m], &row[1..m + 1], &row[2..m + 2]);
        let (bp, b0, bn) = (&below[..m], &below[1..m + 1], &below[2..m + 2]);
        let o = &mut out[1..m + 1];
        for j in 0..m {
            let (a, r, b) = (a0[j], r0[j], b0[j]);
            o[j] = cell_word(
                a << 1 | ap[j] >> 63,
                a,
                a >> 1 | an[j] << 63,
                r << 1 | rp[j] >> 63,
                r,
                r >> 1 | rn[j] << 63,
                b << 1 | bp[j] >> 63,
                b,
                b >> 1 | bn[j] << 63,
                rule,
            );
        }
    }
    out[n - 1] |= pad;
}

/// One automaton step of one band of rows, in place: `above` and `below` are the rows
/// just outside the band as they were before the step (or guards).
struct Band<'a> {
    above: &'a [u64],
    below: &'a [u64],
    rule: Rule,
    pad: u64,
}

impl Band<'_> {
    /// Steps the rows of `rows` (whole rows of `wpr` words) in place. `prev` and `cur` are
    /// one row each: the rows above and at the current one as they were; each new row is
    /// written straight over its old one, once that is copied into `cur`.
    #[inline(always)]
    fn step<'r>(
        &self,
        rows: &mut [u64],
        wpr: usize,
        mut prev: &'r mut [u64],
        mut cur: &'r mut [u64],
    ) {
        prev.copy_from_slice(self.above);
        let n = rows.len() / wpr;
        for k in 0..n {
            let (row, rest) = rows[k * wpr..].split_at_mut(wpr);
            let below = if k + 1 < n { &rest[..wpr] } else { self.below };
            cur.copy_from_slice(row);
            step_row_rule(prev, cur, below, row, &self.rule, self.pad);
            std::mem::swap(&mut prev, &mut cur);
        }
    }

    /// [`Band::step`] compiled for AVX2 (four words per instruction; same result).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn step_avx2(&self, rows: &mut [u64], wpr: usize, prev: &mut [u64], cur: &mut [u64]) {
        self.step(rows, wpr, prev, cur)
    }
}

/// Rows per parallel task: enough work per task to hide the scheduling.
const BAND_ROWS: usize = 16;

/// Runs `iterations` steps over rows `first_row..height` (rows above are all walls and
/// stay walls: a wall with 8 wall neighbours never opens under a valid rule).
///
/// Each step works in place, bands of rows in parallel: a band keeps the row above and
/// the current row as they were in two one-row buffers while it overwrites its rows, and
/// the rows just outside each band are copied out before the step. So a step costs no
/// second grid (a Large world's is 2.5 MB of fresh memory, which the kernel must clear)
/// and walks one grid, not two.
pub fn run_automaton(grid: &mut BitGrid, params: &CaveParams, first_row: usize) {
    let wpr = grid.words_per_row;
    let height = grid.height;
    let first_row = first_row.min(height);
    let guard = vec![!0u64; wpr];
    let pad = grid.padding_mask();
    let rule = Rule::new(params.wall_above, params.open_below);
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2");
    let bands = (height - first_row).div_ceil(BAND_ROWS);
    let row = |bits: &[u64], y: usize| bits[y * wpr..(y + 1) * wpr].to_vec();
    for _ in 0..params.iterations {
        // Per band, the rows just above and below it before the step.
        let edges: Vec<(Vec<u64>, Vec<u64>)> = (0..bands)
            .map(|b| {
                let (y0, y1) = (first_row + b * BAND_ROWS, first_row + (b + 1) * BAND_ROWS);
                let above = if y0 == 0 {
                    guard.clone()
                } else {
                    row(&grid.bits, y0 - 1)
                };
                let below = if y1 >= height {
                    guard.clone()
                } else {
                    row(&grid.bits, y1)
                };
                (above, below)
            })
            .collect();
        grid.bits[first_row * wpr..]
            .par_chunks_mut(BAND_ROWS * wpr)
            .zip(&edges)
            .for_each_init(
                || (vec![0u64; wpr], vec![0u64; wpr]),
                |(prev, cur), (rows, (above, below))| {
                    let band = Band {
                        above,
                        below,
                        rule,
                        pad,
                    };
                    #[cfg(target_arch = "x86_64")]
                    if avx2 {
                        // SAFETY: the CPU has AVX2 (checked at run time above).
                        unsafe { band.step_avx2(rows, wpr, prev, cur) };
                        return;
                    }
                    band.step(rows, wpr, prev, cur);
                },
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::hash3;

    /// The rule as written in the design, one cell at a time, for comparison.
    fn reference_step(g: &BitGrid, wall_above: u32, open_below: u32) -> BitGrid {
        let mut out = g.clone();
        for y in 0..g.height {
            for x in 0..g.width {
                let mut walls = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        let outside =
                            nx < 0 || ny < 0 || nx >= g.width as i64 || ny >= g.height as i64;
                        if outside || g.get(nx as usize, ny as usize) {
                            walls += 1;
                        }
                    }
                }
                let next = if walls > wall_above {
                    true
                } else if walls < open_below {
                    false
                } else {
                    g.get(x, y)
                };
                out.set(x, y, next);
            }
        }
        out
    }

    fn grid_from(rows: &[&str]) -> BitGrid {
        let mut g = BitGrid::walls(rows[0].len(), rows.len());
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                g.set(x, y, c == '#');
            }
        }
        g
    }

    fn step(g: &BitGrid, wall_above: u32, open_below: u32) -> BitGrid {
        let mut g = g.clone();
        let params = CaveParams {
            iterations: 1,
            wall_above,
            open_below,
            ..Default::default()
        };
        run_automaton(&mut g, &params, 0);
        g
    }

    #[test]
    fn hand_built_neighbourhoods() {
        let ring = [
            (1, 1),
            (2, 1),
            (3, 1),
            (1, 2),
            (3, 2),
            (1, 3),
            (2, 3),
            (3, 3),
        ];
        for k in 0..=8 {
            for centre in [false, true] {
                let mut g = grid_from(&[".....", ".....", ".....", ".....", "....."]);
                for &(x, y) in &ring[..k] {
                    g.set(x, y, true);
                }
                g.set(2, 2, centre);
                let expected = if k > 4 {
                    true
                } else if k < 4 {
                    false
                } else {
                    centre
                };
                assert_eq!(
                    step(&g, 4, 4).get(2, 2),
                    expected,
                    "{k} wall neighbours, centre wall {centre}"
                );
            }
        }
    }

    #[test]
    fn outside_counts_as_wall() {
        // An open corner cell has 5 outside neighbours: with an open interior it becomes wall.
        let g = grid_from(&["....", "....", "....", "...."]);
        let s = step(&g, 4, 4);
        assert!(
            s.get(0, 0) && s.get(3, 3) && s.get(0, 3) && s.get(3, 0),
            "corners have 5 outside walls"
        );
        assert!(
            !s.get(1, 0),
            "edge cells have 3 outside walls and open interior"
        );
        assert!(!s.get(1, 1));
    }

    #[test]
    fn matches_reference_on_random_grids_with_word_edges() {
        for (width, height) in [(5, 7), (64, 9), (65, 10), (130, 12), (200, 3)] {
            for (wa, ob) in [(4, 4), (3, 2), (5, 6), (0, 0), (8, 8), (7, 1)] {
                let mut g = BitGrid::walls(width, height);
                for y in 0..height {
                    for x in 0..width {
                        g.set(x, y, hash3(width as u64, x as u64, y as u64) & 1 == 1);
                    }
                }
                let mut expected = g.clone();
                let mut got = g.clone();
                for _ in 0..3 {
                    expected = reference_step(&expected, wa, ob);
                    got = step(&got, wa, ob);
                }
                assert_eq!(got, expected, "{width}x{height} rule {wa}/{ob}");
            }
        }
    }
}
