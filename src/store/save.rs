//! Save files: the world (tiles, surface, seed, preset), the player's position and
//! inventory, in a versioned, compact, checksummed format written atomically.
//!
//! Layout (integers little-endian):
//!
//! | field | bytes |
//! |---|---|
//! | magic `b"STRATA\0"` | 7 |
//! | format version | u32 |
//! | width, height | u32, u32 |
//! | seed | u64 |
//! | preset as RON text: length, bytes | u32, n |
//! | player feet x, y (tiles) | f32, f32 |
//! | inventory: slot count n, then per slot the item's name (length byte, 0 for an empty slot, then the bytes) and count | u32, n × (u8, …, u32) |
//! | selected hotbar slot | u8 |
//! | health, time of day (0..1) | f32, f32 |
//! | sections: count, then per section a tag, its length and its bytes | u32, n × (4, u32, …) |
//! | surface row of each column | width × u32 |
//! | tiles: runs, row-major over the whole grid, each one LEB128 of `(length − 1) << 7 \| tile` | … |
//! | FNV-1a 32 of every byte before it | u32 |
//!
//! Packing the tile (7 bits) into the run's varint keeps a run of one tile a single byte
//! and a run of up to 128 two: ore speckles and cave edges are mostly short runs, so this
//! halves a generated world's save against a separate tile byte. Formats 2 to 5 packed it
//! in 5 bits (32 tiles at most); formats 6 and 7 in 6 (the doors, platforms and furniture
//! took Strata past 32 tiles); format 8 in 7 (the mini-biomes' and landmarks' blocks took
//! it past 64).
//!
//! Items are stored by name (config/items.ron), so reordering or adding items never changes
//! what a save holds. Sections hold what not every world has, each tag at most once:
//!
//! | tag | holds |
//! |---|---|
//! | `CHST` | chests: count n, then per chest x, y and its [`CHEST_SLOTS`] slots as the inventory's (u32, n × (u32, u32, slots)), row-major, only chests holding something |
//! | `SEEN` | the explored map ([`Explored`]): LEB128 lengths of its runs of cells, row-major, alternately unseen and seen, the first unseen; always written |
//! | `WRLD` | the world's identity ([`World::id`]): u64; format 5 on, always written |
//! | `ARMR` | the armour worn: head, body and legs as the inventory's slots (3 × (u8, …, u32)), each empty or a piece for that slot; format 6 on, only when something is worn |
//! | `WALL` | the background walls: runs, row-major over the whole grid, each one LEB128 of `(length − 1) << 5 \| wall` ([`Wall`]; `<< 4` in formats 6 and 7, 16 walls at most); format 6 on, always written |
//! | `LIFE` | the most health, raised by life crystals: f32; format 7 on, written when it is not [`MAX_HEALTH`] |
//! | `TOWN` | the town people and their houses: count n, then per person the name (length byte, bytes), feet x, y, anchor x, y, a home flag byte and, when 1, home x, y (u32, n × (u8, …, 4 × f32, u8[, 2 × f32])); format 7 on, written when the session has any |
//! | `BOSS` | the world's story ([`crate::world::progress::Progress`]): times the Eye was defeated, nights begun (u32, u64); format 7 on, only once a night has begun or a boss fallen |
//! | `SPWN` | the player's spawn point, the bed it last used: its tile x, y (u32, u32); format 7 on, only when a bed was used |
//! | `ACCS` | the accessories worn: their five slots as the inventory's (5 × (u8, …, u32)), each empty or an accessory, none twice; format 9 on, only when one is worn |
//! | `ITEM` | items lying in the world: count n, then per item its centre x, y and its stack as a slot (u32, n × (f32, f32, u8, …, u32)); format 7 on, only when some lie there; they load at rest |
//!
//! A world's identity is made with it (at random, see [`crate::world::fresh_id`]) and
//! names its save ([`file_name`]), so a new world of the same seed never writes over
//! another's save or backup. A save from before format 5 has none: [`decode`] gives it its
//! seed, and [`load`] its file's ([`old_id`]): the seed for the name those formats gave a
//! world's save (`world-<seed>.strata`), so such a world saved again replaces its own
//! file, as it did, and is never split into a second one; another name's own, so an old
//! save of another name (`strata gen --save`, a copy) never writes over the world of its
//! seed. Format 5 is format 4 with `WRLD` added, format 6 is format 5 with `ARMR` added and a tile in 6 bits (Strata has more than 32 tiles), format 7 is format 6 with `TOWN`, `LIFE`, `BOSS`, `SPWN` and `ITEM` added (a save without `TOWN` starts the Guide beside the spawn point, homeless, as before),
//! format 8 is format 7 with a tile in 7 bits and a wall in 5 (Strata has more than 64
//! tiles and 16 walls), format 9 is format 8 with `ACCS` added
//! (each a version of its own, so an older Strata says a newer one wrote the file rather
//! than calling the section damage).
//!
//! A save without a `WALL` section (every format before 6) loads with the natural walls its
//! world was made with: generated again from its preset and seed
//! ([`crate::worldgen::natural_walls`]), which costs a load one generation of the world
//! (walls never depend on what the player changed, so they are the walls it had).
//!
//! Version 3 wrote no sections: its chests, if any were placed, load empty, and its
//! explored map loads all seen, as the whole map was on the minimap before maps were kept
//! (a player loses no part of the map they had; only a world made from now on starts
//! dark). A save without a `SEEN` section loads the same way.
//!
//! Version 2 stored the inventory as one count per tile kind (25 then) and no health, time
//! or sections; version 1 (Strata's first 9 tiles) packed the tile in 4 bits and listed 9
//! counts. Both still load: their counts become the blocks those tiles place, beside a new
//! player's tools, at full health in the morning. Tiles are only ever appended, so their
//! bytes mean the same tiles.
//!
//! Decoding trusts nothing: every size is bounded before anything is allocated (the
//! world's size by the preset limits, the preset text by [`MAX_PRESET_TEXT`], the runs by
//! the bytes present), runs must add up to exactly width × height, anything left after the
//! checksum is refused, and the stored preset must have the world's size. The runs are
//! walked once to find the checksum, which is checked before anything is built, then
//! written straight into the new world: a load holds the file and the world, nothing more,
//! and [`load`] reads no more of a file than its header's world size allows.
//! FNV-1a changes whenever any one byte changes (each step is a bijection of the state),
//! so every single-byte corruption is caught.

use crate::base::fsio::ReadError;
use crate::base::fsio::WriteError;
use crate::content::items::{Catalog, MAX_NAME};
use std::sync::Arc;

use crate::content::preset::{self, MAX_FILE_BYTES, Preset};
use crate::world::chest::CHEST_SLOTS;
use crate::world::chest::{Chest, Chests};
use crate::world::dropped::Dropped;
use crate::world::explored::Explored;
use crate::world::inventory::Inventory;
use crate::world::inventory::Stack;
use crate::world::inventory::{ACCESSORY_SLOTS, SLOTS};
use crate::world::{Tile, Wall, World};
use std::fmt;
use std::path::{Path, PathBuf};

/// First bytes of every save.
pub const MAGIC: &[u8; 7] = b"STRATA\0";
/// The format this build writes, and the newest it reads.
pub const VERSION: u32 = 9;
/// Extension of save files.
pub const EXTENSION: &str = "strata";
/// Largest save file read: a worst-case 16384 × 4096 world with a run per tile and a run
/// per wall is 128 MiB, with every chest it may keep full about 63 MiB more.
pub const MAX_SAVE_BYTES: u64 = 256 * 1024 * 1024;
/// Most bytes of preset text a save holds. Written text escapes what the preset file may
/// have held raw (a control character in a raw string becomes up to 6 bytes, a tiny float
/// hundreds of digits), so this is room for any preset file of [`MAX_FILE_BYTES`]; [`save`]
/// checks it, so Strata never writes a save it would refuse.
pub const MAX_PRESET_TEXT: u64 = 8 * MAX_FILE_BYTES;

