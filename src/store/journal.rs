//! The journal: what changed in play since the last save, kept beside it
//! (`world-….strata.journal`) so a crash (kill -9, a power cut) loses about a second,
//! not everything since the last autosave.
//!
//! It is an append-only file of lines. The first names the save it follows (its length
//! and checksum); each next one is a record of what differs from the moment before:
//! the tiles and walls changed, the chests whose contents changed, the items lying in
//! the world, the world's story, the player of the save (place, inventory, health, the
//! time of day and the town) and any characters kept by name (a server's). Every line carries the
//! FNV-1a of its text, so a line torn by a crash is known and ends the replay: each
//! record is one whole moment of play, and a replay stops at the last whole one.
//!
//! A record is written when [`Journal::flush`] is called (about once a second) and synced
//! to the disk then. At each full save the journal starts again ([`Journal::start`]),
//! naming the new save: a journal whose first line names another save (one written after
//! it, a crash falling between that save and the new journal) is never replayed.
//! [`load`] loads a save and replays its journal; a replay that would leave a world no
//! save could hold (checked as a save is, [`crate::store::save::loads_again`]) is refused
//! whole, the journal kept beside as `….journal.bad`, and the save loads as it was.

use crate::content::items::Catalog;
use crate::sim::npc::{NAMES, NpcState};
use crate::sim::session::PlayerState;
use crate::store::save::{self, SaveFileError};
use crate::world::chest::{CHEST_SLOTS, Chest, Chests};
use crate::world::dropped::Dropped;
use crate::world::inventory::{Inventory, SLOTS, Stack};
use crate::world::progress::Progress;
use crate::world::{Tile, Wall, World};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a journal adds to its save's file name.
pub const SUFFIX: &str = ".journal";

/// Seconds between two records in play (what a crash loses at most, about).
pub const FLUSH_SECONDS: f64 = 1.0;

/// Most bytes of a journal read: far more than a long session's changes (a record of a
/// whole 16384 × 4096 world changed is about 1 GiB; that world is saved long before).
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The journal of the save at `save`: the same name with [`SUFFIX`] after it.
pub fn path_of(save: &Path) -> PathBuf {
    let mut name = save.as_os_str().to_owned();
    name.push(SUFFIX);
    PathBuf::from(name)
}

/// A stack as a record keeps it: the item's name and the count.
type Slot = Option<(String, u32)>;

/// The save a journal follows: its length and the checksum at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Base {
    pub len: u64,
    pub sum: u32,
}

impl Base {
    /// The base of the save file at `path` (`None`: no such file, or too short for a save).
    pub fn of_file(path: &Path) -> Option<Base> {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = std::fs::File::open(path).ok()?;
        let len = f.metadata().ok()?.len();
        if len < 4 {
            return None;
        }
        f.seek(SeekFrom::Start(len - 4)).ok()?;
        let mut b = [0u8; 4];
        f.read_exact(&mut b).ok()?;
        Some(Base {
            len,
            sum: u32::from_le_bytes(b),
        })
    }
}

/// A town person as a record keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Townsman {
    name: String,
    pos: (f32, f32),
    anchor: (f32, f32),
    home: Option<(f32, f32)>,
}

/// The player of the save as a record keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Player {
    pos: (f32, f32),
    slots: Vec<Slot>,
    selected: u8,
    armour: Vec<Option<String>>,
    health: f32,
    max_health: f32,
    time_of_day: f32,
    town: Vec<Townsman>,
    bed: Option<(u32, u32)>,
    /// The most mana; a journal from before it was kept has a new player's.
    #[serde(default = "usual_most_mana")]
    max_mana: u32,
}

fn usual_most_mana() -> u32 {
    crate::sim::mana::START
}

