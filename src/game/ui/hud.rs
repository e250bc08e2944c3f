//! The play HUD: the hotbar (9 slots with atlas icons and counts, the selected one
//! highlighted), the targeted tile's outline and dig progress, and short messages.
//! Layout and hit-testing are plain functions; drawing follows.

use crate::content::items::{Catalog, Item, Kind};
use crate::content::rules::Rules;
use crate::game::draw::camera::Camera;
use crate::game::draw::render::atlas_source;
use crate::game::text;
use crate::sim::creatures::Creatures;
use crate::sim::vitals::{BUBBLES, Vitals, bubbles, hearts};
use crate::world::inventory::Inventory;
use crate::world::inventory::Stack;
use macroquad::prelude::*;

pub use super::layout::ABOVE_HOTBAR;
use super::layout::Layout;

/// The tile under the mouse, for the outline and the dig progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    pub x: i64,
    pub y: i64,
    pub in_reach: bool,
    /// Share of the dig done, while digging it.
    pub progress: Option<f32>,
}

/// Count text of a slot: empty when there is none.
pub fn count_text(n: u32) -> String {
    match n {
        0 => String::new(),
        n if n >= 10_000 => format!("{}k", n / 1000),
        n => n.to_string(),
    }
}

/// The hotbar where the layout puts it, the selected item's name above it.
pub fn draw_hotbar(inv: &Inventory, atlas: &Texture2D, lay: &Layout) {
    let s = lay.s;
    let font = (16.0 * s).round() as u16;
    for (i, r) in lay.hotbar.iter().enumerate() {
        let selected = i == inv.selected();
        draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.05, 0.05, 0.08, 0.78));
        let (line, color) = if selected {
            (3.0 * s, Color::new(1.0, 0.85, 0.3, 1.0))
        } else {
            (1.0 * s, Color::new(0.7, 0.72, 0.75, 0.8))
        };
        draw_rectangle_lines(r.x, r.y, r.w, r.h, line, color);
        text::draw(
            &(i + 1).to_string(),
            r.x + 3.0 * s,
            r.y + 13.0 * s,
            (13.0 * s).round(),
            Color::new(0.85, 0.85, 0.85, 0.9),
        );
        if let Some(stack) = inv.slots()[i] {
            draw_stack(inv.catalog(), stack, atlas, *r, s, font);
        }
    }
    if let Some(caption) = caption(inv) {
        let r = lay.hotbar[0];
        text::draw(
            caption,
            r.x,
            r.y - 6.0 * s,
            (16.0 * s).round(),
            Color::new(0.95, 0.95, 0.92, 1.0),
        );
    }
}

/// The name over the hotbar: what players read for the selected item (`iron ore`).
pub fn caption(inv: &Inventory) -> Option<&str> {
    inv.selected_item().map(|i| i.label.as_str())
}

/// A stack of `cat`'s in slot rectangle `r`: the item's icon and its count (none for one
/// tool).
pub fn draw_stack(cat: &Catalog, stack: Stack, atlas: &Texture2D, r: Rect, s: f32, font: u16) {
    let pad = 10.0 * s;
    let icon = Rect::new(r.x + pad, r.y + pad, r.w - 2.0 * pad, r.h - 2.0 * pad);
    draw_item(cat.item(stack.item), atlas, icon);
    let text = if stack.count > 1 {
        count_text(stack.count)
    } else {
        String::new()
    };
    if !text.is_empty() {
        let w = text::measure(&text, font as f32).width;
        let (tx, ty) = (r.x + r.w - w - 3.0 * s, r.y + r.h - 4.0 * s);
        text::draw(&text, tx + 1.0, ty + 1.0, font as f32, BLACK);
        text::draw(&text, tx, ty, font as f32, WHITE);
    }
}