/// Most chests holding something that a save keeps (generation makes at most one per
/// 64x64 block, a few thousand in the largest world); [`save`] checks it.
pub const MAX_CHESTS: usize = 1 << 16;
/// The chests section's tag.
const CHESTS_TAG: [u8; 4] = *b"CHST";
/// The explored map's tag.
const SEEN_TAG: [u8; 4] = *b"SEEN";
/// The world's identity's tag.
const WORLD_TAG: [u8; 4] = *b"WRLD";
/// The background walls' tag.
const WALLS_TAG: [u8; 4] = *b"WALL";

/// The armour worn's tag.
const ARMOUR_TAG: [u8; 4] = *b"ARMR";
/// The town people's tag.
const TOWN_TAG: [u8; 4] = *b"TOWN";
/// The most health's tag.
const LIFE_TAG: [u8; 4] = *b"LIFE";
/// The world's story's tag.
const BOSS_TAG: [u8; 4] = *b"BOSS";
/// The player's spawn point's tag (the bed it used).
const SPAWN_TAG: [u8; 4] = *b"SPWN";
/// The items lying in the world's tag.
const ITEMS_TAG: [u8; 4] = *b"ITEM";
/// The accessories worn's tag.
const ACCESSORIES_TAG: [u8; 4] = *b"ACCS";
/// The most mana's tag (written only when mana crystals raised it).
const MANA_TAG: [u8; 4] = *b"MANA";
/// Most town people a save keeps.
pub const MAX_TOWN: usize = crate::sim::npc::NAMES.len();
/// The first format whose worlds have an identity (`WRLD`).
const IDENTITY_VERSION: u32 = 5;

/// The sections format `version` may hold: none before 4, `WRLD` from 5 on, `ARMR` and
/// `WALL` from 6 on, `TOWN`, `LIFE`, `BOSS`, `SPWN` and `ITEM` from 7 on, `ACCS` and `MANA`
/// from 9 on.
fn tags_of(version: u32) -> &'static [[u8; 4]] {
    match version {
        ..=3 => &[],
        4 => &[CHESTS_TAG, SEEN_TAG],
        5 => &[CHESTS_TAG, SEEN_TAG, WORLD_TAG],
        6 => &[CHESTS_TAG, SEEN_TAG, WORLD_TAG, ARMOUR_TAG, WALLS_TAG],
        7 | 8 => &[
            CHESTS_TAG, SEEN_TAG, WORLD_TAG, ARMOUR_TAG, WALLS_TAG, TOWN_TAG, LIFE_TAG, BOSS_TAG,
            SPAWN_TAG, ITEMS_TAG,
        ],
        _ => &[
            CHESTS_TAG,
            SEEN_TAG,
            WORLD_TAG,
            ARMOUR_TAG,
            WALLS_TAG,
            TOWN_TAG,
            LIFE_TAG,
            BOSS_TAG,
            SPAWN_TAG,
            ITEMS_TAG,
            ACCESSORIES_TAG,
            MANA_TAG,
        ],
    }
}

/// Bits of a wall run's varint that hold the wall (format 8 on).
const WALL_BITS: u32 = 5;
const _: () = assert!(Wall::COUNT <= 1 << WALL_BITS);
/// Bits of the wall in formats 6 and 7's runs (Strata's first 16 walls at most).
const V6_WALL_BITS: u32 = 4;

/// How format `version`'s wall runs pack the wall.
fn wall_bits_of(version: u32) -> u32 {
    if version >= 8 {
        WALL_BITS
    } else {
        V6_WALL_BITS
    }
}

pub use crate::sim::day::MORNING;
pub use crate::sim::vitals::MAX_HEALTH;

pub use crate::sim::session::PlayerState;

mod error;
pub use error::{ChestProblem, Placed, SaveError};

/// Why a save was not written, or a save file not loaded: what [`save`], [`load_game`]
/// and [`save_keeping_backup`] report, each naming the file.
#[derive(Debug)]
pub enum SaveFileError {
    /// Not saved: the preset is `bytes` long as saved, more than a save holds.
    PresetTooLong { path: PathBuf, bytes: u64 },
    /// Not saved: `chests` chests hold something, more than a save keeps.
    TooManyChests { path: PathBuf, chests: usize },
    /// The save (or its backup) could not be written; it names its file.
    Write(WriteError),
    /// The file at `path` could not be read, or is not a save this build loads.
    Load { path: PathBuf, source: SaveError },
    /// Not saved: the save made would not load again (`source` says why). The file at
    /// `path` was left as it was; the refused bytes are kept at `kept` ([`bad_path`])
    /// when they could be written.
    Unloadable {
        path: PathBuf,
        kept: Option<PathBuf>,
        source: SaveError,
    },
}

impl fmt::Display for SaveFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveFileError::PresetTooLong { path, bytes } => write!(
                f,
                "{}: not saved: the preset is {bytes} bytes as saved, more than a save holds \
                 ({MAX_PRESET_TEXT}); shorten its name",
                path.display()
            ),
            SaveFileError::TooManyChests { path, chests } => write!(
                f,
                "{}: not saved: {chests} chests hold something, more than a save keeps \
                 ({MAX_CHESTS}); empty some",
                path.display()
            ),
            SaveFileError::Write(e) => write!(f, "{e}"),
            SaveFileError::Load { path, source } => write!(f, "{}: {source}", path.display()),
            SaveFileError::Unloadable { path, kept, source } => {
                write!(
                    f,
                    "{}: not saved: the save made would not load ({source}); the last save is kept",
                    path.display()
                )?;
                match kept {
                    Some(k) => write!(f, ", the refused one is at {}", k.display()),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for SaveFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SaveFileError::Write(e) => Some(e),
            SaveFileError::Load { source, .. } | SaveFileError::Unloadable { source, .. } => {
                Some(source)
            }
            _ => None,
        }
    }
}

impl From<WriteError> for SaveFileError {
    fn from(e: WriteError) -> SaveFileError {
        SaveFileError::Write(e)
    }
}

impl From<SaveFileError> for String {
    /// The message a player sees, for front-ends that report errors as text.
    fn from(e: SaveFileError) -> String {
        e.to_string()
    }
}

/// FNV-1a, 32 bits.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Bits of a run's varint that hold the tile (format 8 on).
const TILE_BITS: u32 = 7;
const _: () = assert!(Tile::COUNT <= 1 << TILE_BITS);
/// Bits of the tile in formats 6 and 7's runs (Strata's first 64 tiles at most).
const V6_TILE_BITS: u32 = 6;
/// Bits of the tile in the runs of formats 2 to 5 (Strata's first 32 tiles at most).
const V2_TILE_BITS: u32 = 5;

/// Bits of the tile in version 1's runs, and its number of tile kinds.
const V1_TILE_BITS: u32 = 4;
const V1_KINDS: usize = 9;
/// Tile kinds version 2's inventory counts.
const V2_KINDS: usize = 25;

/// How a version's runs pack the tile, and how many inventory counts it lists (0: slots).
fn layout_of(version: u32) -> (u32, usize) {
    match version {
        1 => (V1_TILE_BITS, V1_KINDS),
        2 => (V2_TILE_BITS, V2_KINDS),
        3..=5 => (V2_TILE_BITS, 0),
        6 | 7 => (V6_TILE_BITS, 0),
        _ => (TILE_BITS, 0),
    }
}

