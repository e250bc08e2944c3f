//! Game rules as data: the length of the day, health and danger, creatures
//! (`config/rules.ron`, compiled into the binary and checked like the items). [`Rules`]
//! is the checked data; every field has a serde default, so a file may leave any out. A
//! session plays by the rules of its [`Content`](crate::content::config::Content)
//! (`session.content.rules`).

use crate::content::preset::{PresetError, RangeError, locate_field};
use serde::Deserialize;

/// `config/rules.ron`, as compiled in.
pub const RULES_RON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/rules.ron"));

/// The rules; see `config/rules.ron` for what each means.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    pub day_minutes: f32,
    pub start_time: f32,
    pub daylight: f32,
    pub moonlight: u8,
    pub safe_fall: f32,
    pub fall_damage: f32,
    pub breath_seconds: f32,
    pub drown_damage: f32,
    pub lava_damage: f32,
    pub regen: f32,
    pub regen_after: f32,
    pub creature_cap: u32,
    pub spawn_every_day: f32,
    pub spawn_every_night: f32,
    pub demon_eye_one_in: u32,
    pub breath_refill: f32,
    pub invincible_seconds: f32,
    pub respawn_invincible: f32,
    pub knockback: f32,
    pub knockback_up: f32,
    pub touch_cooldown: f32,
    pub respawn_calm: f32,
    pub respawn_calm_radius: f32,
    pub day_cap: u32,
    pub home_radius: f32,
    pub home_day_cap: u32,
    pub heart_chance: f32,
    pub heart_heal: f32,
    pub heart_reach: f32,
    pub life_crystal_health: f32,
    pub most_health: f32,
    pub eye_health: f32,
    pub eye_damage: f32,
    pub eye_damage_two: f32,
    pub eater_health: f32,
    pub eye_hover: f32,
    pub eye_charges: u32,
    pub eye_charges_two: u32,
    pub eye_charge_speed: f32,
    pub eye_charge_speed_two: f32,
    pub eye_windup: f32,
    pub eye_servants: u32,
    pub boss_creature_cap: u32,
    pub eye_health_needed: f32,
    pub eye_defence_needed: u32,
    pub eye_one_in: u32,
    /// Items (name, count) a new player carries besides the usual tools.
    pub start_items: Vec<(String, u32)>,
    pub respawn_seconds: f32,
    pub death_drops: Vec<String>,
    pub death_drop_share: f32,
    pub item_pull: f32,
    pub item_owner_pull: f32,
    pub item_speed: f32,
    pub throw_delay: f32,
    pub on_fire_damage: f32,
    pub on_fire_seconds: f32,
    pub on_fire_chance: f32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            day_minutes: 24.0,
            start_time: 0.3,
            daylight: 0.625,
            moonlight: 4,
            safe_fall: 25.0,
            fall_damage: 10.0,
            breath_seconds: 23.3,
            drown_damage: 17.0,
            lava_damage: 60.0,
            regen: 2.0,
            regen_after: 5.0,
            creature_cap: 7,
            spawn_every_day: 8.0,
            spawn_every_night: 3.0,
            demon_eye_one_in: 3,
            breath_refill: 1.1,
            invincible_seconds: 0.67,
            respawn_invincible: 3.0,
            knockback: 8.0,
            knockback_up: 8.0,
            touch_cooldown: 1.5,
            respawn_calm: 180.0,
            respawn_calm_radius: 60.0,
            day_cap: 4,
            home_radius: 45.0,
            home_day_cap: 1,
            heart_chance: 0.25,
            heart_heal: 20.0,
            heart_reach: 4.0,
            life_crystal_health: 20.0,
            most_health: 400.0,
            eye_health: 900.0,
            eye_damage: 15.0,
            eye_damage_two: 23.0,
            eater_health: 2880.0,
            eye_hover: 2.5,
            eye_charges: 3,
            eye_charges_two: 3,
            eye_charge_speed: 20.0,
            eye_charge_speed_two: 22.0,
            eye_windup: 0.7,
            eye_servants: 4,
            boss_creature_cap: 2,
            eye_health_needed: 200.0,
            eye_defence_needed: 10,
            eye_one_in: 3,
            start_items: Vec::new(),
            respawn_seconds: 3.0,
            death_drops: ["copper_coin", "silver_coin", "gold_coin", "platinum_coin"]
                .map(String::from)
                .to_vec(),
            death_drop_share: 0.5,
            item_pull: 3.0,
            item_owner_pull: 8.0,
            item_speed: 16.0,
            throw_delay: 1.0,
            on_fire_damage: 4.0,
            on_fire_seconds: 3.0,
            on_fire_chance: 0.333,
        }
    }
}

fn range(field: &str, v: f32, lo: f32, hi: f32) -> Result<(), RangeError> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        return Ok(());
    }
    Err(RangeError {
        field: field.into(),
        value: v.to_string(),
        allowed: format!("[{lo}, {hi}]"),
    })
}