/// One line of a journal: its first names the save ([`Base`]), the others are records.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Line {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base: Option<Base>,
    /// Tiles changed: x, y and the tile's number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tiles: Vec<(u32, u32, u8)>,
    /// Background walls changed (a hammer): x, y and the wall's number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<(u32, u32, u8)>,
    /// Chests whose contents changed: x, y and the slots (none: it holds nothing now).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    chests: Vec<(u32, u32, Vec<Slot>)>,
    /// Every item lying in the world, when they changed: centre x, y, item and count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dropped: Option<Vec<(f32, f32, String, u32)>>,
    /// Times the Eye fell, nights begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    story: Option<(u32, u64)>,
    /// Shadow orbs broken and times the Eater, Skeletron and the Wall fell, when the story
    /// changed and one of them is not zero (a journal from before them has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    later: Option<(u32, u32, u32, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<Player>,
    /// Characters kept by name (what the keeper stores of them), when they changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    characters: Vec<(String, serde_json::Value)>,
}

fn slot_of(cat: &Catalog, s: &Option<Stack>) -> Slot {
    s.map(|s| (cat.item(s.item).name.clone(), s.count))
}

/// The stack a record names: a known item in a count a stack allows.
fn stack_in(cat: &Catalog, slot: &Slot) -> Result<Option<Stack>, String> {
    let Some((name, count)) = slot else {
        return Ok(None);
    };
    let item = cat
        .id(name)
        .ok_or_else(|| format!("unknown item {name:?}"))?;
    let stack = Stack {
        item,
        count: *count,
    };
    if !crate::world::inventory::stack_ok(cat, stack) {
        return Err(format!("{count} {name}: not a stack"));
    }
    Ok(Some(stack))
}

fn slots_in<const N: usize>(cat: &Catalog, slots: &[Slot]) -> Result<[Option<Stack>; N], String> {
    if slots.len() != N {
        return Err(format!("{} slots, expected {N}", slots.len()));
    }
    let mut out = [None; N];
    for (o, s) in out.iter_mut().zip(slots) {
        *o = stack_in(cat, s)?;
    }
    Ok(out)
}

fn player_of(p: &PlayerState) -> Player {
    let cat = p.inventory.catalog();
    Player {
        pos: p.pos,
        slots: p
            .inventory
            .slots()
            .iter()
            .map(|s| slot_of(cat, s))
            .collect(),
        selected: p.inventory.selected() as u8,
        armour: p
            .inventory
            .armour()
            .iter()
            .map(|a| a.map(|id| cat.item(id).name.clone()))
            .collect(),
        health: p.health,
        max_health: p.max_health,
        time_of_day: p.time_of_day,
        town: p
            .town
            .iter()
            .map(|n| Townsman {
                name: n.name.to_string(),
                pos: n.pos,
                anchor: n.anchor,
                home: n.home,
            })
            .collect(),
        bed: p.bed.map(|(x, y)| (x as u32, y as u32)),
        max_mana: p.max_mana,
    }
}

/// The player a record holds (its values are checked again, with the whole world, by
/// [`save::loads_again`] once the replay is done); its items are `cat`'s.
fn state_in(cat: &Arc<Catalog>, p: &Player) -> Result<PlayerState, String> {
    let slots = slots_in::<SLOTS>(cat, &p.slots)?;
    let mut worn = [None; 3];
    if p.armour.len() != 3 {
        return Err("armour of other than 3 slots".into());
    }
    for (w, a) in worn.iter_mut().zip(&p.armour) {
        if let Some(name) = a {
            *w = Some(
                cat.id(name)
                    .ok_or_else(|| format!("unknown armour {name:?}"))?,
            );
        }
    }
    let inventory = Inventory::from_parts(cat, slots, p.selected as usize)
        .and_then(|i| i.with_armour(worn))
        .ok_or("an inventory out of range")?;
    let mut town = Vec::new();
    for t in &p.town {
        let name = NAMES
            .into_iter()
            .find(|n| *n == t.name)
            .ok_or_else(|| format!("{:?} is not a town person", t.name))?;
        town.push(NpcState {
            name,
            pos: t.pos,
            anchor: t.anchor,
            home: t.home,
        });
    }
    Ok(PlayerState {
        pos: p.pos,
        inventory,
        health: p.health,
        max_health: p.max_health,
        time_of_day: p.time_of_day,
        town,
        bed: p.bed.map(|(x, y)| (x as usize, y as usize)),
        max_mana: p
            .max_mana
            .clamp(crate::sim::mana::START, crate::sim::mana::HIGHEST),
        // The piggy bank is the character's: a world's journal keeps none.
        bank: Default::default(),
    })
}

