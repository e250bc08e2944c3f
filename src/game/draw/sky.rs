//! The sky behind the world: a gradient by the time of day, the sun and the moon on their
//! arcs, stars at night, drifting clouds, and three parallax layers of each surface biome's
//! own pictures ([`super::backdrops`]: hills and forest, mesas and dunes, snowy peaks,
//! jungle canopy, the sea), cross-faded by the biomes around the camera and fading out as
//! the camera goes underground. Everything is drawn in screen space before the world, whose chunk textures
//! leave the open sky transparent ([`super::chunks::OPEN_SKY`]); the light overlay leaves
//! it clear too ([`super::lighting::clear_open_sky`]), so the night here is the sky's own.
//!
//! The pure parts (colours, arcs, parallax, biome shares) are plain functions tested below;
//! [`Sky`] holds the one texture (every scene's three layers' silhouettes, white, tinted
//! when drawn) and the world's biome runs.

use super::backdrops::{
    LAYER_H, LAYER_W, LAYERS, SCENES, SOLID_ROWS, hash, layer_pixels, picture_row, unit,
};
use super::camera::Camera;
use crate::content::preset::Biome;
use crate::game::worlds::state::Loaded;
use crate::worldgen::biomes::BiomeMap;
use macroquad::prelude::*;
use std::f32::consts::PI;

/// How far each layer moves with the camera, far to near (1 would be the world's own).
pub const PARALLAX: [f32; LAYERS] = [0.06, 0.14, 0.28];
/// Share of the camera's vertical moves each layer follows, far to near.
const PARALLAX_Y: [f32; LAYERS] = [0.35, 0.55, 0.8];
/// Each layer's base above the horizon, in screen heights, far to near.
const LIFT: [f32; LAYERS] = [0.08, 0.04, 0.0];
/// How much of the horizon's colour each layer takes (distance haze), far to near.
const HAZE: [f32; LAYERS] = [0.4, 0.22, 0.06];
/// The band of the screen (shares of its height, top and bottom) each layer's base stays
/// in, far to near, wherever the horizon is: a camera far below the surface around it
/// would push the pictures off the top and leave their flat ground filling the screen,
/// one far above it would hide them behind the ground in front.
const BASE_BAND: [(f32, f32); LAYERS] = [(0.3, 0.5), (0.4, 0.6), (0.5, 0.7)];
/// Tiles below the horizon over which the backgrounds fade out.
const FADE_TILES: f32 = 60.0;
/// Columns either side of the camera whose biomes blend into the backgrounds' colours.
pub const BLEND_HALF: f64 = 80.0;

const DAY_TOP: [f32; 3] = [0.27, 0.52, 0.86];
const DAY_HORIZON: [f32; 3] = [0.64, 0.82, 0.95];
const NIGHT_TOP: [f32; 3] = [0.03, 0.045, 0.14];
const NIGHT_HORIZON: [f32; 3] = [0.09, 0.13, 0.28];
const DUSK: [f32; 3] = [0.93, 0.55, 0.36];

fn mix3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
}

/// The sky's colour at the top of the screen and at the horizon for `night` (0 full day,
/// 1 full night, [`crate::sim::day::night`]): blue by day, navy at night, the horizon glowing
/// orange at dawn and dusk (the middle of the fade).
pub fn sky_colors(night: f32) -> ([f32; 3], [f32; 3]) {
    let n = night.clamp(0.0, 1.0);
    let glow = 1.0 - (2.0 * n - 1.0).abs();
    let top = mix3(DAY_TOP, NIGHT_TOP, n);
    let horizon = mix3(mix3(DAY_HORIZON, NIGHT_HORIZON, n), DUSK, glow * 0.75);
    (top, horizon)
}

/// Where a body on an arc is at time `t` (0..1 of the day): up from `rise` to `set`
/// (either may wrap past midnight). `Some((along, height))`: `along` 0 at rising (left),
/// 1 at setting (right); `height` 0 at the horizon, 1 at the top of the arc.
pub fn arc(t: f32, rise: f32, set: f32) -> Option<(f32, f32)> {
    let span = (set - rise).rem_euclid(1.0);
    let since = (t - rise).rem_euclid(1.0);
    (span > 0.0 && since <= span).then(|| {
        let along = since / span;
        (along, (along * PI).sin())
    })
}

