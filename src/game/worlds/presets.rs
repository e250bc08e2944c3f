//! Presets in the game: the menu (the player's preset files, then the built-in presets no
//! file of the same name replaces), the preset in use, and watching its file (mtime polling) so saving it in an editor regenerates the world. Only a
//! change to what the file says regenerates: a `touch`, or saving the same text, keeps the
//! world and its edits. A file that fails to load never replaces the preset in use; its
//! error is kept for the overlay until the file is fixed.

use crate::content::preset::{self, Preset};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds between checks of the watched file.
pub const POLL_SECONDS: f64 = 0.5;

/// `*.ron` files in `dirs`, sorted by name (each file once); empty if no folder can be read.
pub fn list_all(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = dirs.iter().flat_map(|d| list(d)).collect();
    out.sort_by(|a, b| label(a).cmp(&label(b)).then(a.cmp(b)));
    out.dedup();
    out
}

/// `*.ron` files in `dir`, sorted by name; empty if the folder cannot be read.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    preset::files_in(dir)
}

/// One entry of the preset menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A preset file: the player's, or in the folder of the preset the game started with.
    File(PathBuf),
    /// A preset built into Strata, by its key in [`preset::BUILTIN`].
    BuiltIn(&'static str),
}

impl Choice {
    /// What the menu shows: a file's stem, or a built-in preset's name.
    pub fn label(&self) -> String {
        match self {
            Choice::File(p) => label(p),
            Choice::BuiltIn(name) => format!("{name} (built in)"),
        }
    }
}

/// The menu: the preset files in `dirs` (sorted by name), then each built-in preset that
/// no listed file has the name of (a player's `large.ron` takes the built-in's place).
pub fn menu(dirs: &[PathBuf]) -> Vec<Choice> {
    let files = list_all(dirs);
    let shadowed = |name: &str| files.iter().any(|f| label(f).eq_ignore_ascii_case(name));
    let built_in: Vec<Choice> = preset::BUILTIN
        .iter()
        .filter(|(name, _)| !shadowed(name))
        .map(|(name, _)| Choice::BuiltIn(name))
        .collect();
    files
        .into_iter()
        .map(Choice::File)
        .chain(built_in)
        .collect()
}

