//! Gradient (Perlin) noise as pure, branch-free kernels.
//!
//! Lattice gradients come from an integer hash of `(key, lattice point)` instead of a
//! permutation table, so evaluation needs no table reads (no gathers) and a row of samples
//! vectorises. Both kernels use Perlin's quintic fade `6t^5 - 15t^4 + 10t^3`.
//!
//! Ranges: the 1D kernel uses gradients in [-1, 1] and lies in [-0.5, 0.5]; the 2D kernel
//! uses the four diagonal gradients (±1, ±1) and lies in [-1, 1]. Both are zero on lattice
//! points.

/// Perlin's quintic fade curve: 0 at 0, 1 at 1, zero first and second derivatives there.
#[inline(always)]
pub fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// A 32-bit integer hash (lowbias32) with good avalanche, built from multiplies and shifts
/// only, so it vectorises.
#[inline(always)]
pub fn hash32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^ (h >> 16)
}

#[inline(always)]
fn lattice1(key: u32, i: i32) -> u32 {
    hash32(key ^ (i as u32).wrapping_mul(0x27d4_eb2d))
}

#[inline(always)]
fn lattice2(key: u32, ix: i32, iy: i32) -> u32 {
    hash32(key ^ (ix as u32).wrapping_mul(0x27d4_eb2d) ^ (iy as u32).wrapping_mul(0x1656_67b1))
}

/// 1D gradient noise at `x`; in [-0.5, 0.5], zero at integers.
#[inline]
pub fn perlin_1d(key: u32, x: f32) -> f32 {
    let i = x.floor();
    let t = x - i;
    let i = i as i32;
    // Gradient in [-1, 1] from the top 24 bits.
    let g = |h: u32| (h >> 8) as f32 * (2.0 / 16_777_215.0) - 1.0;
    let g0 = g(lattice1(key, i));
    let g1 = g(lattice1(key, i.wrapping_add(1)));
    let a = g0 * t;
    let b = g1 * (t - 1.0);
    a + fade(t) * (b - a)
}

/// Dot product of the diagonal gradient picked by two hash bits with `(dx, dy)`.
#[inline(always)]
fn grad2(h: u32, dx: f32, dy: f32) -> f32 {
    // Bit 0 and bit 1 choose the signs: branch-free sign flips.
    let sx = 1.0 - 2.0 * (h & 1) as f32;
    let sy = 1.0 - 2.0 * ((h >> 1) & 1) as f32;
    sx * dx + sy * dy
}

/// 2D gradient noise at `(x, y)`; in [-1, 1], zero on lattice points.
#[inline(always)]
pub fn perlin_2d(key: u32, x: f32, y: f32) -> f32 {
    let (ix, iy) = (floor_i32(x), floor_i32(y));
    let (fx, fy) = (ix as f32, iy as f32);
    let (dx, dy) = (x - fx, y - fy);
    let n00 = grad2(lattice2(key, ix, iy), dx, dy);
    let n10 = grad2(lattice2(key, ix.wrapping_add(1), iy), dx - 1.0, dy);
    let n01 = grad2(lattice2(key, ix, iy.wrapping_add(1)), dx, dy - 1.0);
    let n11 = grad2(
        lattice2(key, ix.wrapping_add(1), iy.wrapping_add(1)),
        dx - 1.0,
        dy - 1.0,
    );
    let (u, v) = (fade(dx), fade(dy));
    let nx0 = n00 + u * (n10 - n00);
    let nx1 = n01 + u * (n11 - n01);
    nx0 + v * (nx1 - nx0)
}

/// `x.floor()` as an integer without a libm call (baseline x86-64 has no SSE4.1
/// `roundss`): truncate, then step down for negative non-integers. Exact for
/// `|x| < 2^31`.
#[inline(always)]
pub fn floor_i32(x: f32) -> i32 {
    let i = x as i32;
    i - (x < i as f32) as i32
}

/// Sign factors `(sx, sy)` of the diagonal gradient picked by a lattice hash (as in
/// [`grad2`]).
#[inline(always)]
fn signs(h: u32) -> (f32, f32) {
    (
        1.0 - 2.0 * (h & 1) as f32,
        1.0 - 2.0 * ((h >> 1) & 1) as f32,
    )
}

