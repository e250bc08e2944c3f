//! Motion that is looks only: creatures squash as they land and stretch as they hop, and
//! a number floats up from whatever a hit struck (a creature the player's sword hit, or a
//! player a creature touched), read from the Session's [`Event::Hit`] and [`Event::Hurt`].
//! The simulation knows nothing of them.

use super::camera::Camera;
use crate::game::text;
use crate::sim::session::{Event, PlayerId};
use macroquad::prelude::*;

/// Most squash (a share of the height lost) just after a landing.
pub const LANDING_SQUASH: f32 = 0.32;
/// Seconds a landing's squash takes to spring back.
pub const LANDING_SECONDS: f32 = 0.2;
/// Most squash while crouching for the next hop, over its last [`CROUCH_SECONDS`].
pub const CROUCH_SQUASH: f32 = 0.18;
pub const CROUCH_SECONDS: f32 = 0.16;
/// Most stretch in the air (a share of the height added), reached at [`STRETCH_SPEED`].
pub const MAX_STRETCH: f32 = 0.3;
/// Vertical speed (tiles a second) of the most stretch.
pub const STRETCH_SPEED: f32 = 14.0;

/// The scale (width, height) of a hopping creature's drawn body: in the air it stretches
/// with its vertical speed; on the ground, `grounded` seconds after landing, it squashes
/// and springs back, and it crouches again as the next hop (`hop_in` seconds off) nears.
/// The width grows as the height shrinks, keeping about the same area.
pub fn squash(on_ground: bool, vel_y: f32, grounded: f32, hop_in: f32) -> (f32, f32) {
    let h = if on_ground {
        let landing = LANDING_SQUASH * (1.0 - grounded / LANDING_SECONDS).max(0.0);
        let crouch = CROUCH_SQUASH * (1.0 - hop_in / CROUCH_SECONDS).max(0.0);
        1.0 - landing.max(crouch)
    } else {
        1.0 + MAX_STRETCH * (vel_y.abs() / STRETCH_SPEED).min(1.0)
    };
    (1.0 / h, h)
}

/// Seconds a damage number shows.
pub const FLOAT_SECONDS: f32 = 0.9;
/// Tiles it rises over that time.
pub const FLOAT_RISE: f32 = 1.6;
/// Most numbers showing at once (a new one past it replaces the oldest).
pub const MAX_FLOATERS: usize = 32;

/// Whom a hit struck, which picks the number's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Struck {
    /// A creature, hurt but alive.
    Creature,
    /// A creature, killed by the hit.
    Kill,
    /// A player.
    Player,
}

/// A damage number floating up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floater {
    /// Where it started: above the head of what was hit (world tiles).
    pub at: (f32, f32),
    /// Damage, rounded to whole points (at least 1).
    pub amount: u32,
    pub struck: Struck,
    /// Seconds since the hit.
    pub age: f32,
}

impl Floater {
    /// Where it is now: risen from `at`, quickly at first and slowing.
    pub fn pos(&self) -> (f32, f32) {
        let t = (self.age / FLOAT_SECONDS).clamp(0.0, 1.0);
        let rise = FLOAT_RISE * (1.0 - (1.0 - t) * (1.0 - t));
        (self.at.0, self.at.1 - rise)
    }

    /// Opacity: whole over its first half, fading over the second.
    pub fn alpha(&self) -> f32 {
        (2.0 * (1.0 - self.age / FLOAT_SECONDS)).clamp(0.0, 1.0)
    }

    pub fn color(&self) -> Color {
        let [r, g, b] = match self.struck {
            Struck::Creature => [255, 236, 140],
            Struck::Kill => [255, 160, 60],
            Struck::Player => [255, 80, 70],
        };
        Color::from_rgba(r, g, b, (self.alpha() * 255.0) as u8)
    }
}

/// The number a session event calls for: a creature's hit (feet at `at`) above the
/// creature, a player's hurt above that player (`feet_of` tells where a player's feet
/// are). Other events show none.
pub fn floater(e: &Event, feet_of: impl Fn(PlayerId) -> Option<(f32, f32)>) -> Option<Floater> {
    let (at, damage, struck) = match *e {
        Event::Hit {
            at, damage, killed, ..
        } => {
            let struck = if killed {
                Struck::Kill
            } else {
                Struck::Creature
            };
            ((at.0, at.1 - 1.1), damage, struck)
        }
        Event::Hurt { player, damage, .. } => {
            let feet = feet_of(player)?;
            (
                (feet.0, feet.1 - crate::sim::player::HEIGHT - 0.3),
                damage,
                Struck::Player,
            )
        }
        _ => return None,
    };
    Some(Floater {
        at,
        amount: damage.round().max(1.0) as u32,
        struck,
        age: 0.0,
    })
}

/// The damage numbers showing.
#[derive(Default)]
pub struct Floaters {
    pub list: Vec<Floater>,
}

impl Floaters {
    /// Adds the numbers of a tick's events; a number that would start where another one
    /// just started moves aside, so two hits on one creature do not overlap.
    pub fn add(&mut self, events: &[Event], feet_of: impl Fn(PlayerId) -> Option<(f32, f32)>) {
        for e in events {
            let Some(mut f) = floater(e, &feet_of) else {
                continue;
            };
            let close = |o: &Floater| {
                o.age < 0.3 && (o.at.0 - f.at.0).abs() < 0.6 && (o.at.1 - f.at.1).abs() < 0.6
            };
            let crowd = self.list.iter().filter(|o| close(o)).count();
            f.at.0 += if crowd % 2 == 1 { 0.5 } else { -0.5 } * crowd.div_ceil(2) as f32;
            if self.list.len() >= MAX_FLOATERS {
                self.list.remove(0);
            }
            self.list.push(f);
        }
    }

