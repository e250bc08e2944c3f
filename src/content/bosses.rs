//! The bosses' numbers as data: `config/creatures.ron`'s `bosses` section (the Eye, the
//! Eater of Worlds, Skeletron and the Wall of Flesh: health, touch damage, speeds, when
//! the second phase comes, how often servants and lasers come, and what each player who
//! fought it gets). Every field has the shipped number as its default ([`EyeBoss::SHIPPED`]
//! and the others), so a file that leaves one out, or the whole section, plays as before.
//! Checked as the creature kinds are: a number out of range names its field
//! (`bosses.wall.speed`), its range and its line:col; a loot item must be in the catalog.
//!
//! The Eye's other numbers (health, damage, its hovers and dashes) are rules
//! ([`crate::content::rules`]), as is the Eater's whole health (`eater_health`, which
//! scales the segments' healths written here), so rules files that set them keep working.
//! How the bosses fight is [`crate::sim::boss`].

use crate::content::items::{Bad, Catalog, bad, range_f, range_u};
use serde::Deserialize;

/// The Eye's numbers beside its rules.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EyeBoss {
    /// Seconds between servants in phase one.
    pub servant_every: f32,
    /// Tiles over its target it hovers at, and its fastest hover, tiles/s.
    pub hover_height: f32,
    pub hover_speed: f32,
    /// Share of its health at or below which phase two comes.
    pub phase_two_at: f32,
}

impl EyeBoss {
    pub const SHIPPED: EyeBoss = EyeBoss {
        servant_every: 1.2,
        hover_height: 11.0,
        hover_speed: 16.0,
        phase_two_at: 0.5,
    };
}

/// The Eater of Worlds' numbers.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EaterBoss {
    /// Health of the head, a body segment and the tail (their shares of the rules'
    /// `eater_health`).
    pub head_health: f32,
    pub body_health: f32,
    pub tail_health: f32,
    /// Fastest a head steers through blocks, tiles/s, in phase one and two.
    pub speed: f32,
    pub speed_two: f32,
    /// Health a head, a body segment and the tail take from a player they touch.
    pub head_damage: f32,
    pub body_damage: f32,
    pub tail_damage: f32,
    /// Share of its whole health at or below which phase two comes.
    pub phase_two_at: f32,
}

impl EaterBoss {
    pub const SHIPPED: EaterBoss = EaterBoss {
        head_health: 80.0,
        body_health: 120.0,
        tail_health: 160.0,
        speed: 13.0,
        speed_two: 17.0,
        head_damage: 22.0,
        body_damage: 13.0,
        tail_damage: 11.0,
        phase_two_at: 0.5,
    };
}

/// Skeletron's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkeletronBoss {
    /// Health of the skull and of each hand.
    pub head_health: f32,
    pub hand_health: f32,
    /// Fastest the skull hovers, tiles/s.
    pub hover_speed: f32,
    /// Seconds between swipes (the hands take turns), seconds one lasts, a swiping
    /// hand's speed, tiles/s.
    pub swipe_every: f32,
    pub swipe_seconds: f32,
    pub swipe_speed: f32,
    /// Seconds between spins in phase one (Terraria's skull spins at the player in
    /// both phases, so a sword reaches it), in phase two; seconds of a spin, its speed,
    /// tiles/s.
    pub spin_every_one: f32,
    pub spin_every: f32,
    pub spin_seconds: f32,
    pub spin_speed: f32,
    /// Health the skull, the skull spinning and a hand take from a player they touch.
    pub head_damage: f32,
    pub spin_damage: f32,
    pub hand_damage: f32,
    /// Share of the skull's health at or below which phase two comes.
    pub phase_two_at: f32,
}

impl SkeletronBoss {
    pub const SHIPPED: SkeletronBoss = SkeletronBoss {
        head_health: 1400.0,
        hand_health: 200.0,
        hover_speed: 10.0,
        swipe_every: 1.6,
        swipe_seconds: 0.9,
        swipe_speed: 26.0,
        spin_every_one: 9.0,
        spin_every: 4.0,
        spin_seconds: 3.0,
        spin_speed: 11.0,
        head_damage: 32.0,
        spin_damage: 46.0,
        hand_damage: 22.0,
        phase_two_at: 0.5,
    };
}

/// The Wall of Flesh's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WallBoss {
    pub health: f32,
    /// Tiles/s it crosses at with full health, and with none.
    pub speed: f32,
    pub speed_most: f32,
    /// Seconds between the eyes' lasers (phase two: half), their speed, tiles/s.
    pub laser_every: f32,
    pub laser_speed: f32,
    /// Health its touch (and being behind it) and a laser take.
    pub contact_damage: f32,
    pub laser_damage: f32,
    /// Share of its health at or below which phase two comes.
    pub phase_two_at: f32,
}

