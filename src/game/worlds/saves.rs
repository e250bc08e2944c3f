//! The load list: every save in the saves folder ([`crate::base::paths::Folders::saves`]) and every
//! save's backup, newest first, each with its world's seed, preset, size, age and a
//! thumbnail, read on a background thread (a save is decoded whole for its thumbnail) so
//! the list opens at once and fills in. Engine-free: thumbnails are RGBA bytes; the UI
//! uploads them.

use crate::store::save;
use crate::world::World;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::SystemTime;

/// Thumbnail width in pixels; the height keeps the world's aspect (at least 1 pixel).
pub const THUMB_W: usize = 96;
/// Tallest thumbnail, pixels (a very tall world is squeezed).
pub const THUMB_MAX_H: usize = 48;

/// What the list shows of one save.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub seed: u64,
    /// The world's identity ([`World::id`]): which of a character's places is there.
    pub id: u64,
    pub preset: String,
    /// The preset it was made with (the start screen's R makes another world of it).
    pub made_with: Box<crate::content::preset::Preset>,
    pub size: (usize, usize),
    /// `(width, height, RGBA bytes)`.
    pub thumb: (usize, usize, Vec<u8>),
    /// The bosses fallen, "past the Wall" first ([`crate::world::progress::Progress::summary`];
    /// empty for none).
    pub story: String,
}

impl Summary {
    pub fn of(world: &World) -> Summary {
        Summary {
            seed: world.seed,
            id: world.id,
            preset: world.preset.name.clone(),
            made_with: Box::new(world.preset.clone()),
            size: (world.width(), world.height()),
            thumb: thumbnail(world),
            story: world.progress.summary(),
        }
    }
}

/// One save file in the list.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub path: PathBuf,
    pub modified: SystemTime,
    /// `None` while it is being read; the error when it does not load.
    pub summary: Option<Result<Summary, String>>,
}

/// The world shrunk to [`THUMB_W`] pixels across, one tile sampled per pixel (the middle
/// of the block it covers), in the PNG export's palette.
pub fn thumbnail(world: &World) -> (usize, usize, Vec<u8>) {
    let (w, h) = (world.width(), world.height());
    let tw = THUMB_W.min(w);
    let th = (h * tw / w).clamp(1, THUMB_MAX_H.min(h));
    let mut out = Vec::with_capacity(tw * th * 4);
    for ty in 0..th {
        let y = (ty * h + h / (2 * th)) / th;
        for tx in 0..tw {
            let x = (tx * w + w / (2 * tw)) / tw;
            out.extend_from_slice(&crate::store::export::pixel(
                world,
                x.min(w - 1),
                y.min(h - 1),
            ));
        }
    }
    (tw, th, out)
}