/// The menu label of a preset file: its stem.
pub fn label(path: &Path) -> String {
    path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

fn mtime(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The preset in use and where it came from.
pub struct Presets {
    /// Folders the menu lists: the player's presets folder, and the folder of the preset
    /// the game started with when that is elsewhere.
    pub dirs: Vec<PathBuf>,
    /// What the menu offers.
    pub list: Vec<Choice>,
    /// The watched file (`None`: a built-in preset).
    pub path: Option<PathBuf>,
    /// The built-in preset in use, when no file is.
    pub builtin: Option<&'static str>,
    /// The preset in use: the last that loaded, or a loaded save's.
    pub preset: Preset,
    /// What the watched file said when it last loaded: a change to the file regenerates
    /// only when it says something else.
    file_preset: Option<Preset>,
    /// Why the watched file does not load, shown until it does.
    pub error: Option<String>,
    seen: Option<SystemTime>,
    next_check: f64,
}

impl Presets {
    /// Loads `path` (or the built-in default when it fails: the error is kept).
    pub fn open(dir: PathBuf, path: Option<PathBuf>) -> Presets {
        let mut dirs = vec![dir];
        if let Some(parent) = path.as_ref().and_then(|p| p.parent()) {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => a == b,
            };
            if !same(parent, &dirs[0]) {
                dirs.push(parent.to_path_buf());
            }
        }
        let mut p = Presets {
            list: menu(&dirs),
            dirs,
            path: None,
            builtin: None,
            preset: Preset::default(),
            file_preset: None,
            error: None,
            seen: None,
            next_check: 0.0,
        };
        if let Some(path) = path {
            p.choose(path);
        }
        p
    }

    /// Switches to the file `path`. Returns the preset to generate with, or `None` (and
    /// keeps the current one) when the file does not load. The file is watched either way.
    pub fn choose(&mut self, path: PathBuf) -> Option<Preset> {
        self.seen = mtime(&path);
        self.path = Some(path);
        self.builtin = None;
        self.reload()
    }

    /// Switches to the built-in preset `name` (a key of [`preset::BUILTIN`]); no file is
    /// watched. `None` (and the current preset kept) when there is no such preset.
    pub fn choose_builtin(&mut self, name: &str) -> Option<Preset> {
        let key = preset::builtin_key(name)?;
        let found = preset::builtin(key)?.ok()?;
        (self.path, self.seen, self.file_preset, self.error) = (None, None, None, None);
        self.builtin = Some(key);
        self.preset = found.clone();
        Some(found)
    }

    /// Chooses the `i`-th entry of the menu.
    pub fn choose_index(&mut self, i: usize) -> Option<Preset> {
        match self.list.get(i)?.clone() {
            Choice::File(path) => self.choose(path),
            Choice::BuiltIn(name) => self.choose_builtin(name),
        }
    }

    /// The menu entry in use, if the menu lists it.
    pub fn current(&self) -> Option<usize> {
        let in_use = match (&self.path, self.builtin) {
            (Some(p), _) => Choice::File(p.clone()),
            (None, Some(name)) => Choice::BuiltIn(name),
            (None, None) => return None,
        };
        self.list.iter().position(|c| *c == in_use)
    }

    /// The menu's labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.list.iter().map(Choice::label).collect()
    }

    /// Reads the menu's folders again.
    pub fn refresh_list(&mut self) {
        self.list = menu(&self.dirs);
    }

    /// A world from a save is on screen: its preset is the one in use (R regenerates with
    /// it). The file stays watched, and regenerates only when what it says changes.
    pub fn adopt(&mut self, preset: Preset) {
        self.preset = preset;
    }

    fn reload(&mut self) -> Option<Preset> {
        let path = self.path.as_ref()?;
        match preset::load(path) {
            Ok(p) => {
                self.error = None;
                self.preset = p.clone();
                self.file_preset = Some(p.clone());
                Some(p)
            }
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
        }
    }

    /// Checks the watched file at most every [`POLL_SECONDS`] (`now` in seconds). Returns
    /// the new preset when the file changed, loads, and says something other than it
    /// said when it last loaded.
    pub fn poll(&mut self, now: f64) -> Option<Preset> {
        if now < self.next_check {
            return None;
        }
        self.next_check = now + POLL_SECONDS;
        let path = self.path.clone()?;
        let m = mtime(&path);
        if m == self.seen {
            return None;
        }
        self.seen = m;
        self.refresh_list();
        if let Ok(p) = preset::load(&path)
            && self.file_preset.as_ref() == Some(&p)
        {
            self.error = None;
            return None;
        }
        self.reload()
    }

    /// Name for the overlay: the preset's name, and the file.
    pub fn describe(&self) -> String {
        match &self.path {
            Some(p) => format!("{} ({})", self.preset.name, p.display()),
            None => format!("{} (built in)", self.preset.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("strata-presets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Writes a file and moves its mtime forward so a poll sees the change even on file
    /// systems with coarse timestamps.
    fn write(path: &Path, text: &str, tick: u64) {
        std::fs::write(path, text).unwrap();
        let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + tick);
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[test]
    fn lists_ron_files_sorted() {
        let d = temp_dir("list");
        for f in ["b.ron", "a.ron", "notes.txt"] {
            std::fs::write(d.join(f), "()").unwrap();
        }
        let l = list(&d);
        assert_eq!(
            l.iter().map(|p| label(p)).collect::<Vec<_>>(),
            vec!["a", "b"]
        );
        assert!(list(&d.join("missing")).is_empty());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn bad_file_keeps_the_preset_and_reports_until_fixed() {
        let d = temp_dir("watch");
        let f = d.join("mine.ron");
        write(&f, "(name: \"Mine\", width: 300, height: 100)", 1);
        let mut p = Presets::open(d.clone(), None);
        assert_eq!(p.choose_index(0).map(|p| p.width), Some(300));
        assert_eq!(p.poll(0.0), None, "unchanged file");

        write(
            &f,
            "(name: \"Mine\", width: 300,\n height: 100, bogus: 1)",
            2,
        );
        assert_eq!(p.poll(0.1), None, "polled too soon");
        assert_eq!(p.poll(1.0), None);
        let e = p.error.clone().expect("error shown");
        assert!(e.contains("mine.ron:2:") && e.contains("bogus"), "{e}");
        assert_eq!(p.preset.width, 300, "the old preset stays");

        write(&f, "(name: \"Mine\", width: 0, height: 100)", 3);
        assert_eq!(p.poll(2.0), None);
        assert!(p.error.as_deref().unwrap_or("").contains("width"));

        write(&f, "(name: \"Mine\", width: 400, height: 100)", 4);
        assert_eq!(p.poll(3.0).map(|p| p.width), Some(400));
        assert_eq!(p.error, None);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn only_a_change_in_what_the_file_says_regenerates() {
        let d = temp_dir("same");
        let f = d.join("mine.ron");
        let text = "(name: \"Mine\", width: 300, height: 100)";
        write(&f, text, 1);
        let mut p = Presets::open(d.clone(), Some(f.clone()));
        assert_eq!(p.preset.width, 300);
        // A touch, and the same text written again (with another layout): nothing.
        write(&f, text, 2);
        assert_eq!(p.poll(1.0), None, "touched");
        write(
            &f,
            "(\n  name: \"Mine\",\n  width: 300, // same\n  height: 100,\n)",
            3,
        );
        assert_eq!(p.poll(2.0), None, "same preset, new text");
        // A broken file, then the old text again: the error goes, the world stays.
        write(&f, "(name: \"Mine\", width: 0, height: 100)", 4);
        assert_eq!(p.poll(3.0), None);
        assert!(p.error.is_some());
        write(&f, text, 5);
        assert_eq!(p.poll(4.0), None, "back to what it said");
        assert_eq!(p.error, None);
        // A loaded save's preset is in use; touching the file still changes nothing,
        // and a real change regenerates.
        p.adopt(Preset {
            name: "From a save".into(),
            ..Preset::default()
        });
        write(&f, text, 6);
        assert_eq!(p.poll(5.0), None, "touched after a load");
        assert_eq!(p.preset.name, "From a save");
        write(&f, "(name: \"Mine\", width: 320, height: 100)", 7);
        assert_eq!(p.poll(6.0).map(|p| p.width), Some(320));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_menu_lists_the_started_presets_folder_too() {
        let repo = temp_dir("repo");
        let other = temp_dir("other");
        std::fs::write(repo.join("default.ron"), "()").unwrap();
        std::fs::write(other.join("tiny.ron"), "(width: 64, height: 32)").unwrap();
        let p = Presets::open(repo.clone(), Some(other.join("tiny.ron")));
        assert_eq!(p.preset.width, 64);
        let files = &p.labels()[..2];
        assert_eq!(files, ["default", "tiny"]);
        assert_eq!(p.list[1], Choice::File(other.join("tiny.ron")));
        assert_eq!(p.current(), Some(1));
        std::fs::remove_dir_all(&repo).unwrap();
        std::fs::remove_dir_all(&other).unwrap();
    }

    #[test]
    fn missing_start_file_falls_back_to_the_default() {
        let d = temp_dir("missing");
        let p = Presets::open(d.clone(), Some(d.join("nope.ron")));
        assert_eq!(p.preset, Preset::default());
        assert!(p.error.as_deref().unwrap_or("").contains("nope.ron"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_menu_lists_built_in_presets_after_the_players_files() {
        let d = temp_dir("menu");
        std::fs::write(d.join("mine.ron"), "(width: 64, height: 32)").unwrap();
        // A player's file named like a built-in preset takes its place.
        std::fs::write(d.join("Large.ron"), "(width: 96, height: 32)").unwrap();
        let mut p = Presets::open(d.clone(), None);
        let labels = p.labels();
        let built_in: Vec<String> = preset::BUILTIN
            .iter()
            .filter(|(k, _)| *k != "large")
            .map(|(k, _)| format!("{k} (built in)"))
            .collect();
        assert_eq!(labels[..2], ["Large", "mine"]);
        assert_eq!(labels[2..], built_in[..]);
        assert_eq!(p.current(), None, "the default, not from the menu");
        // Choosing a built-in preset: no file watched, the menu marks it.
        let i = labels
            .iter()
            .position(|l| l == "classic (built in)")
            .unwrap();
        let classic = p.choose_index(i).expect("classic parses");
        assert_eq!(classic, preset::builtin("classic").unwrap().unwrap());
        assert_eq!((p.path.as_ref(), p.builtin), (None, Some("classic")));
        assert_eq!(p.current(), Some(i));
        assert_eq!(p.poll(10.0), None, "no file to watch");
        // Back to a file.
        assert_eq!(p.choose_index(0).map(|p| p.width), Some(96));
        assert_eq!((p.builtin, p.current()), (None, Some(0)));
        assert_eq!(p.choose_builtin("nowhere"), None);
        assert_eq!(p.preset.width, 96, "an unknown name keeps the preset");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
