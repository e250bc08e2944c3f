//! Characters apart from worlds: a character ([`Sheet`]: its name, what it carries and
//! wears, its health, and its place in each world it has been in) in a file of its own,
//! JSON, one a name in a folder. The window's characters are in the characters folder
//! ([`crate::base::paths::Folders::characters`]); a server's are beside its save
//! (`<save>.characters`), each with its password's lock (salt and hash), in the same
//! format. A file is written atomically, the one it replaces kept as its backup
//! (`name.json.bak`), as a world's save is ([`crate::store::save::replace_keeping_backup`]).
//!
//! A character walks into any world: what it carries goes with it, and its place (where it
//! stood, the bed it last used, the time played there) is kept per world, by the world's
//! identity ([`crate::world::World::id`]); in a world it was never in it starts at that
//! world's spawn point. A server's file from before worlds were kept has none: its
//! `character` holds its place in the server's world, as it always did.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Bytes a character file may have.
pub const MAX_FILE: u64 = 64 * 1024;
/// Most letters of a character's name.
pub const MAX_NAME: usize = 24;
/// Most worlds a character keeps its place in: past them the one it played least in
/// (a world made by R and left at once, the lab's) is forgotten, so a character that
/// walks through thousands of worlds still fits its file.
pub const MAX_PLACES: usize = 200;
/// The extension of a character's file.
pub const EXTENSION: &str = "json";

/// What a character carries and wears, its health, and where it stands (and the bed it
/// last used) in the world it is in: what a server tells its player, and the heart of a
/// character's file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Character {
    pub slots: Vec<Option<(String, u32)>>,
    pub selected: u32,
    pub armour: Vec<Option<String>>,
    pub health: f32,
    pub pos: (f32, f32),
    /// The most health (life crystals raise it); a character file from before it was kept
    /// has the usual most.
    #[serde(default = "usual_most_health")]
    pub max_health: f32,
    /// The bed the player last used (its spawn point), if any.
    #[serde(default)]
    pub bed: Option<(u32, u32)>,
    /// The accessories worn, by name, slot by slot; a character file from before them
    /// wears none.
    #[serde(default)]
    pub accessories: Vec<Option<String>>,
    /// The most mana (mana crystals raise it); a character file from before it was kept
    /// has a new player's.
    #[serde(default = "usual_most_mana")]
    pub max_mana: u32,
    /// The piggy bank's slots, by name (the same from every piggy bank in every world);
    /// a character file from before it was kept has an empty bank.
    #[serde(default)]
    pub bank: Vec<Option<(String, u32)>>,
}

impl Character {
    /// What it carries, each item once with its count over every slot, by name:
    /// `dirt 12, torch 3` (the log's words for it).
    pub fn carried(&self) -> String {
        let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
        for (name, n) in self.slots.iter().flatten() {
            *counts.entry(name.as_str()).or_default() += u64::from(*n);
        }
        let words: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        words.join(", ")
    }
}

fn usual_most_health() -> f32 {
    crate::sim::vitals::MAX_HEALTH
}

fn usual_most_mana() -> u32 {
    crate::sim::mana::START
}

/// A character's place in one world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// Feet centre, tiles.
    pub pos: (f32, f32),
    /// The bed it last used there (its spawn point in that world), if any.
    #[serde(default)]
    pub bed: Option<(u32, u32)>,
    /// Seconds played there.
    #[serde(default)]
    pub played: f64,
}

/// A character's file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sheet {
    pub name: String,
    /// On a server, hex of the salt and of the password's Argon2id hash (never the
    /// password); empty for the window's own characters.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub salt: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hash: String,
    /// What it carries, and its place in the world it was last in.
    pub character: Character,
    /// Its place in each world it has been in, by the world's identity in hex
    /// ([`world_key`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub worlds: BTreeMap<String, Place>,
}

/// The key of the world of identity `id` in [`Sheet::worlds`]: 16 hex digits, as its
/// save's name has them.
pub fn world_key(id: u64) -> String {
    format!("{id:016x}")
}

impl Sheet {
    /// A new character `name` as `character` has it, standing in world `world`: how a
    /// player from a save (before characters were kept apart) becomes a character.
    pub fn new(name: &str, character: Character, world: u64) -> Sheet {
        let mut sheet = Sheet {
            name: name.to_string(),
            salt: String::new(),
            hash: String::new(),
            character: character.clone(),
            worlds: BTreeMap::new(),
        };
        sheet.keep(character, world, 0.0);
        sheet
    }

    /// A character just made, called `name`, that has been in no world yet: the first
    /// world it walks into gives it its player (see `crate::net::chars::enter`).
    pub fn blank(name: &str) -> Sheet {
        let most = crate::sim::vitals::MAX_HEALTH;
        Sheet {
            name: name.to_string(),
            salt: String::new(),
            hash: String::new(),
            character: Character {
                slots: Vec::new(),
                selected: 0,
                armour: Vec::new(),
                health: most,
                pos: (0.0, 0.0),
                max_health: most,
                bed: None,
                accessories: Vec::new(),
                max_mana: crate::sim::mana::START,
                bank: Vec::new(),
            },
            worlds: BTreeMap::new(),
        }
    }

