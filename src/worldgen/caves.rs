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
use crate::rng::{PassRng, mix64};
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
        BitGrid {
            width,
            height,
            words_per_row,
            bits: vec![!0; words_per_row * height],
        }
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

/// One automaton step over the whole grid: the source rows and what every row needs.
struct Step<'a> {
    src: &'a [u64],
    /// An all-wall row for the neighbours outside the world.
    guard: &'a [u64],
    wpr: usize,
    height: usize,
    rule: Rule,
    pad: u64,
}

impl Step<'_> {
    /// Steps the rows `y0..y0 + out.len() / wpr` of `src` into `out`.
    #[inline(always)]
    fn band(&self, y0: usize, out: &mut [u64]) {
        let (src, wpr) = (self.src, self.wpr);
        for (k, out_row) in out.chunks_exact_mut(wpr).enumerate() {
            let y = y0 + k;
            let above = if y == 0 {
                self.guard
            } else {
                &src[(y - 1) * wpr..y * wpr]
            };
            let below = if y + 1 == self.height {
                self.guard
            } else {
                &src[(y + 1) * wpr..(y + 2) * wpr]
            };
            step_row_rule(
                above,
                &src[y * wpr..(y + 1) * wpr],
                below,
                out_row,
                &self.rule,
                self.pad,
            );
        }
    }

    /// [`Step::band`] compiled for AVX2 (four words per instruction; same result).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn band_avx2(&self, y0: usize, out: &mut [u64]) {
        self.band(y0, out)
    }
}

/// Rows per parallel task: enough work per task to hide the scheduling.
const BAND_ROWS: usize = 16;

/// Runs `iterations` steps over rows `first_row..height` (rows above are all walls and
/// stay walls: a wall with 8 wall neighbours never opens under a valid rule).
pub fn run_automaton(grid: &mut BitGrid, params: &CaveParams, first_row: usize) {
    let wpr = grid.words_per_row;
    let height = grid.height;
    let first_row = first_row.min(height);
    let guard = vec![!0u64; wpr];
    let pad = grid.padding_mask();
    let rule = Rule::new(params.wall_above, params.open_below);
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2");
    if params.iterations == 0 {
        return;
    }
    let mut next = grid.bits.clone();
    for _ in 0..params.iterations {
        let step = Step {
            src: &grid.bits,
            guard: &guard,
            wpr,
            height,
            rule,
            pad,
        };
        next[first_row * wpr..]
            .par_chunks_mut(BAND_ROWS * wpr)
            .enumerate()
            .for_each(|(b, out)| {
                let y0 = first_row + b * BAND_ROWS;
                #[cfg(target_arch = "x86_64")]
                if avx2 {
                    // SAFETY: the CPU has AVX2 (checked at run time above).
                    unsafe { step.band_avx2(y0, out) };
                    return;
                }
                step.band(y0, out);
            });
        std::mem::swap(&mut grid.bits, &mut next);
    }
}

/// Words filled side by side by [`random_words`].
const GROUP: usize = 8;

