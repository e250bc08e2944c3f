//! The caves' random fill: 16 counter-based random words per 64 cells compared,
//! bit-sliced, against each word's wall probability.

use super::BitGrid;
use crate::base::noise::{RowNoise, RowPlan};
use crate::base::rng::mix64;
use crate::content::preset::CaveParams;
use rayon::prelude::*;

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
    let uniform = p16.iter().all(|&p| p == p16[0]);
    for i in 0..16u64 {
        // hash3(key, a, 0), spelled out: the zero coordinate drops out.
        let mut u = [0u64; GROUP];
        for (k, u) in u.iter_mut().enumerate() {
            let a = (y as u64) << 24 | ((w0 + k) as u64) << 4 | i;
            *u = mix64(key ^ mix64(a.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        }
        // Where bit i of the probability is set: lt = !u | lt, else lt = !u & lt.
        if uniform {
            let set = p16[0] >> i & 1 == 1;
            for (lt, u) in lt.iter_mut().zip(u) {
                *lt = if set { !u | *lt } else { !u & *lt };
            }
        } else {
            for ((lt, u), &p) in lt.iter_mut().zip(u).zip(p16) {
                let m = 0u64.wrapping_sub((p >> i & 1) as u64);
                *lt = (!u & (*lt | m)) | (*lt & m);
            }
        }
    }
    for (lt, &p) in lt.iter_mut().zip(p16) {
        if p >= 65536 {
            *lt = !0;
        }
    }
    lt
}

/// A probability as a 16-bit fraction (65536 = always): `(p * 65536.0).round()` for
/// `p` in `[0, 1]` (and 0 for NaN), without the libm call baseline x86-64 needs for
/// `round`; the fraction `x - trunc(x)` of a non-negative double is exact, so this rounds
/// half away from zero exactly as `round` does.
#[inline]
fn to_p16(p: f64) -> u32 {
    let x = p * 65536.0;
    let i = x as u32;
    i + (x - i as f64 >= 0.5) as u32
}

/// Random words for one row where `y >= lo[w]` (lanes above the margin are fixed
/// afterwards; other words keep their walls).
#[inline(always)]
fn fill_words(key: u64, y: usize, p16: &[u32], row: &mut [u64], lo: &[usize]) {
    for (g, (words, lo)) in row.chunks_mut(GROUP).zip(lo.chunks(GROUP)).enumerate() {
        if lo.iter().all(|&l| y < l) {
            continue;
        }
        let mut group = [0u32; GROUP];
        for (k, p) in group.iter_mut().enumerate() {
            *p = p16.get(g * GROUP + k).copied().unwrap_or(0);
        }
        let random = random_words(key, y, g * GROUP, &group);
        for ((word, &l), r) in words.iter_mut().zip(lo).zip(random) {
            if y >= l {
                *word = r;
            }
        }
    }
}

/// What decides a word's wall probability: `fill`, moved by up to `fill_variation` with
/// low-frequency noise sampled at the word's centre (the noise changes little over 64
/// tiles, so per-word steps do not show).
struct Fill<'a> {
    params: &'a CaveParams,
    depth: Depth,
    key: u32,
    words: usize,
    /// The word centres, when the probability varies.
    centres: Option<RowPlan>,
    /// Adds each word's change of fill in a grid row (the cave style's regions and the
    /// biomes' caves), if any.
    adjust: Option<Adjust<'a>>,
}

/// A change of each word's fill in grid row `y`, added into the slice (one per word).
pub type Adjust<'a> = &'a (dyn Fn(usize, &mut [f64]) + Sync);

/// Salt of the regional fill noise's key, xored with the high half of the pass key.
pub const VARIATION_SALT: u32 = 0x5bd1_e995;

/// The regional fill noise's key, from the caves' pass key.
pub fn variation_key(key: u64) -> u32 {
    (key >> 32) as u32 ^ VARIATION_SALT
}

/// Where the depth layers lie, for a fill that changes with depth: `shallow` more wall
/// above the cavern layer, and `deepening` less from its top down to the underworld.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Depth {
    /// First tile row of the cavern layer.
    pub cavern: usize,
    /// First tile row of the underworld.
    pub underworld: usize,
    /// Tile rows per grid row (the cave scale).
    pub row_scale: usize,
}

impl Depth {
    /// No layers: the same fill at every depth.
    pub const FLAT: Depth = Depth {
        cavern: 0,
        underworld: usize::MAX,
        row_scale: 1,
    };

