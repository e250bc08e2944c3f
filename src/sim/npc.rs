//! Town people: the Guide, who stands near the spawn point from the start, and the
//! Merchant and the Nurse once they have come. A town person's body is the player's ([`crate::sim::player::Player`]: the same physics, so he stands on
//! platforms and is stopped by closed doors), walked by [`Npc::update`]:
//!
//! - by day he stands a while, then walks a while, within [`GuideRules::wander`] tiles of
//!   his home (or, without one, the point he started from), turning back beyond it;
//! - at night he walks home and stands there;
//! - walking into a wall he jumps (a ledge of a tile he steps onto); still stopped, he
//!   turns round. A closed door in his way is opened for him ([`Npc::door_ahead`]: the
//!   game opens it, as it edits the world) and closed behind him ([`Npc::door_behind`]).
//!
//! He moves into a house the player shows him ([`Npc::move_in`]). His choices come from
//! a small seeded stream, so the same world and frames walk him the same way.

use crate::content::town::GuideRules;
use crate::sim::player::{self, Input, Player};
use crate::world::World;

/// How close to home counts as home, tiles.
pub const AT_HOME: f32 = 0.6;

/// A town person.
#[derive(Clone, Debug, PartialEq)]
pub struct Npc {
    pub name: &'static str,
    pub body: Player,
    /// Where he stands at home (feet), once he has a house.
    pub home: Option<(f32, f32)>,
    /// Where he walks about without a home: where he started.
    pub anchor: (f32, f32),
    /// -1, 0 (standing) or +1, and seconds until he chooses again.
    dir: i8,
    choose_in: f32,
    /// Seconds he has been stopped while walking.
    stopped: f32,
    /// A door opened for him, to close once he is through.
    pub opened: Option<(i64, i64)>,
    rng: u64,
    /// Heading for his base: the nearest he has come to it, and seconds since he last
    /// came nearer (by [`PROGRESS`]); past [`BLOCKED_SECONDS`] he goes straight there.
    closest: f32,
    since: f32,
}

/// Tiles nearer his base that count as getting on.
pub const PROGRESS: f32 = 0.5;
/// Seconds without getting nearer his base (a wall with no door, a pit) after which a
/// town person is home at once, as Terraria's walk home when no path is found.
pub const BLOCKED_SECONDS: f32 = 4.0;
/// The deepest drop a town person walks off by day, tiles. A player's one-wide shaft or
/// a pit is deeper: walking about he turns round at its edge rather than fall in and
/// stand on the head of the player digging there (Terraria's town folk are too wide for
/// a player's shaft; Strata's body fits one).
pub const MAX_DROP: i64 = 3;

/// Where a body stands in column `x`: the first ground from the top, as the spawn point.
fn ground_at(world: &World, x: f32) -> Option<(f32, f32)> {
    let first = player::HEIGHT.ceil() as usize;
    (first..=world.height()).find_map(|feet| {
        let y = feet as f32;
        (!player::body_blocked(world, x, y) && player::body_blocked(world, x, y + 0.5))
            .then_some((x, y))
    })
}

/// The names of the town people a save may hold.
pub use crate::content::town::NAMES;

/// What a save keeps of a town person ([`crate::store::save`] writes and reads it).
#[derive(Clone, Debug, PartialEq)]
pub struct NpcState {
    /// One of [`NAMES`].
    pub name: &'static str,
    /// Feet centre, tiles.
    pub pos: (f32, f32),
    /// Where he walks about without a home.
    pub anchor: (f32, f32),
    /// Where he stands at home (feet), if he has a house.
    pub home: Option<(f32, f32)>,
}

impl Npc {
    /// A town person called `name` standing at `feet`, walking about there, homeless;
    /// `seed` starts his stream of choices.
    pub fn new(name: &'static str, feet: (f32, f32), seed: u64) -> Npc {
        Npc {
            name,
            body: Player::new(feet),
            home: None,
            anchor: feet,
            dir: 0,
            choose_in: 1.0,
            stopped: 0.0,
            opened: None,
            rng: seed ^ 0x6A09_E667_F3BC_C908,
            closest: f32::INFINITY,
            since: 0.0,
        }
    }

    /// His part of a save.
    pub fn state(&self) -> NpcState {
        NpcState {
            name: self.name,
            pos: self.body.pos,
            anchor: self.anchor,
            home: self.home,
        }
    }

    /// A town person from his part of a save, unstuck from the tiles of `world`.
    pub fn restore(state: &NpcState, world: &World, seed: u64) -> Npc {
        let mut npc = Npc::new(state.name, state.pos, seed);
        npc.body.unstick(world);
        npc.anchor = state.anchor;
        npc.home = state.home;
        npc
    }

