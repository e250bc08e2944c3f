//! The shapes of the creatures that are neither slimes nor eyes, by behaviour: winged
//! flyers whose wings flap, walkers upright with swinging legs, casters robed with a
//! glowing hand; and the casters' bolts.

use crate::content::bestiary::{Behaviour, Bestiary, Def};
use crate::game::draw::camera::Camera;
use crate::sim::creatures::{Bolt, Creature};
use macroquad::prelude::*;

/// Draws `k` (of kind `d`) in the screen box at `a` of `sw` by `sh` pixels in `color`;
/// false when it is a slime or an eye (the caller's own shapes).
pub fn draw_body(d: &Def, k: &Creature, a: (f32, f32), sw: f32, sh: f32, color: Color) -> bool {
    let ink = Color::new(0.05, 0.05, 0.08, 1.0);
    let (cx, cy) = (a.0 + sw / 2.0, a.1 + sh / 2.0);
    let facing = if k.body.vel.0 < 0.0 { -1.0 } else { 1.0 };
    // A pace that follows where it is: legs and wings move as it moves.
    let pace = (k.body.pos.0 * 3.0 + k.body.pos.1 * 5.0).sin();
    match d.behaviour {
        Behaviour::Flyer { .. } if d.name.contains("eye") => false,
        Behaviour::Flyer { .. } => {
            let flap = pace * sh * 0.45;
            for side in [-1.0, 1.0] {
                draw_triangle(
                    vec2(cx, cy),
                    vec2(cx + side * sw * 0.6, cy - flap),
                    vec2(cx + side * sw * 0.35, cy + sh * 0.2),
                    color,
                );
            }
            draw_circle(cx, cy, sw * 0.22, color);
            let eye = (sw * 0.06).max(1.2);
            draw_circle(cx + facing * sw * 0.08, cy - sh * 0.05, eye, ink);
            true
        }
        Behaviour::Walker { .. } => {
            let (bw, head) = (sw * 0.55, sw * 0.22);
            let legs = sh * 0.3;
            let hip = a.1 + sh - legs;
            draw_rectangle(
                cx - bw / 2.0,
                a.1 + head * 2.0,
                bw,
                hip - a.1 - head * 2.0,
                color,
            );
            draw_circle(cx, a.1 + head, head, color);
            let stride = pace * sw * 0.18;
            let lw = (sw * 0.12).max(1.5);
            draw_line(cx, hip, cx + stride, a.1 + sh, lw, color);
            draw_line(cx, hip, cx - stride, a.1 + sh, lw, color);
            let arm = a.1 + head * 2.6;
            draw_line(cx, arm, cx + facing * sw * 0.5, arm, lw, color);
            head_eye(cx, a.1, head, sw, facing, ink);
            true
        }
        Behaviour::Caster { .. } => {
            draw_triangle(
                vec2(cx, a.1 + sh * 0.25),
                vec2(a.0, a.1 + sh),
                vec2(a.0 + sw, a.1 + sh),
                color,
            );
            let head = sw * 0.22;
            draw_circle(cx, a.1 + head, head, color);
            let glow = Color::new(1.0, 0.75, 0.25, 0.6 + 0.4 * pace.abs());
            draw_circle(cx + facing * sw * 0.45, a.1 + sh * 0.45, sw * 0.12, glow);
            head_eye(cx, a.1, head, sw, facing, ink);
            true
        }
        Behaviour::Hopper { .. } => false,
    }
}

/// The eye on a head of radius `head` whose top is `top`, toward `facing`.
fn head_eye(cx: f32, top: f32, head: f32, sw: f32, facing: f32, ink: Color) {
    let r = (sw * 0.05).max(1.2);
    draw_circle(cx + facing * head * 0.4, top + head * 0.9, r, ink);
}

/// The casters' bolts: a ball of the caster's colour with a lighter core and a short
/// trail.
pub fn draw_bolts(bolts: &[Bolt], bestiary: &Bestiary, cam: &Camera, screen: (f32, f32)) {
    for b in bolts {
        let p = cam.world_to_screen(screen, (b.pos.0 as f64, b.pos.1 as f64));
        let q = cam.world_to_screen(
            screen,
            (
                (b.pos.0 - b.vel.0 * 0.08) as f64,
                (b.pos.1 - b.vel.1 * 0.08) as f64,
            ),
        );
        let r = (p.0
            - cam
                .world_to_screen(screen, ((b.pos.0 - 0.25) as f64, 0.0))
                .0)
            .max(2.0);
        let [cr, cg, cb] = bestiary.stats(b.from).color;
        let color = Color::from_rgba(cr, cg, cb, 255);
        draw_line(
            q.0,
            q.1,
            p.0,
            p.1,
            r,
            Color::new(color.r, color.g, color.b, 0.5),
        );
        draw_circle(p.0, p.1, r, color);
        draw_circle(p.0, p.1, r * 0.5, Color::new(1.0, 0.95, 0.7, 1.0));
    }
}
