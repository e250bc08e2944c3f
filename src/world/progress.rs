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

    /// Has boss `name` (one of [`crate::content::bestiary::BOSSES`]) ever been defeated here?
    pub fn down(&self, name: &str) -> bool {
        match name {
            "eye" => self.eye_down(),
            // Skeletron is not in the world yet: until its flag is kept here, the dungeon's
            // guardian hunts every player who enters the dungeon.
            _ => false,
        }
    }
}
