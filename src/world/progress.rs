//! What a world remembers of its story beyond its tiles: the bosses defeated and the
//! nights gone by (the Eye's nightly chance is seeded by the night's number). Kept in
//! saves (`BOSS`, format 7 on, [`crate::store::save`]); a world from an older save starts
//! with none.

/// A world's story so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Times the Eye was defeated (0: never).
    pub eye_defeated: u32,
    /// Nights begun in play.
    pub nights: u64,
}

impl Progress {
    /// Has the Eye ever been defeated here?
    pub fn eye_down(&self) -> bool {
        self.eye_defeated > 0
    }
}

impl Progress {
    /// Has the boss called `name` (one of [`crate::content::town::BOSSES`], as a town
    /// file's `Defeated(name)` names it) ever been defeated here? `None` for a name this
    /// build has no flag for.
    pub fn defeated(&self, name: &str) -> Option<bool> {
        match name {
            "eye" => Some(self.eye_down()),
            _ => None,
        }
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
        assert_eq!(p.defeated("the_moon_lord"), None);
    }
}
