//! The player's sprite (assets/player.png: idle, a run cycle of four, jump, fall, swing;
//! 16x24 each, facing right, mirrored for facing left), drawn over the player's body.

use super::camera::Camera;
use crate::game::text;
use crate::sim::player::{HEIGHT, Player};
use macroquad::prelude::*;

/// Frame size in pixels.
pub const FRAME: (f32, f32) = (16.0, 24.0);
/// Frames per second of the run cycle at full speed.
const RUN_FPS: f64 = 10.0;

pub fn load() -> Texture2D {
    let t = Texture2D::from_file_with_format(
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/player.png")),
        Some(ImageFormat::Png),
    );
    t.set_filter(FilterMode::Nearest);
    t
}

/// The frames in assets/player.png.
pub const IDLE: usize = 0;
pub const RUN: [usize; 4] = [1, 2, 3, 4];
pub const JUMP: usize = 5;
pub const FALL: usize = 6;
pub const SWING: usize = 7;

/// Which frame shows: the swing while swinging, jump going up and fall coming down in
/// the air, the run cycle while moving (faster the faster the player runs), idle
/// otherwise. `vel` in tiles a second, y down.
pub fn frame_index(on_ground: bool, vel: (f32, f32), time: f64, swinging: bool) -> usize {
    if swinging {
        SWING
    } else if !on_ground {
        if vel.1 < 0.0 { JUMP } else { FALL }
    } else if vel.0.abs() > 0.5 {
        let pace = (vel.0.abs() as f64 / 8.0).clamp(0.6, 1.5);
        RUN[(time * RUN_FPS * pace) as usize % RUN.len()]
    } else {
        IDLE
    }
}

/// Draws the player: the sprite spans [`HEIGHT`] tiles, its bottom at the feet.
pub fn draw(
    tex: &Texture2D,
    p: &Player,
    cam: &Camera,
    screen: (f32, f32),
    (time, swinging): (f64, bool),
    shade: f32,
) {
    if let Some(anchor) = p.hook {
        draw_hook_line(p.centre(), anchor, cam, screen);
    }
    draw_tinted(
        tex,
        p,
        cam,
        screen,
        (time, swinging),
        Color::new(shade, shade, shade, 1.0),
    );
}

/// The Guide's colours over the player's sprite: a green coat, brown trousers.
pub const GUIDE_TINT: Color = Color::new(0.62, 0.9, 0.55, 1.0);
/// The Merchant's: a grey coat.
pub const MERCHANT_TINT: Color = Color::new(0.78, 0.74, 0.7, 1.0);
/// The Nurse's: a pale pink dress.
pub const NURSE_TINT: Color = Color::new(1.0, 0.8, 0.84, 1.0);
/// The Dryad's: leaf green, lighter than the Guide's coat.
pub const DRYAD_TINT: Color = Color::new(0.55, 1.0, 0.45, 1.0);
/// The Clothier's: a deep red coat.
pub const CLOTHIER_TINT: Color = Color::new(0.95, 0.5, 0.5, 1.0);
/// The Demolitionist's: a miner's brown and orange.
pub const DEMOLITIONIST_TINT: Color = Color::new(1.0, 0.72, 0.4, 1.0);
/// The Arms Dealer's: a dark grey-blue.
pub const ARMS_DEALER_TINT: Color = Color::new(0.6, 0.66, 0.8, 1.0);

/// Draws a town person: the player's sprite in other colours, their name above.
pub fn draw_npc(
    tex: &Texture2D,
    n: &crate::sim::npc::Npc,
    cam: &Camera,
    screen: (f32, f32),
    time: f64,
) {
    let tint = match n.name {
        "Merchant" => MERCHANT_TINT,
        "Nurse" => NURSE_TINT,
        "Dryad" => DRYAD_TINT,
        "Clothier" => CLOTHIER_TINT,
        "Demolitionist" => DEMOLITIONIST_TINT,
        "Arms Dealer" => ARMS_DEALER_TINT,
        _ => GUIDE_TINT,
    };
    draw_tinted(tex, &n.body, cam, screen, (time, false), tint);
    draw_name(n.name, n.body.pos, cam, screen);
}

