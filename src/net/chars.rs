//! The characters a server keeps ([`Characters`]): each player's inventory, armour, health
//! and place, under its name, with an Argon2 hash of its password (never the password), one
//! file a name in a folder beside the world's save, in the format of every character's
//! file ([`crate::store::character`]: the window's characters are the same, without the
//! lock), written atomically with a backup. And a character as a session's player
//! ([`state_of`], [`state_in`]) and back ([`protocol::character_of`]).

use crate::content::items::Catalog;
use crate::net::protocol::{self, Character};
use crate::sim::session::PlayerState;
use crate::store::character::{self as file, Sheet};
use crate::world::chest::{BANK_SLOTS, Bank};
use crate::world::inventory::{ACCESSORY_SLOTS, Inventory, SLOTS};
use std::path::PathBuf;

pub use crate::store::character::{MAX_FILE, valid_name};

/// One stored character: a character's file, with its password's lock.
pub type Stored = Sheet;

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

/// A character as a session's player, its items `cat`'s.
pub fn state_of(
    cat: &std::sync::Arc<crate::content::items::Catalog>,
    c: &Character,
    time_of_day: f32,
) -> Option<PlayerState> {
    let slots = protocol::slots_in::<SLOTS>(cat, &c.slots)?;
    let mut worn = [None; 3];
    for (w, a) in worn.iter_mut().zip(&c.armour) {
        *w = a.as_ref().and_then(|n| cat.id(n));
    }
    let mut extra = [None; ACCESSORY_SLOTS];
    for (w, a) in extra.iter_mut().zip(&c.accessories) {
        *w = a.as_ref().and_then(|n| cat.id(n));
    }
    let inventory = Inventory::from_parts(cat, slots, c.selected as usize)?
        .with_armour(worn)?
        .with_accessories(extra)?;
    let usual = crate::sim::vitals::MAX_HEALTH;
    let max_health = if c.max_health.is_finite() {
        c.max_health
            .clamp(usual, crate::sim::vitals::HIGHEST_HEALTH)
    } else {
        usual
    };
    let health = if c.health.is_finite() {
        c.health.clamp(1.0, max_health)
    } else {
        max_health
    };
    let pos = (c.pos.0.is_finite() && c.pos.1.is_finite()).then_some(c.pos)?;
    Some(PlayerState {
        pos,
        inventory,
        health,
        max_health,
        time_of_day,
        town: Vec::new(),
        bed: c.bed.map(|(x, y)| (x as usize, y as usize)),
        max_mana: c
            .max_mana
            .clamp(crate::sim::mana::START, crate::sim::mana::HIGHEST),
        bank: bank_of(cat, &c.bank)?,
    })
}

/// A character's piggy bank from its slots by name: none written is an empty bank; a
/// stack this build cannot give (an unknown item, a count over its stack) is `None`.
fn bank_of(cat: &Catalog, slots: &[Option<(String, u32)>]) -> Option<Bank> {
    if slots.is_empty() {
        return Some(Bank::empty());
    }
    if slots.len() != BANK_SLOTS
        || slots.iter().flatten().any(|(name, n)| {
            cat.id(name)
                .is_none_or(|id| *n == 0 || *n > cat.item(id).stack)
        })
    {
        return None;
    }
    Bank::from_slots(cat, protocol::slots_in::<BANK_SLOTS>(cat, slots)?)
}

impl Characters {
    pub fn new(dir: PathBuf) -> Characters {
        Characters { dir }
    }

    /// The file of `name` ([`file::file_of`]).
    pub fn path(&self, name: &str) -> PathBuf {
        file::file_of(&self.dir, name)
    }

    /// The character of `name` if `password` is its password; `Ok(None)` for a name
    /// never seen.
    pub fn get(&self, name: &str, password: &str) -> Result<Option<Character>, Denied> {
        let path = self.path(name);
        if !path.exists() {
            return Ok(None);
        }
        let stored = file::read(&path).map_err(|e| Denied::Broken(e.to_string()))?;
        let salt = unhex(&stored.salt)
            .ok_or_else(|| Denied::Broken(format!("{}: field salt: not hex", path.display())))?;
        if hex(&hash_password(password, &salt)) != stored.hash {
            return Err(Denied::WrongPassword);
        }
        Ok(Some(stored.character))
    }

    /// Keeps `character` under `name` and `password` (a new salt each time), atomically.
    pub fn put(&self, name: &str, password: &str, character: &Character) -> Result<(), String> {
        self.put_stored(&sealed(name, password, character))
    }

