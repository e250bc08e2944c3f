//! The minimap (M): the world from the overview chunk textures in the top-right corner,
//! under the fog of what the player has not seen ([`crate::game::draw::fog`]), with the player's position, the view's outline and a strip of the surface's
//! biomes under it. Clicking it moves the free
//! camera there. The coordinate mapping is plain functions.

use crate::game::draw::camera::Camera;
use crate::game::draw::fog::FogView;
use crate::game::worlds::chunks::Grid;
use crate::game::worlds::state::Loaded;
use macroquad::prelude::*;

/// The part of the world the minimap shows, in tiles: `(x0, y0, w, h)`.
pub type View = (f64, f64, f64, f64);

/// The most the minimap zooms in: a 64th of the world each way.
pub const MAX_ZOOM: f64 = 64.0;

/// What the minimap shows of a `world` at `zoom` (1: the whole world, as M opens it; `z`:
/// a `z`th of it each way), centred on `centre` (the player) but kept inside the world.
pub fn view(world: (usize, usize), centre: (f64, f64), zoom: f64) -> View {
    let zoom = zoom.clamp(1.0, MAX_ZOOM);
    let (ww, wh) = (world.0 as f64, world.1 as f64);
    let (w, h) = (ww / zoom, wh / zoom);
    let x0 = (centre.0 - w / 2.0).clamp(0.0, ww - w);
    let y0 = (centre.1 - h / 2.0).clamp(0.0, wh - h);
    (x0, y0, w, h)
}

/// The minimap's zoom after the mouse wheel turned by `wheel` over it: twice as near a
/// notch up, half as near a notch down, between the whole world and [`MAX_ZOOM`].
pub fn zoomed(zoom: f64, wheel: f32) -> f64 {
    let step = if wheel > 0.0 {
        2.0
    } else if wheel < 0.0 {
        0.5
    } else {
        1.0
    };
    (zoom * step).clamp(1.0, MAX_ZOOM)
}

/// World point (tiles) under screen point `p`, if `p` is on the minimap showing `v`.
pub fn to_world(r: &Rect, v: View, p: (f32, f32)) -> Option<(f64, f64)> {
    if !r.contains(vec2(p.0, p.1)) {
        return None;
    }
    Some((
        v.0 + (p.0 - r.x) as f64 / r.w as f64 * v.2,
        v.1 + (p.1 - r.y) as f64 / r.h as f64 * v.3,
    ))
}

/// Screen point of world point `t` on the minimap showing `v`.
pub fn to_screen(r: &Rect, v: View, t: (f64, f64)) -> (f32, f32) {
    (
        r.x + ((t.0 - v.0) / v.2) as f32 * r.w,
        r.y + ((t.1 - v.1) / v.3) as f32 * r.h,
    )
}

/// The whole world as a view (zoom 1).
pub fn whole(world: (usize, usize)) -> View {
    (0.0, 0.0, world.0 as f64, world.1 as f64)
}

