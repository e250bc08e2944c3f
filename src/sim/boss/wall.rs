//! The Wall of Flesh: called by a guide voodoo doll dropped into the underworld's lava.
//! It spans the underworld from its top row to the world's floor and crosses it from the
//! side it came from toward the other at [`SPEED`] tiles/s, faster as it loses health, up
//! to [`SPEED_MOST`] at none. Its face (two eyes and a mouth) follows the target up and
//! down; the eyes shoot lasers at the target every [`LASER_EVERY`] seconds (half that in
//! phase two, below half health). A player behind its face, or touching it, is hurt. One
//! pool of health ([`HEALTH`], Terraria's 8,000 scaled as Strata's Eye is) for the eyes
//! and the mouth. Its numbers are data (`config/creatures.ron`'s `bosses.wall`,
//! [`WallBoss`]); the constants here are the shipped ones.

use crate::content::bosses::WallBoss;

/// Its health.
pub const HEALTH: f32 = WallBoss::SHIPPED.health;
/// Tiles/s it crosses at with full health, and with none.
pub const SPEED: f32 = WallBoss::SHIPPED.speed;
pub const SPEED_MOST: f32 = WallBoss::SHIPPED.speed_most;
/// The face's parts: an eye's and the mouth's radius, tiles, and the eyes' height over
/// and under the mouth.
pub const EYE_RADIUS: f32 = 2.5;
pub const MOUTH_RADIUS: f32 = 3.0;
pub const EYE_APART: f32 = 8.0;
/// How thick the wall's flesh is behind its face, tiles.
pub const THICK: f32 = 4.0;
/// Tiles/s its face moves up or down at.
pub const FACE_SPEED: f32 = 12.0;
/// Seconds between the eyes' lasers (phase two: half).
pub const LASER_EVERY: f32 = WallBoss::SHIPPED.laser_every;
/// Laser speed, tiles/s, and seconds a laser flies.
pub const LASER_SPEED: f32 = WallBoss::SHIPPED.laser_speed;
pub const LASER_LIFE: f32 = 3.0;
/// Most lasers in flight.
pub const MOST_LASERS: usize = 12;
/// Health its touch (and being behind it) and a laser take.
pub const CONTACT_DAMAGE: f32 = WallBoss::SHIPPED.contact_damage;
pub const LASER_DAMAGE: f32 = WallBoss::SHIPPED.laser_damage;

/// A laser from an eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Laser {
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub life: f32,
}

/// The Wall.
#[derive(Clone, Debug, PartialEq)]
pub struct Wall {
    /// The column of its face, tiles.
    pub x: f32,
    /// The way it crosses: 1 right, -1 left.
    pub dir: f32,
    /// The rows it spans, tiles.
    pub top: f32,
    pub bottom: f32,
    /// The row of its mouth (the eyes above and below).
    pub face_y: f32,
    pub health: f32,
    pub lasers: Vec<Laser>,
    laser_in: f32,
    /// Lasers shot so far.
    pub shots: u32,
    /// The world's width, tiles: it stops at the far side.
    pub width: f32,
    /// Its numbers.
    pub n: WallBoss,
}

impl Wall {
    /// A wall at column `x` crossing toward `dir`, spanning rows `top..bottom` of a world
    /// `width` wide.
    pub fn new(x: f32, dir: f32, span: (f32, f32), width: f32) -> Wall {
        Wall::of(x, dir, span, width, &WallBoss::SHIPPED)
    }

    /// [`Wall::new`]'s wall of numbers `n`.
    pub fn of(x: f32, dir: f32, (top, bottom): (f32, f32), width: f32, n: &WallBoss) -> Wall {
        Wall {
            x,
            dir: if dir < 0.0 { -1.0 } else { 1.0 },
            top,
            bottom,
            face_y: (top + bottom) / 2.0,
            health: n.health,
            lasers: Vec::new(),
            laser_in: n.laser_every,
            shots: 0,
            width,
            n: *n,
        }
    }

    /// Tiles/s it crosses at now.
    pub fn speed(&self) -> f32 {
        let n = &self.n;
        let lost = 1.0 - (self.health / n.health).clamp(0.0, 1.0);
        n.speed + (n.speed_most - n.speed) * lost
    }

    /// The eyes' and the mouth's middles: top eye, mouth, bottom eye.
    pub fn face(&self) -> [(f32, f32); 3] {
        let x = self.x - self.dir * 1.5;
        [
            (x, self.face_y - EYE_APART),
            (x, self.face_y),
            (x, self.face_y + EYE_APART),
        ]
    }

