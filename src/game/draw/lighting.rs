//! Light on screen: a darkness texture, one texel per tile, over the visible tiles (plus a
//! margin), drawn over the world with linear filtering so light fades smoothly between
//! tiles. The levels come from the world's [`LightMap`] (computed with the world on the
//! worker and relit around each edit) with the player's own light added; the texture is
//! rebuilt only when the view leaves its margin, the light changed or the player moved to
//! another tile. Far zoom (more than [`LIT_MAX_TILES`] on screen) shows the world unlit.

use super::camera::{Camera, TileRange};
use crate::game::worlds::state::Loaded;
use crate::sim::light::{LightMap, MAX_LIGHT};
use crate::sim::light::{MAX_SUB, SUB};
use crate::world::{Tile, World};
use macroquad::prelude::*;

/// Above this many visible tiles the world is drawn unlit (a view of the map, not play).
pub const LIT_MAX_TILES: usize = 120_000;
/// Tiles of margin built around the view, so small camera moves reuse the texture.
pub const MARGIN: usize = 12;

/// Darkness (alpha of black, 0..=255) for a light level: none in full light, opaque at 0.
/// `(1 - l/15)^1.5` keeps dim light readable and the last few levels near black.
pub fn darkness(level: u8) -> u8 {
    darkness_sub(level.min(MAX_LIGHT) * SUB)
}

/// [`darkness`] of a sub-level ([`crate::sim::light::SUB`]-ths of a level), the finer
/// steps the light spreads in.
pub fn darkness_sub(sub: u8) -> u8 {
    let b = sub.min(MAX_SUB) as f32 / MAX_SUB as f32;
    (255.0 * (1.0 - b).powf(1.5)).round() as u8
}

/// Sunlight at night: the sun's light capped at `sun` (a level), the light of torches and
/// lava (`emitted`, sub-levels over the same range) kept whole, and a blue tint of `tint` (0..1) on what the
/// night darkened (see [`night_rgb`]).
pub struct Night<'a> {
    pub sun: u8,
    pub emitted: &'a [u8],
    pub tint: f32,
}

/// The night sky's blue at full night, blended over the world with the darkness alpha.
pub const NIGHT_BLUE: [f32; 3] = [6.0, 10.0, 40.0];

/// Colour of a darkness texel at night: `day` and `night` are its darkness (alpha) by day
/// and at night. Drawn as `rgb * a + world * (1 - a)` with `a = night`, the world shows
/// as dark as the night makes it, and the blue covers only the part of the darkness the
/// night added, so the night tints only what sunlight reaches: unlit rock deep down is
/// as black at night as by day, and so is a sealed room a torch lights.
pub fn night_rgb(day: u8, night: u8, tint: f32) -> [u8; 3] {
    if night == 0 {
        return [0; 3];
    }
    let share = night.saturating_sub(day) as f32 / night as f32 * tint;
    NIGHT_BLUE.map(|c| (c * share).round() as u8)
}

/// The colours of emitted light over a range: each texel's light sub-level from torches
/// alone and from lava alone (as [`emitted_by`] spreads them).
pub struct Glow<'a> {
    pub torch: &'a [u8],
    pub lava: &'a [u8],
}

/// A torch's warm light, as the colour its darkness texels lean to.
pub const TORCH_RGB: [f32; 3] = [160.0, 88.0, 20.0];
/// Lava's orange-red light.
pub const LAVA_RGB: [f32; 3] = [150.0, 40.0, 8.0];
/// Alpha of the coloured cast where a torch's light is whole.
pub const GLOW_ALPHA: f32 = 80.0;

