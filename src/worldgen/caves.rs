//! Pass 3, **caves**: random fill, then a Moore-neighbourhood cellular automaton.
//!
//! Expects: ground below `world.surface`. Leaves: air wherever the automaton ends open.
//!
//! Cells start as wall above `surface + margin` and as wall with probability `fill` below
//! it; then `iterations` synchronous steps apply "more than `wall_above` of the 8
//! neighbours are walls → wall, fewer than `open_below` → open, otherwise unchanged", with
//! cells outside the world counting as walls.
//!
//! The grid is one bit per cell (1 = wall) in `u64` words, so one word holds 64 cells and
//! a step counts all 64 neighbourhoods at once with bit-sliced adders. Out-of-world
//! neighbours are all-ones guard words. The random fill draws 16 random words per 64 cells
//! from a counter-based hash and compares them, bit-sliced, against `fill` as a 16-bit
//! fraction (so `fill` is used to 1/65536).

use crate::preset::{CaveParams, Preset};
use crate::rng::{PassRng, hash3};
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// A grid of bits, one per cell, rows padded to whole words with wall bits.
#[derive(Clone, Debug, PartialEq)]
pub struct BitGrid {
    pub width: usize,
    pub height: usize,
    pub words_per_row: usize,
    pub bits: Vec<u64>,
}

impl BitGrid {
    /// An all-wall grid.
    pub fn walls(width: usize, height: usize) -> BitGrid {
        let words_per_row = width.div_ceil(64);
        BitGrid { width, height, words_per_row, bits: vec![!0; words_per_row * height] }
    }

    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.words_per_row + x / 64] >> (x % 64) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, x: usize, y: usize, wall: bool) {
        let w = &mut self.bits[y * self.words_per_row + x / 64];
        if wall {
            *w |= 1 << (x % 64);
        } else {
            *w &= !(1 << (x % 64));
        }
    }

    /// Bits of the last word of a row that lie outside the world (kept as walls).
    fn padding_mask(&self) -> u64 {
        match self.width % 64 {
            0 => 0,
            r => !0u64 << r,
        }
    }
}

/// `n > k` for 64 lanes of 4-bit numbers given as bit planes `n[0..4]` (least significant
/// first), `k` a constant.
#[inline(always)]
fn greater_than(n: [u64; 4], k: u32) -> u64 {
    if k >= 15 {
        return 0;
    }
    let (mut gt, mut eq) = (0u64, !0u64);
    for i in (0..4).rev() {
        if k >> i & 1 == 0 {
            gt |= eq & n[i];
            eq &= !n[i];
        } else {
            eq &= n[i];
        }
    }
    gt
}

#[inline(always)]
fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let t = a ^ b;
    (t ^ c, (a & b) | (t & c))
}

/// One automaton step for one row of words: `above`, `row`, `below` are the source rows
/// (guards for rows outside the world), `out` the destination row.
#[inline]
pub fn step_row(above: &[u64], row: &[u64], below: &[u64], out: &mut [u64], wall_above: u32, open_below: u32, pad: u64) {
    let n = row.len();
    // West/east neighbours: shift in the adjacent word's edge bit; outside is wall.
    let west = |r: &[u64], i: usize| r[i] << 1 | if i == 0 { 1 } else { r[i - 1] >> 63 };
    let east = |r: &[u64], i: usize| r[i] >> 1 | if i + 1 == n { 1 << 63 } else { r[i + 1] << 63 };
    for i in 0..n {
        let (s1, c1) = full_add(west(above, i), above[i], east(above, i));
        let (s2, c2) = full_add(west(below, i), below[i], east(below, i));
        let (wl, er) = (west(row, i), east(row, i));
        let (s3, c3) = (wl ^ er, wl & er);
        let (ones, carry) = full_add(s1, s2, s3);
        let (ts, tc) = full_add(c1, c2, c3);
        let (twos, tc2) = (ts ^ carry, ts & carry);
        let (fours, eights) = (tc ^ tc2, tc & tc2);
        let count = [ones, twos, fours, eights];
        let to_wall = greater_than(count, wall_above);
        // fewer than open_below  <=>  not (count > open_below - 1)
        let keep = if open_below == 0 { !0 } else { greater_than(count, open_below - 1) };
        let mut next = to_wall | (keep & row[i]);
        if i + 1 == n {
            next |= pad;
        }
        out[i] = next;
    }
}

/// Runs `iterations` steps over rows `first_row..height` (rows above are all walls and
/// stay walls: a wall with 8 wall neighbours never opens under a valid rule).
pub fn run_automaton(grid: &mut BitGrid, params: &CaveParams, first_row: usize) {
    let wpr = grid.words_per_row;
    let guard = vec![!0u64; wpr];
    let pad = grid.padding_mask();
    let mut next = grid.bits.clone();
    for _ in 0..params.iterations {
        let src = &grid.bits;
        next.par_chunks_mut(wpr).enumerate().skip(first_row).for_each(|(y, out)| {
            let above = if y == 0 { &guard[..] } else { &src[(y - 1) * wpr..y * wpr] };
            let below = if y + 1 == grid.height { &guard[..] } else { &src[(y + 1) * wpr..(y + 2) * wpr] };
            step_row(above, &src[y * wpr..(y + 1) * wpr], below, out, params.wall_above, params.open_below, pad);
        });
        std::mem::swap(&mut grid.bits, &mut next);
    }
}

/// 64 cells of random fill: bit set with probability `p16 / 65536`, by comparing 16
/// random words (the bits of a uniform 16-bit number per lane) against `p16`.
#[inline]
fn random_word(key: u64, y: usize, w: usize, p16: u32) -> u64 {
    if p16 >= 65536 {
        return !0;
    }
    // lt = (u < p), computed from the least significant bit up.
    let mut lt = 0u64;
    let base = (y as u64) << 24 | (w as u64) << 4;
    for i in 0..16u32 {
        let u = hash3(key, base | i as u64, 0);
        lt = if p16 >> i & 1 == 1 { !u | lt } else { !u & lt };
    }
    lt
}

