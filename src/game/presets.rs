//! Presets in the game: the menu's list of `config/presets/*.ron`, the file in use, and
//! watching it (mtime polling) so saving it in an editor regenerates the world. A file that
//! fails to load never replaces the preset in use; its error is kept for the overlay until
//! the file is fixed.

use crate::preset::{self, Preset};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds between checks of the watched file.
pub const POLL_SECONDS: f64 = 0.5;

/// `*.ron` files in `dir`, sorted by name; empty if the folder cannot be read.
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
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
    pub dir: PathBuf,
    /// Files offered by the menu.
    pub list: Vec<PathBuf>,
    /// The watched file (`None`: the built-in default).
    pub path: Option<PathBuf>,
    /// The last preset that loaded.
    pub preset: Preset,
    /// Why the watched file does not load, shown until it does.
    pub error: Option<String>,
    seen: Option<SystemTime>,
    next_check: f64,
}

impl Presets {
    /// Loads `path` (or the built-in default when it fails: the error is kept).
    pub fn open(dir: PathBuf, path: Option<PathBuf>) -> Presets {
        let mut p = Presets {
            list: list(&dir),
            dir,
            path: None,
            preset: Preset::default(),
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
        self.reload()
    }

    /// Chooses the `i`-th file of the menu.
    pub fn choose_index(&mut self, i: usize) -> Option<Preset> {
        let path = self.list.get(i)?.clone();
        self.choose(path)
    }

    fn reload(&mut self) -> Option<Preset> {
        let path = self.path.as_ref()?;
        match preset::load(path) {
            Ok(p) => {
                self.error = None;
                self.preset = p.clone();
                Some(p)
            }
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
        }
    }

    /// Checks the watched file at most every [`POLL_SECONDS`] (`now` in seconds). Returns
    /// the new preset when the file changed and loads.
    pub fn poll(&mut self, now: f64) -> Option<Preset> {
        if now < self.next_check {
            return None;
        }
        self.next_check = now + POLL_SECONDS;
        let path = self.path.as_ref()?;
        let m = mtime(path);
        if m == self.seen {
            return None;
        }
        self.seen = m;
        self.list = list(&self.dir);
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
    fn missing_start_file_falls_back_to_the_default() {
        let d = temp_dir("missing");
        let p = Presets::open(d.clone(), Some(d.join("nope.ron")));
        assert_eq!(p.preset, Preset::default());
        assert!(p.error.as_deref().unwrap_or("").contains("nope.ron"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
