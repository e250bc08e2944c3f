//! The behaviours beyond hopping and flying ([`crate::content::bestiary::Behaviour`]):
//! walkers, casters and the bolts casters throw, and flight through tiles.

use crate::base::rng::mix64;
use crate::sim::player::{self, Input, Player};
use crate::world::World;

use super::{Creature, Kind, spawn_spot, steer};

/// Seconds a bolt flies before it fades.
pub const BOLT_SECONDS: f32 = 8.0;
/// Most bolts about at once (more are not thrown).
pub const MAX_BOLTS: usize = 64;

/// A caster's bolt: a point that flies straight, hurting the first player it touches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bolt {
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub damage: f32,
    /// Flies through tiles (the fire imp's fireball); else a solid tile stops it.
    pub through_walls: bool,
    pub age: f32,
    /// Who threw it.
    pub from: Kind,
}

impl Bolt {
    /// One frame; false when it is gone (old, out of the world, or into a tile).
    pub fn update(&mut self, world: &World, dt: f32) -> bool {
        self.pos = (self.pos.0 + self.vel.0 * dt, self.pos.1 + self.vel.1 * dt);
        self.age += dt;
        let tile = world.get(self.pos.0.floor() as i64, self.pos.1.floor() as i64);
        let Some(tile) = tile else {
            return false;
        };
        self.age < BOLT_SECONDS && (self.through_walls || !tile.is_solid())
    }

    /// Is it inside box `b` (left, top, right, bottom)?
    pub fn inside(&self, b: (f32, f32, f32, f32)) -> bool {
        (b.0..=b.2).contains(&self.pos.0) && (b.1..=b.3).contains(&self.pos.1)
    }
}

/// One frame of a walker toward `target` at up to `speed`: it runs at it and jumps
/// whatever stops it on the ground (a step of a tile or two).
pub fn walk(world: &World, c: &mut Creature, target: (f32, f32), speed: f32, dt: f32) {
    let dx = target.0 - c.body.pos.0;
    let want: i8 = if dx.abs() < 0.3 { 0 } else { dx.signum() as i8 };
    let blocked = want != 0
        && player::body_blocked(
            world,
            c.body.pos.0 + f32::from(want) * 0.3,
            c.body.pos.1 - 0.05,
        );
    let input = Input {
        left: want < 0,
        right: want > 0,
        jump: blocked || !c.body.on_ground,
        presses: u8::from(blocked && c.body.on_ground),
        down: false,
    };
    c.dir = want;
    c.body.update(world, input, dt);
    if c.body.on_ground {
        c.body.vel.0 = c.body.vel.0.clamp(-speed, speed);
    }
}

/// One frame of flight through tiles toward `aim` at up to `speed` (kept inside the
/// world).
pub fn ghost(world: &World, body: &mut Player, aim: (f32, f32), speed: f32, dt: f32) {
    let mut v = steer(body, aim, dt);
    let s = (v.0 * v.0 + v.1 * v.1).sqrt();
    if s > speed {
        v = (v.0 * speed / s, v.1 * speed / s);
    }
    body.vel = v;
    body.pos = world.keep_inside((body.pos.0 + v.0 * dt, body.pos.1 + v.1 * dt), 1.0);
    body.on_ground = false;
}

/// The numbers of a caster.
#[derive(Clone, Copy, Debug)]
pub struct Cast {
    pub every: f32,
    pub range: f32,
    pub bolt_speed: f32,
    pub bolt_damage: f32,
    pub through_walls: bool,
}

/// One frame of a caster: it stands (falls if in the air); every `every` seconds it
/// teleports to a floor within `range` tiles of `target` (not nearer than 3) if it finds
/// one, then throws a bolt at it.
pub fn cast(world: &World, c: &mut Creature, target: (f32, f32), k: Cast, dt: f32) -> Option<Bolt> {
    c.body.update(world, Input::default(), dt);
    c.hop_in -= dt;
    if c.hop_in > 0.0 {
        return None;
    }
    c.hop_in = k.every;
    c.casts = c.casts.wrapping_add(1);
    if k.range >= 1.0 {
        let r = k.range as i64;
        let seed = mix64(u64::from(c.casts) ^ (c.body.pos.0.to_bits() as u64) << 20);
        for i in 0..24u64 {
            let h = mix64(seed.wrapping_add(i));
            let dx = (h % (2 * r as u64 + 1)) as i64 - r;
            let dy = ((h >> 20) % 9) as i64 - 4;
            if dx.abs() < 3 {
                continue;
            }
            let (x, y0) = (target.0.floor() as i64 + dx, target.1 as i64 + dy - 1);
            if let Some(y) = (y0..y0 + 8).find(|&y| spawn_spot(world, x, y)) {
                c.body.pos = (x as f32 + 0.5, (y + 1) as f32);
                c.body.vel = (0.0, 0.0);
                break;
            }
        }
    }
    let from = (c.body.pos.0, c.body.pos.1 - 0.8);
    let aim = (target.0, target.1 - player::HEIGHT / 2.0);
    let (dx, dy) = (aim.0 - from.0, aim.1 - from.1);
    let d = (dx * dx + dy * dy).sqrt().max(1e-3);
    Some(Bolt {
        pos: from,
        vel: (dx / d * k.bolt_speed, dy / d * k.bolt_speed),
        damage: k.bolt_damage,
        through_walls: k.through_walls,
        age: 0.0,
        from: c.kind,
    })
}
