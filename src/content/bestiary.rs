//! The creature kinds as data: `config/creatures.ron` (health, contact damage, defence,
//! knockback resistance, drops, colour and size, a behaviour from a fixed set with its
//! numbers, and where and when each spawns), compiled in and checked by
//! [`Bestiary::parse`] against the item catalog (errors name the file, line:col, the field
//! and its allowed range, as items' do). A mod may add a creature or replace one of the
//! same name ([`crate::content::mods`]).
//!
//! A [`Kind`] is an index into a content's [`Bestiary`]: the built-in file's kinds, in
//! file order, then each kind a mod added (a kind added in RON needs no change in Rust).
//! Each session plays by its own content's bestiary, so a mod's kind is seen only by the
//! sessions built with that mod. How creatures move and fight is
//! [`crate::sim::creatures`]; the bosses keep their own numbers ([`crate::sim::boss`]).

use crate::base::depth::Layer;
use crate::content::bosses::Bosses;
use crate::content::items::{Bad, Catalog, bad, parse_ron, placed, range_f, range_u};
use crate::content::preset::PresetError;
use serde::Deserialize;

/// `config/creatures.ron`, as compiled in.
pub const CREATURES_RON: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/creatures.ron"));
/// Most kinds in one file, and in a bestiary with its mods' kinds.
pub const MAX_KINDS: usize = 250;
/// The bosses a spawn rule may wait on (`before: "skeletron"`; the world's progress
/// answers, [`crate::world::progress::Progress::defeated`]): the town's list.
pub use crate::content::town::BOSSES;
/// Most drops and spawn rules of one kind.
pub const MAX_ROWS: usize = 16;

/// How a kind moves and attacks. Append new behaviours at the end (the bosses may add a
/// worm of segments and a wall).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Behaviour {
    /// Waits on the ground `every` seconds, then hops toward the player (`high`: holds
    /// jump, a hop about twice as high).
    Hopper { every: f32, high: bool },
    /// Flies toward the player at up to `speed` tiles/s, bouncing off tiles, or through
    /// them (`through_walls`, as the dungeon's guardian).
    Flyer { speed: f32, through_walls: bool },
    /// Walks toward the player at `speed` tiles/s and jumps what stops it (a one-tile
    /// step at least).
    Walker { speed: f32 },
    /// Stands, every `every` seconds teleports to a floor within `range` tiles of the
    /// player (0: stays put) and throws a bolt of `bolt_damage` at it, `bolt_speed` tiles/s (through
    /// tiles when `through_walls`).
    Caster {
        every: f32,
        range: f32,
        bolt_speed: f32,
        bolt_damage: f32,
        through_walls: bool,
    },
}

/// Where, by what covers the ground round a spot (see [`crate::sim::creatures`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Biome {
    /// None of the others: grass, dirt and stone.
    Forest,
    Snow,
    Desert,
    Jungle,
    /// The corruption: corrupt grass, ebonstone.
    Evil,
    /// Dungeon brick.
    Dungeon,
    /// Cloud: the floating islands.
    Island,
}

/// When.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
pub enum Time {
    #[default]
    Any,
    Day,
    Night,
}

/// One way a kind spawns.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnRule {
    /// Biomes it spawns in (empty: any).
    #[serde(default)]
    pub biomes: Vec<Biome>,
    /// Depth layers (empty: any).
    #[serde(default)]
    pub layers: Vec<Layer>,
    #[serde(default)]
    pub time: Time,
    /// Only on the open surface (above each column's first ground row), as slimes.
    #[serde(default)]
    pub open_sky: bool,
    /// Only away from the town (the spawn point and its houses).
    #[serde(default)]
    pub away_from_town: bool,
    /// Only while the world's progress lacks this boss (a [`crate::world::progress`]
    /// name, as "skeletron").
    #[serde(default)]
    pub before: Option<String>,
    /// Takes one night spawn in the rules' `demon_eye_one_in` where it fits, before the
    /// weighted draw (the demon eye's way).
    #[serde(default)]
    pub night_share: bool,
    /// Spawns in the air this many tiles over the floor it was found on (flyers).
    #[serde(default)]
    pub up: u32,
    /// Only where the light at the spot (the world's: sun, torches, lava; not the
    /// players' own) is at most this, 0..=15 (left out: any light).
    #[serde(default)]
    pub max_light: Option<u8>,
    /// Chance among the kinds that fit a spot (1..=1000).
    pub weight: u32,
}

