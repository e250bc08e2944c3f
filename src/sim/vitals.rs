//! Health and danger: falls, drowning, lava, regeneration and death, as plain rules over
//! what the body senses each frame ([`Senses`]). Numbers come from [`Rules`].
//!
//! - A fall is measured in whole rows from the highest point since the feet last stood on
//!   ground or the body was in a liquid (a jump's own height is part of it); landing after more than
//!   [`Rules::safe_fall`] tiles costs [`Rules::fall_damage`] per tile beyond. Water breaks
//!   a fall.
//! - With the head in water, breath runs out over [`Rules::breath_seconds`]; without
//!   breath, [`Rules::drown_damage`] a second. Out of water, an empty breath fills again
//!   in [`Rules::breath_refill`] seconds. It shows as [`BUBBLES`] bubbles ([`bubbles`]).
//! - A creature's hit ([`Vitals::strike`]) takes its damage and makes the player
//!   invincible to creatures for [`Rules::invincible_seconds`] (blinking, [`visible`]);
//!   hits meanwhile do nothing. It throws the player away from the creature
//!   ([`knockback`]).
//! - Lava costs [`Rules::lava_damage`] a second.
//! - Touching a spike (standing on one, or against one) costs [`SPIKE_DAMAGE`], as a
//!   creature's hit does: then the player is invincible for [`Rules::invincible_seconds`].
//! - After [`Rules::regen_after`] seconds without harm, [`Rules::regen`] a second comes
//!   back.
//! - A potion ([`Vitals::drink`]) gives back its health, then no other for its sickness
//!   seconds; hearts heal through [`Vitals::heal`].
//! - At 0 health the player dies: [`Vitals::update`] names the cause, the game respawns
//!   the player at the spawn point with full health and everything carried.

use crate::content::rules::Rules;
use crate::world::{Tile, World};

/// Health a spike takes at a touch (Terraria's dungeon spikes).
pub const SPIKE_DAMAGE: f32 = 20.0;

/// Health of a new player (and the most there is).
pub const MAX_HEALTH: f32 = 100.0;
/// The most health any rules may let life crystals raise a player to (a save holding more
/// is refused).
pub const HIGHEST_HEALTH: f32 = 1000.0;

/// Hearts in the HUD (each [`MAX_HEALTH`] / [`HEARTS`]).
pub const HEARTS: usize = 5;
/// Bubbles of breath over the player's head (Terraria: ten).
pub const BUBBLES: usize = 10;
/// Blinks a second while invincible (visible half of each).
pub const BLINKS_PER_SECOND: f64 = 10.0;

/// What the body senses this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Senses {
    /// Feet height, tiles (grows downward).
    pub feet_y: f32,
    pub on_ground: bool,
    /// Any part of the body in water or lava.
    pub in_liquid: bool,
    /// The top of the head in water.
    pub head_in_water: bool,
    pub in_lava: bool,
    /// The body touches a spike (standing on it or against it).
    pub on_spikes: bool,
}

impl Senses {
    /// What a body with feet at `pos` senses in `world`.
    pub fn of(world: &World, pos: (f32, f32), on_ground: bool) -> Senses {
        let (x, y) = pos;
        let head = world.get(
            x.floor() as i64,
            (y - crate::sim::player::HEIGHT + 0.1).floor() as i64,
        );
        let in_lava = body_in_lava(world, pos);
        Senses {
            on_spikes: body_touches(world, pos, SPIKE_REACH, Tile::Spike),
            feet_y: y,
            on_ground,
            in_liquid: crate::sim::player::body_in_liquid(world, x, y),
            head_in_water: head == Some(Tile::Water),
            in_lava,
        }
    }
}

/// Does a body (the player's size) with feet at `pos` touch lava?
pub fn body_in_lava(world: &World, pos: (f32, f32)) -> bool {
    body_touches(world, pos, 0.0, Tile::Lava)
}

/// How far beyond the body a spike is felt, in tiles: a body standing on one, or pressed
/// against one, touches it.
const SPIKE_REACH: f32 = 0.05;

