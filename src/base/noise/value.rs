//! Value noise: a random value at each lattice point, blended between the points with
//! Perlin's quintic fade. Cheaper than gradient noise (one hash and no dot product per
//! corner) and blockier: its features sit on the square lattice, its extremes at lattice
//! points, so its hills look like rounded squares and it carries more of its energy at
//! low frequencies than Perlin's. Pick it for cheap, soft regional variation.
//!
//! Ranges: each lattice value is the top 24 bits of the corner's hash mapped onto
//! `[-1, 1]`; a blend of them with weights in `[0, 1]` that sum to 1 stays in `[-1, 1]`
//! (the 2D kernel). The 1D kernel is halved into `[-0.5, 0.5]`, Perlin's 1D range, so the
//! fBm and the passes scale every basis alike. Unlike Perlin's, value noise is not zero
//! on lattice points: there it takes the point's value.

use super::{RowPlan, RowPosition, cell_1d, fade, floor_i32, lattice1, lattice2};

/// A lattice hash as a value in `[-1, 1]` (its top 24 bits).
#[inline(always)]
fn unit(h: u32) -> f32 {
    (h >> 8) as f32 * (2.0 / 16_777_215.0) - 1.0
}

/// 1D value noise at `x`, in `[-0.5, 0.5]`.
#[inline(always)]
pub fn value_1d(key: u32, x: f32) -> f32 {
    let (i, t) = cell_1d(x);
    let (a, b) = (
        unit(lattice1(key, i)),
        unit(lattice1(key, i.wrapping_add(1))),
    );
    0.5 * (a + fade(t) * (b - a))
}

/// 2D value noise at `(x, y)`, in `[-1, 1]`.
#[inline(always)]
pub fn value_2d(key: u32, x: f32, y: f32) -> f32 {
    let (ix, iy) = (floor_i32(x), floor_i32(y));
    let (u, v) = (fade(x - ix as f32), fade(y - iy as f32));
    let (ix1, iy1) = (ix.wrapping_add(1), iy.wrapping_add(1));
    let v00 = unit(lattice2(key, ix, iy));
    let v10 = unit(lattice2(key, ix1, iy));
    let v01 = unit(lattice2(key, ix, iy1));
    let v11 = unit(lattice2(key, ix1, iy1));
    let nx0 = v00 + u * (v10 - v00);
    let nx1 = v01 + u * (v11 - v01);
    nx0 + v * (nx1 - nx0)
}

/// The lattice half of value noise along rows, kept across rows as [`super::LatticeRow`]
/// is: for one pair of lattice rows `(iy, iy + 1)`, each sample's blend along x of the
/// two lower corners and of the two upper ones. A row of samples is then 2 loads and 3
/// operations per sample.
#[derive(Clone, Debug, Default)]
pub struct ValueRow {
    /// `(key, iy)` the blends are for.
    of: Option<(u32, i32)>,
    lower: Vec<f32>,
    upper: Vec<f32>,
}

impl ValueRow {
    fn prepare(&mut self, key: u32, plan: &RowPlan, iy: i32) {
        if self.of == Some((key, iy)) {
            return;
        }
        self.of = Some((key, iy));
        let n = plan.len();
        self.lower.resize(n, 0.0);
        self.upper.resize(n, 0.0);
        let iy1 = iy.wrapping_add(1);
        for &(ix, a, b) in plan.cells() {
            let ix1 = ix.wrapping_add(1);
            let v00 = unit(lattice2(key, ix, iy));
            let v10 = unit(lattice2(key, ix1, iy));
            let v01 = unit(lattice2(key, ix, iy1));
            let v11 = unit(lattice2(key, ix1, iy1));
            for i in a..b {
                let u = plan.u()[i];
                self.lower[i] = v00 + u * (v10 - v00);
                self.upper[i] = v01 + u * (v11 - v01);
            }
        }
    }
}

/// `out[i] = value_2d(key, x_i * frequency, y * frequency)` for the plan's columns, the
/// lattice blends taken from (and kept in) `row`: bit-identical to the point kernel (the
/// same IEEE operations on the same values, in the same order).
#[inline(always)]
pub fn value_2d_row_cached(
    key: u32,
    plan: &RowPlan,
    row: &mut ValueRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    let n = plan.len();
    let at = RowPosition::of(y, frequency);
    row.prepare(key, plan, at.iy);
    let (lower, upper, out) = (&row.lower[..n], &row.upper[..n], &mut out[..n]);
    for i in 0..n {
        out[i] = lower[i] + at.v * (upper[i] - lower[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook form: `lerp(lerp(v00, v10, u), lerp(v01, v11, u), v)` in f64, from
    /// the same lattice values.
    fn reference(key: u32, x: f64, y: f64) -> f64 {
        let (ix, iy) = (x.floor(), y.floor());
        let at = |i: f64, j: f64| unit(lattice2(key, i as i32, j as i32)) as f64;
        let fade = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
        let (u, v) = (fade(x - ix), fade(y - iy));
        let lerp = |a: f64, b: f64, t: f64| a + t * (b - a);
        lerp(
            lerp(at(ix, iy), at(ix + 1.0, iy), u),
            lerp(at(ix, iy + 1.0), at(ix + 1.0, iy + 1.0), u),
            v,
        )
    }

    #[test]
    fn point_kernel_matches_a_plain_reference() {
        for i in 0..20_000 {
            let (x, y) = (i as f32 * 0.0371 - 300.0, i as f32 * 0.0193 - 97.0);
            let r = reference(5, x as f64, y as f64);
            assert!((value_2d(5, x, y) as f64 - r).abs() < 1e-5, "({x}, {y})");
            // 1D hashes its lattice points its own way: the same blend of its corners.
            let (i0, t) = (x.floor() as i32, (x - x.floor()) as f64);
            let (a, b) = (
                unit(lattice1(5, i0)) as f64,
                unit(lattice1(5, i0 + 1)) as f64,
            );
            let fade = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
            assert!((value_1d(5, x) as f64 - 0.5 * (a + fade * (b - a))).abs() < 1e-6);
        }
    }

    #[test]
    fn on_lattice_points_it_takes_the_point_s_value() {
        for i in -20..20 {
            for j in -20..20 {
                let v = unit(lattice2(9, i, j));
                assert_eq!(value_2d(9, i as f32, j as f32), v);
            }
        }
    }

    #[test]
    fn rows_match_the_point_kernel_bit_for_bit() {
        for &f in &[0.005f32, 0.08, 0.3, 1.0] {
            let plan = RowPlan::new(11, 400, f);
            let mut row = ValueRow::default();
            let mut out = vec![0.0; 400];
            for (key, y) in [(1, 0usize), (1, 1), (1, 13), (2, 13), (2, 2399)] {
                value_2d_row_cached(key, &plan, &mut row, y, f, &mut out);
                for (i, v) in out.iter().enumerate() {
                    let p = value_2d(key, (11 + i) as f32 * f, y as f32 * f);
                    assert_eq!(v.to_bits(), p.to_bits(), "f {f} ({}, {y})", 11 + i);
                }
            }
        }
    }
}