/// Appends the runs of `tiles`, one varint each, the tile in the low `tile_bits`.
fn encode_runs(tiles: &[Tile], tile_bits: u32, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < tiles.len() {
        let t = tiles[i];
        let start = i;
        while i < tiles.len() && tiles[i] == t {
            i += 1;
        }
        put_varint(out, ((i - start - 1) as u64) << tile_bits | t as u64);
    }
}

/// Encodes a world and player as a save.
pub fn encode(world: &World, player: &PlayerState) -> Vec<u8> {
    encode_as(world, player, VERSION)
}

/// Encodes in the layout of format `version` (older ones only for tests of loading them:
/// the world must then use only that version's tiles).
fn encode_as(world: &World, player: &PlayerState, version: u32) -> Vec<u8> {
    // Items are stored by name, the names of the catalog the player's items are of.
    let cat = player.inventory.catalog();
    let mut sections = sections_of(world, cat, wall_bits_of(version));
    // What is worn, each only when something is.
    let worn = [
        (ARMOUR_TAG, player.inventory.armour().to_vec()),
        (ACCESSORIES_TAG, player.inventory.accessories().to_vec()),
    ];
    for (tag, items) in worn {
        if items.iter().any(|p| p.is_some()) {
            let stacks: Vec<_> = items
                .iter()
                .map(|p| p.map(|item| Stack { item, count: 1 }))
                .collect();
            let mut b = Vec::new();
            put_slots(cat, &mut b, &stacks);
            sections.push((tag, b));
        }
    }
    if !player.town.is_empty() {
        sections.push((TOWN_TAG, town_bytes(&player.town)));
    }
    if player.max_health != MAX_HEALTH {
        sections.push((LIFE_TAG, player.max_health.to_le_bytes().to_vec()));
    }
    if player.max_mana != crate::sim::mana::START {
        sections.push((MANA_TAG, player.max_mana.to_le_bytes().to_vec()));
    }
    if let Some((x, y)) = player.bed {
        let mut b = (x as u32).to_le_bytes().to_vec();
        b.extend_from_slice(&(y as u32).to_le_bytes());
        sections.push((SPAWN_TAG, b));
    }
    sections.retain(|(tag, _)| tags_of(version).contains(tag));
    encode_with(world, player, version, &sections)
}