/// Does a body (the player's size) with feet at `pos`, grown by `margin` tiles on every
/// side, overlap a tile of `kind`?
pub fn body_touches(world: &World, (x, y): (f32, f32), margin: f32, kind: Tile) -> bool {
    let (x0, x1) = (
        (x - crate::sim::player::WIDTH / 2.0 - margin).floor() as i64,
        (x + crate::sim::player::WIDTH / 2.0 + margin - 1e-3).floor() as i64,
    );
    let (y0, y1) = (
        (y - crate::sim::player::HEIGHT - margin).floor() as i64,
        (y + margin - 1e-3).floor() as i64,
    );
    (y0..=y1).any(|ty| (x0..=x1).any(|tx| world.get(tx, ty) == Some(kind)))
}

/// What hurt the player.
#[derive(Clone, Debug, PartialEq)]
pub enum Harm {
    /// A fall of this many tiles.
    Fall(f32),
    Drowning,
    Lava,
    Spikes,
    /// A creature's touch (its name).
    Creature(String),
}

impl std::fmt::Display for Harm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Harm::Fall(d) => write!(f, "a fall of {d:.0} tiles"),
            Harm::Drowning => write!(f, "drowning"),
            Harm::Lava => write!(f, "lava"),
            Harm::Spikes => write!(f, "spikes"),
            // A name of its own ("The Eye") takes no "a".
            Harm::Creature(name) if name.starts_with("The ") => write!(f, "{name}"),
            Harm::Creature(name) => write!(f, "a {name}"),
        }
    }
}

/// Health, breath and what they depend on between frames.
#[derive(Clone, Debug, PartialEq)]
pub struct Vitals {
    pub health: f32,
    /// Seconds of breath left.
    pub breath: f32,
    /// Highest feet height since the last landing (smallest y), while airborne.
    fall_top: Option<f32>,
    /// Seconds since the last harm.
    unhurt: f32,
    /// Seconds left of invincibility to creatures (after a hit, or a respawn).
    pub invincible: f32,
    /// The last fall that hurt: its rows and the damage (the game logs and clears it).
    pub last_fall: Option<(f32, f32)>,
    /// Seconds before another potion can be drunk (the HUD shows it).
    pub potion_sick: f32,
    /// Seconds a potion press waits for the hands to be free of a swing (0: none waits).
    pub potion_queued: f32,
    /// The defence of the armour worn (the game sets it from the inventory).
    pub defence: u32,
    /// The most health, [`MAX_HEALTH`] at first, raised by life crystals.
    pub max_health: f32,
    /// A lucky horseshoe is worn: falls cost nothing (the game sets it from the inventory).
    pub no_fall: bool,
    /// A band of regeneration is worn: [`BAND_REGEN`] health a second comes back, even just
    /// after harm (the game sets it from the inventory).
    pub band: bool,
}

/// Health a second a band of regeneration gives back, on top of the usual regeneration
/// (Terraria's band: +1 life regeneration, which Strata counts as a health a second).
pub const BAND_REGEN: f32 = 1.0;

/// Why a life crystal was not used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CrystalRefusal {
    /// The most health is already the rules' most.
    AtMost(f32),
}

impl std::fmt::Display for CrystalRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrystalRefusal::AtMost(m) => write!(f, "health is at its most ({m:.0})"),
        }
    }
}

/// A hit of `damage` on a body with `defence`: half the defence (rounded up) comes off,
/// and at least 1 is taken (Terraria's rule).
pub fn mitigated(damage: f32, defence: u32) -> f32 {
    (damage - defence.div_ceil(2) as f32).max(1.0)
}

/// Why a potion was not drunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DrinkRefusal {
    /// Health is full already (the potion is kept).
    Full,
    /// Seconds left before the next potion.
    Sick(f32),
}

impl std::fmt::Display for DrinkRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrinkRefusal::Full => write!(f, "health is full"),
            DrinkRefusal::Sick(s) => write!(f, "no other potion for {:.0} s", s.ceil()),
        }
    }
}

