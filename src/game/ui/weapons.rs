//! The fighting items' icons and tooltip lines (spear, bow, arrows, staff, shuriken,
//! bombs), beside [`super::hud::draw_item`]'s other shapes.

use crate::content::items::{Item, Kind};
use macroquad::prelude::*;

/// Draws `item`'s icon filling `(x, y, w, h)` in colour `c` (`dark` its shade).
pub fn draw_icon(item: &Item, (x, y, w, h): (f32, f32, f32, f32), c: Color, dark: Color) {
    let line = (w / 7.0).max(2.0);
    let wood = Color::from_rgba(122, 86, 52, 255);
    match item.kind {
        Kind::Spear { .. } => {
            draw_line(
                x + w * 0.1,
                y + h * 0.9,
                x + w * 0.75,
                y + h * 0.25,
                line * 0.7,
                wood,
            );
            draw_triangle(
                vec2(x + w, y),
                vec2(x + w * 0.62, y + h * 0.2),
                vec2(x + w * 0.8, y + h * 0.38),
                c,
            );
        }
        Kind::Bow { .. } => {
            // A bent limb and its string.
            for k in 0..6 {
                let a = -1.2 + k as f32 * 0.48;
                let b = a + 0.48;
                let p = |t: f32| {
                    vec2(
                        x + w * (0.25 + 0.5 * t.cos()),
                        y + h * (0.5 + 0.45 * t.sin()),
                    )
                };
                let (p0, p1) = (p(a), p(b));
                draw_line(p0.x, p0.y, p1.x, p1.y, line, c);
            }
            draw_line(
                x + w * 0.42,
                y + h * 0.08,
                x + w * 0.42,
                y + h * 0.92,
                1.0,
                WHITE,
            );
        }
        Kind::Ammo { fire, .. } => {
            draw_line(
                x + w * 0.1,
                y + h * 0.9,
                x + w * 0.85,
                y + h * 0.15,
                line * 0.5,
                wood,
            );
            draw_circle(
                x + w * 0.85,
                y + h * 0.15,
                w * 0.1,
                if fire { ORANGE } else { GRAY },
            );
            draw_line(x + w * 0.1, y + h * 0.9, x + w * 0.25, y + h * 0.7, line, c);
        }
        Kind::Staff { .. } => {
            draw_line(
                x + w * 0.15,
                y + h * 0.95,
                x + w * 0.7,
                y + h * 0.3,
                line * 0.7,
                wood,
            );
            draw_circle(x + w * 0.75, y + h * 0.25, w * 0.2, dark);
            draw_circle(x + w * 0.75, y + h * 0.25, w * 0.14, c);
        }
        Kind::Thrown { .. } => {
            let (cx, cy) = (x + w / 2.0, y + h / 2.0);
            for k in 0..4 {
                let a = k as f32 * std::f32::consts::FRAC_PI_2;
                let tip = vec2(cx + a.cos() * w * 0.48, cy + a.sin() * h * 0.48);
                let side = vec2(
                    cx + (a + 0.8).cos() * w * 0.15,
                    cy + (a + 0.8).sin() * h * 0.15,
                );
                draw_triangle(vec2(cx, cy), tip, side, c);
            }
            draw_circle(cx, cy, w * 0.08, dark);
        }
        Kind::Explosive { .. } if item.name == "dynamite" => {
            draw_rectangle(x + w * 0.35, y + h * 0.25, w * 0.3, h * 0.7, c);
            draw_line(
                x + w * 0.5,
                y + h * 0.25,
                x + w * 0.65,
                y + h * 0.05,
                1.5,
                wood,
            );
        }
        Kind::Explosive { .. } => {
            draw_circle(x + w / 2.0, y + h * 0.6, w * 0.36, c);
            draw_line(
                x + w * 0.5,
                y + h * 0.25,
                x + w * 0.7,
                y + h * 0.05,
                1.5,
                wood,
            );
        }
        _ => draw_rectangle(x, y, w, h, dark),
    }
}

/// What the tooltip says of a fighting item (nothing for other kinds).
pub fn lines(kind: Kind) -> Vec<String> {
    match kind {
        Kind::Spear { damage, reach, .. } => vec![
            format!("{damage} melee damage"),
            format!("thrusts {reach:.1} tiles"),
        ],
        Kind::Bow { damage, .. } => vec![format!("{damage} ranged damage"), "uses arrows".into()],
        Kind::Ammo { damage, fire } => {
            let mut v = vec![format!("{damage} ranged damage"), "ammunition".into()];
            if fire {
                v.push("burns".into());
            }
            v
        }
        Kind::Staff { damage, mana, .. } => vec![
            format!("{damage} magic damage"),
            format!("uses {mana} mana"),
        ],
        Kind::Thrown { damage, .. } => vec![format!("{damage} thrown damage"), "used up".into()],
        Kind::Explosive { damage, radius, .. } => vec![
            format!("{damage} damage within {radius:.0} tiles"),
            "breaks tiles (not in houses)".into(),
        ],
        _ => Vec::new(),
    }
}