/// Encodes in the layout of format `version` with these sections (tests write damaged
/// ones with it).
fn encode_with(
    world: &World,
    player: &PlayerState,
    version: u32,
    sections: &[([u8; 4], Vec<u8>)],
) -> Vec<u8> {
    let (tile_bits, kinds) = layout_of(version);
    let mut out = Vec::with_capacity(1 << 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&made_as(world));
    out.extend_from_slice(&player.pos.0.to_le_bytes());
    out.extend_from_slice(&player.pos.1.to_le_bytes());
    if kinds > 0 {
        // An old layout: one count per tile kind, of the blocks held.
        out.extend_from_slice(&(kinds as u32).to_le_bytes());
        for &t in &Tile::ALL[..kinds] {
            out.extend_from_slice(&player.inventory.count(t).to_le_bytes());
        }
        out.push(player.inventory.selected() as u8);
    } else {
        out.extend_from_slice(&(SLOTS as u32).to_le_bytes());
        put_slots(
            player.inventory.catalog(),
            &mut out,
            player.inventory.slots(),
        );
        out.push(player.inventory.selected() as u8);
        out.extend_from_slice(&player.health.to_le_bytes());
        out.extend_from_slice(&player.time_of_day.to_le_bytes());
        out.extend_from_slice(&(sections.len() as u32).to_le_bytes());
        for (tag, bytes) in sections {
            out.extend_from_slice(tag);
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(bytes);
        }
    }
    for &s in &world.surface {
        out.extend_from_slice(&s.to_le_bytes());
    }
    encode_runs(world.tiles(), tile_bits, &mut out);
    let sum = fnv1a32(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The town section: count n, then per town person the name (a length byte and the
/// bytes), feet x, y, anchor x, y, and a home flag byte (0 or 1) with, when 1, home x, y
/// (u32, n × (u8, …, 4 × f32, u8[, 2 × f32])).
fn town_bytes(town: &[crate::sim::npc::NpcState]) -> Vec<u8> {
    let mut b = Vec::with_capacity(4 + town.len() * 32);
    b.extend_from_slice(&(town.len() as u32).to_le_bytes());
    for n in town {
        b.push(n.name.len() as u8);
        b.extend_from_slice(n.name.as_bytes());
        for v in [n.pos.0, n.pos.1, n.anchor.0, n.anchor.1] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        match n.home {
            None => b.push(0),
            Some((x, y)) => {
                b.push(1);
                b.extend_from_slice(&x.to_le_bytes());
                b.extend_from_slice(&y.to_le_bytes());
            }
        }
    }
    b
}

/// A point of the town section (x, y as f32), inside a `width` x `height` world.
fn read_point(
    r: &mut Reader<'_>,
    width: usize,
    height: usize,
    what: &'static str,
) -> Result<(f32, f32), SaveError> {
    let (x, y) = (
        f32::from_le_bytes(r.array("town")?),
        f32::from_le_bytes(r.array("town")?),
    );
    use crate::world::inside;
    if !inside(x, width) || !inside(y, height) {
        return Err(SaveError::Outside {
            what: Placed::Town(what),
            x,
            y,
        });
    }
    Ok((x, y))
}

/// The town section of a `width` x `height` world: every name one of
/// [`crate::sim::npc::NAMES`] and at most once, every point inside the world.
fn read_town(
    body: &[u8],
    width: usize,
    height: usize,
) -> Result<Vec<crate::sim::npc::NpcState>, SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let part = "town";
    let n = r.u32(part)? as usize;
    if n > MAX_TOWN {
        return Err(SaveError::TooMany {
            what: "town people",
            count: n,
            most: MAX_TOWN,
        });
    }
    let mut town: Vec<crate::sim::npc::NpcState> = Vec::with_capacity(n);
    let point = |r: &mut Reader, what: &'static str| read_point(r, width, height, what);
    for _ in 0..n {
        let len = r.take(1, part)?[0] as usize;
        let raw = r.take(len, part)?;
        let name = crate::sim::npc::NAMES
            .into_iter()
            .find(|k| k.as_bytes() == raw)
            .ok_or_else(|| SaveError::NotATownPerson(raw.to_vec()))?;
        if town.iter().any(|t| t.name == name) {
            return Err(SaveError::TownTwice(name));
        }
        let pos = point(&mut r, name)?;
        let anchor = point(&mut r, name)?;
        let home = match r.take(1, part)?[0] {
            0 => None,
            1 => Some(point(&mut r, name)?),
            b => {
                return Err(SaveError::HomeFlag { name, flag: b });
            }
        };
        town.push(crate::sim::npc::NpcState {
            name,
            pos,
            anchor,
            home,
        });
    }
    if r.at != body.len() {
        return Err(SaveError::Trailing {
            part: "town",
            bytes: body.len() - r.at,
        });
    }
    Ok(town)
}

/// Stacks as the save stores slots: per slot the item's name (a length byte, 0 for an
/// empty slot, then the bytes) and the count.
fn put_slots(cat: &Catalog, out: &mut Vec<u8>, slots: &[Option<Stack>]) {
    for slot in slots {
        match slot {
            None => out.push(0),
            Some(s) => {
                let name = &cat.item(s.item).name;
                out.push(name.len() as u8);
                out.extend_from_slice(name.as_bytes());
                out.extend_from_slice(&s.count.to_le_bytes());
            }
        }
    }
}

/// The chests that hold something, standing on chest tiles (the dig and place rules keep
/// it so; an entry elsewhere would be refused on loading, so it is never written).
fn stored_chests(world: &World) -> impl Iterator<Item = ((usize, usize), &Chest)> {
    world
        .chests
        .iter()
        .filter(|&((x, y), c)| !c.is_empty() && world.tile(x, y) == Tile::Chest)
}

/// The sections of a save: those the world has something for (items named as in `cat`),
/// its walls packed in `wall_bits`.
fn sections_of(world: &World, cat: &Catalog, wall_bits: u32) -> Vec<([u8; 4], Vec<u8>)> {
    let mut out = vec![(WORLD_TAG, world.id.to_le_bytes().to_vec())];
    let story = world.progress;
    if story != crate::world::progress::Progress::default() {
        let mut b = story.eye_defeated.to_le_bytes().to_vec();
        b.extend_from_slice(&story.nights.to_le_bytes());
        if !story.later_untouched() {
            for n in [
                story.orbs_broken,
                story.eater_defeated,
                story.skeletron_defeated,
                story.wall_defeated,
            ] {
                b.extend_from_slice(&n.to_le_bytes());
            }
        }
        out.push((BOSS_TAG, b));
    }
    let n = stored_chests(world).count();
    if n > 0 {
        let mut b = Vec::with_capacity(4 + n * 64);
        b.extend_from_slice(&(n as u32).to_le_bytes());
        for ((x, y), c) in stored_chests(world) {
            b.extend_from_slice(&(x as u32).to_le_bytes());
            b.extend_from_slice(&(y as u32).to_le_bytes());
            put_slots(cat, &mut b, c.slots());
        }
        out.push((CHESTS_TAG, b));
    }
    let mut seen = Vec::new();
    for run in world.explored.runs() {
        put_varint(&mut seen, run);
    }
    out.push((SEEN_TAG, seen));
    let mut walls = Vec::new();
    let mut i = 0;
    let all = world.walls();
    while i < all.len() {
        let start = i;
        while i < all.len() && all[i] == all[start] {
            i += 1;
        }
        put_varint(
            &mut walls,
            ((i - start - 1) as u64) << wall_bits | all[start] as u64,
        );
    }
    out.push((WALLS_TAG, walls));
    if !world.dropped.is_empty() {
        let mut b = (world.dropped.len() as u32).to_le_bytes().to_vec();
        for d in &world.dropped {
            b.extend_from_slice(&d.pos.0.to_le_bytes());
            b.extend_from_slice(&d.pos.1.to_le_bytes());
            put_slots(cat, &mut b, &[Some(d.stack)]);
        }
        out.push((ITEMS_TAG, b));
    }
    out
}

/// The world's preset as the save stores it: RON text, with the world's own size (a world
/// made or edited outside generation may carry a preset of another size).
fn preset_text(world: &World) -> String {
    let preset = Preset {
        width: world.width() as u32,
        height: world.height() as u32,
        ..world.preset.clone()
    };
    // Serialising a plain struct of numbers, strings and enums cannot fail.
    ron::to_string(&preset).unwrap_or_default()
}

/// A cursor that names the part being read when the bytes run out.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], SaveError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(SaveError::Truncated(part))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, part: &'static str) -> Result<[u8; N], SaveError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, part)?);
        Ok(a)
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, SaveError> {
        self.array(part).map(u32::from_le_bytes)
    }

    fn varint(&mut self, part: &'static str) -> Result<u64, SaveError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1, part)?[0];
            if shift == 63 && b > 1 {
                break;
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(SaveError::RunTooLong { at: self.at })
    }
}

/// Decodes a save made by [`encode`], its items those of `cat` (by name).
pub fn decode(bytes: &[u8], cat: &Arc<Catalog>) -> Result<(World, PlayerState), SaveError> {
    let mut r = Reader { bytes, at: 0 };
    let magic_len = MAGIC.len().min(bytes.len());
    if bytes[..magic_len] != MAGIC[..magic_len] {
        return Err(SaveError::NotASave);
    }
    r.take(MAGIC.len(), "header")?;
    let version = r.u32("header")?;
    if version > VERSION {
        return Err(SaveError::Newer(version));
    }
    if version == 0 {
        return Err(SaveError::VersionZero);
    }
    let (width, height) = (r.u32("header")?, r.u32("header")?);
    preset::check_size(width, height).map_err(|e| SaveError::WorldSize(Box::new(e)))?;
    let (width, height) = (width as usize, height as usize);
    let seed = u64::from_le_bytes(r.array("header")?);
    let ron_len = r.u32("header")? as u64;
    if ron_len > MAX_PRESET_TEXT {
        return Err(SaveError::PresetTooLong(ron_len));
    }
    let ron_bytes = r.take(ron_len as usize, "preset")?;
    let (px, py) = (
        f32::from_le_bytes(r.array("player")?),
        f32::from_le_bytes(r.array("player")?),
    );
    let (tile_bits, old_kinds) = layout_of(version);
    let held = read_inventory(&mut r, old_kinds)?;
    let (health, time_of_day) = if old_kinds > 0 {
        (MAX_HEALTH, MORNING)
    } else {
        (
            f32::from_le_bytes(r.array("player")?),
            f32::from_le_bytes(r.array("player")?),
        )
    };
    let sections = if old_kinds == 0 {
        read_sections(&mut r, version)?
    } else {
        Vec::new()
    };
    let surface_bytes = r.take(width * 4, "surface heights")?;
    let total = width * height;
    // First walk the runs only to check them and find where they end: nothing is built
    // from the file before its checksum is known to match.
    let runs_at = r.at;
    for_each_run(&mut r, tile_bits, total, |_, _, _| {})?;
    let body_end = r.at;
    let stored = r.u32("checksum")?;
    if r.at != bytes.len() {
        return Err(SaveError::Trailing {
            part: "checksum",
            bytes: bytes.len() - r.at,
        });
    }
    if fnv1a32(&bytes[..body_end]) != stored {
        return Err(SaveError::Checksum);
    }
    // The checksum matched; still check every value, a foreign writer may be wrong.
    let text = std::str::from_utf8(ron_bytes).map_err(|_| SaveError::PresetNotUtf8)?;
    let preset = preset::parse(text, "saved preset").map_err(|e| SaveError::Preset(Box::new(e)))?;
    if (preset.width as usize, preset.height as usize) != (width, height) {
        return Err(SaveError::PresetSize {
            preset: Some((preset.width, preset.height)),
            world: (width, height),
        });
    }
    // The one rule of positions play keeps ([`World::holds`]).
    use crate::world::inside;
    if !inside(px, width) || !inside(py, height) {
        return Err(SaveError::Outside {
            what: Placed::Player,
            x: px,
            y: py,
        });
    }
    let mut inventory = held.build(cat)?;
    let highest = crate::sim::vitals::HIGHEST_HEALTH;
    if !(health.is_finite() && (0.0..=highest).contains(&health)) {
        return Err(SaveError::Health(health));
    }
    if !(time_of_day.is_finite() && (0.0..1.0).contains(&time_of_day)) {
        return Err(SaveError::TimeOfDay(time_of_day));
    }
    let surface: Vec<u32> = surface_bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if let Some(x) = surface.iter().position(|&s| s as usize > height) {
        return Err(SaveError::SurfaceBelow {
            column: x,
            row: surface[x],
        });
    }
    // Then fill the world straight from the runs: a new world is all air, so only the
    // other runs are written, and a load needs the file and the world, nothing more.
    let mut world = World::new(width, height, seed, preset);
    let tiles = world.tiles_mut();
    let mut r = Reader { bytes, at: runs_at };
    for_each_run(&mut r, tile_bits, total, |start, len, tile| {
        if tile != Tile::Air {
            tiles[start..start + len].fill(tile);
        }
    })?;
    world.surface = surface;
    // A save from before the explored map was kept: the whole map, as its player had it.
    world.explored = Explored::all_seen(width, height);
    // A save from before worlds had identities: its seed's, which names its file as then.
    world.id = seed;
    let mut bed = None;
    let mut has_id = false;
    let mut has_walls = false;
    let mut town = Vec::new();
    let mut max_health = MAX_HEALTH;
    let mut max_mana = crate::sim::mana::START;
    for (tag, body) in sections {
        match tag {
            MANA_TAG => {
                let b: [u8; 4] = body.try_into().map_err(|_| SaveError::SectionLength {
                    section: "most mana",
                    len: body.len(),
                    expected: 4,
                })?;
                max_mana =
                    u32::from_le_bytes(b).clamp(crate::sim::mana::START, crate::sim::mana::HIGHEST);
            }
            LIFE_TAG => {
                let b: [u8; 4] = body.try_into().map_err(|_| SaveError::SectionLength {
                    section: "most health",
                    len: body.len(),
                    expected: 4,
                })?;
                max_health = f32::from_le_bytes(b);
                if !(max_health.is_finite() && (MAX_HEALTH..=highest).contains(&max_health)) {
                    return Err(SaveError::MostHealth {
                        value: max_health,
                        least: MAX_HEALTH,
                        most: highest,
                    });
                }
            }
            TOWN_TAG => town = read_town(body, width, height)?,
            CHESTS_TAG => world.chests = read_chests(cat, body, &world)?,
            ARMOUR_TAG => inventory = read_armour(cat, body, inventory)?,
            ACCESSORIES_TAG => inventory = read_accessories(cat, body, inventory)?,
            BOSS_TAG => {
                // 12 bytes: the Eye and the nights; 28: the later bosses' four counts too.
                if body.len() != 12 && body.len() != 28 {
                    return Err(SaveError::SectionLength {
                        section: "boss section",
                        len: body.len(),
                        expected: 12,
                    });
                }
                let word = |at: usize| {
                    body.get(at..at + 4)
                        .and_then(|b| b.try_into().ok())
                        .map_or(0, u32::from_le_bytes)
                };
                world.progress = crate::world::progress::Progress {
                    eye_defeated: word(0),
                    nights: u64::from_le_bytes(body[4..12].try_into().unwrap_or_default()),
                    orbs_broken: word(12),
                    eater_defeated: word(16),
                    skeletron_defeated: word(20),
                    wall_defeated: word(24),
                };
            }
            SPAWN_TAG => bed = Some(read_spawn(body, &world)?),
            ITEMS_TAG => world.dropped = read_items(cat, body, &world)?,
            WALLS_TAG => {
                read_walls(body, world.walls_mut(), wall_bits_of(version))?;
                has_walls = true;
            }
            WORLD_TAG => {
                let id: [u8; 8] = body.try_into().map_err(|_| SaveError::SectionLength {
                    section: "world identity",
                    len: body.len(),
                    expected: 8,
                })?;
                world.id = u64::from_le_bytes(id);
                has_id = true;
            }
            _ => world.explored = read_explored(body, width, height)?,
        }
    }
    if health > max_health {
        return Err(SaveError::HealthAboveMost {
            health,
            most: max_health,
        });
    }
    if version >= IDENTITY_VERSION && !has_id {
        return Err(SaveError::NoIdentity { version });
    }
    if !has_walls {
        // Made before walls were saved: the walls its world was generated with.
        let walls = crate::worldgen::natural_walls(&world.preset, seed);
        world.replace_walls(walls).ok_or(SaveError::PresetSize {
            preset: None,
            world: (width, height),
        })?;
    }
    Ok((
        world,
        PlayerState {
            pos: (px, py),
            inventory,
            health,
            max_health,
            time_of_day,
            town,
            bed,
            max_mana,
            // The piggy bank is the character's ([`crate::store::character`]).
            bank: Default::default(),
        },
    ))
}

/// The items section: a count (at most [`crate::sim::drops::MAX_ITEMS`]), then per item
/// its centre x, y (f32, inside the world) and its stack as a slot. They load at rest.
fn read_items(cat: &Catalog, body: &[u8], world: &World) -> Result<Vec<Dropped>, SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let n = r.u32("items")? as usize;
    if n > crate::sim::drops::MAX_ITEMS {
        return Err(SaveError::TooMany {
            what: "items lying in the world",
            count: n,
            most: crate::sim::drops::MAX_ITEMS,
        });
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let x = f32::from_le_bytes(r.array("items")?);
        let y = f32::from_le_bytes(r.array("items")?);
        if !world.holds((x, y)) {
            return Err(SaveError::Outside {
                what: Placed::Item(i),
                x,
                y,
            });
        }
        let slot = read_slots(&mut r, 1, "items")?.remove(0);
        let stack = stack_of(cat, slot, || format!("item {i} lying in the world"))?
            .ok_or(SaveError::EmptyItem(i))?;
        out.push(Dropped::new(stack, (x, y), None));
    }
    if r.at != body.len() {
        return Err(SaveError::Overlong("items"));
    }
    Ok(out)
}

/// The spawn point section: the bed's tile x and y (u32 each), inside the world. The
/// bed need not stand there any more (a death then falls back to the world's spawn).
fn read_spawn(body: &[u8], world: &World) -> Result<(usize, usize), SaveError> {
    let b: [u8; 8] = body.try_into().map_err(|_| SaveError::SectionLength {
        section: "spawn point section",
        len: body.len(),
        expected: 8,
    })?;
    let x = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let y = u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as usize;
    if x >= world.width() || y >= world.height() {
        return Err(SaveError::SpawnOutside {
            x,
            y,
            width: world.width(),
            height: world.height(),
        });
    }
    Ok((x, y))
}

/// An inventory as read, checked only once the checksum matched.
enum StoredInventory<'a> {
    /// Versions 1 and 2: a count per tile kind, and the selected slot.
    Counts(Vec<u32>, u8),
    /// Version 3: per slot the item's name and count, and the selected slot.
    Slots(Vec<StoredSlot<'a>>, u8),
}

fn read_inventory<'a>(
    r: &mut Reader<'a>,
    old_kinds: usize,
) -> Result<StoredInventory<'a>, SaveError> {
    let n = r.u32("inventory")? as usize;
    if old_kinds > 0 {
        // Version 2 listed the tile kinds of its day: 25 at last, fewer before.
        let least = V1_KINDS.min(old_kinds);
        if n > old_kinds || n < least {
            return Err(SaveError::InventorySize {
                count: n,
                unit: "kinds",
                least,
                most: old_kinds,
            });
        }
        let counts = (0..n)
            .map(|_| r.u32("inventory"))
            .collect::<Result<_, _>>()?;
        return Ok(StoredInventory::Counts(counts, r.take(1, "inventory")?[0]));
    }
    if n != SLOTS {
        return Err(SaveError::InventorySize {
            count: n,
            unit: "slots",
            least: SLOTS,
            most: SLOTS,
        });
    }
    let slots = read_slots(r, SLOTS, "inventory")?;
    Ok(StoredInventory::Slots(slots, r.take(1, "inventory")?[0]))
}

