//! Creatures: slimes on the surface (more at night), cave slimes in the cavern layer and
//! lava slimes in the underworld. They hop toward the player with the player's own
//! tunnelling-free physics ([`crate::sim::player::Player`] is their body), hurt on touch, and
//! drop materials when a sword swing kills them.
//!
//! Spawning rules (pure functions, tested below):
//! - a spawn spot is a tile of air with air above it (the body's height) and a solid
//!   tile under it: never inside walls or liquids ([`spawn_spot`]);
//! - which kind depends on the depth layer there ([`kind_for`]): none in the underground
//!   layer between the surface and the caverns; slimes only stand on the surface itself
//!   (above each column's first ground row), not in the surface layer's caves;
//! - the spot must be off screen but within [`SPAWN_RANGE`] of the player
//!   ([`off_screen`]); at most [`Rules::creature_cap`] creatures are about, and attempts
//!   come every [`Rules::spawn_every_day`] (or `_night`) seconds;
//! - creatures further than [`DESPAWN_RANGE`] from the player are gone.

use crate::content::rules::Rules;
use crate::sim::player::{self, Input, Player};
use crate::world::World;
use crate::world::depth::{Layer, Layers};

/// Tiles from the player, across and up/down, within which creatures spawn.
pub const SPAWN_RANGE: (f32, f32) = (70.0, 40.0);
/// Creatures further than this many tiles from the player are removed.
pub const DESPAWN_RANGE: f32 = 120.0;
/// Seconds the player cannot be hurt again after a creature's touch.
pub const HURT_COOLDOWN: f32 = 0.6;
/// Speed a hit throws its target back, tiles/s.
pub const KNOCKBACK: f32 = 9.0;

pub use crate::content::bestiary::{Kind, Stats};

/// The kind that spawns in `layer`, if any.
pub fn kind_for(layer: Layer) -> Option<Kind> {
    match layer {
        Layer::Sky | Layer::Surface => Some(Kind::Slime),
        Layer::Underground => None,
        Layer::Cavern => Some(Kind::CaveSlime),
        Layer::Underworld => Some(Kind::LavaSlime),
    }
}

/// Can a body stand with its feet on top of row `y + 1` in column `x`: `(x, y)` and the
/// tile above it air, the one below solid?
pub fn spawn_spot(world: &World, x: i64, y: i64) -> bool {
    let air = |yy: i64| world.get(x, yy).is_some_and(|t| t.is_open());
    air(y) && air(y - 1) && world.get(x, y + 1).is_some_and(|t| t.is_solid())
}

/// Is tile `(x, y)` outside a view of `half` tiles each way round the player (by a
/// margin of 2) and within [`SPAWN_RANGE`]?
pub fn off_screen(player: (f32, f32), half: (f32, f32), x: i64, y: i64) -> bool {
    let (dx, dy) = (
        (x as f32 + 0.5 - player.0).abs(),
        (y as f32 + 0.5 - player.1).abs(),
    );
    let outside = dx > half.0 + 2.0 || dy > half.1 + 2.0;
    outside && dx <= SPAWN_RANGE.0 && dy <= SPAWN_RANGE.1
}

/// Do two boxes `(left, top, right, bottom)` overlap?
pub fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The box a sword of `reach` sweeps in front of a body `body` facing `facing` (±1): as
/// tall as the body and a tile more, `reach` tiles out from its side.
pub fn swing_box(body: (f32, f32, f32, f32), facing: i8, reach: f32) -> (f32, f32, f32, f32) {
    let (top, bottom) = (body.1 - 0.5, body.3 + 0.5);
    if facing >= 0 {
        (body.2 - 0.3, top, body.2 + reach, bottom)
    } else {
        (body.0 - reach, top, body.0 + 0.3, bottom)
    }
}

/// One creature.
#[derive(Clone, Debug, PartialEq)]
pub struct Creature {
    pub kind: Kind,
    pub body: Player,
    pub health: f32,
    /// Seconds until the next hop.
    hop_in: f32,
    /// Direction of the current hop (held while airborne).
    dir: i8,
    /// Seconds the creature shows it was hit (flash).
    pub hit_flash: f32,
}

impl Creature {
    pub fn new(kind: Kind, feet: (f32, f32)) -> Creature {
        Creature {
            kind,
            body: Player::new(feet),
            health: kind.stats().health,
            hop_in: kind.stats().hop_every,
            dir: 0,
            hit_flash: 0.0,
        }
    }

