//! Simplex noise, as OpenSimplex2 (its fast 2D variant) lays it out: the plane is cut
//! into equilateral triangles, and a sample sums the corners of its triangle, each a
//! gradient's dot product with the offset to the corner, faded out radially. Three
//! corners instead of Perlin's four, and no square lattice: no features along the grid's
//! two axes, and the same look in every direction.
//!
//! The lattice (Strata's own layout of OpenSimplex2's, turned so that rows of tiles run
//! along its lines): lattice line `m` lies at `y = m * H` with `H = sqrt(1/2)`, and its
//! points at `x = (n + o) * S` with `S = sqrt(2/3)` the triangles' side and `o` 0 on even
//! lines, 1/2 on odd ones. A sample at `(x, y)` lies between lines `m = floor(y / H)` and
//! `m + 1`, at `dy` above the lower and `dy - H` above the upper, and between points `n`
//! and `n + 1` of each, at `dx` and `dx - S` from them. Its triangle has three of those
//! four points as corners; the fourth is the far corner of a neighbouring triangle, at
//! least `H` away.
//!
//! Each of the four adds `max(0, 1/2 - dx^2 - dy^2)^4 * (g . d)`: radius `sqrt(1/2) = H`,
//! the distance at which a corner's neighbouring triangles end, so no other lattice point
//! reaches the sample (the fourth point's term is zero, save rounding) and the sum is
//! continuous with its first derivatives. The sum is the same function as OpenSimplex2's
//! on its skewed lattice (the triangles, gradients and radius are its own), turned by 15
//! degrees; the four-point form is what lets a row of samples keep everything but the
//! falloff across rows ([`SimplexRow`]): along a row `dy` is fixed per lattice line, and
//! `dx` depends on the column alone.
//!
//! Gradients: OpenSimplex2's 2D set, 24 unit vectors at `7.5° + k * 15°`: none along an
//! axis or a diagonal, and the same set under the lattice's turns by 60 degrees. They are
//! the three directions 7.5°, 22.5° and 37.5° under the eight symmetries of the square
//! (swap x and y, flip either sign), so three hash bits pick a symmetry and a fourth
//! field of the hash the base direction, all with selects and sign flips: no table. The
//! lattice points' hashes are Perlin's ([`super::lattice2`] of `(n, m)`), so a key gives
//! unrelated fields in the three bases all the same. Patents: the 2D simplex lattice and
//! its gradient dot products were never covered (the Simplex noise patent, US 6,867,776,
//! expired in 2022, claimed its 3D+ form); OpenSimplex2 was written to avoid it and is
//! public domain.
//!
//! Ranges before scaling: `(1/2 - d^2)^4 * |d|` peaks at `0.009232` (`d^2 = 1/18`), and
//! the three corners together, with each gradient along its offset, at `0.010081` (at the
//! midpoint of a triangle's edge, the two corners of that edge contributing); the 2D sum
//! is scaled by `99.2` (folded into the gradients), so it lies in `[-1, 1]` (at most
//! `0.99997`). In 1D the lattice is the integers and the two neighbours add
//! `(1 - d^2)^4 * g * d` with `g` in `[-1, 1]` (Gustavson's 1D simplex noise): at most
//! `0.31641`, at `d = 1/2`; scaled by `1.58` into Perlin's 1D range `[-0.5, 0.5]`. Both
//! are zero on lattice points.

use super::{RowPlan, cell_1d, floor_i32, gradient_1d, lattice2};

/// `sqrt(2/3)`: a triangle's side, the spacing of a lattice line's points.
const S: f32 = 0.816_496_6;
/// `1 / S`.
const INV_S: f32 = 1.224_744_9;
/// `sqrt(1/2)`: a triangle's height, the spacing of the lattice lines.
const H: f32 = std::f32::consts::FRAC_1_SQRT_2;
/// `1 / H`.
const INV_H: f32 = std::f32::consts::SQRT_2;
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

/// [`BASE`] times [`SCALE_2D`]: the gradients the 2D kernels take, so the sum needs no
/// scaling after.
const SCALED: [(f32, f32); 3] = [
    (BASE[0].0 * SCALE_2D, BASE[0].1 * SCALE_2D),
    (BASE[1].0 * SCALE_2D, BASE[1].1 * SCALE_2D),
    (BASE[2].0 * SCALE_2D, BASE[2].1 * SCALE_2D),
];