/// When the sun rises and sets for a `daylight` share of the day centred on noon: the
/// middle of dawn and dusk ([`crate::sim::day::night`] is 0.5 there), widened by half a
/// twilight so it is still low over the horizon as the glow fades.
pub fn sun_times(daylight: f32) -> (f32, f32) {
    let half = daylight / 2.0 + crate::sim::day::TWILIGHT / 2.0;
    (0.5 - half, 0.5 + half)
}

/// Screen x of a layer's first repeat for a camera `cam_px` screen pixels along the world:
/// the layer moves `factor` as fast as the world, repeating every `period` pixels, so the
/// result lies in `(-period, 0]`.
pub fn parallax_offset(cam_px: f64, factor: f32, period: f32) -> f32 {
    let shift = (cam_px * factor as f64).rem_euclid(period as f64) as f32;
    if shift == 0.0 { 0.0 } else { -shift }
}

/// The share of each biome in the columns `x - half .. x + half` (a box blur over the
/// surface's runs, `(first, end, biome)` as [`BiomeMap::runs`] gives them), so colours
/// blend as the camera crosses a biome's edge. The shares sum to 1.
pub fn biome_shares(runs: &[Run], x: f64, half: f64) -> Vec<(Biome, f32)> {
    let (a, b) = (x - half, x + half);
    let mut out: Vec<(Biome, f32)> = Vec::new();
    let mut total = 0.0;
    for &(s, e, biome) in runs {
        let cover = (b.min(e as f64) - a.max(s as f64)).max(0.0);
        if cover > 0.0 {
            total += cover;
            match out.iter_mut().find(|(k, _)| *k == biome) {
                Some((_, w)) => *w += cover as f32,
                None => out.push((biome, cover as f32)),
            }
        }
    }
    if total <= 0.0 {
        // Past the world's ends: the nearest run.
        let nearest = if x < 0.0 { runs.first() } else { runs.last() };
        return nearest.map(|r| vec![(r.2, 1.0)]).unwrap_or_default();
    }
    out.iter_mut().for_each(|(_, w)| *w /= total as f32);
    out
}

/// The alpha of each biome's picture, drawn one over the other in [`SCENES`]' order, for
/// `shares` of the view: each picture at its own share, so where one picture alone
/// covers the sky it shows at its share over the sky, and the mix changes smoothly as the
/// shares do (no order to swap). One biome alone is drawn opaque.
pub fn cross_fade(shares: &[(Biome, f32)]) -> Vec<(Biome, f32)> {
    let mut out: Vec<(Biome, f32)> = shares.iter().copied().filter(|&(_, w)| w > 0.0).collect();
    out.sort_by_key(|&(b, _)| super::backdrops::scene(b));
    if let [(_, w)] = out.as_mut_slice() {
        *w = 1.0;
    }
    out
}

/// Each background layer's colour (far, middle, near) in a biome, by day.
pub fn biome_layers(biome: Biome) -> [[f32; 3]; LAYERS] {
    let c = |r: u8, g: u8, b: u8| [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0];
    match biome {
        Biome::Forest => [c(96, 138, 150), c(62, 128, 84), c(38, 98, 56)],
        Biome::Desert => [c(214, 146, 104), c(220, 178, 112), c(192, 142, 84)],
        Biome::Snow => [c(176, 196, 222), c(214, 226, 240), c(150, 172, 198)],
        Biome::Jungle => [c(70, 124, 112), c(36, 112, 78), c(22, 82, 52)],
        Biome::Ocean => [c(120, 160, 190), c(92, 146, 170), c(70, 124, 150)],
    }
}

/// A run of the surface's columns in one biome: `(first, end, biome)`.
pub type Run = (usize, usize, Biome);

