//! The bosses after the Eye in the window: their health bar (the Eye's, with their name)
//! and their parts drawn as shaded balls — the worm's purple segments (the head with a
//! maw), Skeletron's bone skull and hands, the Wall's flesh band with its eyes, mouth and
//! lasers. Simple shapes, no sprites of their own yet.

use crate::game::draw::camera::Camera;
use crate::sim::boss::{Form, Phase, Rival, Role};
use macroquad::prelude::*;

use super::layout::Layout;

/// The session's Old Man and boss after the Eye, where they are about.
pub fn draw_in(session: &crate::sim::session::Session, cam: &Camera, screen: (f32, f32)) {
    if let Some(feet) = session.old_man {
        draw_old_man(feet, cam, screen);
    }
    if let Some(r) = &session.rival {
        draw_rival(r, cam, screen);
    }
}

/// The rival's health bar, under its name.
pub fn draw_rival_bar(r: &Rival, lay: &Layout) {
    let two = r.phase == Phase::Two;
    super::hud::draw_health_bar(r.kind().name(), r.health(), r.max(), two, lay);
}

/// The rival in the world.
pub fn draw_rival(r: &Rival, cam: &Camera, screen: (f32, f32)) {
    let at = |p: (f32, f32)| cam.world_to_screen(screen, (p.0 as f64, p.1 as f64));
    let scale = at((1.0, 0.0)).0 - at((0.0, 0.0)).0;
    let seen = |c: (f32, f32), rad: f32| {
        c.0 + rad >= 0.0 && c.0 - rad <= screen.0 && c.1 + rad >= 0.0 && c.1 - rad <= screen.1
    };
    if let Form::Wall(w) = &r.form {
        // The flesh: a band behind the face over the whole span.
        let (a, b) = (
            at((w.x - w.dir * crate::sim::boss::wall::THICK, w.top)),
            at((w.x, w.bottom)),
        );
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        draw_rectangle(
            x0,
            a.1,
            x1 - x0,
            b.1 - a.1,
            Color::from_rgba(150, 40, 60, 255),
        );
        draw_rectangle(
            x1 - 3.0,
            a.1,
            3.0,
            b.1 - a.1,
            Color::from_rgba(90, 20, 35, 255),
        );
    }
    let flash = r.hit_flash > 0.0;
    let parts = r.parts();
    // Tail first so the heads lie on top.
    for p in parts.iter().rev() {
        let c = at(p.pos);
        let rad = p.radius * scale;
        if !seen(c, rad) {
            continue;
        }
        let (fill, rim) = match (&r.form, p.role) {
            (_, Role::Laser) => (
                Color::from_rgba(255, 90, 200, 255),
                Color::from_rgba(255, 220, 255, 255),
            ),
            (Form::Eater(_), Role::Head) => (
                Color::from_rgba(120, 70, 150, 255),
                Color::from_rgba(60, 30, 80, 255),
            ),
            (Form::Eater(_), _) => (
                Color::from_rgba(100, 80, 130, 255),
                Color::from_rgba(50, 40, 70, 255),
            ),
            (Form::Skeletron(_), _) => (
                Color::from_rgba(224, 218, 196, 255),
                Color::from_rgba(120, 110, 96, 255),
            ),
            (Form::Wall(_), Role::Mouth) => (
                Color::from_rgba(110, 20, 30, 255),
                Color::from_rgba(60, 10, 15, 255),
            ),
            (Form::Wall(_), _) => (
                Color::from_rgba(240, 236, 230, 255),
                Color::from_rgba(150, 40, 60, 255),
            ),
        };
        let fill = if flash { WHITE } else { fill };
        draw_circle(c.0, c.1, rad, rim);
        draw_circle(c.0, c.1, rad * 0.82, fill);
        match p.role {
            Role::Head if matches!(r.form, Form::Skeletron(_)) => {
                // Eye sockets, turning with its spin.
                let spin = match &r.form {
                    Form::Skeletron(s) => s.spin,
                    _ => 0.0,
                };
                for side in [-1.0f32, 1.0] {
                    let (sn, cs) = spin.sin_cos();
                    let (dx, dy) = (side * 0.35 * rad, -0.1 * rad);
                    let (ex, ey) = (dx * cs - dy * sn, dx * sn + dy * cs);
                    draw_circle(
                        c.0 + ex,
                        c.1 + ey,
                        rad * 0.2,
                        Color::from_rgba(30, 20, 20, 255),
                    );
                }
            }
            Role::Head => draw_circle(c.0, c.1, rad * 0.35, Color::from_rgba(40, 10, 30, 255)),
            Role::Eye => draw_circle(c.0, c.1, rad * 0.35, Color::from_rgba(40, 30, 60, 255)),
            _ => {}
        }
    }
}

/// The dungeon's Old Man standing with his feet at `feet`: a bent grey figure with a white
/// beard (no sprite of his own yet).
pub fn draw_old_man(feet: (f32, f32), cam: &Camera, screen: (f32, f32)) {
    let at = |p: (f32, f32)| cam.world_to_screen(screen, (p.0 as f64, p.1 as f64));
    let (a, b) = (at((feet.0 - 0.6, feet.1 - 2.8)), at((feet.0 + 0.6, feet.1)));
    if b.0 < 0.0 || a.0 > screen.0 || b.1 < 0.0 || a.1 > screen.1 {
        return;
    }
    let (w, h) = (b.0 - a.0, b.1 - a.1);
    draw_rectangle(
        a.0,
        a.1 + h * 0.3,
        w,
        h * 0.7,
        Color::from_rgba(96, 88, 110, 255),
    );
    draw_circle(
        a.0 + w / 2.0,
        a.1 + h * 0.18,
        w * 0.38,
        Color::from_rgba(232, 196, 160, 255),
    );
    draw_triangle(
        vec2(a.0 + w * 0.2, a.1 + h * 0.25),
        vec2(a.0 + w * 0.8, a.1 + h * 0.25),
        vec2(a.0 + w / 2.0, a.1 + h * 0.55),
        Color::from_rgba(236, 236, 236, 255),
    );
}