/// Random fill of the words `w0..w0 + GROUP` of row `y`: each bit of word `w0 + k` set
/// with probability `p16[k] / 65536`, by comparing 16 random words (the bits of a uniform
/// 16-bit number per lane) against `p16[k]`, from the least significant bit up. Bit plane
/// `i` of word `w` is `hash3(key, y << 24 | w << 4 | i, 0)`; the hashes of one plane for
/// all the group's words are independent, so they run side by side (eight 64-bit lanes
/// with AVX-512), and the comparison is a branch-free mask select per word.
#[inline(always)]
fn random_words(key: u64, y: usize, w0: usize, p16: &[u32; GROUP]) -> [u64; GROUP] {
    let mut lt = [0u64; GROUP];
    for i in 0..16u64 {
        // hash3(key, a, 0), spelled out: the zero coordinate drops out.
        let mut u = [0u64; GROUP];
        for (k, u) in u.iter_mut().enumerate() {
            let a = (y as u64) << 24 | ((w0 + k) as u64) << 4 | i;
            *u = mix64(key ^ mix64(a.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        }
        for ((lt, u), &p) in lt.iter_mut().zip(u).zip(p16) {
            // All ones where bit i of p is set: then lt = !u | lt, else lt = !u & lt.
            let set = 0u64.wrapping_sub((p >> i & 1) as u64);
            *lt = (set & (!u | *lt)) | (!set & !u & *lt);
        }
    }
    for (lt, &p) in lt.iter_mut().zip(p16) {
        if p >= 65536 {
            *lt = !0;
        }
    }
    lt
}

/// Wall probability of the 64 cells of word `w` in row `y`, as a 16-bit fraction: `fill`,
/// moved by up to `fill_variation` with low-frequency noise sampled at the word's centre
/// (the noise changes little over 64 tiles, so per-word steps do not show).
#[inline]
fn fill_p16(params: &CaveParams, fill_key: u32, w: usize, y: usize) -> u32 {
    let mut p = params.fill;
    if params.fill_variation > 0.0 {
        let f = params.fill_frequency as f32;
        let n = super::noise::perlin_2d(fill_key, (w * 64 + 32) as f32 * f, y as f32 * f);
        p = (p + params.fill_variation * n as f64).clamp(0.0, 1.0);
    }
    (p * 65536.0).round() as u32
}

/// Random words for one row where `y >= lo[w]` (lanes above the margin are fixed
/// afterwards; other words keep their walls).
#[inline(always)]
fn fill_words(key: u64, y: usize, fill: &Fill, row: &mut [u64], lo: &[usize]) {
    for (g, (words, lo)) in row.chunks_mut(GROUP).zip(lo.chunks(GROUP)).enumerate() {
        if lo.iter().all(|&l| y < l) {
            continue;
        }
        let mut p16 = [0u32; GROUP];
        for (k, p) in p16.iter_mut().enumerate() {
            *p = fill.p16(g * GROUP + k, y);
        }
        let random = random_words(key, y, g * GROUP, &p16);
        for ((word, &l), r) in words.iter_mut().zip(lo).zip(random) {
            if y >= l {
                *word = r;
            }
        }
    }
}

/// What decides a word's wall probability.
struct Fill<'a> {
    params: &'a CaveParams,
    key: u32,
    flat: u32,
}

impl Fill<'_> {
    #[inline(always)]
    fn p16(&self, w: usize, y: usize) -> u32 {
        if self.params.fill_variation > 0.0 {
            fill_p16(self.params, self.key, w, y)
        } else {
            self.flat
        }
    }
}

/// [`fill_words`] compiled for AVX-512 (eight 64-bit multiplies per instruction).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn fill_words_avx512(key: u64, y: usize, fill: &Fill, row: &mut [u64], lo: &[usize]) {
    fill_words(key, y, fill, row, lo)
}

