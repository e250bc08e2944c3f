//! Light on screen: a darkness texture, one texel per tile, over the visible tiles (plus a
//! margin), drawn over the world with linear filtering so light fades smoothly between
//! tiles. The levels come from the world's [`LightMap`] (computed with the world on the
//! worker and relit around each edit) with the player's own light added; the texture is
//! rebuilt only when the view leaves its margin, the light changed or the player moved to
//! another tile. Far zoom (more than [`LIT_MAX_TILES`] on screen) shows the world unlit.

use super::camera::{Camera, TileRange};
use super::state::Loaded;
use crate::light::{LightMap, MAX_LIGHT};
use macroquad::prelude::*;

/// Above this many visible tiles the world is drawn unlit (a view of the map, not play).
pub const LIT_MAX_TILES: usize = 120_000;
/// Tiles of margin built around the view, so small camera moves reuse the texture.
pub const MARGIN: usize = 12;

/// Darkness (alpha of black, 0..=255) for a light level: none in full light, opaque at 0.
/// `(1 - l/15)^1.5` keeps dim light readable and the last few levels near black.
pub fn darkness(level: u8) -> u8 {
    let b = level.min(MAX_LIGHT) as f32 / MAX_LIGHT as f32;
    (255.0 * (1.0 - b).powf(1.5)).round() as u8
}

/// RGBA darkness texels of the tiles `range` (half-open), with the player's light.
pub fn fill(light: &LightMap, range: &TileRange, player_centre: (f32, f32), out: &mut Vec<u8>) {
    let table: [u8; MAX_LIGHT as usize + 1] = std::array::from_fn(|l| darkness(l as u8));
    out.clear();
    out.reserve(range.count() * 4);
    let near = |x: usize, y: usize| {
        let (px, py) = (player_centre.0 as i64, player_centre.1 as i64);
        (x as i64 - px).abs() + (y as i64 - py).abs() < crate::light::PLAYER as i64
    };
    for y in range.y0..range.y1 {
        let row = &light.levels()[y * light.width()..][range.x0..range.x1];
        for (i, &l) in row.iter().enumerate() {
            let x = range.x0 + i;
            let l = if near(x, y) {
                light.get_with_player(x, y, player_centre)
            } else {
                l
            };
            out.extend_from_slice(&[0, 0, 0, table[l as usize]]);
        }
    }
}

/// The range to build for a view: the visible tiles and a margin, clamped to the world.
pub fn with_margin(v: &TileRange, size: (usize, usize)) -> TileRange {
    TileRange {
        x0: v.x0.saturating_sub(MARGIN),
        y0: v.y0.saturating_sub(MARGIN),
        x1: (v.x1 + MARGIN).min(size.0),
        y1: (v.y1 + MARGIN).min(size.1),
    }
}

fn covers(outer: &TileRange, inner: &TileRange) -> bool {
    outer.x0 <= inner.x0 && outer.y0 <= inner.y0 && outer.x1 >= inner.x1 && outer.y1 >= inner.y1
}

/// The darkness texture and what it was built from.
#[derive(Default)]
pub struct LightView {
    tex: Option<Texture2D>,
    range: Option<TileRange>,
    key: (u64, (i64, i64), usize),
    buf: Vec<u8>,
    /// Time of the last rebuild (for the overlay and measurements).
    pub last_build: std::time::Duration,
}