/// The sky's texture and what it draws from.
#[derive(Default)]
pub struct Sky {
    layers: Option<Texture2D>,
    /// The pictures being made off the frame (tens of ms), until they are a texture.
    making: Option<std::thread::JoinHandle<Vec<u8>>>,
    /// The shown world's surface biomes as runs, by `(seed, width)`.
    runs: Option<((u64, usize), Vec<Run>)>,
}

impl Sky {
    /// Draws the sky behind world `l` for the camera. The sun, moon, stars, clouds and
    /// backgrounds are scenery for play (`scenery`) while the world fills the screen; the
    /// map view (and the lab) get the gradient alone, inside the world's own rectangle,
    /// where hills would read as terrain and bodies would spill past the world's edges.
    pub fn draw(&mut self, l: &Loaded, cam: &Camera, screen: (f32, f32), now: f64, scenery: bool) {
        let size = l.size();
        let vis = cam.visible_tiles(size, screen);
        if vis.x1 <= vis.x0 {
            return;
        }
        // No open sky on screen (deep underground): nothing to draw.
        let deepest = l.session.world.surface[vis.x0..vis.x1]
            .iter()
            .max()
            .copied()
            .unwrap_or(0);
        if deepest as usize <= vis.y0 {
            return;
        }
        let rules = &l.session.content.rules;
        let night = crate::sim::day::night(l.session.time_of_day, rules);
        let (top, horizon) = sky_colors(night);
        // The world's rectangle on screen, clipped to the screen.
        let a = cam.world_to_screen(screen, (0.0, 0.0));
        let b = cam.world_to_screen(screen, (size.0 as f64, size.1 as f64));
        let clip = (
            a.0.max(0.0),
            a.1.max(0.0),
            b.0.min(screen.0),
            b.1.min(screen.1),
        );
        let whole = clip == (0.0, 0.0, screen.0, screen.1);
        // The horizon: the mean surface over a wide stretch around the camera, so it does
        // not bob as the camera passes a hill.
        let cx = cam.cx.clamp(0.0, size.0 as f64 - 1.0) as usize;
        let (lo, hi) = (cx.saturating_sub(240), (cx + 240).min(size.0));
        let sample: Vec<u32> = l.session.world.surface[lo..hi]
            .iter()
            .step_by(8)
            .copied()
            .collect();
        let row = sample.iter().map(|&s| s as f64).sum::<f64>() / sample.len().max(1) as f64;
        let horizon_y = cam.world_to_screen(screen, (0.0, row)).1;
        let h = screen.1;
        draw_gradient(clip, horizon_y, h, top, horizon);
        if !whole || !scenery {
            return;
        }
        draw_stars(screen, horizon_y, night, now);
        let times = sun_times(rules.daylight);
        draw_sun_and_moon(l.session.time_of_day, times, screen, horizon_y);
        let cam_px = cam.cx * cam.zoom;
        draw_clouds(screen, horizon_y, cam_px, night, horizon, now);
        // Backgrounds fade out as the view goes underground.
        let below = (cam.cy - row) as f32 - h / cam.zoom as f32 * 0.25;
        let fade = (1.0 - below / FADE_TILES).clamp(0.0, 1.0);
        if fade <= 0.0 {
            return;
        }
        let key = (l.session.world.seed, size.0);
        if self.runs.as_ref().is_none_or(|(k, _)| *k != key) {
            let map = BiomeMap::new(&l.session.world.preset, l.session.world.seed);
            self.runs = Some((key, map.runs()));
        }
        let runs = &self.runs.as_ref().expect("set above").1;
        let shares = biome_shares(runs, cam.cx, BLEND_HALF);
        let Some(tex) = self.backgrounds() else {
            return;
        };
        draw_backgrounds(
            &tex,
            &shares,
            (horizon, night, fade),
            cam_px,
            screen,
            horizon_y,
        );
    }