/// Draws the minimap in `r` (the layout's), for the camera on a window of `screen`, at
/// `zoom` around the player (see [`view`]).
pub fn draw(
    l: &Loaded,
    fog: &FogView,
    (cam, zoom): (&Camera, f64),
    r: Rect,
    screen: (f32, f32),
    s: f32,
) {
    let size = l.size();
    let c = l.session.me().body.centre();
    let v = view(size, (c.0 as f64, c.1 as f64), zoom);
    draw_rectangle(
        r.x - 3.0,
        r.y - 3.0,
        r.w + 6.0,
        r.h + 6.0,
        Color::new(0.05, 0.05, 0.08, 0.85),
    );
    // The overview leaves the open sky transparent (for the sky drawn behind the world):
    // the map's sky is one flat colour under it.
    let sky = crate::world::SKY;
    draw_rectangle(
        r.x,
        r.y,
        r.w,
        r.h,
        Color::from_rgba(sky[0], sky[1], sky[2], 255),
    );
    let grid: Grid = l.levels[1].grid;
    for i in 0..grid.len() {
        let c = grid.rect(i);
        let (cx0, cy0, cw, ch) = (c.x0 as f64, c.y0 as f64, c.w as f64, c.h as f64);
        // The part of the chunk inside the view.
        let (x0, y0) = (cx0.max(v.0), cy0.max(v.1));
        let (x1, y1) = ((cx0 + cw).min(v.0 + v.2), (cy0 + ch).min(v.1 + v.3));
        if x1 <= x0 || y1 <= y0 {
            continue;
        }
        let a = to_screen(&r, v, (x0, y0));
        let b = to_screen(&r, v, (x1, y1));
        if let Some(tex) = l.levels[1].get(i) {
            let (tw, th) = (tex.width() as f64, tex.height() as f64);
            let source = Rect::new(
                ((x0 - cx0) / cw * tw) as f32,
                ((y0 - cy0) / ch * th) as f32,
                ((x1 - x0) / cw * tw) as f32,
                ((y1 - y0) / ch * th) as f32,
            );
            let params = DrawTextureParams {
                dest_size: Some(vec2(b.0 - a.0, b.1 - a.1)),
                source: Some(source),
                ..Default::default()
            };
            draw_texture_ex(tex, a.0, a.1, WHITE, params);
        }
    }
    // Only what the player has seen.
    if v == whole(size) {
        fog.draw_over(r);
    } else {
        fog.draw_part(r, v);
    }
    // A strip under the map with the surface's biomes, left to right.
    let strip = crate::game::ui::layout::strip_h(s);
    draw_rectangle(
        r.x - 3.0,
        r.y + r.h + 3.0,
        r.w + 6.0,
        strip + 3.0,
        Color::new(0.05, 0.05, 0.08, 0.85),
    );
    let map = crate::worldgen::biomes::BiomeMap::new(&l.session.world.preset, l.session.world.seed);
    let across = |a: usize, b: usize| {
        let (xa, _) = to_screen(&r, v, (a as f64, 0.0));
        let (xb, _) = to_screen(&r, v, (b as f64, 0.0));
        (xa.max(r.x), xb.min(r.x + r.w))
    };
    for (a, b, biome) in map.runs() {
        let (xa, xb) = across(a, b);
        if xb <= xa {
            continue;
        }
        let [cr, cg, cb, _] = biome.color();
        draw_rectangle(
            xa,
            r.y + r.h + 2.0,
            xb - xa,
            strip,
            Color::from_rgba(cr, cg, cb, 255),
        );
    }
    // The strip too shows only the surface the player has seen.
    let fog_color = {
        let [r, g, b, a] = crate::game::draw::fog::FOG;
        Color::from_rgba(r, g, b, a)
    };
    for (a, b) in unseen_surface(&l.session.world) {
        let (xa, xb) = across(a, b);
        if xb <= xa {
            continue;
        }
        draw_rectangle(xa, r.y + r.h + 2.0, xb - xa, strip, fog_color);
    }
    let seen = cam.visible_tiles(size, screen);
    let inside = |(x, y): (f32, f32)| (x.clamp(r.x, r.x + r.w), y.clamp(r.y, r.y + r.h));
    let a = inside(to_screen(&r, v, (seen.x0 as f64, seen.y0 as f64)));
    let b = inside(to_screen(&r, v, (seen.x1 as f64, seen.y1 as f64)));
    draw_rectangle_lines(
        a.0,
        a.1,
        (b.0 - a.0).max(2.0),
        (b.1 - a.1).max(2.0),
        1.5,
        WHITE,
    );
    let p = to_screen(&r, v, (c.0 as f64, c.1 as f64));
    draw_circle(p.0, p.1, 4.0 * s, Color::new(1.0, 0.25, 0.2, 1.0));
    draw_circle_lines(p.0, p.1, 4.0 * s, 1.0, WHITE);
    draw_rectangle_lines(r.x - 1.0, r.y - 1.0, r.w + 2.0, r.h + 2.0, 1.0, GRAY);
}