/// The texel `rgba` (from the darkness and the night) lit by `level` (the sub-level shown)
/// of which `torch` and `lava` are the emitted parts: where the brightest of them
/// lights the texel (within a level), its colour tints it, stronger the nearer the
/// source, and a faint cast of it covers even what it lights fully. Elsewhere (sun,
/// moon, the player's own light) the texel is unchanged.
pub fn tint(rgba: [u8; 4], level: u8, torch: u8, lava: u8) -> [u8; 4] {
    let src = torch.max(lava);
    if src == 0 || src + SUB < level {
        return rgba;
    }
    let w = src as f32 / MAX_SUB as f32;
    let c = if lava > torch { LAVA_RGB } else { TORCH_RGB };
    let k = w.sqrt();
    let mix = |a: u8, b: f32| (a as f32 + (b * k - a as f32) * k).round() as u8;
    let alpha = rgba[3].max((GLOW_ALPHA * w).round() as u8);
    [
        mix(rgba[0], c[0]),
        mix(rgba[1], c[1]),
        mix(rgba[2], c[2]),
        alpha,
    ]
}

/// RGBA darkness texels of the tiles `range` (half-open), with the player's light; at
/// night sunlight is capped (torches and lava keep their light) and what it darkened is
/// tinted blue; with `glow`, what torches and lava light takes their colours ([`tint`]).
pub fn fill(
    light: &LightMap,
    range: &TileRange,
    player_centre: (f32, f32),
    shown: (Option<&Night>, Option<&Glow>),
    out: &mut Vec<u8>,
) {
    let player = (player_centre, crate::sim::light::PLAYER);
    fill_with(light, range, player, shown, out);
}

/// [`fill`] with the player's light carried at `player.0` with strength `player.1`
/// ([`crate::sim::light::players_light`]: a mining helmet's is brighter, at the head).
pub fn fill_with(
    light: &LightMap,
    range: &TileRange,
    (player_centre, strength): ((f32, f32), u8),
    (night, glow): (Option<&Night>, Option<&Glow>),
    out: &mut Vec<u8>,
) {
    let table: [u8; MAX_SUB as usize + 1] = std::array::from_fn(|l| darkness_sub(l as u8));
    out.clear();
    out.reserve(range.count() * 4);
    let near = |x: usize, y: usize| {
        let (px, py) = (player_centre.0 as i64, player_centre.1 as i64);
        (x as i64 - px).abs().max((y as i64 - py).abs()) < strength as i64
    };
    let w = range.x1 - range.x0;
    for y in range.y0..range.y1 {
        let row = &light.levels()[y * light.width()..][range.x0..range.x1];
        for (i, &day) in row.iter().enumerate() {
            let x = range.x0 + i;
            let mine = near(x, y).then(|| {
                crate::sim::light::carried_light_sub(player_centre, strength, x as i64, y as i64)
            });
            let lit = |l: u8| mine.map_or(l, |p| l.max(p));
            let (day, l) = match night {
                Some(n) => (
                    lit(day),
                    lit(day.min(n.sun * SUB).max(n.emitted[(y - range.y0) * w + i])),
                ),
                None => (lit(day), lit(day)),
            };
            let a = table[l as usize];
            let rgb = night.map_or([0; 3], |n| night_rgb(table[day as usize], a, n.tint));
            let px = match glow {
                Some(g) => {
                    let k = (y - range.y0) * w + i;
                    tint([rgb[0], rgb[1], rgb[2], a], l, g.torch[k], g.lava[k])
                }
                None => [rgb[0], rgb[1], rgb[2], a],
            };
            out.extend_from_slice(&px);
        }
    }
}

/// Light sub-levels over `range` (half-open) from torches and lava alone, those up to
/// [`MAX_LIGHT`] tiles outside it included, spread as [`LightMap`] spreads light.
pub fn emitted(world: &World, range: &TileRange) -> Vec<u8> {
    emitted_by(world, range, |_| true)
}

