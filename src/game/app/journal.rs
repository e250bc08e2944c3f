//! The journal of the world on screen ([`crate::store::journal`]): once the world has a
//! save, what changes is written beside it about once a second, so a crash of the game
//! (kill -9, a power cut) loses about a second of play, as a server's does. A world loaded
//! from its save goes on with the journal its load replayed; each save that works starts
//! it again from the moment the save holds; a clean quit after a save, and leaving the
//! world (a load, F9: the save as it was), remove it.

use crate::game::app::play::SavedMoment;
use crate::game::worlds::state::Loaded;
use crate::store::journal::{FLUSH_SECONDS, Journal};

/// The journal of one world on screen.
struct Kept {
    /// The world's [`Loaded::serial`].
    serial: u64,
    journal: Journal,
    /// When the last record was written (the frame clock, seconds).
    at: f64,
}

/// The game's journal keeper: at most one journal, the shown world's.
#[derive(Default)]
pub struct Keeper {
    kept: Option<Kept>,
}

impl Keeper {
    /// A world just put on screen: loaded from a save, it goes on with that save's journal
    /// (the load replayed it; a replayed world is marked unsaved, so the next save folds
    /// the journal in); otherwise it has none until its first save.
    pub fn shown(&mut self, l: &mut Loaded, now: f64) {
        // The world before it was left: its journal goes (see `tick`).
        self.close();
        let Some(path) = l.loaded_from.clone() else {
            return;
        };
        match Journal::resume(&path, &l.session.world, &l.player_state(), &[]) {
            Ok((journal, records)) => {
                if records > 0 {
                    log::info!(
                        "replayed {records} records of {} since its save",
                        journal.path().display()
                    );
                    l.session.edits += 1;
                }
                self.kept = Some(Kept {
                    serial: l.serial,
                    journal,
                    at: now,
                });
            }
            Err(e) => log::warn!("no journal kept: {e}"),
        }
    }

    /// A save that worked, of the world `l` on screen or of one before it: the journal
    /// starts again beside it from the moment it holds, and records what changed since.
    pub fn saved(&mut self, saved: SavedMoment, l: &Loaded, now: f64) {
        if saved.serial != l.serial {
            return;
        }
        if let Some(k) = self.kept.take()
            && k.journal.path() != crate::store::journal::path_of(&saved.path)
        {
            // The world moved to its own save: the journal of the file it came from is
            // in that save now.
            let _ = std::fs::remove_file(k.journal.path());
        }
        let (world, player) = &*saved.moment;
        match Journal::start(&saved.path, world, player, &[]) {
            Ok(journal) => {
                let mut k = Kept {
                    serial: l.serial,
                    journal,
                    at: now,
                };
                k.record(l, now);
                self.kept = Some(k);
            }
            Err(e) => log::warn!("no journal kept: {e}"),
        }
    }

    /// Each frame: a record of what changed, about once a second.
    pub fn tick(&mut self, l: Option<&Loaded>, now: f64) {
        let Some(k) = &mut self.kept else {
            return;
        };
        match l {
            Some(l) if l.serial == k.serial => {
                if now - k.at >= FLUSH_SECONDS && !k.record(l, now) {
                    self.kept = None;
                }
            }
            // The world was left (a new world, another save, the lab): what it had was
            // saved or given up on the way (the question before R asks), so its journal
            // goes with it; left behind, the next load of its save would replay it and
            // take a saved world for one with unsaved edits.
            _ => self.close(),
        }
    }

    /// The world on screen is left or saved for good: its journal is removed (its
    /// changes are in its save, or given up, as F9 gives them up).
    pub fn close(&mut self) {
        if let Some(k) = self.kept.take() {
            let _ = std::fs::remove_file(k.journal.path());
        }
    }
}

impl Kept {
    /// Writes a record of `l` now; false when the journal could not be written (it is
    /// given up, and the game plays on with its saves alone).
    fn record(&mut self, l: &Loaded, now: f64) -> bool {
        self.at = now;
        match self.journal.flush(&l.session.world, &l.player_state(), &[]) {
            Ok(_) => true,
            Err(e) => {
                log::warn!("journal given up: {e}");
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::worlds::state::tests::loaded;
    use crate::store::{journal, save};
    use crate::world::Tile;

    #[test]
    fn the_window_journals_its_world_from_each_save_and_a_load_replays_it() {
        let dir = std::env::temp_dir().join(format!("strata-game-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = save::save_path(&dir, &loaded().session.world);
        let mut l = loaded();
        let mut keeper = Keeper::default();
        // No save yet: no journal.
        keeper.shown(&mut l, 0.0);
        keeper.tick(Some(&l), 5.0);
        assert!(!journal::path_of(&path).exists());
        // A save of the world as it was, then a dig before the save is done.
        let moment = Box::new((l.session.world.clone(), l.player_state()));
        save::save_keeping_backup(&path, &moment.0, &moment.1).unwrap();
        let (x, y) = (300, l.world().surface[300] as usize);
        l.set_tile(x, y, Tile::Air);
        let saved = SavedMoment {
            serial: l.serial,
            path: path.clone(),
            moment,
        };
        keeper.saved(saved, &l, 6.0);
        // A second dig, recorded about a second later, not before.
        l.set_tile(x, y + 1, Tile::Air);
        keeper.tick(Some(&l), 6.5);
        let (w, _, r) = journal::load(&path, &l.session.content.catalog).unwrap();
        assert_eq!((r.records, w.tile(x, y + 1) == Tile::Air), (1, false));
        keeper.tick(Some(&l), 7.1);
        let (w, _, r) = journal::load(&path, &l.session.content.catalog).unwrap();
        assert_eq!(r.records, 2);
        assert_eq!(
            w.tiles(),
            l.session.world.tiles(),
            "a crash now loses nothing"
        );
        // A crash, and a new window loads it again: the journal goes on, and the world is
        // marked unsaved.
        let mut keeper = Keeper::default();
        let mut again = loaded();
        again.session.world = w;
        again.loaded_from = Some(path.clone());
        keeper.shown(&mut again, 8.0);
        assert!(again.unsaved(), "the replayed world's save lacks it");
        assert!(journal::path_of(&path).exists());
        // Leaving it (F9) removes the journal.
        keeper.close();
        assert!(!journal::path_of(&path).exists());
        // So does leaving it for another world (R, once its question saved or gave up
        // what changed): a journal left behind would make its save look unsaved.
        keeper.shown(&mut again, 9.0);
        keeper.saved(
            SavedMoment {
                serial: again.serial,
                path: path.clone(),
                moment: Box::new((again.session.world.clone(), again.player_state())),
            },
            &again,
            9.5,
        );
        assert!(journal::path_of(&path).exists());
        let mut other = loaded();
        keeper.shown(&mut other, 10.0);
        assert!(
            !journal::path_of(&path).exists(),
            "the world left keeps a journal"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
