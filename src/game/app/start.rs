//! The start screen (`strata play` without a seed, a save or a server): pick a character or
//! make one (a name), then pick a world to walk into, make a new one, or press R on a
//! world for another like it (its preset, a new seed). Each list shows what a player
//! picks by: a character's time played and when it was last played; a world's seed, size,
//! preset, the character's time played there and when it was last played. Drawn as the
//! pause menu is, with its keys (arrows, numbers, Enter, Esc back).

use super::App;
use crate::game::input::{Action, Mode};
use crate::game::worlds::guard::Replace;
use crate::game::worlds::saves::{Entry, LoadList, age};
use crate::store::character::{self, Listed, Sheet};
use std::time::SystemTime;

/// Where the start screen is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    #[default]
    Characters,
    /// Typing a new character's name.
    Name,
    Worlds,
}

/// The start screen's state.
#[derive(Default)]
pub struct StartScreen {
    pub step: Step,
    pub selected: usize,
    pub characters: Vec<Listed>,
    /// The new character's name as typed.
    pub name: String,
    /// The character picked (or made), on the way to a world.
    pub picked: Option<Sheet>,
    pub worlds: Option<LoadList>,
    /// Why the last choice did not go (a name taken, a file that does not read).
    pub error: Option<String>,
}

/// Time played, for people: `12 min`, `3 h 5 min`.
pub fn played_text(secs: f64) -> String {
    let min = (secs.max(0.0) / 60.0).floor() as u64;
    match min {
        0..60 => format!("{min} min"),
        _ => format!("{} h {} min", min / 60, min % 60),
    }
}

/// The characters' rows: name, time played, when last played (or why a file does not
/// read), then the row that makes a new one.
pub fn character_rows(list: &[Listed], now: SystemTime) -> Vec<String> {
    let mut rows: Vec<String> = list
        .iter()
        .map(|l| match &l.sheet {
            Ok(s) => format!(
                "{}  played {}  last played {}",
                s.name,
                played_text(s.played()),
                age(l.modified, now)
            ),
            Err(e) => format!("does not read: {e}"),
        })
        .collect();
    rows.push("New character".into());
    rows
}

/// The worlds' rows for `sheet`: seed, size, preset, its time played there and when the
/// world was last played (or why a save does not load), then the row that makes a new one.
pub fn world_rows(entries: &[Entry], sheet: &Sheet, preset: &str, now: SystemTime) -> Vec<String> {
    let mut rows: Vec<String> = entries
        .iter()
        .map(|e| {
            let when = age(e.modified, now);
            match &e.summary {
                None => format!("reading...  last played {when}"),
                Some(Ok(s)) => {
                    let here = sheet.place(s.id).map_or("not played by", |_| "played");
                    let time = sheet
                        .place(s.id)
                        .map_or(String::new(), |p| format!(" {}", played_text(p.played)));
                    format!(
                        "seed {}  {}x{}  {}  {here} {}{time}  last played {when}",
                        s.seed, s.size.0, s.size.1, s.preset, sheet.name
                    )
                }
                Some(Err(err)) => format!("does not load: {err}"),
            }
        })
        .collect();
    rows.push(format!("New world ({preset}, a new seed)"));
    rows
}

impl StartScreen {
    /// The rows of the step it is at.
    fn len(&self) -> usize {
        match self.step {
            Step::Characters => self.characters.len() + 1,
            Step::Name => 1,
            Step::Worlds => self.worlds.as_ref().map_or(0, |w| w.entries.len()) + 1,
        }
    }

    /// Is it taking typed characters (a new character's name)?
    pub fn naming(&self) -> bool {
        self.step == Step::Name
    }

    /// A character typed into the name (one a name may have).
    pub fn type_char(&mut self, c: char) {
        let ok = c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ';
        if self.step == Step::Name && ok && self.name.chars().count() < character::MAX_NAME {
            self.name.push(c);
        }
    }
}

impl App {
    /// Shows the start screen instead of a world (the world being made for the window is
    /// given up).
    pub fn open_start(&mut self) {
        self.worker.cancel();
        self.mode = Mode::Start;
        self.start = StartScreen {
            characters: character::list(&self.characters_dir),
            ..Default::default()
        };
    }

    /// Shows the start screen at the worlds, for `sheet` (`--character`).
    pub fn open_start_as(&mut self, sheet: Sheet) {
        self.open_start();
        self.start.picked = Some(sheet);
        self.start_worlds();
    }

    /// A world picked on the start screen did not load: back to its worlds, saying why
    /// (with a world on screen, or a server's, the load's message is enough).
    pub(super) fn back_to_start(&mut self, why: &str) {
        if self.shown.is_some() || self.play.remote.is_some() {
            return;
        }
        if let Some(sheet) = self.character.sheet.take() {
            self.character.world = None;
            self.open_start_as(sheet);
            self.start.error = Some(format!("Load failed: {why}"));
        }
    }

