//! Platformer physics for the player, in tile units (1.0 = one tile, y grows downwards,
//! row 0 is the top of the world). No engine types: the game feeds in an [`Input`] and a
//! frame time and draws [`Player::pos`].
//!
//! The body is an axis-aligned box [`WIDTH`] × [`HEIGHT`] tiles whose **feet centre** is
//! `pos`: it spans `pos.0 - WIDTH/2 .. pos.0 + WIDTH/2` across and `pos.1 - HEIGHT .. pos.1`
//! down. 0.8 × 1.8 tiles is Terraria's player (20 × 42 px on 16 px tiles, 1.25 × 2.6 tiles)
//! scaled to fit through the 1-wide, 2-tall tunnels a player digs by hand.
//!
//! Time advances in fixed steps of [`STEP`] seconds (frame time is accumulated, and capped
//! at [`MAX_FRAME`] so a stalled frame cannot explode), and every move is cut into pieces
//! of at most [`MAX_PIECE`] tiles, each checked against the tiles it would overlap: nothing
//! tunnels at any speed or frame rate. Everything outside the world is solid.
//!
//! Platforms hold a body up only from above: it walks and jumps through them, lands on
//! one it falls onto, and drops through while [`Input::down`] is held.

use crate::world::{Tile, World};

/// Body width in tiles.
pub const WIDTH: f32 = 0.8;
/// Body height in tiles.
pub const HEIGHT: f32 = 1.8;
/// Fixed physics step, seconds.
pub const STEP: f32 = 1.0 / 120.0;
/// Longest frame time simulated; the rest of a longer frame is dropped.
pub const MAX_FRAME: f32 = 0.25;
/// Longest distance moved before checking collisions again (less than a tile).
pub const MAX_PIECE: f32 = 0.25;
/// Top running speed, tiles/s (Terraria: 3 px/frame at 60 Hz on 16 px tiles ≈ 11).
pub const MAX_RUN: f32 = 11.0;
/// Running acceleration on the ground, tiles/s².
pub const RUN_ACCEL: f32 = 30.0;
/// Running acceleration in the air, tiles/s².
pub const AIR_ACCEL: f32 = 20.0;
/// Deceleration on the ground with no input (or against the motion), tiles/s².
pub const GROUND_FRICTION: f32 = 50.0;
/// Deceleration in the air with no input, tiles/s².
pub const AIR_FRICTION: f32 = 8.0;
/// Gravity, tiles/s².
pub const GRAVITY: f32 = 60.0;
/// Gravity factor while rising with jump held: releasing early gives a short hop.
pub const JUMP_HOLD_GRAVITY: f32 = 0.5;
/// Upward speed of a jump, tiles/s: v²/(2·g·0.5) ≈ 6 tiles with jump held (Terraria's held
/// jump is about 6 tiles).
pub const JUMP_SPEED: f32 = 19.0;
/// Terminal falling speed, tiles/s (Terraria: 10 px/frame ≈ 37).
pub const MAX_FALL: f32 = 37.0;
/// Gravity factor in water.
pub const WATER_GRAVITY: f32 = 0.25;
/// Terminal sinking speed in water, tiles/s; faster falls into water are braked to it.
pub const WATER_MAX_FALL: f32 = 6.0;
/// Braking of a fall that enters water faster than [`WATER_MAX_FALL`], tiles/s².
pub const WATER_DRAG: f32 = 120.0;
/// Running speed factor in water.
pub const WATER_RUN: f32 = 0.5;
/// Upward speed of a swim stroke (jump pressed in water, as often as pressed), tiles/s:
/// v²/(2·g·0.25) ≈ 2.7 tiles a stroke, enough to climb out over a pool's rim.
pub const SWIM_SPEED: f32 = 9.0;
/// Running speed factor in a cobweb (Terraria's webs all but stop a player).
pub const WEB_RUN: f32 = 0.2;
/// Fastest fall through a cobweb, tiles/s: a body falling into one is caught.
pub const WEB_MAX_FALL: f32 = 2.0;
/// Fastest rise through a cobweb, tiles/s: a jump from inside one barely lifts.
pub const WEB_MAX_RISE: f32 = 4.0;
/// Climbing speed on a rope, tiles/s (Terraria climbs about as fast as it walks slowly).
pub const CLIMB_SPEED: f32 = 6.0;
/// Top running speed with Hermes boots, tiles/s (Terraria's boots run at 6 px/frame,
/// twice the usual 3).
pub const BOOTS_RUN: f32 = 22.0;
/// Acceleration with Hermes boots, tiles/s² (the boots reach their speed in under a
/// second, as Terraria's do).
pub const BOOTS_ACCEL: f32 = 40.0;
/// Upward speed of a cloud in a bottle's jump in the air, tiles/s: Terraria's cloud jump
/// rises about three quarters of a jump, so √0.75 of [`JUMP_SPEED`].
pub const CLOUD_JUMP_SPEED: f32 = 16.5;
/// Farthest a grappling hook's line reaches, tiles (Terraria's: 300 px, 18.75 tiles).
pub const HOOK_REACH: f32 = 18.0;
/// Speed a caught hook pulls the body at, tiles/s (Terraria's grappling hook reels in at
/// 11 px/frame: 41 tiles/s).
pub const HOOK_PULL: f32 = 41.0;
/// Hard limit on any velocity component, tiles/s (bounds the work of one step).
pub const MAX_SPEED: f32 = 1000.0;
/// Gap left between the body and a wall or ceiling it stops against. Larger than an f32
/// ulp at the widest world (16384 tiles: ≈0.001), so a snapped box never overlaps.
const SKIN: f32 = 1.0 / 256.0;

