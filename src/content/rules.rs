//! Game rules as data: the length of the day, health and danger, creatures
//! (`config/rules.ron`, compiled into the binary and checked like the items). [`rules`]
//! is the checked data; every field has a serde default, so a file may leave any out.

use crate::content::preset::{PresetError, RangeError, locate_field};
use serde::Deserialize;
use std::sync::OnceLock;

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
    pub breath_refill: f32,
    pub invincible_seconds: f32,
    pub respawn_invincible: f32,
    pub knockback: f32,
    pub knockback_up: f32,
    pub day_cap: u32,
    pub home_radius: f32,
    pub home_day_cap: u32,
    pub heart_chance: f32,
    pub heart_heal: f32,
    pub heart_reach: f32,
    pub respawn_seconds: f32,
    pub death_drops: Vec<String>,
    pub death_drop_share: f32,
    pub item_pull: f32,
    pub item_owner_pull: f32,
    pub item_speed: f32,
    pub throw_delay: f32,
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
            breath_refill: 1.1,
            invincible_seconds: 0.67,
            respawn_invincible: 3.0,
            knockback: 8.0,
            knockback_up: 8.0,
            day_cap: 4,
            home_radius: 45.0,
            home_day_cap: 1,
            heart_chance: 0.25,
            heart_heal: 20.0,
            heart_reach: 4.0,
            respawn_seconds: 3.0,
            death_drops: ["copper_coin", "silver_coin", "gold_coin", "platinum_coin"]
                .map(String::from)
                .to_vec(),
            death_drop_share: 0.5,
            item_pull: 3.0,
            item_owner_pull: 8.0,
            item_speed: 16.0,
            throw_delay: 1.0,
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
        range("breath_refill", self.breath_refill, 0.05, 600.0)?;
        range("invincible_seconds", self.invincible_seconds, 0.0, 10.0)?;
        range("respawn_invincible", self.respawn_invincible, 0.0, 60.0)?;
        range("knockback", self.knockback, 0.0, 100.0)?;
        range("knockback_up", self.knockback_up, 0.0, 100.0)?;
        range("day_cap", self.day_cap as f32, 0.0, 64.0)?;
        range("home_radius", self.home_radius, 0.0, 1000.0)?;
        range("home_day_cap", self.home_day_cap as f32, 0.0, 64.0)?;
        range("heart_chance", self.heart_chance, 0.0, 1.0)?;
        range("heart_heal", self.heart_heal, 0.0, 1000.0)?;
        range("heart_reach", self.heart_reach, 0.0, 50.0)?;
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
        range("throw_delay", self.throw_delay, 0.0, 60.0)
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

/// The rules: the file `STRATA_RULES` names if set (a refused file is reported and the
/// built-in rules used), else those compiled into the binary (`cargo test` checks them).
pub fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let builtin =
            || Rules::parse(RULES_RON, "config/rules.ron").unwrap_or_else(|e| panic!("{e}"));
        match std::env::var_os("STRATA_RULES") {
            None => builtin(),
            Some(path) => load(std::path::Path::new(&path)).unwrap_or_else(|e| {
                eprintln!("strata: {e}; playing by the built-in rules");
                builtin()
            }),
        }
    })
}

/// Reads and checks a rules file.
pub fn load(path: &std::path::Path) -> Result<Rules, String> {
    let bytes = crate::base::fsio::read_bounded(path, crate::content::preset::MAX_FILE_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Rules::parse(&text, &path.display().to_string()).map_err(|e| e.to_string())
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
        assert!(
            e.contains("night.ron:1:2") && e.contains("start_time"),
            "{e}"
        );
        assert!(
            load(&dir.join("missing.ron"))
                .unwrap_err()
                .contains("missing.ron")
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let e = Rules::parse("(dya_minutes: 3.0)", "r").unwrap_err();
        assert!(
            e.position.is_some() && e.message.contains("dya_minutes"),
            "{e}"
        );
    }
}