    /// The backgrounds' pictures as one texture, once made: they are made on a thread of
    /// their own the first time a sky with backgrounds is drawn; until they are ready the
    /// sky goes without them.
    fn backgrounds(&mut self) -> Option<Texture2D> {
        if self.layers.is_none() {
            let making = self.making.get_or_insert_with(|| {
                std::thread::spawn(|| {
                    let started = std::time::Instant::now();
                    let px = layer_pixels();
                    log::debug!(
                        "backgrounds: {} pictures made in {:.1} ms",
                        SCENES.len() * LAYERS,
                        started.elapsed().as_secs_f64() * 1e3
                    );
                    px
                })
            });
            if !making.is_finished() {
                return None;
            }
            let px = match self.making.take().map(|m| m.join()) {
                Some(Ok(px)) => px,
                // A panic making them: retry next frame rather than never.
                _ => return None,
            };
            let rows = LAYER_H * LAYERS * SCENES.len() + SOLID_ROWS;
            let t = Texture2D::from_rgba8(LAYER_W as u16, rows as u16, &px);
            t.set_filter(FilterMode::Nearest);
            self.layers = Some(t);
        }
        self.layers.clone()
    }
}

/// The sun by day and the moon by night on their arcs over the horizon (`times`: when the
/// sun rises and sets).
fn draw_sun_and_moon(
    time_of_day: f32,
    (rise, set): (f32, f32),
    screen: (f32, f32),
    horizon_y: f32,
) {
    let h = screen.1;
    let body_at = |(along, up): (f32, f32)| {
        let base = horizon_y.min(h * 0.75);
        (
            screen.0 * (0.08 + 0.84 * along),
            base - up * (base - h * 0.12).max(h * 0.2),
        )
    };
    if let Some(p) = arc(time_of_day, rise, set) {
        let (x, y) = body_at(p);
        let warm = 1.0 - p.1.min(0.5) * 2.0;
        let r = h * 0.04;
        draw_circle(x, y, r * 2.2, Color::new(1.0, 0.9, 0.6, 0.18));
        draw_circle(
            x,
            y,
            r,
            Color::new(1.0, 0.95 - 0.25 * warm, 0.7 - 0.35 * warm, 1.0),
        );
    }
    if let Some(p) = arc(time_of_day, set, rise) {
        let (x, y) = body_at(p);
        let r = h * 0.032;
        draw_circle(x, y, r * 2.0, Color::new(0.7, 0.78, 1.0, 0.12));
        draw_circle(x, y, r, Color::new(0.88, 0.9, 0.95, 1.0));
        let dark = Color::new(0.74, 0.76, 0.84, 1.0);
        draw_circle(x - r * 0.35, y - r * 0.2, r * 0.22, dark);
        draw_circle(x + r * 0.3, y + r * 0.35, r * 0.16, dark);
    }
}

/// The three parallax layers of every biome in view (`shares`), cross-faded, each over its
/// ground going down; `look`: the horizon's colour, the night (0..1) and the fade with depth.
fn draw_backgrounds(
    tex: &Texture2D,
    shares: &[(Biome, f32)],
    (horizon, night, fade): ([f32; 3], f32, f32),
    cam_px: f64,
    screen: (f32, f32),
    horizon_y: f32,
) {
    let h = screen.1;
    let k = (h / 360.0).round().max(1.0);
    let (tw, th) = (LAYER_W as f32 * k, LAYER_H as f32 * k);
    // Each layer's colour in biome `b`, hazed toward the horizon and darkened by night.
    let tint = |b: Biome, layer: usize| {
        let hazed = mix3(
            biome_layers(b)[layer],
            horizon,
            HAZE[layer] * (1.0 - night * 0.5),
        );
        let dark = mix3(hazed, [0.02, 0.03, 0.08], 0.82);
        mix3(hazed, dark, night)
    };
    for layer in 0..LAYERS {
        let (lo, hi) = BASE_BAND[layer];
        let base = (h / 2.0 + (horizon_y - h / 2.0) * PARALLAX_Y[layer] - LIFT[layer] * h)
            .clamp(h * lo, h * hi);
        let x0 = parallax_offset(cam_px, PARALLAX[layer], tw);
        // Every biome in view draws its own picture, faded by its share, in one
        // order (so the mix changes smoothly as the shares do).
        for &(b, a) in &cross_fade(shares) {
            let c = tint(b, layer);
            let color = Color::new(c[0], c[1], c[2], fade * a);
            let params = DrawTextureParams {
                dest_size: Some(vec2(tw, th)),
                source: Some(Rect::new(
                    0.0,
                    picture_row(b, layer) as f32,
                    LAYER_W as f32,
                    LAYER_H as f32,
                )),
                ..Default::default()
            };
            let mut x = x0;
            while x < screen.0 {
                draw_texture_ex(tex, x.round(), (base - th).round(), color, params.clone());
                x += tw;
            }
        }
        let c = shares.iter().fold([0.0; 3], |acc, &(b, w)| {
            let c = tint(b, layer);
            std::array::from_fn(|i| acc[i] + c[i] * w)
        });
        // Under the layer's picture its ground goes on down, darkening with depth.
        const STEPS: usize = 8;
        let band = h * 0.05;
        for i in 0..=STEPS {
            let y = (base + band * i as f32).round();
            if y >= h {
                break;
            }
            let f = 0.84 - 0.3 * i as f32 / STEPS as f32;
            let tall = if i == STEPS { h - y } else { band.ceil() + 1.0 };
            let fill = Color::new(c[0] * f, c[1] * f, c[2] * f, fade);
            let solid = DrawTextureParams {
                dest_size: Some(vec2(screen.0, tall)),
                source: Some(Rect::new(
                    1.0,
                    (LAYER_H * LAYERS * SCENES.len() + 1) as f32,
                    2.0,
                    2.0,
                )),
                ..Default::default()
            };
            draw_texture_ex(tex, 0.0, y, fill, solid);
        }
    }
}