/// What the player wants this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Input {
    pub left: bool,
    pub right: bool,
    /// Jump held at frame time (a longer jump while held).
    pub jump: bool,
    /// Presses of jump since the last frame, each a jump or a swim stroke even if the key
    /// was already released again: a quick tap between two frames counts.
    pub presses: u8,
    /// Down held: the body drops through the platforms it stands or lands on.
    pub down: bool,
}

/// What the accessories worn change in the body's motion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gear {
    /// Hermes boots: [`BOOTS_RUN`] and [`BOOTS_ACCEL`].
    pub boots: bool,
    /// A cloud in a bottle: one jump in the air ([`CLOUD_JUMP_SPEED`]) until landing.
    pub cloud: bool,
    /// Percent more top run speed and acceleration (an armour set's bonus, as the shadow
    /// armour's movement speed).
    pub haste: u32,
}

/// The player's body and motion.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Feet centre, tiles.
    pub pos: (f32, f32),
    /// Velocity, tiles/s (positive y is down).
    pub vel: (f32, f32),
    pub on_ground: bool,
    /// Holding onto a rope: no gravity, jump climbs up and down climbs down (a fall
    /// ends when a rope is grabbed).
    pub climbing: bool,
    /// -1 facing left, +1 facing right.
    pub facing: i8,
    /// Jump was held on the previous step (a jump needs a fresh press).
    jump_held: bool,
    /// Presses of jump not yet acted on (a frame may run no step).
    presses: u8,
    /// What the accessories worn give the body (the session sets it from the inventory).
    pub gear: Gear,
    /// The cloud in a bottle's jump is spent (until the feet land, a rope or a hook).
    air_jumped: bool,
    /// Where a grappling hook's line caught (a point on a solid tile's face, tiles): the
    /// body is pulled there and held until a jump lets go.
    pub hook: Option<(f32, f32)>,
    /// Jumps and swim strokes so far (the game logs them).
    pub jumps: u32,
    pub strokes: u32,
    /// Frame time not yet simulated (less than one [`STEP`]).
    carry: f32,
}

/// Inclusive tile ranges `(x0, x1, y0, y1)` overlapped by a body with feet at `(x, y)`.
fn tiles_under(x: f32, y: f32) -> (i64, i64, i64, i64) {
    let (left, right, top) = (x - WIDTH / 2.0, x + WIDTH / 2.0, y - HEIGHT);
    (
        left.floor() as i64,
        right.ceil() as i64 - 1,
        top.floor() as i64,
        y.ceil() as i64 - 1,
    )
}

