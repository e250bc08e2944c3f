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
    let fx = x.floor();
    let fy = y.floor();
    let (ix, iy) = (fx as i32, fy as i32);
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

/// Fills `out[i]` with `perlin_2d(key, (x0 + i) * frequency, y * frequency)`: one row of
/// samples, written as a plain loop the compiler vectorises.
pub fn perlin_2d_row(key: u32, x0: usize, y: usize, frequency: f32, out: &mut [f32]) {
    let fy = y as f32 * frequency;
    for (i, o) in out.iter_mut().enumerate() {
        *o = perlin_2d(key, (x0 + i) as f32 * frequency, fy);
    }
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