impl Rules {
    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), RangeError> {
        range("day_minutes", self.day_minutes, 0.5, 240.0)?;
        range("start_time", self.start_time, 0.0, 0.999)?;
        range("daylight", self.daylight, 0.05, 0.95)?;
        range("moonlight", self.moonlight as f32, 0.0, 15.0)?;
        range("safe_fall", self.safe_fall, 1.0, 1000.0)?;
        range("fall_damage", self.fall_damage, 0.0, 1000.0)?;
        range("breath_seconds", self.breath_seconds, 0.5, 600.0)?;
        range("drown_damage", self.drown_damage, 0.0, 1000.0)?;
        range("lava_damage", self.lava_damage, 0.0, 1000.0)?;
        range("regen", self.regen, 0.0, 100.0)?;
        range("regen_after", self.regen_after, 0.0, 600.0)?;
        range("creature_cap", self.creature_cap as f32, 0.0, 64.0)?;
        range("spawn_every_day", self.spawn_every_day, 0.1, 3600.0)?;
        range("spawn_every_night", self.spawn_every_night, 0.1, 3600.0)?;
        range(
            "demon_eye_one_in",
            self.demon_eye_one_in as f32,
            1.0,
            1000.0,
        )?;
        range("breath_refill", self.breath_refill, 0.05, 600.0)?;
        range("invincible_seconds", self.invincible_seconds, 0.0, 10.0)?;
        range("respawn_invincible", self.respawn_invincible, 0.0, 60.0)?;
        range("knockback", self.knockback, 0.0, 100.0)?;
        range("knockback_up", self.knockback_up, 0.0, 100.0)?;
        range("touch_cooldown", self.touch_cooldown, 0.0, 60.0)?;
        range("respawn_calm", self.respawn_calm, 0.0, 3600.0)?;
        range("respawn_calm_radius", self.respawn_calm_radius, 0.0, 1000.0)?;
        range("day_cap", self.day_cap as f32, 0.0, 64.0)?;
        range("home_radius", self.home_radius, 0.0, 1000.0)?;
        range("home_day_cap", self.home_day_cap as f32, 0.0, 64.0)?;
        range("heart_chance", self.heart_chance, 0.0, 1.0)?;
        range("heart_heal", self.heart_heal, 0.0, 1000.0)?;
        range("heart_reach", self.heart_reach, 0.0, 50.0)?;
        range("life_crystal_health", self.life_crystal_health, 0.0, 1000.0)?;
        // A new player's 100 to the most a save may hold (`sim::vitals`).
        range("most_health", self.most_health, 100.0, 1000.0)?;
        range("eye_health", self.eye_health, 1.0, 1e6)?;
        range("eye_damage", self.eye_damage, 0.0, 1000.0)?;
        range("eye_damage_two", self.eye_damage_two, 0.0, 1000.0)?;
        range("eater_health", self.eater_health, 1.0, 1e6)?;
        range("eye_hover", self.eye_hover, 0.1, 60.0)?;
        range("eye_charges", self.eye_charges as f32, 1.0, 20.0)?;
        range("eye_charges_two", self.eye_charges_two as f32, 1.0, 20.0)?;
        range("eye_charge_speed", self.eye_charge_speed, 1.0, 100.0)?;
        range(
            "eye_charge_speed_two",
            self.eye_charge_speed_two,
            1.0,
            100.0,
        )?;
        range("eye_windup", self.eye_windup, 0.0, 5.0)?;
        range("eye_servants", self.eye_servants as f32, 0.0, 32.0)?;
        range(
            "boss_creature_cap",
            self.boss_creature_cap as f32,
            0.0,
            64.0,
        )?;
        range("eye_health_needed", self.eye_health_needed, 0.0, 10_000.0)?;
        range(
            "eye_defence_needed",
            self.eye_defence_needed as f32,
            0.0,
            1000.0,
        )?;
        range("eye_one_in", self.eye_one_in as f32, 1.0, 1000.0)?;
        // Whether each names an item is checked against the catalog the rules are played
        // with ([`Rules::check_items`]).
        for (i, (_, count)) in self.start_items.iter().enumerate() {
            range(&format!("start_items[{i}]"), *count as f32, 1.0, 9999.0)?;
        }
        range("respawn_seconds", self.respawn_seconds, 0.0, 60.0)?;
        if self.death_drops.len() > 64 {
            return Err(RangeError {
                field: "death_drops".into(),
                value: format!("{} names", self.death_drops.len()),
                allowed: "at most 64".into(),
            });
        }
        range("death_drop_share", self.death_drop_share, 0.0, 1.0)?;
        range("item_pull", self.item_pull, 0.0, 50.0)?;
        range("item_owner_pull", self.item_owner_pull, 0.0, 50.0)?;
        range("item_speed", self.item_speed, 0.1, 200.0)?;
        range("throw_delay", self.throw_delay, 0.0, 60.0)?;
        range("on_fire_damage", self.on_fire_damage, 0.0, 1000.0)?;
        range("on_fire_seconds", self.on_fire_seconds, 0.0, 600.0)?;
        range("on_fire_chance", self.on_fire_chance, 0.0, 1.0)
    }

    /// Does every start item name an item of `cat`?
    pub fn check_items(&self, cat: &crate::content::items::Catalog) -> Result<(), RangeError> {
        for (i, (name, _)) in self.start_items.iter().enumerate() {
            if cat.id(name).is_none() {
                return Err(RangeError {
                    field: format!("start_items[{i}]"),
                    value: format!("{name:?}"),
                    allowed: "an item of config/items.ron or a mod".into(),
                });
            }
        }
        Ok(())
    }

    /// Parses and checks rules text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<Rules, PresetError> {
        let rules: Rules = crate::content::items::parse_ron(text, source)?;
        rules.validate().map_err(|e| PresetError {
            source: source.to_string(),
            position: locate_field(text, &e.field),
            message: e.to_string(),
        })?;
        Ok(rules)
    }

    /// Seconds of one whole day.
    pub fn day_seconds(&self) -> f32 {
        self.day_minutes * 60.0
    }
}