fn solid(world: &World, x: i64, y: i64) -> bool {
    world.get(x, y).is_none_or(|t| t.is_solid())
}

/// Does any tile a body with feet at `(x, y)` overlaps pass `test`?
fn any_under(x: f32, y: f32, test: impl Fn(i64, i64) -> bool) -> bool {
    let (x0, x1, y0, y1) = tiles_under(x, y);
    (y0..=y1).any(|ty| (x0..=x1).any(|tx| test(tx, ty)))
}

/// Does a body with feet at `(x, y)` overlap a solid tile or leave the world?
pub fn body_blocked(world: &World, x: f32, y: f32) -> bool {
    any_under(x, y, |tx, ty| solid(world, tx, ty))
}

/// Does a body falling from feet at `y0` to `y1` (below it) in column `x` land on a
/// platform: a platform tile under the body whose top row it crosses or reaches? A body
/// whose feet start below a platform's top (it jumped up into it) falls on through.
pub fn lands_on_platform(world: &World, x: f32, y0: f32, y1: f32) -> bool {
    if y1 <= y0 {
        return false;
    }
    let (x0, x1, ..) = tiles_under(x, y1);
    let (first, last) = (y0.ceil() as i64, y1.ceil() as i64 - 1);
    (first..=last).any(|ty| {
        (ty as f32) < y1 && (x0..=x1).any(|tx| world.get(tx, ty).is_some_and(|t| t.is_platform()))
    })
}

/// Does a body with feet at `(x, y)` overlap a liquid (water or lava)? Both hold the
/// player back the same way.
pub fn body_in_liquid(world: &World, x: f32, y: f32) -> bool {
    any_under(x, y, |tx, ty| {
        world.get(tx, ty).is_some_and(|t| t.is_liquid())
    })
}

/// Does a body with feet at `(x, y)` overlap a cobweb?
pub fn body_in_web(world: &World, x: f32, y: f32) -> bool {
    any_under(x, y, |tx, ty| world.get(tx, ty) == Some(Tile::Cobweb))
}

/// Is there a rope at point `p` (tiles)?
pub fn rope_at(world: &World, p: (f32, f32)) -> bool {
    world.get(p.0.floor() as i64, p.1.floor() as i64) == Some(Tile::Rope)
}

/// Where a new player stands: the centre column, feet on the first ground found from the
/// top (the surface), or the top of the world if that column has nowhere to stand.
pub fn spawn_point(world: &World) -> (f32, f32) {
    let x = world.width() as f32 / 2.0;
    stand_at(world, x, 0).unwrap_or((x, HEIGHT.ceil()))
}

/// Where a player put at `x` (tiles) stands: feet on the first ground found there going
/// down from row `from` (the body fits above it), or None if there is none.
pub fn stand_at(world: &World, x: f32, from: usize) -> Option<(f32, f32)> {
    let first = (HEIGHT.ceil() as usize).max(from);
    (first..=world.height())
        .map(|feet| feet as f32)
        .find(|&y| !body_blocked(world, x, y) && body_blocked(world, x, y + 0.5))
        .map(|y| (x, y))
}

impl Player {
    /// A player standing with feet at `pos`.
    pub fn new(pos: (f32, f32)) -> Player {
        Player {
            pos,
            vel: (0.0, 0.0),
            on_ground: false,
            climbing: false,
            facing: 1,
            jump_held: false,
            presses: 0,
            gear: Gear::default(),
            air_jumped: false,
            hook: None,
            jumps: 0,
            strokes: 0,
            carry: 0.0,
        }
    }

    /// A player at the world's spawn point.
    pub fn spawn(world: &World) -> Player {
        Player::new(spawn_point(world))
    }