impl WallBoss {
    pub const SHIPPED: WallBoss = WallBoss {
        health: 2600.0,
        speed: 2.5,
        speed_most: 7.0,
        laser_every: 2.0,
        laser_speed: 24.0,
        contact_damage: 50.0,
        laser_damage: 22.0,
        phase_two_at: 0.5,
    };
}

macro_rules! shipped_default {
    ($($t:ty),*) => {$(
        impl Default for $t {
            fn default() -> $t {
                <$t>::SHIPPED
            }
        }
    )*};
}
shipped_default!(EyeBoss, EaterBoss, SkeletronBoss, WallBoss);

/// Most rows of one boss's loot.
pub const MAX_LOOT: usize = 16;

/// Demonite ore the Eye drops (shipped).
pub const DEMONITE_DROP: u32 = 30;
/// Lenses it drops besides (Terraria's Eye drops a few).
pub const LENS_DROP: u32 = 3;
/// Eye trophies it drops: one each defeat.
pub const TROPHY_DROP: u32 = 1;

/// What each player who fought a boss gets when it falls, by item name and count (its
/// trophy among them).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BossLoot {
    pub eye: Vec<(String, u32)>,
    pub eater: Vec<(String, u32)>,
    pub skeletron: Vec<(String, u32)>,
    pub wall: Vec<(String, u32)>,
}

impl Default for BossLoot {
    fn default() -> BossLoot {
        let list = |l: &[(&str, u32)]| l.iter().map(|&(n, c)| (n.to_string(), c)).collect();
        BossLoot {
            eye: list(&[
                ("demonite_ore", DEMONITE_DROP),
                ("lens", LENS_DROP),
                ("eye_trophy", TROPHY_DROP),
            ]),
            eater: list(&[
                ("demonite_ore", 40),
                ("shadow_scale", 15),
                ("gold_coin", 2),
                ("eater_trophy", 1),
            ]),
            skeletron: list(&[("gold_coin", 5), ("skeletron_trophy", 1)]),
            wall: list(&[
                ("pwnhammer", 1),
                ("warrior_emblem", 1),
                ("gold_coin", 8),
                ("wall_trophy", 1),
            ]),
        }
    }
}

/// Every boss's numbers and loot: `bosses: (eye: (..), eater: (..), skeletron: (..),
/// wall: (..), loot: (..))`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bosses {
    pub eye: EyeBoss,
    pub eater: EaterBoss,
    pub skeletron: SkeletronBoss,
    pub wall: WallBoss,
    pub loot: BossLoot,
}