/// The gradient a lattice point's hash picks from `set`, as `(gx, gy)`: base direction
/// from bits 8-23 (their thirds: `floor(t * 3 / 2^16)`, by two comparisons rather than a
/// multiply), x and y swapped if bit 2, x's sign from bit 0 and y's from bit 1.
#[inline(always)]
fn pick(set: &[(f32, f32); 3], h: u32) -> (f32, f32) {
    let t = (h >> 8) & 0xffff;
    let (a, c) = if t <= 21_845 {
        set[0]
    } else if t <= 43_690 {
        set[1]
    } else {
        set[2]
    };
    let (gx, gy) = if h & 4 != 0 { (c, a) } else { (a, c) };
    (
        f32::from_bits(gx.to_bits() ^ (h << 31)),
        f32::from_bits(gy.to_bits() ^ ((h >> 1) << 31)),
    )
}

/// The unit gradient a lattice point's hash picks: one of the 24 of the module's doc.
#[inline(always)]
pub fn gradient(h: u32) -> (f32, f32) {
    pick(&BASE, h)
}

/// [`gradient`] times the 2D scale, as the kernels use it.
#[inline(always)]
fn scaled_gradient(h: u32) -> (f32, f32) {
    pick(&SCALED, h)
}

/// The lattice line at or below `y` and the offset `dy` above it.
#[inline(always)]
fn line_of(y: f32) -> (i32, f32) {
    let m = floor_i32(y * INV_H);
    (m, y - m as f32 * H)
}

/// On a line of parity `odd`, the lattice point `n` at or left of `x` and the offset `dx`
/// right of it.
#[inline(always)]
fn point_of(x: f32, odd: bool) -> (i32, f32) {
    let o = if odd { 0.5 } else { 0.0 };
    let n = floor_i32(x * INV_S - o);
    (n, x - (n as f32 + o) * S)
}

/// `1/2 - dx^2`: the part of a point's falloff that depends on the column alone.
#[inline(always)]
fn reach(dx: f32) -> f32 {
    0.5 - dx * dx
}

/// One lattice point's term, `max(0, e - dy^2)^4 * (gx dx + gy dy)`, from `e =`
/// [`reach`]`(dx)`, `dy2 = dy * dy` and `gxdx = gx * dx` (the scaled gradient's).
#[inline(always)]
fn term(e: f32, dy2: f32, gxdx: f32, gy: f32, dy: f32) -> f32 {
    let a = e - dy2;
    let a = if a > 0.0 { a } else { 0.0 };
    let a2 = a * a;
    a2 * a2 * (gxdx + gy * dy)
}

