//! Touches that separate: what a creature's (or the Eye's) touch does to the bodies, so
//! that a hit never pins a player where the next one lands.
//!
//! - The player is thrown along the free direction ([`throw_player`]): away from what hit
//!   it and up, as [`crate::sim::vitals::knockback`] says, when there is room that way;
//!   with a wall (or the side of a shaft) behind it, straight up and higher
//!   ([`WALL_LIFT`]), over what hit it.
//! - The creature is thrown the other way ([`throw_creature`]): a flier bounces off, as
//!   Terraria's demon eyes do, a hopper is thrown back and up; one sitting on the
//!   player's head (a shaft one tile wide) is thrown up.
//! - A creature's touch hurts at most once per [`Rules::touch_cooldown`] seconds (its own
//!   timer, [`crate::sim::creatures::Creature::touch_in`]), whatever the player's
//!   invincibility does: the same creature never lands a hit at every window's end.

use crate::content::rules::Rules;
use crate::sim::player::{self, Player};
use crate::world::World;

/// How much harder a player with a wall behind it is thrown up than
/// [`Rules::knockback_up`]: enough to rise clear over a slime or an eye in front of it
/// (8 tiles/s times 2.2 lifts the feet about 2.6 tiles; 1.6 lifted them 1.4, level with
/// what hit it).
pub const WALL_LIFT: f32 = 2.2;
/// Tiles of room a side must have to count as free.
pub const ROOM: f32 = 0.6;
/// Speed a flier bounces off a player at, at least (its flying speed if faster), tiles/s.
pub const BOUNCE: f32 = 9.0;

/// +1 or -1: the side of `x` that `from` is not on; straight over it, against `facing`.
pub fn away_from(x: f32, from: f32, facing: i8) -> f32 {
    if (x - from).abs() > 0.05 {
        (x - from).signum()
    } else if facing < 0 {
        1.0
    } else {
        -1.0
    }
}

/// Has a body with feet at `pos` room to move [`ROOM`] tiles across toward `dir` (±1)?
pub fn room_toward(world: &World, pos: (f32, f32), dir: f32) -> bool {
    let x = pos.0 + dir * ROOM;
    !player::body_blocked(world, x, pos.1) || !player::body_blocked(world, x, pos.1 - 1.0)
}

/// Is the box `from` (`left, top, right, bottom`) over the player's head: its bottom at
/// or above the head's top half and across within the body?
pub fn on_head(body: &Player, from: (f32, f32, f32, f32)) -> bool {
    let (l, t, r, _) = body.bounds();
    let mid = (from.0 + from.2) / 2.0;
    from.3 <= t + 0.5 && mid > l - 0.2 && mid < r + 0.2
}

/// Throws the player `body` away from a hit by the box `from`: away and up when that side
/// is free, straight up and higher ([`WALL_LIFT`]) when a wall is behind it, and not up
/// when the hit came from over its head (it stays; the creature is thrown up instead).
/// Returns the velocity given.
pub fn throw_player(
    world: &World,
    body: &mut Player,
    from: (f32, f32, f32, f32),
    rules: &Rules,
) -> (f32, f32) {
    let away = away_from(body.pos.0, (from.0 + from.2) / 2.0, body.facing);
    let vel = if on_head(body, from) {
        (0.0, body.vel.1.max(0.0))
    } else if room_toward(world, body.pos, away) {
        (away * rules.knockback, -rules.knockback_up)
    } else {
        (0.0, -rules.knockback_up * WALL_LIFT)
    };
    body.vel = vel;
    if vel.1 < 0.0 {
        body.on_ground = false;
    }
    vel
}

/// Throws a creature's body `c` (flying or not) off the player `me` it just hit: a flier
/// bounces back and up at [`BOUNCE`] (or its own speed), a hopper is thrown back and up;
/// one on the player's head is thrown straight up (sideways too where there is room).
pub fn throw_creature(world: &World, c: &mut Player, flies: bool, speed: f32, me: &Player) {
    let away = away_from(c.pos.0, me.pos.0, -me.facing);
    let cb = (c.pos.0 - 0.4, c.pos.1 - 1.0, c.pos.0 + 0.4, c.pos.1);
    let side = room_toward(world, c.pos, away);
    let s = if flies { BOUNCE.max(speed) } else { BOUNCE };
    c.vel = if on_head(me, cb) {
        (if side { away * s * 0.5 } else { 0.0 }, -s * 1.2)
    } else if flies {
        (away * s, -s * 0.5)
    } else {
        (away * s, -s * 0.6)
    };
    c.on_ground = false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Tile;

    /// A stone floor at row 10 with a wall at column 12 (rows 0..10).
    fn walled() -> World {
        let mut w = World::new(40, 20, 0, crate::content::preset::Preset::default());
        for x in 0..40 {
            for y in 10..20 {
                w.set(x, y, Tile::Stone);
            }
        }
        for y in 0..10 {
            w.set(12, y, Tile::Stone);
        }
        w.surface = vec![10; 40];
        w
    }

    #[test]
    fn a_player_with_room_is_thrown_away_and_against_a_wall_up() {
        let w = walled();
        let r = Rules::default();
        // In the open, hit from the left: right and up.
        let mut p = Player::new((6.5, 10.0));
        let v = throw_player(&w, &mut p, (5.0, 8.5, 5.9, 9.5), &r);
        assert_eq!(v, (r.knockback, -r.knockback_up));
        // Against the wall on its right, hit from the left: straight up, higher.
        let mut p = Player::new((11.55, 10.0));
        let v = throw_player(&w, &mut p, (10.0, 8.5, 10.9, 9.5), &r);
        assert_eq!(v.0, 0.0);
        assert!(v.1 < -r.knockback_up, "{v:?}");
        assert!(!p.on_ground);
        // Hit from over its head: not thrown up into it.
        let mut p = Player::new((6.5, 10.0));
        let v = throw_player(&w, &mut p, (6.1, 7.2, 6.9, 8.2), &r);
        assert!(v.1 >= 0.0, "{v:?}");
    }

    #[test]
    fn creatures_bounce_off_the_player_they_hit() {
        let w = walled();
        let me = Player::new((6.5, 10.0));
        // An eye on the left bounces left and up.
        let mut eye = Player::new((5.5, 9.0));
        throw_creature(&w, &mut eye, true, 7.0, &me);
        assert!(eye.vel.0 <= -BOUNCE && eye.vel.1 < 0.0, "{:?}", eye.vel);
        // A slime on the head is thrown up.
        let mut slime = Player::new((6.5, 8.2));
        throw_creature(&w, &mut slime, false, 0.0, &me);
        assert!(slime.vel.1 < -BOUNCE, "{:?}", slime.vel);
    }
}