/// One drop.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropRow {
    pub item: String,
    /// Fewest and most (each count as likely).
    pub count: (u32, u32),
    /// Chance it drops at all (0..=1).
    #[serde(default = "one")]
    pub chance: f32,
}

fn one() -> f32 {
    1.0
}

/// One kind, as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Def {
    pub name: String,
    pub label: String,
    pub health: f32,
    /// Health taken from the player on touch.
    pub damage: f32,
    /// Taken off each hit it takes (half of it, as Terraria's).
    #[serde(default)]
    pub defence: u32,
    /// Share of a hit's knockback it ignores (0..=1).
    #[serde(default)]
    pub knockback_resist: f32,
    pub color: (u8, u8, u8),
    /// Drawn size in tiles (width, height).
    pub size: (f32, f32),
    pub behaviour: Behaviour,
    #[serde(default)]
    pub drops: Vec<DropRow>,
    #[serde(default)]
    pub spawn: Vec<SpawnRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreaturesFile {
    pub creatures: Vec<Def>,
    /// The bosses' numbers and loot (every field defaults to the shipped number).
    #[serde(default)]
    pub bosses: Bosses,
}

/// Every kind of a content, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Bestiary {
    pub kinds: Vec<Def>,
    /// The bosses' numbers and loot ([`crate::content::bosses`]).
    pub bosses: Bosses,
}

impl Bestiary {
    /// The built-in file, checked against `cat`.
    pub fn builtin(cat: &Catalog) -> Result<Bestiary, PresetError> {
        Bestiary::parse(CREATURES_RON, "config/creatures.ron", cat)
    }

    pub fn parse(text: &str, source: &str, cat: &Catalog) -> Result<Bestiary, PresetError> {
        let file: CreaturesFile = parse_ron(text, source)?;
        let mut b = Bestiary::check(&file.creatures, Some(cat))
            .map_err(|b| placed(text, source, b, &[]))?;
        b.bosses = checked_bosses(file.bosses, cat, text, source)?;
        Ok(b)
    }

    /// Checks every kind (and, with a catalog, that each drop is an item of it); the
    /// bosses' numbers are the shipped ones.
    pub(crate) fn check(rows: &[Def], cat: Option<&Catalog>) -> Result<Bestiary, Bad> {
        if rows.is_empty() || rows.len() > MAX_KINDS {
            let m = format!(
                "creatures lists {} kinds: allowed 1..={MAX_KINDS}",
                rows.len()
            );
            return Err(bad("creatures", m));
        }
        for (i, d) in rows.iter().enumerate() {
            check_def(i, d, cat)?;
            if let Some(j) = rows[..i].iter().position(|o| o.name == d.name) {
                let f = format!("creatures[{i}].name");
                let m = format!("{f} = {:?}: already the name of creatures[{j}]", d.name);
                return Err(bad(f, m));
            }
        }
        Ok(Bestiary {
            kinds: rows.to_vec(),
            bosses: Bosses::default(),
        })
    }

    /// The kind named `name`, if any.
    pub fn find(&self, name: &str) -> Option<&Def> {
        self.kinds.iter().find(|d| d.name == name)
    }
}

/// `bosses` of the file `text` (named `source`) checked against `cat`: a bad field is
/// placed at its line:col.
pub(crate) fn checked_bosses(
    bosses: Bosses,
    cat: &Catalog,
    text: &str,
    source: &str,
) -> Result<Bosses, PresetError> {
    bosses.check(Some(cat)).map_err(|b| {
        // A loot row is placed at its boss's list when its own place is not found.
        let list = b.field.split('[').next().unwrap_or("bosses").to_string();
        placed(text, source, b, &[list, "bosses".into()])
    })?;
    Ok(bosses)
}

