//! Simplex noise, as OpenSimplex2 (its fast 2D variant) lays it out: the plane is cut
//! into equilateral triangles (the A2* lattice, reached by skewing the square one), and a
//! sample sums the three corners of its triangle, each a gradient's dot product with the
//! offset to the corner, faded out radially. Three corners instead of Perlin's four, and
//! no square lattice: no features along the axes, and the same look in every direction.
//!
//! The kernel, step by step (Strata's own code, after K. Spencer's OpenSimplex2 notes):
//! - skew: `s = (x + y) * F` with `F = (sqrt 3 - 1) / 2`; the triangle's base corner is
//!   `(i, j) = floor(x + s, y + s)`, and with `(xi, yi)` the offsets in the skewed cell,
//!   the sample lies in the lower triangle `(i, j), (i + 1, j), (i + 1, j + 1)` when
//!   `xi > yi`, else in the upper one `(i, j), (i, j + 1), (i + 1, j + 1)`;
//! - unskew: the offset to corner `(i + a, j + b)` in the plane is
//!   `(xi - a - t, yi - b - t)` with `t = (xi + yi - a - b) * G`, `G = (3 - sqrt 3) / 6`;
//! - each corner adds `max(0, 1/2 - |d|^2)^4 * (g . d)`: radius `sqrt(1/2)`, the distance
//!   at which a corner's neighbouring triangles end, so no other corner reaches the
//!   sample and the sum is continuous with its first derivatives.
//!
//! Gradients: OpenSimplex2's 2D set, 24 unit vectors at `7.5° + k * 15°`: none along an
//! axis or a diagonal, so the gradient field has no preferred direction of the square
//! lattice. They are the three directions 7.5°, 22.5° and 37.5° under the eight
//! symmetries of the square (swap x and y, flip either sign), so three hash bits pick a
//! symmetry and a fourth field of the hash the base direction, all with selects and sign
//! flips: no table, and a row of samples vectorises. The corners' hashes are Perlin's
//! ([`super::lattice2`]), so a key gives unrelated fields in the three bases all the same.
//! Patents: the 2D simplex lattice and its gradient dot products were never covered (the
//! Simplex noise patent, US 6,867,776, expired in 2022, claimed its 3D+ form);
//! OpenSimplex2 was written to avoid it and is public domain.
//!
//! Ranges before scaling: `(1/2 - d^2)^4 * |d|` peaks at `0.009232` (`d^2 = 1/18`), and
//! the three corners together, with each gradient along its offset, at `0.010081` (at the
//! midpoint of a triangle's edge, the two corners of that edge contributing); the 2D sum
//! is scaled by `99.2`, so it lies in `[-1, 1]` (at most `0.99997`). In 1D the lattice is
//! the integers and the two neighbours add `(1 - d^2)^4 * g * d` with `g` in `[-1, 1]`
//! (Gustavson's 1D simplex noise): at most `0.31641`, at `d = 1/2`; scaled by `1.58` into
//! Perlin's 1D range `[-0.5, 0.5]`. Both are zero on lattice points.

use super::{PRIME_X, PRIME_Y, RowPlan, cell_1d, floor_i32, gradient_1d, hash32, lattice2};

/// `(sqrt 3 - 1) / 2`: skews the plane onto the square lattice.
const SKEW: f32 = 0.366_025_42;
/// `(3 - sqrt 3) / 6`: unskews the lattice back onto the plane.
const UNSKEW: f32 = 0.211_324_87;
/// Scales the 2D sum (at most `0.010081` before) into `[-1, 1]`.
const SCALE_2D: f32 = 99.2;
/// Scales the 1D sum (at most `0.31641` before) into `[-0.5, 0.5]`.
const SCALE_1D: f32 = 1.58;

/// The base directions 7.5°, 22.5° and 37.5°: `(cos, sin)`.
const BASE: [(f32, f32); 3] = [
    (0.991_444_9, 0.130_526_19),
    (0.923_879_5, 0.382_683_43),
    (0.793_353_3, 0.608_761_4),
];