/// [`emitted`] from the emitting tiles that `from` takes alone (torches, or lava).
pub fn emitted_by(world: &World, range: &TileRange, from: impl Fn(Tile) -> bool) -> Vec<u8> {
    let m = MAX_LIGHT as usize;
    let (x0, y0) = (range.x0.saturating_sub(m), range.y0.saturating_sub(m));
    let (x1, y1) = (
        (range.x1 + m).min(world.width()),
        (range.y1 + m).min(world.height()),
    );
    let (w, h) = (x1 - x0, y1 - y0);
    let mut lv = vec![0u8; w * h];
    let mut solid = vec![false; w * h];
    let mut buckets = crate::sim::light::buckets();
    for y in y0..y1 {
        for (i, &t) in world.row(y)[x0..x1].iter().enumerate() {
            let at = (y - y0) * w + i;
            solid[at] = t.is_solid();
            let e = crate::sim::light::sub(crate::sim::light::emits(t));
            if e > 0 && from(t) {
                lv[at] = e;
                buckets[e as usize].push(at as u32);
            }
        }
    }
    crate::sim::light::settle(&mut lv, (w, h), |j| solid[j], |_, _| true, &mut buckets);
    let mut out = Vec::with_capacity(range.count());
    for y in range.y0..range.y1 {
        let row = (y - y0) * w;
        out.extend_from_slice(&lv[row + range.x0 - x0..row + range.x1 - x0]);
    }
    out
}

