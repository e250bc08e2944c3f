//! The character being played ([`crate::store::character`]): it walks into every world put
//! on screen (a new one from R or the seed box, a save, the preset menu's), carrying what
//! it carried in the world before, and its file is written with every save of the world
//! it is in, on each world it leaves, and on quitting. A server's world is the server's:
//! its character there is the one the server keeps.

use super::App;
use crate::game::worlds::state::Loaded;
use crate::net::chars;
use crate::net::protocol::character_of;
use crate::sim::session::{LOCAL, Seat};
use crate::store::character::{self, Sheet};

/// Seconds between writes of the character's file while it plays (besides the saves, the
/// worlds it leaves and quitting): a crash loses at most this much of what it carries.
pub const KEEP_EVERY: f64 = 10.0;

/// The character being played and the world it is in.
#[derive(Default)]
pub struct Playing {
    pub sheet: Option<Sheet>,
    /// The world on screen it walked into ([`Loaded::serial`]); `None` while it is in none.
    pub world: Option<u64>,
    /// When its time in that world was last counted.
    pub since: f64,
}

impl App {
    /// Plays as `sheet` from the next world on.
    pub fn play_as(&mut self, sheet: Sheet, now: f64) {
        log::info!("playing as {}", sheet.name);
        self.character = Playing {
            sheet: Some(sheet),
            world: None,
            since: now,
        };
    }

    /// The character walks into `l`, the world about to be shown: what it carries in the
    /// world it leaves is kept first (and written to its file), then it takes the local
    /// player's seat of `l` ([`chars::enter`]). A world from a server is left alone.
    pub(super) fn carry_character(&mut self, l: &mut Loaded, now: f64) {
        self.keep_character(now);
        if self.play.remote.is_some() {
            self.character.world = None;
            return;
        }
        let Some(sheet) = &mut self.character.sheet else {
            return;
        };
        let id = l.session.world.id;
        let base = l.player_state();
        let Some(state) = chars::enter(sheet, id, &base) else {
            log::warn!(
                "{} carries what this build cannot give (an unknown item, a stack over its \
                 size): the world's own player plays",
                sheet.name
            );
            self.character.world = None;
            return;
        };
        let rules = &l.session.content.rules;
        l.session.players[LOCAL.0] = Seat::new(&state, &l.session.world, rules);
        log::info!(
            "character {} in world {} carrying {}",
            sheet.name,
            character::world_key(id),
            character_of(&state).carried()
        );
        self.character.world = Some(l.serial);
        self.character.since = now;
    }

    /// Writes the character's file when [`KEEP_EVERY`] seconds have gone since it last was.
    pub(super) fn keep_character_in_time(&mut self, now: f64) {
        if now - self.character.since >= KEEP_EVERY {
            self.keep_character(now);
        }
    }

    /// Takes what the character carries and where it stands from the world on screen it is
    /// in, and writes its file (a failure is logged and said; the world's save still holds
    /// the player).
    pub(super) fn keep_character(&mut self, now: f64) {
        let (Some(sheet), Some(l)) = (&mut self.character.sheet, &self.shown) else {
            return;
        };
        if self.character.world != Some(l.serial) {
            return;
        }
        let played = now - self.character.since;
        self.character.since = now;
        sheet.keep(character_of(&l.player_state()), l.session.world.id, played);
        match character::write(&self.characters_dir, sheet) {
            Ok(path) => log::debug!(
                "kept {} carrying {} in {}",
                sheet.name,
                sheet.character.carried(),
                path.display()
            ),
            Err(e) => {
                log::warn!("{}'s character not written: {e}", sheet.name);
                let text = format!("{}'s character not written: {e}", sheet.name);
                self.play.say(text, now);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::worlds::presets::Presets;
    use crate::game::worlds::state::tests::loaded;

    #[test]
    fn r_takes_the_character_and_what_it_carries_into_the_new_world_and_its_file() {
        let d = std::env::temp_dir().join(format!("strata-app-chars-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let folders = crate::base::paths::resolve(Some(&d), None, None);
        let mut app = App::new(
            Presets::open(d.join("presets"), None),
            5,
            false,
            None,
            &folders,
        );
        app.worker.cancel();
        app.play_as(Sheet::blank("Ann"), 0.0);
        // The first world gives the new character its player: the starting kit.
        let mut first = loaded();
        let kit = first.me().inventory.clone();
        app.carry_character(&mut first, 0.0);
        assert_eq!(first.me().inventory, kit);
        app.shown = Some(first);
        // It gathers there, and walks off to the side.
        let gel = app.worker.content.catalog.id("gel").unwrap();
        let me = app.shown.as_mut().unwrap().session.me_mut();
        me.inventory.add(gel, 9);
        me.body.pos.0 += 3.0;
        let carried = me.inventory.clone();
        let stood = me.body.pos;
        // R: another world, of another identity.
        let mut second = loaded();
        second.session.world.id ^= 0x5a5a;
        let spawn = second.me().body.pos;
        app.carry_character(&mut second, 30.0);
        assert_eq!(
            second.me().inventory,
            carried,
            "what it gathered came along"
        );
        assert_eq!(
            second.me().body.pos,
            spawn,
            "at the new world's spawn point"
        );
        // Its file has it, and its place and time in the first world.
        let file = crate::store::character::file_of(&folders.characters, "Ann");
        let sheet = crate::store::character::read(&file).unwrap();
        let first_id = app.shown.as_ref().unwrap().session.world.id;
        let place = sheet.place(first_id).unwrap();
        assert_eq!((place.pos, place.played), (stood, 30.0));
        assert_eq!(
            sheet.character.carried(),
            character_of(&second.player_state()).carried()
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