/// A stored slot: the item's name and the count, checked once the checksum matched.
type StoredSlot<'a> = Option<(&'a [u8], u32)>;

/// `n` slots as [`put_slots`] writes them.
fn read_slots<'a>(
    r: &mut Reader<'a>,
    n: usize,
    part: &'static str,
) -> Result<Vec<StoredSlot<'a>>, SaveError> {
    let mut slots = Vec::with_capacity(n);
    for _ in 0..n {
        let len = r.take(1, part)?[0] as usize;
        if len == 0 {
            slots.push(None);
            continue;
        }
        if len > MAX_NAME {
            return Err(SaveError::NameLength(len));
        }
        let name = r.take(len, part)?;
        slots.push(Some((name, r.u32(part)?)));
    }
    Ok(slots)
}

/// The stack a stored slot names: a known item, at least one and at most a stack of it.
/// `place` names the slot in the message.
fn stack_of(
    cat: &Catalog,
    slot: StoredSlot,
    place: impl Fn() -> String,
) -> Result<Option<Stack>, SaveError> {
    let Some((name, count)) = slot else {
        return Ok(None);
    };
    let Some(item) = std::str::from_utf8(name).ok().and_then(|n| cat.id(n)) else {
        return Err(SaveError::UnknownItem {
            name: name.to_vec(),
            place: place(),
        });
    };
    let stack = Stack { item, count };
    if !crate::world::inventory::stack_ok(cat, stack) {
        let info = cat.item(item);
        return Err(SaveError::BadStack {
            item: info.name.clone(),
            count,
            place: place(),
            most: info.stack,
        });
    }
    Ok(Some(stack))
}