/// The gradient a corner's hash picks, as `(gx, gy)`: base direction from bits 8-23
/// (their thirds: `floor(t * 3 / 2^16)`, by two comparisons rather than a multiply), x
/// and y swapped if bit 2, x's sign from bit 0 and y's from bit 1. One of the 24 of the
/// module's doc.
#[inline(always)]
pub fn gradient(h: u32) -> (f32, f32) {
    let t = (h >> 8) & 0xffff;
    let (a, c) = if t <= 21_845 {
        BASE[0]
    } else if t <= 43_690 {
        BASE[1]
    } else {
        BASE[2]
    };
    let (gx, gy) = if h & 4 != 0 { (c, a) } else { (a, c) };
    (
        f32::from_bits(gx.to_bits() ^ (h << 31)),
        f32::from_bits(gy.to_bits() ^ ((h >> 1) << 31)),
    )
}

/// One corner's term: `max(0, 1/2 - |d|^2)^4 * (g . d)`, `h` the corner's hash.
#[inline(always)]
fn corner(h: u32, dx: f32, dy: f32) -> f32 {
    let a = 0.5 - dx * dx - dy * dy;
    let a = if a > 0.0 { a } else { 0.0 };
    let (gx, gy) = gradient(h);
    let a2 = a * a;
    a2 * a2 * (gx * dx + gy * dy)
}

/// 2D simplex noise at `(x, y)`; in `[-1, 1]`, zero on lattice points.
#[inline(always)]
pub fn simplex_2d(key: u32, x: f32, y: f32) -> f32 {
    let s = (x + y) * SKEW;
    let (xs, ys) = (x + s, y + s);
    let (i, j) = (floor_i32(xs), floor_i32(ys));
    let (xi, yi) = (xs - i as f32, ys - j as f32);
    let t = (xi + yi) * UNSKEW;
    let (dx0, dy0) = (xi - t, yi - t);
    // The corner hashes, from the premultiplied lattice coordinates (as `lattice2`).
    let (xp, yp) = (
        (i as u32).wrapping_mul(PRIME_X),
        (j as u32).wrapping_mul(PRIME_Y),
    );
    let (xp1, yp1) = (xp.wrapping_add(PRIME_X), yp.wrapping_add(PRIME_Y));
    let n0 = corner(hash32(key ^ xp ^ yp), dx0, dy0);
    let n1 = corner(
        hash32(key ^ xp1 ^ yp1),
        dx0 - (1.0 - 2.0 * UNSKEW),
        dy0 - (1.0 - 2.0 * UNSKEW),
    );
    // The third corner: (i + 1, j) below the diagonal, (i, j + 1) above it.
    let lower = xi > yi;
    let (hx, hy) = if lower { (xp1, yp) } else { (xp, yp1) };
    let (ox, oy) = if lower {
        (1.0 - UNSKEW, -UNSKEW)
    } else {
        (-UNSKEW, 1.0 - UNSKEW)
    };
    let n2 = corner(hash32(key ^ hx ^ hy), dx0 - ox, dy0 - oy);
    (n0 + n1 + n2) * SCALE_2D
}

/// 1D simplex noise at `x`; in `[-0.5, 0.5]`, zero at integers. The gradients are
/// Perlin's 1D ones ([`super::perlin_1d`]'s), only the blend differs: each neighbour
/// fades out radially instead of the two being interpolated.
#[inline(always)]
pub fn simplex_1d(key: u32, x: f32) -> f32 {
    let (i, t) = cell_1d(x);
    let term = |g: f32, d: f32| {
        let a = 1.0 - d * d;
        let a2 = a * a;
        a2 * a2 * g * d
    };
    (term(gradient_1d(key, i), t) + term(gradient_1d(key, i.wrapping_add(1)), t - 1.0)) * SCALE_1D
}

/// `out[i] = simplex_2d(key, xs[i], y)`, with AVX-512 or AVX2 where the CPU has them
/// (checked at run time): the same IEEE operations in the same order either way (Rust
/// never fuses multiply-adds), so the same output as [`simplex_2d_xs_plain`], which a test
/// checks.
pub fn simplex_2d_xs(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked just above).
        return unsafe { simplex_2d_xs_avx512(key, xs, y, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { simplex_2d_xs_avx2(key, xs, y, out) };
    }
    simplex_2d_xs_plain(key, xs, y, out)
}

/// [`simplex_2d_xs`] 16 lanes wide.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn simplex_2d_xs_avx512(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    row(key, xs, y, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn simplex_2d_xs_avx2(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    row(key, xs, y, out)
}

/// [`simplex_2d_xs`] without AVX2 (baseline x86-64 vectorises it 4 lanes wide).
pub fn simplex_2d_xs_plain(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    row(key, xs, y, out)
}

