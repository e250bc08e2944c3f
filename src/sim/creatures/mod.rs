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
//!   ([`off_screen`]); at most [`spawn_cap`] creatures are about (fewer by day on the
//!   surface, fewest by day near the spawn point), and attempts come every
//!   [`Rules::spawn_every_day`] (or `_night`) seconds;
//! - creatures further than [`DESPAWN_RANGE`] from the player are gone.
//!
//! Dying without a swing: lava burns every kind but the lava slime, at the player's rate
//! ([`Rules::lava_damage`]); a creature it kills is [`Fallen`], credited to the player
//! whose swing struck it within [`CREDIT_SECONDS`] (one knocked into lava), else to no
//! one. Falls do not hurt creatures (nor do they in Terraria), and a servant outlives its
//! Eye, so lava is the only death but a swing.
//!
//! Touching: a creature whose box overlaps the player's hits it ([`Hit`], through
//! [`Vitals::strike`]: once per invincibility window) and throws it back. Creatures keep
//! apart: after each frame none overlaps another or the player ([`push_out`]), unless a
//! wall leaves no room.

pub mod behaviour;
pub mod spawn;

use crate::content::bestiary::{Behaviour, Bestiary, Def};
use crate::content::rules::Rules;
use crate::sim::light::LightMap;
use crate::sim::player::{self, Input, Player};
use crate::sim::vitals::Vitals;
use crate::world::World;
use crate::world::depth::{Layer, Layers};
use std::sync::Arc;

/// Tiles from the player, across and up/down, within which creatures spawn.
pub const SPAWN_RANGE: (f32, f32) = (70.0, 40.0);
/// Creatures further than this many tiles from the player are removed.
pub const DESPAWN_RANGE: f32 = 120.0;
/// Creatures within this many tiles of where the player comes back after a death are
/// gone (no one waits at the spawn point).
pub const RESPAWN_CLEAR: f32 = 30.0;
/// Seconds a dropped heart lies before it fades.
pub const HEART_SECONDS: f32 = 120.0;
/// Speed a heart flies to the player, and falls at most, tiles/s.
pub const HEART_SPEED: f32 = 12.0;

/// Speed a hit throws its target back, tiles/s.
pub const KNOCKBACK: f32 = 9.0;

pub use crate::content::bestiary::{Kind, Stats};
pub use behaviour::Bolt;

/// Seconds a swing's strike counts: a creature lava kills this soon after a player struck
/// it is that player's kill.
pub const CREDIT_SECONDS: f32 = 3.0;

/// One night spawn on the surface in this many is a demon eye, by default
/// ([`Rules::demon_eye_one_in`]).
pub const DEMON_EYE_ONE_IN: u64 = 3;

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

/// How many creatures may be about: [`Rules::creature_cap`] at night or below the
/// surface; by day on the surface at most [`Rules::day_cap`], and near home (the spawn
/// point) at most [`Rules::home_day_cap`].
pub fn spawn_cap(night: bool, on_surface: bool, near_home: bool, rules: &Rules) -> usize {
    let mut cap = rules.creature_cap;
    if !night && on_surface {
        cap = cap.min(rules.day_cap);
        if near_home {
            cap = cap.min(rules.home_day_cap);
        }
    }
    cap as usize
}

