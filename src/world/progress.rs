//! What a world remembers of its story beyond its tiles: the bosses defeated, the shadow
//! orbs broken and the nights gone by (the Eye's nightly chance is seeded by the night's
//! number). Kept in saves (`BOSS`, format 7 on, [`crate::store::save`]: 12 bytes for the
//! Eye and the nights, 28 with the later bosses); a world from an older save starts with
//! none.

/// A world's story so far (a server's snapshots carry it to the joined players, field by
/// field: a new field is a new protocol version).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Times the Eye was defeated (0: never).
    pub eye_defeated: u32,
    /// Nights begun in play.
    pub nights: u64,
    /// Shadow orbs broken (every third calls the Eater of Worlds).
    pub orbs_broken: u32,
    /// Times the Eater of Worlds fell.
    pub eater_defeated: u32,
    /// Times Skeletron fell (once: the dungeon is opened).
    pub skeletron_defeated: u32,
    /// Times the Wall of Flesh fell (once: the world is past the Wall).
    pub wall_defeated: u32,
}

impl Progress {
    /// Has the Eye ever been defeated here?
    pub fn eye_down(&self) -> bool {
        self.eye_defeated > 0
    }

    /// Has Skeletron fallen, opening the dungeon (its guardian stays away)?
    pub fn skeletron(&self) -> bool {
        self.skeletron_defeated > 0
    }

    /// Has the Wall of Flesh fallen here (Terraria's hardmode begins)?
    pub fn past_the_wall(&self) -> bool {
        self.wall_defeated > 0
    }

    /// Do the later bosses' counts all stand at zero (a save's `BOSS` section then keeps
    /// the old 12 bytes)?
    pub fn later_untouched(&self) -> bool {
        self.orbs_broken == 0
            && self.eater_defeated == 0
            && self.skeletron_defeated == 0
            && self.wall_defeated == 0
    }

    /// The world list's line for it: the bosses fallen, "past the Wall" first.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if self.past_the_wall() {
            parts.push("past the Wall");
        }
        for (n, name) in [
            (self.eye_defeated, "the Eye"),
            (self.eater_defeated, "the Eater"),
            (self.skeletron_defeated, "Skeletron"),
        ] {
            if n > 0 {
                parts.push(name);
            }
        }
        parts.join(", ")
    }
}

use crate::content::town::BOSSES;

impl Progress {
    /// Has the boss called `name` (one of [`crate::content::town::BOSSES`], as a town
    /// file's `Defeated(name)` names it) ever been defeated here? `None` for a name this
    /// build has no flag for.
    pub fn defeated(&self, name: &str) -> Option<bool> {
        let i = BOSSES.iter().position(|b| *b == name)?;
        self.defeats().get(i).map(|&n| n > 0)
    }

    /// Times each boss fell, in the order of [`BOSSES`] (its flags' names, written once
    /// there: the Eye, the Eater, Skeletron, the Wall).
    fn defeats(&self) -> [u32; 4] {
        [
            self.eye_defeated,
            self.eater_defeated,
            self.skeletron_defeated,
            self.wall_defeated,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_boss_a_town_file_may_name_has_a_flag_and_others_none() {
        let mut p = Progress::default();
        for b in crate::content::town::BOSSES {
            assert_eq!(p.defeated(b), Some(false), "{b}");
        }
        p.eye_defeated = 1;
        assert_eq!(p.defeated("eye"), Some(true));
        p.skeletron_defeated = 2;
        assert_eq!(p.defeated("skeletron"), Some(true));
        assert!(p.skeletron());
        assert_eq!(p.defeated("eater"), Some(false));
        assert_eq!(p.defeated("the_moon_lord"), None);
    }
}
