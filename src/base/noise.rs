//! Gradient (Perlin) noise as pure, branch-free kernels.
//!
//! Lattice gradients come from an integer hash of `(key, lattice point)` instead of a
//! permutation table, so evaluation needs no table reads (no gathers) and a row of samples
//! vectorises. Both kernels use Perlin's quintic fade `6t^5 - 15t^4 + 10t^3`.
//!
//! Ranges: the 1D kernel uses gradients in [-1, 1] and lies in [-0.5, 0.5]; the 2D kernel
//! uses the four diagonal gradients (±1, ±1) and lies in [-1, 1]. Both are zero on lattice
//! points.
//!
//! Beside Perlin, two more bases in the same ranges, from the same lattice hash:
//! [`simplex`] (OpenSimplex2's triangular lattice) and [`value`] (hashed lattice values);
//! [`basis`] picks one per noise field.

pub mod basis;
pub mod simplex;
pub mod value;

pub use basis::{Basis, RowNoise};

/// Perlin's quintic fade curve: 0 at 0, 1 at 1, zero first and second derivatives there.
#[inline(always)]
pub const fn fade(t: f32) -> f32 {
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

/// The multipliers of a 2D lattice point's coordinates in its hash.
const PRIME_X: u32 = 0x27d4_eb2d;
const PRIME_Y: u32 = 0x1656_67b1;

#[inline(always)]
fn lattice2(key: u32, ix: i32, iy: i32) -> u32 {
    hash32(key ^ (ix as u32).wrapping_mul(PRIME_X) ^ (iy as u32).wrapping_mul(PRIME_Y))
}

/// 1D gradient noise at `x`; in [-0.5, 0.5], zero at integers.
#[inline(always)]
pub fn perlin_1d(key: u32, x: f32) -> f32 {
    let (i, t) = cell_1d(x);
    blend_1d(gradient_1d(key, i), gradient_1d(key, i.wrapping_add(1)), t)
}

/// The lattice point at or below `x` and the offset from it. Positive x below 2^31 (every
/// caller's, in practice) takes its floor without the library call baseline x86-64 makes
/// for `floor`; the same lattice point and offset.
#[inline(always)]
fn cell_1d(x: f32) -> (i32, f32) {
    if x > 0.0 && x < 2_147_483_648.0 {
        let i = floor_i32(x);
        (i, x - i as f32)
    } else {
        let f = x.floor();
        (f as i32, x - f)
    }
}

/// The gradient at lattice point `i`, in [-1, 1] from the top 24 bits of its hash.
#[inline(always)]
fn gradient_1d(key: u32, i: i32) -> f32 {
    (lattice1(key, i) >> 8) as f32 * (2.0 / 16_777_215.0) - 1.0
}

/// 1D noise at offset `t` between lattice points with gradients `g0` and `g1`.
#[inline(always)]
fn blend_1d(g0: f32, g1: f32, t: f32) -> f32 {
    let a = g0 * t;
    let b = g1 * (t - 1.0);
    a + fade(t) * (b - a)
}

/// [`perlin_1d`] along a path that stays a while in each lattice cell (a tunnel's
/// heading, step by step): the same values, the cell's two gradients hashed only when the
/// path enters another cell.
#[derive(Clone, Copy, Debug)]
pub struct Perlin1 {
    key: u32,
    /// The cell last sampled and its gradients.
    i: i32,
    g: (f32, f32),
}

impl Perlin1 {
    pub fn new(key: u32) -> Perlin1 {
        let mut p = Perlin1 {
            key,
            i: 0,
            g: (0.0, 0.0),
        };
        p.enter(0);
        p
    }

    #[inline(always)]
    fn enter(&mut self, i: i32) {
        self.i = i;
        self.g = (
            gradient_1d(self.key, i),
            gradient_1d(self.key, i.wrapping_add(1)),
        );
    }

    /// `perlin_1d(key, x)`.
    #[inline]
    pub fn at(&mut self, x: f32) -> f32 {
        let (i, t) = cell_1d(x);
        if i != self.i {
            self.enter(i);
        }
        blend_1d(self.g.0, self.g.1, t)
    }
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

/// `x.floor()` as an integer, for `|x| < 2^62`, without the library call that baseline
/// x86-64 makes for `floor`: truncate, then step down for negative non-integers.
#[inline(always)]
pub fn floor_i64(x: f64) -> i64 {
    let i = x as i64;
    i - (x < i as f64) as i64
}

/// `x.ceil()` as an integer, for `|x| < 2^62`.
#[inline(always)]
pub fn ceil_i64(x: f64) -> i64 {
    -floor_i64(-x)
}

/// Sign factors `(sx, sy)` of the diagonal gradient picked by a lattice hash (as in
/// [`grad2`]).
#[inline(always)]
const fn signs(h: u32) -> (f32, f32) {
    (
        1.0 - 2.0 * (h & 1) as f32,
        1.0 - 2.0 * ((h >> 1) & 1) as f32,
    )
}

/// The row-independent half of sampling 2D noise along rows: a set of columns at
/// `frequency`, split into runs that share a lattice cell, with each sample's offset in its
/// cell and fade. Build it once, then fill any number of rows with
/// [`perlin_2d_row_cached`] or [`perlin_2d_row_factored`].
#[derive(Clone, Debug)]
pub struct RowPlan {
    /// Lattice cells crossed, left to right: `(ix, first sample, end sample)`.
    cells: Vec<(i32, usize, usize)>,
    /// `x - floor(x)` of each sample.
    dx: Vec<f32>,
    /// `fade(dx)` of each sample.
    u: Vec<f32>,
    /// `column * frequency` of each sample.
    x: Vec<f32>,
    /// Whether the samples' `x` never fall from left to right and start at `+0` or
    /// above (any plan of increasing columns at a positive frequency).
    rising: bool,
    /// Which plan this is ([`RowPlan::id`]).
    id: u64,
}

/// The next [`RowPlan::id`].
static NEXT_PLAN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl RowPlan {
    /// The columns `x0..x0 + len`.
    pub fn new(x0: usize, len: usize, frequency: f32) -> RowPlan {
        RowPlan::at(x0..x0 + len, frequency)
    }

    /// The given columns, left to right (increasing).
    pub fn at(columns: impl ExactSizeIterator<Item = usize>, frequency: f32) -> RowPlan {
        let len = columns.len();
        let mut plan = RowPlan {
            cells: Vec::new(),
            dx: Vec::with_capacity(len),
            u: Vec::with_capacity(len),
            x: Vec::with_capacity(len),
            rising: true,
            id: NEXT_PLAN.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        let mut before = 0.0f32;
        for (i, column) in columns.enumerate() {
            // Through i32: the same value as the usize conversion below 2^31, in one
            // instruction instead of the unsigned 64-bit sequence.
            let x = column as i32 as f32 * frequency;
            let ix = floor_i32(x);
            let dx = x - ix as f32;
            plan.rising &= before <= x;
            before = x;
            plan.x.push(x);
            plan.dx.push(dx);
            plan.u.push(fade(dx));
            match plan.cells.last_mut() {
                Some(cell) if cell.0 == ix => cell.2 = i + 1,
                _ => plan.cells.push((ix, i, i + 1)),
            }
        }
        plan.rising &= plan.x.first().is_none_or(|x| x.is_sign_positive());
        plan
    }

    /// The lattice cells crossed, left to right: `(ix, first sample, end sample)`.
    pub fn cells(&self) -> &[(i32, usize, usize)] {
        &self.cells
    }

    /// `x - floor(x)` of each sample.
    pub fn dx(&self) -> &[f32] {
        &self.dx
    }

    /// `fade(dx)` of each sample.
    pub fn u(&self) -> &[f32] {
        &self.u
    }

    /// `column * frequency` of each sample.
    pub fn x(&self) -> &[f32] {
        &self.x
    }

    /// Whether the samples' `x` never fall from left to right and start at `+0` or above.
    pub fn rising(&self) -> bool {
        self.rising
    }

    /// A number no other plan made in this run has (its clones share it): a row cache
    /// that keeps terms per column ([`simplex::SimplexRow`]) knows by it whether they are
    /// this plan's.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Number of samples per row.
    pub fn len(&self) -> usize {
        self.dx.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dx.is_empty()
    }
}

/// The lattice half of sampling 2D noise along rows: for one pair of lattice rows
/// `(iy, iy + 1)`, every sample's terms that do not depend on the sample row. Rows of
/// samples in the same lattice row (about `1 / frequency` consecutive rows) share it, so
/// kept across rows it is built once per lattice row, and each row of samples is then one
/// straight loop over the whole row that the compiler vectorises.
///
/// With diagonal gradients the dot product at corner `c` is `sx * dx_c + sy * dy_c`
/// (signs `±1`, so the products are exact): the `sx` halves and the `sy` signs are stored
/// per sample, for the cell's four corners in the order `00, 10, 01, 11` (`x` then `y`).
#[derive(Clone, Debug, Default)]
pub struct LatticeRow {
    /// `(key, iy)` the terms are for.
    of: Option<(u32, i32)>,
    /// `sx * dx` (left corners) or `sx * (dx - 1)` (right corners), per corner and sample.
    x_terms: [Vec<f32>; 4],
    /// `sy` (±1) per corner and sample.
    y_signs: [Vec<f32>; 4],
}

impl LatticeRow {
    fn prepare(&mut self, key: u32, plan: &RowPlan, iy: i32) {
        if self.of == Some((key, iy)) {
            return;
        }
        self.of = Some((key, iy));
        let n = plan.len();
        for v in self.x_terms.iter_mut().chain(&mut self.y_signs) {
            v.resize(n, 0.0);
        }
        // Signs at a lattice column, at iy and iy + 1; each lattice point is hashed once
        // (a cell's right column is the next cell's left).
        let column = |ix: i32| {
            let (sx0, sy0) = signs(lattice2(key, ix, iy));
            let (sx1, sy1) = signs(lattice2(key, ix, iy.wrapping_add(1)));
            [sx0, sy0, sx1, sy1]
        };
        let [x00, x10, x01, x11] = &mut self.x_terms;
        // The previous cell's right column, reused when it is this cell's left one
        // (always, unless a frequency above 1 skips lattice columns).
        let mut previous: Option<(i32, [f32; 4])> = None;
        for &(ix, a, b) in &plan.cells {
            let left = match previous {
                Some((col, signs)) if col == ix => signs,
                _ => column(ix),
            };
            let right = column(ix.wrapping_add(1));
            previous = Some((ix.wrapping_add(1), right));
            let [sx00, sy00, sx01, sy01] = left;
            let [sx10, sy10, sx11, sy11] = right;
            for i in a..b {
                let dx = plan.dx[i];
                x00[i] = sx00 * dx;
                x10[i] = sx10 * (dx - 1.0);
                x01[i] = sx01 * dx;
                x11[i] = sx11 * (dx - 1.0);
            }
            for (v, s) in self.y_signs.iter_mut().zip([sy00, sy10, sy01, sy11]) {
                v[a..b].fill(s);
            }
        }
    }
}

/// Where a sample row lies in the lattice: its lattice row `iy`, its offsets `dy` and
/// `dy - 1` from the lattice rows above and below, and `v = fade(dy)`.
#[derive(Clone, Copy, Debug)]
pub struct RowPosition {
    pub iy: i32,
    pub dy: f32,
    pub dy1: f32,
    pub v: f32,
}

impl RowPosition {
    /// Row `y` at `frequency` (the point kernel's values, computed the same way).
    #[inline(always)]
    pub fn of(y: usize, frequency: f32) -> RowPosition {
        let fy = y as i32 as f32 * frequency;
        let iy = floor_i32(fy);
        let dy = fy - iy as f32;
        RowPosition {
            iy,
            dy,
            dy1: dy - 1.0,
            v: fade(dy),
        }
    }
}

/// `out[i] = perlin_2d(key, x_i * frequency, y * frequency)` for the plan's columns, with
/// the lattice terms taken from (and kept in) `lattice`, so rows in order share them;
/// bit-identical to the point kernel: the same IEEE operations on the same values, in the
/// same order.
#[inline(always)]
pub fn perlin_2d_row_cached(
    key: u32,
    plan: &RowPlan,
    lattice: &mut LatticeRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    let n = plan.len();
    let out = &mut out[..n];
    let RowPosition { iy, dy, dy1, v } = RowPosition::of(y, frequency);
    lattice.prepare(key, plan, iy);
    let [x00, x10, x01, x11] = &lattice.x_terms;
    let [y00, y10, y01, y11] = &lattice.y_signs;
    // Equal lengths up front, so the loop below has no bounds checks and vectorises.
    let (x00, x10, x01, x11) = (&x00[..n], &x10[..n], &x01[..n], &x11[..n]);
    let (y00, y10, y01, y11, u) = (&y00[..n], &y10[..n], &y01[..n], &y11[..n], &plan.u[..n]);
    for i in 0..n {
        let n00 = x00[i] + y00[i] * dy;
        let n10 = x10[i] + y10[i] * dy;
        let n01 = x01[i] + y01[i] * dy1;
        let n11 = x11[i] + y11[i] * dy1;
        let nx0 = n00 + u[i] * (n10 - n00);
        let nx1 = n01 + u[i] * (n11 - n01);
        out[i] = nx0 + v * (nx1 - nx0);
    }
}

/// A [`LatticeRow`]'s terms folded with each sample's x fade into four per sample: along x
/// the two lower corners blend to `p0 + dy * q0` and the two upper ones to
/// `p1 + (dy - 1) * q1`, so a row of samples costs 4 loads and 7 operations instead of 9
/// and 17. The rounding differs from the point kernel's by a few ulps, so it serves noise
/// with no older output to match (separate ore veins), not the classic fields.
#[derive(Clone, Debug, Default)]
pub struct FactoredRow {
    /// The unfolded terms, which also say which `(key, iy)` the folded ones are for.
    lattice: LatticeRow,
    /// `p0, q0, p1, q1` per sample.
    terms: [Vec<f32>; 4],
}

impl FactoredRow {
    fn prepare(&mut self, key: u32, plan: &RowPlan, iy: i32) {
        if self.lattice.of == Some((key, iy)) {
            return;
        }
        self.lattice.prepare(key, plan, iy);
        let n = plan.len();
        for t in &mut self.terms {
            t.resize(n, 0.0);
        }
        let [x00, x10, x01, x11] = &self.lattice.x_terms;
        let [y00, y10, y01, y11] = &self.lattice.y_signs;
        let [p0, q0, p1, q1] = &mut self.terms;
        for i in 0..n {
            let u = plan.u[i];
            p0[i] = x00[i] + u * (x10[i] - x00[i]);
            q0[i] = y00[i] + u * (y10[i] - y00[i]);
            p1[i] = x01[i] + u * (x11[i] - x01[i]);
            q1[i] = y01[i] + u * (y11[i] - y01[i]);
        }
    }
}

/// `out[i] ≈ perlin_2d(key, x_i * frequency, y * frequency)` for the plan's columns, from
/// (and keeping) the folded terms in `row`: within a few ulps of the point kernel.
#[inline(always)]
pub fn perlin_2d_row_factored(
    key: u32,
    plan: &RowPlan,
    row: &mut FactoredRow,
    y: usize,
    frequency: f32,
    out: &mut [f32],
) {
    let n = plan.len();
    let out = &mut out[..n];
    let at = RowPosition::of(y, frequency);
    row.prepare(key, plan, at.iy);
    let [p0, q0, p1, q1] = &row.terms;
    let (p0, q0, p1, q1) = (&p0[..n], &q0[..n], &p1[..n], &q1[..n]);
    for i in 0..n {
        out[i] = factored_sample([p0[i], q0[i], p1[i], q1[i]], at);
    }
}

/// The gradients of one lattice cell's four corners, as the two hash bits that pick each
/// diagonal (bit 0: the sign of x, bit 1: of y), packed in a byte: corner `00` (the cell's
/// own lattice point) in bits 0-1, `10` (right) in 2-3, `01` (below) in 4-5, `11` in 6-7.
#[inline(always)]
pub fn cell_corners(key: u32, ix: i32, iy: i32) -> u8 {
    corners_of(
        column_corners(key, ix, iy),
        column_corners(key, ix.wrapping_add(1), iy),
    )
}

/// The hash bits of lattice points `(ix, iy)` (bits 0-1) and `(ix, iy + 1)` (bits 2-3): the
/// left or right half of a cell's [`cell_corners`]. A row of cells shares them, each
/// cell's right column being the next one's left, so a row hashes each column once.
#[inline(always)]
pub fn column_corners(key: u32, ix: i32, iy: i32) -> u8 {
    let bits = |y: i32| (lattice2(key, ix, y) & 3) as u8;
    bits(iy) | bits(iy.wrapping_add(1)) << 2
}

/// A cell's [`cell_corners`] from its left and right [`column_corners`].
#[inline(always)]
pub fn corners_of(left: u8, right: u8) -> u8 {
    (left & 3) | (right & 3) << 2 | (left >> 2) << 4 | (right >> 2) << 6
}

/// The sign factors `(sx, sy)` of corner `c` (0: `00`, 1: `10`, 2: `01`, 3: `11`) of a
/// [`cell_corners`] byte, as [`signs`] gives them from the hash.
#[inline(always)]
pub const fn corner_signs(corners: u8, c: u32) -> (f32, f32) {
    signs((corners >> (2 * c)) as u32)
}

/// Which quarter of a lattice cell an offset `t` in `[0, 1)` lies in: `0` for `[0, 0.25)`
/// up to `3` for `[0.75, 1)`. The quarter boundaries are exact in `f32`, so a sample is
/// always inside the closed quarter [`quarter_max`] bounds.
#[inline(always)]
pub fn quarter(t: f32) -> usize {
    (t >= 0.25) as usize + (t >= 0.5) as usize + (t >= 0.75) as usize
}

/// Upper bounds of 2D noise over the quarters of a lattice cell, from its corner gradients
/// alone ([`cell_corners`]): no sample of [`perlin_2d`] or the row kernels in that part of
/// such a cell is above them. A pass that only wants noise above a threshold skips the
/// parts whose bound is at or below it. Worked out when Strata is compiled (it took about a
/// millisecond of every run's CPU when built on first use).
pub fn quarter_max() -> &'static QuarterMax {
    // Some millions of the compiler's evaluation steps, past its default limit.
    #[allow(long_running_const_eval)]
    static BOUNDS: QuarterMax = QuarterMax::new();
    &BOUNDS
}

/// See [`quarter_max`].
pub struct QuarterMax {
    /// `quarter[corners][qy][qx]`: over quarter `(qx, qy)` ([`quarter`]) of the cell.
    pub quarter: [[[f32; 4]; 4]; 256],
    /// `row[corners][qy]`: over the quarters `(0..4, qy)`, a quarter of the cell's rows.
    pub row: [[f32; 4]; 256],
    /// `cell[corners]`: over the whole cell.
    pub cell: [f32; 256],
}

impl QuarterMax {
    const fn new() -> QuarterMax {
        let quarter = quarter_bounds();
        let mut row = [[f32::NEG_INFINITY; 4]; 256];
        let mut cell = [f32::NEG_INFINITY; 256];
        let mut c = 0;
        while c < 256 {
            let mut qy = 0;
            while qy < 4 {
                let mut qx = 0;
                while qx < 4 {
                    row[c][qy] = row[c][qy].max(quarter[c][qy][qx]);
                    qx += 1;
                }
                cell[c] = cell[c].max(row[c][qy]);
                qy += 1;
            }
            c += 1;
        }
        QuarterMax { quarter, row, cell }
    }
}

/// Rectangles per quarter along each axis for [`quarter_bounds`]: finer is tighter.
const SPLIT: usize = 8;

/// Builds [`quarter_max`]'s table by interval arithmetic, which gives a true bound, not an
/// estimate. Noise is `Σ w_c(u, v) L_c(x, y)` over the corners `c`: `L_c` is the dot
/// product of the corner's gradient with the offset from it (linear, so largest at a
/// corner of any rectangle), and the weights `(1-u)(1-v), u(1-v), (1-u)v, uv` of
/// `u = fade(x)`, `v = fade(y)` are at least 0. So over a small rectangle the noise is at
/// most the blend of each `L_c`'s largest value there; that blend is bilinear in `(u, v)`,
/// so largest at a corner of the `(u, v)` box (`fade` rises: the box is `fade` of the
/// rectangle's ends). Each quarter is split into `SPLIT x SPLIT` rectangles, which keeps
/// the bound within a few hundredths of the true maximum; `1e-4` on top covers the
/// kernels' `f32` rounding (a few ulps of values under 2) and this function's own.
const fn quarter_bounds() -> [[[f32; 4]; 4]; 256] {
    const N: usize = 4 * SPLIT;
    const fn at(i: usize) -> f32 {
        i as f32 / N as f32
    }
    // Per corner, the largest x or y part of L_c over step `i` of the grid.
    const fn part(s: f32, offset: f32, i: usize) -> f32 {
        (s * (at(i) - offset)).max(s * (at(i + 1) - offset))
    }
    let mut faded = [0f32; N + 1];
    let mut i = 0;
    while i <= N {
        faded[i] = fade(at(i));
        i += 1;
    }
    let mut out = [[[f32::NEG_INFINITY; 4]; 4]; 256];
    let mut corners = 0;
    while corners < 256 {
        let quarters = &mut out[corners];
        let mut mx = [[0f32; N]; 4];
        let mut my = [[0f32; N]; 4];
        let mut c = 0;
        while c < 4 {
            let (sx, sy) = corner_signs(corners as u8, c as u32);
            let (cx, cy) = ((c & 1) as f32, (c >> 1) as f32);
            let mut i = 0;
            while i < N {
                mx[c][i] = part(sx, cx, i);
                my[c][i] = part(sy, cy, i);
                i += 1;
            }
            c += 1;
        }
        let mut j = 0;
        while j < N {
            let (v0, v1) = (faded[j], faded[j + 1]);
            let mut i = 0;
            while i < N {
                let m = [
                    mx[0][i] + my[0][j],
                    mx[1][i] + my[1][j],
                    mx[2][i] + my[2][j],
                    mx[3][i] + my[3][j],
                ];
                let mut best = f32::NEG_INFINITY;
                let us = [faded[i], faded[i + 1]];
                let mut k = 0;
                while k < 2 {
                    let u = us[k];
                    let below = (1.0 - u) * m[0] + u * m[1];
                    let above = (1.0 - u) * m[2] + u * m[3];
                    best = best.max((1.0 - v0) * below + v0 * above);
                    best = best.max((1.0 - v1) * below + v1 * above);
                    k += 1;
                }
                let q = &mut quarters[j / SPLIT][i / SPLIT];
                *q = q.max(best);
                i += 1;
            }
            j += 1;
        }
        let mut q = 0;
        while q < 16 {
            quarters[q / 4][q % 4] += 1e-4;
            q += 1;
        }
        corners += 1;
    }
    out
}

/// `out[i] = perlin_2d(key, x_i * f, y * f)` for samples that all lie in one lattice cell
/// (`corners` = [`cell_corners`] of it), given their `dx` and `fade(dx)` from a
/// [`RowPlan`] and the row's [`RowPosition`]: bit-identical to
/// [`perlin_2d_row_cached`] (the same IEEE operations on the same values, in the same
/// order), for passes that only want some stretches of a row.
#[inline(always)]
pub fn cell_row_exact(corners: u8, dx: &[f32], u: &[f32], row: RowPosition, out: &mut [f32]) {
    let [(sx00, sy00), (sx10, sy10), (sx01, sy01), (sx11, sy11)] =
        [0, 1, 2, 3].map(|c| corner_signs(corners, c));
    let RowPosition { dy, dy1, v, .. } = row;
    for ((o, &dx), &u) in out.iter_mut().zip(dx).zip(u) {
        let n00 = sx00 * dx + sy00 * dy;
        let n10 = sx10 * (dx - 1.0) + sy10 * dy;
        let n01 = sx01 * dx + sy01 * dy1;
        let n11 = sx11 * (dx - 1.0) + sy11 * dy1;
        let nx0 = n00 + u * (n10 - n00);
        let nx1 = n01 + u * (n11 - n01);
        *o = nx0 + v * (nx1 - nx0);
    }
}

/// [`cell_row_exact`]'s counterpart for [`perlin_2d_row_factored`], bit-identical to it.
#[inline(always)]
pub fn cell_row_factored(corners: u8, dx: &[f32], u: &[f32], row: RowPosition, out: &mut [f32]) {
    let signs = [0, 1, 2, 3].map(|c| corner_signs(corners, c));
    for ((o, &dx), &u) in out.iter_mut().zip(dx).zip(u) {
        *o = factored_sample(factored_terms(signs, dx, u), row);
    }
}

/// The factored kernel's row-independent half at one sample of a cell: `[p0, q0, p1, q1]`
/// from the cell's four [`corner_signs`], the sample's offset `dx` and its fade `u`
/// (the same values [`FactoredRow`] keeps per column).
#[inline(always)]
pub fn factored_terms(signs: [(f32, f32); 4], dx: f32, u: f32) -> [f32; 4] {
    let [(sx00, sy00), (sx10, sy10), (sx01, sy01), (sx11, sy11)] = signs;
    let (x00, x10) = (sx00 * dx, sx10 * (dx - 1.0));
    let (x01, x11) = (sx01 * dx, sx11 * (dx - 1.0));
    [
        x00 + u * (x10 - x00),
        sy00 + u * (sy10 - sy00),
        x01 + u * (x11 - x01),
        sy01 + u * (sy11 - sy01),
    ]
}

/// The factored kernel's row half: the sample in `row` from its [`factored_terms`].
#[inline(always)]
pub fn factored_sample([p0, q0, p1, q1]: [f32; 4], row: RowPosition) -> f32 {
    let nx0 = p0 + row.dy * q0;
    let nx1 = p1 + row.dy1 * q1;
    nx0 + row.v * (nx1 - nx0)
}

/// Fills `out[i]` with `perlin_2d(key, (x0 + i) * frequency, y * frequency)`: one row of
/// samples, bit-identical to the point kernel. For many rows over the same columns,
/// build a [`RowPlan`] and a [`LatticeRow`] once and use [`perlin_2d_row_cached`].
pub fn perlin_2d_row(key: u32, x0: usize, y: usize, frequency: f32, out: &mut [f32]) {
    let plan = RowPlan::new(x0, out.len(), frequency);
    perlin_2d_row_cached(key, &plan, &mut LatticeRow::default(), y, frequency, out);
}

/// Fractal Brownian motion over 1D noise of a [`Basis`], normalised to [-1, 1]: octave
/// `o` is sampled at `x * lacunarity^o` with weight `persistence^o` and its own key, and
/// the sum is divided by the total weight and doubled (every basis' 1D range is ±0.5).
#[derive(Clone, Copy, Debug)]
pub struct Fbm1 {
    pub basis: Basis,
    pub key: u32,
    pub octaves: u32,
    pub persistence: f32,
    pub lacunarity: f32,
}

impl Fbm1 {
    /// The key of octave `o`'s noise.
    #[inline]
    pub fn octave_key(&self, o: u32) -> u32 {
        hash32(self.key.wrapping_add(o.wrapping_mul(0x9E37_79B9)))
    }

    pub fn sample(&self, x: f32) -> f32 {
        let (coarse, fine) = self.sample_split(x, self.octaves);
        coarse + fine
    }

    /// The sample split into the octaves below `k` and those from `k` on, each scaled as
    /// in [`Fbm1::sample`] (so the two add up to it): the slow shape and its detail.
    pub fn sample_split(&self, x: f32, k: u32) -> (f32, f32) {
        let mut sums = [0.0f32; 2];
        let (mut weight, mut total, mut freq) = (1.0f32, 0.0f32, 1.0f32);
        for o in 0..self.octaves {
            let key = self.octave_key(o);
            sums[(o >= k) as usize] += weight * self.basis.noise_1d(key, x * freq);
            total += weight;
            weight *= self.persistence;
            freq *= self.lacunarity;
        }
        if total > 0.0 {
            (2.0 * sums[0] / total, 2.0 * sums[1] / total)
        } else {
            (0.0, 0.0)
        }
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
    fn plan_at_chosen_columns_matches_point_kernel() {
        // Word centres, as the caves' regional fill samples them.
        let f = 0.005;
        let plan = RowPlan::at((0..140).map(|w| w * 64 + 32), f);
        let mut cache = LatticeRow::default();
        let mut row = vec![0.0; 140];
        for y in [0, 7, 199, 200, 1234] {
            perlin_2d_row_cached(3, &plan, &mut cache, y, f, &mut row);
            for (w, v) in row.iter().enumerate() {
                let p = perlin_2d(3, (w * 64 + 32) as f32 * f, y as f32 * f);
                assert_eq!(v.to_bits(), p.to_bits(), "row {y} word {w}");
            }
        }
    }

    #[test]
    fn cache_kept_across_rows_matches_point_kernel() {
        let f = 0.09;
        let plan = RowPlan::new(3, 700, f);
        let mut cache = LatticeRow::default();
        let mut row = vec![0.0; 700];
        for (key, y) in [(1, 0), (1, 1), (1, 11), (1, 12), (2, 12), (2, 40), (2, 39)] {
            perlin_2d_row_cached(key, &plan, &mut cache, y, f, &mut row);
            for (i, v) in row.iter().enumerate() {
                let p = perlin_2d(key, (3 + i) as f32 * f, y as f32 * f);
                assert_eq!(v.to_bits(), p.to_bits(), "key {key} row {y} sample {i}");
            }
        }
    }

    #[test]
    fn factored_rows_stay_within_a_few_ulps_of_the_point_kernel() {
        for &f in &[0.005f32, 0.09, 0.3, 1.0] {
            let plan = RowPlan::new(7, 600, f);
            let mut row = FactoredRow::default();
            let mut out = vec![0.0; 600];
            for y in [0usize, 1, 11, 12, 2399, 4095] {
                perlin_2d_row_factored(13, &plan, &mut row, y, f, &mut out);
                for (i, v) in out.iter().enumerate() {
                    let p = perlin_2d(13, (7 + i) as f32 * f, y as f32 * f);
                    assert!((v - p).abs() <= 4e-7, "f {f} ({}, {y}): {v} vs {p}", 7 + i);
                }
            }
        }
    }

    #[test]
    fn cell_kernels_match_row_kernels_bit_for_bit() {
        for &f in &[0.05f32, 0.09, 0.3, 1.0] {
            let plan = RowPlan::new(5, 500, f);
            let (mut exact, mut factored) = (LatticeRow::default(), FactoredRow::default());
            let (mut a, mut b) = (vec![0.0; 500], vec![0.0; 500]);
            let mut cell = vec![0.0; 500];
            for y in [0usize, 3, 11, 12, 999, 2399] {
                perlin_2d_row_cached(21, &plan, &mut exact, y, f, &mut a);
                perlin_2d_row_factored(21, &plan, &mut factored, y, f, &mut b);
                let row = RowPosition::of(y, f);
                for &(ix, s, e) in plan.cells() {
                    let corners = cell_corners(21, ix, row.iy);
                    let (dx, u) = (&plan.dx()[s..e], &plan.u()[s..e]);
                    cell_row_exact(corners, dx, u, row, &mut cell[s..e]);
                    for i in s..e {
                        assert_eq!(cell[i].to_bits(), a[i].to_bits(), "exact f {f} y {y} i {i}");
                    }
                    cell_row_factored(corners, dx, u, row, &mut cell[s..e]);
                    for i in s..e {
                        assert_eq!(
                            cell[i].to_bits(),
                            b[i].to_bits(),
                            "factored f {f} y {y} i {i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn quarter_bounds_worked_out_when_compiled_match_the_same_work_at_run_time() {
        // The table in the binary comes from the compiler's evaluation; the same function
        // called here runs as machine code. IEEE operations give the same bits either way.
        let run_time = std::hint::black_box(quarter_bounds as fn() -> _)();
        let compiled = &quarter_max().quarter;
        let bits = |t: &[[[f32; 4]; 4]; 256]| -> Vec<u32> {
            t.iter().flatten().flatten().map(|b| b.to_bits()).collect()
        };
        assert_eq!(bits(&run_time), bits(compiled));
        for (c, quarters) in run_time.iter().enumerate() {
            for (qy, row) in quarters.iter().enumerate() {
                let row = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                assert_eq!(quarter_max().row[c][qy].to_bits(), row.to_bits());
            }
            let cell = quarter_max().row[c]
                .into_iter()
                .fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(quarter_max().cell[c].to_bits(), cell.to_bits());
        }
    }

    #[test]
    fn quarter_bounds_hold_and_are_tight_enough_to_skip_most_quarters() {
        // Every sample of either kernel is at most its quarter's bound; random points in
        // random cells, plus the cell's edges and centre.
        let mut h = 1u32;
        let mut next = || {
            h = hash32(h.wrapping_add(0x9E37_79B9));
            (h >> 8) as f32 / 16_777_216.0
        };
        let mut worst = f32::INFINITY;
        for corners in 0..=255u8 {
            let mut points: Vec<(f32, f32)> = (0..400).map(|_| (next(), next())).collect();
            for &(x, y) in &[(0.0, 0.0), (0.5, 0.5), (0.25, 0.75), (0.999, 0.999)] {
                points.push((x, y));
            }
            for (dx, dy) in points {
                let row = RowPosition {
                    iy: 0,
                    dy,
                    dy1: dy - 1.0,
                    v: fade(dy),
                };
                let (mut a, mut b) = ([0.0], [0.0]);
                cell_row_exact(corners, &[dx], &[fade(dx)], row, &mut a);
                cell_row_factored(corners, &[dx], &[fade(dx)], row, &mut b);
                let bound = quarter_max().quarter[corners as usize][quarter(dy)][quarter(dx)];
                assert!(
                    a[0] <= bound && b[0] <= bound,
                    "{corners} ({dx}, {dy}): {} > {bound}",
                    a[0]
                );
                worst = worst.min(bound - a[0]);
            }
        }
        assert!(
            worst < 0.05,
            "some sample comes close to its bound ({worst})"
        );
        // The bounds skip most of the noise above the ore thresholds: the quarters that may
        // exceed 0.55 are a small share of all of them.
        let live = quarter_max()
            .quarter
            .iter()
            .flatten()
            .flatten()
            .filter(|&&b| b > 0.55)
            .count();
        assert!(live * 8 < 256 * 16, "{live} of {} quarters", 256 * 16);
        assert!(live > 0);
    }

    #[test]
    fn the_cached_1d_path_gives_perlin_1d_s_values() {
        // Along tunnel-like paths (slow steps, some cells revisited), and jumping about,
        // negative and huge x included.
        for key in [0, 7, 0xdead_beef] {
            let mut p = Perlin1::new(key);
            for step in 0..5000u32 {
                let x = step as f32 * 0.03;
                assert_eq!(p.at(x).to_bits(), perlin_1d(key, x).to_bits(), "{key} {x}");
            }
            let mut h = key;
            for _ in 0..5000 {
                h = hash32(h.wrapping_add(1));
                let x = (h as i32) as f32 / [1.0, 1e3, 1e7][h as usize % 3];
                assert_eq!(p.at(x).to_bits(), perlin_1d(key, x).to_bits(), "{key} {x}");
                assert_eq!(p.at(-0.0), perlin_1d(key, -0.0));
            }
        }
    }

    #[test]
    fn integer_floor_and_ceil_of_f64_match_the_library_ones() {
        for i in 0..20_000u64 {
            let x = (crate::base::rng::mix64(i) as i64 as f64) / 2f64.powi(40 + (i % 20) as i32);
            for v in [x, -x, x.trunc(), 0.5 + x.trunc(), -0.0, 0.0] {
                assert_eq!(floor_i64(v), v.floor() as i64, "{v}");
                assert_eq!(ceil_i64(v), v.ceil() as i64, "{v}");
            }
        }
    }

    #[test]
    fn floor_i32_is_floor() {
        for i in -20_000..20_000 {
            let x = i as f32 * 0.013_7;
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
            // perlin_1d's fast floor gives the same offset as the library's.
            if x > 0.0 {
                assert_eq!(x - floor_i32(x) as f32, x - x.floor(), "{x}");
            }
        }
        for k in 0..31 {
            for x in [
                1.37 * (1u32 << k) as f32,
                (1u64 << k) as f32,
                0.999 * (1u64 << k) as f32,
            ] {
                assert_eq!(x - floor_i32(x) as f32, x - x.floor(), "{x}");
                assert_eq!(floor_i32(x) as f32, x.floor(), "{x}");
            }
        }
        assert_eq!(floor_i32(-1.0), -1);
        assert_eq!(floor_i32(-0.0), 0);
        assert_eq!(floor_i32(3.0), 3);
    }

    #[test]
    fn fbm_is_normalised() {
        let f = Fbm1 {
            basis: Basis::Perlin,
            key: 5,
            octaves: 6,
            persistence: 0.5,
            lacunarity: 2.0,
        };
        for i in 0..10_000 {
            assert!(f.sample(i as f32 * 0.013).abs() <= 1.0);
        }
        let one = Fbm1 {
            basis: Basis::Perlin,
            key: 5,
            octaves: 1,
            persistence: 0.5,
            lacunarity: 2.0,
        };
        assert_eq!(one.sample(0.3), 2.0 * perlin_1d(hash32(5), 0.3));
    }
}