    /// The drawn size of the body in tiles (width, height): a slime is lower than the
    /// box it collides with.
    pub fn size(&self) -> (f32, f32) {
        (player::WIDTH + 0.3, 0.9)
    }

    /// Its box for touching and being hit: the lower part of the physics body.
    pub fn hitbox(&self) -> (f32, f32, f32, f32) {
        let (l, _, r, b) = self.body.bounds();
        (l - 0.15, b - 1.0, r + 0.15, b)
    }

    /// One frame: waits on the ground, then hops toward `target`.
    pub fn update(&mut self, world: &World, target: (f32, f32), dt: f32) {
        let st = self.kind.stats();
        self.hit_flash = (self.hit_flash - dt).max(0.0);
        let mut input = Input::default();
        if self.body.on_ground {
            self.dir = 0;
            self.hop_in -= dt;
            if self.hop_in <= 0.0 {
                self.hop_in = st.hop_every;
                self.dir = if target.0 < self.body.pos.0 { -1 } else { 1 };
                input.presses = 1;
                input.jump = st.high_hops;
            }
        } else {
            input.jump = st.high_hops;
        }
        input.left = self.dir < 0;
        input.right = self.dir > 0;
        self.body.update(world, input, dt);
    }

    /// Takes a hit of `damage` from a body at `from_x`, thrown back; true when it died.
    pub fn hit(&mut self, damage: f32, from_x: f32) -> bool {
        self.health -= damage;
        self.hit_flash = 0.15;
        let away = if self.body.pos.0 < from_x { -1.0 } else { 1.0 };
        self.body.vel = (away * KNOCKBACK, -KNOCKBACK * 0.6);
        self.body.on_ground = false;
        self.health <= 0.0
    }
}

/// What a sword swing did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Swing {
    pub hits: u32,
    /// Kinds killed, with what they dropped (item name, count).
    pub killed: Vec<(Kind, &'static str, u32)>,
}

/// Every creature about, spawn timing and the player's hurt cooldown.
#[derive(Clone, Debug, Default)]
pub struct Creatures {
    pub list: Vec<Creature>,
    /// Seconds to the next spawn attempt.
    next_spawn: f32,
    /// Seconds the player is safe from touches.
    pub immune: f32,
    /// Counter for the spawn choices (deterministic per world).
    rng: u64,
    /// Creatures spawned and killed so far (for the log).
    pub spawned: u32,
    pub killed: u32,
}

impl Creatures {
    /// Creatures for a world of `seed` (spawn choices follow from it).
    pub fn new(seed: u64) -> Creatures {
        Creatures {
            rng: seed,
            next_spawn: 1.0,
            ..Default::default()
        }
    }