/// The initial grid: wall above `surface + margin`, random below.
pub fn random_fill(
    width: usize,
    height: usize,
    surface: &[u32],
    params: &CaveParams,
    key: u64,
) -> (BitGrid, usize) {
    let mut grid = BitGrid::walls(width, height);
    let wpr = grid.words_per_row;
    let pad = grid.padding_mask();
    let start: Vec<usize> = surface
        .iter()
        .map(|&s| s as usize + params.margin as usize)
        .collect();
    // Per word: the first row where any / every lane is random.
    let lo: Vec<usize> = start
        .chunks(64)
        .map(|c| *c.iter().min().unwrap_or(&height))
        .collect();
    let hi: Vec<usize> = start
        .chunks(64)
        .map(|c| *c.iter().max().unwrap_or(&height))
        .collect();
    let first_random = lo.iter().copied().min().unwrap_or(height).min(height);
    let fill = Fill {
        params,
        key: (key >> 32) as u32 ^ 0x5bd1_e995,
        flat: fill_p16(
            &CaveParams {
                fill_variation: 0.0,
                ..params.clone()
            },
            0,
            0,
            0,
        ),
    };
    #[cfg(target_arch = "x86_64")]
    let avx512 =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq");
    grid.bits
        .par_chunks_mut(wpr)
        .with_min_len(8)
        .enumerate()
        .skip(first_random)
        .for_each(|(y, row)| {
            #[cfg(target_arch = "x86_64")]
            if avx512 {
                // SAFETY: the CPU has AVX-512 F and DQ (checked at run time above).
                unsafe { fill_words_avx512(key, y, &fill, row, &lo) };
            } else {
                fill_words(key, y, &fill, row, &lo);
            }
            #[cfg(not(target_arch = "x86_64"))]
            fill_words(key, y, &fill, row, &lo);
            for (w, word) in row.iter_mut().enumerate() {
                if y >= lo[w] && y < hi[w] {
                    // Lanes whose column starts lower stay wall.
                    for (lane, &s) in start[w * 64..(w * 64 + 64).min(width)].iter().enumerate() {
                        if y < s {
                            *word |= 1 << lane;
                        }
                    }
                }
            }
            row[wpr - 1] |= pad;
        });
    (grid, first_random)
}

/// Opens the tiles of one row whose bit is clear, 64 at a time: all-wall words are
/// skipped, all-open words are a fill, mixed words a branch-free select per tile.
#[inline(always)]
fn open_row(row: &mut [Tile], words: &[u64]) {
    for (tiles, &word) in row.chunks_mut(64).zip(words) {
        let open = !word;
        if open == 0 {
            continue;
        }
        if open == !0 {
            tiles.fill(Tile::Air);
            continue;
        }
        for (lane, t) in tiles.iter_mut().enumerate() {
            *t = if open & (1u64 << lane) != 0 {
                Tile::Air
            } else {
                *t
            };
        }
    }
}