/// The row loop both builds share: every sample's corners are hashed anew (a row crosses
/// the skewed lattice diagonally, so rows share few corners), in one branch-free loop.
#[inline(always)]
fn row(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = simplex_2d(key, x, y);
    }
}

/// Columns of gradients per lattice row kept in a [`Band`] slot, and how many of them lie
/// left of the column that made the slot: rows of samples further down the world meet a
/// lattice row further left (about `4.7 * frequency` columns per row of samples), so a
/// slot serves about `LEFT / (4.7 * frequency)` rows before it is made again.
const WIDTH: usize = 64;
const LEFT: i32 = 40;

/// The corner gradients of the lattice rows a row of samples crosses, kept across rows of
/// samples as Perlin's [`super::LatticeRow`] is. Along a row at fixed `y` the skewed
/// lattice point `(i, j)` of a sample rises in both `i` and `j` (the row crosses the
/// lattice's rows about every 2.7 plane units), so eight samples in a row lie within
/// three columns and two rows of lattice cells, and the gradients of all their corners
/// are two 4x2 blocks of the lattice: rows `j0, j0 + 1` and `j0 + 1, j0 + 2` at columns
/// `i0..i0 + 4`. A slot holds one lattice row's gradients over [`WIDTH`] columns, in a
/// ring indexed by `j`; each lattice point is hashed once per slot instead of three times
/// per sample.
#[derive(Clone, Debug, Default)]
struct Band {
    /// Per slot: the `(key, j, first column)` of its gradients.
    slots: Vec<Option<(u32, i32, i32)>>,
    /// `WIDTH` gradients' x per slot, then their y.
    gx: Vec<f32>,
    gy: Vec<f32>,
}

impl Band {
    /// At least `rows` slots (a power of two, at most 1024: a longer row makes slots
    /// again as it goes, still with the same gradients).
    fn reserve(&mut self, rows: usize) {
        let n = rows.clamp(4, 1024).next_power_of_two();
        if self.slots.len() < n {
            self.slots = vec![None; n];
            self.gx = vec![0.0; n * WIDTH];
            self.gy = vec![0.0; n * WIDTH];
        }
    }

    /// Where lattice point `(i, j)` and the three to its right lie in `gx` and `gy`,
    /// making `j`'s slot first if it does not hold them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn at(&mut self, key: u32, i: i32, j: i32) -> usize {
        let slot = j as usize & (self.slots.len() - 1);
        if let Some((k, row, first)) = self.slots[slot] {
            let c = i.wrapping_sub(first) as u32;
            if k == key && row == j && c <= (WIDTH - 4) as u32 {
                return slot * WIDTH + c as usize;
            }
        }
        self.make(slot, key, i, j)
    }

    /// Makes `slot` hold row `j` from `LEFT` columns left of `i` on, 8 lattice points at
    /// a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[cold]
    #[inline(never)]
    fn make(&mut self, slot: usize, key: u32, i: i32, j: i32) -> usize {
        let first = i.wrapping_sub(LEFT);
        let (gx, gy) = (
            &mut self.gx[slot * WIDTH..][..WIDTH],
            &mut self.gy[slot * WIDTH..][..WIDTH],
        );
        for (c, (x, y)) in gx.iter_mut().zip(gy).enumerate() {
            (*x, *y) = gradient(lattice2(key, first.wrapping_add(c as i32), j));
        }
        self.slots[slot] = Some((key, j, first));
        slot * WIDTH + LEFT as usize
    }
}

/// Simplex noise along rows over a [`RowPlan`]'s columns: the lattice rows' gradients
/// ([`Band`]), kept across rows (and across plans: they do not depend on the columns).
#[derive(Clone, Debug, Default)]
pub struct SimplexRow {
    band: Band,
    /// Whether a row has been sampled through this: the first row hashes each sample's
    /// corners (making the band's slots would cost a row on its own twice as much), the
    /// rows after it take the band.
    used: bool,
}