/// The move across that takes box `a` out of box `b`: toward the side of `b` its centre
/// is on (the right when centred), 0 when they do not overlap.
pub fn push_out(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> f32 {
    if !overlap(a, b) {
        return 0.0;
    }
    if a.0 + a.2 < b.0 + b.2 {
        b.0 - a.2
    } else {
        b.2 - a.0
    }
}

/// Moves `body` across by `dx` if every point on the way is free; true if it moved.
fn slide(world: &World, body: &mut Player, dx: f32) -> bool {
    let pieces = (dx.abs() / 0.25).ceil().max(1.0) as usize;
    let (x, y) = body.pos;
    let free =
        (1..=pieces).all(|i| !player::body_blocked(world, x + dx * i as f32 / pieces as f32, y));
    if free {
        body.pos.0 = x + dx;
    }
    free
}

/// Gap left between boxes pushed apart.
const APART: f32 = 1e-3;
/// Rounds of pushing creatures apart a frame, at most.
const APART_ROUNDS: usize = 32;

/// Do two boxes `(left, top, right, bottom)` overlap?
pub fn overlap(a: (f32, f32, f32, f32), b: (f32, f32, f32, f32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Where a swing's blade starts, radians from straight ahead (up positive): over the
/// head and a little behind it.
pub const ARC_FROM: f32 = 2.0;
/// Where it ends: down in front, toward the feet.
pub const ARC_TO: f32 = -1.25;
/// Seconds a swing takes to sweep its arc (and shows).
pub const SWING_SECONDS: f32 = 0.3;

/// The blade's angle (see [`ARC_FROM`]) a share `progress` (0..=1) into a swing.
pub fn blade_angle(progress: f32) -> f32 {
    ARC_FROM + (ARC_TO - ARC_FROM) * progress.clamp(0.0, 1.0)
}

/// The point `r` tiles along a blade held at `centre` facing `facing` (±1) at `angle`.
pub fn blade_point(centre: (f32, f32), facing: i8, angle: f32, r: f32) -> (f32, f32) {
    let f = if facing < 0 { -1.0 } else { 1.0 };
    (centre.0 + f * r * angle.cos(), centre.1 - r * angle.sin())
}

/// Does the arc a blade of `reach` sweeps round `centre` facing `facing` meet box `b`
/// (from over the head, a little behind, down to the feet in front)? Tested at points
/// along the blade every tenth of a radian or so and every fifth of a tile, closer than
/// the smallest box hit (a creature's, a tile wide).
pub fn in_arc(centre: (f32, f32), facing: i8, reach: f32, b: (f32, f32, f32, f32)) -> bool {
    let angles = ((ARC_FROM - ARC_TO) * reach.max(1.0) / 0.2).ceil() as usize;
    let lengths = (reach / 0.2).ceil().max(1.0) as usize;
    (0..=angles).any(|i| {
        let a = blade_angle(i as f32 / angles as f32);
        (1..=lengths).any(|j| {
            let (x, y) = blade_point(centre, facing, a, reach * j as f32 / lengths as f32);
            b.0 <= x && x <= b.2 && b.1 <= y && y <= b.3
        })
    })
}

/// Tiles/s² a flier turns toward its aim with.
pub const FLY_ACCEL: f32 = 10.0;

/// One frame of flight for `body` (feet at `pos`, no gravity) toward `aim` (where its
/// middle should be) at up to `speed`: it accelerates at [`FLY_ACCEL`] toward the aim and
/// bounces off the tiles it meets (the speed across or up/down that would take it into one
/// turns round, halved, and a bounce off a side sends it up), so it never enters a solid
/// tile.
pub fn fly(world: &World, body: &mut Player, aim: (f32, f32), speed: f32, dt: f32) {
    let mut v = steer(body, aim, dt);
    let s = (v.0 * v.0 + v.1 * v.1).sqrt();
    if s > speed {
        // Faster than it flies (thrown back by a hit): slowed, not stopped at once.
        let k = (speed / s).max(1.0 - 3.0 * dt);
        v = (v.0 * k, v.1 * k);
    }
    let blocked = |x: f32, y: f32| eye_blocked(world, x, y);
    let (x, y) = body.pos;
    if blocked(x + v.0 * dt, y) {
        // Bounced back, and up: it climbs over what is in its way.
        v.0 = -v.0 * 0.5;
        v.1 = v.1.min(0.0) - speed * 0.5;
    } else {
        body.pos.0 = x + v.0 * dt;
    }
    let x = body.pos.0;
    if blocked(x, y + v.1 * dt) {
        v.1 = -v.1 * 0.5;
    } else {
        body.pos.1 = y + v.1 * dt;
    }
    body.vel = v;
    body.on_ground = false;
}

/// The velocity of a flying `body` after `dt` seconds of [`FLY_ACCEL`] toward `aim`
/// (where its middle should be).
pub fn steer(body: &Player, aim: (f32, f32), dt: f32) -> (f32, f32) {
    let mid = (body.pos.0, body.pos.1 - 0.5);
    let (dx, dy) = (aim.0 - mid.0, aim.1 - mid.1);
    let d = (dx * dx + dy * dy).sqrt().max(1e-3);
    (
        body.vel.0 + dx / d * FLY_ACCEL * dt,
        body.vel.1 + dy / d * FLY_ACCEL * dt,
    )
}

/// Would an eye with its feet at `(x, y)` (a box a tile high) overlap a solid tile, or
/// leave the world?
pub fn eye_blocked(world: &World, x: f32, y: f32) -> bool {
    let (l, r) = (x - player::WIDTH / 2.0, x + player::WIDTH / 2.0);
    let (t, b) = (y - 1.0, y);
    let (x0, x1) = (l.floor() as i64, (r - 1e-4).floor() as i64);
    let (y0, y1) = (t.floor() as i64, (b - 1e-4).floor() as i64);
    (y0..=y1).any(|ty| (x0..=x1).any(|tx| world.get(tx, ty).is_none_or(|t| t.is_solid())))
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
    /// The player whose swing struck it last, and seconds left of [`CREDIT_SECONDS`].
    pub struck_by: Option<(usize, f32)>,
    /// Seconds before its touch may hurt a player again ([`Rules::touch_cooldown`]).
    pub touch_in: f32,
    /// Casts so far (a caster's teleports follow from it).
    casts: u32,
    /// On fire (a flaming arrow's): the player who set it, and seconds left; it loses
    /// [`Rules::on_fire_damage`] a second meanwhile.
    pub burning: Option<(usize, f32)>,
}

impl Creature {
    /// A creature of `kind` (of the bestiary `b`) with its feet at `feet`.
    pub fn new(b: &Bestiary, kind: Kind, feet: (f32, f32)) -> Creature {
        let st = b.stats(kind);
        Creature {
            kind,
            body: Player::new(feet),
            health: st.health,
            hop_in: st.hop_every,
            dir: 0,
            hit_flash: 0.0,
            struck_by: None,
            touch_in: 0.0,
            casts: 0,
            burning: None,
        }
    }

    /// Seconds until the next hop (counted down while on the ground, from the kind's
    /// `hop_every` at each landing), for a front-end's squash.
    pub fn hop_in(&self) -> f32 {
        self.hop_in
    }

    /// Its box for touching and being hit: the lower part of the physics body.
    pub fn hitbox(&self) -> (f32, f32, f32, f32) {
        let (l, _, r, b) = self.body.bounds();
        (l - 0.15, b - 1.0, r + 0.15, b)
    }

    /// One frame by its behaviour (`d`: its kind's numbers): a hopper waits on the
    /// ground, then hops toward `target`; a flyer flies at it ([`fly`], or through tiles,
    /// [`behaviour::ghost`]); a walker walks ([`behaviour::walk`]); a caster casts
    /// ([`behaviour::cast`]): the bolt it threw, if any.
    pub fn update(&mut self, d: &Def, world: &World, target: (f32, f32), dt: f32) -> Option<Bolt> {
        self.hit_flash = (self.hit_flash - dt).max(0.0);
        self.touch_in = (self.touch_in - dt).max(0.0);
        let aim = (target.0, target.1 - player::HEIGHT / 2.0);
        let (hop_every, high_hops) = match d.behaviour {
            Behaviour::Flyer {
                speed,
                through_walls: false,
            } => {
                fly(world, &mut self.body, aim, speed, dt);
                return None;
            }
            Behaviour::Flyer { speed, .. } => {
                behaviour::ghost(world, &mut self.body, aim, speed, dt);
                return None;
            }
            Behaviour::Walker { speed } => {
                behaviour::walk(world, self, target, speed, dt);
                return None;
            }
            Behaviour::Caster {
                every,
                range,
                bolt_speed,
                bolt_damage,
                through_walls,
            } => {
                let k = behaviour::Cast {
                    every,
                    range,
                    bolt_speed,
                    bolt_damage,
                    through_walls,
                };
                return behaviour::cast(world, self, target, k, dt);
            }
            Behaviour::Hopper { every, high } => (every, high),
        };
        let mut input = Input::default();
        if self.body.on_ground {
            self.dir = 0;
            self.hop_in -= dt;
            if self.hop_in <= 0.0 {
                self.hop_in = hop_every;
                self.dir = if target.0 < self.body.pos.0 { -1 } else { 1 };
                input.presses = 1;
                input.jump = high_hops;
            }
        } else {
            input.jump = high_hops;
        }
        input.left = self.dir < 0;
        input.right = self.dir > 0;
        self.body.update(world, input, dt);
        None
    }

    /// Takes a hit of `damage` from a body at `from_x` facing `facing`, thrown back away
    /// from it (the way it faces when right over or under it; `d`: its kind's numbers);
    /// true when it died.
    pub fn hit(&mut self, d: &Def, damage: f32, from_x: f32, facing: i8) -> bool {
        // Defence takes half its worth off a hit, leaving at least 1 (Terraria's rule).
        let damage = if d.defence > 0 {
            (damage - d.defence as f32 / 2.0).max(1.0)
        } else {
            damage
        };
        let push = KNOCKBACK * (1.0 - d.knockback_resist);
        self.health -= damage;
        self.hit_flash = 0.15;
        let dx = self.body.pos.0 - from_x;
        let away = if dx.abs() < 0.3 {
            if facing < 0 { -1.0 } else { 1.0 }
        } else if dx < 0.0 {
            -1.0
        } else {
            1.0
        };
        if push > 0.0 {
            self.body.vel = (away * push, -push * 0.6);
            self.body.on_ground = false;
        }
        self.health <= 0.0
    }
}

/// A heart a killed creature dropped: it falls to the ground, flies to the player within
/// [`Rules::heart_reach`] and heals [`Rules::heart_heal`] when it touches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heart {
    /// Centre, tiles.
    pub pos: (f32, f32),
    /// Seconds since it dropped.
    pub age: f32,
}

impl Heart {
    /// One frame of `dt`: toward the player's box `me` when within `reach` of its centre,
    /// else falling onto the ground. True when it touched the player.
    pub fn update(&mut self, world: &World, me: (f32, f32, f32, f32), reach: f32, dt: f32) -> bool {
        self.age += dt;
        let c = ((me.0 + me.2) / 2.0, (me.1 + me.3) / 2.0);
        let (dx, dy) = (c.0 - self.pos.0, c.1 - self.pos.1);
        let d = (dx * dx + dy * dy).sqrt();
        if d <= reach {
            let step = (HEART_SPEED * dt).min(d);
            if d > 0.0 {
                self.pos = (self.pos.0 + dx / d * step, self.pos.1 + dy / d * step);
            }
        } else {
            let below = |y: f32| {
                world
                    .get(self.pos.0.floor() as i64, (y + 0.3).floor() as i64)
                    .is_none_or(|t| t.is_solid())
            };
            let y = self.pos.1 + HEART_SPEED * dt;
            if !below(y) {
                self.pos.1 = y;
            } else if !below(self.pos.1) {
                self.pos.1 = (y + 0.3).floor() - 0.3;
            }
        }
        overlap(
            (
                self.pos.0 - 0.3,
                self.pos.1 - 0.3,
                self.pos.0 + 0.3,
                self.pos.1 + 0.3,
            ),
            me,
        )
    }
}

/// A player as the creatures see it: its body (chased, pushed, thrown back), its vitals
/// (struck, healed by hearts) and half its view (creatures spawn outside it).
pub struct Target<'a> {
    pub body: &'a mut Player,
    pub vitals: &'a mut Vitals,
    pub half: (f32, f32),
}

/// A creature's hit on the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub damage: f32,
    /// The creature's name.
    pub name: String,
    /// The creature's feet, across (the player is thrown away from it).
    pub from_x: f32,
    /// The hit killed the player.
    pub killed: bool,
}

impl std::fmt::Display for Hit {
    /// What hurt the player and how much, as the log's `hurt by` line names it: `a slime
    /// for 6`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a {} for {:.0}", self.name, self.damage)
    }
}