    /// The Guide, standing on the ground a few tiles beside the spawn point.
    pub fn guide(world: &World, seed: u64) -> Npc {
        let (sx, sy) = player::spawn_point(world);
        let feet = [4.0, -4.0, 2.0, -2.0]
            .into_iter()
            .filter_map(|dx| ground_at(world, sx + dx))
            .find(|&(_, y)| (y - sy).abs() <= 6.0)
            .unwrap_or((sx, sy));
        Npc::new("Guide", feet, seed)
    }

    /// A draw from `0..n` of his stream (xorshift64*).
    fn roll(&mut self, n: u64) -> u64 {
        let mut x = self.rng | 1;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }

    /// He has no house.
    pub fn homeless(&self) -> bool {
        self.home.is_none()
    }

    /// Moves into a house: `spot` is where he stands in it (feet).
    pub fn move_in(&mut self, spot: (f32, f32)) {
        self.home = Some(spot);
    }

    /// Leaves his house (it is no longer one).
    pub fn move_out(&mut self) {
        self.home = None;
    }

    /// The tile of his home the housing rule is asked about: the one at his head when he
    /// stands there.
    pub fn home_tile(&self) -> Option<(i64, i64)> {
        self.home
            .map(|(x, y)| (x.floor() as i64, (y - player::HEIGHT).floor() as i64))
    }

    /// Where he keeps to: his home, or where he started.
    pub fn base(&self) -> (f32, f32) {
        self.home.unwrap_or(self.anchor)
    }

    /// Which way he walks (−1, 0, +1).
    pub fn dir(&self) -> i8 {
        self.dir
    }

    /// One frame of `dt` seconds: chooses where to walk (by day about his base, at night
    /// home) and moves his body.
    pub fn update(&mut self, world: &World, night: bool, rules: &GuideRules, dt: f32) {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        let (bx, _) = self.base();
        let dx = bx - self.body.pos.0;
        // With a home he keeps near it (talking to him is easy); without, about his start.
        let range = if self.home.is_some() {
            rules.wander as f32 / 2.0
        } else {
            rules.wander as f32
        };
        let heading = if night {
            dx.abs() > AT_HOME
        } else {
            dx.abs() > range
        };
        self.blocked_home(world, heading, dx.abs(), dt);
        let dx = self.base().0 - self.body.pos.0;
        if night {
            self.dir = if dx.abs() <= AT_HOME {
                0
            } else {
                dx.signum() as i8
            };
        } else {
            self.choose_in -= dt;
            let far = dx.abs() > range;
            if far {
                self.dir = dx.signum() as i8;
            } else if self.choose_in <= 0.0 {
                let walk = self.roll(2) == 0;
                self.dir = if walk {
                    if self.roll(2) == 0 { -1 } else { 1 }
                } else {
                    0
                };
                self.choose_in = if walk { 1.0 } else { 2.0 } + self.roll(3) as f32;
            }
        }
        if !night && self.body.on_ground && self.drop_ahead(world) {
            self.dir = -self.dir;
            self.choose_in = 1.5;
        }
        let mut input = Input {
            left: self.dir < 0,
            right: self.dir > 0,
            ..Input::default()
        };
        // Stopped at a wall he jumps; at a closed door he waits for it to open.
        let door = self.door_ahead(world).is_some();
        if self.dir != 0 && self.body.on_ground && self.stopped > 0.15 && !door {
            input.jump = true;
            input.presses = 1;
        }
        let speed = rules.walk_speed;
        self.body.vel.0 = self.body.vel.0.clamp(-speed, speed);
        let x0 = self.body.pos.0;
        self.body.update(world, input, dt);
        self.body.vel.0 = self.body.vel.0.clamp(-speed, speed);
        let moved = (self.body.pos.0 - x0).abs();
        if self.dir != 0 && moved < speed * dt * 0.25 {
            self.stopped += dt;
        } else {
            self.stopped = 0.0;
        }
        if self.stopped > 1.0 && !night {
            // A jump did not get him over: turn round.
            self.dir = -self.dir;
            self.stopped = 0.0;
            self.choose_in = 1.5;
        }
    }

    /// Heading for his base (`heading`, `d` tiles off): when he has come no nearer for
    /// [`BLOCKED_SECONDS`] (a closed door ahead aside: it is opened for him), he is put
    /// there, on the ground.
    fn blocked_home(&mut self, world: &World, heading: bool, d: f32, dt: f32) {
        if !heading || self.door_ahead(world).is_some() {
            self.closest = f32::INFINITY;
            self.since = 0.0;
            return;
        }
        if d < self.closest - PROGRESS {
            self.closest = d;
            self.since = 0.0;
            return;
        }
        self.since += dt;
        if self.since >= BLOCKED_SECONDS {
            let (bx, by) = self.base();
            self.body = Player::new((bx, by));
            self.body.unstick(world);
            self.dir = 0;
            self.stopped = 0.0;
            self.closest = f32::INFINITY;
            self.since = 0.0;
        }
    }

