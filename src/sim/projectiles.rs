//! Projectiles: arrows, magic bolts, shuriken, bombs and dynamite in flight. Pure rules
//! over a [`World`]; the session ([`crate::sim::session`]) fires them, finds what they hit
//! and makes the blasts.
//!
//! - Each tick a projectile falls by its `gravity` and moves by its speed in steps of at
//!   most [`STEP`] tiles, so a fast one never passes through a wall ([`Projectile::fly`]).
//! - An arrow, bolt or shuriken that meets a solid tile stops there and is gone; one that
//!   meets a creature hurts it and is gone once it has gone through `pierce` of them.
//! - A bomb bounces on tiles and lies still; when its fuse burns out it blows up:
//!   [`blast_tiles`] names the tiles it breaks (those within its radius that a pickaxe of
//!   its power could mine, never a chest, a door, furniture or a protected tile — the
//!   town's houses).
//! - Everything lives at most [`LIFETIME`] seconds; there are at most [`MAX_PROJECTILES`].

use crate::world::{Tile, World};

/// Most tiles a projectile moves between two looks at the tiles.
pub const STEP: f32 = 0.25;
/// Seconds a projectile lives at most.
pub const LIFETIME: f32 = 6.0;
/// Most projectiles in flight in a session (more shots are refused).
pub const MAX_PROJECTILES: usize = 256;
/// Tiles a second of fall an arrow or a thrown thing gains each second.
pub const GRAVITY: f32 = 20.0;
/// Fastest fall, tiles a second.
pub const TERMINAL: f32 = 40.0;

/// What a projectile is (how it is drawn and what it does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Look {
    Arrow,
    FlamingArrow,
    Bolt,
    Shuriken,
    Bomb,
    Dynamite,
}

impl Look {
    /// Does it blow up when its fuse is out (rather than hit what it meets)?
    pub fn explodes(self) -> bool {
        matches!(self, Look::Bomb | Look::Dynamite)
    }

    /// Does gravity pull it?
    pub fn falls(self) -> bool {
        self != Look::Bolt
    }
}

/// A blast: where, how wide, how hard, and what it may break.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blast {
    pub radius: f32,
    pub power: u32,
}

/// One projectile in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Projectile {
    pub look: Look,
    /// Centre, tiles.
    pub pos: (f32, f32),
    /// Tiles a second.
    pub vel: (f32, f32),
    /// The player who fired it (its seat).
    pub owner: usize,
    pub damage: f32,
    /// Creatures it may still go through after the one it hits.
    pub pierce: u8,
    /// Seconds left to live (a bomb's fuse).
    pub life: f32,
    /// A bomb's blast.
    pub blast: Option<Blast>,
}

/// What a tick of flight did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Flight {
    /// Still flying: from where to where this tick.
    Moved((f32, f32), (f32, f32)),
    /// Met a solid tile: the path up to it.
    Wall((f32, f32), (f32, f32)),
    /// Its time is out (a bomb: blow it up).
    Out,
}

/// Is the tile at `p` something a projectile stops at?
fn blocks(world: &World, p: (f32, f32)) -> bool {
    world
        .get(p.0.floor() as i64, p.1.floor() as i64)
        .is_none_or(|t| t.is_solid())
}

impl Projectile {
    /// One tick of `dt` seconds through `world`, swept in steps of at most [`STEP`].
    pub fn fly(&mut self, world: &World, dt: f32) -> Flight {
        self.life -= dt;
        if self.life <= 0.0 {
            return Flight::Out;
        }
        if self.look.falls() {
            self.vel.1 = (self.vel.1 + GRAVITY * dt).min(TERMINAL);
        }
        let from = self.pos;
        let (dx, dy) = (self.vel.0 * dt, self.vel.1 * dt);
        let steps = ((dx.abs().max(dy.abs()) / STEP).ceil() as usize).max(1);
        let (sx, sy) = (dx / steps as f32, dy / steps as f32);
        for _ in 0..steps {
            let next = (self.pos.0 + sx, self.pos.1 + sy);
            if blocks(world, next) {
                if self.look.explodes() {
                    // A bomb bounces back off what it met, losing most of its speed.
                    let side = blocks(world, (next.0, self.pos.1));
                    let floor = blocks(world, (self.pos.0, next.1));
                    if side || !floor {
                        self.vel.0 *= -0.4;
                    }
                    if floor || !side {
                        self.vel.1 *= -0.3;
                    }
                    if floor && self.vel.1.abs() < 2.0 {
                        self.vel = (self.vel.0 * 0.8, 0.0);
                    }
                    return Flight::Moved(from, self.pos);
                }
                return Flight::Wall(from, self.pos);
            }
            self.pos = next;
        }
        Flight::Moved(from, self.pos)
    }