    /// Takes `character` as it now is in world `world`, after `played` more seconds there.
    pub fn keep(&mut self, character: Character, world: u64, played: f64) {
        let before = self.worlds.get(&world_key(world)).map_or(0.0, |p| p.played);
        let place = Place {
            pos: character.pos,
            bed: character.bed,
            played: before + played.max(0.0),
        };
        self.worlds.insert(world_key(world), place);
        while self.worlds.len() > MAX_PLACES {
            let least = (self.worlds.iter())
                .filter(|(k, _)| **k != world_key(world))
                .min_by(|a, b| a.1.played.total_cmp(&b.1.played))
                .map(|(k, _)| k.clone());
            match least {
                Some(k) => self.worlds.remove(&k),
                None => break,
            };
        }
        self.character = character;
    }

    /// Its place in world `world`, if it has been there.
    pub fn place(&self, world: u64) -> Option<&Place> {
        self.worlds.get(&world_key(world))
    }

    /// Seconds played, in every world.
    pub fn played(&self) -> f64 {
        self.worlds.values().map(|p| p.played).sum()
    }

    /// What it carries in world `world`: its place there when it has been there, else
    /// `arrival` (a new world's spawn point, or where a save of it had its player).
    pub fn in_world(&self, world: u64, arrival: ((f32, f32), Option<(u32, u32)>)) -> Character {
        let (pos, bed) = match self.place(world) {
            Some(p) => (p.pos, p.bed),
            None => arrival,
        };
        Character {
            pos,
            bed,
            ..self.character.clone()
        }
    }
}

/// Is `name` one a character may have: 1 to [`MAX_NAME`] letters, digits, `_`, `-` or
/// spaces inside? (It names the character's file too: no other character may.)
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=MAX_NAME).contains(&n)
        && name.trim() == name
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ')
}

