//! The caves' random fill: 16 counter-based random words per 64 cells compared,
//! bit-sliced, against each word's wall probability.

use super::BitGrid;
use crate::preset::CaveParams;
use crate::rng::mix64;
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

/// Wall probability of the 64 cells of word `w` in row `y`, as a 16-bit fraction: `fill`,
/// moved by up to `fill_variation` with low-frequency noise sampled at the word's centre
/// (the noise changes little over 64 tiles, so per-word steps do not show).
#[inline]
fn fill_p16(params: &CaveParams, fill_key: u32, w: usize, y: usize) -> u32 {
    let mut p = params.fill;
    if params.fill_variation > 0.0 {
        let f = params.fill_frequency as f32;
        let n = crate::worldgen::noise::perlin_2d(fill_key, (w * 64 + 32) as f32 * f, y as f32 * f);
        p = (p + params.fill_variation * n as f64).clamp(0.0, 1.0);
    }
    to_p16(p)
}

/// A probability as a 16-bit fraction (65536 = always).
#[inline]
fn to_p16(p: f64) -> u32 {
    (p * 65536.0).round() as u32
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
fn fill_words_avx512(key: u64, y: usize, p16: &[u32], row: &mut [u64], lo: &[usize]) {
    fill_words(key, y, p16, row, lo)
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
        flat: to_p16(params.fill),
    };
    #[cfg(target_arch = "x86_64")]
    let avx512 =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq");
    grid.bits
        .par_chunks_mut(wpr)
        .with_min_len(8)
        .enumerate()
        .skip(first_random)
        .for_each_init(Vec::new, |p16, (y, row)| {
            // Each word's probability first, so the hashing below stays a tight loop.
            p16.clear();
            p16.extend((0..wpr).map(|w| fill.p16(w, y)));
            #[cfg(target_arch = "x86_64")]
            if avx512 {
                // SAFETY: the CPU has AVX-512 F and DQ (checked at run time above).
                unsafe { fill_words_avx512(key, y, p16, row, &lo) };
            } else {
                fill_words(key, y, p16, row, &lo);
            }
            #[cfg(not(target_arch = "x86_64"))]
            fill_words(key, y, p16, row, &lo);
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
        let fill = Fill {
            params: &params,
            key: 42,
            flat: 0,
        };
        let lo = vec![0usize; 40];
        let mut row = vec![0u64; 40];
        let probabilities: Vec<u32> = (0..40).map(|w| fill.p16(w, 300)).collect();
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