/// `out[i] = simplex_2d(key, x_i * frequency, y * frequency)` for the plan's columns.
/// From `row`'s second row on, plans whose columns lie closer than 0.2 plane units on
/// average (every field's tile rows: frequencies up to 0.2) take the gradients from its
/// [`Band`] with AVX2 where the CPU has it (checked at run time); others, the first row,
/// and CPUs without AVX2 hash each sample's corners ([`simplex_2d_xs`]). Every way gives the point kernel's values, bit
/// for bit (tests check each against it).
pub fn simplex_2d_row(
    key: u32,
    plan: &RowPlan,
    row: &mut SimplexRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    let (xs, out) = (plan.x(), &mut out[..plan.len()]);
    let y = y as i32 as f32 * frequency;
    #[cfg(target_arch = "x86_64")]
    if std::mem::replace(&mut row.used, true)
        && banded(plan, y)
        && std::is_x86_feature_detected!("avx2")
    {
        let span = xs[xs.len() - 1] - xs[0];
        row.band.reserve((span * SKEW) as usize + 4);
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { band_row_avx2(key, xs, y, &mut row.band, out) };
    }
    simplex_2d_xs(key, xs, y, out)
}

/// Whether a row at `y` over `plan` can take its gradients from a [`Band`]: at least one
/// vector of samples, `x` rising from +0 (so a sample's lattice cell never falls from
/// left to right), `x` and `y` below 2^22 (the skewed coordinates below 2^23, where
/// `floor` as a float is exact and equals the point kernel's integer floor), and
/// samples close enough together that eight of them mostly share a 4x3 block of lattice
/// points (vectors that do not are hashed lane by lane).
fn banded(plan: &RowPlan, y: f32) -> bool {
    const MAX: f32 = 4_194_304.0;
    let xs = plan.x();
    let n = xs.len();
    n >= 8
        && plan.rising()
        && xs[n - 1] < MAX
        && (0.0..MAX).contains(&y)
        && y.is_sign_positive()
        && xs[n - 1] - xs[0] <= 0.2 * (n - 1) as f32
}