fn check_def(i: usize, d: &Def, cat: Option<&Catalog>) -> Result<(), Bad> {
    let at = |f: &str| format!("creatures[{i}].{f}");
    let name_ok = !d.name.is_empty()
        && d.name.len() <= 40
        && d.name.bytes().all(|b| b.is_ascii_lowercase() || b == b' ');
    if !name_ok {
        let m = format!(
            "{} = {:?}: allowed 1..=40 lower-case letters and spaces",
            at("name"),
            d.name
        );
        return Err(bad(at("name"), m));
    }
    if d.label.is_empty() || d.label.len() > 60 {
        let m = format!("{} = {:?}: allowed 1..=60 characters", at("label"), d.label);
        return Err(bad(at("label"), m));
    }
    range_f(at("health"), d.health, 1.0, 100_000.0)?;
    range_f(at("damage"), d.damage, 0.0, 1000.0)?;
    range_u(at("defence"), d.defence, 0, 200)?;
    range_f(at("knockback_resist"), d.knockback_resist, 0.0, 1.0)?;
    range_f(at("size.0"), d.size.0, 0.25, 8.0)?;
    range_f(at("size.1"), d.size.1, 0.25, 8.0)?;
    let b = |f: &str| at(&format!("behaviour.{f}"));
    match d.behaviour {
        Behaviour::Hopper { every, .. } => {
            range_f(b("every"), every, 0.1, 30.0)?;
        }
        Behaviour::Flyer { speed, .. } => {
            range_f(b("speed"), speed, 0.5, 40.0)?;
        }
        Behaviour::Walker { speed } => {
            range_f(b("speed"), speed, 0.5, 20.0)?;
        }
        Behaviour::Caster {
            every,
            range,
            bolt_speed,
            bolt_damage,
            ..
        } => {
            range_f(b("every"), every, 0.5, 30.0)?;
            range_f(b("range"), range, 0.0, 40.0)?;
            range_f(b("bolt_speed"), bolt_speed, 0.5, 40.0)?;
            range_f(b("bolt_damage"), bolt_damage, 0.0, 1000.0)?;
        }
    }
    if d.drops.len() > MAX_ROWS || d.spawn.len() > MAX_ROWS {
        let m = format!(
            "{}: allowed at most {MAX_ROWS} drops and spawn rules",
            at("drops")
        );
        return Err(bad(at("drops"), m));
    }
    for (j, r) in d.drops.iter().enumerate() {
        let f = |x: &str| at(&format!("drops[{j}].{x}"));
        if let Some(cat) = cat
            && cat.id(&r.item).is_none()
        {
            let m = format!("{} = {:?}: no such item in the catalog", f("item"), r.item);
            return Err(bad(f("item"), m));
        }
        let lo = range_u(f("count.0"), r.count.0, 1, 999)?;
        range_u(f("count.1"), r.count.1, lo, 999)?;
        range_f(f("chance"), r.chance, 0.0, 1.0)?;
    }
    for (j, s) in d.spawn.iter().enumerate() {
        let f = |x: &str| at(&format!("spawn[{j}].{x}"));
        range_u(f("weight"), s.weight, 1, 1000)?;
        range_u(f("up"), s.up, 0, 20)?;
        if let Some(l) = s.max_light {
            range_u(f("max_light"), u32::from(l), 0, 15)?;
        }
        if let Some(b) = &s.before
            && !BOSSES.contains(&b.as_str())
        {
            let m = format!("{} = {b:?}: allowed {}", f("before"), BOSSES.join(", "));
            return Err(bad(f("before"), m));
        }
    }
    Ok(())
}

/// A kind of creature: an index into its content's [`Bestiary`] (cheap to copy and
/// compare; the built-in five keep their places, whatever mods add or replace, and their
/// names as constants). Its numbers are the bestiary's: [`Bestiary::def`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub u16);

#[allow(non_upper_case_globals)]
impl Kind {
    /// The surface, by day and (more) by night.
    pub const Slime: Kind = Kind(0);
    /// The cavern layer.
    pub const CaveSlime: Kind = Kind(1);
    /// The underworld: tougher, harder-hitting, hops higher.
    pub const LavaSlime: Kind = Kind(2);
    /// The surface at night: flies at the player, bouncing off what it meets; drops lenses.
    pub const DemonEye: Kind = Kind(3);
    /// A small eye the Eye sends at the player (no drops).
    pub const Servant: Kind = Kind(4);
}