/// The row-independent half of sampling 2D noise along rows: the columns
/// `x0..x0 + len` at `frequency`, split into runs that share a lattice cell, with each
/// sample's offset in its cell and fade. Build it once, then fill any number of rows with
/// [`perlin_2d_row_planned`].
#[derive(Clone, Debug)]
pub struct RowPlan {
    /// Lattice cells crossed, left to right: `(ix, first sample, end sample)`.
    cells: Vec<(i32, usize, usize)>,
    /// `x - floor(x)` of each sample.
    dx: Vec<f32>,
    /// `fade(dx)` of each sample.
    u: Vec<f32>,
}

impl RowPlan {
    pub fn new(x0: usize, len: usize, frequency: f32) -> RowPlan {
        let mut plan = RowPlan {
            cells: Vec::new(),
            dx: Vec::with_capacity(len),
            u: Vec::with_capacity(len),
        };
        for i in 0..len {
            // Through i32: the same value as the usize conversion below 2^31, in one
            // instruction instead of the unsigned 64-bit sequence.
            let x = (x0 + i) as i32 as f32 * frequency;
            let ix = floor_i32(x);
            let dx = x - ix as f32;
            plan.dx.push(dx);
            plan.u.push(fade(dx));
            match plan.cells.last_mut() {
                Some(cell) if cell.0 == ix => cell.2 = i + 1,
                _ => plan.cells.push((ix, i, i + 1)),
            }
        }
        plan
    }

    /// Number of samples per row.
    pub fn len(&self) -> usize {
        self.dx.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dx.is_empty()
    }
}

/// `out[i] = perlin_2d(key, (x0 + i) * frequency, y * frequency)` for the plan's columns,
/// bit-identical to the point kernel.
///
/// Along a row the lattice row is fixed, so the corner gradients change only from one
/// lattice cell to the next (every `1 / frequency` samples): they are hashed once per
/// cell, and each sample costs four sign flips and three lerps, in a loop over the cell's
/// samples that the compiler vectorises.
#[inline(always)]
pub fn perlin_2d_row_planned(key: u32, plan: &RowPlan, y: usize, frequency: f32, out: &mut [f32]) {
    perlin_2d_row_planned_where(key, plan, y, frequency, out, |_| true);
}

/// [`perlin_2d_row_planned`] for the lattice cells whose sample range `wanted` accepts
/// only; samples of other cells are left as they were.
#[inline(always)]
pub fn perlin_2d_row_planned_where(
    key: u32,
    plan: &RowPlan,
    y: usize,
    frequency: f32,
    out: &mut [f32],
    wanted: impl Fn(std::ops::Range<usize>) -> bool,
) {
    perlin_2d_row_cached(
        key,
        plan,
        &mut LatticeCache::default(),
        y,
        frequency,
        out,
        wanted,
    );
}

/// The gradient signs of the lattice columns a [`RowPlan`] crosses, on one pair of
/// lattice rows `(iy, iy + 1)`. Rows of samples in the same lattice row (about
/// `1 / frequency` consecutive rows) share them, so a cache kept across rows hashes each
/// lattice point once instead of once per sample row.
#[derive(Clone, Debug, Default)]
pub struct LatticeCache {
    /// `(key, iy)` the signs are for.
    of: Option<(u32, i32)>,
    /// Lattice column of `signs[0]`.
    ix0: i32,
    /// Per lattice column: `(sx, sy)` at `iy`, then `(sx, sy)` at `iy + 1`.
    signs: Vec<[f32; 4]>,
}

impl LatticeCache {
    fn prepare(&mut self, key: u32, plan: &RowPlan, iy: i32) {
        if self.of == Some((key, iy)) {
            return;
        }
        self.of = Some((key, iy));
        self.signs.clear();
        let (Some(first), Some(last)) = (plan.cells.first(), plan.cells.last()) else {
            return;
        };
        self.ix0 = first.0;
        let mut ix = first.0;
        loop {
            let (sx0, sy0) = signs(lattice2(key, ix, iy));
            let (sx1, sy1) = signs(lattice2(key, ix, iy.wrapping_add(1)));
            self.signs.push([sx0, sy0, sx1, sy1]);
            if ix == last.0.wrapping_add(1) {
                break;
            }
            ix = ix.wrapping_add(1);
        }
    }
}