/// The accessories section: [`ACCESSORY_SLOTS`] slots as [`put_slots`] writes them, each
/// empty or one accessory, none worn twice.
fn read_accessories(
    cat: &Catalog,
    body: &[u8],
    inventory: Inventory,
) -> Result<Inventory, SaveError> {
    let worn = read_worn::<ACCESSORY_SLOTS>(cat, body, "accessories", "accessory slot")?;
    inventory
        .with_accessories(worn)
        .ok_or(SaveError::Accessories)
}

/// The armour section: three slots as [`put_slots`] writes them (head, body, legs), each
/// empty or one piece of armour for that slot.
fn read_armour(cat: &Catalog, body: &[u8], inventory: Inventory) -> Result<Inventory, SaveError> {
    let worn = read_worn::<3>(cat, body, "armour", "armour slot")?;
    inventory.with_armour(worn).ok_or(SaveError::Armour)
}

/// `N` slots of things worn, as [`put_slots`] writes them, each empty or a known item;
/// `what` names the section and `slot` a slot in an error.
fn read_worn<const N: usize>(
    cat: &Catalog,
    body: &[u8],
    what: &'static str,
    slot: &str,
) -> Result<[Option<crate::content::items::ItemId>; N], SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let slots = read_slots(&mut r, N, what)?;
    if r.at != body.len() {
        return Err(SaveError::Overlong(what));
    }
    let mut worn = [None; N];
    for (i, s) in slots.into_iter().enumerate() {
        let stack = stack_of(cat, s, || format!("{slot} {i}"))?;
        worn[i] = stack.map(|s| s.item);
    }
    Ok(worn)
}

/// A section as read: its tag and bytes.
type Section<'a> = ([u8; 4], &'a [u8]);

/// The sections of a save: those of [`tags_of`] its version, each once.
fn read_sections<'a>(r: &mut Reader<'a>, version: u32) -> Result<Vec<Section<'a>>, SaveError> {
    let n = r.u32("sections")? as usize;
    let tags = tags_of(version);
    let known = tags.len();
    if n > known {
        return Err(SaveError::TooManySections {
            count: n,
            version,
            most: known,
        });
    }
    let mut out: Vec<Section> = Vec::with_capacity(n);
    for _ in 0..n {
        let tag: [u8; 4] = r.array("sections")?;
        if !tags.contains(&tag) || out.iter().any(|(t, _)| *t == tag) {
            return Err(SaveError::Section(tag));
        }
        let len = r.u32("sections")? as usize;
        out.push((tag, r.take(len, "sections")?));
    }
    Ok(out)
}

/// The explored map section of a `width` x `height` world, read one run at a time.
fn read_explored(body: &[u8], width: usize, height: usize) -> Result<Explored, SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let mut bad = None;
    let runs = std::iter::from_fn(|| {
        if r.at >= body.len() {
            return None;
        }
        r.varint("explored map").map_err(|e| bad = Some(e)).ok()
    });
    let map = Explored::from_runs(width, height, runs);
    if let Some(e) = bad {
        return Err(e);
    }
    let map = map.map_err(SaveError::Explored)?;
    if r.at != body.len() {
        return Err(SaveError::Trailing {
            part: "explored map",
            bytes: body.len() - r.at,
        });
    }
    Ok(map)
}

/// The walls section into `walls` (all [`Wall::None`]): runs adding up to exactly the
/// grid, each of a known wall.
fn read_walls(body: &[u8], walls: &mut [Wall], wall_bits: u32) -> Result<(), SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let total = walls.len();
    let mut filled = 0usize;
    while filled < total {
        let run = r.varint("walls")?;
        let code = (run & ((1 << wall_bits) - 1)) as u8;
        let wall = Wall::from_u8(code).ok_or(SaveError::UnknownCode {
            what: "wall",
            code,
            at: filled,
        })?;
        let len = (run >> wall_bits) + 1;
        if len > (total - filled) as u64 {
            return Err(SaveError::RunPastEnd {
                what: "wall",
                len,
                at: filled,
                total,
            });
        }
        if wall.is_some() {
            walls[filled..filled + len as usize].fill(wall);
        }
        filled += len as usize;
    }
    if r.at != body.len() {
        return Err(SaveError::Trailing {
            part: "walls",
            bytes: body.len() - r.at,
        });
    }
    Ok(())
}

/// Least bytes one stored chest takes: its position and an empty byte per slot.
const MIN_CHEST_BYTES: usize = 8 + CHEST_SLOTS;

/// The chests section of `world` (tiles already read): every chest on a chest tile of the
/// world, in row-major order, each once, with known items in stacks they allow.
fn read_chests(cat: &Catalog, body: &[u8], world: &World) -> Result<Chests, SaveError> {
    let mut r = Reader { bytes: body, at: 0 };
    let n = r.u32("chests")? as usize;
    if n > MAX_CHESTS || n > body.len() / MIN_CHEST_BYTES {
        return Err(SaveError::TooManyChests {
            count: n,
            section_bytes: body.len(),
        });
    }
    let mut chests = Chests::default();
    let mut last: Option<(usize, usize)> = None;
    for i in 0..n {
        let (x, y) = (r.u32("chests")? as usize, r.u32("chests")? as usize);
        if world.get(x as i64, y as i64) != Some(Tile::Chest) {
            return Err(SaveError::Chest {
                index: i,
                x,
                y,
                problem: ChestProblem::NotOnChestTile,
            });
        }
        if last.is_some_and(|(lx, ly)| (ly, lx) >= (y, x)) {
            return Err(SaveError::Chest {
                index: i,
                x,
                y,
                problem: ChestProblem::OutOfOrder,
            });
        }
        last = Some((x, y));
        let mut slots = [None; CHEST_SLOTS];
        for (k, s) in read_slots(&mut r, CHEST_SLOTS, "chests")?
            .into_iter()
            .enumerate()
        {
            slots[k] = stack_of(cat, s, || format!("chest {i} at {x} {y}, slot {k}"))?;
        }
        let chest = Chest::from_slots(cat, slots).ok_or(SaveError::Chest {
            index: i,
            x,
            y,
            problem: ChestProblem::StackOutOfRange,
        })?;
        if chest.is_empty() {
            // Never written: an empty chest is a chest tile without an entry.
            return Err(SaveError::Chest {
                index: i,
                x,
                y,
                problem: ChestProblem::Empty,
            });
        }
        chests.insert(x, y, chest);
    }
    if r.at != body.len() {
        return Err(SaveError::Trailing {
            part: "chests",
            bytes: body.len() - r.at,
        });
    }
    Ok(chests)
}