    /// Its angle along its speed, radians (for drawing an arrow).
    pub fn angle(&self) -> f32 {
        self.vel.1.atan2(self.vel.0)
    }
}

/// Where along the segment `a`→`b` it first enters the box `(left, top, right, bottom)`:
/// a share 0..=1 of the way, or `None` if it misses.
pub fn segment_hits(
    a: (f32, f32),
    b: (f32, f32),
    (l, t, r, bot): (f32, f32, f32, f32),
) -> Option<f32> {
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for (p, d, min, max) in [(a.0, b.0 - a.0, l, r), (a.1, b.1 - a.1, t, bot)] {
        if d.abs() < 1e-9 {
            if p < min || p > max {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((min - p) / d, (max - p) / d);
        lo = lo.max(t0.min(t1));
        hi = hi.min(t0.max(t1));
        if lo > hi {
            return None;
        }
    }
    Some(lo)
}

/// The velocity of a shot at `speed` from `from` toward `to` (straight ahead along
/// `facing` when they are the same point).
pub fn aim(from: (f32, f32), to: (f32, f32), speed: f32, facing: i8) -> (f32, f32) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let d = (dx * dx + dy * dy).sqrt();
    if d < 1e-3 {
        return (speed * f32::from(facing.signum()), 0.0);
    }
    (dx / d * speed, dy / d * speed)
}

/// Does a blast of `power` break `tile`? Solid ground a pickaxe of that power mines
/// (`needed` is [`crate::content::items::Catalog::power_needed`]); never a chest, a door,
/// a shadow orb, furniture, a liquid or a tree.
pub fn breaks(tile: Tile, needed: u32, power: u32) -> bool {
    tile.is_solid()
        && !tile.is_door()
        && !matches!(tile, Tile::Chest | Tile::ShadowOrb)
        && !crate::sim::edit::is_furniture(tile)
        && crate::sim::edit::dig_time(tile).is_some()
        && needed <= power
}

/// The tiles a blast at `at` breaks: within its radius, [`breaks`] by `needed`, not in the
/// world's bottom row and not `protected` (a town's houses).
pub fn blast_tiles(
    world: &World,
    at: (f32, f32),
    blast: Blast,
    needed: impl Fn(Tile) -> u32,
    protected: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let r = blast.radius;
    let mut out = Vec::new();
    let (x0, x1) = ((at.0 - r).floor() as i64, (at.0 + r).ceil() as i64);
    let (y0, y1) = ((at.1 - r).floor() as i64, (at.1 + r).ceil() as i64);
    let bottom = world.height() as i64 - 1;
    for y in y0.max(0)..=y1.min(bottom - 1) {
        for x in x0.max(0)..=x1 {
            let (cx, cy) = (x as f32 + 0.5 - at.0, y as f32 + 0.5 - at.1);
            if cx * cx + cy * cy > r * r {
                continue;
            }
            let Some(t) = world.get(x, y) else { continue };
            if breaks(t, needed(t), blast.power) && !protected(x as usize, y as usize) {
                out.push((x as usize, y as usize));
            }
        }
    }
    out
}

/// Does a circle at `at` of radius `r` reach the box `(left, top, right, bottom)`?
pub fn reaches(at: (f32, f32), r: f32, (l, t, rt, b): (f32, f32, f32, f32)) -> bool {
    let dx = at.0 - at.0.clamp(l, rt);
    let dy = at.1 - at.1.clamp(t, b);
    dx * dx + dy * dy <= r * r
}

#[cfg(test)]
mod tests;
