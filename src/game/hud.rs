//! The play HUD: the hotbar (9 slots with atlas icons and counts, the selected one
//! highlighted), the targeted tile's outline and dig progress, and short messages.
//! Layout and hit-testing are plain functions; drawing follows.

use super::camera::Camera;
use super::play::Target;
use super::render::atlas_source;
use crate::edit::{HOTBAR, HOTBAR_SLOTS, Inventory};
use macroquad::prelude::*;

/// Height of the status line at the bottom (as in `ui::status`), at scale 1.
const STATUS_H: f32 = 26.0;
/// Room kept above the hotbar for the selected tile's name and a message, at scale 1.
pub const ABOVE_HOTBAR: f32 = 56.0;

/// Screen rectangles of the hotbar slots, bottom centre above the status line.
pub fn slot_rects(screen: (f32, f32), s: f32) -> [Rect; HOTBAR_SLOTS] {
    let side = 44.0 * s;
    let gap = 4.0 * s;
    let total = HOTBAR_SLOTS as f32 * side + (HOTBAR_SLOTS - 1) as f32 * gap;
    let x0 = ((screen.0 - total) / 2.0).round();
    let y = (screen.1 - STATUS_H * s - side - 8.0 * s).round();
    std::array::from_fn(|i| Rect::new(x0 + i as f32 * (side + gap), y, side, side))
}

/// Height of the HUD over the bottom of the screen (status line and hotbar): the play
/// camera lifts the world's floor above it.
pub fn bottom_px(screen: (f32, f32), s: f32) -> f32 {
    screen.1 - slot_rects(screen, s)[0].y
}

/// The hotbar slot under screen point `p`.
pub fn slot_at(screen: (f32, f32), s: f32, p: (f32, f32)) -> Option<usize> {
    slot_rects(screen, s)
        .iter()
        .position(|r| r.contains(vec2(p.0, p.1)))
}

/// Count text of a slot: empty when there is none.
pub fn count_text(n: u32) -> String {
    match n {
        0 => String::new(),
        n if n >= 10_000 => format!("{}k", n / 1000),
        n => n.to_string(),
    }
}

pub fn draw_hotbar(inv: &Inventory, atlas: &Texture2D, screen: (f32, f32), s: f32) {
    let font = (16.0 * s).round() as u16;
    for (i, r) in slot_rects(screen, s).iter().enumerate() {
        let selected = i == inv.selected();
        draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.05, 0.05, 0.08, 0.78));
        let (line, color) = if selected {
            (3.0 * s, Color::new(1.0, 0.85, 0.3, 1.0))
        } else {
            (1.0 * s, Color::new(0.7, 0.72, 0.75, 0.8))
        };
        draw_rectangle_lines(r.x, r.y, r.w, r.h, line, color);
        draw_text(
            (i + 1).to_string(),
            r.x + 3.0 * s,
            r.y + 13.0 * s,
            (13.0 * s).round(),
            Color::new(0.85, 0.85, 0.85, 0.9),
        );
        let Some(tile) = HOTBAR[i] else { continue };
        let n = inv.count(tile);
        let pad = 10.0 * s;
        let tint = if n == 0 {
            Color::new(1.0, 1.0, 1.0, 0.3)
        } else {
            WHITE
        };
        let params = DrawTextureParams {
            dest_size: Some(vec2(r.w - 2.0 * pad, r.h - 2.0 * pad)),
            source: Some(atlas_source(tile)),
            ..Default::default()
        };
        draw_texture_ex(atlas, r.x + pad, r.y + pad, tint, params);
        let text = count_text(n);
        if !text.is_empty() {
            let w = measure_text(&text, None, font, 1.0).width;
            let (tx, ty) = (r.x + r.w - w - 3.0 * s, r.y + r.h - 4.0 * s);
            draw_text(&text, tx + 1.0, ty + 1.0, font as f32, BLACK);
            draw_text(&text, tx, ty, font as f32, WHITE);
        }
    }
    if let Some(caption) = caption(inv) {
        let r = slot_rects(screen, s)[0];
        draw_text(
            caption,
            r.x,
            r.y - 6.0 * s,
            (16.0 * s).round(),
            Color::new(0.95, 0.95, 0.92, 1.0),
        );
    }
}