    /// Is the column he is stepping into a drop deeper than [`MAX_DROP`]: nothing to
    /// stand on (a solid tile or a platform) from the row under his feet down
    /// `MAX_DROP` rows?
    fn drop_ahead(&self, world: &World) -> bool {
        if self.dir == 0 {
            return false;
        }
        let (l, _, r, b) = self.body.bounds();
        let x = if self.dir > 0 { r + 0.1 } else { l - 0.1 }.floor() as i64;
        let feet = b.round() as i64;
        !(feet..=feet + MAX_DROP).any(|y| {
            world
                .get(x, y)
                .is_none_or(|t| t.is_solid() || t.is_platform())
        })
    }

    /// The closed door right in front of him as he walks into it (a tile of it), if any.
    pub fn door_ahead(&self, world: &World) -> Option<(i64, i64)> {
        if self.dir == 0 {
            return None;
        }
        let (l, t, r, b) = self.body.bounds();
        let x = if self.dir > 0 { r + 0.2 } else { l - 0.2 }.floor() as i64;
        (t.floor() as i64..=(b - 0.01).floor() as i64)
            .map(|y| (x, y))
            .find(|&(x, y)| world.get(x, y) == Some(crate::world::Tile::ClosedDoor))
    }

    /// The door opened for him, once he is through it (clear of its column by a tile):
    /// the game closes it, as he would, so creatures do not walk in after him. Forgets
    /// it once named.
    pub fn door_behind(&mut self) -> Option<(i64, i64)> {
        let (x, y) = self.opened?;
        let (l, _, r, _) = self.body.bounds();
        let clear = r < x as f32 - 0.5 || l > x as f32 + 1.5;
        clear.then(|| {
            self.opened = None;
            (x, y)
        })
    }

