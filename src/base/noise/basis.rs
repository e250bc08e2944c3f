//! Which noise a field is made of: Perlin's gradient noise (the default, and every world
//! made before the choice existed), OpenSimplex2's simplex noise or value noise, all in
//! the same ranges (1D in `[-0.5, 0.5]`, 2D in `[-1, 1]`) so the fBm, the thresholds and
//! the amplitudes above them read every basis alike.
//!
//! When to pick which: Perlin for the classic look; Simplex for round, direction-free
//! shapes (no ridges along the axes, veins and caverns that do not line up with the grid)
//! at about Perlin's cost per sample in rows (both keep a lattice row's terms across rows
//! of samples); Value for soft, blobby regional variation, cheapest per sample but blocky
//! along the axes.
//!
//! The same range is not the same spread: over random points Perlin's 2D noise has a
//! standard deviation of 0.31 and is above 0.44 at 9% of them, Simplex's 0.54 and 26%,
//! Value's 0.45 and 19%. A preset that moves a thresholded field (the ores) to another
//! basis retunes its thresholds with it (the lab's noise view shows where they cut).

use super::simplex::{SimplexRow, simplex_1d, simplex_2d, simplex_2d_row};
use super::value::{ValueRow, value_1d, value_2d, value_2d_row_cached};
use super::{LatticeRow, RowPlan, perlin_1d, perlin_2d, perlin_2d_row_cached};
use serde::{Deserialize, Serialize};

/// A noise basis, written in presets by name: `basis: Simplex`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Basis {
    /// Gradient noise on the square lattice, diagonal gradients ([`perlin_2d`]).
    #[default]
    Perlin,
    /// OpenSimplex2: gradient noise on the triangular lattice ([`simplex_2d`]).
    Simplex,
    /// Hashed lattice values, quintic-faded ([`value_2d`]).
    Value,
}

impl Basis {
    /// Every basis, in the order presets and the lab list them.
    pub const ALL: [Basis; 3] = [Basis::Perlin, Basis::Simplex, Basis::Value];

    /// The name presets and `--basis` take.
    pub fn name(self) -> &'static str {
        match self {
            Basis::Perlin => "Perlin",
            Basis::Simplex => "Simplex",
            Basis::Value => "Value",
        }
    }

    /// The basis called `name` (any case).
    pub fn named(name: &str) -> Option<Basis> {
        Basis::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// 1D noise at `x`, in `[-0.5, 0.5]`.
    #[inline(always)]
    pub fn noise_1d(self, key: u32, x: f32) -> f32 {
        match self {
            Basis::Perlin => perlin_1d(key, x),
            Basis::Simplex => simplex_1d(key, x),
            Basis::Value => value_1d(key, x),
        }
    }

    /// 2D noise at `(x, y)`, in `[-1, 1]`.
    #[inline(always)]
    pub fn noise_2d(self, key: u32, x: f32, y: f32) -> f32 {
        match self {
            Basis::Perlin => perlin_2d(key, x, y),
            Basis::Simplex => simplex_2d(key, x, y),
            Basis::Value => value_2d(key, x, y),
        }
    }
}

/// Rows of 2D noise in a basis over a [`RowPlan`]'s columns, with the basis' row cache
/// (kept across rows, as [`LatticeRow`] is): the basis is chosen once per row, not per
/// sample. Each row is bit-identical to the basis' point kernel.
#[derive(Clone, Debug)]
pub enum RowNoise {
    Perlin(LatticeRow),
    /// Boxed: its kept columns and terms are many more vectors than the others'.
    Simplex(Box<SimplexRow>),
    Value(ValueRow),
}

impl RowNoise {
    pub fn new(basis: Basis) -> RowNoise {
        match basis {
            Basis::Perlin => RowNoise::Perlin(LatticeRow::default()),
            Basis::Simplex => RowNoise::Simplex(Box::default()),
            Basis::Value => RowNoise::Value(ValueRow::default()),
        }
    }

    pub fn basis(&self) -> Basis {
        match self {
            RowNoise::Perlin(_) => Basis::Perlin,
            RowNoise::Simplex(_) => Basis::Simplex,
            RowNoise::Value(_) => Basis::Value,
        }
    }

    /// `out[i] = basis.noise_2d(key, x_i * frequency, y * frequency)` for the plan's
    /// columns, `basis` the one this was made for (`new`).
    #[inline]
    pub fn row(&mut self, key: u32, plan: &RowPlan, y: usize, frequency: f32, out: &mut [f32]) {
        match self {
            RowNoise::Perlin(l) => perlin_2d_row_cached(key, plan, l, y, frequency, out),
            RowNoise::Simplex(s) => simplex_2d_row(key, plan, s, y, frequency, out),
            RowNoise::Value(v) => value_2d_row_cached(key, plan, v, y, frequency, out),
        }
    }