impl Bestiary {
    /// Every kind, in order.
    pub fn all(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..self.kinds.len() as u16).map(Kind)
    }

    /// The kind named `name`, if this bestiary has it.
    pub fn kind(&self, name: &str) -> Option<Kind> {
        self.kinds
            .iter()
            .position(|d| d.name == name)
            .map(|i| Kind(i as u16))
    }

    /// The numbers of kind `k` (an index this bestiary lacks reads as its first kind).
    pub fn def(&self, k: Kind) -> &Def {
        self.kinds.get(usize::from(k.0)).unwrap_or(&self.kinds[0])
    }

    /// Does kind `k` fly?
    pub fn flies(&self, k: Kind) -> bool {
        matches!(self.def(k).behaviour, Behaviour::Flyer { .. })
    }

    pub fn stats(&self, k: Kind) -> Stats<'_> {
        let d = self.def(k);
        let (hop_every, high_hops) = match d.behaviour {
            Behaviour::Hopper { every, high } => (every, high),
            Behaviour::Caster { every, .. } => (every, false),
            _ => (1.0, false),
        };
        let fly_speed = match d.behaviour {
            Behaviour::Flyer { speed, .. } => speed,
            _ => 0.0,
        };
        let (drop, drops) = d
            .drops
            .first()
            .map_or(("", 0), |r| (r.item.as_str(), r.count.0));
        Stats {
            name: &d.name,
            health: d.health,
            damage: d.damage,
            hop_every,
            high_hops,
            fly_speed,
            drop,
            drops,
            color: [d.color.0, d.color.1, d.color.2],
        }
    }
}

/// Numbers of a kind, in short (its [`Def`] holds them all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats<'a> {
    pub name: &'a str,
    pub health: f32,
    /// Health taken from the player on touch.
    pub damage: f32,
    /// Seconds between hops.
    pub hop_every: f32,
    /// Holds jump through its hops (a hop about twice as high).
    pub high_hops: bool,
    /// Flies (no gravity) toward the player at up to this many tiles a second; 0 for
    /// kinds that do not fly.
    pub fly_speed: f32,
    /// First item dropped when killed, and the fewest of it (one more as likely).
    pub drop: &'a str,
    pub drops: u32,
    pub color: [u8; 3],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_file_parses_and_every_drop_is_an_item() {
        let cat = Catalog::builtin().unwrap();
        let b = Bestiary::builtin(&cat).unwrap();
        assert!(b.kinds.len() >= 20, "{} kinds", b.kinds.len());
        for d in &b.kinds {
            for r in &d.drops {
                assert!(cat.id(&r.item).is_some(), "{} drops {}", d.name, r.item);
            }
        }
        // The five kinds the game names keep their places and numbers.
        let names = [
            "slime",
            "cave slime",
            "lava slime",
            "demon eye",
            "servant of the eye",
        ];
        for (i, n) in names.iter().enumerate() {
            assert_eq!(b.def(Kind(i as u16)).name, *n);
            assert_eq!(b.kind(n), Some(Kind(i as u16)));
        }
        assert_eq!(b.stats(Kind::Slime).health, 14.0);
        assert_eq!(b.stats(Kind::DemonEye).fly_speed, 7.0);
        assert_eq!(b.stats(Kind::LavaSlime).drop, "gel");
        assert_eq!(
            b.def(Kind(9999)).name,
            "slime",
            "an unknown index reads as the first"
        );
    }

    #[test]
    fn a_bad_file_names_its_place_and_field() {
        let cat = Catalog::builtin().unwrap();
        let good = CREATURES_RON;
        let bad_health = good.replacen("health: 14.0", "health: -3.0", 1);
        let e = Bestiary::parse(&bad_health, "creatures.ron", &cat).unwrap_err();
        let s = e.to_string();
        assert!(s.contains("creatures[0].health"), "{s}");
        assert!(s.contains("creatures.ron:"), "{s}");
        let line = good
            .lines()
            .position(|l| l.contains("health: 14.0"))
            .unwrap()
            + 1;
        assert_eq!(e.position.map(|p| p.0), Some(line), "{s}");
        let no_item = good.replacen("item: \"gel\"", "item: \"jelly\"", 1);
        let s = Bestiary::parse(&no_item, "creatures.ron", &cat)
            .unwrap_err()
            .to_string();
        assert!(s.contains("drops[0].item") && s.contains("jelly"), "{s}");
        let dazzled = good.replacen("max_light: 9", "max_light: 16", 1);
        let e = Bestiary::parse(&dazzled, "creatures.ron", &cat).unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("spawn[0].max_light") && s.contains("0..=15"),
            "{s}"
        );
        let line = dazzled
            .lines()
            .position(|l| l.contains("max_light: 16"))
            .unwrap()
            + 1;
        assert_eq!(e.position.map(|p| p.0), Some(line), "{s}");
        let typo = good.replacen("damage:", "damgae:", 1);
        let e = Bestiary::parse(&typo, "creatures.ron", &cat).unwrap_err();
        assert!(e.position.is_some(), "{e}");
    }
}