/// What a sword swing did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Swing {
    pub hits: u32,
    /// Each creature hit: its kind, its feet before the hit, and whether the hit killed it.
    pub hit: Vec<(Kind, (f32, f32), bool)>,
    /// Kinds killed, with what they dropped (item name, count).
    pub killed: Vec<(Kind, String, u32)>,
    /// Hearts the kills dropped.
    pub hearts: u32,
}

/// A creature killed by something other than a swing (lava): what it dropped, where, and
/// the player whose strike it died of, if any ([`CREDIT_SECONDS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Fallen {
    pub kind: Kind,
    /// The middle of its box.
    pub at: (f32, f32),
    /// The item it dropped and how many.
    pub drop: String,
    pub count: u32,
    /// The player it is credited to.
    pub by: Option<usize>,
}

/// Every creature about and the spawn timing.
#[derive(Clone, Debug)]
pub struct Creatures {
    /// The kinds they are of: the session's content's (`session.content.bestiary`).
    pub bestiary: Arc<Bestiary>,
    pub list: Vec<Creature>,
    /// Seconds to the next spawn attempt.
    next_spawn: f32,
    /// Where the player comes back after a death (found when first needed).
    home: Option<(f32, f32)>,
    /// Hearts lying about.
    pub hearts: Vec<Heart>,
    /// Counter for the spawn choices (deterministic per world).
    rng: u64,
    /// Creatures spawned and killed so far (for the log).
    pub spawned: u32,
    pub killed: u32,
    /// Creatures lava killed since the session last took them ([`Creatures::take_fallen`]).
    fallen: Vec<Fallen>,
    /// Where a player last came back after a death, and seconds since: for
    /// [`Rules::respawn_calm`] seconds nothing spawns near it and what is near it leaves.
    pub calm: Option<((f32, f32), f32)>,
    /// A boss is about: no more than [`Rules::boss_creature_cap`] spawn (the session sets
    /// it every tick).
    pub boss_about: bool,
    /// Casters' bolts in flight.
    pub bolts: Vec<Bolt>,
    /// The player spawns are tried round is in the town (set before each attempt).
    near_town: bool,
}

impl Creatures {
    /// Creatures for a world of `seed` (spawn choices follow from it), of the kinds of
    /// `bestiary`.
    pub fn new(seed: u64, bestiary: Arc<Bestiary>) -> Creatures {
        Creatures {
            bestiary,
            list: Vec::new(),
            next_spawn: 1.0,
            home: None,
            hearts: Vec::new(),
            rng: seed,
            spawned: 0,
            killed: 0,
            fallen: Vec::new(),
            calm: None,
            boss_about: false,
            bolts: Vec::new(),
            near_town: false,
        }
    }

    fn rand(&mut self, n: u64) -> u64 {
        self.rng = crate::base::rng::mix64(self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        self.rng % n.max(1)
    }

    /// Tries a few random spots round the player for a spawn; returns the creature
    /// spawned, if any. `half`: half the view in tiles (spawns stay off screen). The kind
    /// is drawn from those whose spawn rules fit the spot ([`spawn`]); at `night`, one
    /// spawn in `eye_one_in` ([`DEMON_EYE_ONE_IN`] by default) where a night-share kind
    /// fits (the demon eye) is one of those. `cap` is this player's: the creatures within
    /// [`DESPAWN_RANGE`] of it count, as Terraria counts each player's. `light`: the
    /// world's light levels, for the rules that want a dark spot (none: all dark).
    #[allow(clippy::too_many_arguments)]
    pub fn try_spawn(
        &mut self,
        world: &World,
        layers: &Layers,
        player: (f32, f32),
        half: (f32, f32),
        cap: usize,
        night: bool,
        eye_one_in: u64,
        light: Option<&LightMap>,
    ) -> Option<Kind> {
        let near = |c: &&Creature| {
            (c.body.pos.0 - player.0).abs() <= DESPAWN_RANGE
                && (c.body.pos.1 - player.1).abs() <= DESPAWN_RANGE
        };
        if self.list.iter().filter(near).count() >= cap {
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
            let spot = spawn::Spot {
                biome: spawn::biome_at(world, x, y),
                layer: layers.at(y as usize, surface),
                night,
                // Slimes live on the ground under the sky, not in the caves of the
                // surface layer.
                open_sky: y < surface as i64,
                near_town: self.near_town,
                light: light.map_or(0, |l| l.get(x as usize, y as usize)),
                progress: &world.progress,
            };
            let (normal, share) = spawn::candidates(&self.bestiary, &spot);
            let list = if !share.is_empty() && night && self.rand(eye_one_in) == 0 {
                share
            } else {
                normal
            };
            let roll = match list.len() {
                0 => continue,
                1 => 0,
                _ => self.rand(spawn::total(&list)),
            };
            let Some(pick) = spawn::pick(&list, roll) else {
                continue;
            };
            let kind = pick.kind;
            let mut feet = (x as f32 + 0.5, (y + 1) as f32);
            if pick.up > 0 {
                let up = (feet.0, feet.1 - pick.up as f32);
                if !eye_blocked(world, up.0, up.1) {
                    feet = up;
                }
            }
            self.list.push(Creature::new(&self.bestiary, kind, feet));
            self.spawned += 1;
            return Some(kind);
        }
        None
    }

    /// Where the player comes back after a death: the world's spawn point.
    pub fn home(&mut self, world: &World) -> (f32, f32) {
        *self.home.get_or_insert_with(|| player::spawn_point(world))
    }

    /// The player came back at `at`: creatures near it are gone, and a calm begins there
    /// ([`Rules::respawn_calm`]).
    pub fn respawned(&mut self, at: (f32, f32)) {
        self.list.retain(|c| {
            let (dx, dy) = (c.body.pos.0 - at.0, c.body.pos.1 - at.1);
            dx.abs() > RESPAWN_CLEAR || dy.abs() > RESPAWN_CLEAR
        });
        self.calm = Some((at, 0.0));
    }

    /// Is `pos` within the calm round the last respawn, while it lasts?
    pub fn calm_near(&self, pos: (f32, f32), rules: &Rules) -> bool {
        self.calm.is_some_and(|(at, age)| {
            age < rules.respawn_calm
                && (pos.0 - at.0).abs() <= rules.respawn_calm_radius
                && (pos.1 - at.1).abs() <= rules.respawn_calm_radius
        })
    }

    /// Where a creature at `pos` heads while the calm drives it off: away from the
    /// respawn spot, across and up.
    fn calm_aim(&self, pos: (f32, f32), rules: &Rules) -> (f32, f32) {
        let at = self.calm.map_or(pos, |(at, _)| at);
        let dir = if pos.0 < at.0 { -1.0 } else { 1.0 };
        (pos.0 + dir * rules.respawn_calm_radius, pos.1 - 10.0)
    }

    /// One frame with one player: [`Creatures::update_many`] with it alone.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        world: &World,
        layers: &Layers,
        player: &mut Player,
        vitals: &mut Vitals,
        half: (f32, f32),
        night: bool,
        rules: &Rules,
        dt: f32,
    ) -> Option<Hit> {
        let mut one = [Target {
            body: player,
            vitals,
            half,
        }];
        let hits = self.update_many(world, layers, &mut one, night, rules, dt, None);
        hits.into_iter().next().map(|(_, h)| h)
    }