/// The velocity a hit from a source at `source_x` gives a body at `x` facing `facing`:
/// away from the source and up; straight over it, backwards (against `facing`).
pub fn knockback(x: f32, source_x: f32, facing: i8, rules: &Rules) -> (f32, f32) {
    let away = if source_x < x {
        1.0
    } else if source_x > x {
        -1.0
    } else if facing < 0 {
        1.0
    } else {
        -1.0
    };
    (away * rules.knockback, -rules.knockback_up)
}

/// Is the player drawn at time `now` (seconds) with `invincible` seconds left? Always
/// when not invincible; otherwise half of every 1 / [`BLINKS_PER_SECOND`] seconds.
pub fn visible(invincible: f32, now: f64) -> bool {
    invincible <= 0.0 || (now * BLINKS_PER_SECOND).rem_euclid(1.0) < 0.5
}

/// How full each of the [`BUBBLES`] bubbles is, 0..=1, for `breath` seconds of `max`
/// (the last ones empty first).
pub fn bubbles(breath: f32, max: f32) -> [f32; BUBBLES] {
    let per = max.max(1e-3) / BUBBLES as f32;
    std::array::from_fn(|i| ((breath - i as f32 * per) / per).clamp(0.0, 1.0))
}

/// Health lost landing after a fall of `tiles`.
pub fn fall_damage(tiles: f32, rules: &Rules) -> f32 {
    (tiles - rules.safe_fall).max(0.0).floor() * rules.fall_damage
}

/// How full each heart is, 0..=1, for `health` of at most `max` (each heart a fifth).
pub fn hearts(health: f32, max: f32) -> [f32; HEARTS] {
    let per = max.max(1.0) / HEARTS as f32;
    std::array::from_fn(|i| ((health - i as f32 * per) / per).clamp(0.0, 1.0))
}

impl Vitals {
    /// Full breath, `health` health.
    pub fn new(health: f32, rules: &Rules) -> Vitals {
        Vitals::with_most(health, MAX_HEALTH, rules)
    }

    /// Full breath, `health` health of at most `max_health`.
    pub fn with_most(health: f32, max_health: f32, rules: &Rules) -> Vitals {
        let max_health = max_health.clamp(MAX_HEALTH, HIGHEST_HEALTH);
        Vitals {
            max_health,
            health: health.clamp(0.0, max_health),
            breath: rules.breath_seconds,
            fall_top: None,
            unhurt: rules.regen_after,
            invincible: 0.0,
            last_fall: None,
            potion_sick: 0.0,
            potion_queued: 0.0,
            defence: 0,
            no_fall: false,
            band: false,
        }
    }

    /// Full health and breath after a death, invincible for
    /// [`Rules::respawn_invincible`] seconds.
    pub fn respawned(rules: &Rules) -> Vitals {
        Vitals {
            invincible: rules.respawn_invincible,
            ..Vitals::new(MAX_HEALTH, rules)
        }
    }

    /// Full health after a death, keeping the most health reached.
    pub fn respawned_with(max_health: f32, rules: &Rules) -> Vitals {
        Vitals {
            invincible: rules.respawn_invincible,
            ..Vitals::with_most(max_health, max_health, rules)
        }
    }

    /// A life crystal used: the most health rises by the rules' `life_crystal_health`, up
    /// to `most_health`, and the health with it. Returns the new most.
    pub fn use_crystal(&mut self, rules: &Rules) -> Result<f32, CrystalRefusal> {
        let most = rules.most_health.min(HIGHEST_HEALTH);
        if self.max_health >= most {
            return Err(CrystalRefusal::AtMost(most));
        }
        let before = self.max_health;
        self.max_health = (self.max_health + rules.life_crystal_health).min(most);
        self.health = (self.health + self.max_health - before).min(self.max_health);
        Ok(self.max_health)
    }

    /// Gives back `amount` health (to the most); returns how much came back.
    pub fn heal(&mut self, amount: f32) -> f32 {
        let before = self.health;
        self.health = (self.health + amount.max(0.0)).min(self.max_health);
        self.health - before
    }