/// [`simplex_2d_row`] 8 lanes wide with the corner gradients from `band`: per vector of
/// samples the point kernel's operations on the same values in the same order (Rust
/// never fuses multiply-adds), with the three corners' gradients picked out of two 4x2
/// blocks of `band` by lane (`vpermps`) instead of hashed. A vector whose samples span
/// more than three lattice columns or two rows, and the last `len % 8` samples, take the
/// point kernel lane by lane. Its values are the point kernel's where [`banded`] holds
/// for `xs` and `y` (a test checks), and `band` needs at least 4 slots.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_row_avx2(key: u32, xs: &[f32], y: f32, band: &mut Band, out: &mut [f32]) {
    use std::arch::x86_64::*;
    /// A vector's skewed cell and offsets: its lanes' lattice point `(fi, fj)`, the
    /// offsets `(xi, yi)` in the cell and `(dx0, dy0)` in the plane, and each lane's
    /// column and row from lane 0's (`di`, `dj`).
    struct Cell {
        fi: __m256,
        fj: __m256,
        xi: __m256,
        yi: __m256,
        dx0: __m256,
        dy0: __m256,
        di: __m256,
        dj: __m256,
    }
    let n = xs.len().min(out.len());
    let c = _mm256_set1_ps;
    let (vy, skew, unskew) = (c(y), c(SKEW), c(UNSKEW));
    let (half, zero, scale) = (c(0.5), _mm256_setzero_ps(), c(SCALE_2D));
    let (one, two, four) = (c(1.0), c(2.0), c(4.0));
    let d1 = c(1.0 - 2.0 * UNSKEW);
    let (lower_x, lower_y) = (c(1.0 - UNSKEW), c(-UNSKEW));
    let (upper_x, upper_y) = (c(-UNSKEW), c(1.0 - UNSKEW));
    // The point kernel's skew and unskew of 8 samples from `k`.
    let cell = |k: usize| {
        // SAFETY: every caller has `k + 8 <= n`, within `xs`.
        let x = unsafe { _mm256_loadu_ps(xs.as_ptr().add(k)) };
        let s = _mm256_mul_ps(_mm256_add_ps(x, vy), skew);
        let (sx, sy) = (_mm256_add_ps(x, s), _mm256_add_ps(vy, s));
        let (fi, fj) = (_mm256_floor_ps(sx), _mm256_floor_ps(sy));
        let (xi, yi) = (_mm256_sub_ps(sx, fi), _mm256_sub_ps(sy, fj));
        let t = _mm256_mul_ps(_mm256_add_ps(xi, yi), unskew);
        let (dx0, dy0) = (_mm256_sub_ps(xi, t), _mm256_sub_ps(yi, t));
        let di = _mm256_sub_ps(fi, _mm256_permutevar8x32_ps(fi, _mm256_setzero_si256()));
        let dj = _mm256_sub_ps(fj, _mm256_permutevar8x32_ps(fj, _mm256_setzero_si256()));
        Cell {
            fi,
            fj,
            xi,
            yi,
            dx0,
            dy0,
            di,
            dj,
        }
    };
    // Lanes whose column or row from lane 0's is past the blocks' (2 and 1; lanes
    // never fall below lane 0's).
    let wide = |c: &Cell| {
        _mm256_or_ps(
            _mm256_cmp_ps::<_CMP_GT_OQ>(c.di, two),
            _mm256_cmp_ps::<_CMP_GT_OQ>(c.dj, one),
        )
    };
    // Lane 0's lattice point.
    let lattice = |c: &Cell| {
        (
            _mm_cvttss_si32(_mm256_castps256_ps128(c.fi)),
            _mm_cvttss_si32(_mm256_castps256_ps128(c.fj)),
        )
    };
    // One corner's term, as `corner`: `max(0, 1/2 - dx^2 - dy^2)^4 * (gx dx + gy dy)`.
    let term = |gx, gy, dx, dy| {
        let a = _mm256_sub_ps(
            _mm256_sub_ps(half, _mm256_mul_ps(dx, dx)),
            _mm256_mul_ps(dy, dy),
        );
        let a = _mm256_max_ps(a, zero);
        let a2 = _mm256_mul_ps(a, a);
        let dot = _mm256_add_ps(_mm256_mul_ps(gx, dx), _mm256_mul_ps(gy, dy));
        _mm256_mul_ps(_mm256_mul_ps(a2, a2), dot)
    };
    // The three corners' sum from the blocks at offsets `r` of `gx` and `gy`: block A
    // holds rows j0 (lanes 0-3) and j0 + 1 (4-7), block B rows j0 + 1 and j0 + 2, each
    // at columns i0..i0 + 4. (i, j) is lane `di + 4 dj` of A, (i, j + 1) the same lane of
    // B, and one column right is one lane up.
    let sum = |c: &Cell, gx: *const f32, gy: *const f32, [r0, r1, r2]: [usize; 3]| {
        // SAFETY: `Rows::at` gives offsets with four columns after them inside a slot.
        let (ax, ay, bx, by) = unsafe {
            (
                _mm256_loadu2_m128(gx.add(r1), gx.add(r0)),
                _mm256_loadu2_m128(gy.add(r1), gy.add(r0)),
                _mm256_loadu2_m128(gx.add(r2), gx.add(r1)),
                _mm256_loadu2_m128(gy.add(r2), gy.add(r1)),
            )
        };
        let at = _mm256_cvttps_epi32(_mm256_add_ps(c.di, _mm256_mul_ps(c.dj, four)));
        let right = _mm256_add_epi32(at, _mm256_set1_epi32(1));
        let pick = |v, i| _mm256_permutevar8x32_ps(v, i);
        let n0 = term(pick(ax, at), pick(ay, at), c.dx0, c.dy0);
        let n1 = term(
            pick(bx, right),
            pick(by, right),
            _mm256_sub_ps(c.dx0, d1),
            _mm256_sub_ps(c.dy0, d1),
        );
        // The third corner: (i + 1, j) below the diagonal, (i, j + 1) above it.
        let lower = _mm256_cmp_ps::<_CMP_GT_OQ>(c.xi, c.yi);
        let g2x = _mm256_blendv_ps(pick(bx, at), pick(ax, right), lower);
        let g2y = _mm256_blendv_ps(pick(by, at), pick(ay, right), lower);
        let ox = _mm256_blendv_ps(upper_x, lower_x, lower);
        let oy = _mm256_blendv_ps(upper_y, lower_y, lower);
        let n2 = term(g2x, g2y, _mm256_sub_ps(c.dx0, ox), _mm256_sub_ps(c.dy0, oy));
        _mm256_mul_ps(_mm256_add_ps(_mm256_add_ps(n0, n1), n2), scale)
    };
    let store = |out: &mut [f32], v| {
        let out = &mut out[..8];
        // SAFETY: `out` has 8 values.
        unsafe { _mm256_storeu_ps(out.as_mut_ptr(), v) }
    };
    let mut rows = Rows::default();
    let mut k = 0;
    while k + 8 <= n {
        let a = cell(k);
        if _mm256_movemask_ps(wide(&a)) == 0 {
            let r = rows.at(band, key, lattice(&a));
            store(
                &mut out[k..],
                sum(&a, band.gx.as_ptr(), band.gy.as_ptr(), r),
            );
        } else {
            for l in k..k + 8 {
                out[l] = simplex_2d(key, xs[l], y);
            }
        }
        k += 8;
    }
    for l in k..n {
        out[l] = simplex_2d(key, xs[l], y);
    }
}