/// Clears the texels of the open sky (air above its column's surface) in `out`, the
/// texels of `range` from [`fill`]: the sky behind the world ([`super::sky`]) shows its
/// own night, and the overlay darkens only the world (its soft edge, a half tile over the
/// sky, is the ground's shadow).
pub fn clear_open_sky(world: &World, range: &TileRange, out: &mut [u8]) {
    let w = range.x1 - range.x0;
    let surface = &world.surface[range.x0..range.x1];
    for y in range.y0..range.y1 {
        let row = &world.row(y)[range.x0..range.x1];
        let texels = &mut out[(y - range.y0) * w * 4..][..w * 4];
        for ((px, &t), &top) in texels.chunks_exact_mut(4).zip(row).zip(surface) {
            if t == crate::world::Tile::Air && (y as u32) < top {
                px.copy_from_slice(&[0; 4]);
            }
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
    key: (u64, (i64, i64), usize, u8),
    buf: Vec<u8>,
    /// Time of the last rebuild (for the overlay and measurements).
    pub last_build: std::time::Duration,
    /// Rebuilds so far, their total and longest time (the `--frames` summary).
    pub builds: u64,
    pub build_total: std::time::Duration,
    pub build_max: std::time::Duration,
}

/// The light the player carries ([`crate::sim::light::players_light`]): none on the death
/// screen, where no body is drawn.
pub fn carried(me: &crate::sim::session::Seat) -> ((f32, f32), u8) {
    let (c, strength) =
        crate::sim::light::players_light(me.body.centre(), me.inventory.head_light());
    (c, if me.death.is_some() { 0 } else { strength })
}

impl LightView {
    /// Brings the texture up to date for the visible tiles `vis`; `world_id` tells worlds
    /// apart (their light versions all start at 0).
    pub fn update(&mut self, l: &Loaded, vis: &TileRange, world_id: usize) {
        if vis.count() > LIT_MAX_TILES || vis.count() == 0 {
            self.range = None;
            return;
        }
        let (c, strength) = carried(l.session.me());
        let rules = &l.session.content.rules;
        let sun = crate::sim::day::sun_level(l.session.time_of_day, rules);
        let key = (
            l.session.light_version,
            (c.0 as i64, c.1 as i64),
            world_id,
            sun ^ strength << 4,
        );
        if key == self.key && self.range.is_some_and(|r| covers(&r, vis)) {
            return;
        }
        let start = std::time::Instant::now();
        let range = with_margin(vis, l.size());
        let torch = emitted_by(&l.session.world, &range, |t| {
            matches!(t, Tile::Torch | Tile::GlowMushroom)
        });
        let lava = emitted_by(&l.session.world, &range, |t| {
            matches!(t, Tile::Lava | Tile::Hellstone)
        });
        // All emitted light: the brighter of the two (light spreads as a maximum).
        let lit: Option<Vec<u8>> = (sun < crate::sim::light::SUN)
            .then(|| torch.iter().zip(&lava).map(|(a, b)| *a.max(b)).collect());
        let night = lit.as_deref().map(|emitted| Night {
            sun,
            emitted,
            tint: crate::sim::day::night(l.session.time_of_day, rules),
        });
        let glow = Glow {
            torch: &torch,
            lava: &lava,
        };
        fill_with(
            &l.session.light,
            &range,
            (c, strength),
            (night.as_ref(), Some(&glow)),
            &mut self.buf,
        );
        clear_open_sky(&l.session.world, &range, &mut self.buf);
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
        self.builds += 1;
        self.build_total += self.last_build;
        self.build_max = self.build_max.max(self.last_build);
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
        assert!(darkness(crate::sim::light::PLAYER) < 128);
    }

    #[test]
    fn the_dead_carry_no_light() {
        let mut s = crate::sim::session::Session::new(World::new(20, 20, 0, Default::default()));
        let me = s.me_mut();
        me.body.pos = (10.5, 10.0);
        let (at, strength) = carried(me);
        assert_eq!(
            (at, strength),
            (me.body.centre(), crate::sim::light::PLAYER)
        );
        me.death = Some(crate::sim::session::Death {
            text: "You were slain by a slime".into(),
            until: 600,
        });
        assert_eq!(carried(me).1, 0);
        let (x, y) = (at.0 as i64, at.1 as i64);
        assert_eq!(
            crate::sim::light::carried_light_sub(at, 0, x, y),
            0,
            "nothing lit"
        );
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
        fill(&light, &all, (-100.0, -100.0), (None, None), &mut out);
        assert_eq!(out.len(), 10 * 9 * 4);
        let alpha = |out: &Vec<u8>, x: usize, y: usize| out[(y * 10 + x) * 4 + 3];
        assert_eq!(alpha(&out, 3, 0), 0, "sky");
        assert_eq!(alpha(&out, 8, 7), 255, "sealed cave is dark");
        fill(&light, &all, (8.5, 7.5), (None, None), &mut out);
        assert_eq!(alpha(&out, 8, 7), darkness(crate::sim::light::PLAYER));
        assert!(alpha(&out, 6, 7) < 255 && alpha(&out, 6, 7) > alpha(&out, 8, 7));
        // A sub-range is the same texels.
        let part = TileRange {
            x0: 2,
            y0: 1,
            x1: 5,
            y1: 3,
        };
        let mut sub = Vec::new();
        fill(&light, &part, (8.5, 7.5), (None, None), &mut sub);
        assert_eq!(sub[3], alpha(&out, 2, 1));
        assert_eq!(sub.len(), 3 * 2 * 4);
    }

    #[test]
    fn nights_dim_the_sky_but_not_torches() {
        let w = World::from_ascii(&[
            "                              ",
            "   t                          ",
            "##############################",
            "#  t                         #",
            "##############################",
        ])
        .unwrap();
        let light = LightMap::compute(&w);
        let all = TileRange {
            x0: 0,
            y0: 0,
            x1: 30,
            y1: 5,
        };
        let lit = emitted(&w, &all);
        assert_eq!(lit.len(), 150);
        let sub = crate::sim::light::sub;
        let torch = crate::sim::light::TORCH;
        assert_eq!(lit[3 * 30 + 3], sub(torch));
        assert_eq!(lit[3 * 30 + 4], sub(torch - 1));
        // (8, 0) from the torch at (3, 1): a diagonal step and four straight ones.
        assert_eq!(
            lit[8],
            sub(torch) - crate::sim::light::DIAGONAL_LOSS - 4 * sub(1),
            "through the air"
        );
        assert_eq!(lit[28], 0, "no torch light reaches the far sky");
        let mut day = Vec::new();
        fill(&light, &all, (-100.0, -100.0), (None, None), &mut day);
        let dark = night_fill(&light, &all, &lit);
        let alpha = |out: &Vec<u8>, x: usize, y: usize| out[(y * 30 + x) * 4 + 3];
        assert_eq!(alpha(&day, 28, 0), 0);
        assert_eq!(alpha(&dark, 28, 0), darkness(4), "the sky at night");
        assert_eq!(
            alpha(&dark, 3, 1),
            darkness(crate::sim::light::TORCH),
            "a torch outside"
        );
        assert_eq!(
            alpha(&dark, 3, 3),
            alpha(&day, 3, 3),
            "a torch in a sealed room"
        );
        assert!(dark[28 * 4 + 2] > 0, "tinted blue");
        // The torch in the sealed room keeps its light, and the night adds no blue there.
        assert_eq!(dark[(3 * 30 + 3) * 4..][..3], [0, 0, 0], "the torch's room");
        // Tiles beyond the range light it: the same levels from a sub-range.
        let part = TileRange {
            x0: 5,
            y0: 2,
            x1: 30,
            y1: 5,
        };
        let part = emitted(&w, &part);
        assert_eq!(part[25], lit[3 * 30 + 5]);
    }

    #[test]
    fn night_tints_only_the_darkness_it_adds() {
        let blue = NIGHT_BLUE.map(|c| c.round() as u8);
        // The sky: clear by day, dark at night, all of it the night's.
        assert_eq!(night_rgb(0, darkness(4), 1.0), blue);
        assert_eq!(night_rgb(0, darkness(4), 0.5)[2], 20);
        // Unlit rock, a torch-lit room, a clear night tile: nothing the night added.
        assert_eq!(night_rgb(255, 255, 1.0), [0, 0, 0]);
        assert_eq!(night_rgb(40, 40, 1.0), [0, 0, 0]);
        assert_eq!(night_rgb(0, 0, 1.0), [0, 0, 0]);
        // Dim by day, darker at night: a part of the blue, less the dimmer the day was.
        let (a, b) = (night_rgb(100, 200, 1.0), night_rgb(150, 200, 1.0));
        assert!(a[2] > b[2] && b[2] > 0 && a[2] < blue[2], "{a:?} {b:?}");
        // Over a lit world pixel, the night's blue is that share of the darkness.
        let (day, night) = (100u8, 200u8);
        let c = night_rgb(day, night, 1.0)[2] as f32 * night as f32 / 255.0;
        let added = NIGHT_BLUE[2] * (night - day) as f32 / 255.0;
        assert!((c - added).abs() < 1.0, "{c} {added}");
    }

    /// All of `w`'s tiles.
    fn whole(w: &World) -> TileRange {
        TileRange {
            x0: 0,
            y0: 0,
            x1: w.width(),
            y1: w.height(),
        }
    }

    /// The texels of all of `w` at full night (moonlight 4), far from the player.
    fn night_texels(w: &World) -> Vec<u8> {
        let (light, all) = (LightMap::compute(w), whole(w));
        night_fill(&light, &all, &emitted(w, &all))
    }

    /// The texels of `all` at full night (moonlight 4) with `lit` emitted, far from the
    /// player.
    fn night_fill(light: &LightMap, all: &TileRange, lit: &[u8]) -> Vec<u8> {
        let night = Night {
            sun: 4,
            emitted: lit,
            tint: 1.0,
        };
        let mut out = Vec::new();
        fill(light, all, (-100.0, -100.0), (Some(&night), None), &mut out);
        out
    }

    #[test]
    fn unlit_rock_deep_down_is_black_at_night() {
        // Sky, ten rows of rock, a sealed cave, rock: at night, by the worlds' own light.
        let mut rows = vec!["          "; 2];
        rows.extend(["##########"; 10]);
        rows.extend(["#        #", "##########"]);
        let w = World::from_ascii(&rows).unwrap();
        let out = night_texels(&w);
        let px = |x: usize, y: usize| &out[(y * 10 + x) * 4..][..4];
        assert_eq!(px(5, 12), [0, 0, 0, 255], "the sealed cave");
        assert_eq!(px(5, 9), [0, 0, 0, 255], "rock");
        assert_eq!(px(5, 0)[..3], NIGHT_BLUE.map(|c| c as u8), "the night sky");
    }

    #[test]
    fn the_open_sky_is_left_clear_at_night_and_caves_stay_dark() {
        // Sky over a hill with a sealed cave; a tree's leaves stand in the sky.
        let w = World::from_ascii(&[
            "   %      ",
            "   %   ## ",
            "##########",
            "#  ####  #",
            "##########",
        ])
        .unwrap();
        let mut out = night_texels(&w);
        let before = out.clone();
        let all = TileRange {
            x0: 0,
            y0: 0,
            x1: 10,
            y1: 5,
        };
        clear_open_sky(&w, &all, &mut out);
        let px = |o: &Vec<u8>, x: usize, y: usize| o[(y * 10 + x) * 4..][..4].to_vec();
        assert_eq!(px(&out, 0, 0), [0, 0, 0, 0], "the sky");
        assert_eq!(px(&out, 5, 1), [0, 0, 0, 0], "the sky beside the hill");
        assert!(px(&before, 0, 0)[3] > 0, "the night had darkened it");
        assert_eq!(
            px(&out, 3, 0),
            px(&before, 3, 0),
            "leaves stay under the night"
        );
        assert_eq!(px(&out, 7, 1), px(&before, 7, 1), "the hill's ground");
        assert_eq!(
            px(&out, 1, 3),
            px(&before, 1, 3),
            "the cave under the ground"
        );
        assert!(px(&out, 1, 3)[3] > 0);
    }

    #[test]
    fn torchlight_is_warm_lava_red_and_other_light_untouched() {
        let dark = |l: u8| [0, 0, 0, darkness(l)];
        let s = crate::sim::light::sub;
        // Levels as sub-levels, as `tint` takes them.
        let tint = |rgba, l, t, v| tint(rgba, s(l), s(t), s(v));
        // No emitted light, or a brighter sun: unchanged.
        assert_eq!(tint(dark(0), 0, 0, 0), dark(0));
        assert_eq!(tint(dark(15), 15, 9, 0), dark(15));
        assert_eq!(
            tint([0, 0, 20, 100], 8, 4, 0),
            [0, 0, 20, 100],
            "moonlit, a torch far"
        );
        // Beside a torch: a warm cast, more red than green than blue, even where the
        // light is whole; dimmer further off, and darker.
        let near = tint(dark(14), 14, 14, 0);
        assert!(
            near[0] > near[1] && near[1] > near[2] && near[3] > 0,
            "{near:?}"
        );
        let far = tint(dark(6), 6, 6, 0);
        assert!(
            far[0] > far[2] && far[0] < near[0] && far[3] > near[3],
            "{far:?}"
        );
        // Lava: red, less green than a torch's.
        let hot = tint(dark(10), 10, 0, 10);
        let warm = tint(dark(10), 10, 10, 0);
        assert!(hot[0] > 2 * hot[1] && hot[1] < warm[1], "{hot:?} {warm:?}");
        // Through fill: a torch in a sealed room leans warm, unlit rock stays black.
        let mut rows = vec!["#######", "#  t  #"];
        rows.extend(["#######"; 6]);
        let w = World::from_ascii(&rows).unwrap();
        let (light, all) = (LightMap::compute(&w), whole(&w));
        let (torch, lava) = (
            emitted_by(&w, &all, |t| t == Tile::Torch),
            emitted_by(&w, &all, |t| t == Tile::Lava),
        );
        assert!(lava.iter().all(|&l| l == 0) && torch[7 + 3] == s(crate::sim::light::TORCH));
        let glow = Glow {
            torch: &torch,
            lava: &lava,
        };
        let mut out = Vec::new();
        fill(
            &light,
            &all,
            (-100.0, -100.0),
            (None, Some(&glow)),
            &mut out,
        );
        let px = |x: usize, y: usize| &out[(y * 7 + x) * 4..][..4];
        assert!(px(1, 1)[0] > px(1, 1)[2], "{:?}", px(1, 1));
        assert_eq!(px(3, 7), [0, 0, 0, 255], "rock far under the torch");
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