impl StoredInventory<'_> {
    fn build(&self, cat: &Arc<Catalog>) -> Result<Inventory, SaveError> {
        match self {
            StoredInventory::Counts(counts, slot) => {
                let mut inv = Inventory::tools(cat);
                for (&t, &n) in Tile::ALL.iter().zip(counts) {
                    // What does not fit (more than 36 full stacks) is lost.
                    inv.add(t, n);
                }
                inv.select(*slot as usize);
                if inv.selected() != *slot as usize {
                    return Err(SaveError::Hotbar { selected: *slot });
                }
                Ok(inv)
            }
            StoredInventory::Slots(slots, selected) => {
                let mut out = [None; SLOTS];
                for (i, &s) in slots.iter().enumerate() {
                    out[i] = stack_of(cat, s, || format!("slot {i}"))?;
                }
                // Every stack was checked: only the selected slot can be wrong.
                Inventory::from_parts(cat, out, *selected as usize).ok_or(SaveError::Hotbar {
                    selected: *selected,
                })
            }
        }
    }
}

/// Reads the runs of `total` tiles at `r`, calling `f(first tile, length, tile)` for each;
/// refuses unknown tiles and runs past the end of the world.
fn for_each_run(
    r: &mut Reader,
    tile_bits: u32,
    total: usize,
    mut f: impl FnMut(usize, usize, Tile),
) -> Result<(), SaveError> {
    let mut filled = 0usize;
    while filled < total {
        let run = r.varint("tile data")?;
        let code = (run & ((1 << tile_bits) - 1)) as u8;
        let tile = Tile::from_u8(code).ok_or(SaveError::UnknownCode {
            what: "tile",
            code,
            at: filled,
        })?;
        let len = (run >> tile_bits) + 1;
        if len > (total - filled) as u64 {
            return Err(SaveError::RunPastEnd {
                what: "tile",
                len,
                at: filled,
                total,
            });
        }
        f(filled, len as usize, tile);
        filled += len as usize;
    }
    Ok(())
}

/// Writes a save atomically (see [`crate::base::fsio::write_file`]), creating its folder.
/// Refuses a world whose preset is too large to load again.
pub fn save(path: &Path, world: &World, player: &PlayerState) -> Result<(), SaveFileError> {
    let bytes = checked(path, world, player)?;
    Ok(crate::base::fsio::write_file_in_new_folder(path, |f| {
        f.write_all(&bytes)
    })?)
}

/// The bytes of the save of `world` and `player` for `path`, decoded and checked: a
/// save that would not load is refused, its bytes kept at [`bad_path`], so it never
/// takes the place of one that does.
fn checked(path: &Path, world: &World, player: &PlayerState) -> Result<Vec<u8>, SaveFileError> {
    let bytes = preset_text(world).len() as u64;
    if bytes > MAX_PRESET_TEXT {
        return Err(SaveFileError::PresetTooLong {
            path: path.into(),
            bytes,
        });
    }
    let chests = stored_chests(world).count();
    if chests > MAX_CHESTS {
        return Err(SaveFileError::TooManyChests {
            path: path.into(),
            chests,
        });
    }
    let bytes = encode(world, player);
    // Decoded and checked before it replaces anything: a save that would not load never
    // takes the place of one that does; it is kept beside it for a report.
    if let Err(source) = decode(&bytes, player.inventory.catalog()).map(|_| ()) {
        let bad = bad_path(path);
        let kept = crate::base::fsio::write_file_in_new_folder(&bad, |f| f.write_all(&bytes))
            .ok()
            .map(|()| bad);
        return Err(SaveFileError::Unloadable {
            path: path.into(),
            kept,
            source,
        });
    }
    Ok(bytes)
}

/// Would the save of `world` and `player` load again? It is made and decoded, checked
/// as every load checks it (what [`save`] does before it writes, and a journal's replay
/// before it is taken).
pub fn loads_again(world: &World, player: &PlayerState) -> Result<(), SaveError> {
    decode(&encode(world, player), player.inventory.catalog()).map(|_| ())
}

/// What a refused save's bytes are kept as beside the save ([`save`]):
/// `world-….strata.bad`.
pub const BAD_SUFFIX: &str = ".bad";

/// Where [`save`] keeps a save it refused to write over the one at `path`.
pub fn bad_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(BAD_SUFFIX);
    PathBuf::from(name)
}

/// What a backup adds to its save's file name: `world-….strata.bak`.
pub const BACKUP_SUFFIX: &str = ".bak";

/// The backup of the save at `path`: the same name with [`BACKUP_SUFFIX`] after it.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// Is `bytes` a whole save: the magic bytes first and the checksum of everything before
/// the last four bytes in those four bytes?
pub fn is_whole(bytes: &[u8]) -> bool {
    let Some(body) = bytes.len().checked_sub(4).map(|n| &bytes[..n]) else {
        return false;
    };
    let tail = &bytes[body.len()..];
    bytes.starts_with(MAGIC)
        && fnv1a32(body) == u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]])
}

/// [`save`], first keeping the save it replaces as its backup ([`backup_path`], written
/// atomically too), as a game keeps the previous save: a save the player regrets, or one
/// that goes wrong, leaves the one before it. A file at `path` that is not a whole save
/// ([`is_whole`]) never replaces the backup. Returns the backup's path when one was kept.
pub fn save_keeping_backup(
    path: &Path,
    world: &World,
    player: &PlayerState,
) -> Result<Option<PathBuf>, SaveFileError> {
    // Checked first: a refused save rotates nothing.
    let new = checked(path, world, player)?;
    Ok(replace_keeping_backup(
        path,
        &new,
        MAX_SAVE_BYTES,
        is_whole,
    )?)
}

/// Writes `bytes` to `path` atomically, first keeping the file it replaces as its backup
/// ([`backup_path`], written atomically too) when that file is at most `limit` bytes and
/// `whole` says it is whole (a damaged file never replaces the backup). Returns the
/// backup's path when one was kept. What every file of the player's that keeps a backup
/// (a world's save, a character's file) is written with.
pub fn replace_keeping_backup(
    path: &Path,
    bytes: &[u8],
    limit: u64,
    whole: impl Fn(&[u8]) -> bool,
) -> Result<Option<PathBuf>, WriteError> {
    // No file, or one that cannot be read: nothing to keep.
    let old = crate::base::fsio::read_bounded(path, limit)
        .ok()
        .filter(|b| whole(b));
    let backup = match old {
        Some(old) => {
            let bak = backup_path(path);
            crate::base::fsio::write_file(&bak, |f| f.write_all(&old))?;
            Some(bak)
        }
        None => None,
    };
    crate::base::fsio::write_file_in_new_folder(path, |f| f.write_all(bytes))?;
    Ok(backup)
}

/// The identity of a world from a save of before format 5, which had none, from the
/// save's file name: its seed when the file has the name those formats gave a world's
/// save (`world-<seed>.strata`, or its `.bak`), so saving it again replaces that file as
/// it did; for any other name (a save from `strata gen --save`, a copy) 64 bits of the
/// name's FNV-1a, so it is saved beside the world of its seed, not over it, and to the
/// same file each time it is loaded.
pub fn old_id(path: &Path, seed: u64) -> u64 {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let name = name.strip_suffix(BACKUP_SUFFIX).unwrap_or(&name);
    if name == format!("world-{seed:016x}.{EXTENSION}") {
        return seed;
    }
    let id = crate::base::rng::fnv1a(name.as_bytes());
    // Never the seed's own identity, which names the save of the world of that seed.
    if id == seed { !id } else { id }
}