/// The offsets in a [`Band`] of the three lattice rows a vector of samples reads, kept
/// from vector to vector while they stay in the same lattice rows and within the slots'
/// columns (a few vectors on end).
#[derive(Default)]
struct Rows {
    /// The lattice row `j0` the offsets are for (none yet at first).
    j: Option<i32>,
    /// The first column they serve and how many more.
    from: i32,
    len: u32,
    /// Each row's offset less its column.
    origin: [isize; 3],
}

impl Rows {
    /// The offsets of lattice point `(i0, j0)` and of the two above it in `band`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn at(&mut self, band: &mut Band, key: u32, (i0, j0): (i32, i32)) -> [usize; 3] {
        if self.j != Some(j0) || i0.wrapping_sub(self.from) as u32 > self.len {
            let at = [0, 1, 2].map(|r| band.at(key, i0, j0.wrapping_add(r)));
            // Slot columns `c = at % WIDTH`: each serves columns i0 - c .. i0 - c + WIDTH - 4.
            let c = at.map(|a| (a % WIDTH) as i32);
            let (lo, hi) = (c[0].min(c[1]).min(c[2]), c[0].max(c[1]).max(c[2]));
            self.j = Some(j0);
            self.from = i0.wrapping_sub(lo);
            self.len = (WIDTH as i32 - 4 - hi + lo) as u32;
            self.origin = at.map(|a| a as isize - i0 as isize);
        }
        self.origin.map(|o| (o + i0 as isize) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::noise::lattice2;

    /// The kernel as the module's doc writes it, in f64: every lattice point near the
    /// sample (not only its triangle's three) adds its radial term, so the test also
    /// checks that no other corner reaches the sample.
    fn reference(key: u32, x: f64, y: f64) -> f64 {
        let f = (3f64.sqrt() - 1.0) / 2.0;
        let g = (3.0 - 3f64.sqrt()) / 6.0;
        let s = (x + y) * f;
        let (i0, j0) = ((x + s).floor(), (y + s).floor());
        let mut sum = 0.0;
        for a in -1..=2 {
            for b in -1..=2 {
                let (i, j) = (i0 + a as f64, j0 + b as f64);
                let t = (i + j) * g;
                let (dx, dy) = (x - (i - t), y - (j - t));
                let r = 0.5 - dx * dx - dy * dy;
                if r > 0.0 {
                    let (gx, gy) = gradient(lattice2(key, i as i32, j as i32));
                    sum += r.powi(4) * (gx as f64 * dx + gy as f64 * dy);
                }
            }
        }
        sum * SCALE_2D as f64
    }

    #[test]
    fn point_kernel_matches_a_plain_reference() {
        let mut h = 3u32;
        for _ in 0..50_000 {
            h = hash32(h.wrapping_add(0x9E37_79B9));
            let x = (h >> 8) as f32 / 16_777_216.0 * 600.0 - 200.0;
            h = hash32(h);
            let y = (h >> 8) as f32 / 16_777_216.0 * 300.0 - 100.0;
            let r = reference(h & 0xff, x as f64, y as f64);
            let v = simplex_2d(h & 0xff, x, y) as f64;
            // f32 skewing loses about an ulp of the coordinates.
            let tolerance = 1e-5 + 1e-6 * (x.abs() + y.abs()) as f64;
            assert!((v - r).abs() < tolerance, "({x}, {y}): {v} vs {r}");
        }
    }

    #[test]
    fn the_comparisons_pick_the_thirds_of_the_hash_field() {
        for t in 0..65_536u32 {
            let third = (t * 3) >> 16;
            let (gx, gy) = gradient(t << 8);
            let (a, c) = BASE[third as usize];
            assert_eq!((gx, gy), (a, c), "{t}");
        }
    }

    #[test]
    fn the_gradients_are_opensimplex2_s_24_directions() {
        let mut seen = [0u32; 24];
        for h in 0..(1u32 << 16) {
            let (gx, gy) = gradient(hash32(h));
            assert!(((gx * gx + gy * gy) - 1.0).abs() < 1e-6);
            let deg = gy.atan2(gx).to_degrees().rem_euclid(360.0);
            let k = ((deg - 7.5) / 15.0).round();
            assert!((deg - (7.5 + 15.0 * k)).abs() < 1e-3, "{deg}");
            seen[k as usize % 24] += 1;
        }
        // Each about 1/24 of the hashes.
        let (lo, hi) = (seen.iter().min().unwrap(), seen.iter().max().unwrap());
        assert!(*lo as f32 > 0.9 * 65536.0 / 24.0 && (*hi as f32) < 1.1 * 65536.0 / 24.0);
    }

    #[test]
    fn zero_on_lattice_points_and_within_range() {
        for i in -30..30 {
            assert_eq!(simplex_1d(4, i as f32), 0.0);
            for j in -30..30 {
                // The skewed lattice point (i, j) lies at (i - t, j - t) in the plane.
                let t = (i + j) as f64 * (3.0 - 3f64.sqrt()) / 6.0;
                let (x, y) = (i as f64 - t, j as f64 - t);
                assert!(simplex_2d(4, x as f32, y as f32).abs() < 1e-5);
            }
        }
        let (mut lo, mut hi) = (0f32, 0f32);
        for i in 0..400_000 {
            let x = i as f32 * 0.00731 - 1000.0;
            let v = simplex_2d(8, x, x * 0.618 + (i % 97) as f32 * 0.1);
            let w = simplex_1d(8, x);
            assert!(v.abs() <= 1.0 && w.abs() <= 0.5, "{v} {w} at {x}");
            (lo, hi) = (lo.min(v), hi.max(v));
        }
        assert!(lo < -0.7 && hi > 0.7, "spread {lo}..{hi}");
    }

    #[test]
    fn the_1d_kernel_matches_its_formula() {
        for i in 0..10_000 {
            let x = i as f32 * 0.0173 - 50.0;
            let i0 = x.floor() as i32;
            let t = (x - x.floor()) as f64;
            let term = |g: f32, d: f64| (1.0 - d * d).powi(4) * g as f64 * d;
            let r = (term(gradient_1d(6, i0), t) + term(gradient_1d(6, i0 + 1), t - 1.0)) * 1.58;
            assert!((simplex_1d(6, x) as f64 - r).abs() < 1e-6, "{x}");
        }
    }

    #[test]
    fn rows_match_the_point_kernel_with_and_without_avx2() {
        for &f in &[0.005f32, 0.08, 0.3, 1.0] {
            let plan = RowPlan::new(13, 500, f);
            let mut row = SimplexRow::default();
            let (mut out, mut plain) = (vec![0.0; 500], vec![0.0; 500]);
            for (key, y) in [(1, 0usize), (1, 7), (2, 7), (2, 4095)] {
                simplex_2d_row(key, &plan, &mut row, y, f, &mut out);
                let xs: Vec<f32> = (0..500).map(|i| (13 + i) as f32 * f).collect();
                simplex_2d_xs_plain(key, &xs, y as f32 * f, &mut plain);
                for (i, v) in out.iter().enumerate() {
                    let p = simplex_2d(key, (13 + i) as f32 * f, y as f32 * f);
                    assert_eq!(v.to_bits(), p.to_bits(), "f {f} ({}, {y})", 13 + i);
                    assert_eq!(
                        plain[i].to_bits(),
                        p.to_bits(),
                        "plain f {f} ({}, {y})",
                        13 + i
                    );
                }
            }
        }
        // Each vector width the CPU has gives the plain loop's values.
        #[cfg(target_arch = "x86_64")]
        {
            let xs: Vec<f32> = (0..777).map(|i| i as f32 * 0.37 - 100.0).collect();
            let mut plain = vec![0.0; 777];
            simplex_2d_xs_plain(5, &xs, 3.3, &mut plain);
            let mut wide = vec![0.0; 777];
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                unsafe { simplex_2d_xs_avx2(5, &xs, 3.3, &mut wide) };
                assert_eq!(wide, plain);
            }
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F.
                unsafe { simplex_2d_xs_avx512(5, &xs, 3.3, &mut wide) };
                assert_eq!(wide, plain);
            }
        }
        // Another plan through the same row buffer.
        let plan = RowPlan::at((0..40).map(|w| w * 64 + 32), 0.01);
        let mut row = SimplexRow::default();
        let mut out = vec![0.0; 500];
        simplex_2d_row(3, &RowPlan::new(0, 500, 0.01), &mut row, 5, 0.01, &mut out);
        simplex_2d_row(3, &plan, &mut row, 5, 0.01, &mut out);
        for (w, v) in out[..40].iter().enumerate() {
            assert_eq!(*v, simplex_2d(3, (w * 64 + 32) as f32 * 0.01, 5.0 * 0.01));
        }
    }

    /// Every sample of `rows` rows over `plan` (in the given order, through one
    /// [`SimplexRow`]) against the point kernel, bit for bit.
    fn check_rows(key: u32, plan: &RowPlan, f: f32, rows: impl Iterator<Item = usize>) {
        let mut row = SimplexRow::default();
        let mut out = vec![0.0; plan.len()];
        for y in rows {
            simplex_2d_row(key, plan, &mut row, y, f, &mut out);
            let fy = y as i32 as f32 * f;
            for (i, v) in out.iter().enumerate() {
                let p = simplex_2d(key, plan.x()[i], fy);
                assert_eq!(
                    v.to_bits(),
                    p.to_bits(),
                    "key {key} f {f} sample {i} row {y}"
                );
            }
        }
    }

    #[test]
    fn banded_rows_match_the_point_kernel_on_every_sample() {
        for &f in &[0.005f32, 0.031, 0.08, 0.15, 0.199] {
            for (x0, len) in [(0, 8400), (13, 7), (5, 8), (977, 17), (40_000, 501)] {
                let plan = RowPlan::new(x0, len, f);
                assert_eq!(banded(&plan, 0.0), len >= 8, "f {f} len {len}");
                // Rows in order (the slots kept), then back up and far apart (slots
                // made again), and another key through the same slots.
                let order = (0..300).chain((0..40).rev()).chain([2399, 3, 100_000, 4]);
                check_rows(1, &plan, f, order.clone());
                check_rows(0x9E37_79B9, &plan, f, order);
            }
        }
    }

    #[test]
    fn banded_rows_with_gaps_take_the_point_kernel_where_a_vector_is_too_wide() {
        // Mostly neighbouring columns with a jump of 60 every 50: the jumps' vectors
        // span more lattice columns than the blocks hold.
        let columns: Vec<usize> = (0..2000).map(|c| c + c / 50 * 60).collect();
        let plan = RowPlan::at(columns.iter().copied(), 0.05);
        assert!(banded(&plan, 0.0));
        check_rows(7, &plan, 0.05, 0..200);
    }

    #[test]
    fn plans_the_band_cannot_serve_are_hashed_per_sample() {
        // Too sparse, falling, and too far out: the same values through the hashing rows.
        let sparse = RowPlan::at((0..300).map(|w| w * 64 + 32), 0.05);
        let high = RowPlan::new(0, 300, 0.5);
        let far = RowPlan::new(5_000_000, 300, 1.0);
        for plan in [&sparse, &high, &far] {
            assert!(!banded(plan, 0.0));
        }
        assert!(!banded(&RowPlan::new(0, 300, -0.05), 0.0));
        assert!(!banded(&RowPlan::new(0, 300, 0.05), 5_000_000.0));
        check_rows(2, &sparse, 0.05, 0..20);
        check_rows(2, &high, 0.5, 0..20);
        check_rows(2, &far, 1.0, 0..5);
    }

    #[test]
    fn the_band_keeps_gradients_across_rows() {
        // Rows in order make each slot about once per LEFT / (4.7 f) rows, not per row.
        let plan = RowPlan::new(0, 8400, 0.08);
        let mut row = SimplexRow::default();
        let mut out = vec![0.0; 8400];
        simplex_2d_row(3, &plan, &mut row, 0, 0.08, &mut out);
        // The first row is hashed; the second makes the slots.
        assert!(row.band.slots.is_empty());
        simplex_2d_row(3, &plan, &mut row, 1, 0.08, &mut out);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            let made = |b: &Band| b.slots.iter().flatten().map(|s| s.2).collect::<Vec<_>>();
            let before = made(&row.band);
            assert!(before.len() > 200, "{} slots", before.len());
            for y in 2..20 {
                simplex_2d_row(3, &plan, &mut row, y, 0.08, &mut out);
            }
            let after = made(&row.band);
            let kept = before.iter().filter(|c| after.contains(c)).count();
            assert!(
                kept * 10 > before.len() * 9,
                "{kept} of {} kept",
                before.len()
            );
        }
    }
}