    /// A step of `dt` toward `target`; `two`: phase two's lasers.
    pub fn update(&mut self, target: (f32, f32), two: bool, dt: f32) {
        self.x = (self.x + self.dir * self.speed() * dt).clamp(0.0, self.width);
        let lo = self.top + EYE_APART + EYE_RADIUS;
        let hi = (self.bottom - EYE_APART - EYE_RADIUS).max(lo);
        let want = target.1.clamp(lo, hi);
        let dy = (want - self.face_y).clamp(-FACE_SPEED * dt, FACE_SPEED * dt);
        self.face_y += dy;
        for l in &mut self.lasers {
            l.pos = (l.pos.0 + l.vel.0 * dt, l.pos.1 + l.vel.1 * dt);
            l.life -= dt;
        }
        self.lasers.retain(|l| l.life > 0.0);
        self.laser_in -= dt;
        if self.laser_in <= 0.0 {
            let every = self.n.laser_every;
            self.laser_in = if two { every / 2.0 } else { every };
            let face = self.face();
            for eye in [face[0], face[2]] {
                if self.lasers.len() >= MOST_LASERS {
                    break;
                }
                let (dx, dy) = (target.0 - eye.0, target.1 - eye.1);
                let d = (dx * dx + dy * dy).sqrt().max(1e-3);
                self.lasers.push(Laser {
                    pos: eye,
                    vel: (dx / d * self.n.laser_speed, dy / d * self.n.laser_speed),
                    life: LASER_LIFE,
                });
                self.shots += 1;
            }
        }
    }

    /// Is the box `(left, top, right, bottom)` touching its flesh or behind its face?
    pub fn reaches(&self, b: (f32, f32, f32, f32)) -> bool {
        let rows = b.3 >= self.top && b.1 <= self.bottom;
        // The edge of the box nearest the side it crosses toward.
        let front = if self.dir > 0.0 { b.0 } else { b.2 };
        rows && (front - self.x) * self.dir <= 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 60.0;

    #[test]
    fn it_crosses_faster_as_it_loses_health_and_follows_the_target_with_its_face() {
        let mut w = Wall::new(10.0, 1.0, (100.0, 160.0), 400.0);
        for _ in 0..60 {
            w.update((40.0, 150.0), false, DT);
        }
        assert!((w.x - (10.0 + SPEED)).abs() < 0.05, "{}", w.x);
        assert!(w.face_y > 135.0, "the face goes down to it: {}", w.face_y);
        assert!(w.face()[2].1 <= w.bottom, "inside its span");
        w.health = HEALTH / 4.0;
        assert!(w.speed() > SPEED * 2.0);
        // Right to left as well, and never out of the world.
        let mut w = Wall::new(3.0, -1.0, (100.0, 160.0), 400.0);
        for _ in 0..600 {
            w.update((0.0, 130.0), false, DT);
        }
        assert_eq!(w.x, 0.0);
    }

    #[test]
    fn its_eyes_shoot_lasers_at_the_target_twice_as_often_in_phase_two() {
        let count = |two: bool| {
            let mut w = Wall::new(10.0, 1.0, (100.0, 160.0), 400.0);
            for _ in 0..((LASER_EVERY * 4.0 + 0.2) / DT) as usize {
                w.update((60.0, 130.0), two, DT);
            }
            assert!(w.lasers.len() <= MOST_LASERS);
            assert!(w.lasers.iter().all(|l| l.vel.0 > 0.0), "toward the target");
            w.shots
        };
        let (one, two) = (count(false), count(true));
        assert_eq!(one, 8, "two eyes, four volleys");
        assert!(two > one + 4, "{one} {two}");
    }

    #[test]
    fn a_player_behind_it_or_at_its_face_is_reached() {
        let w = Wall::new(50.0, 1.0, (100.0, 160.0), 400.0);
        assert!(w.reaches((40.0, 120.0, 41.0, 123.0)), "behind it");
        assert!(w.reaches((50.2, 120.0, 51.2, 123.0)), "at its face");
        assert!(!w.reaches((55.0, 120.0, 56.0, 123.0)), "ahead of it");
        assert!(!w.reaches((40.0, 20.0, 41.0, 23.0)), "above the underworld");
        let w = Wall::new(50.0, -1.0, (100.0, 160.0), 400.0);
        assert!(w.reaches((60.0, 120.0, 61.0, 123.0)));
        assert!(!w.reaches((40.0, 120.0, 41.0, 123.0)));
    }
}