    /// Body box `(left, top, right, bottom)` in tiles.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        let (x, y) = self.pos;
        (x - WIDTH / 2.0, y - HEIGHT, x + WIDTH / 2.0, y)
    }

    /// Body centre, tiles (reach is measured from here).
    pub fn centre(&self) -> (f32, f32) {
        (self.pos.0, self.pos.1 - HEIGHT / 2.0)
    }

    /// Does the body overlap tile `(x, y)`? (A block placed there would trap the player.)
    pub fn overlaps_tile(&self, x: i64, y: i64) -> bool {
        let (x0, x1, y0, y1) = tiles_under(self.pos.0, self.pos.1);
        (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
    }

    /// Advances by a frame of `dt` seconds in fixed steps.
    pub fn update(&mut self, world: &World, input: Input, dt: f32) {
        self.unstick(world);
        let dt = if dt.is_nan() {
            0.0
        } else {
            dt.clamp(0.0, MAX_FRAME)
        };
        self.carry += dt;
        self.presses = self.presses.saturating_add(input.presses);
        // The frame's presses are spread over its steps, as they were spread over its time
        // (at a low frame rate two strokes in one frame are two strokes, not one).
        let (pending, steps) = (self.presses as usize, (self.carry / STEP) as usize);
        let mut i = 0;
        while self.carry >= STEP {
            self.carry -= STEP;
            let next = pending - self.presses as usize;
            let pressed = self.presses > 0 && next * steps.max(1) <= i * pending;
            if pressed {
                self.presses -= 1;
            }
            self.step(world, input, pressed);
            i += 1;
        }
    }

    /// One fixed step; `pressed`: jump was pressed for this step. In water (or lava) the
    /// player sinks slowly, runs at half speed and swims up a stroke at every press of jump;
    /// in a cobweb it crawls ([`WEB_RUN`], [`WEB_MAX_FALL`], [`WEB_MAX_RISE`]).
    fn step(&mut self, world: &World, input: Input, pressed: bool) {
        let dir = input.right as i32 - input.left as i32;
        let wet = body_in_liquid(world, self.pos.0, self.pos.1);
        let webbed = body_in_web(world, self.pos.0, self.pos.1);
        let haste = 1.0 + self.gear.haste as f32 / 100.0;
        let top = if self.gear.boots { BOOTS_RUN } else { MAX_RUN } * haste;
        let max_run = if wet { top * WATER_RUN } else { top };
        let max_run = if webbed { max_run * WEB_RUN } else { max_run };
        let sane = |v: f32| {
            if v.is_nan() {
                0.0
            } else {
                v.clamp(-MAX_SPEED, MAX_SPEED)
            }
        };
        let (mut vx, mut vy) = (sane(self.vel.0), sane(self.vel.1));
        if dir != 0 {
            self.facing = dir as i8;
            let accel = haste
                * match (self.on_ground, self.gear.boots) {
                    (true, true) => BOOTS_ACCEL,
                    (true, false) => RUN_ACCEL,
                    (false, _) => AIR_ACCEL,
                };
            // Turning round brakes as hard as friction, then accelerates.
            let a = if vx * dir as f32 >= 0.0 {
                accel
            } else {
                accel.max(GROUND_FRICTION)
            };
            vx = if vx.abs() <= max_run {
                (vx + a * dir as f32 * STEP).clamp(-max_run, max_run)
            } else {
                approach(vx, max_run * vx.signum(), GROUND_FRICTION * STEP)
            };
        } else {
            let f = if self.on_ground {
                GROUND_FRICTION
            } else {
                AIR_FRICTION
            };
            vx = approach(vx, 0.0, f * STEP);
        }
        // Caught on a hook: pulled (the step ends there), or let go with this jump.
        let released = self.hook.is_some();
        if released {
            if self.pull(world, input, pressed) {
                return;
            }
            vy = -JUMP_SPEED;
        }
        // A rope behind the body's middle is grabbed with up (jump) or down held, and
        // held while the body stays on it.
        let on_rope = rope_at(world, self.centre());
        self.climbing = on_rope && (self.climbing || input.jump || input.down);
        if self.climbing {
            vy = if input.jump {
                -CLIMB_SPEED
            } else if input.down {
                CLIMB_SPEED
            } else {
                0.0
            };
            self.jump_held = input.jump;
            self.air_jumped = false;
            self.vel = (vx, vy);
            let grounded = self.on_ground;
            self.move_x(world, vx * STEP, grounded);
            // Climbing down passes through platforms; climbing never lands hard.
            self.move_y(world, self.vel.1 * STEP, true);
            return;
        }
        // The press that let go of a hook is not a jump again.
        let fresh = !released && (pressed || (input.jump && !self.jump_held));
        if self.on_ground {
            self.air_jumped = false;
        }
        if fresh && self.on_ground {
            vy = -JUMP_SPEED;
            self.on_ground = false;
            self.jumps += 1;
        } else if fresh && wet {
            vy = vy.min(-SWIM_SPEED);
            self.strokes += 1;
        } else if fresh && self.gear.cloud && !self.air_jumped && !webbed {
            // The cloud in a bottle's jump in the air: once until the feet land.
            vy = -CLOUD_JUMP_SPEED;
            self.air_jumped = true;
            self.jumps += 1;
        }
        self.jump_held = input.jump;
        let mut g = if vy < 0.0 && input.jump {
            GRAVITY * JUMP_HOLD_GRAVITY
        } else {
            GRAVITY
        };
        let mut max_fall = MAX_FALL;
        if wet {
            (g, max_fall) = (GRAVITY * WATER_GRAVITY, WATER_MAX_FALL);
        }
        if vy > max_fall {
            vy = approach(vy, max_fall, WATER_DRAG * STEP);
        } else {
            vy = (vy + g * STEP).min(max_fall);
        }
        if webbed {
            // A web holds the body at once, whatever speed it came in at.
            vx = vx.clamp(-max_run, max_run);
            vy = vy.clamp(-WEB_MAX_RISE, WEB_MAX_FALL);
        }
        self.vel = (vx, vy);
        let grounded = self.on_ground;
        self.move_x(world, vx * STEP, grounded);
        self.move_y(world, self.vel.1 * STEP, input.down);
    }

    /// Fires a grappling hook's line from the body's centre toward `target` (tiles): it
    /// catches the first solid tile along the line within [`HOOK_REACH`] tiles, and the
    /// body is pulled there ([`Player::hook`]). Returns where it caught, or `None` (out of
    /// reach, or nothing but air on the way; a hook already caught is let go).
    pub fn fire_hook(&mut self, world: &World, target: (f32, f32)) -> Option<(f32, f32)> {
        let from = self.centre();
        let (dx, dy) = (target.0 - from.0, target.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        self.hook = None;
        if !len.is_finite() || len < 1e-3 {
            return None;
        }
        // Walked in steps of a twentieth of a tile: no tile is crossed unseen but at a
        // corner, where the line grazes it.
        let n = (HOOK_REACH * 20.0) as usize;
        let (ux, uy) = (dx / len / 20.0, dy / len / 20.0);
        let mut last = from;
        for i in 1..=n {
            let p = (from.0 + ux * i as f32, from.1 + uy * i as f32);
            if solid(world, p.0.floor() as i64, p.1.floor() as i64) {
                self.hook = Some(last);
                self.air_jumped = false;
                return self.hook;
            }
            last = p;
        }
        None
    }

    /// One step caught on a hook: pulled toward where it caught at [`HOOK_PULL`], held
    /// there without gravity; a fresh jump lets go with a jump. Returns false when it let
    /// go (the step goes on as a free one).
    fn pull(&mut self, world: &World, input: Input, pressed: bool) -> bool {
        let Some(anchor) = self.hook else {
            return false;
        };
        let fresh = pressed || (input.jump && !self.jump_held);
        self.jump_held = input.jump;
        if fresh {
            self.hook = None;
            self.jumps += 1;
            self.air_jumped = false;
            return false;
        }
        let c = self.centre();
        let (dx, dy) = (anchor.0 - c.0, anchor.1 - c.1);
        let d = (dx * dx + dy * dy).sqrt();
        let speed = HOOK_PULL.min(d / STEP);
        self.vel = if d > 1e-4 {
            (dx / d * speed, dy / d * speed)
        } else {
            (0.0, 0.0)
        };
        let v = self.vel;
        self.move_x(world, v.0 * STEP, false);
        self.move_y(world, v.1 * STEP, true);
        self.air_jumped = false;
        true
    }

    /// Horizontal move; on the ground, a 1-tile ledge is stepped onto.
    fn move_x(&mut self, world: &World, dx: f32, grounded: bool) {
        let pieces = (dx.abs() / MAX_PIECE).ceil().max(1.0) as usize;
        let piece = dx / pieces as f32;
        for _ in 0..pieces {
            let (x, y) = (self.pos.0 + piece, self.pos.1);
            if !body_blocked(world, x, y) {
                self.pos.0 = x;
                continue;
            }
            let up = (y - 1.0).ceil();
            if grounded && !body_blocked(world, self.pos.0, up) && !body_blocked(world, x, up) {
                self.pos = (x, up);
                continue;
            }
            // Stop flush against the wall.
            let (x0, x1, ..) = tiles_under(x, y);
            self.pos.0 = if piece > 0.0 {
                x1 as f32 - WIDTH / 2.0 - SKIN
            } else {
                (x0 + 1) as f32 + WIDTH / 2.0 + SKIN
            };
            if body_blocked(world, self.pos.0, y) {
                self.pos.0 = x - piece; // The flush spot is taken too: stay put.
            }
            self.vel.0 = 0.0;
            return;
        }
    }

    /// Vertical move; falling, the body lands on platforms unless `down` drops it through.
    fn move_y(&mut self, world: &World, dy: f32, down: bool) {
        let pieces = (dy.abs() / MAX_PIECE).ceil().max(1.0) as usize;
        let piece = dy / pieces as f32;
        self.on_ground = false;
        for _ in 0..pieces {
            let (x, y) = (self.pos.0, self.pos.1 + piece);
            let platform = !down && lands_on_platform(world, x, self.pos.1, y);
            if !platform && !body_blocked(world, x, y) {
                self.pos.1 = y;
                continue;
            }
            if piece > 0.0 {
                self.pos.1 = y.floor(); // Feet on top of the tile row hit.
                self.on_ground = true;
            } else {
                self.pos.1 = (y - HEIGHT).floor() + 1.0 + HEIGHT + SKIN;
            }
            if body_blocked(world, x, self.pos.1) {
                self.pos.1 = y - piece;
            }
            self.vel.1 = 0.0;
            return;
        }
    }

    /// If the body overlaps solid tiles (a loaded save, an edit beside the player), moves
    /// it to the nearest free spot: up first, then sideways, then the spawn point.
    pub fn unstick(&mut self, world: &World) {
        let (x, y) = self.pos;
        let inside = |x: f32, y: f32| {
            x >= 0.0 && y >= 0.0 && x <= world.width() as f32 && y <= world.height() as f32
        };
        if x.is_finite() && y.is_finite() && inside(x, y) && !body_blocked(world, x, y) {
            return;
        }
        let (x, y) = if x.is_finite() && y.is_finite() {
            (x, y)
        } else {
            spawn_point(world)
        };
        for d in 1..=4 {
            let d = d as f32;
            for (cx, cy) in [
                (x, y.floor() - d + 1.0),
                (x - d, y),
                (x + d, y),
                (x, y.floor() + d),
            ] {
                if inside(cx, cy) && !body_blocked(world, cx, cy) {
                    self.pos = (cx, cy);
                    self.vel = (0.0, 0.0);
                    return;
                }
            }
        }
        self.pos = spawn_point(world);
        self.vel = (0.0, 0.0);
    }
}

/// Moves `v` towards `target` by at most `by`.
fn approach(v: f32, target: f32, by: f32) -> f32 {
    if v < target {
        (v + by).min(target)
    } else {
        (v - by).max(target)
    }
}

#[cfg(test)]
mod tests;