/// Reads and decodes a save (a save of before format 5 gets the identity [`old_id`]).
/// Reads no more than the save's header says its world can take ([`max_save_len`]).
pub fn load(path: &Path, cat: &Arc<Catalog>) -> Result<(World, PlayerState), SaveError> {
    use crate::base::fsio::read_bounded_by;
    // The header, kept as it is read, for the message when the file is too long.
    let head = std::cell::RefCell::new(Vec::new());
    let limit_of = |bytes: &[u8]| {
        if bytes.len() >= HEADER_BYTES && head.borrow().is_empty() {
            *head.borrow_mut() = bytes[..HEADER_BYTES].to_vec();
        }
        max_save_len(bytes)
    };
    match read_bounded_by(path, HEADER_BYTES, limit_of) {
        Ok(bytes) => {
            let (mut world, player) = decode(&bytes, cat)?;
            let version = u32::from_le_bytes(bytes[7..11].try_into().unwrap_or_default());
            if version < IDENTITY_VERSION {
                world.id = old_id(path, world.seed);
            }
            Ok((world, player))
        }
        // Too long for the world its header names: the header may say why (another
        // format, a foreign file), or the file is damaged.
        Err(ReadError::TooLarge(limit)) => match decode(&head.borrow(), cat) {
            Err(SaveError::Truncated(_)) | Ok(_) => Err(SaveError::TooLong { limit }),
            Err(e) => Err(e),
        },
        Err(e) => Err(SaveError::Read(e)),
    }
}

/// Bytes of a save's header that give its world's size: magic, version, width, height.
pub const HEADER_BYTES: usize = MAGIC.len() + 12;

/// Most bytes a save can have, from its first bytes: the fixed parts, the most preset
/// text, the surface, the most chests the world can hold, and at most a byte a tile of runs (a run's varint takes one byte for
/// up to 4 tiles, and one more byte only for many more tiles). Before the header is read,
/// the most any save can be; after a header that [`decode`] refuses, the header alone
/// (what comes after it is never needed).
pub fn max_save_len(head: &[u8]) -> u64 {
    if head.len() < HEADER_BYTES {
        return MAX_SAVE_BYTES;
    }
    let word = |at: usize| {
        let b = &head[at..at + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let (version, w, h) = (word(7), word(11), word(15));
    if !head.starts_with(MAGIC)
        || version == 0
        || version > VERSION
        || preset::check_size(w, h).is_err()
    {
        return HEADER_BYTES as u64;
    }
    let slot = 1 + MAX_NAME as u64 + 4;
    let inventory = 4 + SLOTS as u64 * slot + 1 + 8;
    let fixed = HEADER_BYTES as u64 + 8 + 4 + 8 + inventory + 4 + 4;
    // At most one chest a tile, and at most MAX_CHESTS.
    let most_chests = (MAX_CHESTS as u64).min(w as u64 * h as u64);
    let chests = 8 + 4 + most_chests * (8 + CHEST_SLOTS as u64 * slot);
    // Every run of the explored map but the first covers a cell or more, and a run's
    // varint is never longer than the cells it covers.
    let cells = Explored::new(w as usize, h as usize).cells() as u64;
    let seen = 8 + cells + 1;
    let id = 8 + 8;
    let armour = 8 + 3 * slot + 8 + ACCESSORY_SLOTS as u64 * slot;
    // A wall run's varint is never longer than the tiles it covers, as a tile run's.
    let walls = 8 + w as u64 * h as u64;
    fixed
        + MAX_PRESET_TEXT
        + 4 * w as u64
        + w as u64 * h as u64
        + chests
        + seen
        + id
        + armour
        + walls
}

/// [`load`] with the path in the message, for the command line and the game's overlay.
pub fn load_game(path: &Path, cat: &Arc<Catalog>) -> Result<(World, PlayerState), SaveFileError> {
    load(path, cat).map_err(|source| SaveFileError::Load {
        path: path.into(),
        source,
    })
}

/// Where F5, the autosave and the close request save a world: `world-<id>.strata` in
/// the saves folder `dir` (the game's is [`crate::base::paths::Folders::saves`]).
pub fn save_path(dir: &Path, world: &World) -> PathBuf {
    dir.join(file_name(world))
}

/// The file name of a world's save: `world-<id>.strata` ([`World::id`] in hex), one per
/// world, whatever its seed (a world from before format 5 has its seed as its identity,
/// so the name its save always had).
pub fn file_name(world: &World) -> String {
    format!("world-{:016x}.{EXTENSION}", world.id)
}

/// The newest save of `world` in the saves folder `dir` (F9): its file ([`save_path`],
/// named by its identity, so never a save of another world of its seed), or that file's
/// backup when only the backup is left; `None` when it has neither.
pub fn newest_of(dir: &Path, world: &World) -> Option<PathBuf> {
    let path = save_path(dir, world);
    [backup_path(&path), path]
        .into_iter()
        .rfind(|p| p.is_file())
}

/// The most recently written save in `dir` of a world made as `world` was (its seed, size
/// and preset), whatever its identity: what F9 loads in a world that has no save of its
/// own yet, such as the same seed typed again or given on the command line. Only each
/// file's header is read, at most [`MAX_PRESET_TEXT`] bytes past its fixed fields.
pub fn newest_of_seed(dir: &Path, world: &World) -> Option<PathBuf> {
    let want_rest = made_as(world);
    let same = |path: &Path| -> bool {
        use std::io::Read;
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        let mut bytes = Vec::new();
        let limit = (HEAD_FIXED + want_rest.len()) as u64;
        if file.take(limit).read_to_end(&mut bytes).is_err() || bytes.len() as u64 != limit {
            return false;
        }
        // Magic, then any format's version, then the same size, seed and preset text.
        bytes[..MAGIC.len()] == MAGIC[..] && bytes[HEAD_FIXED..] == want_rest[..]
    };
    saves_newest_first(dir).into_iter().find(|p| same(p))
}

/// Bytes of a save before its size: the magic and the format version.
const HEAD_FIXED: usize = MAGIC.len() + 4;

/// What a save's header says of how its world was made, as every format writes it after
/// the version: width, height, seed and the preset's text (with its length).
fn made_as(world: &World) -> Vec<u8> {
    let ron = preset_text(world);
    let mut out = Vec::with_capacity(20 + ron.len());
    out.extend_from_slice(&(world.width() as u32).to_le_bytes());
    out.extend_from_slice(&(world.height() as u32).to_le_bytes());
    out.extend_from_slice(&world.seed.to_le_bytes());
    out.extend_from_slice(&(ron.len() as u32).to_le_bytes());
    out.extend_from_slice(ron.as_bytes());
    out
}

/// Every save in `dir`, the most recently written first.
fn saves_newest_first(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut saves: Vec<_> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    saves.sort_by(|a, b| b.cmp(a));
    saves.into_iter().map(|(_, p)| p).collect()
}

/// The most recently written save in `dir`, if any.
pub fn newest_save(dir: &Path) -> Option<PathBuf> {
    saves_newest_first(dir).into_iter().next()
}

#[cfg(test)]
mod character_tests;
#[cfg(test)]
mod identity_tests;
#[cfg(test)]
mod sections_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod town_tests;
#[cfg(test)]
mod walls_tests;