/// How long ago `then` was, for people: `just now`, `5 min ago`, `3 h ago`, `2 days ago`.
pub fn age(then: SystemTime, now: SystemTime) -> String {
    let s = now.duration_since(then).map_or(0, |d| d.as_secs());
    match s {
        0..60 => "just now".into(),
        60..3600 => format!("{} min ago", s / 60),
        3600..86_400 => format!("{} h ago", s / 3600),
        _ if s < 2 * 86_400 => "1 day ago".into(),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// The text of an entry's line: what world it is, or why it does not load.
pub fn describe(e: &Entry, now: SystemTime) -> String {
    let name = e
        .path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let when = age(e.modified, now);
    match &e.summary {
        None => format!("{name}  ({when})  reading..."),
        Some(Ok(s)) if !s.story.is_empty() => format!(
            "seed {}  {}  {}x{}  [{}]  {when}  ({name})",
            s.seed, s.preset, s.size.0, s.size.1, s.story
        ),
        Some(Ok(s)) => format!(
            "seed {}  {}  {}x{}  {when}  ({name})",
            s.seed, s.preset, s.size.0, s.size.1
        ),
        Some(Err(err)) => {
            let err: String = if err.chars().count() > 48 {
                err.chars().take(47).chain(['…']).collect()
            } else {
                err.clone()
            };
            format!("{name}  ({when})  does not load: {err}")
        }
    }
}

/// Is `path` a save file's name: `*.strata`, or a save's backup `*.strata.bak`?
pub fn is_save_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let name = name.strip_suffix(save::BACKUP_SUFFIX).unwrap_or(&name);
    Path::new(name)
        .extension()
        .is_some_and(|x| x == save::EXTENSION)
}

/// The save files in `dir` and (with `backups`) their backups, newest first (an
/// unreadable folder lists nothing).
pub fn scan(dir: &Path, backups: bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| is_save_name(&e.path()))
                .filter(|e| backups || !e.path().to_string_lossy().ends_with(save::BACKUP_SUFFIX))
                .filter_map(|e| {
                    let m = e.metadata().ok()?;
                    m.is_file().then(|| Entry {
                        path: e.path(),
                        modified: m.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                        summary: None,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
    out
}

/// The load list: the entries and the thread filling in their summaries.
pub struct LoadList {
    pub entries: Vec<Entry>,
    pub selected: usize,
    rx: Option<Receiver<(usize, Result<Summary, String>)>>,
}

impl LoadList {
    /// Lists `dir` and starts reading the saves and their backups, newest first (their
    /// items `cat`'s).
    pub fn open(dir: &Path, cat: &std::sync::Arc<crate::content::items::Catalog>) -> LoadList {
        LoadList::open_with(dir, cat, true)
    }

    /// Lists the worlds saved in `dir` (their saves, not the backups), newest first: the
    /// start screen's list.
    pub fn worlds(dir: &Path, cat: &std::sync::Arc<crate::content::items::Catalog>) -> LoadList {
        LoadList::open_with(dir, cat, false)
    }

    fn open_with(
        dir: &Path,
        cat: &std::sync::Arc<crate::content::items::Catalog>,
        backups: bool,
    ) -> LoadList {
        let entries = scan(dir, backups);
        let cat = std::sync::Arc::clone(cat);
        let paths: Vec<PathBuf> = entries.iter().map(|e| e.path.clone()).collect();
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("strata-saves".into())
            .spawn(move || {
                for (i, p) in paths.into_iter().enumerate() {
                    // The list names the file; the reason alone follows it.
                    let s = save::load(&p, &cat)
                        .map(|(w, _)| Summary::of(&w))
                        .map_err(|e| e.to_string());
                    if tx.send((i, s)).is_err() {
                        return; // The list was closed.
                    }
                }
            });
        LoadList {
            entries,
            selected: 0,
            rx: spawned.ok().map(|_| rx),
        }
    }

    /// Takes the summaries read since the last call; returns how many arrived.
    pub fn poll(&mut self) -> usize {
        let Some(rx) = &self.rx else { return 0 };
        let mut n = 0;
        while let Ok((i, s)) = rx.try_recv() {
            if let Some(e) = self.entries.get_mut(i) {
                e.summary = Some(s);
                n += 1;
            }
        }
        n
    }

    pub fn up(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    pub fn down(&mut self) {
        self.selected = (self.selected + 1).min(self.entries.len().saturating_sub(1));
    }

    /// The save at position `i`, if any.
    pub fn path(&self, i: usize) -> Option<&Path> {
        self.entries.get(i).map(|e| e.path.as_path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::save::PlayerState;
    use std::time::Duration;

    #[test]
    fn ages_read_like_people_say_them() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let after = |s: u64| t + Duration::from_secs(s);
        assert_eq!(age(t, after(5)), "just now");
        assert_eq!(age(t, after(300)), "5 min ago");
        assert_eq!(age(t, after(3 * 3600 + 5)), "3 h ago");
        assert_eq!(age(t, after(30 * 3600)), "1 day ago");
        assert_eq!(age(t, after(9 * 86_400)), "9 days ago");
        assert_eq!(age(after(60), t), "just now", "a clock that went back");
    }

    #[test]
    fn thumbnails_keep_the_aspect_and_the_palette() {
        let w = World::from_ascii(&["        ", "~~~~####", "########", "########"]).unwrap();
        let (tw, th, px) = thumbnail(&w);
        assert_eq!((tw, th, px.len()), (8, 4, 8 * 4 * 4));
        assert_eq!(px[4..8], crate::store::export::pixel(&w, 1, 0));
        assert_eq!(px[8 * 4..8 * 4 + 4], crate::world::Tile::Water.color());
        let preset = crate::content::preset::Preset {
            width: 400,
            height: 100,
            ..Default::default()
        };
        let (big, _) = crate::worldgen::generate(&preset, 1);
        let (tw, th, px) = thumbnail(&big);
        assert_eq!((tw, th, px.len()), (THUMB_W, 24, THUMB_W * 24 * 4));
    }

    #[test]
    fn a_world_past_the_wall_says_so_in_its_line() {
        let mut w = World::from_ascii(&["        "; 8]).unwrap();
        let entry = |w: &World| Entry {
            path: PathBuf::from("w.strata"),
            modified: SystemTime::UNIX_EPOCH,
            summary: Some(Ok(Summary::of(w))),
        };
        let now = SystemTime::UNIX_EPOCH;
        assert!(!describe(&entry(&w), now).contains('['));
        w.progress.eye_defeated = 1;
        w.progress.wall_defeated = 1;
        let line = describe(&entry(&w), now);
        assert!(line.contains("[past the Wall, the Eye]"), "{line}");
    }

    #[test]
    fn the_list_is_newest_first_and_names_every_world() {
        let dir = std::env::temp_dir().join(format!("strata-loadlist-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let cat = std::sync::Arc::new(crate::content::items::Catalog::builtin().unwrap());
        let player = PlayerState::new((2.0, 2.0), &cat);
        let mut w = World::from_ascii(&["        "; 8]).unwrap();
        let stamp = |p: &Path, s: u64| {
            std::fs::File::options()
                .write(true)
                .open(p)
                .unwrap()
                .set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(s))
                .unwrap();
        };
        for (name, seed, t) in [("a.strata", 11, 100), ("b.strata", 22, 300)] {
            w.seed = seed;
            save::save(&dir.join(name), &w, &player).unwrap();
            stamp(&dir.join(name), t);
        }
        std::fs::write(dir.join("c.strata"), b"garbage").unwrap();
        stamp(&dir.join("c.strata"), 200);
        std::fs::write(dir.join("notes.txt"), b"not a save").unwrap();
        std::fs::write(dir.join("notes.bak"), b"not a save's backup").unwrap();
        // A backup is listed as a save of its own.
        std::fs::copy(dir.join("a.strata"), dir.join("a.strata.bak")).unwrap();
        stamp(&dir.join("a.strata.bak"), 50);
        let mut list = LoadList::open(&dir, &cat);
        let names: Vec<_> = list.entries.iter().map(|e| e.path.clone()).collect();
        assert_eq!(
            names,
            ["b.strata", "c.strata", "a.strata", "a.strata.bak"].map(|n| dir.join(n))
        );
        let start = std::time::Instant::now();
        let mut got = 0;
        while got < 4 && start.elapsed() < Duration::from_secs(20) {
            got += list.poll();
            std::thread::sleep(Duration::from_millis(2));
        }
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(400);
        let lines: Vec<String> = list.entries.iter().map(|e| describe(e, now)).collect();
        assert!(lines[0].starts_with("seed 22  "), "{}", lines[0]);
        assert!(lines[0].contains("8x8") && lines[0].contains("1 min ago"));
        assert!(
            lines[1].ends_with("does not load: not a Strata save"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("seed 11  "));
        assert!(
            lines[3].starts_with("seed 11  ") && lines[3].ends_with("(a.strata.bak)"),
            "{}",
            lines[3]
        );
        assert!(matches!(&list.entries[0].summary, Some(Ok(s)) if s.thumb.0 == 8));
        for _ in 0..5 {
            list.down();
        }
        assert_eq!(list.selected, 3);
        list.up();
        assert_eq!(
            list.path(list.selected),
            Some(dir.join("a.strata").as_path())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