/// 2D simplex noise at `(x, y)`; in `[-1, 1]`, zero on lattice points. The lower line's
/// two points, then the upper line's, summed left to right.
#[inline(always)]
pub fn simplex_2d(key: u32, x: f32, y: f32) -> f32 {
    let (m, dy) = line_of(y);
    let dy1 = dy - H;
    let line = |m: i32, dy: f32| {
        let (n, dx) = point_of(x, m & 1 != 0);
        let dx1 = dx - S;
        let (gx, gy) = scaled_gradient(lattice2(key, n, m));
        let (gx1, gy1) = scaled_gradient(lattice2(key, n.wrapping_add(1), m));
        let dy2 = dy * dy;
        (
            term(reach(dx), dy2, gx * dx, gy, dy),
            term(reach(dx1), dy2, gx1 * dx1, gy1, dy),
        )
    };
    let (t0, t1) = line(m, dy);
    let (t2, t3) = line(m.wrapping_add(1), dy1);
    t0 + t1 + t2 + t3
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

/// The hashing loop the builds share: every sample's four lattice points hashed anew, in
/// one branch-free loop.
#[inline(always)]
fn row(key: u32, xs: &[f32], y: f32, out: &mut [f32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = simplex_2d(key, x, y);
    }
}

/// What a plan's columns give on a line of either parity (index 0 even, 1 odd): each
/// sample's offsets `dx` from its left point and `dx - S` from its right one, their
/// [`reach`]es, and the runs of samples that share a left point.
#[derive(Clone, Debug, Default)]
struct Columns {
    dx: [[Vec<f32>; 2]; 2],
    reach: [[Vec<f32>; 2]; 2],
    /// Per parity: `(n, first sample, end sample)`, left to right.
    runs: [Vec<(i32, usize, usize)>; 2],
}

impl Columns {
    fn of(plan: &RowPlan) -> Columns {
        let mut c = Columns::default();
        for odd in [false, true] {
            let p = odd as usize;
            let runs = &mut c.runs[p];
            for (i, &x) in plan.x().iter().enumerate() {
                let (n, dx) = point_of(x, odd);
                let dx1 = dx - S;
                c.dx[p][0].push(dx);
                c.dx[p][1].push(dx1);
                c.reach[p][0].push(reach(dx));
                c.reach[p][1].push(reach(dx1));
                match runs.last_mut() {
                    Some(run) if run.0 == n => run.2 = i + 1,
                    _ => runs.push((n, i, i + 1)),
                }
            }
        }
        c
    }
}

/// Simplex noise along rows over a [`RowPlan`]'s columns, kept across rows as Perlin's
/// [`super::LatticeRow`] is: the plan's [`Columns`] (made again only for another plan),
/// and for the pair of lattice lines the last row lay between, each sample's `gx * dx`
/// and `gy` for its four points. Rows of samples between the same two lines (about
/// `0.7 / frequency` rows on end) take those, and each sample is then 4 terms of 7
/// operations: only the falloff `max(0, e - dy^2)^4` and `gy * dy` depend on the row.
#[derive(Clone, Debug, Default)]
pub struct SimplexRow {
    /// The [`RowPlan::id`] the columns are for.
    plan: Option<u64>,
    columns: Columns,
    /// `(key, m)` of the lines the terms are for (the lower one `m`).
    of: Option<(u32, i32)>,
    /// Per point (lower left, lower right, upper left, upper right) and sample.
    gxdx: [Vec<f32>; 4],
    gy: [Vec<f32>; 4],
    /// Whether a row has been sampled through this: the first row hashes each sample's
    /// points instead (making the columns and terms for a single row would cost several
    /// times as much), the rows after it take the kept terms.
    used: bool,
}

impl SimplexRow {
    fn prepare(&mut self, key: u32, plan: &RowPlan, m: i32) {
        if self.plan != Some(plan.id()) {
            self.plan = Some(plan.id());
            self.columns = Columns::of(plan);
            self.of = None;
        }
        if self.of == Some((key, m)) {
            return;
        }
        self.of = Some((key, m));
        let n = plan.len();
        for v in self.gxdx.iter_mut().chain(&mut self.gy) {
            v.resize(n, 0.0);
        }
        let [gxdx0, gxdx1, gxdx2, gxdx3] = &mut self.gxdx;
        let [gy0, gy1, gy2, gy3] = &mut self.gy;
        let lines = [
            (m, [gxdx0, gxdx1], [gy0, gy1]),
            (m.wrapping_add(1), [gxdx2, gxdx3], [gy2, gy3]),
        ];
        for (line, mut gxdx, mut gy) in lines {
            let p = (line & 1) as usize;
            let dx = &self.columns.dx[p];
            for &(point, a, b) in &self.columns.runs[p] {
                for (side, (gxdx, gy)) in gxdx.iter_mut().zip(gy.iter_mut()).enumerate() {
                    let h = lattice2(key, point.wrapping_add(side as i32), line);
                    let (gx, g) = scaled_gradient(h);
                    for (o, &d) in gxdx[a..b].iter_mut().zip(&dx[side][a..b]) {
                        *o = gx * d;
                    }
                    gy[a..b].fill(g);
                }
            }
        }
    }
}

/// `out[i] = simplex_2d(key, x_i * frequency, y * frequency)` for the plan's columns,
/// from (and keeping) the terms in `row`: the point kernel's operations on the same
/// values in the same order, so its values bit for bit (tests check). The loop is built
/// with AVX2 where the CPU has it (checked at run time), the same values either way. The
/// first row through `row` is hashed per sample ([`simplex_2d_xs`], the same values).
pub fn simplex_2d_row(
    key: u32,
    plan: &RowPlan,
    row: &mut SimplexRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    let fy = y as i32 as f32 * frequency;
    let out = &mut out[..plan.len()];
    if !std::mem::replace(&mut row.used, true) {
        return simplex_2d_xs(key, plan.x(), fy, out);
    }
    let (m, dy) = line_of(fy);
    row.prepare(key, plan, m);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above).
        return unsafe { terms_avx2(row, m, dy, out) };
    }
    terms(row, m, dy, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn terms_avx2(row: &SimplexRow, m: i32, dy: f32, out: &mut [f32]) {
    terms(row, m, dy, out)
}

/// A row's four terms per sample from `row`'s prepared lines `m`, `m + 1`, the row `dy`
/// above line `m`.
#[inline(always)]
fn terms(row: &SimplexRow, m: i32, dy: f32, out: &mut [f32]) {
    let n = out.len();
    let dy1 = dy - H;
    let (dy2, dy12) = (dy * dy, dy1 * dy1);
    let p = (m & 1) as usize;
    let [e0, e1] = &row.columns.reach[p];
    let [e2, e3] = &row.columns.reach[1 - p];
    let [x0, x1, x2, x3] = &row.gxdx;
    let [y0, y1, y2, y3] = &row.gy;
    // Equal lengths up front, so the loop has no bounds checks and vectorises.
    let (e0, e1, e2, e3) = (&e0[..n], &e1[..n], &e2[..n], &e3[..n]);
    let (x0, x1, x2, x3) = (&x0[..n], &x1[..n], &x2[..n], &x3[..n]);
    let (y0, y1, y2, y3) = (&y0[..n], &y1[..n], &y2[..n], &y3[..n]);
    for i in 0..n {
        let t0 = term(e0[i], dy2, x0[i], y0[i], dy);
        let t1 = term(e1[i], dy2, x1[i], y1[i], dy);
        let t2 = term(e2[i], dy12, x2[i], y2[i], dy1);
        let t3 = term(e3[i], dy12, x3[i], y3[i], dy1);
        out[i] = t0 + t1 + t2 + t3;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::noise::hash32;

    /// The kernel as the module's doc writes it, in f64: every lattice point near the
    /// sample (the lines below and above the sample's two too, and three points of each
    /// line), not only its four, adds its radial term, so the test also checks that no
    /// other point reaches the sample.
    fn reference(key: u32, x: f64, y: f64) -> f64 {
        let s = (2.0f64 / 3.0).sqrt();
        let h = 0.5f64.sqrt();
        let m0 = (y / h).floor() as i32;
        let mut sum = 0.0;
        for m in m0 - 1..=m0 + 2 {
            let o = if m & 1 != 0 { 0.5 } else { 0.0 };
            let n0 = (x / s - o).floor() as i32;
            for n in n0 - 1..=n0 + 2 {
                let (dx, dy) = (x - (n as f64 + o) * s, y - m as f64 * h);
                let r = 0.5 - dx * dx - dy * dy;
                if r > 0.0 {
                    let (gx, gy) = gradient(lattice2(key, n, m));
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
            // f32 offsets lose about an ulp of the coordinates.
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
            let (sx, sy) = scaled_gradient(t << 8);
            assert_eq!((sx, sy), (a * SCALE_2D, c * SCALE_2D), "{t}");
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
    fn the_lattice_is_of_equilateral_triangles_of_the_kernel_s_reach() {
        // A point's six neighbours: two on its line, two on each line beside it.
        assert!((S * S - 2.0 / 3.0).abs() < 1e-6 && (H * H - 0.5).abs() < 1e-6);
        assert!((S * INV_S - 1.0).abs() < 1e-6 && (H * INV_H - 1.0).abs() < 1e-6);
        let up = ((S / 2.0).powi(2) + H * H).sqrt();
        assert!((up - S).abs() < 1e-6, "{up}");
    }

    #[test]
    fn zero_on_lattice_points_and_within_range() {
        for i in -30..30 {
            assert_eq!(simplex_1d(4, i as f32), 0.0);
            for m in -30..30 {
                let o = if m & 1 != 0 { 0.5 } else { 0.0 };
                let (x, y) = (
                    (i as f64 + o) * (2.0f64 / 3.0).sqrt(),
                    m as f64 * 0.5f64.sqrt(),
                );
                let v = simplex_2d(4, x as f32, y as f32);
                // Zero but for the rounding of the f32 offsets (about an ulp of x and y).
                assert!(
                    v.abs() < 1e-5 + 1e-6 * (x.abs() + y.abs()) as f32,
                    "({i}, {m}): {v}"
                );
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

    /// Every sample of `rows` rows over `plan` (in the given order, through one
    /// [`SimplexRow`]) against the point kernel, bit for bit, with and without AVX2.
    fn check_rows(key: u32, plan: &RowPlan, f: f32, rows: impl Iterator<Item = usize>) {
        let mut row = SimplexRow::default();
        let (mut out, mut plain) = (vec![0.0; plan.len()], vec![0.0; plan.len()]);
        for y in rows {
            simplex_2d_row(key, plan, &mut row, y, f, &mut out);
            let (m, dy) = line_of(y as i32 as f32 * f);
            row.prepare(key, plan, m);
            terms(&row, m, dy, &mut plain);
            let fy = y as i32 as f32 * f;
            for (i, v) in out.iter().enumerate() {
                let p = simplex_2d(key, plan.x()[i], fy);
                assert_eq!(
                    v.to_bits(),
                    p.to_bits(),
                    "key {key} f {f} sample {i} row {y}"
                );
                assert_eq!(plain[i].to_bits(), p.to_bits(), "plain: sample {i} row {y}");
            }
        }
    }

    #[test]
    fn rows_match_the_point_kernel_on_every_sample() {
        for &f in &[0.005f32, 0.031, 0.08, 0.15, 0.199, 0.3, 1.0] {
            for (x0, len) in [(0, 8400), (13, 7), (5, 8), (977, 17), (40_000, 501)] {
                let plan = RowPlan::new(x0, len, f);
                // Rows in order (the lines' terms kept), then back up and far apart
                // (made again), and another key through the same row.
                let order = (0..300).chain((0..40).rev()).chain([2399, 3, 100_000, 4]);
                check_rows(1, &plan, f, order.clone());
                check_rows(0x9E37_79B9, &plan, f, order);
            }
        }
        // Falling, sparse, with gaps and far out: the same values.
        let gaps: Vec<usize> = (0..2000).map(|c| c + c / 50 * 60).collect();
        check_rows(7, &RowPlan::at(gaps.iter().copied(), 0.05), 0.05, 0..200);
        check_rows(
            2,
            &RowPlan::at((0..300).map(|w| w * 64 + 32), 0.05),
            0.05,
            0..20,
        );
        check_rows(2, &RowPlan::new(0, 300, -0.05), -0.05, 0..40);
        check_rows(2, &RowPlan::new(5_000_000, 300, 1.0), 1.0, 0..5);
    }

    #[test]
    fn another_plan_through_the_same_row_gets_its_own_columns() {
        let (wide, sparse) = (
            RowPlan::new(0, 500, 0.01),
            RowPlan::at((0..40).map(|w| w * 64 + 32), 0.01),
        );
        let mut row = SimplexRow::default();
        let mut out = vec![0.0; 500];
        simplex_2d_row(3, &wide, &mut row, 5, 0.01, &mut out);
        simplex_2d_row(3, &sparse, &mut row, 5, 0.01, &mut out);
        for (w, v) in out[..40].iter().enumerate() {
            assert_eq!(*v, simplex_2d(3, (w * 64 + 32) as f32 * 0.01, 5.0 * 0.01));
        }
        // A clone of a plan is the same columns.
        let again = wide.clone();
        assert_eq!(again.id(), wide.id());
        assert_ne!(sparse.id(), wide.id());
    }

    #[test]
    fn each_pair_of_lines_is_prepared_once_for_rows_in_order() {
        let plan = RowPlan::new(0, 1000, 0.08);
        let mut row = SimplexRow::default();
        let mut out = vec![0.0; 1000];
        let mut prepared = 0;
        let mut before = None;
        for y in 0..200 {
            simplex_2d_row(3, &plan, &mut row, y, 0.08, &mut out);
            prepared += usize::from(row.of != before);
            before = row.of;
        }
        // 200 rows at 0.08 span 16 plane units: 23 lattice lines, each pair once but
        // the first (its first row is hashed; the second row prepares it).
        assert!(row.used);
        let lines = (199.0 * 0.08 * INV_H) as usize + 1;
        assert_eq!(prepared, lines);
    }

    #[test]
    fn the_hashing_rows_match_the_point_kernel_at_every_width() {
        let xs: Vec<f32> = (0..777).map(|i| i as f32 * 0.37 - 100.0).collect();
        let mut plain = vec![0.0; 777];
        simplex_2d_xs_plain(5, &xs, 3.3, &mut plain);
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(plain[i].to_bits(), simplex_2d(5, x, 3.3).to_bits());
        }
        #[cfg(target_arch = "x86_64")]
        {
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
    }
}