/// Runs of columns `a..b` whose surface tile the player has not seen, a cell at a time.
pub fn unseen_surface(world: &crate::world::World) -> Vec<(usize, usize)> {
    use crate::world::explored::CELL;
    let mut out: Vec<(usize, usize)> = Vec::new();
    for x in (0..world.width()).step_by(CELL) {
        let y = (world.surface[x] as usize).min(world.height() - 1);
        if world.explored.seen(x, y) {
            continue;
        }
        let end = (x + CELL).min(world.width());
        match out.last_mut() {
            Some(last) if last.1 == x => last.1 = end,
            _ => out.push((x, end)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_biome_strip_is_fogged_where_the_surface_is_unseen() {
        let mut w = crate::world::World::new(40, 20, 0, crate::content::preset::Preset::default());
        w.surface = vec![10; 40];
        assert_eq!(unseen_surface(&w), [(0, 40)]);
        // Cells 2 and 3 across, at the surface's row (10 / 4 = 2).
        w.explored.mark(2, 2);
        w.explored.mark(3, 2);
        w.explored.mark(7, 0); // above the surface: not the surface
        assert_eq!(unseen_surface(&w), [(0, 8), (16, 40)]);
    }

    fn rect(world: (usize, usize), screen: (f32, f32), s: f32) -> Rect {
        let open = crate::game::ui::layout::Open {
            world,
            minimap: true,
            ..Default::default()
        };
        crate::game::ui::layout::layout(screen, s, &open)
            .minimap
            .unwrap()
    }

    #[test]
    fn keeps_the_world_aspect_in_the_corner() {
        let r = rect((8400, 2400), (1280.0, 720.0), 1.0);
        assert!((r.w / r.h - 3.5).abs() < 0.05, "{r:?}");
        assert!(r.x + r.w <= 1280.0 && r.w <= 360.0 && r.h <= 240.0);
        let tall = rect((100, 1000), (1280.0, 720.0), 1.0);
        assert!(
            tall.h <= 180.0 && (tall.h / tall.w - 10.0).abs() < 0.6,
            "{tall:?}"
        );
    }

    #[test]
    fn screen_and_world_round_trip() {
        let world = (8400, 2400);
        let r = rect(world, (1280.0, 720.0), 1.0);
        for v in [whole(world), view(world, (1000.0, 900.0), 8.0)] {
            let p = to_screen(&r, v, (1020.0, 880.0));
            let back = to_world(&r, v, p).unwrap();
            assert!((back.0 - 1020.0).abs() < 1.0 && (back.1 - 880.0).abs() < 1.0);
            assert_eq!(to_world(&r, v, (r.x, r.y)), Some((v.0, v.1)));
            assert_eq!(to_world(&r, v, (r.x - 1.0, r.y)), None);
            assert_eq!(to_world(&r, v, (10.0, 700.0)), None);
        }
    }

    #[test]
    fn the_view_is_centred_on_the_player_and_zooms_inside_the_world() {
        let world = (6400, 1800);
        // Zoom 1 is the whole world, wherever the player stands.
        assert_eq!(view(world, (100.0, 50.0), 1.0), whole(world));
        // Zoomed 8 times: an eighth of the world each way, the player in its middle.
        let (x0, y0, w, h) = view(world, (3000.0, 900.0), 8.0);
        assert_eq!((w, h), (800.0, 225.0));
        assert_eq!((x0 + w / 2.0, y0 + h / 2.0), (3000.0, 900.0));
        // Near the world's corner it stays inside the world (the player off centre).
        let (x0, y0, w, h) = view(world, (10.0, 1795.0), 8.0);
        assert_eq!((x0, y0 + h), (0.0, 1800.0));
        assert!(w > 0.0);
        // The wheel zooms by halves and doubles, from the whole world to the most.
        assert_eq!(zoomed(1.0, 1.0), 2.0);
        assert_eq!(zoomed(4.0, -1.0), 2.0);
        assert_eq!(zoomed(1.0, -1.0), 1.0);
        assert_eq!(zoomed(MAX_ZOOM, 1.0), MAX_ZOOM);
        assert_eq!(view(world, (0.0, 0.0), 1000.0).2, 6400.0 / MAX_ZOOM);
    }
}