    fn rand(&mut self, n: u64) -> u64 {
        self.rng = crate::base::rng::mix64(self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        self.rng % n.max(1)
    }

    /// Tries a few random spots round the player for a spawn; returns the creature
    /// spawned, if any. `half`: half the view in tiles (spawns stay off screen).
    pub fn try_spawn(
        &mut self,
        world: &World,
        layers: &Layers,
        player: (f32, f32),
        half: (f32, f32),
        cap: usize,
    ) -> Option<Kind> {
        if self.list.len() >= cap {
            return None;
        }
        for _ in 0..24 {
            let x = player.0 as i64 + self.rand(2 * SPAWN_RANGE.0 as u64 + 1) as i64
                - SPAWN_RANGE.0 as i64;
            let y0 = player.1 as i64 + self.rand(2 * SPAWN_RANGE.1 as u64 + 1) as i64
                - SPAWN_RANGE.1 as i64;
            // Down from the random row to the first floor, a few tiles at most.
            let Some(y) = (y0..y0 + 12).find(|&y| spawn_spot(world, x, y)) else {
                continue;
            };
            if !off_screen(player, half, x, y) || x < 0 || y < 0 {
                continue;
            }
            let surface = world.surface.get(x as usize).copied().unwrap_or(0);
            let Some(kind) = kind_for(layers.at(y as usize, surface)) else {
                continue;
            };
            // Slimes live on the ground under the sky, not in the caves of the surface
            // layer.
            if kind == Kind::Slime && y >= surface as i64 {
                continue;
            }
            self.list
                .push(Creature::new(kind, (x as f32 + 0.5, (y + 1) as f32)));
            self.spawned += 1;
            return Some(kind);
        }
        None
    }

    /// One frame: spawning on its timer (faster at night), movement, despawning far
    /// ones, and touches. Returns the damage and the creature's name of a touch that hurt
    /// the player this frame.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        world: &World,
        layers: &Layers,
        player: &Player,
        half: (f32, f32),
        night: bool,
        rules: &Rules,
        dt: f32,
    ) -> Option<(f32, &'static str)> {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        self.immune = (self.immune - dt).max(0.0);
        self.next_spawn -= dt;
        if self.next_spawn <= 0.0 {
            self.next_spawn = if night {
                rules.spawn_every_night
            } else {
                rules.spawn_every_day
            };
            let cap = rules.creature_cap as usize;
            self.try_spawn(world, layers, player.pos, half, cap);
        }
        let target = player.pos;
        self.list.retain(|c| {
            let (dx, dy) = (c.body.pos.0 - target.0, c.body.pos.1 - target.1);
            dx.abs() <= DESPAWN_RANGE
                && dy.abs() <= DESPAWN_RANGE
                && !player::body_blocked(world, c.body.pos.0, c.body.pos.1)
        });
        for c in &mut self.list {
            c.update(world, target, dt);
        }
        if self.immune > 0.0 {
            return None;
        }
        let me = player.bounds();
        let touch = self.list.iter().find(|c| overlap(c.hitbox(), me))?;
        self.immune = HURT_COOLDOWN;
        let st = touch.kind.stats();
        Some((st.damage, st.name))
    }

