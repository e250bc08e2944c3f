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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::rules::Rules;
    use crate::sim::creatures::{Creatures, Target};
    use crate::sim::vitals::Vitals;
    use crate::world::Tile;
    use crate::world::depth::Layers;

    /// Stone from row 10 down, 200 wide.
    fn flat() -> World {
        let mut w = World::new(200, 40, 0, crate::content::preset::Preset::default());
        for y in 10..40 {
            for x in 0..200 {
                w.set(x, y, Tile::Stone);
            }
        }
        w.surface = vec![10; 200];
        w
    }

    fn kind(name: &str) -> Kind {
        b().kind(name).unwrap()
    }

    fn b() -> &'static crate::content::bestiary::Bestiary {
        crate::sim::creatures::test_bestiary()
    }

    #[test]
    fn a_walker_walks_to_the_player_and_climbs_one_tile_steps() {
        let mut w = flat();
        // Steps up toward the player: a tile higher at x 110 and again at x 120.
        for x in 110..200 {
            w.set(x, 9, Tile::Stone);
        }
        for x in 120..200 {
            w.set(x, 8, Tile::Stone);
        }
        let mut z = Creature::new(b(), kind("zombie"), (100.5, 10.0));
        let target = (130.5, 8.0);
        let speed = match b().def(z.kind).behaviour {
            crate::content::bestiary::Behaviour::Walker { speed } => speed,
            _ => panic!("a zombie walks"),
        };
        for _ in 0..60 * 20 {
            z.update(b().def(z.kind), &w, target, 1.0 / 60.0);
            assert!(!player::body_blocked(&w, z.body.pos.0, z.body.pos.1));
            if z.body.on_ground {
                assert!(z.body.vel.0.abs() <= speed + 1e-3, "{:?}", z.body.vel);
            }
        }
        assert!(
            (z.body.pos.0 - target.0).abs() < 1.0 && z.body.pos.1 == 8.0,
            "up both steps to the player: {:?}",
            z.body.pos
        );
    }

    #[test]
    fn a_caster_teleports_near_the_player_and_its_bolt_hurts() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let rules = Rules {
            spawn_every_day: 1e3,
            ..Rules::default()
        };
        let mut c = Creatures::new(
            9,
            std::sync::Arc::clone(crate::sim::creatures::test_bestiary()),
        );
        let imp = kind("fire imp");
        c.list.push(Creature::new(b(), imp, (60.5, 10.0)));
        let mut me = Player::new((100.5, 10.0));
        let mut vitals = Vitals::new(100.0, &rules);
        let mut hurt = None;
        let mut thrown = 0;
        for _ in 0..60 * 12 {
            let mut one = [Target {
                body: &mut me,
                vitals: &mut vitals,
                half: (10.0, 10.0),
            }];
            let hits = c.update_many(&w, &layers, &mut one, false, &rules, 1.0 / 60.0, None);
            thrown = thrown.max(c.bolts.len());
            if let Some((_, h)) = hits.into_iter().next() {
                hurt = Some(h);
                break;
            }
        }
        let x = c.list[0].body.pos.0;
        assert!(
            (3.0..=15.0).contains(&(x - 100.5).abs()),
            "teleported within its range, not on top: {x}"
        );
        assert!(thrown >= 1, "it threw a bolt");
        let h = hurt.expect("the bolt reached the player");
        assert_eq!((h.name.as_str(), h.damage), ("fire imp", 30.0));
        assert_eq!(vitals.health, 70.0);
    }

    #[test]
    fn a_bolt_stops_at_a_tile_unless_it_goes_through_them() {
        let w = flat();
        let mut b = Bolt {
            pos: (50.5, 5.0),
            vel: (0.0, 5.0),
            damage: 1.0,
            through_walls: false,
            age: 0.0,
            from: kind("antlion"),
        };
        let mut fire = Bolt {
            through_walls: true,
            ..b
        };
        let frames = (0..120).take_while(|_| b.update(&w, 1.0 / 60.0)).count();
        assert!(
            frames < 70 && b.pos.1 >= 10.0,
            "stopped in the floor: {:?}",
            b.pos
        );
        assert!(
            (0..120).all(|_| fire.update(&w, 1.0 / 60.0)),
            "{:?}",
            fire.pos
        );
        assert!(fire.pos.1 > 11.0);
    }

    #[test]
    fn the_guardian_flies_through_walls_and_defence_and_resistance_tell() {
        let mut w = flat();
        for y in 0..10 {
            w.set(80, y, Tile::Stone);
        }
        let mut g = Creature::new(b(), kind("dungeon guardian"), (70.5, 8.0));
        for _ in 0..60 * 4 {
            g.update(b().def(g.kind), &w, (90.5, 10.0), 1.0 / 60.0);
        }
        assert!(g.body.pos.0 > 85.0, "through the wall: {:?}", g.body.pos);
        // Defence takes half its worth off, at least 1 left; a full resistance is not
        // thrown back.
        let (full, vel) = (g.health, g.body.vel);
        g.hit(b().def(g.kind), 50.0, 80.0, 1);
        assert_eq!(g.health, full - 1.0);
        assert_eq!(g.body.vel, vel, "not thrown back");
        let mut bones = Creature::new(b(), kind("angry bones"), (70.5, 10.0));
        bones.hit(b().def(bones.kind), 20.0, 69.0, 1);
        assert_eq!(bones.health, 80.0 - 16.0);
        assert!(bones.body.vel.0 > 0.0, "thrown away");
    }
}