/// [`perlin_2d_row_planned_where`] with the lattice gradients taken from (and kept in)
/// `cache`; bit-identical to the point kernel.
#[inline(always)]
pub fn perlin_2d_row_cached(
    key: u32,
    plan: &RowPlan,
    cache: &mut LatticeCache,
    y: usize,
    frequency: f32,
    out: &mut [f32],
    wanted: impl Fn(std::ops::Range<usize>) -> bool,
) {
    let out = &mut out[..plan.len()];
    let fy = y as i32 as f32 * frequency;
    let iy = floor_i32(fy);
    let dy = fy - iy as f32;
    let v = fade(dy);
    cache.prepare(key, plan, iy);
    let (signs, ix0) = (&cache.signs, cache.ix0);
    for &(ix, a, b) in &plan.cells {
        if !wanted(a..b) {
            continue;
        }
        let col = ix.wrapping_sub(ix0) as usize;
        let [sx00, sy00, sx01, sy01] = signs[col];
        let [sx10, sy10, sx11, sy11] = signs[col + 1];
        // The y halves of the four dot products are the same for the whole cell.
        let (c00, c10) = (sy00 * dy, sy10 * dy);
        let (c01, c11) = (sy01 * (dy - 1.0), sy11 * (dy - 1.0));
        for ((o, &dx), &u) in out[a..b].iter_mut().zip(&plan.dx[a..b]).zip(&plan.u[a..b]) {
            let n00 = sx00 * dx + c00;
            let n10 = sx10 * (dx - 1.0) + c10;
            let n01 = sx01 * dx + c01;
            let n11 = sx11 * (dx - 1.0) + c11;
            let nx0 = n00 + u * (n10 - n00);
            let nx1 = n01 + u * (n11 - n01);
            *o = nx0 + v * (nx1 - nx0);
        }
    }
}

/// Fills `out[i]` with `perlin_2d(key, (x0 + i) * frequency, y * frequency)`: one row of
/// samples, bit-identical to the point kernel. For many rows over the same columns,
/// build a [`RowPlan`] once and use [`perlin_2d_row_planned`].
pub fn perlin_2d_row(key: u32, x0: usize, y: usize, frequency: f32, out: &mut [f32]) {
    let plan = RowPlan::new(x0, out.len(), frequency);
    perlin_2d_row_planned(key, &plan, y, frequency, out);
}

/// Fractal Brownian motion over 1D Perlin noise, normalised to [-1, 1]: octave `o` is
/// sampled at `x * lacunarity^o` with weight `persistence^o` and its own key, and the sum
/// is divided by the total weight and doubled (the kernel's range is ±0.5).
#[derive(Clone, Copy, Debug)]
pub struct Fbm1 {
    pub key: u32,
    pub octaves: u32,
    pub persistence: f32,
    pub lacunarity: f32,
}

