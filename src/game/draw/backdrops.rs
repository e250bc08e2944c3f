//! The pictures of the parallax backgrounds behind the surface: for each surface biome
//! ([`SCENES`]) three layers, far to near, drawn as silhouettes (white, with shading, tinted
//! when drawn by [`super::sky`]):
//!
//! - forest: blue mountains, rolling hills, a line of round tree crowns;
//! - desert: flat-topped mesas, long dunes steep on their lee side, low dunes with cacti;
//! - snow: jagged peaks with snow above a snow line, lower capped peaks, pines on snow;
//! - jungle: steep rounded karst hills, a high canopy with umbrella trees standing out,
//!   a dense low canopy;
//! - ocean: a flat sea horizon with distant islands, the sea's swell, a beach with palms.
//!
//! Every picture repeats every [`LAYER_W`] texels with no seam, and everything in it is
//! made here from sines and hashes of cells (no art from anywhere else).

use crate::content::preset::Biome;
use std::f32::consts::{PI, TAU};

/// Width of a background layer's picture in texels (it repeats along x).
pub const LAYER_W: usize = 512;
/// Height of each layer's picture in texels.
pub const LAYER_H: usize = 128;
/// Background layers, far to near.
pub const LAYERS: usize = 3;
/// The surface biomes with pictures of their own, in the texture's order.
pub const SCENES: [Biome; 5] = [
    Biome::Forest,
    Biome::Desert,
    Biome::Snow,
    Biome::Jungle,
    Biome::Ocean,
];
/// Rows of solid white under the pictures: the layers' ground below their pictures is
/// drawn from them, so all of the backgrounds are one texture and one draw call
/// (macroquad keeps the buffers of every draw call a frame has made).
pub const SOLID_ROWS: usize = 4;
/// How far above its picture's ground line anything stands: [`layer_pixels`] looks for
/// trees, cacti and palms only that far up (the tallest umbrella tree's crown is about 50
/// texels over its foot, and the canopy beside it may be 23 lower).
const STANDS_UP: f32 = 80.0;
/// Shade of what lies below a snow line or in a pine's needles (snow itself is 1).
const UNDER_SNOW: f32 = 0.66;

/// Where biome `b`'s pictures are in [`SCENES`].
pub fn scene(b: Biome) -> usize {
    SCENES.iter().position(|&s| s == b).unwrap_or(0)
}

/// The first texel row of biome `b`'s layer `layer` in the texture.
pub fn picture_row(b: Biome, layer: usize) -> usize {
    (scene(b) * LAYERS + layer) * LAYER_H
}

/// A small integer hash (for cells, stars, clouds and crowns).
pub fn hash(a: u32, salt: u32) -> u32 {
    let mut h = a.wrapping_mul(0x9E37_79B9) ^ salt.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^ (h >> 12)
}

/// A hash of `a` in 0..1.
pub fn unit(a: u32, salt: u32) -> f32 {
    (hash(a, salt) & 0xFFFF) as f32 / 65536.0
}

/// `x` brought into one repeat, `0..LAYER_W`.
fn wrap(x: f32) -> f32 {
    x.rem_euclid(LAYER_W as f32)
}

/// The signed distance along x from `c` to `x` the short way round the repeat.
fn apart(x: f32, c: f32) -> f32 {
    let w = LAYER_W as f32;
    (x - c + w / 2.0).rem_euclid(w) - w / 2.0
}

/// The angle of `x` in one repeat (so sines of whole multiples of it repeat seamlessly).
fn turn(x: f32) -> f32 {
    wrap(x) / LAYER_W as f32 * TAU
}

/// The cells of `size` texels (a divisor of [`LAYER_W`]) near `x`: `(index, left edge)`
/// of the cell `x` is in and `reach` cells either side, wrapped.
fn cells(x: f32, size: usize, reach: i32) -> impl Iterator<Item = (u32, f32)> {
    let n = (LAYER_W / size) as i32;
    let c = (wrap(x) / size as f32).floor() as i32;
    (-reach..=reach).map(move |d| {
        let k = (c + d).rem_euclid(n);
        (k as u32, (k as usize * size) as f32)
    })
}