fn dropped_of(cat: &Catalog, world: &World) -> Vec<(f32, f32, String, u32)> {
    world
        .dropped
        .iter()
        .map(|d| {
            let name = cat.item(d.stack.item).name.clone();
            (d.pos.0, d.pos.1, name, d.stack.count)
        })
        .collect()
}

/// The chests holding something (what a save keeps of them).
fn full_chests(chests: &Chests) -> BTreeMap<(usize, usize), Chest> {
    chests
        .iter()
        .filter(|(_, c)| !c.is_empty())
        .map(|(at, c)| (at, c.clone()))
        .collect()
}

/// A line as written: the FNV-1a of the text in hex, a space, the text.
fn line_text(line: &Line) -> String {
    // A struct of numbers, strings and options of them cannot fail to serialise.
    let text = serde_json::to_string(line).unwrap_or_default();
    format!("{:08x} {text}\n", save::fnv1a32(text.as_bytes()))
}

/// A line as read, or `None` when it is torn or damaged.
fn parse_line(raw: &str) -> Option<Line> {
    let (sum, text) = raw.split_once(' ')?;
    let sum = u32::from_str_radix(sum, 16).ok()?;
    (save::fnv1a32(text.as_bytes()) == sum)
        .then(|| serde_json::from_str(text).ok())
        .flatten()
}

/// The cells of `now` that differ from `was` (x, y and the cell's number, for a grid
/// `width` wide), `was` brought up to `now`. Compared as bytes a block at a time (a
/// memcmp: a second of play changes few blocks, and a 16384 x 4096 grid is compared in
/// milliseconds).
fn differences(was: &mut [u8], now: &[u8], width: usize) -> Vec<(u32, u32, u8)> {
    const CHUNK: usize = 4096;
    let mut out = Vec::new();
    if was.len() != now.len() {
        return out;
    }
    for (c, (a, b)) in now.chunks(CHUNK).zip(was.chunks_mut(CHUNK)).enumerate() {
        if a == &*b {
            continue;
        }
        for (i, (&t, &w)) in a.iter().zip(b.iter()).enumerate() {
            if t != w {
                let at = c * CHUNK + i;
                out.push(((at % width) as u32, (at / width) as u32, t));
            }
        }
        b.copy_from_slice(a);
    }
    out
}

/// The bytes of a grid of tiles.
fn tile_bytes(cells: &[Tile]) -> &[u8] {
    // SAFETY: `Tile` is `#[repr(u8)]`: each cell is one initialised byte, and the bytes
    // live as long as the cells they are read from.
    unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<u8>(), cells.len()) }
}

/// The bytes of a grid of walls.
fn wall_bytes(cells: &[Wall]) -> &[u8] {
    // SAFETY: `Wall` is `#[repr(u8)]`, as `Tile` ([`tile_bytes`]).
    unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<u8>(), cells.len()) }
}

/// A journal being written: the moment last written, to write only what differs.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    tiles: Vec<u8>,
    walls: Vec<u8>,
    chests: BTreeMap<(usize, usize), Chest>,
    dropped: Vec<(f32, f32, String, u32)>,
    story: Progress,
    player: Player,
    characters: BTreeMap<String, serde_json::Value>,
    /// Records written since the journal started.
    pub records: u64,
}

/// Why a journal was not kept or not replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalError {
    /// There is no save at this path to keep a journal of.
    NoSave(PathBuf),
    /// The journal's file cannot be read or written (the sentence names it).
    Io(String),
    /// The journal follows another save (one written before the last save): left be.
    OtherSave,
    /// The journal cannot be replayed into its save: why.
    Invalid(String),
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JournalError::NoSave(save) => {
                write!(f, "{}: no save to keep a journal of", save.display())
            }
            JournalError::Io(why) | JournalError::Invalid(why) => f.write_str(why),
            JournalError::OtherSave => f.write_str("it follows another save"),
        }
    }
}