    /// Does the tile `(x, y)` overlap his body (a right-click there talks to him)?
    pub fn under(&self, x: i64, y: i64) -> bool {
        self.body.overlaps_tile(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    use crate::world::Tile;

    /// Flat ground at row 30 of a 200 x 40 world.
    fn flat() -> World {
        let mut w = World::new(200, 40, 0, crate::content::preset::Preset::default());
        for y in 30..40 {
            for x in 0..200 {
                w.set(x, y, Tile::Dirt);
            }
        }
        w.recompute_surface();
        w
    }

    fn run(npc: &mut Npc, w: &World, night: bool, seconds: f32) -> (f32, f32) {
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for _ in 0..(seconds * 60.0) as usize {
            npc.update(w, night, &content().town.guide, 1.0 / 60.0);
            lo = lo.min(npc.body.pos.0);
            hi = hi.max(npc.body.pos.0);
        }
        (lo, hi)
    }

    #[test]
    fn the_guide_starts_on_the_ground_beside_the_spawn_point() {
        let w = flat();
        let g = Npc::guide(&w, 7);
        let (sx, sy) = player::spawn_point(&w);
        assert_eq!(g.body.pos, (sx + 4.0, sy));
        assert!(g.homeless());
    }

    #[test]
    fn by_day_he_walks_about_within_his_range_and_at_night_goes_home() {
        let w = flat();
        let mut g = Npc::guide(&w, 7);
        let start = g.body.pos.0;
        let wander = content().town.guide.wander as f32;
        let (lo, hi) = run(&mut g, &w, false, 120.0);
        assert!(hi - lo > 3.0, "he walked about: {lo}..{hi}");
        // A little past the range at most: he turns back once beyond it.
        assert!(
            lo > start - wander - 2.0 && hi < start + wander + 2.0,
            "{lo}..{hi}"
        );
        // He walks, not runs.
        assert!(g.body.vel.0.abs() <= content().town.guide.walk_speed + 1e-3);
        // Given a home 30 tiles off, night takes him there and he stays.
        let home = (start + 30.0, 30.0);
        g.move_in(home);
        run(&mut g, &w, true, 20.0);
        assert!(
            (g.body.pos.0 - home.0).abs() <= AT_HOME + 0.2,
            "{:?}",
            g.body.pos
        );
        let (lo, hi) = run(&mut g, &w, true, 5.0);
        assert!(hi - lo < 0.5, "he stands at home at night");
    }

    #[test]
    fn a_wall_is_jumped_or_turned_from_and_a_closed_door_is_seen() {
        let mut w = flat();
        let g0 = Npc::guide(&w, 7);
        let x = g0.body.pos.0 as usize;
        // A step of one tile to his right: he gets onto it.
        w.set(x + 3, 29, Tile::Dirt);
        let mut g = g0.clone();
        g.move_in((x as f32 + 8.5, 29.0));
        run(&mut g, &w, true, 10.0);
        assert!(
            g.body.pos.0 > x as f32 + 7.5,
            "over the step: {:?}",
            g.body.pos
        );
        // A closed door in a wall in his way home: he stops at it and names it for the
        // game.
        let mut w = flat();
        for y in 0..30 {
            w.set(
                x + 3,
                y,
                if y >= 28 {
                    Tile::ClosedDoor
                } else {
                    Tile::Stone
                },
            );
        }
        let mut g = g0.clone();
        g.move_in((x as f32 + 8.5, 30.0));
        run(&mut g, &w, true, 5.0);
        assert!(g.body.pos.0 < x as f32 + 3.0, "the door stops him");
        assert_eq!(
            g.door_ahead(&w).map(|d| d.0),
            Some(x as i64 + 3),
            "{:?} {:?}",
            g.body,
            g.dir
        );
    }

    #[test]
    fn with_no_way_home_he_is_home_within_seconds_and_keeps_near_it_by_day() {
        let mut w = flat();
        let mut g = Npc::guide(&w, 7);
        let x = g.body.pos.0 as usize;
        // A wall he cannot jump, no door in it, his house beyond.
        for y in 0..30 {
            w.set(x + 3, y, Tile::Stone);
        }
        let home = (x as f32 + 8.5, 30.0);
        g.move_in(home);
        run(&mut g, &w, true, BLOCKED_SECONDS + 3.0);
        assert!(
            (g.body.pos.0 - home.0).abs() <= AT_HOME + 0.2,
            "{:?}",
            g.body.pos
        );
        // By day with a home he keeps within half his range of it.
        let half = content().town.guide.wander as f32 / 2.0;
        let (lo, hi) = run(&mut g, &w, false, 120.0);
        assert!(
            lo > home.0 - half - 2.0 && hi < home.0 + half + 2.0,
            "{lo}..{hi}"
        );
        assert!(lo > x as f32 + 3.0, "on his side of the wall");
    }

    #[test]
    fn by_day_he_keeps_out_of_a_shaft_and_steps_down_a_small_drop() {
        // A one-wide shaft 12 deep beside him, and a step down of 2 on his other side
        // (the ground lower from there on): he walks both ways, never into the shaft.
        let mut w = flat();
        let g0 = Npc::guide(&w, 7);
        let x = g0.body.pos.0 as usize;
        for y in 30..39 {
            w.set(x + 2, y, Tile::Air);
        }
        for y in 30..32 {
            for c in 0..x - 1 {
                w.set(c, y, Tile::Air);
            }
        }
        for seed in [7, 8, 9, 10] {
            let mut g = Npc::guide(&w, seed);
            let (mut lo, mut deepest) = (f32::MAX, 0.0f32);
            for _ in 0..120 * 60 {
                g.update(&w, false, &content().town.guide, 1.0 / 60.0);
                lo = lo.min(g.body.pos.0);
                deepest = deepest.max(g.body.pos.1);
            }
            assert!(deepest <= 32.0, "seed {seed}: fell to {deepest}");
            assert!(
                lo < x as f32 - 2.0,
                "seed {seed}: he stepped down the 2: {lo}"
            );
        }
    }

    #[test]
    fn a_door_opened_for_him_is_closed_behind_him() {
        let mut w = flat();
        let mut g = Npc::guide(&w, 7);
        let x = g.body.pos.0 as usize;
        for y in 0..30 {
            w.set(
                x + 3,
                y,
                if y >= 28 {
                    Tile::ClosedDoor
                } else {
                    Tile::Stone
                },
            );
        }
        g.move_in((x as f32 + 8.5, 30.0));
        let door = (x as i64 + 3, 29);
        let mut opened = false;
        for _ in 0..600 {
            g.update(&w, true, &content().town.guide, 1.0 / 60.0);
            // What the game does with what he names.
            if let Some((dx, dy)) = g.door_ahead(&w) {
                crate::sim::edit::set_door(&mut w, dx, dy, Tile::OpenDoor);
                g.opened = Some((dx, dy));
                opened = true;
            }
            if let Some((dx, dy)) = g.door_behind() {
                crate::sim::edit::set_door(&mut w, dx, dy, Tile::ClosedDoor);
            }
        }
        assert!(opened);
        assert!(
            g.body.pos.0 > x as f32 + 7.5,
            "through the door: {:?}",
            g.body.pos
        );
        assert_eq!(
            w.get(door.0, door.1),
            Some(Tile::ClosedDoor),
            "closed behind him"
        );
        assert_eq!(w.get(door.0, door.1 - 1), Some(Tile::ClosedDoor));
    }

    #[test]
    fn the_same_seed_walks_him_the_same_way() {
        let w = flat();
        let (mut a, mut b) = (Npc::guide(&w, 3), Npc::guide(&w, 3));
        run(&mut a, &w, false, 30.0);
        run(&mut b, &w, false, 30.0);
        assert_eq!(a, b);
    }
}