/// Draws another player's body: frame `frame` of the sheet with its feet at `pos`,
/// facing as `facing` says, in `tint` ([`draw_name`] puts their name over it).
pub fn draw_pose(
    tex: &Texture2D,
    pose: ((f32, f32), i8, usize),
    tint: [f32; 3],
    cam: &Camera,
    screen: (f32, f32),
) {
    let [r, g, b] = tint;
    draw_frame(tex, pose, cam, screen, Color::new(r, g, b, 1.0));
}

/// A grappling hook's line from a body's middle (`from`) to where it caught (`anchor`),
/// the hook a dot at its end.
pub fn draw_hook_line(from: (f32, f32), anchor: (f32, f32), cam: &Camera, screen: (f32, f32)) {
    let a = cam.world_to_screen(screen, (from.0 as f64, from.1 as f64));
    let b = cam.world_to_screen(screen, (anchor.0 as f64, anchor.1 as f64));
    let w = (cam.zoom as f32 / 8.0).max(1.5);
    draw_line(a.0, a.1, b.0, b.1, w, Color::new(0.55, 0.55, 0.6, 1.0));
    draw_circle(b.0, b.1, w * 1.5, Color::new(0.7, 0.7, 0.75, 1.0));
}

/// A name over the head of a body with its feet at `feet`, with a shadow.
pub fn draw_name(name: &str, feet: (f32, f32), cam: &Camera, screen: (f32, f32)) {
    let (fx, fy) = cam.world_to_screen(screen, (feet.0 as f64, (feet.1 - HEIGHT) as f64));
    let size = (cam.zoom as f32 * 0.8).clamp(12.0, 20.0);
    let w = text::measure(name, size).width;
    text::draw(name, fx - w / 2.0 + 1.0, fy - 3.0, size, BLACK);
    text::draw(name, fx - w / 2.0, fy - 4.0, size, WHITE);
}

/// Draws a body with the player's sprite multiplied by `c`.
fn draw_tinted(
    tex: &Texture2D,
    p: &Player,
    cam: &Camera,
    screen: (f32, f32),
    (time, swinging): (f64, bool),
    c: Color,
) {
    let i = frame_index(p.on_ground, p.vel, time, swinging);
    draw_frame(tex, (p.pos, p.facing, i), cam, screen, c);
}

/// Draws frame `i` of the sheet spanning [`HEIGHT`] tiles, its bottom at the feet `pos`,
/// mirrored when `facing` left, multiplied by `c`.
fn draw_frame(
    tex: &Texture2D,
    (pos, facing, i): ((f32, f32), i8, usize),
    cam: &Camera,
    screen: (f32, f32),
    c: Color,
) {
    let h = HEIGHT * cam.zoom as f32;
    let w = h * FRAME.0 / FRAME.1;
    let (fx, fy) = cam.world_to_screen(screen, (pos.0 as f64, pos.1 as f64));
    let params = DrawTextureParams {
        dest_size: Some(vec2(w.round(), h.round())),
        source: Some(Rect::new(i as f32 * FRAME.0, 0.0, FRAME.0, FRAME.1)),
        flip_x: facing < 0,
        ..Default::default()
    };
    draw_texture_ex(tex, (fx - w / 2.0).round(), (fy - h).round(), c, params);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_by_state() {
        assert_eq!(frame_index(false, (0.0, -3.0), 0.0, false), JUMP);
        assert_eq!(frame_index(false, (0.0, 3.0), 0.0, false), FALL);
        assert_eq!(frame_index(true, (0.1, 0.0), 5.0, false), IDLE);
        assert_eq!(frame_index(true, (5.0, 0.0), 5.0, true), SWING);
        assert_eq!(frame_index(false, (5.0, 2.0), 5.0, true), SWING);
        // Running at 8 tiles a second goes through all four frames in order.
        let cycle: Vec<usize> = (0..4)
            .map(|k| frame_index(true, (-8.0, 0.0), (k as f64 + 0.5) / RUN_FPS, false))
            .collect();
        assert_eq!(cycle, RUN.to_vec());
        // Slower running steps slower.
        let slow = frame_index(true, (2.0, 0.0), 1.5 / RUN_FPS, false);
        assert_eq!(slow, RUN[0]);
        // The sheet holds every frame.
        let png = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/player.png"));
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        assert_eq!(w as f32, FRAME.0 * (SWING + 1) as f32);
    }
}