impl Bosses {
    /// Checks every number's range (and, with a catalog, that each loot item is one of it).
    pub(crate) fn check(&self, cat: Option<&Catalog>) -> Result<(), Bad> {
        let f = |boss: &str, field: &str| format!("bosses.{boss}.{field}");
        let health = |b: &str, n: &str, v: f32| range_f(f(b, n), v, 1.0, 100_000.0).map(|_| ());
        let damage = |b: &str, n: &str, v: f32| range_f(f(b, n), v, 0.0, 1000.0).map(|_| ());
        let speed = |b: &str, n: &str, v: f32| range_f(f(b, n), v, 0.1, 100.0).map(|_| ());
        let seconds = |b: &str, n: &str, v: f32| range_f(f(b, n), v, 0.05, 60.0).map(|_| ());
        let share = |b: &str, v: f32| range_f(f(b, "phase_two_at"), v, 0.0, 1.0).map(|_| ());
        let e = &self.eye;
        seconds("eye", "servant_every", e.servant_every)?;
        range_f(f("eye", "hover_height"), e.hover_height, 0.0, 60.0)?;
        speed("eye", "hover_speed", e.hover_speed)?;
        share("eye", e.phase_two_at)?;
        let w = &self.eater;
        health("eater", "head_health", w.head_health)?;
        health("eater", "body_health", w.body_health)?;
        health("eater", "tail_health", w.tail_health)?;
        speed("eater", "speed", w.speed)?;
        speed("eater", "speed_two", w.speed_two)?;
        damage("eater", "head_damage", w.head_damage)?;
        damage("eater", "body_damage", w.body_damage)?;
        damage("eater", "tail_damage", w.tail_damage)?;
        share("eater", w.phase_two_at)?;
        let s = &self.skeletron;
        health("skeletron", "head_health", s.head_health)?;
        health("skeletron", "hand_health", s.hand_health)?;
        speed("skeletron", "hover_speed", s.hover_speed)?;
        seconds("skeletron", "swipe_every", s.swipe_every)?;
        seconds("skeletron", "swipe_seconds", s.swipe_seconds)?;
        speed("skeletron", "swipe_speed", s.swipe_speed)?;
        seconds("skeletron", "spin_every_one", s.spin_every_one)?;
        seconds("skeletron", "spin_every", s.spin_every)?;
        seconds("skeletron", "spin_seconds", s.spin_seconds)?;
        speed("skeletron", "spin_speed", s.spin_speed)?;
        damage("skeletron", "head_damage", s.head_damage)?;
        damage("skeletron", "spin_damage", s.spin_damage)?;
        damage("skeletron", "hand_damage", s.hand_damage)?;
        share("skeletron", s.phase_two_at)?;
        let w = &self.wall;
        health("wall", "health", w.health)?;
        speed("wall", "speed", w.speed)?;
        range_f(f("wall", "speed_most"), w.speed_most, w.speed, 100.0)?;
        seconds("wall", "laser_every", w.laser_every)?;
        speed("wall", "laser_speed", w.laser_speed)?;
        damage("wall", "contact_damage", w.contact_damage)?;
        damage("wall", "laser_damage", w.laser_damage)?;
        share("wall", w.phase_two_at)?;
        let l = &self.loot;
        for (boss, rows) in [
            ("eye", &l.eye),
            ("eater", &l.eater),
            ("skeletron", &l.skeletron),
            ("wall", &l.wall),
        ] {
            if rows.len() > MAX_LOOT {
                let at = format!("bosses.loot.{boss}");
                let m = format!("{at}: allowed at most {MAX_LOOT} rows");
                return Err(bad(at, m));
            }
            for (j, (item, count)) in rows.iter().enumerate() {
                let at = format!("bosses.loot.{boss}[{j}]");
                if let Some(cat) = cat
                    && cat.id(item).is_none()
                {
                    let m = format!("{at} = {item:?}: no such item in the catalog");
                    return Err(bad(at, m));
                }
                range_u(format!("{at}.1"), *count, 1, 999)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::bestiary::{Bestiary, CREATURES_RON};

    #[test]
    fn the_built_in_file_holds_the_shipped_numbers_and_a_file_without_them_plays_so() {
        let cat = Catalog::builtin().unwrap();
        let b = Bestiary::builtin(&cat).unwrap();
        // The boss tests (and the constants in sim::boss) are the shipped numbers.
        assert_eq!(b.bosses, Bosses::default());
        let start = CREATURES_RON.find("    bosses: (").unwrap();
        let end = CREATURES_RON.rfind(")").unwrap();
        let without = format!("{}{}", &CREATURES_RON[..start], &CREATURES_RON[end..]);
        let b = Bestiary::parse(&without, "creatures.ron", &cat).unwrap();
        assert_eq!(b.bosses, Bosses::default());
        // One number written, the rest the shipped ones.
        let one = without.replacen(
            "    ],\n)",
            "    ],\n    bosses: (wall: (speed: 4.0)),\n)",
            1,
        );
        let b = Bestiary::parse(&one, "creatures.ron", &cat).unwrap();
        assert_eq!(b.bosses.wall.speed, 4.0);
        assert_eq!(b.bosses.wall.health, WallBoss::SHIPPED.health);
        assert_eq!(b.bosses.eater, EaterBoss::SHIPPED);
    }

    #[test]
    fn a_bad_boss_number_or_loot_names_its_place_field_and_range() {
        let cat = Catalog::builtin().unwrap();
        let line_of =
            |text: &str, what: &str| text.lines().position(|l| l.contains(what)).unwrap() + 1;
        let slow = CREATURES_RON.replacen(
            "speed: 2.5, speed_most: 7.0",
            "speed: 2.5, speed_most: 1.0",
            1,
        );
        let e = Bestiary::parse(&slow, "creatures.ron", &cat).unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("bosses.wall.speed_most") && s.contains("[2.5, 100]"),
            "{s}"
        );
        assert!(s.contains("creatures.ron:"), "{s}");
        assert_eq!(
            e.position.map(|p| p.0),
            Some(line_of(&slow, "speed_most: 1.0")),
            "{s}"
        );
        let weak = CREATURES_RON.replacen("head_health: 1400.0", "head_health: 0.0", 1);
        let s = Bestiary::parse(&weak, "creatures.ron", &cat)
            .unwrap_err()
            .to_string();
        assert!(
            s.contains("bosses.skeletron.head_health") && s.contains("[1, 100000]"),
            "{s}"
        );
        let no_item = CREATURES_RON.replacen("(\"pwnhammer\", 1)", "(\"pwnhamer\", 1)", 1);
        let e = Bestiary::parse(&no_item, "creatures.ron", &cat).unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("bosses.loot.wall[0]") && s.contains("pwnhamer"),
            "{s}"
        );
        assert_eq!(
            e.position.map(|p| p.0),
            Some(line_of(&no_item, "pwnhamer")),
            "{s}"
        );
        let typo = CREATURES_RON.replacen("laser_every:", "laser_evry:", 1);
        let e = Bestiary::parse(&typo, "creatures.ron", &cat).unwrap_err();
        assert!(
            e.position.is_some() && e.to_string().contains("laser_evry"),
            "{e}"
        );
    }
}
