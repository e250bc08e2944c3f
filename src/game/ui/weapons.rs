//! The fighting items' icons and tooltip lines (spear, bow, arrows, staff, shuriken,
//! bombs), beside [`super::hud::draw_item`]'s other shapes.

use crate::content::items::{Item, Kind};
use crate::game::text;
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

/// The projectiles in flight (after the creatures): arrows along their flight, a flaming
/// arrow's flame, glowing bolts, spinning shuriken, and bombs with a sparking fuse.
pub fn draw_projectiles(
    list: &[crate::sim::projectiles::Projectile],
    cam: &crate::game::draw::camera::Camera,
    screen: (f32, f32),
    now: f64,
) {
    use crate::sim::projectiles::Look;
    let tile = cam.zoom as f32;
    for p in list {
        let (x, y) = cam.world_to_screen(screen, (p.pos.0 as f64, p.pos.1 as f64));
        let a = p.angle();
        let (dx, dy) = (a.cos() * tile * 0.5, a.sin() * tile * 0.5);
        match p.look {
            Look::Arrow | Look::FlamingArrow => {
                let shaft = Color::from_rgba(190, 150, 100, 255);
                draw_line(x - dx, y - dy, x + dx, y + dy, (tile * 0.1).max(1.5), shaft);
                draw_circle(x + dx, y + dy, (tile * 0.08).max(1.5), LIGHTGRAY);
                if p.look == Look::FlamingArrow {
                    let flicker = 0.8 + 0.2 * ((now * 30.0).sin() as f32);
                    draw_circle(
                        x + dx,
                        y + dy,
                        tile * 0.22 * flicker,
                        Color::new(1.0, 0.55, 0.1, 0.7),
                    );
                }
            }
            Look::Bolt => {
                draw_circle(x, y, tile * 0.45, Color::new(0.7, 0.4, 1.0, 0.25));
                draw_circle(x, y, tile * 0.25, Color::new(0.85, 0.6, 1.0, 0.8));
                draw_circle(x, y, tile * 0.1, WHITE);
            }
            Look::Shuriken => {
                let spin = (now * 20.0) as f32;
                for k in 0..4 {
                    let b = spin + k as f32 * std::f32::consts::FRAC_PI_2;
                    let r = tile * 0.3;
                    draw_line(
                        x,
                        y,
                        x + b.cos() * r,
                        y + b.sin() * r,
                        (tile * 0.08).max(1.5),
                        LIGHTGRAY,
                    );
                }
            }
            Look::Bomb | Look::Dynamite => {
                let body = if p.look == Look::Bomb {
                    Color::from_rgba(60, 60, 70, 255)
                } else {
                    Color::from_rgba(200, 40, 40, 255)
                };
                if p.look == Look::Bomb {
                    draw_circle(x, y, tile * 0.35, body);
                } else {
                    draw_rectangle(
                        x - tile * 0.15,
                        y - tile * 0.35,
                        tile * 0.3,
                        tile * 0.7,
                        body,
                    );
                }
                // The fuse sparks, faster as it burns down.
                let spark =
                    ((now * (8.0 + 8.0 / f64::from(p.life.max(0.2)))).sin() * 0.5 + 0.5) as f32;
                draw_circle(
                    x + tile * 0.2,
                    y - tile * 0.4,
                    tile * (0.08 + 0.08 * spark),
                    Color::new(1.0, 0.8, 0.2, 1.0),
                );
            }
        }
    }
}

/// A blast's flash at `at`, `radius` tiles, `age` seconds after it (gone after
/// [`BLAST_SHOWS`]).
pub fn draw_blast(
    at: (f32, f32),
    radius: f32,
    age: f64,
    cam: &crate::game::draw::camera::Camera,
    screen: (f32, f32),
) {
    let k = (age / BLAST_SHOWS).clamp(0.0, 1.0) as f32;
    let (x, y) = cam.world_to_screen(screen, (at.0 as f64, at.1 as f64));
    let r = radius * cam.zoom as f32 * (0.5 + 0.5 * k);
    draw_circle(x, y, r, Color::new(1.0, 0.7, 0.2, 0.6 * (1.0 - k)));
    draw_circle(x, y, r * 0.5, Color::new(1.0, 1.0, 0.8, 0.8 * (1.0 - k)));
}

/// The projectiles in flight and the `blasts` still showing (those past
/// [`BLAST_SHOWS`] at `now` are forgotten).
pub fn draw_flying(
    shots: &[crate::sim::projectiles::Projectile],
    blasts: &mut Vec<((f32, f32), f32, f64)>,
    (cam, screen): (&crate::game::draw::camera::Camera, (f32, f32)),
    now: f64,
) {
    blasts.retain(|b| now - b.2 < BLAST_SHOWS);
    for &(at, radius, when) in blasts.iter() {
        draw_blast(at, radius, now - when, cam, screen);
    }
    draw_projectiles(shots, cam, screen, now);
}

/// Seconds a blast's flash shows.
pub const BLAST_SHOWS: f64 = 0.4;

/// The mana bar under the hearts: blue, as full as the player's mana, with its numbers.
pub fn draw_mana(m: &crate::sim::mana::Mana, lay: &super::layout::Layout) {
    let (first, last, s) = (lay.hearts[0], lay.hearts[lay.hearts.len() - 1], lay.s);
    let (x, y) = (first.x, first.y + first.h + 4.0 * s);
    let (w, h) = (last.x + last.w - first.x, 8.0 * s);
    let share = (m.now / m.most.max(1) as f32).clamp(0.0, 1.0);
    draw_rectangle(x, y, w, h, Color::new(0.05, 0.05, 0.12, 0.8));
    draw_rectangle(x, y, w * share, h, Color::new(0.25, 0.45, 1.0, 1.0));
    let text = format!("{:.0}/{}", m.now.floor(), m.most);
    let font = (12.0 * s).round() as u16;
    let tw = text::measure(&text, font as f32).width;
    text::draw(
        &text,
        x - tw - 6.0 * s,
        y + h,
        font as f32,
        Color::new(0.6, 0.7, 1.0, 1.0),
    );
}
