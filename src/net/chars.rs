//! The characters a server keeps ([`Characters`]): each player's inventory, armour, health
//! and place, under its name, with an Argon2 hash of its password (never the password), one
//! JSON file a name in a folder beside the world's save, written atomically.

use crate::net::protocol::{self, Character};
use crate::sim::session::PlayerState;
use crate::world::inventory::{Inventory, SLOTS};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Bytes a character file may have.
pub const MAX_FILE: u64 = 64 * 1024;

/// One stored character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    pub name: String,
    /// Hex of the salt and of the password's Argon2id hash.
    pub salt: String,
    pub hash: String,
    pub character: Character,
}

/// The characters of one server, in `dir`.
#[derive(Clone, Debug)]
pub struct Characters {
    pub dir: PathBuf,
}

/// Why a player may not have its character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Denied {
    WrongPassword,
    /// The file is there but unreadable (named, with why).
    Broken(String),
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The Argon2id hash of `password` with `salt` (4 MiB, 2 passes: a few milliseconds, so a
/// flood of joins cannot stall a tick for long).
pub fn hash_password(password: &str, salt: &[u8]) -> Vec<u8> {
    let params = argon2::Params::new(4096, 2, 1, Some(32)).unwrap_or_default();
    let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = vec![0u8; 32];
    // The salt is 16 bytes and the output 32, both within Argon2's bounds.
    let _ = a.hash_password_into(password.as_bytes(), salt, &mut out);
    out
}

/// Is `name` one a player may have: 1 to [`protocol::MAX_NAME`] letters, digits, `_`,
/// `-` or spaces inside?
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=protocol::MAX_NAME).contains(&n)
        && name.trim() == name
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ' ')
}

/// A character as a session's player.
pub fn state_of(c: &Character, time_of_day: f32) -> Option<PlayerState> {
    let slots = protocol::slots_in::<SLOTS>(&c.slots)?;
    let cat = crate::content::items::catalog();
    let mut worn = [None; 3];
    for (w, a) in worn.iter_mut().zip(&c.armour) {
        *w = a.as_ref().and_then(|n| cat.id(n));
    }
    let inventory = Inventory::from_parts(slots, c.selected as usize)?.with_armour(worn)?;
    let health = if c.health.is_finite() {
        c.health.clamp(1.0, crate::sim::vitals::MAX_HEALTH)
    } else {
        crate::sim::vitals::MAX_HEALTH
    };
    let pos = (c.pos.0.is_finite() && c.pos.1.is_finite()).then_some(c.pos)?;
    Some(PlayerState {
        pos,
        inventory,
        health,
        time_of_day,
    })
}

impl Characters {
    pub fn new(dir: PathBuf) -> Characters {
        Characters { dir }
    }

    /// The file of `name` (lower case, spaces as `_`).
    pub fn path(&self, name: &str) -> PathBuf {
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
        self.dir.join(format!("{stem}.json"))
    }

    /// The character of `name` if `password` is its password; `Ok(None)` for a name
    /// never seen.
    pub fn get(&self, name: &str, password: &str) -> Result<Option<Character>, Denied> {
        let path = self.path(name);
        if !path.exists() {
            return Ok(None);
        }
        let stored = read(&path).map_err(Denied::Broken)?;
        let salt = unhex(&stored.salt)
            .ok_or_else(|| Denied::Broken(format!("{}: field salt: not hex", path.display())))?;
        if hex(&hash_password(password, &salt)) != stored.hash {
            return Err(Denied::WrongPassword);
        }
        Ok(Some(stored.character))
    }

    /// Keeps `character` under `name` and `password` (a new salt each time), atomically.
    pub fn put(&self, name: &str, password: &str, character: &Character) -> Result<(), String> {
        let salt = renet_netcode::generate_random_bytes::<16>();
        let stored = Stored {
            name: name.to_string(),
            salt: hex(&salt),
            hash: hex(&hash_password(password, &salt)),
            character: character.clone(),
        };
        let text = serde_json::to_string_pretty(&stored).map_err(|e| e.to_string())?;
        crate::base::fsio::write_file_in_new_folder(&self.path(name), |f| {
            f.write_all(text.as_bytes())
        })
    }
}

fn read(path: &Path) -> Result<Stored, String> {
    let bytes = crate::base::fsio::read_bounded(path, MAX_FILE)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))
}