/// The sky's gradient in bands inside `clip` (x0, y0, x1, y1): `top` a screen height above
/// the horizon and higher, `horizon` at and below it.
fn draw_gradient(
    clip: (f32, f32, f32, f32),
    horizon_y: f32,
    h: f32,
    top: [f32; 3],
    horizon: [f32; 3],
) {
    const BANDS: usize = 24;
    let (x0, y0, x1, y1) = clip;
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let start = horizon_y - h * 0.9;
    let band = (horizon_y - start) / BANDS as f32;
    let color = |c: [f32; 3]| Color::new(c[0], c[1], c[2], 1.0);
    // Above the gradient and below it: flat.
    if start > y0 {
        draw_rectangle(x0, y0, x1 - x0, start.min(y1) - y0, color(top));
    }
    for i in 0..BANDS {
        let (a, b) = (start + band * i as f32, start + band * (i + 1) as f32);
        let (a, b) = (a.max(y0), b.min(y1));
        if b > a {
            let t = (i as f32 + 0.5) / BANDS as f32;
            draw_rectangle(x0, a, x1 - x0, b - a, color(mix3(top, horizon, t * t)));
        }
    }
    if horizon_y < y1 {
        let a = horizon_y.max(y0);
        draw_rectangle(x0, a, x1 - x0, y1 - a, color(horizon));
    }
}

/// Stars at night, fading in with the night and twinkling.
fn draw_stars(screen: (f32, f32), horizon_y: f32, night: f32, now: f64) {
    if night <= 0.05 {
        return;
    }
    let h = screen.1;
    for i in 0..90u32 {
        let x = unit(i, 1) * screen.0;
        let y = horizon_y - h * (0.2 + 0.8 * unit(i, 2));
        let twinkle = 0.7 + 0.3 * ((now as f32) * (1.0 + unit(i, 3) * 2.0) + i as f32).sin();
        let a = night * night * twinkle;
        let side = if unit(i, 4) > 0.85 { 3.0 } else { 2.0 };
        draw_rectangle(
            x.round(),
            y.round(),
            side,
            side,
            Color::new(1.0, 1.0, 0.95, a),
        );
    }
}