    /// Drinks a potion of `heal` that makes the next wait `sickness` seconds: refused at
    /// full health or while the last one's sickness lasts. Returns the health gained.
    pub fn drink(&mut self, heal: f32, sickness: f32) -> Result<f32, DrinkRefusal> {
        if self.potion_sick > 0.0 {
            return Err(DrinkRefusal::Sick(self.potion_sick));
        }
        if self.health >= self.max_health {
            return Err(DrinkRefusal::Full);
        }
        self.potion_sick = sickness;
        Ok(self.heal(heal))
    }

    /// A creature's hit of `damage`: nothing while invincible (`None`), else the damage
    /// less the defence ([`mitigated`]) is taken and invincibility starts; `Some(true)`
    /// when the hit killed.
    pub fn strike(&mut self, damage: f32, rules: &Rules) -> Option<bool> {
        if self.invincible > 0.0 {
            return None;
        }
        self.invincible = rules.invincible_seconds;
        Some(self.hurt(mitigated(damage, self.defence)))
    }

    /// Takes `amount` of health; true when that killed.
    pub fn hurt(&mut self, amount: f32) -> bool {
        if amount > 0.0 {
            self.health = (self.health - amount).max(0.0);
            self.unhurt = 0.0;
        }
        self.health <= 0.0
    }