    /// The wall probability at grid row `y` before regional noise.
    #[inline]
    pub fn fill(&self, params: &CaveParams, y: usize) -> f64 {
        let y = y * self.row_scale;
        if y < self.cavern {
            params.fill + params.shallow
        } else if y >= self.underworld {
            params.fill - params.deepening
        } else {
            let t = (y - self.cavern) as f64 / (self.underworld - self.cavern) as f64;
            params.fill - params.deepening * t
        }
    }
}

impl Fill<'_> {
    fn new<'a>(
        params: &'a CaveParams,
        depth: Depth,
        key: u32,
        words: usize,
        adjust: Option<Adjust<'a>>,
    ) -> Fill<'a> {
        let f = params.fill_frequency as f32;
        Fill {
            params,
            depth,
            key,
            words,
            adjust,
            centres: (params.fill_variation > 0.0)
                .then(|| RowPlan::at((0..words).map(|w| w * 64 + 32), f)),
        }
    }

    /// Every word's probability in row `y`, as a 16-bit fraction, into `out`. Rows in
    /// order share `lattice` (the noise's row cache, in the preset's basis).
    fn row(&self, y: usize, scratch: &mut Scratch) {
        let Scratch {
            lattice,
            noise,
            p16: out,
            deltas,
        } = scratch;
        out.clear();
        let fill = self.depth.fill(self.params, y).clamp(0.0, 1.0);
        if let Some(adjust) = self.adjust {
            deltas.clear();
            deltas.resize(self.words, 0.0);
            adjust(y, deltas);
            if let Some(centres) = &self.centres {
                noise.resize(centres.len(), 0.0);
                let f = self.params.fill_frequency as f32;
                lattice.row_in(self.params.fill_basis, self.key, centres, y, f, noise);
                for (d, &n) in deltas.iter_mut().zip(noise.iter()) {
                    *d += self.params.fill_variation * n as f64;
                }
            }
            out.extend(deltas.iter().map(|d| to_p16((fill + d).clamp(0.0, 1.0))));
            return;
        }
        let Some(centres) = &self.centres else {
            out.resize(self.words, to_p16(fill));
            return;
        };
        noise.resize(centres.len(), 0.0);
        let f = self.params.fill_frequency as f32;
        let basis = self.params.fill_basis;
        lattice.row_in(basis, self.key, centres, y, f, noise);
        let variation = self.params.fill_variation;
        out.extend(
            noise
                .iter()
                .map(|&n| to_p16((fill + variation * n as f64).clamp(0.0, 1.0))),
        );
    }
}

/// Per-thread buffers of [`random_fill`].
#[derive(Default)]
struct Scratch {
    lattice: RowNoise,
    noise: Vec<f32>,
    p16: Vec<u32>,
    deltas: Vec<f64>,
}

/// [`fill_words`] compiled for AVX-512 (eight 64-bit multiplies per instruction).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn fill_words_avx512(key: u64, y: usize, p16: &[u32], row: &mut [u64], lo: &[usize]) {
    fill_words(key, y, p16, row, lo)
}

/// Makes every cell of column `x` above row `start[x]` a wall: whole rows down to the
/// highest start, then whole words down to their own highest start, and lane by lane
/// only between a word's highest and lowest.
pub fn seal_above(grid: &mut BitGrid, start: &[usize]) {
    let (wpr, height) = (grid.words_per_row, grid.height);
    // Per word: the highest and the lowest start among its columns.
    let bounds: Vec<(usize, usize)> = start
        .chunks(64)
        .map(|c| {
            let lo = c.iter().copied().min().unwrap_or(0);
            (lo, c.iter().copied().max().unwrap_or(0))
        })
        .collect();
    let lo = bounds.iter().map(|b| b.0).min().unwrap_or(0).min(height);
    let hi = bounds.iter().map(|b| b.1).max().unwrap_or(0).min(height);
    grid.bits[..lo * wpr].fill(!0);
    grid.bits[lo * wpr..hi * wpr]
        .par_chunks_mut(wpr)
        .enumerate()
        .for_each(|(i, row)| {
            let y = lo + i;
            let words = row.iter_mut().zip(start.chunks(64)).zip(&bounds);
            for ((word, columns), &(word_lo, word_hi)) in words {
                if y < word_lo {
                    *word = !0;
                } else if y < word_hi {
                    for (lane, &s) in columns.iter().enumerate() {
                        *word |= ((y < s) as u64) << lane;
                    }
                }
            }
        });
}

/// The initial grid: wall above `surface + margin`, random below, the same fill at every
/// depth.
pub fn random_fill(
    width: usize,
    height: usize,
    surface: &[u32],
    params: &CaveParams,
    key: u64,
) -> (BitGrid, usize) {
    random_fill_at(width, height, surface, params, Depth::FLAT, key)
}