/// Clouds: a dozen clusters of round puffs drifting right, a little parallax with the
/// camera; white by day, tinted at dawn and dusk, dim at night.
fn draw_clouds(
    screen: (f32, f32),
    horizon_y: f32,
    cam_px: f64,
    night: f32,
    horizon: [f32; 3],
    now: f64,
) {
    let h = screen.1;
    let margin = h * 0.4;
    let span = screen.0 + 2.0 * margin;
    let glow = 1.0 - (2.0 * night - 1.0).abs();
    let day = mix3([1.0, 1.0, 1.0], horizon, glow * 0.6);
    let c = mix3(day, [0.16, 0.19, 0.3], night);
    for i in 0..12u32 {
        let size = h * (0.025 + 0.03 * unit(i, 11));
        let speed = 4.0 + 10.0 * unit(i, 12);
        let drift = unit(i, 13) as f64 * span as f64 + now * speed as f64 - cam_px * 0.03;
        let x = drift.rem_euclid(span as f64) as f32 - margin;
        let y = horizon_y - h * (0.3 + 0.45 * unit(i, 14));
        // Opaque: overlapping translucent puffs would show their seams.
        let color = Color::new(c[0], c[1], c[2], 1.0);
        let puffs = 3 + hash(i, 15) % 3;
        // A flat, shaded underside first, the round puffs over it.
        let w = size * 1.1 * (puffs - 1) as f32;
        let under = Color::new(c[0] * 0.86, c[1] * 0.88, c[2] * 0.94, 1.0);
        draw_rectangle(x - w / 2.0, y - size * 0.3, w, size * 0.8, under);
        for p in 0..puffs {
            let dx = (p as f32 - (puffs - 1) as f32 / 2.0) * size * 1.1;
            let r = size * (0.8 + 0.5 * unit(i * 8 + p, 16));
            draw_circle(x + dx, y - r * 0.3, r, color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::rules::Rules;

    #[test]
    fn noon_and_midnight_skies_differ_and_dusk_glows() {
        let r = Rules::default();
        let (noon_top, noon_h) = sky_colors(crate::sim::day::night(0.5, &r));
        let (mid_top, mid_h) = sky_colors(crate::sim::day::night(0.0, &r));
        let near = |a: [f32; 3], b: [f32; 3]| (0..3).all(|i| (a[i] - b[i]).abs() < 1e-4);
        assert!(near(noon_top, DAY_TOP) && near(noon_h, DAY_HORIZON));
        assert!(near(mid_top, NIGHT_TOP) && near(mid_h, NIGHT_HORIZON));
        // Blue by day and by night, brighter by day.
        assert!(noon_top[2] > noon_top[0] && mid_top[2] > mid_top[0] + 0.08);
        assert!(noon_top.iter().sum::<f32>() > 3.0 * mid_top.iter().sum::<f32>());
        // At dusk the horizon is warm: more red than blue.
        let (_, dusk) = sky_colors(0.5);
        assert!(dusk[0] > dusk[2], "{dusk:?}");
    }

    #[test]
    fn the_sun_crosses_by_day_and_the_moon_by_night() {
        let r = Rules::default();
        let (rise, set) = sun_times(r.daylight);
        let (along, up) = arc(0.5, rise, set).unwrap();
        assert!(
            (along - 0.5).abs() < 1e-5 && (up - 1.0).abs() < 1e-5,
            "noon: top centre"
        );
        assert_eq!(arc(0.0, rise, set), None, "no sun at midnight");
        let (along, up) = arc(0.0, set, rise).unwrap();
        assert!(
            (along - 0.5).abs() < 1e-5 && (up - 1.0).abs() < 1e-5,
            "the moon at midnight"
        );
        assert_eq!(arc(0.5, set, rise), None, "no moon at noon");
        // Morning: low on the left, rising; evening: low on the right.
        let (a, u) = arc(rise + 0.02, rise, set).unwrap();
        let (a2, u2) = arc(rise + 0.04, rise, set).unwrap();
        assert!(a < 0.1 && u < 0.3 && a2 > a && u2 > u);
        let (a, u) = arc(set - 0.02, rise, set).unwrap();
        assert!(a > 0.9 && u < 0.3);
        // At dawn's middle (half night) the sun is up, but low.
        let dawn = 0.5 - r.daylight / 2.0;
        assert!(arc(dawn, rise, set).is_some_and(|(_, u)| u < 0.25));
        // One body or the other is always up.
        for i in 0..200 {
            let t = i as f32 / 200.0;
            assert!(
                arc(t, rise, set).is_some() || arc(t, set, rise).is_some(),
                "{t}"
            );
        }
    }

    #[test]
    fn parallax_layers_move_slower_than_the_world_and_repeat() {
        assert_eq!(parallax_offset(0.0, 0.2, 100.0), 0.0);
        assert!((parallax_offset(50.0, 0.2, 100.0) + 10.0).abs() < 1e-4);
        // A camera 500 px on moves the layer 100 px: one whole period, back to 0.
        assert!(parallax_offset(500.0, 0.2, 100.0).abs() < 1e-3);
        for cam in [-1234.5, 0.5, 77.0, 1e6] {
            let o = parallax_offset(cam, 0.3, 256.0);
            assert!(o <= 0.0 && o > -256.0, "{cam}: {o}");
        }
        // Near layers move more than far ones.
        assert!(PARALLAX.windows(2).all(|p| p[0] < p[1] && p[1] < 1.0));
    }

    #[test]
    fn backgrounds_blend_across_a_biome_edge() {
        let runs = vec![
            (0, 100, Biome::Ocean),
            (100, 500, Biome::Forest),
            (500, 900, Biome::Desert),
        ];
        assert_eq!(biome_shares(&runs, 300.0, 80.0), vec![(Biome::Forest, 1.0)]);
        let at = |x: f64, b: Biome| {
            let s = biome_shares(&runs, x, 80.0);
            let total: f32 = s.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-5, "{x}: {s:?}");
            s.iter().find(|p| p.0 == b).map_or(0.0, |p| p.1)
        };
        assert!(
            (at(500.0, Biome::Desert) - 0.5).abs() < 1e-5,
            "half way at the edge"
        );
        assert!(at(460.0, Biome::Desert) < at(480.0, Biome::Desert));
        assert!(at(540.0, Biome::Desert) > 0.7 && at(600.0, Biome::Desert) == 1.0);
        // The world's ends take their nearest run; no runs give no colour.
        assert_eq!(biome_shares(&runs, -500.0, 80.0), vec![(Biome::Ocean, 1.0)]);
        assert_eq!(
            biome_shares(&runs, 5000.0, 80.0),
            vec![(Biome::Desert, 1.0)]
        );
        assert!(biome_shares(&[], 10.0, 80.0).is_empty());
    }

    #[test]
    fn crossing_a_biome_edge_fades_one_picture_into_the_other_smoothly() {
        let (f, d) = (Biome::Forest, Biome::Desert);
        assert_eq!(cross_fade(&[(d, 1.0)]), vec![(d, 1.0)]);
        // The same order whichever has more of the view, each at its share.
        assert_eq!(cross_fade(&[(d, 0.7), (f, 0.3)]), vec![(f, 0.3), (d, 0.7)]);
        assert_eq!(cross_fade(&[(f, 0.7), (d, 0.3)]), vec![(f, 0.7), (d, 0.3)]);
        assert_eq!(cross_fade(&[(f, 1.0), (d, 0.0)]), vec![(f, 1.0)]);
        // Walking from the forest into the desert: where both pictures cover the sky the
        // colour mixes as w_d * D + (1 - w_d) * (w_f * F + (1 - w_f) * sky), which changes
        // a little for each small step, with no jump where the shares cross a half.
        let runs = [(0, 1000, f), (1000, 2000, d)];
        let mix = |x: f64| {
            let s = cross_fade(&biome_shares(&runs, x, BLEND_HALF));
            let (sky, pf, pd) = (0.0, 0.3, 1.0);
            s.iter().fold(sky, |under, &(b, a)| {
                let p = if b == f { pf } else { pd };
                p * a + under * (1.0 - a)
            })
        };
        let mut last = mix(850.0);
        assert!((last - 0.3f32).abs() < 1e-6, "the forest alone");
        for step in 1..=300 {
            let now = mix(850.0 + step as f64);
            assert!(
                (now - last).abs() < 0.02,
                "a jump at {}: {last} to {now}",
                850 + step
            );
            last = now;
        }
        assert!((last - 1.0).abs() < 1e-6, "the desert alone");
    }
}