    /// One frame among `players`: spawning on its timer (faster at night) round each
    /// player in turn, off every player's screen; movement toward the nearest player;
    /// despawning those far from every player; touches and keeping apart, player by
    /// player. A touch hits a player through its vitals (at most once per invincibility
    /// window) and throws it back; the hits are returned with the player's index. With
    /// one player this is exactly the game's single-player rule.
    #[allow(clippy::too_many_arguments)]
    pub fn update_many(
        &mut self,
        world: &World,
        layers: &Layers,
        players: &mut [Target<'_>],
        night: bool,
        rules: &Rules,
        dt: f32,
        light: Option<&LightMap>,
    ) -> Vec<(usize, Hit)> {
        let mut hits = Vec::new();
        if players.is_empty() {
            return hits;
        }
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        self.next_spawn -= dt;
        if self.next_spawn <= 0.0 {
            self.next_spawn = if night {
                rules.spawn_every_night
            } else {
                rules.spawn_every_day
            };
            let turn = self.spawned as usize % players.len();
            let (px, py) = players[turn].body.pos;
            let column = world.surface.get(px.max(0.0) as usize).copied();
            let on_surface = !matches!(
                layers.at(py.max(0.0) as usize, column.unwrap_or(0)),
                Layer::Cavern | Layer::Underworld
            );
            let home = self.home(world);
            let near_home = (px - home.0).abs() <= rules.home_radius
                && (py - home.1).abs() <= rules.home_radius;
            self.near_town = near_home;
            let mut cap = spawn_cap(night, on_surface, near_home, rules);
            if self.boss_about {
                cap = cap.min(rules.boss_creature_cap as usize);
            }
            let half = players[turn].half;
            if self
                .try_spawn(
                    world,
                    layers,
                    (px, py),
                    half,
                    cap,
                    night,
                    u64::from(rules.demon_eye_one_in),
                    light,
                )
                .is_some()
                && let Some(c) = self.list.last()
            {
                let (x, y) = (c.body.pos.0.floor() as i64, c.body.pos.1 as i64 - 1);
                let calm = self.calm_near(c.body.pos, rules);
                if calm
                    || players
                        .iter()
                        .any(|p| !off_screen(p.body.pos, p.half, x, y))
                {
                    self.list.pop();
                }
            }
        }
        let nearest = |players: &[Target<'_>], at: (f32, f32)| {
            let d = |p: &Target<'_>| {
                let (dx, dy) = (p.body.pos.0 - at.0, p.body.pos.1 - at.1);
                dx * dx + dy * dy
            };
            (1..players.len()).fold(0, |best, i| {
                if d(&players[i]) < d(&players[best]) {
                    i
                } else {
                    best
                }
            })
        };
        if let Some((_, age)) = &mut self.calm {
            *age += dt;
        }
        if self.calm.is_some_and(|(_, age)| age >= rules.respawn_calm) {
            self.calm = None;
        }
        let calm = self.calm;
        let bestiary = &self.bestiary;
        self.list.retain(|c| {
            // Driven off by the calm: gone once out of every player's sight.
            let (x, y) = (c.body.pos.0.floor() as i64, c.body.pos.1 as i64 - 1);
            let gone = calm.is_some_and(|(at, _)| {
                (c.body.pos.0 - at.0).abs() <= rules.respawn_calm_radius
                    && (c.body.pos.1 - at.1).abs() <= rules.respawn_calm_radius
            }) && players.iter().all(|p| off_screen(p.body.pos, p.half, x, y));
            let stuck = if matches!(
                bestiary.def(c.kind).behaviour,
                Behaviour::Flyer {
                    through_walls: true,
                    ..
                }
            ) {
                false
            } else if bestiary.flies(c.kind) {
                eye_blocked(world, c.body.pos.0, c.body.pos.1)
            } else {
                player::body_blocked(world, c.body.pos.0, c.body.pos.1)
            };
            !stuck
                && !gone
                && players.iter().any(|p| {
                    let (dx, dy) = (c.body.pos.0 - p.body.pos.0, c.body.pos.1 - p.body.pos.1);
                    dx.abs() <= DESPAWN_RANGE && dy.abs() <= DESPAWN_RANGE
                })
        });
        for i in 0..self.list.len() {
            let pos = self.list[i].body.pos;
            let target = if self.calm_near(pos, rules) {
                self.calm_aim(pos, rules)
            } else {
                players[nearest(players, pos)].body.pos
            };
            let d = self.bestiary.def(self.list[i].kind);
            if let Some(b) = self.list[i].update(d, world, target, dt)
                && self.bolts.len() < behaviour::MAX_BOLTS
            {
                self.bolts.push(b);
            }
        }
        self.fly_bolts(world, players, rules, dt, &mut hits);
        self.burn(world, rules, dt);
        for (i, p) in players.iter_mut().enumerate() {
            if let Some(h) = self.touch(world, p, rules) {
                hits.push((i, h));
            }
        }
        for p in players.iter() {
            self.keep_apart(world, p.body.bounds());
        }
        let mut healed = vec![0u32; players.len()];
        let mut hearts = std::mem::take(&mut self.hearts);
        hearts.retain_mut(|h| {
            let i = nearest(players, h.pos);
            let touched = h.update(world, players[i].body.bounds(), rules.heart_reach, dt);
            if touched {
                healed[i] += 1;
            }
            !touched && h.age < HEART_SECONDS
        });
        self.hearts = hearts;
        for (p, n) in players.iter_mut().zip(healed) {
            if n > 0 {
                p.vitals.heal(rules.heart_heal * n as f32);
                log::debug!("picked up a heart: health {:.0}", p.vitals.health);
            }
        }
        hits
    }