impl LightView {
    /// Brings the texture up to date for the visible tiles `vis`; `world_id` tells worlds
    /// apart (their light versions all start at 0).
    pub fn update(&mut self, l: &Loaded, vis: &TileRange, world_id: usize) {
        if vis.count() > LIT_MAX_TILES || vis.count() == 0 {
            self.range = None;
            return;
        }
        let c = l.player.centre();
        let key = (l.light_version, (c.0 as i64, c.1 as i64), world_id);
        if key == self.key && self.range.is_some_and(|r| covers(&r, vis)) {
            return;
        }
        let start = std::time::Instant::now();
        let range = with_margin(vis, l.size());
        fill(&l.light, &range, c, &mut self.buf);
        let (w, h) = ((range.x1 - range.x0) as u16, (range.y1 - range.y0) as u16);
        match &self.tex {
            Some(t) if t.width() as u16 == w && t.height() as u16 == h => {
                t.update_from_bytes(w as u32, h as u32, &self.buf);
            }
            _ => {
                let tex = Texture2D::from_rgba8(w, h, &self.buf);
                tex.set_filter(FilterMode::Linear);
                self.tex = Some(tex);
            }
        }
        self.range = Some(range);
        self.key = key;
        self.last_build = start.elapsed();
    }

    /// Draws the darkness over the world (call after the world, before the UI).
    pub fn draw(&self, cam: &Camera, screen: (f32, f32)) {
        let (Some(tex), Some(r)) = (&self.tex, self.range) else {
            return;
        };
        let (a, b) = (
            cam.world_to_screen(screen, (r.x0 as f64, r.y0 as f64)),
            cam.world_to_screen(screen, (r.x1 as f64, r.y1 as f64)),
        );
        let (x0, y0, x1, y1) = (a.0.round(), a.1.round(), b.0.round(), b.1.round());
        let params = DrawTextureParams {
            dest_size: Some(vec2(x1 - x0, y1 - y0)),
            ..Default::default()
        };
        draw_texture_ex(tex, x0, y0, WHITE, params);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    #[test]
    fn darkness_falls_with_light() {
        assert_eq!(darkness(MAX_LIGHT), 0);
        assert_eq!(darkness(0), 255);
        assert_eq!(darkness(200), 0);
        for l in 1..=MAX_LIGHT {
            assert!(darkness(l) < darkness(l - 1));
        }
        // The player's light leaves its own tile clearly visible.
        assert!(darkness(crate::light::PLAYER) < 128);
    }

    #[test]
    fn texels_follow_the_map_and_the_player() {
        // A box sealed by five rows of rock: dark inside, except around the player.
        let w = World::from_ascii(&[
            "          ",
            "##########",
            "##########",
            "##########",
            "##########",
            "##########",
            "#        #",
            "#        #",
            "##########",
        ])
        .unwrap();
        let light = LightMap::compute(&w);
        let all = TileRange {
            x0: 0,
            y0: 0,
            x1: 10,
            y1: 9,
        };
        let mut out = Vec::new();
        fill(&light, &all, (-100.0, -100.0), &mut out);
        assert_eq!(out.len(), 10 * 9 * 4);
        let alpha = |out: &Vec<u8>, x: usize, y: usize| out[(y * 10 + x) * 4 + 3];
        assert_eq!(alpha(&out, 3, 0), 0, "sky");
        assert_eq!(alpha(&out, 8, 7), 255, "sealed cave is dark");
        fill(&light, &all, (8.5, 7.5), &mut out);
        assert_eq!(alpha(&out, 8, 7), darkness(crate::light::PLAYER));
        assert!(alpha(&out, 6, 7) < 255 && alpha(&out, 6, 7) > alpha(&out, 8, 7));
        // A sub-range is the same texels.
        let part = TileRange {
            x0: 2,
            y0: 1,
            x1: 5,
            y1: 3,
        };
        let mut sub = Vec::new();
        fill(&light, &part, (8.5, 7.5), &mut sub);
        assert_eq!(sub[3], alpha(&out, 2, 1));
        assert_eq!(sub.len(), 3 * 2 * 4);
    }

    #[test]
    fn margin_is_clamped() {
        let v = TileRange {
            x0: 5,
            y0: 100,
            x1: 80,
            y1: 140,
        };
        let m = with_margin(&v, (90, 145));
        assert_eq!((m.x0, m.y0, m.x1, m.y1), (0, 88, 90, 145));
        assert!(covers(&m, &v));
    }
}