    /// Ages every number by `dt` seconds and drops those done.
    pub fn update(&mut self, dt: f32) {
        for f in &mut self.list {
            f.age += dt;
        }
        self.list.retain(|f| f.age < FLOAT_SECONDS);
    }

    /// Forgets them all (another world).
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Draws the numbers (call after the light, so they show in the dark), outlined in
    /// black, at least 16 px tall and a tile tall at close zoom.
    pub fn draw(&self, cam: &Camera, screen: (f32, f32)) {
        let size = (cam.zoom as f32 * 0.9).clamp(16.0, 40.0) as u16;
        for f in &self.list {
            let p = f.pos();
            let (x, y) = cam.world_to_screen(screen, (p.0 as f64, p.1 as f64));
            if x < -50.0 || y < -50.0 || x > screen.0 + 50.0 || y > screen.1 + 50.0 {
                continue;
            }
            let text = f.amount.to_string();
            let dims = text::measure(&text, size as f32);
            let (tx, ty) = ((x - dims.width / 2.0).round(), y.round());
            let shadow = Color::new(0.0, 0.0, 0.0, f.alpha() * 0.85);
            for (dx, dy) in [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0), (1.0, 1.0)] {
                text::draw(&text, tx + dx, ty + dy, size as f32, shadow);
            }
            text::draw(&text, tx, ty, size as f32, f.color());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::creatures::Kind;
    use crate::sim::session::LOCAL;

    #[test]
    fn creatures_stretch_in_the_air_and_squash_on_landing() {
        // Resting mid-way between hops: the plain shape.
        assert_eq!(squash(true, 0.0, 1.0, 1.0), (1.0, 1.0));
        // Just landed: the most squash, lower and wider, springing back over time.
        let (w0, h0) = squash(true, 0.0, 0.0, 1.0);
        assert!((h0 - (1.0 - LANDING_SQUASH)).abs() < 1e-6 && w0 > 1.0);
        let (_, h1) = squash(true, 0.0, LANDING_SECONDS / 2.0, 1.0);
        assert!(h0 < h1 && h1 < 1.0);
        assert_eq!(squash(true, 0.0, LANDING_SECONDS, 1.0).1, 1.0);
        // Crouching for the next hop.
        assert!(squash(true, 0.0, 1.0, 0.0).1 < squash(true, 0.0, 1.0, CROUCH_SECONDS / 2.0).1);
        // In the air: taller and narrower the faster it moves up or down, to a limit.
        let (ws, hs) = squash(false, -8.0, 0.0, 1.0);
        assert!(hs > 1.0 && ws < 1.0);
        assert!(squash(false, 3.0, 0.0, 1.0).1 < hs);
        assert_eq!(squash(false, -100.0, 0.0, 1.0).1, 1.0 + MAX_STRETCH);
        // About the same area throughout.
        for (g, v, t, hop) in [(true, 0.0, 0.0, 1.0), (false, 9.0, 0.0, 1.0)] {
            let (w, h) = squash(g, v, t, hop);
            assert!((w * h - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn hits_and_hurts_float_numbers_over_what_they_struck() {
        let feet = |p: PlayerId| (p == LOCAL).then_some((10.0, 20.0));
        let slime_hit = |damage: f32, killed: bool| Event::Hit {
            player: LOCAL,
            kind: Kind::Slime,
            at: (4.0, 7.0),
            damage,
            killed,
        };
        let hit = slime_hit(7.6, false);
        let f = floater(&hit, feet).unwrap();
        assert_eq!((f.amount, f.struck), (8, Struck::Creature));
        assert!(
            f.at.1 < 7.0 && f.at.0 == 4.0,
            "above the creature: {:?}",
            f.at
        );
        let kill = slime_hit(0.2, true);
        assert_eq!(floater(&kill, feet).unwrap().amount, 1, "at least 1");
        assert_eq!(floater(&kill, feet).unwrap().struck, Struck::Kill);
        let hurt = Event::Hurt {
            player: LOCAL,
            damage: 12.0,
            by: "slime".into(),
        };
        let f = floater(&hurt, feet).unwrap();
        assert_eq!((f.amount, f.struck), (12, Struck::Player));
        assert!(f.at.1 < 20.0 - crate::sim::player::HEIGHT);
        // A player the front-end does not know, and other events: no number.
        let far = Event::Hurt {
            player: PlayerId(7),
            damage: 3.0,
            by: "slime".into(),
        };
        assert!(floater(&far, feet).is_none());
        assert!(floater(&Event::Swung { player: LOCAL }, feet).is_none());
        // Rising and fading, then gone.
        let mut fl = Floaters::default();
        fl.add(&[hit.clone(), hit.clone(), hurt], feet);
        assert_eq!(fl.list.len(), 3);
        assert_ne!(fl.list[0].at, fl.list[1].at, "two hits side by side");
        fl.update(FLOAT_SECONDS * 0.6);
        let p = fl.list[2].pos();
        assert!(p.1 < fl.list[2].at.1 && fl.list[2].alpha() < 1.0);
        fl.update(FLOAT_SECONDS);
        assert!(fl.list.is_empty());
        // Bounded.
        fl.add(&vec![hit; MAX_FLOATERS + 5], feet);
        assert_eq!(fl.list.len(), MAX_FLOATERS);
    }
}
