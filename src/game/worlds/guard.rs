//! Nothing a player made is lost: which requests would replace a world with unsaved
//! edits, what the question about them offers and what each answer does, when the
//! autosave is due, and what the game says afterwards. Engine-free and tested; the app
//! carries the decisions out.
//!
//! A world has unsaved edits when anything was dug, placed or felled since it was saved,
//! loaded or generated. R, a new seed, F9, a pick from the load list and a pick from the
//! preset menu then ask first (save and continue / discard / cancel). A hot reload of
//! the preset file is not the player's request in the game (the file was saved in an
//! editor), so it asks nothing: the old world is saved first, and the message says where.

use crate::content::preset::Preset;
use std::path::{Path, PathBuf};

/// A request that replaces the world on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Replace {
    /// R: a new world at a random seed.
    Reseed,
    /// The seed box: a new world at this seed.
    NewSeed(u64),
    /// F9: the newest save of the world on screen.
    LoadNewest(PathBuf),
    /// A save picked from the load list.
    LoadFile(PathBuf),
    /// The preset menu's `i`-th preset.
    Preset(usize),
    /// The watched preset file changed to this preset.
    HotReload(Box<Preset>),
}

/// What to do with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Nothing would be lost: do it.
    Go,
    /// Ask the player first.
    Ask,
    /// Save the world on screen, then do it.
    SaveThenGo,
}

/// What to do with `request` when the world on screen has `unsaved` edits.
pub fn decide(unsaved: bool, request: &Replace) -> Decision {
    match (unsaved, request) {
        (false, _) => Decision::Go,
        (true, Replace::HotReload(_)) => Decision::SaveThenGo,
        (true, _) => Decision::Ask,
    }
}

/// The player's answer to the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save the world on screen, then go on.
    Save,
    /// Go on; the edits are dropped.
    Discard,
    /// Keep the world on screen; nothing happens.
    Cancel,
}

/// The answers in the order the question shows them, with their keys and labels.
pub const ANSWERS: [(Answer, &str); 3] = [
    (Answer::Save, "S / Enter: save, then continue"),
    (Answer::Discard, "D: discard the edits"),
    (Answer::Cancel, "Esc: cancel"),
];

/// What an answer does with the request.
pub fn answer(a: Answer) -> Option<Decision> {
    match a {
        Answer::Save => Some(Decision::SaveThenGo),
        Answer::Discard => Some(Decision::Go),
        Answer::Cancel => None,
    }
}

/// The question's first line: what is about to happen to the edits.
pub fn question(request: &Replace) -> String {
    let what = match request {
        Replace::Reseed => "A new world (R)".to_string(),
        Replace::NewSeed(seed) => format!("A new world at seed {seed}"),
        Replace::LoadNewest(path) | Replace::LoadFile(path) => {
            format!("Loading {}", file_name(path))
        }
        Replace::Preset(_) => "Switching presets".to_string(),
        Replace::HotReload(p) => format!("The preset file changed ({})", p.name),
    };
    format!("{what} replaces this world, which has unsaved edits.")
}

/// What the game says once the world on screen was saved to `path` for `request`.
pub fn saved_before(request: &Replace, path: &Path) -> String {
    let name = file_name(path);
    match request {
        Replace::HotReload(_) => {
            format!("The preset changed: your edited world was kept as {name} (L to load it)")
        }
        _ => format!("Saved to {name}"),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Default time between autosaves of a world with unsaved edits, minutes.
pub const AUTOSAVE_MINUTES: f64 = 5.0;

/// Is an autosave due at `now` (seconds)? Only for a world with unsaved edits, no save
/// under way, autosaving on (`every` seconds, `None`: off) and `every` seconds since
/// `last` (the last save, load, new world or autosave attempt, so a failing disk is
/// tried once per interval, not every frame).
pub fn autosave_due(unsaved: bool, saving: bool, last: f64, now: f64, every: Option<f64>) -> bool {
    unsaved && !saving && every.is_some_and(|e| now - last >= e)
}

/// Does a close request save before quitting? With unsaved edits, yes, unless that save
/// already failed once: the game then stays open and says why, and the next close
/// request quits without saving.
pub fn on_quit(unsaved: bool, failed_before: bool) -> bool {
    unsaved && !failed_before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Replace> {
        vec![
            Replace::Reseed,
            Replace::NewSeed(7),
            Replace::LoadNewest(PathBuf::from("saves/world-1.strata")),
            Replace::LoadFile(PathBuf::from("saves/world-2.strata.bak")),
            Replace::Preset(3),
            Replace::HotReload(Box::default()),
        ]
    }

    #[test]
    fn only_unsaved_edits_hold_a_request_up() {
        for r in all() {
            assert_eq!(decide(false, &r), Decision::Go, "{r:?}");
            let want = if matches!(r, Replace::HotReload(_)) {
                Decision::SaveThenGo
            } else {
                Decision::Ask
            };
            assert_eq!(decide(true, &r), want, "{r:?}");
        }
    }

    #[test]
    fn each_answer_does_what_it_says() {
        assert_eq!(answer(Answer::Save), Some(Decision::SaveThenGo));
        assert_eq!(answer(Answer::Discard), Some(Decision::Go));
        assert_eq!(answer(Answer::Cancel), None);
        let shown: Vec<Answer> = ANSWERS.iter().map(|a| a.0).collect();
        assert_eq!(shown, [Answer::Save, Answer::Discard, Answer::Cancel]);
    }

    #[test]
    fn the_question_names_what_replaces_the_world() {
        let q: Vec<String> = all().iter().map(question).collect();
        assert!(q[0].starts_with("A new world (R) replaces"), "{}", q[0]);
        assert!(q[1].contains("seed 7"));
        assert!(q[2].contains("Loading world-1.strata "), "{}", q[2]);
        assert!(q[3].contains("world-2.strata.bak"));
        assert!(q[4].starts_with("Switching presets"));
        assert!(q.iter().all(|l| l.ends_with("unsaved edits.")));
    }

    #[test]
    fn a_hot_reload_says_where_the_old_world_went() {
        let path = Path::new("/home/p/.local/share/strata/saves/world-00ff.strata");
        let hot = saved_before(&Replace::HotReload(Box::default()), path);
        assert!(hot.contains("world-00ff.strata (L to load it)"), "{hot}");
        assert_eq!(
            saved_before(&Replace::Reseed, path),
            "Saved to world-00ff.strata"
        );
    }

    #[test]
    fn autosaves_come_once_an_interval_and_only_for_edits() {
        let every = Some(AUTOSAVE_MINUTES * 60.0);
        assert!(autosave_due(true, false, 0.0, 300.0, every));
        assert!(!autosave_due(true, false, 0.0, 299.9, every));
        assert!(
            !autosave_due(false, false, 0.0, 1e6, every),
            "nothing to save"
        );
        assert!(
            !autosave_due(true, true, 0.0, 1e6, every),
            "a save is under way"
        );
        assert!(!autosave_due(true, false, 0.0, 1e6, None), "autosave off");
        // After an attempt at 300 s the next is due at 600 s.
        assert!(!autosave_due(true, false, 300.0, 599.0, every));
        assert!(autosave_due(true, false, 300.0, 600.0, every));
    }

    #[test]
    fn closing_saves_unsaved_edits_once() {
        assert!(on_quit(true, false));
        assert!(!on_quit(false, false), "nothing to save");
        assert!(
            !on_quit(true, true),
            "the save failed: the second close quits"
        );
    }
}