/// [`open_row`] compiled for AVX2 (per-lane variable shifts).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn open_row_avx2(row: &mut [Tile], words: &[u64]) {
    open_row(row, words)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let params = &preset.caves;
    let (width, height) = (world.width(), world.height());
    let (mut grid, first_random) =
        random_fill(width, height, &world.surface, params, rng.next_u64());
    let first_row = first_random.saturating_sub(params.iterations as usize);
    run_automaton(&mut grid, params, first_row);
    let wpr = grid.words_per_row;
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2");
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .with_min_len(8)
        .enumerate()
        .skip(first_row)
        .for_each(|(y, row)| {
            let words = &grid.bits[y * wpr..(y + 1) * wpr];
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: the CPU has AVX2 (checked at run time above).
                unsafe { open_row_avx2(row, words) };
                return;
            }
            open_row(row, words);
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::hash3;

    /// The fill word as first written: one `hash3` call per bit plane.
    fn random_word_plain(key: u64, y: usize, w: usize, p16: u32) -> u64 {
        if p16 >= 65536 {
            return !0;
        }
        let mut lt = 0u64;
        let base = (y as u64) << 24 | (w as u64) << 4;
        for i in 0..16u32 {
            let u = hash3(key, base | i as u64, 0);
            lt = if p16 >> i & 1 == 1 { !u | lt } else { !u & lt };
        }
        lt
    }

    #[test]
    fn fill_words_match_plain_hash3() {
        let flat = CaveParams {
            fill_variation: 0.0,
            ..Default::default()
        };
        for p16 in [0, 1, 31457, 32768, 65535, 65536] {
            let lo = vec![0usize; 40];
            let mut row = vec![0u64; 40];
            let fill = Fill {
                params: &flat,
                key: 0,
                flat: p16,
            };
            fill_words(0xDEAD_BEEF, 77, &fill, &mut row, &lo);
            for (w, &word) in row.iter().enumerate() {
                assert_eq!(
                    word,
                    random_word_plain(0xDEAD_BEEF, 77, w, p16),
                    "p16 {p16} word {w}"
                );
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq")
            {
                let mut fast = vec![0u64; 40];
                unsafe { fill_words_avx512(0xDEAD_BEEF, 77, &fill, &mut fast, &lo) };
                assert_eq!(fast, row);
            }
        }
    }

    #[test]
    fn varied_fill_uses_each_words_own_probability() {
        let params = CaveParams {
            fill: 0.5,
            fill_variation: 0.3,
            fill_frequency: 0.02,
            ..Default::default()
        };
        let fill = Fill {
            params: &params,
            key: 42,
            flat: 0,
        };
        let lo = vec![0usize; 40];
        let mut row = vec![0u64; 40];
        fill_words(7, 300, &fill, &mut row, &lo);
        let mut distinct = std::collections::BTreeSet::new();
        for (w, &word) in row.iter().enumerate() {
            let p16 = fill_p16(&params, 42, w, 300);
            distinct.insert(p16);
            assert_eq!(word, random_word_plain(7, 300, w, p16), "word {w}");
        }
        assert!(
            distinct.len() > 10,
            "the noise moves the probability: {distinct:?}"
        );
    }

    #[test]
    fn open_row_opens_exactly_the_clear_bits() {
        for width in [1usize, 63, 64, 65, 200] {
            let words: Vec<u64> = (0..width.div_ceil(64) as u64)
                .map(|w| hash3(9, w, width as u64))
                .collect();
            let mut words = words;
            if width > 64 {
                words[0] = !0; // all wall
            }
            if width > 128 {
                words[1] = 0; // all open
            }
            let mut row = vec![Tile::Stone; width];
            open_row(&mut row, &words);
            for (x, t) in row.iter().enumerate() {
                let wall = words[x / 64] >> (x % 64) & 1 == 1;
                assert_eq!(
                    *t,
                    if wall { Tile::Stone } else { Tile::Air },
                    "width {width} x {x}"
                );
            }
        }
    }

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

    #[test]
    fn fill_probability_and_margin() {
        let surface = vec![10u32; 500];
        let params = CaveParams {
            fill: 0.3,
            fill_variation: 0.0,
            margin: 5,
            ..Default::default()
        };
        let (g, first) = random_fill(500, 200, &surface, &params, 77);
        assert_eq!(first, 15);
        for y in 0..15 {
            assert!(
                (0..500).all(|x| g.get(x, y)),
                "row {y} above the margin must be wall"
            );
        }
        let walls = (15..200)
            .flat_map(|y| (0..500).map(move |x| (x, y)))
            .filter(|&(x, y)| g.get(x, y))
            .count();
        let share = walls as f64 / (185.0 * 500.0);
        assert!((share - 0.3).abs() < 0.01, "fill share {share}");
        let (g0, _) = random_fill(
            500,
            200,
            &surface,
            &CaveParams {
                fill: 0.0,
                ..params.clone()
            },
            77,
        );
        assert!((15..200).all(|y| (0..500).all(|x| !g0.get(x, y))));
        let (g1, _) = random_fill(
            500,
            200,
            &surface,
            &CaveParams {
                fill: 1.0,
                ..params
            },
            77,
        );
        assert!(g1.bits.iter().all(|&w| w == !0));
    }

    #[test]
    fn uneven_surface_margin_per_column() {
        let surface: Vec<u32> = (0..100).map(|x| 5 + (x % 37) as u32).collect();
        let params = CaveParams {
            fill: 0.0,
            fill_variation: 0.0,
            margin: 3,
            ..Default::default()
        };
        let (g, _) = random_fill(100, 60, &surface, &params, 1);
        for (x, &s) in surface.iter().enumerate() {
            let start = s as usize + 3;
            assert!(
                (0..start).all(|y| g.get(x, y)),
                "column {x} walled down to {start}"
            );
            assert!(
                (start..60).all(|y| !g.get(x, y)),
                "column {x} random (open) from {start}"
            );
        }
    }
}