    /// Keeps a character as stored (its password already hashed), atomically: what a
    /// server's journal holds of it, written back after a crash.
    pub fn put_stored(&self, stored: &Stored) -> Result<(), String> {
        file::write(&self.dir, stored)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// `character` under `name`, its `password` hashed with a new salt.
pub fn sealed(name: &str, password: &str, character: &Character) -> Stored {
    let salt = renet_netcode::generate_random_bytes::<16>();
    Stored {
        name: name.to_string(),
        salt: hex(&salt),
        hash: hex(&hash_password(password, &salt)),
        character: character.clone(),
        worlds: Default::default(),
    }
}

/// Character `sheet` walks into world `world`, whose own player (from its save, or a new
/// one at its spawn point) is `base`: the player it is there ([`state_in`]). A character
/// that has been in no world yet (just made) takes `base` as its own first: so the player
/// of a save from before characters, the first world a new character picks, becomes that
/// character, with all it carried, and a new character in a new world has the starting
/// kit.
pub fn enter(sheet: &mut Sheet, world: u64, base: &PlayerState) -> Option<PlayerState> {
    if sheet.worlds.is_empty() {
        *sheet = Sheet {
            salt: std::mem::take(&mut sheet.salt),
            hash: std::mem::take(&mut sheet.hash),
            ..Sheet::new(&sheet.name, protocol::character_of(base), world)
        };
    }
    state_in(sheet, world, base)
}

/// Character `sheet` as the player of world `world`, whose own player (from its save, or
/// a new one at its spawn point) is `base`: what it carries and its health from the
/// character, where it stands and its bed from its place in that world when it has been
/// there, else `base`'s; the time of day and the town are the world's. `None` when the
/// character holds what this build cannot give (an unknown item, a stack over its size).
pub fn state_in(sheet: &Sheet, world: u64, base: &PlayerState) -> Option<PlayerState> {
    let bed = base.bed.map(|(x, y)| (x as u32, y as u32));
    let c = sheet.in_world(world, (base.pos, bed));
    let mut state = state_of(base.inventory.catalog(), &c, base.time_of_day)?;
    state.town = base.town.clone();
    Some(state)
}

/// Puts `own` into `seat` (and its open chest's slots into `world`); false, and nothing
/// changed, when it does not fit (an unknown item, a count over a stack, a chest outside
/// the world). The hotbar's selection stays the seat's (the window chooses it).
pub fn put_own(
    own: &protocol::Own,
    seat: &mut crate::sim::session::Seat,
    world: &mut crate::world::World,
) -> bool {
    let cat = std::sync::Arc::clone(seat.inventory.catalog());
    let Some(state) = state_of(&cat, &own.character, 0.0) else {
        return false;
    };
    let held = match &own.held {
        None => None,
        Some((name, count)) => match cat.id(name) {
            Some(item) if *count > 0 && *count <= cat.item(item).stack => {
                Some(crate::world::inventory::Stack {
                    item,
                    count: *count,
                })
            }
            _ => return false,
        },
    };
    let chest = match &own.chest {
        None => None,
        Some(c) => {
            let (x, y) = (c.x as usize, c.y as usize);
            if x >= world.width() || y >= world.height() {
                return false;
            }
            // A piggy bank open shows the character's bank, which came with it.
            if world.tile(x, y) == crate::world::Tile::PiggyBank {
                Some(((x, y), None))
            } else {
                let Some(chest) =
                    protocol::slots_in::<{ crate::world::chest::CHEST_SLOTS }>(&cat, &c.slots)
                        .and_then(|s| crate::world::chest::Chest::from_slots(&cat, s))
                else {
                    return false;
                };
                Some(((x, y), Some(chest)))
            }
        }
    };
    let selected = seat.inventory.selected();
    seat.inventory = state.inventory;
    seat.inventory.select(selected);
    seat.vitals.health = state.health;
    seat.vitals.max_health = state.max_health;
    seat.mana = crate::sim::mana::Mana::full(own.mana.1);
    seat.mana.now = own.mana.0.clamp(0.0, seat.mana.most as f32);
    seat.vitals.defence = seat.inventory.defence();
    seat.bed = state.bed;
    seat.held = held;
    // A seller this build does not know leaves the shop closed.
    seat.shop = own
        .shop
        .as_deref()
        .and_then(|n| crate::sim::npc::NAMES.iter().copied().find(|m| *m == n));
    seat.bank = state.bank;
    seat.chest = chest.as_ref().map(|(at, _)| *at);
    if let Some(((x, y), Some(chest))) = chest {
        world.chests.insert(x, y, chest);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::session::{PlayerId, Session};
    use crate::world::Tile;
    use crate::world::inventory::Stack;

    #[test]
    fn a_players_own_state_goes_into_another_seat_but_for_the_selection() {
        let p = crate::content::preset::Preset {
            width: 150,
            height: 100,
            ..Default::default()
        };
        let world = crate::worldgen::generate(&p, 7).0;
        let mut s = Session::new(world.clone());
        let cat = std::sync::Arc::clone(&s.content.catalog);
        let gel = cat.id("gel").unwrap();
        s.world.set(5, 39, Tile::Chest);
        s.world.chests.open(5, 39).add(&cat, gel, 7);
        let me = &mut s.players[0];
        me.chest = Some((5, 39));
        me.held = Some(Stack {
            item: gel,
            count: 3,
        });
        me.shop = Some("Dryad");
        me.inventory.add(gel, 2);
        let boots = cat.id("hermes_boots");
        me.inventory = me
            .inventory
            .clone()
            .with_accessories([None, boots, None, None, None])
            .unwrap();
        let own = protocol::own_of(&s, PlayerId(0), 42);
        let msg = protocol::ToClient::Me(own.clone());
        let back = protocol::decode::<protocol::ToClient>(&protocol::encode(&msg));
        assert_eq!(back, Ok(msg), "the answer round-trips");
        let mut other = Session::new(world);
        other.world.set(5, 39, Tile::Chest);
        other.players[0].inventory.select(4);
        assert!(put_own(&own, &mut other.players[0], &mut other.world));
        let (a, b) = (&other.players[0], &s.players[0]);
        assert_eq!((a.held, a.chest, a.shop), (b.held, b.chest, b.shop));
        assert_eq!(a.inventory.slots(), b.inventory.slots());
        assert_eq!(
            a.inventory.accessories()[1],
            boots,
            "the accessories worn come too"
        );
        assert_eq!(other.world.chests.get(5, 39), s.world.chests.get(5, 39));
        assert_eq!(
            a.inventory.selected(),
            4,
            "the selection stays the window's"
        );
        // A count over the stack is refused, and nothing changes.
        let mut bad = own.clone();
        bad.held = Some(("gel".into(), 1_000_000));
        let before = other.players[0].clone();
        assert!(!put_own(&bad, &mut other.players[0], &mut other.world));
        assert_eq!(other.players[0], before);
    }
}