    /// [`RowNoise::row`] in `basis`, remade for it first if it was made for another.
    #[inline]
    pub fn row_in(
        &mut self,
        basis: Basis,
        key: u32,
        plan: &RowPlan,
        y: usize,
        frequency: f32,
        out: &mut [f32],
    ) {
        if self.basis() != basis {
            *self = RowNoise::new(basis);
        }
        self.row(key, plan, y, frequency, out)
    }
}

/// Perlin's, as every world made before the choice.
impl Default for RowNoise {
    fn default() -> RowNoise {
        RowNoise::new(Basis::Perlin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::noise::hash32;

    /// `n` pseudo-random points in `[0, side)^2`.
    fn points(n: usize, side: f32) -> impl Iterator<Item = (f32, f32)> {
        let mut h = 17u32;
        (0..n).map(move |_| {
            h = hash32(h.wrapping_add(0x9E37_79B9));
            let x = (h >> 8) as f32 / 16_777_216.0 * side;
            h = hash32(h);
            (x, (h >> 8) as f32 / 16_777_216.0 * side)
        })
    }

    #[test]
    fn rows_of_every_basis_match_its_point_kernel() {
        for basis in Basis::ALL {
            let f = 0.07;
            let plan = RowPlan::new(5, 300, f);
            let mut rows = RowNoise::new(basis);
            let mut out = vec![0.0; 300];
            for y in [0usize, 1, 14, 15, 900] {
                rows.row(9, &plan, y, f, &mut out);
                for (i, v) in out.iter().enumerate() {
                    let p = basis.noise_2d(9, (5 + i) as f32 * f, y as f32 * f);
                    assert_eq!(v.to_bits(), p.to_bits(), "{basis:?} ({}, {y})", 5 + i);
                }
            }
        }
    }

    #[test]
    fn the_same_on_every_thread() {
        // Pure kernels: rows sampled on several threads at once equal those on one.
        for basis in Basis::ALL {
            let plan = RowPlan::new(0, 2000, 0.03);
            let one: Vec<Vec<f32>> = (0..64)
                .map(|y| {
                    let mut out = vec![0.0; 2000];
                    RowNoise::new(basis).row(4, &plan, y, 0.03, &mut out);
                    out
                })
                .collect();
            let many: Vec<Vec<f32>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..4)
                    .map(|t| {
                        let plan = &plan;
                        s.spawn(move || {
                            let mut rows = RowNoise::new(basis);
                            (t * 16..t * 16 + 16)
                                .map(|y| {
                                    let mut out = vec![0.0; 2000];
                                    rows.row(4, plan, y, 0.03, &mut out);
                                    out
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap())
                    .collect()
            });
            assert_eq!(one, many, "{basis:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for b in Basis::ALL {
            assert_eq!(Basis::named(b.name()), Some(b));
            assert_eq!(Basis::named(&b.name().to_lowercase()), Some(b));
        }
        assert_eq!(Basis::named("Worley"), None);
        assert_eq!(Basis::default(), Basis::Perlin);
    }

    /// Over 200,000 random points of one field: the mean, the lowest and highest values,
    /// and the share of the field's gradients (central differences) within 15° of an
    /// axis, which is 1/3 for a field with no preferred direction.
    fn statistics(basis: Basis) -> (f64, f32, f32, f64) {
        let (mut sum, mut lo, mut hi) = (0f64, 0f32, 0f32);
        let (mut axis, mut total) = (0usize, 0usize);
        for (x, y) in points(200_000, 500.0) {
            let v = basis.noise_2d(3, x, y);
            sum += v as f64;
            (lo, hi) = (lo.min(v), hi.max(v));
            let e = 1e-2;
            let gx = basis.noise_2d(3, x + e, y) - basis.noise_2d(3, x - e, y);
            let gy = basis.noise_2d(3, x, y + e) - basis.noise_2d(3, x, y - e);
            if gx != 0.0 || gy != 0.0 {
                let deg = gy.atan2(gx).to_degrees().rem_euclid(90.0);
                total += 1;
                axis += usize::from(!(15.0..=75.0).contains(&deg));
            }
        }
        (sum / 200_000.0, lo, hi, axis as f64 / total as f64)
    }

    #[test]
    fn every_basis_is_in_range_near_zero_on_average_and_spread() {
        for basis in Basis::ALL {
            let (mean, lo, hi, _) = statistics(basis);
            assert!(mean.abs() < 0.01, "{basis:?} mean {mean}");
            assert!(-1.0 <= lo && hi <= 1.0, "{basis:?} {lo}..{hi}");
            assert!(lo < -0.9 && hi > 0.9, "{basis:?} spread {lo}..{hi}");
            for i in 0..100_000 {
                let x = i as f32 * 0.0291 - 1400.0;
                assert!(basis.noise_1d(7, x).abs() <= 0.5, "{basis:?} 1d at {x}");
            }
        }
    }

    #[test]
    fn gradient_directions() {
        // Simplex: no preferred direction (measured 0.335). Perlin: fewer along the axes
        // than a direction-free field, its diagonal gradients showing (0.243): no axis
        // bias either. Value noise is biased towards the axes by construction (0.580): it
        // blends along x and y, so its slopes follow them; that is its blocky look.
        let share = |b| statistics(b).3;
        let simplex = share(Basis::Simplex);
        assert!((simplex - 1.0 / 3.0).abs() < 0.01, "simplex {simplex}");
        let perlin = share(Basis::Perlin);
        assert!(perlin < 1.0 / 3.0 - 0.05, "perlin {perlin}");
        let value = share(Basis::Value);
        assert!(value > 0.5, "value {value}");
    }

    #[test]
    fn simplex_has_no_square_lattice_in_its_spectrum() {
        // Power along the spectrum's axes over power along its diagonals: the square
        // lattice puts more along the axes (Perlin 1.136, Value 1.616); the triangular
        // one does not (0.953: its six-fold spectrum puts a little less on the two axes
        // than on the two diagonals, and nowhere near the square lattice's excess).
        let simplex = spectrum_anisotropy(Basis::Simplex);
        assert!((0.9..1.02).contains(&simplex), "simplex {simplex}");
        let perlin = spectrum_anisotropy(Basis::Perlin);
        assert!(perlin > 1.08, "perlin {perlin}");
        assert!(spectrum_anisotropy(Basis::Value) > perlin);
    }

    /// The mean power of the field's spectrum within 10° of its axes over that within 10°
    /// of its diagonals, at 3 to 20 cycles per 64 samples (the lattice cell is 8 samples
    /// across): 64x64 samples of 24 keys, Hann-windowed so the patch's edges do not leak
    /// power onto the axes, through a plain separable DFT.
    fn spectrum_anisotropy(basis: Basis) -> f64 {
        const N: usize = 64;
        let mut power = vec![0f64; N * N];
        for key in 0..24u32 {
            let hann =
                |i: usize| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / N as f64).cos();
            let field: Vec<f64> = (0..N * N)
                .map(|i| {
                    let (x, y) = (i % N, i / N);
                    let v = basis.noise_2d(key, x as f32 * 0.125, y as f32 * 0.125) as f64;
                    v * hann(x) * hann(y)
                })
                .collect();
            // Separable DFT: rows, then columns.
            let tw: Vec<(f64, f64)> = (0..N)
                .map(|k| {
                    let a = -2.0 * std::f64::consts::PI * k as f64 / N as f64;
                    (a.cos(), a.sin())
                })
                .collect();
            let mut rows = vec![(0f64, 0f64); N * N];
            for y in 0..N {
                for k in 0..N {
                    let (mut re, mut im) = (0.0, 0.0);
                    for x in 0..N {
                        let (c, s) = tw[(k * x) % N];
                        re += field[y * N + x] * c;
                        im += field[y * N + x] * s;
                    }
                    rows[y * N + k] = (re, im);
                }
            }
            for kx in 0..N {
                for ky in 0..N {
                    let (mut re, mut im) = (0.0, 0.0);
                    for y in 0..N {
                        let (c, s) = tw[(ky * y) % N];
                        let (a, b) = rows[y * N + kx];
                        re += a * c - b * s;
                        im += a * s + b * c;
                    }
                    power[ky * N + kx] += re * re + im * im;
                }
            }
        }
        let (mut axis, mut diag, mut na, mut nd) = (0.0, 0.0, 0, 0);
        for ky in 0..N {
            for kx in 0..N {
                let fx = if kx > N / 2 {
                    kx as f64 - N as f64
                } else {
                    kx as f64
                };
                let fy = if ky > N / 2 {
                    ky as f64 - N as f64
                } else {
                    ky as f64
                };
                let r = (fx * fx + fy * fy).sqrt();
                if !(3.0..=20.0).contains(&r) {
                    continue;
                }
                let deg = fy.atan2(fx).to_degrees().rem_euclid(90.0);
                if !(10.0..=80.0).contains(&deg) {
                    axis += power[ky * N + kx];
                    na += 1;
                }
                if (35.0..=55.0).contains(&deg) {
                    diag += power[ky * N + kx];
                    nd += 1;
                }
            }
        }
        (axis / na as f64) / (diag / nd as f64)
    }
}