    /// A sword swing from `player` with `damage` and `reach`: every creature in the swept
    /// box is hit; the dead are removed and their drops returned.
    pub fn swing(&mut self, player: &Player, damage: f32, reach: f32) -> Swing {
        let area = swing_box(player.bounds(), player.facing, reach);
        let from = player.pos.0;
        let mut out = Swing::default();
        let mut dead = Vec::new();
        for (i, c) in self.list.iter_mut().enumerate() {
            if overlap(c.hitbox(), area) {
                out.hits += 1;
                if c.hit(damage, from) {
                    dead.push(i);
                }
            }
        }
        for &i in dead.iter().rev() {
            let c = self.list.swap_remove(i);
            let st = c.kind.stats();
            let n = st.drops + (self.rand(2) as u32);
            out.killed.push((c.kind, st.drop, n));
            self.killed += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Air over a stone floor at row 10, 80 tiles wide.
    fn flat() -> World {
        let mut w = World::new(200, 40, 0, crate::content::preset::Preset::default());
        for y in 10..40 {
            for x in 0..200 {
                w.set(x, y, crate::world::Tile::Stone);
            }
        }
        w.surface = vec![10; 200];
        w
    }

    #[test]
    fn spawn_spots_are_never_inside_walls_or_water() {
        let mut w = flat();
        assert!(spawn_spot(&w, 50, 9));
        assert!(!spawn_spot(&w, 50, 10), "in the floor");
        assert!(!spawn_spot(&w, 50, 8), "in the air, no floor under");
        w.set(51, 8, crate::world::Tile::Stone);
        assert!(!spawn_spot(&w, 51, 9), "no room for the body");
        w.set(52, 9, crate::world::Tile::Water);
        assert!(!spawn_spot(&w, 52, 9), "under water");
        assert!(!spawn_spot(&w, -1, 9) && !spawn_spot(&w, 200, 9));
    }

    #[test]
    fn kinds_follow_the_depth_layers() {
        assert_eq!(kind_for(Layer::Surface), Some(Kind::Slime));
        assert_eq!(kind_for(Layer::Underground), None);
        assert_eq!(kind_for(Layer::Cavern), Some(Kind::CaveSlime));
        assert_eq!(kind_for(Layer::Underworld), Some(Kind::LavaSlime));
        let (s, c, l) = (
            Kind::Slime.stats(),
            Kind::CaveSlime.stats(),
            Kind::LavaSlime.stats(),
        );
        assert!(s.health < c.health && c.health < l.health, "worse deeper");
        assert!(s.damage < c.damage && c.damage < l.damage);
    }

    #[test]
    fn spawns_are_off_screen_within_range_and_capped() {
        let half = (32.0, 18.0);
        assert!(!off_screen((100.0, 9.0), half, 110, 9), "on screen");
        assert!(off_screen((100.0, 9.0), half, 140, 9));
        assert!(!off_screen((100.0, 9.0), half, 180, 9), "too far");
        let w = flat();
        let layers = Layers::of_world(&w);
        let mut c = Creatures::new(7);
        let player = (100.0, 10.0);
        let mut kinds = Vec::new();
        for _ in 0..50 {
            kinds.extend(c.try_spawn(&w, &layers, player, half, 4));
        }
        assert_eq!(c.list.len(), 4, "capped");
        for k in &c.list {
            let (x, y) = k.body.pos;
            assert!(off_screen(player, half, x as i64, y as i64 - 1), "{x} {y}");
            assert!(!player::body_blocked(&w, x, y), "never in a wall");
            assert_eq!(y, 10.0, "on the floor");
        }
        assert!(kinds.iter().all(|&k| k == Kind::Slime), "{kinds:?}");
        // A cave under the surface gets no slimes: they stand on the ground above it.
        let mut w = flat();
        for x in 0..200 {
            w.set(x, 9, crate::world::Tile::Stone);
            w.set(x, 10, crate::world::Tile::Air);
            w.set(x, 11, crate::world::Tile::Air);
        }
        w.surface = vec![9; 200];
        let mut c = Creatures::new(7);
        for _ in 0..50 {
            c.try_spawn(&w, &layers, player, half, 4);
        }
        assert!(!c.list.is_empty());
        assert!(
            c.list.iter().all(|k| k.body.pos.1 == 9.0),
            "only on top of the ground: {:?}",
            c.list.iter().map(|k| k.body.pos).collect::<Vec<_>>()
        );
    }

    #[test]
    fn slimes_hop_toward_the_player_and_hurt_on_touch() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let rules = Rules {
            spawn_every_day: 1e3,
            ..Rules::default()
        };
        let mut c = Creatures::new(1);
        c.next_spawn = 1e3;
        c.list.push(Creature::new(Kind::Slime, (120.5, 10.0)));
        let player = Player::new((100.5, 10.0));
        let mut hurt = None;
        let mut hops = 0;
        let mut was_ground = true;
        for _ in 0..60 * 30 {
            hurt = hurt.or(c.update(
                &w,
                &layers,
                &player,
                (10.0, 10.0),
                false,
                &rules,
                1.0 / 60.0,
            ));
            let s = &c.list[0];
            if was_ground && !s.body.on_ground {
                hops += 1;
            }
            was_ground = s.body.on_ground;
            if hurt.is_some() {
                break;
            }
        }
        assert!(hops >= 2, "{hops} hops");
        assert_eq!(hurt, Some((Kind::Slime.stats().damage, "slime")));
        assert!(c.immune > 0.0);
        // Right after a touch the player is safe for a moment.
        let again = c.update(
            &w,
            &layers,
            &player,
            (10.0, 10.0),
            false,
            &rules,
            1.0 / 60.0,
        );
        assert_eq!(again, None);
    }

    #[test]
    fn a_sword_swing_hits_in_front_only_and_kills_drop_gel() {
        let mut c = Creatures::new(3);
        let mut player = Player::new((50.5, 10.0));
        player.facing = 1;
        c.list.push(Creature::new(Kind::Slime, (52.0, 10.0)));
        c.list.push(Creature::new(Kind::Slime, (48.5, 10.0)));
        c.list.push(Creature::new(Kind::Slime, (58.0, 10.0)));
        let s = c.swing(&player, 9.0, 2.2);
        assert_eq!((s.hits, s.killed.len()), (1, 0));
        assert!(c.list[0].health < Kind::Slime.stats().health);
        assert!(
            c.list[0].body.vel.0 > 0.0,
            "thrown back away from the player"
        );
        let s = c.swing(&player, 9.0, 2.2);
        assert_eq!(s.killed.len(), 1);
        let (kind, item, n) = s.killed[0];
        assert_eq!((kind, item), (Kind::Slime, "gel"));
        assert!((1..=2).contains(&n));
        assert!(
            crate::content::items::named(item).is_some(),
            "the drop is an item"
        );
        assert_eq!(c.list.len(), 2, "the other two are untouched");
        player.facing = -1;
        assert_eq!(
            c.swing(&player, 9.0, 2.2).hits,
            1,
            "the one behind, once turned"
        );
    }
}