/// [`random_fill`] with a fill that changes with depth ([`Depth`]).
pub fn random_fill_at(
    width: usize,
    height: usize,
    surface: &[u32],
    params: &CaveParams,
    depth: Depth,
    key: u64,
) -> (BitGrid, usize) {
    random_fill_styled(width, height, surface, params, depth, key, None)
}

/// [`random_fill_at`] with each word's fill changed by `adjust` (the cave style).
pub fn random_fill_styled(
    width: usize,
    height: usize,
    surface: &[u32],
    params: &CaveParams,
    depth: Depth,
    key: u64,
    adjust: Option<Adjust<'_>>,
) -> (BitGrid, usize) {
    let mut grid = BitGrid::walls(width, height);
    let wpr = grid.words_per_row;
    let pad = grid.padding_mask();
    let start: Vec<usize> = surface
        .iter()
        .map(|&s| s as usize + params.margin as usize)
        .collect();
    // Per word: the first row where any lane is random.
    let lo: Vec<usize> = start
        .chunks(64)
        .map(|c| *c.iter().min().unwrap_or(&height))
        .collect();
    let first_random = lo.iter().copied().min().unwrap_or(height).min(height);
    let fill = Fill::new(params, depth, variation_key(key), wpr, adjust);
    #[cfg(target_arch = "x86_64")]
    let avx512 =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq");
    grid.bits
        .par_chunks_mut(wpr)
        .with_min_len(8)
        .enumerate()
        .skip(first_random)
        .for_each_init(Scratch::default, |scratch, (y, row)| {
            // Each word's probability first, so the hashing below stays a tight loop.
            fill.row(y, scratch);
            let p16 = &scratch.p16;
            #[cfg(target_arch = "x86_64")]
            if avx512 {
                // SAFETY: the CPU has AVX-512 F and DQ (checked at run time above).
                unsafe { fill_words_avx512(key, y, p16, row, &lo) };
            } else {
                fill_words(key, y, p16, row, &lo);
            }
            #[cfg(not(target_arch = "x86_64"))]
            fill_words(key, y, p16, row, &lo);
            row[wpr - 1] |= pad;
        });
    // Lanes whose column starts lower stay wall.
    seal_above(&mut grid, &start);
    (grid, first_random)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::hash3;

    /// Wall probability of word `w` in row `y` as first written: one point sample of the
    /// noise per word, and `round`.
    fn fill_p16(params: &CaveParams, fill_key: u32, w: usize, y: usize) -> u32 {
        let mut p = params.fill;
        if params.fill_variation > 0.0 {
            let f = params.fill_frequency as f32;
            let n = crate::base::noise::perlin_2d(fill_key, (w * 64 + 32) as f32 * f, y as f32 * f);
            p = (p + params.fill_variation * n as f64).clamp(0.0, 1.0);
        }
        (p * 65536.0).round() as u32
    }

    #[test]
    fn to_p16_rounds_like_round() {
        let mut p = 0.0f64;
        while p <= 1.0 {
            for q in [p, p.next_up(), p.next_down().max(0.0)] {
                assert_eq!(to_p16(q), (q * 65536.0).round() as u32, "{q}");
            }
            p += 0.5 / 65536.0;
        }
        for q in [
            0.0,
            1.0,
            0.5,
            1.0 / 3.0,
            0.49999999999999994 / 65536.0,
            f64::NAN,
        ] {
            assert_eq!(to_p16(q), (q * 65536.0).round() as u32, "{q}");
        }
    }

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
        for p16 in [0, 1, 31457, 32768, 65535, 65536] {
            let lo = vec![0usize; 40];
            let mut row = vec![0u64; 40];
            let probabilities = vec![p16; 40];
            fill_words(0xDEAD_BEEF, 77, &probabilities, &mut row, &lo);
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
                unsafe { fill_words_avx512(0xDEAD_BEEF, 77, &probabilities, &mut fast, &lo) };
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
        let fill = Fill::new(&params, Depth::FLAT, 42, 40, None);
        let lo = vec![0usize; 40];
        let mut row = vec![0u64; 40];
        let mut scratch = Scratch::default();
        fill.row(300, &mut scratch);
        let probabilities = scratch.p16;
        fill_words(7, 300, &probabilities, &mut row, &lo);
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
    fn seal_above_walls_exactly_the_rows_above_each_start() {
        let mut g = BitGrid::walls(130, 40);
        g.bits.fill(0);
        let start: Vec<usize> = (0..130).map(|x| (x * 7) % 31).collect();
        seal_above(&mut g, &start);
        for (x, &s) in start.iter().enumerate() {
            for y in 0..40 {
                assert_eq!(g.get(x, y), y < s, "({x}, {y})");
            }
        }
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