/// The file of character `name` in `dir`: `name.json`, lower case, spaces as `_`.
pub fn file_of(dir: &Path, name: &str) -> PathBuf {
    let stem: String = name
        .chars()
        .map(|c| {
            if c == ' ' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    dir.join(format!("{stem}.{EXTENSION}"))
}

/// Reads a character's file (at most [`MAX_FILE`] bytes); the error names the file, and
/// the line and column where it is wrong.
pub fn read(path: &Path) -> Result<Sheet, CharacterError> {
    let bytes =
        crate::base::fsio::read_bounded(path, MAX_FILE).map_err(|e| CharacterError::Unread {
            path: path.to_path_buf(),
            why: e.to_string(),
        })?;
    serde_json::from_slice(&bytes).map_err(|e| CharacterError::Invalid {
        path: path.to_path_buf(),
        at: (e.line(), e.column()),
        why: e.to_string(),
    })
}

/// Why a character's file was not read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CharacterError {
    /// The file cannot be read (missing, too big, not allowed): its path and why.
    Unread { path: PathBuf, why: String },
    /// The file is not a character's: where (line, column) and why.
    Invalid {
        path: PathBuf,
        at: (usize, usize),
        why: String,
    },
    /// The name is not one a character may have.
    BadName(String),
    /// The character would be over [`MAX_FILE`] bytes (its name).
    TooBig(String),
    /// The file was not written: why.
    Unwritten(String),
}

impl std::fmt::Display for CharacterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CharacterError::Unread { path, why } => write!(f, "{}: {why}", path.display()),
            CharacterError::Invalid { path, at, why } => {
                write!(f, "{}:{}:{}: {why}", path.display(), at.0, at.1)
            }
            CharacterError::BadName(name) => {
                write!(f, "{name:?} is not a name a character may have")
            }
            CharacterError::TooBig(name) => {
                write!(f, "{name}'s character is over {MAX_FILE} bytes")
            }
            CharacterError::Unwritten(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CharacterError {}

/// Writes `sheet` to its file in `dir` ([`file_of`]), atomically, the file it replaces
/// kept as its backup when that one reads as a character; returns the file's path.
pub fn write(dir: &Path, sheet: &Sheet) -> Result<PathBuf, CharacterError> {
    let name = &sheet.name;
    if !valid_name(name) {
        return Err(CharacterError::BadName(name.clone()));
    }
    let text = serde_json::to_string_pretty(sheet)
        .map_err(|e| CharacterError::Unwritten(e.to_string()))?;
    if text.len() as u64 > MAX_FILE {
        return Err(CharacterError::TooBig(name.clone()));
    }
    let path = file_of(dir, name);
    let whole = |b: &[u8]| serde_json::from_slice::<Sheet>(b).is_ok();
    crate::store::save::replace_keeping_backup(&path, text.as_bytes(), MAX_FILE, whole)
        .map_err(|e| CharacterError::Unwritten(e.to_string()))?;
    Ok(path)
}

/// One character's file in a folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub path: PathBuf,
    /// When it was last written: when the character was last played.
    pub modified: SystemTime,
    /// The character, or why its file does not read.
    pub sheet: Result<Sheet, CharacterError>,
}

/// The characters' files in `dir` (not their backups), the most recently played first
/// (an unreadable or missing folder lists none).
pub fn list(dir: &Path) -> Vec<Listed> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Listed> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION) && p.is_file())
        .map(|path| Listed {
            modified: std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH),
            sheet: read(&path),
            path,
        })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn carrying(dirt: u32, pos: (f32, f32)) -> Character {
        Character {
            slots: vec![Some(("dirt".into(), dirt)), None],
            selected: 0,
            armour: vec![None, None, None],
            health: 80.0,
            pos,
            max_health: 120.0,
            max_mana: 60,
            bank: Vec::new(),
            bed: None,
            accessories: Vec::new(),
        }
    }

    #[test]
    fn a_character_keeps_its_place_in_each_world_and_carries_the_rest() {
        let mut s = Sheet::new("Ann", carrying(3, (10.0, 20.0)), 0xa);
        s.keep(carrying(5, (11.0, 21.0)), 0xa, 30.0);
        s.keep(carrying(7, (40.0, 9.0)), 0xb, 12.0);
        let spawn = ((99.0, 5.0), None);
        // Back in the first world: where it stood there, carrying what it has now.
        let in_a = s.in_world(0xa, spawn);
        assert_eq!(
            (in_a.pos, in_a.slots[0].clone()),
            ((11.0, 21.0), Some(("dirt".into(), 7)))
        );
        // A world it never was in: its spawn point.
        assert_eq!(s.in_world(0xc, spawn).pos, (99.0, 5.0));
        assert_eq!(s.place(0xa).map(|p| p.played), Some(30.0));
        assert_eq!(s.played(), 42.0);
        // Past MAX_PLACES worlds, the one played least goes, never the one it is in.
        for w in 0..MAX_PLACES as u64 {
            s.keep(carrying(7, (1.0, 1.0)), 0x100 + w, 1.0);
        }
        assert_eq!(s.worlds.len(), MAX_PLACES);
        let text = serde_json::to_string_pretty(&s).unwrap();
        assert!(text.len() < MAX_FILE as usize / 2, "{} bytes", text.len());
        assert!(s.place(0xa).is_some() && s.place(0xb).is_some() && s.place(0x100).is_none());
        s.keep(carrying(7, (1.0, 1.0)), 0xd, 0.0);
        assert!(s.place(0xd).is_some() && s.place(0x101).is_none());
        let mut c = carrying(2, (0.0, 0.0));
        c.slots.push(Some(("dirt".into(), 4)));
        c.slots.push(Some(("acorn".into(), 1)));
        assert_eq!(c.carried(), "acorn 1, dirt 6");
    }

    #[test]
    fn a_file_is_written_with_a_backup_and_a_servers_file_of_before_still_reads() {
        let dir = std::env::temp_dir().join(format!("strata-chars-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = Sheet::new("Ann Lee", carrying(3, (1.0, 2.0)), 1);
        let path = write(&dir, &s).unwrap();
        assert_eq!(path, dir.join("ann_lee.json"));
        s.keep(carrying(4, (1.0, 2.0)), 1, 5.0);
        write(&dir, &s).unwrap();
        assert_eq!(read(&path).unwrap(), s);
        let bak = crate::store::save::backup_path(&path);
        assert_eq!(
            read(&bak).unwrap().character.slots[0],
            Some(("dirt".into(), 3))
        );
        // Listed without its backup; a broken file is listed with why.
        std::fs::write(dir.join("bad.json"), "{\"name\": 3}").unwrap();
        let listed = list(&dir);
        assert_eq!(listed.len(), 2);
        let bad = listed
            .iter()
            .find(|l| l.path.ends_with("bad.json"))
            .unwrap();
        let e = bad.sheet.as_ref().unwrap_err();
        assert!(
            matches!(e, CharacterError::Invalid { at: (1, _), .. }),
            "{bad:?}"
        );
        assert!(e.to_string().contains("bad.json:1:"), "{bad:?}");
        // A server's character file as servers wrote it before worlds were kept.
        let old = r#"{"name": "Bo", "salt": "00ff", "hash": "abcd", "character":
            {"slots": [null], "selected": 0, "armour": [null, null, null],
             "health": 50.0, "pos": [3.5, 4.0]}}"#;
        let got: Sheet = serde_json::from_str(old).unwrap();
        assert_eq!(
            (got.salt.as_str(), got.character.max_health),
            ("00ff", 100.0)
        );
        assert!(got.worlds.is_empty() && got.character.bed.is_none());
        assert!(
            got.character.accessories.is_empty(),
            "a file from before accessories"
        );
        // And a server's file written now has the same fields, in the same order.
        let again = serde_json::to_string(&got).unwrap();
        assert!(again.starts_with(r#"{"name":"Bo","salt":"00ff","hash":"abcd","character":"#));
        assert!(!again.contains("worlds"));
        // Names that could reach outside the folder are refused.
        s.name = "../x".into();
        assert_eq!(write(&dir, &s), Err(CharacterError::BadName("../x".into())));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