/// The initial grid: wall above `surface + margin`, random below.
pub fn random_fill(width: usize, height: usize, surface: &[u32], params: &CaveParams, key: u64) -> (BitGrid, usize) {
    let mut grid = BitGrid::walls(width, height);
    let wpr = grid.words_per_row;
    let pad = grid.padding_mask();
    let start: Vec<usize> = surface.iter().map(|&s| s as usize + params.margin as usize).collect();
    // Per word: the first row where any / every lane is random.
    let lo: Vec<usize> = start.chunks(64).map(|c| *c.iter().min().unwrap_or(&height)).collect();
    let hi: Vec<usize> = start.chunks(64).map(|c| *c.iter().max().unwrap_or(&height)).collect();
    let first_random = lo.iter().copied().min().unwrap_or(height).min(height);
    let p16 = (params.fill * 65536.0).round() as u32;
    grid.bits.par_chunks_mut(wpr).enumerate().skip(first_random).for_each(|(y, row)| {
        for (w, word) in row.iter_mut().enumerate() {
            if y < lo[w] {
                continue;
            }
            let mut random = random_word(key, y, w, p16);
            if y < hi[w] {
                // Lanes whose column starts lower stay wall.
                for (lane, &s) in start[w * 64..(w * 64 + 64).min(width)].iter().enumerate() {
                    if y < s {
                        random |= 1 << lane;
                    }
                }
            }
            *word = random;
        }
        row[wpr - 1] |= pad;
    });
    (grid, first_random)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let params = &preset.caves;
    let (width, height) = (world.width(), world.height());
    let (mut grid, first_random) = random_fill(width, height, &world.surface, params, rng.next_u64());
    let first_row = first_random.saturating_sub(params.iterations as usize);
    run_automaton(&mut grid, params, first_row);
    let wpr = grid.words_per_row;
    world.tiles_mut().par_chunks_mut(width).enumerate().skip(first_row).for_each(|(y, row)| {
        for (w, &word) in grid.bits[y * wpr..(y + 1) * wpr].iter().enumerate() {
            let mut open = !word;
            while open != 0 {
                let lane = open.trailing_zeros() as usize;
                row[w * 64 + lane] = Tile::Air;
                open &= open - 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
                        let outside = nx < 0 || ny < 0 || nx >= g.width as i64 || ny >= g.height as i64;
                        if outside || g.get(nx as usize, ny as usize) {
                            walls += 1;
                        }
                    }
                }
                let next = if walls > wall_above { true } else if walls < open_below { false } else { g.get(x, y) };
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
        let params = CaveParams { iterations: 1, wall_above, open_below, ..Default::default() };
        run_automaton(&mut g, &params, 0);
        g
    }

    #[test]
    fn hand_built_neighbourhoods() {
        let ring = [(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)];
        for k in 0..=8 {
            for centre in [false, true] {
                let mut g = grid_from(&[".....", ".....", ".....", ".....", "....."]);
                for &(x, y) in &ring[..k] {
                    g.set(x, y, true);
                }
                g.set(2, 2, centre);
                let expected = if k > 4 { true } else if k < 4 { false } else { centre };
                assert_eq!(step(&g, 4, 4).get(2, 2), expected, "{k} wall neighbours, centre wall {centre}");
            }
        }
    }

    #[test]
    fn outside_counts_as_wall() {
        // An open corner cell has 5 outside neighbours: with an open interior it becomes wall.
        let g = grid_from(&["....", "....", "....", "...."]);
        let s = step(&g, 4, 4);
        assert!(s.get(0, 0) && s.get(3, 3) && s.get(0, 3) && s.get(3, 0), "corners have 5 outside walls");
        assert!(!s.get(1, 0), "edge cells have 3 outside walls and open interior");
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

    #[test]
    fn fill_probability_and_margin() {
        let surface = vec![10u32; 500];
        let params = CaveParams { fill: 0.3, margin: 5, ..Default::default() };
        let (g, first) = random_fill(500, 200, &surface, &params, 77);
        assert_eq!(first, 15);
        for y in 0..15 {
            assert!((0..500).all(|x| g.get(x, y)), "row {y} above the margin must be wall");
        }
        let walls = (15..200).flat_map(|y| (0..500).map(move |x| (x, y))).filter(|&(x, y)| g.get(x, y)).count();
        let share = walls as f64 / (185.0 * 500.0);
        assert!((share - 0.3).abs() < 0.01, "fill share {share}");
        let (g0, _) = random_fill(500, 200, &surface, &CaveParams { fill: 0.0, ..params.clone() }, 77);
        assert!((15..200).all(|y| (0..500).all(|x| !g0.get(x, y))));
        let (g1, _) = random_fill(500, 200, &surface, &CaveParams { fill: 1.0, ..params }, 77);
        assert!(g1.bits.iter().all(|&w| w == !0));
    }

    #[test]
    fn uneven_surface_margin_per_column() {
        let surface: Vec<u32> = (0..100).map(|x| 5 + (x % 37) as u32).collect();
        let params = CaveParams { fill: 0.0, margin: 3, ..Default::default() };
        let (g, _) = random_fill(100, 60, &surface, &params, 1);
        for (x, &top) in surface.iter().enumerate() {
            let start = top as usize + 3;
            assert!((0..start).all(|y| g.get(x, y)), "column {x} walled down to {start}");
            assert!((start..60).all(|y| !g.get(x, y)), "column {x} random (open) from {start}");
        }
    }
}