impl std::error::Error for JournalError {}

impl Journal {
    /// Starts the journal of the save at `save` (just written: `world`, `player` and
    /// `characters` are what it and the characters' files hold), replacing any journal
    /// there atomically.
    pub fn start(
        save: &Path,
        world: &World,
        player: &PlayerState,
        characters: &[(String, serde_json::Value)],
    ) -> Result<Journal, JournalError> {
        let base = Base::of_file(save).ok_or_else(|| JournalError::NoSave(save.to_path_buf()))?;
        let path = path_of(save);
        let head = line_text(&Line {
            base: Some(base),
            ..Line::default()
        });
        crate::base::fsio::write_file(&path, |f| f.write_all(head.as_bytes()))
            .map_err(|e| JournalError::Io(e.to_string()))?;
        Journal::open(path, None, world, player, characters, 0)
    }

    /// The journal at `path` opened to append (cut to `len` bytes first when given), its
    /// last record being `world`, `player` and `characters`, with `records` before.
    fn open(
        path: PathBuf,
        len: Option<u64>,
        world: &World,
        player: &PlayerState,
        characters: &[(String, serde_json::Value)],
        records: u64,
    ) -> Result<Journal, JournalError> {
        let show = |e: std::io::Error| JournalError::Io(format!("{}: {e}", path.display()));
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(show)?;
        if let Some(len) = len {
            file.set_len(len).map_err(show)?;
        }
        Ok(Journal {
            path,
            file,
            tiles: tile_bytes(world.tiles()).to_vec(),
            walls: wall_bytes(world.walls()).to_vec(),
            chests: full_chests(&world.chests),
            dropped: dropped_of(player.inventory.catalog(), world),
            story: world.progress,
            player: player_of(player),
            characters: characters.iter().cloned().collect(),
            records,
        })
    }

    /// Goes on with the journal of the save at `save` whose replay made `world` and
    /// `player` ([`load`]): its records are kept, a torn last line cut off, and the next
    /// record follows the last. Without a journal that follows this save (none, another
    /// save's, one set aside) a new one starts ([`Journal::start`]). Returns the journal
    /// and the records it kept.
    pub fn resume(
        save: &Path,
        world: &World,
        player: &PlayerState,
        characters: &[(String, serde_json::Value)],
    ) -> Result<(Journal, u64), JournalError> {
        let path = path_of(save);
        let bytes = crate::base::fsio::read_bounded(&path, MAX_BYTES).unwrap_or_default();
        let (mut end, mut records) = (0usize, 0u64);
        for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let line = raw
                .strip_suffix(b"\n")
                .and_then(|l| std::str::from_utf8(l).ok())
                .and_then(parse_line);
            match line {
                Some(l) if i == 0 && l.base.is_some() && l.base == Base::of_file(save) => {}
                Some(l) if i > 0 && l.base.is_none() => records += 1,
                _ => break,
            }
            end += raw.len();
        }
        if end == 0 {
            return Ok((Journal::start(save, world, player, characters)?, 0));
        }
        let journal = Journal::open(path, Some(end as u64), world, player, characters, records)?;
        Ok((journal, records))
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a record of what differs from the last one (nothing when nothing does)
    /// and syncs it to the disk; says whether one was written.
    pub fn flush(
        &mut self,
        world: &World,
        player: &PlayerState,
        characters: &[(String, serde_json::Value)],
    ) -> Result<bool, JournalError> {
        let mut line = Line::default();
        let width = world.width();
        line.tiles = differences(&mut self.tiles, tile_bytes(world.tiles()), width);
        line.walls = differences(&mut self.walls, wall_bytes(world.walls()), width);
        let cat = player.inventory.catalog();
        let chests = full_chests(&world.chests);
        for (&(x, y), c) in &chests {
            if self.chests.get(&(x, y)) != Some(c) {
                let slots = c.slots().iter().map(|s| slot_of(cat, s)).collect();
                line.chests.push((x as u32, y as u32, slots));
            }
        }
        for &(x, y) in self.chests.keys() {
            if !chests.contains_key(&(x, y)) {
                line.chests.push((x as u32, y as u32, Vec::new()));
            }
        }
        self.chests = chests;
        let dropped = dropped_of(cat, world);
        if dropped != self.dropped {
            line.dropped = Some(dropped.clone());
            self.dropped = dropped;
        }
        if world.progress != self.story {
            let p = world.progress;
            line.story = Some((p.eye_defeated, p.nights));
            if !p.later_untouched() {
                line.later = Some((
                    p.orbs_broken,
                    p.eater_defeated,
                    p.skeletron_defeated,
                    p.wall_defeated,
                ));
            }
            self.story = p;
        }
        let p = player_of(player);
        if p != self.player {
            line.player = Some(p.clone());
            self.player = p;
        }
        for (name, c) in characters {
            if self.characters.get(name) != Some(c) {
                line.characters.push((name.clone(), c.clone()));
                self.characters.insert(name.clone(), c.clone());
            }
        }
        if line == Line::default() {
            return Ok(false);
        }
        let text = line_text(&line);
        let show = |e: std::io::Error| JournalError::Io(format!("{}: {e}", self.path.display()));
        self.file.write_all(text.as_bytes()).map_err(show)?;
        self.file.sync_data().map_err(show)?;
        self.records += 1;
        Ok(true)
    }
}