/// An item's icon filling `r`: a block's atlas art, otherwise a shape in its colour (a
/// bar, a drop of gel, a pickaxe, a sword, a potion's bottle).
pub fn draw_item(item: &Item, atlas: &Texture2D, r: Rect) {
    let [cr, cg, cb] = item.color;
    let c = Color::from_rgba(cr, cg, cb, 255);
    let dark = Color::new(c.r * 0.6, c.g * 0.6, c.b * 0.6, 1.0);
    let handle = Color::from_rgba(122, 86, 52, 255);
    let (x, y, w, h) = (r.x, r.y, r.w, r.h);
    let line = (w / 7.0).max(2.0);
    match item.kind {
        Kind::Block(tile) => {
            let params = DrawTextureParams {
                dest_size: Some(vec2(w, h)),
                source: Some(atlas_source(tile)),
                ..Default::default()
            };
            draw_texture_ex(atlas, x, y, WHITE, params);
        }
        Kind::Wall(_) => {
            // A patch of wall, its courses of bricks drawn darker.
            draw_rectangle(x, y, w, h, c);
            for k in 1..3 {
                let ky = y + h * k as f32 / 3.0;
                draw_line(x, ky, x + w, ky, line * 0.5, dark);
            }
        }
        Kind::Hammer { .. } => {
            draw_line(x + w * 0.2, y + h, x + w * 0.6, y + h * 0.3, line, handle);
            draw_line(x + w * 0.3, y + h * 0.05, x + w, y + h * 0.5, line * 2.0, c);
        }
        Kind::Material if item.name == "gel" => {
            draw_circle(x + w / 2.0, y + h * 0.6, w * 0.38, c);
            draw_circle(x + w * 0.4, y + h * 0.5, w * 0.1, WHITE);
        }
        Kind::Material if item.name.ends_with("_coin") => {
            // A little pile of three coins, each with a darker rim and a bright glint.
            for (cx, cy) in [(0.36, 0.66), (0.64, 0.66), (0.5, 0.4)] {
                let (cx, cy) = (x + w * cx, y + h * cy);
                draw_circle(cx, cy, w * 0.22, dark);
                draw_circle(cx, cy, w * 0.17, c);
                draw_circle(cx - w * 0.05, cy - h * 0.05, w * 0.04, WHITE);
            }
        }
        Kind::Material => {
            draw_rectangle(x, y + h * 0.3, w, h * 0.45, dark);
            draw_rectangle(x + w * 0.1, y + h * 0.3, w * 0.8, h * 0.3, c);
        }
        Kind::Spear { .. }
        | Kind::Bow { .. }
        | Kind::Ammo { .. }
        | Kind::Staff { .. }
        | Kind::Thrown { .. }
        | Kind::Explosive { .. } => super::weapons::draw_icon(item, (x, y, w, h), c, dark),
        Kind::Pickaxe { .. } => {
            draw_line(
                x + w * 0.15,
                y + h * 0.95,
                x + w * 0.7,
                y + h * 0.3,
                line,
                handle,
            );
            draw_line(x, y + h * 0.25, x + w * 0.5, y, line * 1.2, c);
            draw_line(x + w * 0.5, y, x + w, y + h * 0.55, line * 1.2, c);
        }
        Kind::Tool { .. } => {
            // A hand mirror: a round glass on a handle.
            draw_line(x + w / 2.0, y + h * 0.6, x + w / 2.0, y + h, line, handle);
            draw_circle(x + w / 2.0, y + h * 0.38, w * 0.34, dark);
            draw_circle(x + w / 2.0, y + h * 0.38, w * 0.26, c);
        }
        Kind::Accessory { .. } => {
            // A ring with a gem: every accessory wears its own colour.
            draw_circle_lines(x + w / 2.0, y + h * 0.55, w * 0.32, line, c);
            draw_circle(x + w / 2.0, y + h * 0.22, w * 0.14, dark);
        }
        Kind::Summon => {
            // An eye: a white ball with a coloured iris and a dark pupil, veins of red.
            draw_circle(x + w / 2.0, y + h / 2.0, w * 0.42, dark);
            draw_circle(x + w / 2.0, y + h / 2.0, w * 0.36, WHITE);
            draw_line(
                x + w * 0.2,
                y + h * 0.4,
                x + w * 0.35,
                y + h * 0.5,
                1.0,
                RED,
            );
            draw_line(
                x + w * 0.8,
                y + h * 0.62,
                x + w * 0.65,
                y + h * 0.52,
                1.0,
                RED,
            );
            draw_circle(x + w * 0.55, y + h / 2.0, w * 0.18, c);
            draw_circle(x + w * 0.57, y + h / 2.0, w * 0.08, BLACK);
        }
        Kind::Potion { .. } => {
            // A bottle: a round body of its colour, a neck and a cork.
            draw_circle(x + w / 2.0, y + h * 0.66, w * 0.32, dark);
            draw_circle(x + w / 2.0, y + h * 0.66, w * 0.26, c);
            draw_rectangle(x + w * 0.4, y + h * 0.12, w * 0.2, h * 0.26, dark);
            draw_rectangle(x + w * 0.38, y + h * 0.04, w * 0.24, h * 0.1, handle);
            draw_circle(x + w * 0.42, y + h * 0.6, w * 0.07, WHITE);
        }
        Kind::Armour { slot, .. } => {
            use crate::content::items::ArmourSlot;
            match slot {
                // A helmet's dome, a chainmail's body with sleeves, a pair of greaves.
                ArmourSlot::Head => {
                    draw_circle(x + w / 2.0, y + h * 0.55, w * 0.38, dark);
                    draw_rectangle(x + w * 0.12, y + h * 0.55, w * 0.76, h * 0.3, dark);
                    draw_circle(x + w / 2.0, y + h * 0.55, w * 0.3, c);
                    draw_rectangle(x + w * 0.3, y + h * 0.6, w * 0.4, h * 0.25, BLACK);
                }
                ArmourSlot::Body => {
                    draw_rectangle(x + w * 0.25, y + h * 0.15, w * 0.5, h * 0.75, c);
                    draw_rectangle(x + w * 0.05, y + h * 0.15, w * 0.2, h * 0.4, dark);
                    draw_rectangle(x + w * 0.75, y + h * 0.15, w * 0.2, h * 0.4, dark);
                }
                ArmourSlot::Legs => {
                    draw_rectangle(x + w * 0.2, y + h * 0.1, w * 0.6, h * 0.25, dark);
                    draw_rectangle(x + w * 0.2, y + h * 0.3, w * 0.25, h * 0.65, c);
                    draw_rectangle(x + w * 0.55, y + h * 0.3, w * 0.25, h * 0.65, c);
                }
            }
        }
        Kind::Sword { .. } => {
            draw_line(x + w * 0.2, y + h * 0.8, x + w, y, line, c);
            draw_line(x, y + h * 0.6, x + w * 0.4, y + h, line, dark);
            draw_line(x, y + h, x + w * 0.25, y + h * 0.75, line, handle);
        }
    }
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

/// The landmarks' outlines, each labelled with its kind at its top-left corner (the F3
/// overlay).
pub fn draw_structures(
    structures: &[crate::world::structure::Structure],
    cam: &Camera,
    screen: (f32, f32),
) {
    for st in structures {
        let a = cam.world_to_screen(screen, (st.x as f64, st.y as f64));
        let b = cam.world_to_screen(screen, ((st.x + st.w) as f64, (st.y + st.h) as f64));
        if b.0 < 0.0 || b.1 < 0.0 || a.0 > screen.0 || a.1 > screen.1 {
            continue;
        }
        let color = Color::new(1.0, 0.85, 0.2, 0.9);
        draw_rectangle_lines(a.0, a.1, b.0 - a.0, b.1 - a.1, 2.0, color);
        let (lx, ly) = (a.0.max(2.0), a.1.max(16.0));
        text::draw(st.kind.label(), lx + 3.0, ly + 14.0, 18.0, color);
    }
}

/// A message just above the hotbar's centre.
pub fn draw_notice(text: &str, lay: &Layout) {
    let s = lay.s;
    let font = (18.0 * s).round() as u16;
    let w = text::measure(text, font as f32).width;
    let top = lay.hotbar[0].y - (ABOVE_HOTBAR - 4.0) * s;
    let c = (lay.hotbar[0].x + lay.hotbar[lay.hotbar.len() - 1].right()) / 2.0;
    let x = (c - w / 2.0).round();
    draw_rectangle(
        x - 8.0 * s,
        top,
        w + 16.0 * s,
        26.0 * s,
        Color::new(0.05, 0.05, 0.08, 0.78),
    );
    text::draw(text, x, top + 19.0 * s, font as f32, WHITE);
}

/// The death screen's two lines: what killed ("You were slain by a slime"), then the
/// countdown to the respawn.
pub fn death_lines(text: &str, seconds: u64) -> [String; 2] {
    [text.to_string(), format!("Respawning in {seconds}...")]
}

/// The death screen: the world dimmed red, what killed in large letters and the
/// countdown under it.
pub fn draw_death(text: &str, seconds: u64, screen: (f32, f32), s: f32) {
    draw_rectangle(
        0.0,
        0.0,
        screen.0,
        screen.1,
        Color::new(0.25, 0.0, 0.0, 0.45),
    );
    let [title, count] = death_lines(text, seconds);
    for (line, size, dy, color) in [
        (&title, 40.0, -10.0, Color::new(0.95, 0.3, 0.3, 1.0)),
        (&count, 24.0, 34.0, WHITE),
    ] {
        let font = (size * s).round() as u16;
        let w = text::measure(line, font as f32).width;
        let (x, y) = ((screen.0 - w) / 2.0, screen.1 / 2.0 + dy * s);
        text::draw(line, x + 2.0, y + 2.0, font as f32, BLACK);
        text::draw(line, x, y, font as f32, color);
    }
}

fn heart(r: Rect, color: Color) {
    let q = r.w / 4.0;
    draw_circle(r.x + q, r.y + q * 1.2, q * 1.05, color);
    draw_circle(r.x + 3.0 * q, r.y + q * 1.2, q * 1.05, color);
    draw_triangle(
        vec2(r.x - q * 0.02, r.y + q * 1.45),
        vec2(r.x + r.w + q * 0.02, r.y + q * 1.45),
        vec2(r.x + r.w / 2.0, r.y + r.h),
        color,
    );
}

/// The line beside the hearts: the clock, health, the defence worn, the seconds of
/// potion sickness left (Terraria's buff timer: no other potion until it runs out), and
/// day or night.
pub fn vitals_text(v: &Vitals, time_of_day: f32, night: bool) -> String {
    let defence = if v.defence > 0 {
        format!("  defence {}", v.defence)
    } else {
        String::new()
    };
    let sick = if v.potion_sick > 0.0 {
        format!("  potion {:.0} s", v.potion_sick.ceil())
    } else {
        String::new()
    };
    format!(
        "{}  {:.0}/{:.0}{defence}{sick}  {}",
        crate::sim::day::clock(time_of_day),
        v.health.ceil(),
        v.max_health,
        if night { "night" } else { "day" }
    )
}

/// Hearts (health), bubbles while under water (breath) and the clock, top right.
pub fn draw_vitals(v: &Vitals, time_of_day: f32, rules: &Rules, lay: &Layout) {
    let (rects, s) = (lay.hearts, lay.s);
    for (r, fill) in rects.iter().zip(hearts(v.health, v.max_health)) {
        heart(*r, Color::new(0.1, 0.05, 0.06, 0.8));
        if fill > 0.0 {
            let k = fill.sqrt();
            let inner = Rect::new(
                r.x + r.w * (1.0 - k) / 2.0,
                r.y + r.h * (1.0 - k) / 2.0,
                r.w * k,
                r.h * k,
            );
            heart(inner, Color::new(0.9, 0.12, 0.16, 1.0));
        }
    }
    let night = crate::sim::day::is_night(time_of_day, rules);
    let text = vitals_text(v, time_of_day, night);
    let font = (16.0 * s).round() as u16;
    let w = text::measure(&text, font as f32).width;
    let (x, y) = (rects[0].x - w - 10.0 * s, rects[0].y + 16.0 * s);
    text::draw(&text, x + 1.0, y + 1.0, font as f32, BLACK);
    text::draw(&text, x, y, font as f32, WHITE);
}

/// Breath while it is short of full: [`BUBBLES`] solid bubbles in a row over the player's
/// head, each outlined dark so it reads against sky and water, shrinking as it empties.
pub fn draw_bubbles(
    v: &Vitals,
    rules: &Rules,
    player: &crate::sim::player::Player,
    cam: &Camera,
    screen: (f32, f32),
) {
    let max = rules.breath_seconds;
    if v.breath >= max {
        return;
    }
    let (x, feet) = player.pos;
    let head = feet - crate::sim::player::HEIGHT;
    let (cx, top) = cam.world_to_screen(screen, (x as f64, head as f64));
    // Spaced apart at any zoom: at least 12 px between centres, the row over the head.
    let tile = cam.zoom as f32;
    let spacing = (tile * 0.45).max(12.0);
    let r = spacing * 0.36;
    let y = top - (tile * 0.5).max(8.0) - r;
    let left = cx - spacing * (BUBBLES as f32 - 1.0) / 2.0;
    for (i, fill) in bubbles(v.breath, max).iter().enumerate() {
        if *fill <= 0.0 {
            continue;
        }
        let bx = left + i as f32 * spacing;
        let rr = r * (0.45 + 0.55 * fill);
        draw_circle(bx, y, rr + 1.5, Color::new(0.05, 0.1, 0.25, 0.9));
        draw_circle(bx, y, rr, Color::new(0.55, 0.8, 1.0, 1.0));
        draw_circle(
            bx - rr * 0.35,
            y - rr * 0.35,
            rr * 0.3,
            Color::new(1.0, 1.0, 1.0, 0.95),
        );
    }
}

/// Items lying in the world, each its icon half a tile wide.
pub fn draw_dropped(
    items: &[crate::world::dropped::Dropped],
    cat: &Catalog,
    atlas: &Texture2D,
    cam: &Camera,
    screen: (f32, f32),
) {
    let half = crate::sim::drops::HALF;
    for d in items {
        let (x, y) = d.pos;
        let a = cam.world_to_screen(screen, ((x - half) as f64, (y - half) as f64));
        let b = cam.world_to_screen(screen, ((x + half) as f64, (y + half) as f64));
        if b.0 < 0.0 || a.0 > screen.0 || b.1 < 0.0 || a.1 > screen.1 {
            continue;
        }
        let r = Rect::new(a.0, a.1, b.0 - a.0, b.1 - a.1);
        draw_rectangle(
            r.x - 1.0,
            r.y - 1.0,
            r.w + 2.0,
            r.h + 2.0,
            Color::new(0.0, 0.0, 0.0, 0.45),
        );
        draw_item(cat.item(d.stack.item), atlas, r);
    }
}

/// The creatures about (before the darkness, so caves hide them): a slime's dome with
/// eyes, an eye, or the shape of its behaviour ([`crate::game::draw::beasts`]), white
/// for a moment when hit, with a health bar once hurt; and the casters' bolts.
pub fn draw_creatures(c: &Creatures, cam: &Camera, screen: (f32, f32)) {
    // Hearts lying about, bobbing a little, fading in their last seconds.
    for h in &c.hearts {
        let bob = (h.age * 4.0).sin() * 0.08;
        let a = cam.world_to_screen(
            screen,
            ((h.pos.0 - 0.35) as f64, (h.pos.1 - 0.35 + bob) as f64),
        );
        let b = cam.world_to_screen(
            screen,
            ((h.pos.0 + 0.35) as f64, (h.pos.1 + 0.35 + bob) as f64),
        );
        let left = crate::sim::creatures::HEART_SECONDS - h.age;
        let alpha = (left / 5.0).clamp(0.2, 1.0);
        let r = Rect::new(a.0, a.1, b.0 - a.0, b.1 - a.1);
        heart(r, Color::new(0.1, 0.02, 0.03, 0.8 * alpha));
        let k = 0.75;
        let inner = Rect::new(
            r.x + r.w * (1.0 - k) / 2.0,
            r.y + r.h * (1.0 - k) / 2.0,
            r.w * k,
            r.h * k,
        );
        heart(inner, Color::new(0.95, 0.15, 0.2, alpha));
    }
    for k in &c.list {
        let d = c.bestiary.def(k.kind);
        let (w, h) = d.size;
        // Squashed on landing and crouching, stretched in the air, about the feet.
        let st = c.bestiary.stats(k.kind);
        let grounded = (st.hop_every - k.hop_in()).max(0.0);
        let (sx, sy) =
            crate::game::draw::motion::squash(k.body.on_ground, k.body.vel.1, grounded, k.hop_in());
        let (w, h) = (w * sx, h * sy);
        let (x, feet) = k.body.pos;
        let a = cam.world_to_screen(screen, ((x - w / 2.0) as f64, (feet - h) as f64));
        let b = cam.world_to_screen(screen, ((x + w / 2.0) as f64, feet as f64));
        let (sw, sh) = (b.0 - a.0, b.1 - a.1);
        if b.0 < 0.0 || a.0 > screen.0 || b.1 < 0.0 || a.1 > screen.1 {
            continue;
        }
        let [r, g, bl] = st.color;
        let color = if k.hit_flash > 0.0 {
            WHITE
        } else if k.burning.is_some() {
            // On fire: tinted toward a flame's orange.
            let mix = |c: u8, f: u8| ((u16::from(c) + u16::from(f)) / 2) as u8;
            Color::from_rgba(mix(r, 255), mix(g, 130), mix(bl, 30), 240)
        } else {
            Color::from_rgba(r, g, bl, 235)
        };
        if crate::game::draw::beasts::draw_body(d, k, a, sw, sh, color) {
            health_bar(k, st.health, a, sw);
            continue;
        }
        if c.bestiary.flies(k.kind) {
            // An eye: a pale ball with a tail, its iris toward where it flies.
            let (cx, cy) = (a.0 + sw / 2.0, a.1 + sh / 2.0);
            let v = k.body.vel;
            let d = (v.0 * v.0 + v.1 * v.1).sqrt().max(1e-3);
            let (lx, ly) = (v.0 / d, v.1 / d);
            let tail = Color::from_rgba(170, 30, 40, 255);
            draw_line(
                cx,
                cy,
                cx - lx * sw,
                cy - ly * sw,
                (sw * 0.15).max(1.5),
                tail,
            );
            draw_circle(cx, cy, sw * 0.5, color);
            let iris = if k.kind == crate::sim::creatures::Kind::Servant {
                Color::from_rgba(150, 20, 30, 255)
            } else {
                Color::from_rgba(40, 90, 190, 255)
            };
            draw_circle(cx + lx * sw * 0.22, cy + ly * sw * 0.22, sw * 0.22, iris);
            draw_circle(cx + lx * sw * 0.25, cy + ly * sw * 0.25, sw * 0.1, BLACK);
            continue;
        }
        draw_circle(a.0 + sw / 2.0, a.1 + sh * 0.55, sw * 0.5, color);
        draw_rectangle(a.0, a.1 + sh * 0.55, sw, sh * 0.45, color);
        let eye = (sw * 0.08).max(1.5);
        let look = if k.body.vel.0 < 0.0 { -0.12 } else { 0.12 } * sw;
        draw_circle(a.0 + sw * 0.35 + look, a.1 + sh * 0.5, eye, BLACK);
        draw_circle(a.0 + sw * 0.65 + look, a.1 + sh * 0.5, eye, BLACK);
        health_bar(k, st.health, a, sw);
    }
    crate::game::draw::beasts::draw_bolts(&c.bolts, &c.bestiary, cam, screen);
}

/// A hurt creature's health bar over its box (top-left `a`, `sw` pixels wide), `full`
/// its kind's health.
fn health_bar(k: &crate::sim::creatures::Creature, full: f32, a: (f32, f32), sw: f32) {
    if k.health < full {
        let f = (k.health / full).clamp(0.0, 1.0);
        draw_rectangle(a.0, a.1 - 6.0, sw, 4.0, Color::new(0.0, 0.0, 0.0, 0.7));
        draw_rectangle(a.0, a.1 - 6.0, sw * f, 4.0, Color::new(0.3, 0.9, 0.3, 1.0));
    }
}

/// A pickaxe at work on the tile at `toward` (tiles): swung from over the head down at
/// it, three times a second at time `now`, its handle brown and its head the item's colour.
pub fn draw_tool(
    player: &crate::sim::player::Player,
    toward: (f32, f32),
    now: f64,
    item_color: [u8; 3],
    cam: &Camera,
    screen: (f32, f32),
) {
    use crate::sim::creatures::{blade_angle, blade_point};
    let c = player.centre();
    let facing = if toward.0 < c.0 { -1 } else { 1 };
    // Down fast, up slower: the first third of each stroke is the blow.
    let phase = (now * 3.0).rem_euclid(1.0) as f32;
    let p = if phase < 0.35 {
        0.3 + 0.5 * phase / 0.35
    } else {
        0.8 - 0.5 * (phase - 0.35) / 0.65
    };
    let angle = blade_angle(p);
    let at = |a: f32, r: f32| {
        let q = blade_point(c, facing, a, r);
        cam.world_to_screen(screen, (q.0 as f64, q.1 as f64))
    };
    let width = (cam.zoom as f32 * 0.14).max(2.0);
    let (hand, end) = (at(angle, 0.2), at(angle, 1.1));
    draw_line(
        hand.0,
        hand.1,
        end.0,
        end.1,
        width,
        Color::from_rgba(122, 86, 52, 255),
    );
    let [r, g, b] = item_color;
    let (h0, h1) = (at(angle + 0.3, 1.0), at(angle - 0.3, 1.0));
    draw_line(
        h0.0,
        h0.1,
        end.0,
        end.1,
        width * 1.3,
        Color::from_rgba(r, g, b, 255),
    );
    draw_line(
        end.0,
        end.1,
        h1.0,
        h1.1,
        width * 1.3,
        Color::from_rgba(r, g, b, 255),
    );
}

/// The sword's swing `progress` (0..=1) into it: the blade at its angle on the arc (see
/// [`crate::sim::creatures::blade_angle`]), with a faint trail of where it has swept.
pub fn draw_swing(
    player: &crate::sim::player::Player,
    reach: f32,
    progress: f32,
    item_color: [u8; 3],
    cam: &Camera,
    screen: (f32, f32),
) {
    use crate::sim::creatures::{blade_angle, blade_point};
    let c = player.centre();
    let f = player.facing;
    let at = |angle: f32, r: f32| {
        let p = blade_point(c, f, angle, r);
        cam.world_to_screen(screen, (p.0 as f64, p.1 as f64))
    };
    let [r, g, b] = item_color;
    let width = (cam.zoom as f32 * 0.2).max(2.0);
    // The trail: the arc swept so far, fading behind the blade.
    let steps = 12;
    for i in 0..steps {
        let (p0, p1) = (
            progress * i as f32 / steps as f32,
            progress * (i + 1) as f32 / steps as f32,
        );
        let (a, b2) = (at(blade_angle(p0), reach), at(blade_angle(p1), reach));
        let alpha = 0.35 * (i + 1) as f32 / steps as f32;
        draw_line(
            a.0,
            a.1,
            b2.0,
            b2.1,
            width * 0.8,
            Color::new(1.0, 1.0, 1.0, alpha),
        );
    }
    let angle = blade_angle(progress);
    let (from, to) = (at(angle, 0.3), at(angle, reach));
    draw_line(
        from.0,
        from.1,
        to.0,
        to.1,
        width,
        Color::from_rgba(r, g, b, 240),
    );
}

/// Where the Eye's health bar goes: across the middle of the top of the screen, 40% of its
/// width (at most 520 at scale 1), below a line for its name.
pub fn boss_bar_rect(screen: (f32, f32), s: f32) -> Rect {
    let w = (screen.0 * 0.4).min(520.0 * s).max(120.0);
    let h = (14.0 * s).round().max(8.0);
    Rect::new(((screen.0 - w) / 2.0).round(), (30.0 * s).round(), w, h)
}

/// The Eye's health bar ([`boss_bar_rect`]): its name over it, a dark frame, the share of
/// health left in red (brighter in phase two) and the numbers.
pub fn draw_boss_bar(b: &crate::sim::boss::Boss, lay: &Layout) {
    let two = b.phase == crate::sim::boss::Phase::Two;
    draw_health_bar(crate::sim::boss::NAME, b.health, b.max, two, lay);
}

/// A boss's health bar ([`boss_bar_rect`]): `name` over it, a dark frame, the share of
/// `health` out of `max` left in red (brighter in phase two, `two`) and the numbers.
pub fn draw_health_bar(name: &str, health: f32, max: f32, two: bool, lay: &Layout) {
    let r = boss_bar_rect(lay.screen, lay.s);
    let font = (16.0 * lay.s).round() as u16;
    let tw = text::measure(name, font as f32).width;
    let (tx, ty) = (r.x + (r.w - tw) / 2.0, r.y - 6.0 * lay.s);
    text::draw(name, tx + 1.0, ty + 1.0, font as f32, BLACK);
    text::draw(name, tx, ty, font as f32, WHITE);
    draw_rectangle(
        r.x - 2.0,
        r.y - 2.0,
        r.w + 4.0,
        r.h + 4.0,
        Color::new(0.05, 0.02, 0.02, 0.9),
    );
    draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.25, 0.05, 0.05, 1.0));
    let fill = (health / max.max(1.0)).clamp(0.0, 1.0);
    let red = if two {
        Color::from_rgba(255, 60, 40, 255)
    } else {
        Color::from_rgba(200, 30, 40, 255)
    };
    draw_rectangle(r.x, r.y, r.w * fill, r.h, red);
    let text = format!("{:.0}/{:.0}", health.ceil(), max);
    let small = (12.0 * lay.s).round() as u16;
    let w = text::measure(&text, small as f32).width;
    text::draw(
        &text,
        r.x + (r.w - w) / 2.0,
        r.y + r.h - 2.0 * lay.s,
        small as f32,
        WHITE,
    );
}