    /// The bolts' frame: each flies on, and the first player it touches takes its damage
    /// (through its vitals, at most once per invincibility window) and it is gone.
    fn fly_bolts(
        &mut self,
        world: &World,
        players: &mut [Target<'_>],
        rules: &Rules,
        dt: f32,
        hits: &mut Vec<(usize, Hit)>,
    ) {
        let bestiary = &self.bestiary;
        self.bolts.retain_mut(|b| {
            if !b.update(world, dt) {
                return false;
            }
            let Some(i) = players.iter().position(|p| b.inside(p.body.bounds())) else {
                return true;
            };
            if let Some(killed) = players[i].vitals.strike(b.damage, rules) {
                let hit = Hit {
                    damage: b.damage,
                    name: bestiary.def(b.from).name.clone(),
                    from_x: b.pos.0 - b.vel.0.signum(),
                    killed,
                };
                hits.push((i, hit));
            }
            false
        });
    }

    /// The touch of the first creature overlapping player `p` whose own cooldown is over
    /// ([`Rules::touch_cooldown`]): it hurts through the player's vitals (nothing while
    /// invincible), and the two are thrown apart ([`crate::sim::combat`]).
    fn touch(&mut self, world: &World, p: &mut Target<'_>, rules: &Rules) -> Option<Hit> {
        let me = p.body.bounds();
        let c = self
            .list
            .iter_mut()
            .find(|c| c.touch_in <= 0.0 && overlap(c.hitbox(), me))?;
        let st = self.bestiary.stats(c.kind);
        let killed = p.vitals.strike(st.damage, rules)?;
        let from_x = c.body.pos.0;
        c.touch_in = rules.touch_cooldown;
        crate::sim::combat::throw_player(world, p.body, c.hitbox(), rules);
        crate::sim::combat::throw_creature(
            world,
            &mut c.body,
            st.fly_speed > 0.0,
            st.fly_speed,
            p.body,
        );
        Some(Hit {
            damage: st.damage,
            name: st.name.to_string(),
            from_x,
            killed,
        })
    }

    /// Pushes creatures out of the player's box `me` and out of each other across: nearest
    /// the player first, each moved out of the player, then out of those nearer than it
    /// (so a queue spreads outward from the player), in rounds until none overlaps.
    fn keep_apart(&mut self, world: &World, me: (f32, f32, f32, f32)) {
        let px = (me.0 + me.2) / 2.0;
        let mut order: Vec<usize> = (0..self.list.len()).collect();
        order.sort_by(|&a, &b| {
            let d = |i: usize| (self.list[i].body.pos.0 - px).abs();
            d(a).total_cmp(&d(b))
        });
        for _ in 0..APART_ROUNDS {
            let mut pushed = false;
            for (k, &i) in order.iter().enumerate() {
                pushed |= self.out_of_player(world, i, me);
                for &j in &order[..k] {
                    let dx = push_out(self.list[i].hitbox(), self.list[j].hitbox());
                    if dx == 0.0 {
                        continue;
                    }
                    pushed = true;
                    let d = dx + APART * dx.signum();
                    if !slide(world, &mut self.list[i].body, d) {
                        // No room: the nearer one gives way instead.
                        slide(world, &mut self.list[j].body, -d);
                    }
                }
            }
            if !pushed {
                break;
            }
        }
    }

    /// Pushes creature `i` out of the player's box `me` across (the other way if a wall
    /// leaves no room, else, in a shaft, up onto the head); true if it overlapped.
    fn out_of_player(&mut self, world: &World, i: usize, me: (f32, f32, f32, f32)) -> bool {
        let c = &mut self.list[i];
        let dx = push_out(c.hitbox(), me);
        if dx == 0.0 {
            return false;
        }
        if !slide(world, &mut c.body, dx + APART * dx.signum()) {
            let w = c.hitbox().2 - c.hitbox().0 + me.2 - me.0;
            let other = dx - w * dx.signum();
            if !slide(world, &mut c.body, other + APART * other.signum()) {
                let up = me.1 - APART;
                if up < c.body.pos.1 && !player::body_blocked(world, c.body.pos.0, up) {
                    c.body.pos.1 = up;
                    c.body.vel.1 = c.body.vel.1.min(0.0);
                }
            }
        }
        true
    }

    /// A sword swing from `player` with `damage` and `reach`: every creature the arc
    /// meets ([`in_arc`]) or that overlaps the player is hit once; the dead are removed and
    /// their drops returned, and a share [`Rules::heart_chance`] of them drop a heart.
    /// `who` is the swinging player (a creature lava kills soon after is its kill).
    pub fn swing(
        &mut self,
        player: &Player,
        who: usize,
        damage: f32,
        reach: f32,
        rules: &Rules,
    ) -> Swing {
        let (me, centre) = (player.bounds(), player.centre());
        let inside = |c: &Creature| {
            let b = c.hitbox();
            overlap(b, me) || in_arc(centre, player.facing, reach, b)
        };
        let from = (player.pos.0, player.facing);
        self.strike_where(inside, who, damage, from, rules)
    }

    /// A strike of player `who`'s weapon (a spear's thrust, an arrow, a blast) on every
    /// creature whose hitbox `(left, top, right, bottom)` it `reaches`, knocked away from
    /// `from_x` (else toward `facing`); kills are counted and their drops drawn as a
    /// swing's.
    pub fn strike(
        &mut self,
        reaches: impl Fn((f32, f32, f32, f32)) -> bool,
        who: usize,
        damage: f32,
        (from_x, facing): (f32, i8),
        rules: &Rules,
    ) -> Swing {
        let inside = |c: &Creature| reaches(c.hitbox());
        self.strike_where(inside, who, damage, (from_x, facing), rules)
    }

    fn strike_where(
        &mut self,
        inside: impl Fn(&Creature) -> bool,
        who: usize,
        damage: f32,
        (from, facing): (f32, i8),
        rules: &Rules,
    ) -> Swing {
        let mut out = Swing::default();
        let mut dead = Vec::new();
        for (i, c) in self.list.iter_mut().enumerate() {
            if inside(c) {
                out.hits += 1;
                let killed = c.hit(self.bestiary.def(c.kind), damage, from, facing);
                c.struck_by = Some((who, CREDIT_SECONDS));
                out.hit.push((c.kind, c.body.pos, killed));
                if killed {
                    dead.push(i);
                }
            }
        }
        for &i in dead.iter().rev() {
            let c = self.list.swap_remove(i);
            let (item, n, heart) = self.died(&c, rules);
            out.killed.push((c.kind, item, n));
            out.hearts += u32::from(heart);
        }
        out
    }

    /// A creature died: counted, its drop's count drawn, and a share
    /// [`Rules::heart_chance`] of the dead leave a heart. Returns the count and whether a
    /// heart was left.
    fn died(&mut self, c: &Creature, rules: &Rules) -> (String, u32, bool) {
        let mut drop = (String::new(), 0);
        let bestiary = Arc::clone(&self.bestiary);
        for r in &bestiary.def(c.kind).drops {
            if r.chance < 1.0 && (self.rand(1000) as f32) >= r.chance * 1000.0 {
                continue;
            }
            let n = r.count.0 + self.rand(u64::from(r.count.1 - r.count.0) + 1) as u32;
            drop = (r.item.clone(), n);
            break;
        }
        self.killed += 1;
        let heart = (self.rand(1000) as f32) < rules.heart_chance * 1000.0;
        if heart {
            let (l, t, r, b) = c.hitbox();
            self.hearts.push(Heart {
                pos: ((l + r) / 2.0, (t + b) / 2.0),
                age: 0.0,
            });
        }
        (drop.0, drop.1, heart)
    }

    /// Lava's and fire's frame of `dt` seconds: every creature in lava but a lava slime
    /// loses [`Rules::lava_damage`] a second, and one on fire [`Rules::on_fire_damage`] a
    /// second while its fire lasts; those they kill are removed and kept as [`Fallen`] for
    /// the session (a fire's kill credited to the player who set it). The credit of a
    /// strike runs down.
    fn burn(&mut self, world: &World, rules: &Rules, dt: f32) {
        let mut i = 0;
        while i < self.list.len() {
            let c = &mut self.list[i];
            if let Some((_, left)) = &mut c.struck_by {
                *left -= dt;
            }
            if c.struck_by.is_some_and(|(_, left)| left <= 0.0) {
                c.struck_by = None;
            }
            let burns =
                c.kind != Kind::LavaSlime && crate::sim::vitals::body_in_lava(world, c.body.pos);
            if burns {
                c.health -= rules.lava_damage * dt;
            }
            let on_fire = c.burning.is_some();
            if let Some((who, left)) = c.burning {
                let t = dt.min(left);
                c.health -= rules.on_fire_damage * t;
                c.burning = (left > dt).then_some((who, left - dt));
                c.struck_by = c.struck_by.or(Some((who, CREDIT_SECONDS)));
            }
            if !((burns || on_fire) && c.health <= 0.0) {
                i += 1;
                continue;
            }
            let c = self.list.swap_remove(i);
            let (drop, count, _) = self.died(&c, rules);
            let (l, t, r, b) = c.hitbox();
            self.fallen.push(Fallen {
                kind: c.kind,
                at: ((l + r) / 2.0, (t + b) / 2.0),
                drop,
                count,
                by: c.struck_by.map(|(p, _)| p),
            });
        }
    }

    /// The creatures lava killed since the last call, in the order they died.
    pub fn take_fallen(&mut self) -> Vec<Fallen> {
        std::mem::take(&mut self.fallen)
    }
}

/// The built-in bestiary, for tests (a session's is its content's).
#[cfg(test)]
pub(crate) fn test_bestiary() -> &'static Arc<Bestiary> {
    static BUILTIN: std::sync::LazyLock<Arc<Bestiary>> =
        std::sync::LazyLock::new(|| crate::content::config::Content::builtin().bestiary);
    &BUILTIN
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    #[test]
    fn a_hit_names_its_creature_and_its_damage_rounded() {
        let hit = Hit {
            damage: 5.6,
            name: "slime".into(),
            from_x: 40.0,
            killed: false,
        };
        assert_eq!(hit.to_string(), "a slime for 6");
    }

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
        let by_day = |layer: Layer, open_sky: bool| {
            let progress = crate::world::progress::Progress::default();
            let spot = spawn::Spot {
                biome: crate::content::bestiary::Biome::Forest,
                layer,
                night: false,
                open_sky,
                near_town: false,
                light: 0,
                progress: &progress,
            };
            let kinds: Vec<Kind> = spawn::candidates(test_bestiary(), &spot)
                .0
                .iter()
                .map(|c| c.kind)
                .collect();
            kinds
        };
        assert_eq!(by_day(Layer::Surface, true), vec![Kind::Slime]);
        assert_eq!(
            by_day(Layer::Surface, false),
            vec![],
            "no slimes in surface caves"
        );
        assert_eq!(by_day(Layer::Underground, false), vec![]);
        assert!(by_day(Layer::Cavern, false).contains(&Kind::CaveSlime));
        assert!(by_day(Layer::Underworld, false).contains(&Kind::LavaSlime));
        let (s, c, l) = (
            test_bestiary().stats(Kind::Slime),
            test_bestiary().stats(Kind::CaveSlime),
            test_bestiary().stats(Kind::LavaSlime),
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
        let mut c = Creatures::new(7, Arc::clone(test_bestiary()));
        let player = (100.0, 10.0);
        let mut kinds = Vec::new();
        for _ in 0..50 {
            kinds.extend(c.try_spawn(&w, &layers, player, half, 4, false, DEMON_EYE_ONE_IN, None));
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
        let mut c = Creatures::new(7, Arc::clone(test_bestiary()));
        for _ in 0..50 {
            c.try_spawn(&w, &layers, player, half, 4, false, DEMON_EYE_ONE_IN, None);
        }
        assert!(!c.list.is_empty());
        assert!(
            c.list.iter().all(|k| k.body.pos.1 == 9.0),
            "only on top of the ground: {:?}",
            c.list.iter().map(|k| k.body.pos).collect::<Vec<_>>()
        );
    }

    /// Frames of `dt` until a hit (or `frames` run out); the hit and the player.
    fn run(
        c: &mut Creatures,
        w: &World,
        player: &mut Player,
        vitals: &mut Vitals,
        frames: usize,
    ) -> Option<Hit> {
        let layers = Layers::of_world(w);
        let rules = quiet();
        let mut hit = None;
        for _ in 0..frames {
            player.update(w, Input::default(), 1.0 / 60.0);
            vitals.update(
                crate::sim::vitals::Senses::of(w, player.pos, player.on_ground),
                1.0 / 60.0,
                &rules,
            );
            hit = c.update(
                w,
                &layers,
                player,
                vitals,
                (10.0, 10.0),
                false,
                &rules,
                1.0 / 60.0,
            );
            if hit.is_some() {
                break;
            }
        }
        hit
    }

    /// Rules with no spawns.
    fn quiet() -> Rules {
        Rules {
            spawn_every_day: 1e3,
            ..Rules::default()
        }
    }

    #[test]
    fn among_players_each_slime_chases_and_hurts_the_nearest() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let rules = quiet();
        let mut c = Creatures::new(1, Arc::clone(test_bestiary()));
        c.next_spawn = 1e3;
        // One slime right of A (at 40), one left of B (at 160).
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (60.5, 10.0)));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (140.5, 10.0)));
        let mut a = Player::new((40.5, 10.0));
        let mut b = Player::new((160.5, 10.0));
        let max = crate::sim::vitals::MAX_HEALTH;
        let (mut va, mut vb) = (Vitals::new(max, &rules), Vitals::new(max, &rules));
        let mut hurt = [0, 0];
        for _ in 0..60 * 30 {
            a.update(&w, Input::default(), 1.0 / 60.0);
            b.update(&w, Input::default(), 1.0 / 60.0);
            let mut targets = [
                Target {
                    body: &mut a,
                    vitals: &mut va,
                    half: (10.0, 10.0),
                },
                Target {
                    body: &mut b,
                    vitals: &mut vb,
                    half: (10.0, 10.0),
                },
            ];
            for (i, _) in c.update_many(&w, &layers, &mut targets, false, &rules, 1.0 / 60.0, None)
            {
                hurt[i] += 1;
            }
            if hurt[0] > 0 && hurt[1] > 0 {
                break;
            }
        }
        assert!(hurt[0] > 0 && hurt[1] > 0, "both hurt: {hurt:?}");
        assert!(va.health < max && vb.health < max);
        // Each slime stayed on its own player's side.
        assert!(c.list[0].body.pos.0 < 100.0 && c.list[1].body.pos.0 > 100.0);
        // A slime far from every player is gone; near any one it stays.
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (100.5, 10.0)));
        let mut far_a = Player::new((2.5, 10.0));
        let mut v = Vitals::new(max, &rules);
        let mut one = [Target {
            body: &mut far_a,
            vitals: &mut v,
            half: (10.0, 10.0),
        }];
        c.update_many(&w, &layers, &mut one, false, &rules, 1.0 / 60.0, None);
        assert!(c.list.iter().all(|k| k.body.pos.0 < 2.5 + DESPAWN_RANGE));
        assert!(
            c.update_many(&w, &layers, &mut [], false, &rules, 0.1, None)
                .is_empty()
        );
    }

    #[test]
    fn slimes_hop_toward_the_player_hurt_on_touch_and_throw_it_back() {
        let w = flat();
        let rules = quiet();
        let mut c = Creatures::new(1, Arc::clone(test_bestiary()));
        c.next_spawn = 1e3;
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (120.5, 10.0)));
        let mut player = Player::new((100.5, 10.0));
        let mut vitals = Vitals::new(crate::sim::vitals::MAX_HEALTH, &rules);
        let hit = run(&mut c, &w, &mut player, &mut vitals, 60 * 30).expect("a touch");
        assert_eq!(
            (hit.damage, hit.name.as_str()),
            (test_bestiary().stats(Kind::Slime).damage, "slime")
        );
        assert!(hit.from_x > player.pos.0 && !hit.killed);
        assert_eq!(vitals.health, crate::sim::vitals::MAX_HEALTH - hit.damage);
        assert_eq!(vitals.invincible, rules.invincible_seconds);
        // Thrown away from the slime (it came from the right) and up.
        assert!(player.vel.0 < 0.0 && player.vel.1 < 0.0, "{:?}", player.vel);
        let x0 = player.pos.0;
        // Right after a touch the player is safe for the window, then it can be hit again.
        let mut hits = vec![];
        let mut t = 0.0;
        for frame in 0..60 * 10 {
            if let Some(h) = run(&mut c, &w, &mut player, &mut vitals, 1) {
                hits.push((t, h));
            }
            t += 1.0 / 60.0;
            assert!(
                !overlap(c.list[0].hitbox(), player.bounds()),
                "inside at {t}"
            );
            if frame == 36 {
                let thrown = x0 - player.pos.0;
                assert!((1.5..4.0).contains(&thrown), "thrown {thrown} tiles");
            }
        }
        assert!(!hits.is_empty(), "the slime comes back");
        assert!(hits[0].0 >= rules.invincible_seconds - 0.02, "{hits:?}");
        for pair in hits.windows(2) {
            assert!(
                pair[1].0 - pair[0].0 >= rules.invincible_seconds - 0.02,
                "{hits:?}"
            );
        }
    }

    #[test]
    fn the_knockback_points_away_from_the_source_and_up() {
        let r = Rules::default();
        let (vx, vy) = crate::sim::vitals::knockback(10.0, 11.0, 1, &r);
        assert!(vx < 0.0 && vy < 0.0);
        assert_eq!((vx, vy), (-r.knockback, -r.knockback_up));
        assert!(crate::sim::vitals::knockback(10.0, 9.5, -1, &r).0 > 0.0);
        // Straight overhead: backwards.
        assert!(crate::sim::vitals::knockback(10.0, 10.0, 1, &r).0 < 0.0);
        assert!(crate::sim::vitals::knockback(10.0, 10.0, -1, &r).0 > 0.0);
    }

    #[test]
    fn creatures_never_sit_inside_the_player_or_each_other() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let rules = quiet();
        let mut c = Creatures::new(2, Arc::clone(test_bestiary()));
        c.next_spawn = 1e3;
        // Four slimes on one spot, and one right inside the player.
        for _ in 0..4 {
            c.list
                .push(Creature::new(test_bestiary(), Kind::Slime, (80.5, 10.0)));
        }
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (100.6, 10.0)));
        let mut player = Player::new((100.5, 10.0));
        let mut vitals = Vitals::new(crate::sim::vitals::MAX_HEALTH, &rules);
        vitals.invincible = 100.0;
        for frame in 0..600 {
            player.update(&w, Input::default(), 1.0 / 60.0);
            let hit = c.update(
                &w,
                &layers,
                &mut player,
                &mut vitals,
                (10.0, 10.0),
                false,
                &rules,
                1.0 / 60.0,
            );
            assert_eq!(hit, None, "invincible");
            let me = player.bounds();
            for (i, a) in c.list.iter().enumerate() {
                assert!(
                    !overlap(a.hitbox(), me),
                    "creature {i} inside the player at {frame}: {:?} {me:?}",
                    c.list
                        .iter()
                        .map(|k| (k.body.pos, k.body.vel))
                        .collect::<Vec<_>>()
                );
                for b in &c.list[i + 1..] {
                    assert!(
                        !overlap(a.hitbox(), b.hitbox()),
                        "stacked at {frame}: {:?}",
                        c.list.iter().map(|k| k.body.pos).collect::<Vec<_>>()
                    );
                }
            }
        }
        assert_eq!(vitals.health, crate::sim::vitals::MAX_HEALTH);
        // Against a wall the one pushed out goes the other way.
        let mut w = flat();
        for y in 5..10 {
            w.set(102, y, crate::world::Tile::Stone);
        }
        let mut c = Creatures::new(2, Arc::clone(test_bestiary()));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (101.3, 10.0)));
        let me = Player::new((101.0, 10.0)).bounds();
        c.keep_apart(&w, me);
        assert!(!overlap(c.list[0].hitbox(), me));
        assert!(c.list[0].body.pos.0 < 101.0, "{:?}", c.list[0].body.pos);
        // In a shaft one tile wide, a slime dropping on the player stays on its head.
        let mut w = flat();
        for y in 5..10 {
            w.set(99, y, crate::world::Tile::Stone);
            w.set(101, y, crate::world::Tile::Stone);
        }
        let mut c = Creatures::new(2, Arc::clone(test_bestiary()));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (100.5, 9.0)));
        let me = Player::new((100.5, 10.0)).bounds();
        c.keep_apart(&w, me);
        assert!(!overlap(c.list[0].hitbox(), me));
        assert!(c.list[0].body.pos.1 <= me.1, "{:?}", c.list[0].body.pos);
    }

    #[test]
    fn lava_kills_all_but_lava_slimes_credited_to_a_recent_striker() {
        // A pit of lava two tiles deep in the floor, far from the player.
        let mut w = flat();
        for x in 60..70 {
            for y in 10..12 {
                w.set(x, y, crate::world::Tile::Lava);
            }
        }
        let layers = Layers::of_world(&w);
        let rules = quiet();
        let mut c = Creatures::new(4, Arc::clone(test_bestiary()));
        c.next_spawn = 1e3;
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (61.5, 12.0)));
        c.list.push(Creature::new(
            test_bestiary(),
            Kind::LavaSlime,
            (64.5, 12.0),
        ));
        c.list.push(Creature::new(
            test_bestiary(),
            Kind::CaveSlime,
            (67.5, 12.0),
        ));
        // Player 1 struck the cave slime a moment ago; its credit lasts.
        c.list[2].struck_by = Some((1, CREDIT_SECONDS));
        let mut body = Player::new((20.5, 10.0));
        let mut vitals = Vitals::new(100.0, &rules);
        let burn = |c: &mut Creatures, body: &mut Player, vitals: &mut Vitals, s: f32| {
            for _ in 0..(s * 60.0) as usize {
                let mut one = [Target {
                    body: &mut *body,
                    vitals: &mut *vitals,
                    half: (30.0, 17.0),
                }];
                c.update_many(&w, &layers, &mut one, false, &rules, 1.0 / 60.0, None);
            }
        };
        // A slime of 14 health lasts 14/60 s at 60 a second; a cave slime 30/60 s.
        burn(&mut c, &mut body, &mut vitals, 0.2);
        assert_eq!(c.list.len(), 3, "not dead yet");
        burn(&mut c, &mut body, &mut vitals, 0.4);
        let fallen = c.take_fallen();
        assert_eq!(
            fallen.iter().map(|f| (f.kind, f.by)).collect::<Vec<_>>(),
            vec![(Kind::Slime, None), (Kind::CaveSlime, Some(1))]
        );
        assert!(fallen.iter().all(|f| f.drop == "gel" && f.count >= 1));
        assert!((60.0..70.0).contains(&fallen[0].at.0), "{:?}", fallen[0].at);
        assert_eq!(c.killed, 2);
        assert!(c.take_fallen().is_empty(), "taken once");
        // The lava slime lives in it.
        assert_eq!(c.list.len(), 1);
        assert_eq!(c.list[0].kind, Kind::LavaSlime);
        assert_eq!(
            c.list[0].health,
            test_bestiary().stats(Kind::LavaSlime).health
        );
        // A strike's credit runs out: a slime struck long before dies no one's kill.
        let mut slime = Creature::new(test_bestiary(), Kind::Slime, (30.5, 10.0));
        slime.struck_by = Some((0, CREDIT_SECONDS));
        c.list.push(slime);
        burn(&mut c, &mut body, &mut vitals, CREDIT_SECONDS + 0.1);
        assert_eq!(c.list[1].struck_by, None);
        c.list[1].body.pos = (62.5, 12.0);
        burn(&mut c, &mut body, &mut vitals, 0.5);
        let fallen = c.take_fallen();
        assert_eq!(fallen.len(), 1);
        assert_eq!((fallen[0].kind, fallen[0].by), (Kind::Slime, None));
    }

    #[test]
    fn killed_creatures_drop_hearts_that_fall_fly_to_the_player_and_heal() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let always = Rules {
            heart_chance: 1.0,
            ..quiet()
        };
        let mut c = Creatures::new(9, Arc::clone(test_bestiary()));
        c.next_spawn = 1e3;
        let mut player = Player::new((50.5, 10.0));
        player.on_ground = true;
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (52.0, 10.0)));
        c.list[0].health = 1.0;
        // Up in the air, the kill's heart falls to the floor.
        c.list[0].body.pos.1 = 6.0;
        assert_eq!(
            c.swing(&player, 0, 9.0, 2.2, &always).hearts,
            0,
            "out of the arc up there"
        );
        c.list[0].body.pos = (52.0, 10.0);
        let s = c.swing(&player, 0, 9.0, 2.2, &always);
        assert_eq!((s.killed.len(), s.hearts), (1, 1));
        let never = Rules {
            heart_chance: 0.0,
            ..quiet()
        };
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (52.0, 10.0)));
        c.list[0].health = 1.0;
        assert_eq!(c.swing(&player, 0, 9.0, 2.2, &never).hearts, 0);
        // Far from the player, a heart drops onto the ground and lies there.
        c.hearts[0].pos = (80.5, 3.0);
        let mut vitals = Vitals::new(50.0, &always);
        for _ in 0..120 {
            c.update(
                &w,
                &layers,
                &mut player,
                &mut vitals,
                (10.0, 10.0),
                false,
                &always,
                1.0 / 60.0,
            );
        }
        assert_eq!(c.hearts.len(), 1);
        assert!(
            (c.hearts[0].pos.1 - 9.7).abs() < 1e-4,
            "{:?}",
            c.hearts[0].pos
        );
        assert_eq!(vitals.health, 50.0);
        // Within reach it flies to the player and heals 20.
        c.hearts[0].pos = (53.5, 9.7);
        for _ in 0..60 {
            c.update(
                &w,
                &layers,
                &mut player,
                &mut vitals,
                (10.0, 10.0),
                false,
                &always,
                1.0 / 60.0,
            );
        }
        assert!(c.hearts.is_empty());
        assert_eq!(vitals.health, 50.0 + always.heart_heal);
    }

    #[test]
    fn demon_eyes_come_at_night_fly_at_the_player_never_into_tiles_and_drop_lenses() {
        let w = flat();
        let layers = Layers::of_world(&w);
        let half = (32.0, 18.0);
        let player = (100.0, 10.0);
        let spawned = |night: bool| {
            let mut c = Creatures::new(11, Arc::clone(test_bestiary()));
            let mut kinds = Vec::new();
            for _ in 0..200 {
                kinds.extend(c.try_spawn(
                    &w,
                    &layers,
                    player,
                    half,
                    64,
                    night,
                    DEMON_EYE_ONE_IN,
                    None,
                ));
            }
            (kinds, c)
        };
        let (day, _) = spawned(false);
        assert!(day.iter().all(|&k| k == Kind::Slime), "none by day");
        let (night, c) = spawned(true);
        let eyes = night.iter().filter(|&&k| k == Kind::DemonEye).count();
        assert!(
            eyes > night.len() / 6 && eyes < night.len() / 2,
            "{eyes} of {}",
            night.len()
        );
        for e in c.list.iter().filter(|k| k.kind == Kind::DemonEye) {
            assert!(e.body.pos.1 < 10.0, "up in the air: {:?}", e.body.pos);
            assert!(!eye_blocked(&w, e.body.pos.0, e.body.pos.1));
        }
        // It flies to the player over a wall in its way, bouncing, never inside a tile.
        let mut w = flat();
        for y in 3..10 {
            w.set(110, y, crate::world::Tile::Stone);
        }
        let mut eye = Creature::new(test_bestiary(), Kind::DemonEye, (120.5, 6.0));
        let target = (100.5, 10.0);
        let mut nearest = f32::MAX;
        for _ in 0..60 * 20 {
            eye.update(test_bestiary().def(Kind::DemonEye), &w, target, 1.0 / 60.0);
            assert!(
                !eye_blocked(&w, eye.body.pos.0, eye.body.pos.1),
                "{:?}",
                eye.body.pos
            );
            let v = eye.body.vel;
            assert!(
                (v.0 * v.0 + v.1 * v.1).sqrt()
                    <= test_bestiary().stats(Kind::DemonEye).fly_speed + 0.2
            );
            nearest = nearest.min((eye.body.pos.0 - target.0).abs());
        }
        assert!(nearest < 1.0, "it reached the player: {nearest}");
        // A kill drops a lens; a servant drops nothing.
        let mut c = Creatures::new(3, Arc::clone(test_bestiary()));
        let mut me = Player::new((50.5, 10.0));
        me.facing = 1;
        c.list
            .push(Creature::new(test_bestiary(), Kind::DemonEye, (52.0, 10.0)));
        c.list[0].health = 1.0;
        let s = c.swing(&me, 0, 9.0, 2.2, &Rules::default());
        assert_eq!(s.killed[0].1, "lens");
        assert!((1..=2).contains(&s.killed[0].2));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Servant, (52.0, 10.0)));
        let s = c.swing(&me, 0, 9.0, 2.2, &Rules::default());
        assert_eq!(s.killed[0].2, 0);
    }

    #[test]
    fn push_out_leaves_by_the_nearer_side() {
        let b = (10.0, 0.0, 11.0, 2.0);
        assert_eq!(push_out((9.0, 0.0, 10.0, 2.0), b), 0.0, "only touching");
        assert!((push_out((9.5, 0.0, 10.4, 2.0), b) + 0.4).abs() < 1e-6);
        assert!((push_out((10.6, 0.0, 11.5, 2.0), b) - 0.4).abs() < 1e-6);
        assert!((push_out(b, b) - 1.0).abs() < 1e-6, "centred: to the right");
    }

    #[test]
    fn spawns_are_fewest_by_day_near_home() {
        let r = Rules::default();
        assert_eq!(spawn_cap(true, true, true, &r), r.creature_cap as usize);
        assert_eq!(
            spawn_cap(false, false, true, &r),
            r.creature_cap as usize,
            "caves"
        );
        assert_eq!(spawn_cap(false, true, false, &r), r.day_cap as usize);
        assert_eq!(spawn_cap(false, true, true, &r), r.home_day_cap as usize);
        assert!(r.home_day_cap < r.day_cap && r.day_cap < r.creature_cap);
        // By day at home with the cap full, nothing more comes.
        let w = flat();
        let layers = Layers::of_world(&w);
        let mut c = Creatures::new(5, Arc::clone(test_bestiary()));
        let home = c.home(&w);
        let mut player = Player::new(home);
        let mut vitals = Vitals::new(crate::sim::vitals::MAX_HEALTH, &r);
        let rules = Rules {
            spawn_every_day: 0.1,
            ..Rules::default()
        };
        for _ in 0..600 {
            c.update(
                &w,
                &layers,
                &mut player,
                &mut vitals,
                (32.0, 18.0),
                false,
                &rules,
                1.0 / 60.0,
            );
            assert!(c.list.len() <= r.home_day_cap as usize);
        }
        assert_eq!(c.spawned as usize, r.home_day_cap as usize);
        // Coming back after a death clears the spot.
        c.list.push(Creature::new(
            test_bestiary(),
            Kind::Slime,
            (home.0 + 3.0, home.1),
        ));
        c.list.push(Creature::new(
            test_bestiary(),
            Kind::Slime,
            (home.0 + 60.0, home.1),
        ));
        c.respawned(home);
        assert_eq!(c.list.len(), 1);
        assert_eq!(c.list[0].body.pos.0, home.0 + 60.0);
    }

    #[test]
    fn the_arc_hits_above_behind_above_and_inside_but_not_behind_or_below() {
        let player = Player::new((50.5, 10.0));
        let at = |x: f32, y: f32| {
            let mut c = Creatures::new(4, Arc::clone(test_bestiary()));
            c.list
                .push(Creature::new(test_bestiary(), Kind::Slime, (x, y)));
            c.swing(&player, 0, 1.0, 2.2, &Rules::default()).hits
        };
        assert_eq!(at(52.0, 10.0), 1, "in front");
        assert_eq!(at(50.5, 8.2), 1, "sitting on the head");
        assert_eq!(at(49.6, 8.2), 1, "on the head, a little behind");
        assert_eq!(at(51.8, 8.6), 1, "in front, above");
        assert_eq!(at(50.7, 10.0), 1, "overlapping the player");
        assert_eq!(at(51.4, 11.5), 1, "in front, below the feet");
        assert_eq!(at(48.3, 10.0), 0, "behind, at the feet");
        assert_eq!(at(49.0, 11.6), 0, "behind, below");
        assert_eq!(at(54.5, 10.0), 0, "out of reach");
        // Facing left mirrors it.
        let mut left = player.clone();
        left.facing = -1;
        let mut c = Creatures::new(4, Arc::clone(test_bestiary()));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (48.3, 10.0)));
        assert_eq!(c.swing(&left, 0, 1.0, 2.2, &Rules::default()).hits, 1);
        // One right over the head is thrown the way the player faces.
        let mut c = Creatures::new(4, Arc::clone(test_bestiary()));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (50.5, 8.2)));
        c.swing(&left, 0, 1.0, 2.2, &Rules::default());
        assert!(c.list[0].body.vel.0 < 0.0, "{:?}", c.list[0].body.vel);
        // The blade sweeps from over the head down to the feet in front.
        let c = player.centre();
        let top = blade_point(c, 1, blade_angle(0.0), 2.0);
        let end = blade_point(c, 1, blade_angle(1.0), 2.0);
        assert!(top.1 < c.1 - 1.5 && top.0 < c.0, "{top:?}");
        assert!(end.1 > c.1 + 1.0 && end.0 > c.0, "{end:?}");
    }

    #[test]
    fn a_sword_swing_hits_in_front_only_and_kills_drop_gel() {
        let mut c = Creatures::new(3, Arc::clone(test_bestiary()));
        let mut player = Player::new((50.5, 10.0));
        player.facing = 1;
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (52.0, 10.0)));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (48.5, 10.0)));
        c.list
            .push(Creature::new(test_bestiary(), Kind::Slime, (58.0, 10.0)));
        let s = c.swing(&player, 0, 9.0, 2.2, &Rules::default());
        assert_eq!((s.hits, s.killed.len()), (1, 0));
        assert!(c.list[0].health < test_bestiary().stats(Kind::Slime).health);
        assert!(
            c.list[0].body.vel.0 > 0.0,
            "thrown back away from the player"
        );
        let s = c.swing(&player, 0, 9.0, 2.2, &Rules::default());
        assert_eq!(s.killed.len(), 1);
        let (kind, item, n) = s.killed[0].clone();
        assert_eq!((kind, item.as_str()), (Kind::Slime, "gel"));
        assert!((1..=2).contains(&n));
        assert!(content().catalog.id(&item).is_some(), "the drop is an item");
        assert_eq!(c.list.len(), 2, "the other two are untouched");
        player.facing = -1;
        assert_eq!(
            c.swing(&player, 0, 9.0, 2.2, &Rules::default()).hits,
            1,
            "the one behind, once turned"
        );
    }
}