/// What a replay did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    /// Records replayed.
    pub records: usize,
    /// The characters as the journal last held them, by name.
    pub characters: BTreeMap<String, serde_json::Value>,
    /// What went wrong, for the log: a torn last line (a crash while it was written), or
    /// a journal refused and kept beside (the save then loads as it was).
    pub warning: Option<String>,
}

/// Applies one record to `world` and `player`, all or nothing (items named as in the
/// player's catalog).
fn apply(line: &Line, world: &mut World, player: &mut PlayerState) -> Result<(), String> {
    let cat = Arc::clone(player.inventory.catalog());
    let (w, h) = (world.width(), world.height());
    let mut tiles = Vec::with_capacity(line.tiles.len());
    for &(x, y, t) in &line.tiles {
        let tile = Tile::from_u8(t).ok_or_else(|| format!("unknown tile {t}"))?;
        if x as usize >= w || y as usize >= h {
            return Err(format!("tile {x} {y} outside the world"));
        }
        tiles.push((x as usize, y as usize, tile));
    }
    let mut walls = Vec::with_capacity(line.walls.len());
    for &(x, y, v) in &line.walls {
        let wall = Wall::from_u8(v).ok_or_else(|| format!("unknown wall {v}"))?;
        if x as usize >= w || y as usize >= h {
            return Err(format!("wall {x} {y} outside the world"));
        }
        walls.push((x as usize, y as usize, wall));
    }
    let mut chests = Vec::with_capacity(line.chests.len());
    for (x, y, slots) in &line.chests {
        if *x as usize >= w || *y as usize >= h {
            return Err(format!("chest {x} {y} outside the world"));
        }
        let chest = if slots.is_empty() {
            None
        } else {
            let slots = slots_in::<CHEST_SLOTS>(&cat, slots)?;
            Some(Chest::from_slots(&cat, slots).ok_or("a chest's stack out of range")?)
        };
        chests.push((*x as usize, *y as usize, chest));
    }
    let dropped = match &line.dropped {
        None => None,
        Some(list) => {
            let mut out = Vec::with_capacity(list.len());
            for (x, y, name, count) in list {
                let stack =
                    stack_in(&cat, &Some((name.clone(), *count)))?.ok_or("an empty item")?;
                if !world.holds((*x, *y)) {
                    return Err(format!("an item at ({x}, {y}), outside the world"));
                }
                out.push(Dropped::new(stack, (*x, *y), None));
            }
            Some(out)
        }
    };
    let state = line
        .player
        .as_ref()
        .map(|p| state_in(&cat, p))
        .transpose()?;
    for (x, y, tile) in tiles {
        world.set(x, y, tile);
    }
    for (x, y, wall) in walls {
        world.set_wall(x, y, wall);
    }
    for (x, y, chest) in chests {
        match chest {
            Some(c) => world.chests.insert(x, y, c),
            None => {
                world.chests.remove(x, y);
            }
        }
    }
    if let Some(d) = dropped {
        world.dropped = d;
    }
    if let Some((eye, nights)) = line.story {
        world.progress.eye_defeated = eye;
        world.progress.nights = nights;
    }
    if let Some((orbs, eater, skeletron, wall)) = line.later {
        let p = &mut world.progress;
        (p.orbs_broken, p.eater_defeated) = (orbs, eater);
        (p.skeletron_defeated, p.wall_defeated) = (skeletron, wall);
    }
    if let Some(s) = state {
        *player = s;
    }
    Ok(())
}

