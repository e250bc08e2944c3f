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

use super::{PRIME_X, PRIME_Y, RowPlan, cell_1d, floor_i32, gradient_1d, hash32};

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

/// Simplex noise along rows over a [`RowPlan`]'s columns: a buffer for the columns' `x`
/// (each cell's lattice column plus the sample's offset, which gives back
/// `column * frequency` exactly).
#[derive(Clone, Debug, Default)]
pub struct SimplexRow {
    xs: Vec<f32>,
}

/// `out[i] = simplex_2d(key, x_i * frequency, y * frequency)` for the plan's columns.
pub fn simplex_2d_row(
    key: u32,
    plan: &RowPlan,
    row: &mut SimplexRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    row.xs.clear();
    for &(ix, a, b) in plan.cells() {
        row.xs
            .extend(plan.dx()[a..b].iter().map(|&dx| ix as f32 + dx));
    }
    let n = plan.len();
    simplex_2d_xs(key, &row.xs, y as i32 as f32 * frequency, &mut out[..n]);
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
}