/// A round bump of half-width `w` and height `h` at distance `d`: a flattened half
/// ellipse (round top, steep sides).
fn dome(d: f32, w: f32, h: f32) -> f32 {
    let t = d / w;
    if t.abs() >= 1.0 {
        0.0
    } else {
        h * (1.0 - t * t).sqrt()
    }
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The ground line of biome `b`'s layer `layer` at texel column `x`: its height in texels
/// above the picture's bottom. What stands on it (trees, cacti, palms) is [`standing`].
pub fn ridge(b: Biome, layer: usize, x: f32) -> f32 {
    let u = turn(x);
    let h = match (b, layer) {
        (Biome::Forest, 0) => mountains(u),
        (Biome::Forest, 1) => {
            34.0 + 10.0 * (2.0 * u + 2.0).sin()
                + 6.0 * (5.0 * u + 0.7).sin()
                + 2.0 * (11.0 * u).sin()
        }
        (Biome::Forest, _) => crowns(
            x,
            16.0 + 5.0 * (3.0 * u + 0.4).sin() + 3.0 * (7.0 * u + 1.3).sin(),
        ),
        (Biome::Desert, 0) => {
            // Mesas: a slow wave cut into flat tops and steep cliffs, in two steps.
            let m = (2.0 * u + 0.5).sin() + 0.7 * (5.0 * u + 2.1).sin() + 0.3 * (11.0 * u).sin();
            26.0 + 2.0 * (9.0 * u).sin()
                + 30.0 * smoothstep(0.12, 0.3, m)
                + 14.0 * smoothstep(0.92, 1.05, m)
        }
        (Biome::Desert, 1) => 22.0 + 4.0 * (2.0 * u + 1.0).sin() + dunes(x, 64, 14.0, 1),
        (Biome::Desert, _) => 12.0 + 3.0 * (3.0 * u + 0.2).sin() + dunes(x, 128, 8.0, 2),
        (Biome::Snow, 0) => 30.0 + peaks(x, 32, 44.0, 3) + 2.0 * (29.0 * u).sin(),
        (Biome::Snow, 1) => 22.0 + peaks(x, 64, 34.0, 4) + 1.5 * (41.0 * u).sin(),
        (Biome::Snow, _) => 14.0 + 4.0 * (2.0 * u + 0.9).sin() + 2.0 * (7.0 * u).sin(),
        (Biome::Jungle, 0) => {
            // Karst: tall round-topped hills standing close.
            let mut top: f32 = 0.0;
            for (k, left) in cells(x, 32, 2) {
                let c = left + 16.0 * unit(k, 21) + 8.0;
                let h = 24.0 + 40.0 * unit(k, 22);
                let w = 18.0 + 14.0 * unit(k, 23);
                top = top.max(dome(apart(x, c), w, h));
            }
            30.0 + top + 2.0 * (13.0 * u).sin()
        }
        (Biome::Jungle, 1) => canopy(x, 32, 40.0 + 4.0 * (3.0 * u).sin(), (12.0, 18.0), 5),
        (Biome::Jungle, _) => {
            let low = canopy(x, 16, 22.0 + 4.0 * (2.0 * u + 1.0).sin(), (8.0, 12.0), 6);
            // A second row of crowns between the first's, lower: a dense, lumpy canopy.
            low.max(canopy(x + 8.0, 16, 18.0, (7.0, 10.0), 7))
        }
        (Biome::Ocean, 0) => {
            let mut top: f32 = 0.0;
            for (k, left) in cells(x, 128, 1) {
                if unit(k, 31) < 0.75 {
                    let c = left + 64.0 + 40.0 * (unit(k, 32) - 0.5);
                    top = top.max(dome(
                        apart(x, c),
                        22.0 + 26.0 * unit(k, 33),
                        8.0 + 12.0 * unit(k, 34),
                    ));
                }
            }
            14.0 + top
        }
        (Biome::Ocean, 1) => 12.0 + 0.8 * (32.0 * u).sin() + 0.5 * (77.0 * u + 1.0).sin(),
        (Biome::Ocean, _) => 8.0 + 5.0 * (2.0 * u + 0.3).sin() + 2.0 * (5.0 * u).sin(),
    };
    h.clamp(4.0, LAYER_H as f32 - 2.0)
}

/// The forest's far mountains.
fn mountains(u: f32) -> f32 {
    50.0 + 16.0 * (u + 0.3).sin()
        + 10.0 * (3.0 * u + 1.1).sin()
        + 14.0 * (7.0 * u + 0.5).sin().abs()
        + 4.0 * (17.0 * u).sin()
}

/// A line of round tree crowns on the ground `base`, one in every 16-texel cell, its
/// size from a hash of the cell.
fn crowns(x: f32, base: f32) -> f32 {
    let mut top: f32 = 0.0;
    for (k, left) in cells(x, 16, 1) {
        let r = 6.0 + (hash(k, 7) % 4) as f32;
        let tall = 10.0 + (hash(k, 8) % 14) as f32;
        top = top.max(dome(apart(x, left + 8.0), r, tall));
    }
    base + top
}

/// Dunes in cells of `size` texels: each a crest of up to `high` texels, rising slowly
/// on its windward (left) side and falling steeply on its lee.
fn dunes(x: f32, size: usize, high: f32, salt: u32) -> f32 {
    let mut top: f32 = 0.0;
    let (windward, lee) = (size as f32 * 0.75, size as f32 * 0.3);
    for (k, left) in cells(x, size, 1) {
        let c = left + size as f32 * (0.55 + 0.3 * unit(k, salt * 10));
        let h = high * (0.55 + 0.45 * unit(k, salt * 10 + 1));
        let d = apart(x, c);
        let side = if d < 0.0 { windward } else { lee };
        if d.abs() < side {
            top = top.max(h * 0.5 * (1.0 + (PI * d / side).cos()));
        }
    }
    top
}

/// Jagged peaks in cells of `size` texels: each a tent up to `high` texels tall with
/// slopes from a hash, a notch or two on its flanks.
fn peaks(x: f32, size: usize, high: f32, salt: u32) -> f32 {
    let mut top: f32 = 0.0;
    for (k, left) in cells(x, size, 3) {
        let c = left + size as f32 * (0.25 + 0.5 * unit(k, salt * 10));
        let h = high * (0.45 + 0.55 * unit(k, salt * 10 + 1));
        let slope = 0.9 + 0.8 * unit(k, salt * 10 + 2);
        let d = apart(x, c).abs();
        let notch = 3.0 * (d * 0.45 + k as f32).sin().abs();
        top = top.max(h - d * slope - notch);
    }
    top.max(0.0)
}

/// A canopy of round crowns in cells of `size` texels over the ground `base`, radii in
/// `radius`, lifted up to half a radius by a hash.
fn canopy(x: f32, size: usize, base: f32, radius: (f32, f32), salt: u32) -> f32 {
    let mut top: f32 = 0.0;
    for (k, left) in cells(x, size, 2) {
        let r = radius.0 + (radius.1 - radius.0) * unit(k, salt * 10);
        let lift = r * 0.5 * unit(k, salt * 10 + 1);
        let c = left + size as f32 * (0.3 + 0.4 * unit(k, salt * 10 + 2));
        top = top.max(dome(apart(x, c), r, r * 0.8) + lift);
    }
    base + top
}

/// What stands above biome `b`'s layer `layer`'s ground at texel `(x, above)` (`above`
/// texels over the picture's bottom, the ground there `ground` tall): its shade, or None
/// where there is sky. Desert cacti, snowy pines, jungle umbrella trees, beach palms.
pub fn standing(b: Biome, layer: usize, x: f32, above: f32) -> Option<f32> {
    match (b, layer) {
        (Biome::Desert, 2) => cactus(x, above).then_some(0.8),
        (Biome::Snow, 2) => pine(x, above).then_some(UNDER_SNOW),
        (Biome::Jungle, 1) => umbrella(x, above).then_some(0.9),
        (Biome::Ocean, 2) => palm(x, above).then_some(0.75),
        _ => None,
    }
}

/// A saguaro in some of the 64-texel cells: a trunk with round tops and one or two arms
/// bending up.
fn cactus(x: f32, above: f32) -> bool {
    cells(x, 64, 1).any(|(k, left)| {
        if unit(k, 41) > 0.7 {
            return false;
        }
        let c = left + 14.0 + 36.0 * unit(k, 42);
        let base = ridge(Biome::Desert, 2, c) - 2.0;
        let tall = 16.0 + 14.0 * unit(k, 43);
        let (dx, dy) = (apart(x, c), above - base);
        let stem = |dx: f32, dy: f32, w: f32, top: f32| {
            dx.abs() <= w
                && dy >= 0.0
                && (dy <= top - w || dx * dx + (dy - top + w).powi(2) <= w * w)
        };
        if stem(dx, dy, 2.5, tall) {
            return true;
        }
        // Arms: out along a joint at `at`, then up.
        [(1.0, 44), (-1.0, 45)].into_iter().any(|(side, salt)| {
            if unit(k, salt) > 0.75 {
                return false;
            }
            let at = tall * (0.35 + 0.2 * unit(k, salt + 10));
            let up = 5.0 + 6.0 * unit(k, salt + 20);
            let (ax, ay) = (dx * side, dy - at);
            let elbow = (0.0..=7.0).contains(&ax) && (0.0..=3.5).contains(&ay);
            elbow || stem(ax - 6.0, ay, 2.0, up)
        })
    })
}

/// A pine in most 16-texel cells: three tiers of needles narrowing to a point over a
/// short trunk, standing in the snow.
fn pine(x: f32, above: f32) -> bool {
    cells(x, 16, 1).any(|(k, left)| {
        if unit(k, 51) > 0.8 {
            return false;
        }
        let c = left + 4.0 + 8.0 * unit(k, 52);
        let base = ridge(Biome::Snow, 2, c) - 1.0;
        let tall = 16.0 + 18.0 * unit(k, 53);
        let (dx, dy) = (apart(x, c).abs(), above - base);
        if !(0.0..=tall).contains(&dy) {
            return false;
        }
        if dy < 3.0 {
            return dx <= 1.0;
        }
        let tier = tall / 3.0;
        let within = ((dy - 3.0) / tier).fract();
        dx <= (tall - dy) * 0.22 + (1.0 - within) * 3.0
    })
}

/// An umbrella tree in some 64-texel cells, standing out of the jungle's high canopy: a
/// thin trunk and a flat, wide crown.
fn umbrella(x: f32, above: f32) -> bool {
    cells(x, 64, 1).any(|(k, left)| {
        if unit(k, 61) > 0.55 {
            return false;
        }
        let c = left + 16.0 + 32.0 * unit(k, 62);
        let base = ridge(Biome::Jungle, 1, c) - 4.0;
        let tall = 28.0 + 16.0 * unit(k, 63);
        let (dx, dy) = (apart(x, c), above - base);
        let trunk = dx.abs() <= 1.2 && dy >= 0.0 && dy <= tall;
        let (w, h) = (14.0 + 8.0 * unit(k, 64), 6.0);
        let (cx, cy) = (dx / w, (dy - tall) / h);
        // A crown flat below and round on top.
        let crown = (-0.5..=1.0).contains(&cy) && cx * cx + cy.max(0.0).powi(2) <= 1.0;
        trunk || crown
    })
}

/// A palm in some 64-texel cells: a trunk leaning as it rises and fronds drooping from
/// its top.
fn palm(x: f32, above: f32) -> bool {
    cells(x, 64, 1).any(|(k, left)| {
        if unit(k, 71) > 0.6 {
            return false;
        }
        let c = left + 12.0 + 40.0 * unit(k, 72);
        let base = ridge(Biome::Ocean, 2, c) - 1.0;
        let tall = 20.0 + 12.0 * unit(k, 73);
        let lean = if unit(k, 74) < 0.5 { -8.0 } else { 8.0 };
        let (dx, dy) = (apart(x, c), above - base);
        if (0.0..=tall).contains(&dy) {
            let t = dy / tall;
            if (dx - lean * t * t).abs() <= 1.6 - 0.6 * t {
                return true;
            }
        }
        // Fronds: arcs out from the top, each a row of shrinking round leaflets.
        let (tx, ty) = (lean, tall);
        (0..6).any(|f| {
            let dir = -1.0 + 2.0 * (f as f32 + 0.5) / 6.0;
            let reach = 9.0 + 3.0 * unit(k * 8 + f, 75);
            (1..=6).any(|i| {
                let s = i as f32 / 6.0;
                let px = tx + dir * reach * s;
                let py = ty + 3.0 * s * (1.0 - dir.abs()) - 6.0 * s * s * dir.abs();
                let r = 1.8 - s;
                (dx - px).powi(2) + (dy - py).powi(2) <= r * r
            })
        })
    })
}

/// The shade of biome `b`'s ground at height `above` in layer `layer` (1 but where snow
/// lies above a snow line on the peaks and darker rock below it).
fn ground_shade(b: Biome, layer: usize, x: f32, above: f32) -> f32 {
    let u = turn(x);
    let line = match (b, layer) {
        (Biome::Snow, 0) => 56.0 + 4.0 * (13.0 * u).sin() + 2.0 * (37.0 * u).sin(),
        (Biome::Snow, 1) => 40.0 + 3.0 * (11.0 * u + 1.0).sin() + 2.0 * (29.0 * u).sin(),
        _ => return 1.0,
    };
    if above >= line { 1.0 } else { UNDER_SNOW }
}

/// The three layers' pictures of every scene, white with shading (tinted when drawn),
/// stacked scene by scene, far to near: [`LAYER_W`] x [`LAYER_H`] texels each, opaque
/// under the ground line (its edge blended) and in what stands on it, a little darker
/// with depth; then [`SOLID_ROWS`] of opaque white.
pub fn layer_pixels() -> Vec<u8> {
    let rows = LAYER_H * LAYERS * SCENES.len() + SOLID_ROWS;
    let mut out = Vec::with_capacity(LAYER_W * rows * 4);
    for &b in &SCENES {
        for layer in 0..LAYERS {
            let things = (0..LAYER_W).any(|x| {
                standing(
                    b,
                    layer,
                    x as f32 + 0.5,
                    ridge(b, layer, x as f32 + 0.5) + 2.0,
                )
                .is_some()
            });
            let heights: Vec<f32> = (0..LAYER_W)
                .map(|x| ridge(b, layer, x as f32 + 0.5))
                .collect();
            for y in 0..LAYER_H {
                let above = (LAYER_H - y) as f32; // the texel's top, in texels above the bottom
                for (x, &h) in heights.iter().enumerate() {
                    let mid = above - 0.5;
                    let ground = (h - (above - 1.0)).clamp(0.0, 1.0);
                    let (cover, shade) = if ground >= 1.0 {
                        (1.0, ground_shade(b, layer, x as f32 + 0.5, mid))
                    } else {
                        // What stands here, sampled at the texel's middle where anything
                        // can (within STANDS_UP of the ground, in a picture with things).
                        let stand = (things && mid - h < STANDS_UP)
                            .then(|| standing(b, layer, x as f32 + 0.5, mid))
                            .flatten();
                        match stand {
                            Some(shade) => (1.0, shade),
                            None => (ground, ground_shade(b, layer, x as f32 + 0.5, mid)),
                        }
                    };
                    let depth = (h - above).max(0.0);
                    let fleck = if unit((y * LAYER_W + x) as u32, layer as u32) > 0.93 {
                        0.05
                    } else {
                        0.0
                    };
                    let v = (shade * (1.0 - (depth / 60.0).min(1.0) * 0.16) - fleck) * 255.0;
                    let v = v.round().clamp(0.0, 255.0) as u8;
                    out.extend_from_slice(&[v, v, v, (cover * 255.0).round() as u8]);
                }
            }
        }
    }
    out.resize(LAYER_W * rows * 4, 255);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_repeat_seamlessly_and_stand_on_their_base() {
        for &b in &SCENES {
            for layer in 0..LAYERS {
                let (a, z) = (
                    ridge(b, layer, 0.25),
                    ridge(b, layer, LAYER_W as f32 + 0.25),
                );
                assert!((a - z).abs() < 1e-3, "{b:?} layer {layer}: {a} vs {z}");
                // Near the seam, neighbouring columns stay close (no cliff where it repeats).
                let jump = (ridge(b, layer, LAYER_W as f32 - 0.5) - ridge(b, layer, 0.5)).abs();
                assert!(
                    jump < 6.0,
                    "{b:?} layer {layer}: a step of {jump} at the seam"
                );
                for above in (0..LAYER_H).step_by(3) {
                    let y = above as f32 + 0.5;
                    assert_eq!(
                        standing(b, layer, 0.3, y),
                        standing(b, layer, LAYER_W as f32 + 0.3, y),
                        "{b:?} layer {layer}: what stands at the seam"
                    );
                }
            }
        }
        let px = layer_pixels();
        let pictures = LAYER_H * LAYERS * SCENES.len();
        assert_eq!(px.len(), LAYER_W * (pictures + SOLID_ROWS) * 4);
        assert!(px[LAYER_W * pictures * 4..].iter().all(|&v| v == 255));
        for &b in &SCENES {
            for layer in 0..LAYERS {
                let row = picture_row(b, layer);
                let alpha = |x: usize, y: usize| px[((row + y) * LAYER_W + x) * 4 + 3];
                for x in (0..LAYER_W).step_by(17) {
                    assert_eq!(
                        alpha(x, LAYER_H - 1),
                        255,
                        "{b:?} {layer}: the bottom row is solid"
                    );
                    assert_eq!(alpha(x, 0), 0, "{b:?} {layer}: the top row is sky");
                }
            }
        }
    }

    /// The covered texels of a picture and the mean height of its skyline.
    fn outline(px: &[u8], b: Biome, layer: usize) -> (Vec<bool>, f32) {
        let row = picture_row(b, layer);
        let covered: Vec<bool> = (0..LAYER_H * LAYER_W)
            .map(|i| px[(row * LAYER_W + i) * 4 + 3] >= 128)
            .collect();
        let tops = (0..LAYER_W).map(|x| {
            (0..LAYER_H)
                .find(|&y| covered[y * LAYER_W + x])
                .map_or(0, |y| LAYER_H - y)
        });
        let mean = tops.sum::<usize>() as f32 / LAYER_W as f32;
        (covered, mean)
    }

    #[test]
    fn each_biome_has_its_own_skyline_far_ones_taller() {
        let px = layer_pixels();
        for layer in 0..LAYERS {
            for (i, &a) in SCENES.iter().enumerate() {
                for &b in &SCENES[i + 1..] {
                    let (ca, _) = outline(&px, a, layer);
                    let (cb, _) = outline(&px, b, layer);
                    let differ = ca.iter().zip(&cb).filter(|(p, q)| p != q).count();
                    // At least 3% of the picture (about 2,000 texels): another shape, not
                    // the same one tinted.
                    assert!(
                        differ * 33 > ca.len(),
                        "{a:?} and {b:?} layer {layer}: only {differ} texels differ"
                    );
                }
            }
        }
        for &b in &SCENES {
            let means: Vec<f32> = (0..LAYERS).map(|l| outline(&px, b, l).1).collect();
            assert!(
                means[0] > means[2],
                "{b:?}: far {:.1} is not above near {:.1}",
                means[0],
                means[2]
            );
        }
    }

    #[test]
    fn snow_lies_on_the_peaks_and_cacti_pines_and_palms_stand_up() {
        let px = layer_pixels();
        let shade = |b: Biome, layer: usize, x: usize, above: usize| {
            px[((picture_row(b, layer) + LAYER_H - above) * LAYER_W + x) * 4]
        };
        // The far snowy peaks: white at their tops, darker rock low down.
        let tallest = (0..LAYER_W)
            .max_by(|&a, &b| {
                ridge(Biome::Snow, 0, a as f32 + 0.5).total_cmp(&ridge(
                    Biome::Snow,
                    0,
                    b as f32 + 0.5,
                ))
            })
            .unwrap();
        let top = ridge(Biome::Snow, 0, tallest as f32 + 0.5) as usize;
        assert!(top > 66, "the tallest peak is {top} texels");
        assert!(shade(Biome::Snow, 0, tallest, top - 3) > 220);
        assert!(shade(Biome::Snow, 0, tallest, 20) < 190);
        // What stands up out of the ground: texels over the ground line that are covered.
        let stands = |b: Biome, layer: usize| {
            (0..LAYER_W)
                .filter(|&x| {
                    let g = ridge(b, layer, x as f32 + 0.5);
                    standing(b, layer, x as f32 + 0.5, g + 6.0).is_some()
                })
                .count()
        };
        for (b, layer, least) in [
            (Biome::Desert, 2, 10),
            (Biome::Snow, 2, 60),
            (Biome::Jungle, 1, 6),
            (Biome::Ocean, 2, 6),
        ] {
            let n = stands(b, layer);
            assert!(
                n >= least,
                "{b:?} layer {layer}: {n} columns stand 6 texels over the ground"
            );
        }
        // A picture with nothing standing in it has nothing there.
        assert_eq!(stands(Biome::Forest, 2), 0);
        // Nothing stands higher over the ground than the pictures look for it.
        for &b in &SCENES {
            for layer in 0..LAYERS {
                for x in 0..LAYER_W {
                    let x = x as f32 + 0.5;
                    let g = ridge(b, layer, x);
                    let mut y = g + STANDS_UP;
                    while y < LAYER_H as f32 {
                        assert_eq!(standing(b, layer, x, y), None, "{b:?} {layer} at {x} {y}");
                        y += 1.0;
                    }
                }
            }
        }
    }
}
