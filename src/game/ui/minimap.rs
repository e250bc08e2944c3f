//! The minimap (M): the world from the overview chunk textures in the top-right corner,
//! under the fog of what the player has not seen ([`crate::game::draw::fog`]), with the player's position, the view's outline and a strip of the surface's
//! biomes under it. Clicking it moves the free
//! camera there. The coordinate mapping is plain functions.

use crate::game::draw::camera::Camera;
use crate::game::draw::fog::FogView;
use crate::game::worlds::chunks::Grid;
use crate::game::worlds::state::Loaded;
use macroquad::prelude::*;

/// World point (tiles) under screen point `p`, if `p` is on the minimap.
pub fn to_world(r: &Rect, world: (usize, usize), p: (f32, f32)) -> Option<(f64, f64)> {
    if !r.contains(vec2(p.0, p.1)) {
        return None;
    }
    Some((
        (p.0 - r.x) as f64 / r.w as f64 * world.0 as f64,
        (p.1 - r.y) as f64 / r.h as f64 * world.1 as f64,
    ))
}

/// Screen point of world point `t` on the minimap.
pub fn to_screen(r: &Rect, world: (usize, usize), t: (f64, f64)) -> (f32, f32) {
    (
        r.x + (t.0 / world.0 as f64) as f32 * r.w,
        r.y + (t.1 / world.1 as f64) as f32 * r.h,
    )
}

/// Draws the minimap in `r` (the layout's), for the camera on a window of `screen`.
pub fn draw(l: &Loaded, fog: &FogView, cam: &Camera, r: Rect, screen: (f32, f32), s: f32) {
    let size = l.size();
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
        let a = to_screen(&r, size, (c.x0 as f64, c.y0 as f64));
        let b = to_screen(&r, size, ((c.x0 + c.w) as f64, (c.y0 + c.h) as f64));
        if let Some(tex) = l.levels[1].get(i) {
            let params = DrawTextureParams {
                dest_size: Some(vec2(b.0 - a.0, b.1 - a.1)),
                ..Default::default()
            };
            draw_texture_ex(tex, a.0, a.1, WHITE, params);
        }
    }
    // Only what the player has seen.
    fog.draw_over(r);
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
    for (a, b, biome) in map.runs() {
        let (xa, _) = to_screen(&r, size, (a as f64, 0.0));
        let (xb, _) = to_screen(&r, size, (b as f64, 0.0));
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
        let (xa, _) = to_screen(&r, size, (a as f64, 0.0));
        let (xb, _) = to_screen(&r, size, (b as f64, 0.0));
        draw_rectangle(xa, r.y + r.h + 2.0, xb - xa, strip, fog_color);
    }
    let v = cam.visible_tiles(size, screen);
    let a = to_screen(&r, size, (v.x0 as f64, v.y0 as f64));
    let b = to_screen(&r, size, (v.x1 as f64, v.y1 as f64));
    draw_rectangle_lines(
        a.0,
        a.1,
        (b.0 - a.0).max(2.0),
        (b.1 - a.1).max(2.0),
        1.5,
        WHITE,
    );
    let c = l.session.me().body.centre();
    let p = to_screen(&r, size, (c.0 as f64, c.1 as f64));
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
        let p = to_screen(&r, world, (4200.0, 600.0));
        let back = to_world(&r, world, p).unwrap();
        assert!((back.0 - 4200.0).abs() < 1.0 && (back.1 - 600.0).abs() < 1.0);
        assert_eq!(to_world(&r, world, (r.x, r.y)), Some((0.0, 0.0)));
        assert_eq!(to_world(&r, world, (r.x - 1.0, r.y)), None);
        assert_eq!(to_world(&r, world, (10.0, 700.0)), None);
    }
}