impl Fbm1 {
    pub fn sample(&self, x: f32) -> f32 {
        let (mut sum, mut weight, mut total, mut freq) = (0.0f32, 1.0f32, 0.0f32, 1.0f32);
        for o in 0..self.octaves {
            let key = hash32(self.key.wrapping_add(o.wrapping_mul(0x9E37_79B9)));
            sum += weight * perlin_1d(key, x * freq);
            total += weight;
            weight *= self.persistence;
            freq *= self.lacunarity;
        }
        if total > 0.0 { 2.0 * sum / total } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_on_lattice_points() {
        for i in -50..50 {
            assert_eq!(perlin_1d(7, i as f32), 0.0);
            for j in -5..5 {
                assert_eq!(perlin_2d(7, i as f32, j as f32), 0.0);
            }
        }
    }

    #[test]
    fn bounded_and_not_flat() {
        let (mut lo1, mut hi1, mut lo2, mut hi2) = (0f32, 0f32, 0f32, 0f32);
        for i in 0..20_000 {
            let x = i as f32 * 0.0137 - 100.0;
            let a = perlin_1d(3, x);
            let b = perlin_2d(3, x, x * 0.71 + 3.3);
            assert!(a.abs() <= 0.5 + 1e-6, "1d {a} at {x}");
            assert!(b.abs() <= 1.0 + 1e-6, "2d {b} at {x}");
            (lo1, hi1, lo2, hi2) = (lo1.min(a), hi1.max(a), lo2.min(b), hi2.max(b));
        }
        assert!(lo1 < -0.2 && hi1 > 0.2, "1d spread {lo1}..{hi1}");
        assert!(lo2 < -0.5 && hi2 > 0.5, "2d spread {lo2}..{hi2}");
    }

    #[test]
    fn continuous() {
        for i in 0..10_000 {
            let x = i as f32 * 0.01;
            assert!((perlin_1d(1, x) - perlin_1d(1, x + 0.001)).abs() < 0.01);
            assert!((perlin_2d(1, x, 0.5) - perlin_2d(1, x + 0.001, 0.5)).abs() < 0.01);
        }
    }

    #[test]
    fn keys_give_different_noise() {
        let differ = (0..100)
            .filter(|&i| perlin_2d(1, i as f32 + 0.3, 0.7) != perlin_2d(2, i as f32 + 0.3, 0.7))
            .count();
        assert!(differ > 90);
    }

    #[test]
    fn row_matches_point_kernel() {
        let mut row = vec![0.0; 100];
        perlin_2d_row(9, 17, 4, 0.08, &mut row);
        for (i, v) in row.iter().enumerate() {
            assert_eq!(*v, perlin_2d(9, (17 + i) as f32 * 0.08, 4.0 * 0.08));
        }
    }

    #[test]
    fn row_kernel_matches_point_kernel_across_frequencies_and_offsets() {
        for &f in &[0.005f32, 0.08, 0.09, 0.3, 0.77, 1.0] {
            for &(x0, y) in &[(0usize, 0usize), (3, 17), (8191, 2399), (16000, 4095)] {
                let mut row = vec![0.0; 300];
                perlin_2d_row(11, x0, y, f, &mut row);
                for (i, v) in row.iter().enumerate() {
                    let p = perlin_2d(11, (x0 + i) as f32 * f, y as f32 * f);
                    assert_eq!(v.to_bits(), p.to_bits(), "f {f} at ({}, {y})", x0 + i);
                }
            }
        }
    }

    #[test]
    fn skipped_cells_are_left_alone() {
        let plan = RowPlan::new(5, 500, 0.09);
        let mut all = vec![0.0; 500];
        perlin_2d_row_planned(4, &plan, 33, 0.09, &mut all);
        let mut some = vec![9.0; 500];
        perlin_2d_row_planned_where(4, &plan, 33, 0.09, &mut some, |r| r.start % 3 != 0);
        for &(_, a, b) in &plan.cells {
            for i in a..b {
                let want = if a % 3 != 0 { all[i] } else { 9.0 };
                assert_eq!(some[i].to_bits(), want.to_bits(), "sample {i}");
            }
        }
    }

    #[test]
    fn cache_kept_across_rows_matches_point_kernel() {
        let f = 0.09;
        let plan = RowPlan::new(3, 700, f);
        let mut cache = LatticeCache::default();
        let mut row = vec![0.0; 700];
        for (key, y) in [(1, 0), (1, 1), (1, 11), (1, 12), (2, 12), (2, 40), (2, 39)] {
            perlin_2d_row_cached(key, &plan, &mut cache, y, f, &mut row, |_| true);
            for (i, v) in row.iter().enumerate() {
                let p = perlin_2d(key, (3 + i) as f32 * f, y as f32 * f);
                assert_eq!(v.to_bits(), p.to_bits(), "key {key} row {y} sample {i}");
            }
        }
    }

    #[test]
    fn floor_i32_is_floor() {
        for i in -20_000..20_000 {
            let x = i as f32 * 0.013_7;
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
        }
        assert_eq!(floor_i32(-1.0), -1);
        assert_eq!(floor_i32(-0.0), 0);
        assert_eq!(floor_i32(3.0), 3);
    }

    #[test]
    fn fbm_is_normalised() {
        let f = Fbm1 {
            key: 5,
            octaves: 6,
            persistence: 0.5,
            lacunarity: 2.0,
        };
        for i in 0..10_000 {
            assert!(f.sample(i as f32 * 0.013).abs() <= 1.0);
        }
        let one = Fbm1 {
            key: 5,
            octaves: 1,
            persistence: 0.5,
            lacunarity: 2.0,
        };
        assert_eq!(one.sample(0.3), 2.0 * perlin_1d(hash32(5), 0.3));
    }
}