/// The name over the hotbar: what players read for the selected tile (`iron ore`).
pub fn caption(inv: &Inventory) -> Option<&'static str> {
    inv.selected_tile().map(|t| t.label())
}

/// Outline of the tile under the mouse (white in reach, red out of reach) and the dig
/// progress as a darkening square and a bar.
pub fn draw_target(t: &Target, cam: &Camera, screen: (f32, f32)) {
    let a = cam.world_to_screen(screen, (t.x as f64, t.y as f64));
    let b = cam.world_to_screen(screen, ((t.x + 1) as f64, (t.y + 1) as f64));
    let (x, y, w, h) = (
        a.0.round(),
        a.1.round(),
        (b.0 - a.0).round(),
        (b.1 - a.1).round(),
    );
    let color = if t.in_reach {
        Color::new(1.0, 1.0, 1.0, 0.85)
    } else {
        Color::new(1.0, 0.3, 0.25, 0.85)
    };
    if let Some(p) = t.progress {
        let p = p.clamp(0.0, 1.0);
        draw_rectangle(x, y, w, h, Color::new(0.0, 0.0, 0.0, 0.5 * p));
        let bar = (w * 0.15).max(3.0);
        draw_rectangle(x, y + h + 2.0, w, bar, Color::new(0.0, 0.0, 0.0, 0.7));
        draw_rectangle(x, y + h + 2.0, w * p, bar, Color::new(0.95, 0.8, 0.3, 1.0));
    }
    draw_rectangle_lines(x, y, w, h, 2.0, color);
}

/// A message just above the hotbar's centre.
pub fn draw_notice(text: &str, screen: (f32, f32), s: f32) {
    let font = (18.0 * s).round() as u16;
    let w = measure_text(text, None, font, 1.0).width;
    let top = slot_rects(screen, s)[0].y - (ABOVE_HOTBAR - 4.0) * s;
    let x = ((screen.0 - w) / 2.0).round();
    draw_rectangle(
        x - 8.0 * s,
        top,
        w + 16.0 * s,
        26.0 * s,
        Color::new(0.05, 0.05, 0.08, 0.78),
    );
    draw_text(text, x, top + 19.0 * s, font as f32, WHITE);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_sit_in_a_centred_row_above_the_status_line() {
        let screen = (1280.0, 720.0);
        let r = slot_rects(screen, 1.0);
        let left = r[0].x;
        let right = r[HOTBAR_SLOTS - 1].x + r[HOTBAR_SLOTS - 1].w;
        assert!((left - (1280.0 - right)).abs() <= 1.0, "{left} {right}");
        assert!(
            r.iter()
                .all(|q| q.y == r[0].y && q.y + q.h <= 720.0 - STATUS_H)
        );
        for w in r.windows(2) {
            assert!(w[0].x + w[0].w < w[1].x, "no overlap");
        }
    }

    #[test]
    fn hit_testing_finds_the_slot() {
        let screen = (1280.0, 720.0);
        let r = slot_rects(screen, 1.0);
        let centre = |i: usize| (r[i].x + r[i].w / 2.0, r[i].y + r[i].h / 2.0);
        assert_eq!(slot_at(screen, 1.0, centre(0)), Some(0));
        assert_eq!(slot_at(screen, 1.0, centre(8)), Some(8));
        assert_eq!(slot_at(screen, 1.0, (640.0, 100.0)), None);
        // Between two slots.
        assert_eq!(
            slot_at(screen, 1.0, (r[0].x + r[0].w + 1.0, centre(0).1)),
            None
        );
    }

    #[test]
    fn the_hotbar_names_tiles_as_the_legend_does() {
        let mut inv = Inventory::default();
        let iron = HOTBAR
            .iter()
            .position(|t| *t == Some(crate::world::Tile::IronOre));
        inv.select(iron.expect("iron ore has a slot"));
        assert_eq!(caption(&inv), Some("iron ore"));
    }

    #[test]
    fn counts() {
        assert_eq!(count_text(0), "");
        assert_eq!(count_text(7), "7");
        assert_eq!(count_text(9999), "9999");
        assert_eq!(count_text(25_300), "25k");
    }
}