/// Why a rules file was refused.
#[derive(Debug)]
pub enum RulesError {
    /// The file could not be read.
    Read {
        path: std::path::PathBuf,
        source: crate::base::fsio::ReadError,
    },
    /// The file is not UTF-8 text.
    NotText {
        path: std::path::PathBuf,
        source: std::string::FromUtf8Error,
    },
    /// The text is not rules, or a rule is out of range (its file, line:column, field).
    Refused(PresetError),
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::Read { path, source } => write!(f, "{}: {source}", path.display()),
            RulesError::NotText { path, source } => write!(f, "{}: {source}", path.display()),
            RulesError::Refused(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RulesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RulesError::Read { source, .. } => Some(source),
            RulesError::NotText { source, .. } => Some(source),
            RulesError::Refused(e) => Some(e),
        }
    }
}

/// Reads and checks a rules file.
pub fn load(path: &std::path::Path) -> Result<Rules, RulesError> {
    let bytes = crate::base::fsio::read_bounded(path, crate::content::preset::MAX_FILE_BYTES)
        .map_err(|source| RulesError::Read {
            path: path.into(),
            source,
        })?;
    let text = String::from_utf8(bytes).map_err(|source| RulesError::NotText {
        path: path.into(),
        source,
    })?;
    Rules::parse(&text, &path.display().to_string()).map_err(RulesError::Refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_rules_parse_and_match_the_defaults() {
        assert_eq!(
            Rules::parse(RULES_RON, "rules.ron").unwrap(),
            Rules::default()
        );
        assert_eq!(Rules::parse("()", "empty").unwrap(), Rules::default());
    }

    #[test]
    fn out_of_range_rules_are_refused_at_their_line() {
        let text = RULES_RON.replace("day_minutes: 24.0", "day_minutes: 0.1");
        let e = Rules::parse(&text, "rules.ron").unwrap_err();
        let line = text
            .lines()
            .position(|l| l.contains("day_minutes: 0.1"))
            .unwrap()
            + 1;
        assert_eq!(e.position.map(|p| p.0), Some(line));
        assert!(e.to_string().contains("day_minutes = 0.1"), "{e}");
        let dir = std::env::temp_dir().join(format!("strata-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("night.ron");
        std::fs::write(&path, "(start_time: 0.9)").unwrap();
        assert_eq!(load(&path).unwrap().start_time, 0.9);
        std::fs::write(&path, "(start_time: 1.5)").unwrap();
        let e = load(&path).unwrap_err();
        assert!(matches!(&e, RulesError::Refused(p) if p.position == Some((1, 2))));
        let e = e.to_string();
        assert!(
            e.contains("night.ron:1:2") && e.contains("start_time"),
            "{e}"
        );
        let e = load(&dir.join("missing.ron")).unwrap_err();
        assert!(matches!(e, RulesError::Read { .. }), "{e:?}");
        assert!(e.to_string().contains("missing.ron"));
        std::fs::write(&path, b"(start_time: 0.5) \xff").unwrap();
        let e = load(&path).unwrap_err();
        assert!(matches!(e, RulesError::NotText { .. }), "{e:?}");
        assert!(e.to_string().contains("night.ron"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
        let e = Rules::parse("(dya_minutes: 3.0)", "r").unwrap_err();
        assert!(
            e.position.is_some() && e.message.contains("dya_minutes"),
            "{e}"
        );
    }
}