/// The Eye: a pale ball with red veins and trailing red tendrils, looking at `target` (the
/// local player's middle) with a blue iris, or in phase two with a toothed mouth; white
/// when hit, spinning between the phases.
pub fn draw_boss(b: &crate::sim::boss::Boss, target: (f32, f32), cam: &Camera, screen: (f32, f32)) {
    let c = cam.world_to_screen(screen, (b.pos.0 as f64, b.pos.1 as f64));
    let edge = cam.world_to_screen(
        screen,
        ((b.pos.0 + crate::sim::boss::RADIUS) as f64, b.pos.1 as f64),
    );
    let r = edge.0 - c.0;
    if c.0 + 3.0 * r < 0.0
        || c.0 - 3.0 * r > screen.0
        || c.1 + 3.0 * r < 0.0
        || c.1 - 3.0 * r > screen.1
    {
        return;
    }
    let (mut lx, mut ly) = b.looking(target);
    if b.spin > 0.0 && matches!(b.mode, crate::sim::boss::Mode::Turn { .. }) {
        let (sn, cs) = b.spin.sin_cos();
        (lx, ly) = (lx * cs - ly * sn, lx * sn + ly * cs);
    }
    // Tendrils behind, away from where it looks.
    let tendril = Color::from_rgba(150, 20, 30, 255);
    for k in -2..=2 {
        let a = k as f32 * 0.35;
        let (sn, cs) = a.sin_cos();
        let (dx, dy) = (-(lx * cs - ly * sn), -(lx * sn + ly * cs));
        draw_line(
            c.0,
            c.1,
            c.0 + dx * r * 1.7,
            c.1 + dy * r * 1.7,
            (r * 0.12).max(2.0),
            tendril,
        );
    }
    let flash = b.hit_flash > 0.0;
    let ball = if flash {
        WHITE
    } else {
        Color::from_rgba(236, 228, 220, 255)
    };
    draw_circle(c.0, c.1, r + 2.0, Color::from_rgba(60, 10, 15, 255));
    draw_circle(c.0, c.1, r, ball);
    // Veins: short red lines from the back.
    for k in [-0.9f32, -0.4, 0.4, 0.9] {
        let (sn, cs) = (k + std::f32::consts::PI).sin_cos();
        let (dx, dy) = (lx * cs - ly * sn, lx * sn + ly * cs);
        draw_line(
            c.0 + dx * r * 0.95,
            c.1 + dy * r * 0.95,
            c.0 + dx * r * 0.45,
            c.1 + dy * r * 0.45,
            (r * 0.05).max(1.0),
            RED,
        );
    }
    let front = (c.0 + lx * r * 0.45, c.1 + ly * r * 0.45);
    match b.phase {
        crate::sim::boss::Phase::One => {
            draw_circle(
                front.0,
                front.1,
                r * 0.5,
                Color::from_rgba(40, 90, 190, 255),
            );
            draw_circle(front.0, front.1, r * 0.25, BLACK);
            draw_circle(front.0 - r * 0.12, front.1 - r * 0.12, r * 0.08, WHITE);
        }
        crate::sim::boss::Phase::Two => {
            // The mouth: dark red, a ring of teeth round its rim.
            draw_circle(front.0, front.1, r * 0.55, Color::from_rgba(90, 5, 10, 255));
            for i in 0..10 {
                let a = i as f32 / 10.0 * std::f32::consts::TAU;
                let (sn, cs) = a.sin_cos();
                let tip = (front.0 + cs * r * 0.3, front.1 + sn * r * 0.3);
                let (l, rr) = ((a - 0.25).sin_cos(), (a + 0.25).sin_cos());
                draw_triangle(
                    vec2(front.0 + l.1 * r * 0.55, front.1 + l.0 * r * 0.55),
                    vec2(front.0 + rr.1 * r * 0.55, front.1 + rr.0 * r * 0.55),
                    vec2(tip.0, tip.1),
                    WHITE,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::edit::HOTBAR_SLOTS;

    fn lay(screen: (f32, f32), s: f32) -> Layout {
        super::super::layout::layout(screen, s, &Default::default())
    }

    #[test]
    fn slots_sit_in_a_centred_row_above_the_status_line() {
        let screen = (1280.0, 720.0);
        let r = lay(screen, 1.0).hotbar;
        let left = r[0].x;
        let right = r[HOTBAR_SLOTS - 1].x + r[HOTBAR_SLOTS - 1].w;
        assert!((left - (1280.0 - right)).abs() <= 1.0, "{left} {right}");
        assert!(
            r.iter()
                .all(|q| q.y == r[0].y && q.y + q.h <= 720.0 - super::super::layout::STATUS_H)
        );
        for w in r.windows(2) {
            assert!(w[0].x + w[0].w < w[1].x, "no overlap");
        }
    }

    #[test]
    fn hit_testing_finds_the_slot() {
        let l = lay((1280.0, 720.0), 1.0);
        let r = l.hotbar;
        let centre = |i: usize| (r[i].x + r[i].w / 2.0, r[i].y + r[i].h / 2.0);
        assert_eq!(l.hotbar_at(centre(0)), Some(0));
        assert_eq!(l.hotbar_at(centre(8)), Some(8));
        assert_eq!(l.hotbar_at((640.0, 100.0)), None);
        // Between two slots.
        assert_eq!(l.hotbar_at((r[0].x + r[0].w + 1.0, centre(0).1)), None);
    }

    #[test]
    fn the_hotbar_names_tiles_as_the_legend_does() {
        let cat = std::sync::Arc::new(Catalog::builtin().unwrap());
        let mut inv = Inventory::empty(&cat);
        inv.add(crate::world::Tile::IronOre, 3);
        inv.select(0);
        assert_eq!(caption(&inv), Some("iron ore"));
        inv.select(1);
        assert_eq!(caption(&inv), None);
    }

    #[test]
    fn hearts_sit_top_right_above_the_minimap() {
        for screen in [(1280.0, 720.0), (640.0, 480.0)] {
            let s = crate::game::ui::scale(screen);
            let open = super::super::layout::Open {
                world: (8400, 2400),
                minimap: true,
                vitals: true,
                ..Default::default()
            };
            let l = super::super::layout::layout(screen, s, &open);
            let r = l.hearts;
            let last = r[crate::sim::vitals::HEARTS - 1];
            assert!(last.x + last.w <= screen.0 && r[0].x > screen.0 / 2.0);
            let map = l.minimap_frame().unwrap();
            assert!(last.y + last.h <= map.y, "{last:?} {map:?}");
            for w in r.windows(2) {
                assert!(w[0].x + w[0].w < w[1].x);
            }
        }
    }

    #[test]
    fn the_vitals_line_shows_the_potion_sickness_left() {
        let rules = crate::content::rules::Rules::default();
        let mut v = Vitals::with_most(200.0, 200.0, &rules);
        v.defence = 7;
        let line = vitals_text(&v, 0.5, false);
        assert!(line.contains("200/200  defence 7  day"), "{line}");
        assert!(!line.contains("potion"), "{line}");
        v.potion_sick = 41.2;
        let line = vitals_text(&v, 0.5, false);
        assert!(line.contains("defence 7  potion 42 s  day"), "{line}");
    }

    #[test]
    fn counts() {
        assert_eq!(count_text(0), "");
        assert_eq!(count_text(7), "7");
        assert_eq!(count_text(9999), "9999");
        assert_eq!(count_text(25_300), "25k");
    }

    #[test]
    fn the_boss_bar_sits_centred_at_the_top() {
        for (screen, s) in [
            ((1280.0, 720.0), 1.0),
            ((3840.0, 2160.0), 2.0),
            ((400.0, 300.0), 1.0),
        ] {
            let r = super::boss_bar_rect(screen, s);
            assert!((r.x + r.w / 2.0 - screen.0 / 2.0).abs() <= 1.0, "{r:?}");
            assert!(r.y > 0.0 && r.y + r.h < screen.1 / 5.0, "{r:?}");
            assert!(r.w <= screen.0 * 0.4 + 1.0 && r.w >= 120.0);
        }
    }
}