    /// One frame of `dt` seconds: falls, breath, lava, regeneration. Returns the harm that
    /// killed, if the player died this frame.
    pub fn update(&mut self, s: Senses, dt: f32, rules: &Rules) -> Option<Harm> {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        self.unhurt += dt;
        self.invincible = (self.invincible - dt).max(0.0);
        self.potion_sick = (self.potion_sick - dt).max(0.0);
        self.potion_queued = (self.potion_queued - dt).max(0.0);
        let mut killer = None;
        let mut harm = |v: &mut Vitals, amount: f32, h: Harm| {
            if v.hurt(amount) && killer.is_none() {
                killer = Some(h);
            }
        };
        if s.in_liquid {
            self.fall_top = None;
        } else if s.on_ground {
            if let Some(top) = self.fall_top.take() {
                // Whole rows, as Terraria counts them: from the row the feet left.
                let d = (s.feet_y.floor() - top.floor()).max(0.0);
                let damage = if self.no_fall {
                    0.0
                } else {
                    fall_damage(d, rules)
                };
                if damage > 0.0 {
                    self.last_fall = Some((d, damage));
                }
                harm(self, damage, Harm::Fall(d));
            }
        } else {
            self.fall_top = Some(self.fall_top.map_or(s.feet_y, |t| t.min(s.feet_y)));
        }
        if s.head_in_water {
            self.breath -= dt;
            if self.breath < 0.0 {
                self.breath = 0.0;
                harm(self, rules.drown_damage * dt, Harm::Drowning);
            }
        } else {
            let refill = rules.breath_seconds / rules.breath_refill;
            self.breath = (self.breath + refill * dt).min(rules.breath_seconds);
        }
        if s.in_lava {
            harm(self, rules.lava_damage * dt, Harm::Lava);
        }
        if s.on_spikes && self.invincible <= 0.0 {
            harm(self, mitigated(SPIKE_DAMAGE, self.defence), Harm::Spikes);
            self.invincible = rules.invincible_seconds;
        }
        let regen = match (self.unhurt >= rules.regen_after, self.band) {
            (true, true) => rules.regen + BAND_REGEN,
            (true, false) => rules.regen,
            (false, true) => BAND_REGEN,
            (false, false) => 0.0,
        };
        if killer.is_none() && regen > 0.0 {
            self.health = (self.health + regen * dt).min(self.max_health);
        }
        killer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(v: &mut Vitals, s: Senses, seconds: f32) -> Option<Harm> {
        let r = Rules::default();
        let mut out = None;
        for _ in 0..(seconds * 60.0).round() as usize {
            out = out.or(v.update(s, 1.0 / 60.0, &r));
        }
        out
    }

    fn air(y: f32) -> Senses {
        Senses {
            feet_y: y,
            ..Default::default()
        }
    }

    fn ground(y: f32) -> Senses {
        Senses {
            feet_y: y,
            on_ground: true,
            ..Default::default()
        }
    }

    #[test]
    fn short_falls_and_jumps_are_safe_long_falls_hurt() {
        let r = Rules::default();
        assert_eq!(fall_damage(r.safe_fall, &r), 0.0);
        assert_eq!(fall_damage(r.safe_fall + 3.5, &r), 3.0 * r.fall_damage);
        let mut v = Vitals::new(MAX_HEALTH, &r);
        // A jump: up 5 tiles and down again.
        for y in [100.0, 97.0, 95.0, 97.0] {
            v.update(air(y), 0.01, &r);
        }
        v.update(ground(100.0), 0.01, &r);
        assert_eq!(v.health, MAX_HEALTH);
        // Terraria's figures: 25 tiles are safe, 26 cost 10, 30 cost 50.
        assert_eq!(fall_damage(25.0, &r), 0.0);
        assert_eq!(fall_damage(26.0, &r), 10.0);
        assert_eq!(fall_damage(30.0, &r), 50.0);
        // A fall of 30 tiles.
        for y in [100.0, 110.0, 129.0] {
            v.update(air(y), 0.01, &r);
        }
        v.update(ground(130.0), 0.01, &r);
        assert_eq!(v.health, MAX_HEALTH - 50.0);
        assert_eq!(v.last_fall, Some((30.0, 50.0)));
        // Walking off a ledge 26 rows up: the feet leave row 10 a little below its top.
        let mut v = Vitals::new(MAX_HEALTH, &r);
        v.update(ground(10.0), 0.01, &r);
        for y in [10.004, 20.0, 35.9] {
            v.update(air(y), 0.01, &r);
        }
        v.update(ground(36.0), 0.01, &r);
        assert_eq!(v.health, 90.0, "a 26-tile fall costs 10");
        // The same fall into water is no fall.
        let mut v = Vitals::new(MAX_HEALTH, &r);
        v.update(air(100.0), 0.01, &r);
        let wet = Senses {
            in_liquid: true,
            ..air(118.0)
        };
        v.update(wet, 0.01, &r);
        v.update(ground(120.0), 0.01, &r);
        assert_eq!(v.health, MAX_HEALTH);
        // A deadly fall names its cause.
        let mut v = Vitals::new(10.0, &r);
        v.update(air(0.0), 0.01, &r);
        assert!(matches!(v.update(ground(60.0), 0.01, &r), Some(Harm::Fall(d)) if d == 60.0));
    }

    #[test]
    fn breath_runs_out_under_water_then_drowning_hurts() {
        let r = Rules::default();
        let mut v = Vitals::new(MAX_HEALTH, &r);
        let under = Senses {
            in_liquid: true,
            head_in_water: true,
            ..air(50.0)
        };
        assert_eq!(frames(&mut v, under, r.breath_seconds - 0.5), None);
        assert_eq!(v.health, MAX_HEALTH, "holding breath is free");
        assert!(v.breath > 0.0 && v.breath < 1.0);
        frames(&mut v, under, 2.5);
        assert!(v.health < MAX_HEALTH && v.health > MAX_HEALTH - 3.0 * r.drown_damage);
        assert_eq!(frames(&mut v, under, 60.0), Some(Harm::Drowning));
        // Terraria's figures: 23 s of breath, then about 17 health a second.
        let mut v = Vitals::new(MAX_HEALTH, &r);
        frames(&mut v, under, 23.0);
        assert_eq!(v.health, MAX_HEALTH, "23 s under water are free");
        frames(&mut v, under, 1.3);
        assert!(
            (v.health - (MAX_HEALTH - 17.0)).abs() < 1.0,
            "{} after a second without breath",
            v.health
        );
        // Surfacing brings all of it back in about a second.
        frames(&mut v, ground(50.0), 0.5);
        assert!(v.breath < r.breath_seconds, "not all at once");
        frames(&mut v, ground(50.0), 0.65);
        assert_eq!(v.breath, r.breath_seconds);
    }

    #[test]
    fn a_creature_hit_counts_once_per_invincibility_window() {
        let r = Rules::default();
        let mut v = Vitals::new(MAX_HEALTH, &r);
        assert_eq!(v.strike(6.0, &r), Some(false));
        assert_eq!(v.health, MAX_HEALTH - 6.0);
        // Inside the window (0.67 s) further hits do nothing.
        frames(&mut v, ground(10.0), 0.6);
        assert_eq!(v.strike(6.0, &r), None);
        assert_eq!(v.health, MAX_HEALTH - 6.0);
        frames(&mut v, ground(10.0), 0.1);
        assert_eq!(v.invincible, 0.0);
        assert_eq!(v.strike(6.0, &r), Some(false));
        assert_eq!(v.health, MAX_HEALTH - 12.0);
        // A hit that kills says so; a respawn starts with a longer window.
        let mut v = Vitals::new(5.0, &r);
        assert_eq!(v.strike(6.0, &r), Some(true));
        let v = Vitals::respawned(&r);
        assert_eq!((v.health, v.invincible), (MAX_HEALTH, r.respawn_invincible));
    }

    #[test]
    fn a_potion_heals_then_waits_out_its_sickness() {
        let r = Rules::default();
        let mut v = Vitals::new(30.0, &r);
        assert_eq!(v.drink(50.0, 60.0), Ok(50.0));
        assert_eq!(v.health, 80.0);
        assert_eq!(v.drink(50.0, 60.0), Err(DrinkRefusal::Sick(60.0)));
        v.hurt(50.0);
        frames(&mut v, ground(10.0), 59.0);
        assert!(matches!(v.drink(50.0, 60.0), Err(DrinkRefusal::Sick(s)) if s < 1.01));
        frames(&mut v, ground(10.0), 1.1);
        v.health = 40.0;
        assert_eq!(v.drink(50.0, 60.0), Ok(50.0));
        frames(&mut v, ground(10.0), 61.0);
        v.health = MAX_HEALTH;
        assert_eq!(v.drink(50.0, 60.0), Err(DrinkRefusal::Full), "not wasted");
        // Healing stops at the most.
        let mut v = Vitals::new(95.0, &r);
        assert_eq!(v.heal(20.0), 5.0);
        assert_eq!(v.health, MAX_HEALTH);
    }

    #[test]
    fn defence_takes_half_its_value_off_each_hit() {
        assert_eq!(mitigated(6.0, 0), 6.0);
        assert_eq!(mitigated(6.0, 3), 4.0, "half of 3, rounded up");
        assert_eq!(mitigated(25.0, 8), 21.0);
        assert_eq!(mitigated(6.0, 40), 1.0, "at least 1");
        let r = Rules::default();
        let mut v = Vitals::new(MAX_HEALTH, &r);
        v.defence = 4;
        v.strike(12.0, &r);
        assert_eq!(v.health, MAX_HEALTH - 10.0);
    }

    #[test]
    fn the_player_blinks_only_while_invincible() {
        assert!((0..100).all(|i| visible(0.0, i as f64 * 0.013)));
        let shown = (0..1000)
            .filter(|&i| visible(0.5, i as f64 * 0.001))
            .count();
        assert!((400..=600).contains(&shown), "{shown} of 1000 ms shown");
        assert!(visible(0.5, 0.01) && !visible(0.5, 0.07));
    }

    #[test]
    fn ten_bubbles_empty_from_the_last() {
        let max = 23.3;
        assert_eq!(bubbles(max, max), [1.0; BUBBLES]);
        assert_eq!(bubbles(0.0, max), [0.0; BUBBLES]);
        let b = bubbles(max * 0.45, max);
        assert_eq!(b[..4], [1.0; 4]);
        assert!((b[4] - 0.5).abs() < 1e-4 && b[5..] == [0.0; 5], "{b:?}");
    }

    #[test]
    fn lava_burns_fast_and_health_regrows_after_a_while() {
        let r = Rules::default();
        let mut v = Vitals::new(MAX_HEALTH, &r);
        let hot = Senses {
            in_liquid: true,
            in_lava: true,
            ..air(50.0)
        };
        assert_eq!(frames(&mut v, hot, 1.0), None);
        assert!((v.health - (MAX_HEALTH - r.lava_damage)).abs() < 0.5);
        assert_eq!(frames(&mut v, hot, 2.0), Some(Harm::Lava));
        let mut v = Vitals::new(50.0, &r);
        v.hurt(1.0);
        frames(&mut v, ground(10.0), r.regen_after - 0.5);
        assert_eq!(v.health, 49.0, "no regeneration right after harm");
        frames(&mut v, ground(10.0), 2.5);
        assert!(v.health > 49.0 + r.regen);
    }

    #[test]
    fn a_spike_hurts_at_a_touch_then_not_while_invincible() {
        let w =
            World::from_ascii(&["          ", "          ", "          ", "####^^####"]).unwrap();
        assert!(
            Senses::of(&w, (4.5, 3.0), true).on_spikes,
            "standing on one"
        );
        assert!(
            !Senses::of(&w, (2.0, 3.0), true).on_spikes,
            "beside the bed"
        );
        assert!(
            !Senses::of(&w, (4.5, 2.0), false).on_spikes,
            "a tile above it"
        );
        let r = Rules::default();
        let mut v = Vitals::new(MAX_HEALTH, &r);
        let spiked = Senses {
            on_spikes: true,
            ..ground(10.0)
        };
        assert_eq!(v.update(spiked, 1.0 / 60.0, &r), None);
        assert_eq!(v.health, MAX_HEALTH - SPIKE_DAMAGE);
        assert!(v.invincible > 0.0);
        v.update(spiked, 1.0 / 60.0, &r);
        assert_eq!(v.health, MAX_HEALTH - SPIKE_DAMAGE, "invincible a while");
        let mut v = Vitals::new(SPIKE_DAMAGE, &r);
        assert_eq!(v.update(spiked, 1.0 / 60.0, &r), Some(Harm::Spikes));
    }

    #[test]
    fn hearts_fill_in_order() {
        assert_eq!(hearts(MAX_HEALTH, MAX_HEALTH), [1.0; HEARTS]);
        assert_eq!(hearts(0.0, MAX_HEALTH), [0.0; HEARTS]);
        assert_eq!(hearts(50.0, MAX_HEALTH), [1.0, 1.0, 0.5, 0.0, 0.0]);
        assert_eq!(hearts(200.0, 400.0), [1.0, 1.0, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn senses_find_water_over_the_head_and_lava_under_the_feet() {
        let w = World::from_ascii(&[
            "          ",
            "  ~~      ",
            "  ~~  LL  ",
            "  ~~  LL  ",
            "##########",
        ])
        .unwrap();
        let s = Senses::of(&w, (3.0, 4.0), true);
        assert!(s.head_in_water && s.in_liquid && !s.in_lava);
        let s = Senses::of(&w, (7.0, 4.0), true);
        assert!(s.in_lava && !s.head_in_water);
        let s = Senses::of(&w, (4.6, 4.0), true);
        assert!(!s.in_liquid && !s.in_lava, "{s:?}");
    }

    #[test]
    fn a_life_crystal_raises_the_most_health_by_20_up_to_400() {
        let r = Rules::default();
        let mut v = Vitals::new(60.0, &r);
        assert_eq!(v.max_health, MAX_HEALTH);
        assert_eq!(v.use_crystal(&r), Ok(120.0));
        assert_eq!(v.health, 80.0, "the new health comes full");
        for _ in 0..20 {
            let _ = v.use_crystal(&r);
        }
        assert_eq!(v.max_health, 400.0);
        assert_eq!(v.use_crystal(&r), Err(CrystalRefusal::AtMost(400.0)));
        // Healing and a respawn go up to the new most, not to 100.
        v.health = 150.0;
        v.heal(1000.0);
        assert_eq!(v.health, 400.0);
        let back = Vitals::respawned_with(v.max_health, &r);
        assert_eq!((back.health, back.max_health), (400.0, 400.0));
        // A saved most is kept within bounds.
        assert_eq!(
            Vitals::with_most(500.0, 5000.0, &r).max_health,
            HIGHEST_HEALTH
        );
        assert_eq!(Vitals::with_most(50.0, 10.0, &r).max_health, MAX_HEALTH);
    }
}