    /// A key on the start screen (it takes every one but fullscreen's).
    pub(super) fn start_act(&mut self, action: Action, now: f64) -> bool {
        let st = &mut self.start;
        match action {
            Action::ToggleFullscreen => return false,
            Action::Close => {
                st.step = Step::Characters;
                st.selected = 0;
                st.error = None;
            }
            Action::MenuUp => st.selected = st.selected.saturating_sub(1),
            Action::MenuDown => st.selected = (st.selected + 1).min(st.len() - 1),
            Action::Backspace if st.naming() => {
                st.name.pop();
            }
            Action::Paste if st.naming() => {
                if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                    text.chars().for_each(|c| st.type_char(c));
                }
            }
            Action::Confirm if st.naming() => self.name_chosen(now),
            Action::Confirm => self.start_choose(self.start.selected, now),
            Action::ChooseEntry(i) if !st.naming() => self.start_choose(i, now),
            Action::Reseed if st.step == Step::Worlds => self.start_reseed(now),
            _ => {}
        }
        true
    }

    /// Row `i` of the step the start screen is at.
    fn start_choose(&mut self, i: usize, now: f64) {
        let st = &mut self.start;
        if i >= st.len() {
            return;
        }
        st.selected = i;
        st.error = None;
        match st.step {
            Step::Characters => match st.characters.get(i).map(|l| &l.sheet) {
                Some(Ok(sheet)) => {
                    st.picked = Some(sheet.clone());
                    self.start_worlds();
                }
                Some(Err(e)) => st.error = Some(e.to_string()),
                None => {
                    st.step = Step::Name;
                    st.name.clear();
                }
            },
            Step::Name => self.name_chosen(now),
            Step::Worlds => {
                let path = st.worlds.as_ref().and_then(|w| w.path(i)).map(Into::into);
                self.start_play(now);
                match path {
                    Some(path) => self.request(Replace::LoadFile(path), now),
                    None => self.generate(crate::launch::random_seed()),
                }
            }
        }
    }

    /// The name typed: a new character of that name, unless the name may not be one or
    /// another character has it.
    fn name_chosen(&mut self, _now: f64) {
        let st = &mut self.start;
        let name = st.name.trim().to_string();
        if !character::valid_name(&name) {
            st.error = Some(format!(
                "A name has 1 to {} letters, digits, '_', '-' or inner spaces",
                character::MAX_NAME
            ));
        } else if character::file_of(&self.characters_dir, &name).exists() {
            st.error = Some(format!("There is a character called {name} already"));
        } else {
            st.picked = Some(Sheet::blank(&name));
            self.start_worlds();
        }
    }

    /// On to the worlds, for the character picked.
    fn start_worlds(&mut self) {
        let st = &mut self.start;
        st.step = Step::Worlds;
        st.selected = 0;
        st.worlds = Some(LoadList::worlds(
            &self.saves_dir,
            &self.worker.content.catalog,
        ));
    }

    /// R on a world: another world made as it was (its preset and size), at a new seed.
    fn start_reseed(&mut self, now: f64) {
        let st = &self.start;
        let made = (st.worlds.as_ref())
            .and_then(|w| w.entries.get(st.selected))
            .and_then(|e| e.summary.as_ref()?.as_ref().ok())
            .map(|s| (*s.made_with).clone());
        if let Some(p) = made {
            self.start_play(now);
            self.presets.adopt(p);
            self.generate(crate::launch::random_seed());
        }
    }

    /// The start screen goes; the character picked plays in the world asked for next.
    fn start_play(&mut self, now: f64) {
        self.mode = Mode::World;
        if let Some(sheet) = self.start.picked.take() {
            self.play_as(sheet, now);
        }
        self.start = StartScreen::default();
    }

    /// The start screen's title and rows as they are now.
    pub(super) fn start_rows(&self) -> (String, Vec<String>) {
        let st = &self.start;
        let now = SystemTime::now();
        let (title, rows) = match st.step {
            Step::Characters => (
                "Strata: pick a character".to_string(),
                character_rows(&st.characters, now),
            ),
            Step::Name => (
                "New character: type a name, then Enter (Esc: back)".to_string(),
                vec![format!("Name: {}_", st.name)],
            ),
            Step::Worlds => {
                let name = st.picked.as_ref().map_or("", |s| s.name.as_str());
                let entries = st.worlds.as_ref().map_or(&[][..], |w| &w.entries[..]);
                let blank = Sheet::blank(name);
                let sheet = st.picked.as_ref().unwrap_or(&blank);
                (
                    format!("{name}: pick a world (R: another like it, Esc: back)"),
                    world_rows(entries, sheet, &self.presets.preset.name, now),
                )
            }
        };
        match &st.error {
            Some(e) => (format!("{title}  -  {e}"), rows),
            None => (title, rows),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::character::Character;
    use std::time::Duration;

    #[test]
    fn the_start_screen_makes_a_character_then_walks_it_into_a_picked_world() {
        let d = std::env::temp_dir().join(format!("strata-start-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let folders = crate::base::paths::resolve(Some(&d), None, None);
        let presets = crate::game::worlds::presets::Presets::open(d.join("presets"), None);
        let mut app = App::new(presets, 5, false, None, &folders);
        // A character already made, and a world saved.
        let c = Sheet::new("Ann", Sheet::blank("Ann").character, 1);
        character::write(&folders.characters, &c).unwrap();
        let world = crate::world::World::from_ascii(&["        "; 8]).unwrap();
        let player = crate::store::save::PlayerState::new((2.0, 2.0), &app.worker.content.catalog);
        let save = crate::store::save::save_path(&folders.saves, &world);
        crate::store::save::save(&save, &world, &player).unwrap();
        app.open_start();
        assert_eq!((app.mode, app.worker.status()), (Mode::Start, None));
        let screen = (1280.0, 720.0);
        // Ann, then New character: a taken name is refused, another goes on.
        assert_eq!(app.start_rows().1.len(), 2);
        app.act(Action::ChooseEntry(1), screen, 0.0);
        assert!(app.start.naming());
        "ann".chars().for_each(|c| app.start.type_char(c));
        app.act(Action::Confirm, screen, 0.0);
        assert!(app.start.naming(), "ann's file is Ann's");
        assert!(app.start.error.as_ref().unwrap().contains("already"));
        app.act(Action::Backspace, screen, 0.0);
        "/ x".chars().for_each(|c| app.start.type_char(c));
        assert_eq!(app.start.name, "an x", "only what a name may hold is typed");
        app.act(Action::Confirm, screen, 0.0);
        assert_eq!(app.start.step, Step::Worlds);
        // The saved world and New world; Esc goes back to the characters.
        assert_eq!(app.start_rows().1.len(), 2);
        app.act(Action::Close, screen, 0.0);
        assert_eq!(app.start.step, Step::Characters);
        app.act(Action::ChooseEntry(0), screen, 0.0);
        assert_eq!(
            app.start.picked.as_ref().map(|s| s.name.as_str()),
            Some("Ann")
        );
        app.act(Action::ChooseEntry(0), screen, 0.0);
        assert_eq!(app.mode, Mode::World);
        assert_eq!(
            app.character.sheet.as_ref().map(|s| s.name.as_str()),
            Some("Ann")
        );
        assert!(app.worker.status().is_some(), "the save is being loaded");
        // A load that fails goes back to the worlds, saying why.
        app.back_to_start("broken");
        assert_eq!((app.mode, app.start.step), (Mode::Start, Step::Worlds));
        assert!(app.start.error.as_ref().unwrap().contains("broken"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_lists_say_time_played_and_when_last_played() {
        assert_eq!(played_text(59.0), "0 min");
        assert_eq!(played_text(3.0 * 3600.0 + 5.0 * 60.0), "3 h 5 min");
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let c = Character {
            slots: Vec::new(),
            selected: 0,
            armour: Vec::new(),
            health: 100.0,
            pos: (1.0, 2.0),
            max_health: 100.0,
            bed: None,
            accessories: Vec::new(),
            max_mana: 20,
            bank: Vec::new(),
        };
        let mut ann = Sheet::new("Ann", c.clone(), 7);
        ann.keep(c, 7, 600.0);
        let listed = [Listed {
            path: "ann.json".into(),
            modified: t,
            sheet: Ok(ann.clone()),
        }];
        let rows = character_rows(&listed, t + Duration::from_secs(7200));
        assert_eq!(
            rows,
            ["Ann  played 10 min  last played 2 h ago", "New character"]
        );
        let world = crate::world::World::from_ascii(&["    "; 4]).unwrap();
        let mut summary = crate::game::worlds::saves::Summary::of(&world);
        summary.id = 7;
        summary.seed = 42;
        let mut other = summary.clone();
        other.id = 8;
        let entry = |s: &crate::game::worlds::saves::Summary| Entry {
            path: "w.strata".into(),
            modified: t,
            summary: Some(Ok(s.clone())),
        };
        let rows = world_rows(&[entry(&summary), entry(&other)], &ann, "default", t);
        assert!(rows[0].starts_with("seed 42  4x4  "), "{}", rows[0]);
        assert!(
            rows[0].ends_with("played Ann 10 min  last played just now"),
            "{}",
            rows[0]
        );
        assert!(
            rows[1].contains("not played by Ann  last played"),
            "{}",
            rows[1]
        );
        assert_eq!(rows[2], "New world (default, a new seed)");
    }
}