/// Replays the journal `text` of the save whose base is `base` into `world` and
/// `player`; `Err` when the journal is not this save's (nothing changed then).
fn replay_text(
    text: &str,
    base: Base,
    world: &mut World,
    player: &mut PlayerState,
) -> Result<Replayed, JournalError> {
    let mut lines = text.split_inclusive('\n');
    let head = lines
        .next()
        .and_then(|l| l.strip_suffix('\n'))
        .and_then(parse_line)
        .and_then(|l| l.base);
    if head != Some(base) {
        return Err(JournalError::OtherSave);
    }
    let mut out = Replayed::default();
    for (i, raw) in lines.enumerate() {
        let whole = raw.ends_with('\n');
        let line = whole
            .then(|| parse_line(raw.trim_end_matches('\n')))
            .flatten();
        let Some(line) = line else {
            out.warning = Some(format!(
                "record {} is torn or damaged (a crash while it was written): replayed up to it",
                i + 1
            ));
            break;
        };
        if let Err(e) = apply(&line, world, player) {
            out.warning = Some(format!("record {}: {e}: replayed up to it", i + 1));
            break;
        }
        for (name, c) in line.characters {
            out.characters.insert(name, c);
        }
        out.records += 1;
    }
    Ok(out)
}

/// Loads the save at `path` ([`save::load_game`], its items `cat`'s) and replays its
/// journal, if it has one that follows it. A journal that cannot be read, or whose replay would make a
/// world no save could hold, is set aside as `….journal.bad` (the warning says so) and
/// the save loads as it was.
pub fn load(
    path: &Path,
    cat: &Arc<Catalog>,
) -> Result<(World, PlayerState, Replayed), SaveFileError> {
    let (world, player) = save::load_game(path, cat)?;
    let jpath = path_of(path);
    if !jpath.exists() {
        return Ok((world, player, Replayed::default()));
    }
    let base = Base::of_file(path);
    let read = crate::base::fsio::read_bounded(&jpath, MAX_BYTES)
        .map_err(|e| JournalError::Io(e.to_string()));
    let (mut w, mut p) = (world.clone(), player.clone());
    let outcome = read.and_then(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        let base = base.ok_or_else(|| JournalError::Invalid("no save".into()))?;
        let r = replay_text(&text, base, &mut w, &mut p)?;
        save::loads_again(&w, &p).map_err(|e| {
            JournalError::Invalid(format!("the world it makes would not load: {e}"))
        })?;
        Ok(r)
    });
    match outcome {
        Ok(r) => Ok((w, p, r)),
        Err(why @ JournalError::OtherSave) => Ok((
            world,
            player,
            Replayed {
                warning: Some(format!(
                    "{}: not replayed: {why} (one written before the last save)",
                    jpath.display()
                )),
                ..Replayed::default()
            },
        )),
        Err(why) => {
            let mut bad = jpath.as_os_str().to_owned();
            bad.push(save::BAD_SUFFIX);
            let kept = std::fs::rename(&jpath, &bad).is_ok();
            let warning = format!(
                "{}: not replayed: {why}{}",
                jpath.display(),
                if kept {
                    format!("; kept as {}", PathBuf::from(bad).display())
                } else {
                    String::new()
                }
            );
            Ok((
                world,
                player,
                Replayed {
                    warning: Some(warning),
                    ..Replayed::default()
                },
            ))
        }
    }
}

#[cfg(test)]
mod tests;
