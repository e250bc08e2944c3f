//! What a Strata client and server say to each other: the messages ([`ToServer`],
//! [`ToClient`]), their binary encoding (serde and postcard, every message bounded by
//! [`MAX_MESSAGE`] before and after decoding) and the regions of a world sent whole, as
//! deflated runs of tiles, walls and chests ([`Region`]).
//!
//! The protocol has a version ([`VERSION`]): a client of another version is refused with
//! a message saying which one the server speaks. Everything goes over renet's channels
//! ([`Channel`]); nothing here knows of sockets.

use crate::content::items::Catalog;
use crate::sim::session::{Intent, PlayerId};
use crate::world::World;
use crate::world::chest::{CHEST_SLOTS, Chest};
use crate::world::inventory::Stack;
use crate::world::{Tile, Wall};
use serde::{Deserialize, Serialize};
use std::io::Read;

mod cast;
mod foe;
pub use cast::{Bolt, MAX_BOLTS, bolts_in, bolts_of};
pub use foe::{Foe, FoePart, MAX_FOE_PARTS, foe_of, rival_in};

/// The protocol's version: bumped whenever a message changes, or a cell may hold a tile
/// or wall an older build does not know (5: tiles past 63 and walls past 15, with save
/// format 8; the world's clock, goodbyes and the keeper's messages; 6: the content's files
/// ride in [`ToServer::Hello`] and the [`Identity`]; 7: the boss after the Eye,
/// [`Foe`], in the snapshot, the open shop's seller and the accessories worn in `Own`, and the
/// intents that click accessories and fire the hook; the
/// projectiles in flight in the snapshot, and mana in `Own`; 8: the casters' bolts, the
/// world's progress and each player's grappling line in the snapshot, the piggy bank, its
/// tile 67 and the character's bank in `Own`, and a creature on fire in the snapshot).
pub const VERSION: u32 = 8;

/// The netcode protocol id (a client and server of different ids never connect).
pub const PROTOCOL_ID: u64 = 0x5354_5241_5441_0000 | VERSION as u64;

/// The port a server listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7777;

/// Bytes one encoded message may have, either way.
pub const MAX_MESSAGE: usize = 256 * 1024;

/// Bytes a region may inflate to.
pub const MAX_REGION_RAW: usize = 64 * 1024;

/// Tiles across and down one region (the world is sent in these squares).
pub const REGION: usize = 64;

/// Most characters of a chat line, a name or a password.
pub const MAX_CHAT: usize = 200;
pub const MAX_NAME: usize = crate::store::character::MAX_NAME;
pub const MAX_PASSWORD: usize = 64;

/// Most intents in one [`ToServer::Input`] (a tick's worth and some).
pub const MAX_INTENTS: usize = 32;

/// renet's channels as Strata uses them (the numbers of renet's `DefaultChannel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Unreliable: where players and creatures are, every few ticks.
    Snapshots = 0,
    /// Reliable and ordered: joining, the world's changes, chat, inputs.
    Ordered = 2,
}

impl From<Channel> for u8 {
    fn from(c: Channel) -> u8 {
        c as u8
    }
}

/// A client's message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToServer {
    /// The first message: who is joining. `password` keeps the character under `name`;
    /// `server_password` is the server's own (empty when it has none).
    Hello {
        version: u32,
        name: String,
        password: String,
        server_password: String,
        /// The files of the client's content ([`crate::content::mods::Source`]): a server
        /// whose content differs refuses, saying which files.
        content: Vec<crate::content::mods::Source>,
    },
    /// The client made the world from the [`Identity`]: `matches` when its untouched
    /// world hashes as the server's (then only changed regions are sent, else all).
    Generated { matches: bool },
    /// One tick of the client's intents; `seq` counts up from 1 by one each message.
    Input { seq: u64, intents: Vec<Intent> },
    /// A chat line.
    Say(String),
}

/// What makes a world: the client generates it from this.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The preset as RON text (with the world's size).
    pub preset: String,
    pub seed: u64,
    pub width: u32,
    pub height: u32,
    /// [`generator_version`] of the server's build.
    pub generator: String,
    /// [`untouched_hash`] of the world as generated.
    pub untouched: u64,
    /// The files of the server's content, each with its hash: a client whose content
    /// differs leaves, saying which files ([`crate::content::mods::differs`]).
    pub content: Vec<crate::content::mods::Source>,
}

/// One tile's new state: tile, wall and, where there is a chest entry, its slots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub x: u32,
    pub y: u32,
    pub tile: u8,
    pub wall: u8,
    pub chest: Option<Vec<Option<(String, u32)>>>,
}

/// A player as others see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    pub id: u32,
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub facing: i8,
    pub health: f32,
    /// Swinging or digging this tick (for the animation).
    pub busy: bool,
    /// PvP on, and the team (0: none), as the player list shows them.
    pub pvp: bool,
    pub team: u8,
    /// Where its grappling hook's line caught, if it is on one (the line is drawn).
    pub hook: Option<(f32, f32)>,
}

/// A creature as the clients see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Beast {
    pub name: String,
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub facing: i8,
    /// It was hit a moment ago (it flashes).
    pub hit: bool,
    /// On fire (a flaming arrow's): drawn tinted.
    pub burning: bool,
}

/// An item lying (or flying) in the world, as the clients see it: its name, count and
/// centre.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lying {
    pub name: String,
    pub count: u32,
    pub pos: (f32, f32),
}

/// The chest a player has open: its tile and its slots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenChest {
    pub x: u32,
    pub y: u32,
    pub slots: Vec<Option<(String, u32)>>,
}

/// A player's own state as the server has it after the player's input `ack` (its
/// [`ToServer::Input`] `seq`): the character, the stack on the cursor, the open chest
/// with its slots, whose shop is open (its seller's name). A client shows this with the
/// actions it sent after `ack` done again on top.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Own {
    pub ack: u64,
    pub character: Character,
    pub held: Option<(String, u32)>,
    pub chest: Option<OpenChest>,
    pub shop: Option<String>,
    /// The player is dead: its death screen shows until it comes back.
    pub death: Option<Fate>,
    /// Mana now and its most ([`crate::sim::mana`]).
    pub mana: (f32, u32),
}

/// A projectile in flight as the clients see it ([`crate::sim::projectiles`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub look: crate::sim::projectiles::Look,
    pub pos: (f32, f32),
    pub vel: (f32, f32),
}

/// Most projectiles a snapshot carries (the rest are not drawn on the clients).
pub const MAX_SHOTS: usize = crate::sim::projectiles::MAX_PROJECTILES;

/// The projectiles of `session` as the clients see them, at most [`MAX_SHOTS`].
pub fn shots_of(session: &crate::sim::session::Session) -> Vec<Shot> {
    (session.projectiles.iter().take(MAX_SHOTS))
        .map(|p| Shot {
            look: p.look,
            pos: p.pos,
            vel: p.vel,
        })
        .collect()
}

/// Projectiles to draw from a snapshot's `shots` (at most [`MAX_SHOTS`], those with a
/// place and speed that are numbers); they do nothing on a client but show.
pub fn shots_in(shots: &[Shot]) -> Vec<crate::sim::projectiles::Projectile> {
    let finite = |p: (f32, f32)| p.0.is_finite() && p.1.is_finite();
    (shots.iter().take(MAX_SHOTS))
        .filter(|s| finite(s.pos) && finite(s.vel))
        .map(|s| crate::sim::projectiles::Projectile {
            look: s.look,
            pos: s.pos,
            vel: s.vel,
            owner: usize::MAX,
            damage: 0.0,
            pierce: 0,
            life: crate::sim::projectiles::LIFETIME,
            blast: None,
        })
        .collect()
}

/// A player's death as its own window sees it: what the screen says and the ticks left
/// before it comes back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fate {
    pub text: String,
    pub ticks_left: u64,
}

/// Most ticks a [`Fate`] from a server may have left (a minute; more is cut to it).
pub const MAX_FATE_TICKS: u64 = 3600;

/// The Eye as the clients see it: where it is and flies, its health and most health,
/// its phase (1 or 2), whether it was hit a moment ago and how far it has spun into
/// phase two (spinning now when `turning`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eye {
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub health: f32,
    pub max: f32,
    pub phase: u8,
    pub hit: bool,
    pub spin: f32,
    pub turning: bool,
}

/// A town person as the clients see them: one of [`crate::sim::npc::NAMES`], where they
/// stand and walk, which way they face.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Folk {
    pub name: String,
    pub pos: (f32, f32),
    pub vel: (f32, f32),
    pub facing: i8,
}

/// The joining player's own character: what it carries, its health (the format of a
/// character's file holds it too).
pub use crate::store::character::Character;

/// A server's message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToClient {
    /// Accepted: the player's id, the world's identity, the message of the day, the
    /// character and the players already on (id, name).
    Welcome {
        version: u32,
        you: u32,
        identity: Identity,
        motd: String,
        character: Character,
        players: Vec<(u32, String)>,
    },
    /// Not accepted, or dropped: why.
    Refused(String),
    /// `total` regions will come (after [`ToServer::Generated`]).
    Regions {
        total: u32,
    },
    /// One region, whole (see [`Region`]).
    Region(Region),
    /// Every region has been sent: the world is ready.
    Ready,
    /// Cells that changed this tick.
    Cells(Vec<Cell>),
    /// The player's own state changed, or an input with actions was done.
    Me(Own),
    /// A chat line (`from`: a player's name, or empty for the server).
    Chat {
        from: String,
        text: String,
    },
    Joined {
        id: u32,
        name: String,
    },
    Left {
        id: u32,
        name: String,
    },
    /// A message for this player alone (a notice, a refusal).
    Notice(String),
    /// The server's [`view_hash`] after the cells of `tick` (each second): a client
    /// whose view hashes otherwise has missed something.
    Hash {
        tick: u64,
        hash: u64,
    },
    /// Where the players, creatures, items and hearts lying about, the Eye and the town's
    /// people are, and the world's clock (`time`, the time of day as the session keeps it,
    /// 0 to 1) (on [`Channel::Snapshots`]).
    Snapshot {
        tick: u64,
        time: f32,
        bodies: Vec<Body>,
        beasts: Vec<Beast>,
        items: Vec<Lying>,
        hearts: Vec<(f32, f32)>,
        boss: Option<Eye>,
        town: Vec<Folk>,
        /// The boss after the Eye about, if any.
        rival: Option<Foe>,
        /// Arrows, bolts and bombs in flight, at most [`MAX_SHOTS`].
        shots: Vec<Shot>,
        /// The casters' bolts in flight (the fire imp's fireball), at most [`MAX_BOLTS`].
        bolts: Vec<Bolt>,
        /// The world's progress (the bosses fallen).
        progress: crate::world::progress::Progress,
    },
}

/// Why bytes did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    TooLong(usize),
    Malformed(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::TooLong(n) => write!(f, "message of {n} bytes, over {MAX_MESSAGE}"),
            DecodeError::Malformed(e) => write!(f, "malformed message: {e}"),
        }
    }
}

/// Encodes a message (postcard: varints, no field names).
pub fn encode<T: Serialize>(msg: &T) -> Vec<u8> {
    // Plain data of strings, numbers and vectors always serialises.
    postcard::to_stdvec(msg).unwrap_or_default()
}

/// Decodes a message of at most [`MAX_MESSAGE`] bytes; trailing bytes are refused.
/// Postcard never allocates more than the bytes present can hold, so a claimed length
/// cannot make it allocate beyond the message's own size.
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    if bytes.len() > MAX_MESSAGE {
        return Err(DecodeError::TooLong(bytes.len()));
    }
    let (msg, rest) =
        postcard::take_from_bytes(bytes).map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(DecodeError::Malformed(format!(
            "{} bytes after the message",
            rest.len()
        )));
    }
    Ok(msg)
}

/// The build's generator: a client of another generator falls back to whole regions.
pub fn generator_version() -> String {
    format!(
        "{} passes {}",
        env!("CARGO_PKG_VERSION"),
        crate::worldgen::PASSES.len()
    )
}

/// The hash of a world's tiles and walls (its identity's `untouched`).
pub fn untouched_hash(world: &World) -> u64 {
    world.tile_hash() ^ world.wall_hash().rotate_left(1)
}

/// The hash of what a client's view and the server's world share: tiles, walls and
/// chests. A client that missed nothing hashes as the server.
pub fn view_hash(world: &World) -> u64 {
    let mut h = untouched_hash(world);
    for ((x, y), c) in world.chests.iter() {
        let text = format!("{x} {y} {:?}", c.slots());
        for b in text.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Slots as item names and counts.
pub fn slots_out(cat: &Catalog, slots: &[Option<Stack>]) -> Vec<Option<(String, u32)>> {
    slots
        .iter()
        .map(|s| s.map(|s| (cat.item(s.item).name.clone(), s.count)))
        .collect()
}

/// Slots from item names and counts: an unknown name or a count over the item's stack
/// leaves the slot empty; more slots than `n` are refused.
pub fn slots_in<const N: usize>(
    cat: &Catalog,
    slots: &[Option<(String, u32)>],
) -> Option<[Option<Stack>; N]> {
    if slots.len() != N {
        return None;
    }
    let mut out = [None; N];
    for (o, s) in out.iter_mut().zip(slots) {
        *o = s.as_ref().and_then(|(name, count)| {
            let item = cat.id(name)?;
            (*count > 0).then_some(Stack {
                item,
                count: *count,
            })
        });
    }
    Some(out)
}

/// The cell at `(x, y)` of `world`.
pub fn cell(cat: &Catalog, world: &World, x: usize, y: usize) -> Cell {
    Cell {
        x: x as u32,
        y: y as u32,
        tile: world.tile(x, y) as u8,
        wall: world.wall(x, y) as u8,
        chest: world.chests.get(x, y).map(|c| slots_out(cat, c.slots())),
    }
}

/// Puts `cell` into `world`; false when it is outside or names no tile or wall.
pub fn apply_cell(cat: &Catalog, world: &mut World, c: &Cell) -> bool {
    let (x, y) = (c.x as usize, c.y as usize);
    let (Some(tile), Some(wall)) = (Tile::from_u8(c.tile), Wall::from_u8(c.wall)) else {
        return false;
    };
    if x >= world.width() || y >= world.height() {
        return false;
    }
    world.set(x, y, tile);
    world.set_wall(x, y, wall);
    match &c.chest {
        None => {
            world.chests.remove(x, y);
        }
        Some(slots) => {
            let chest = slots_in::<CHEST_SLOTS>(cat, slots).and_then(|s| Chest::from_slots(cat, s));
            let Some(chest) = chest else {
                return false;
            };
            world.chests.insert(x, y, chest);
        }
    }
    true
}

/// One region of a world, whole: its corner (in regions) and its cells deflated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub rx: u32,
    pub ry: u32,
    /// Deflated postcard of [`RegionCells`].
    pub data: Vec<u8>,
}

/// A region's cells, row-major (tiles then walls, one byte each) and its chests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct RegionCells {
    tiles: Vec<u8>,
    walls: Vec<u8>,
    chests: Vec<Cell>,
}

/// The tiles of region `(rx, ry)` in `world`: `(x0, y0, x1, y1)`, end exclusive.
pub fn region_box(world: &World, rx: usize, ry: usize) -> (usize, usize, usize, usize) {
    let (x0, y0) = (rx * REGION, ry * REGION);
    (
        x0,
        y0,
        (x0 + REGION).min(world.width()),
        (y0 + REGION).min(world.height()),
    )
}

/// Regions across and down `world`.
pub fn regions_of(world: &World) -> (usize, usize) {
    (
        world.width().div_ceil(REGION),
        world.height().div_ceil(REGION),
    )
}

/// Does region `(rx, ry)` of `a` differ from `b`'s (tiles, walls or chests)? The two
/// worlds have one size.
pub fn region_differs(a: &World, b: &World, rx: usize, ry: usize) -> bool {
    let (x0, y0, x1, y1) = region_box(a, rx, ry);
    (y0..y1).any(|y| {
        a.row(y)[x0..x1] != b.row(y)[x0..x1] || a.wall_row(y)[x0..x1] != b.wall_row(y)[x0..x1]
    }) || chests_in(a, x0, y0, x1, y1).ne(chests_in(b, x0, y0, x1, y1))
}

fn chests_in(
    w: &World,
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
) -> impl Iterator<Item = ((usize, usize), &Chest)> {
    w.chests
        .iter()
        .filter(move |((x, y), _)| (x0..x1).contains(x) && (y0..y1).contains(y))
}

/// Region `(rx, ry)` of `world`, deflated.
pub fn region(cat: &Catalog, world: &World, rx: usize, ry: usize) -> Region {
    let (x0, y0, x1, y1) = region_box(world, rx, ry);
    let mut cells = RegionCells {
        tiles: Vec::with_capacity(REGION * REGION),
        walls: Vec::with_capacity(REGION * REGION),
        chests: Vec::new(),
    };
    for y in y0..y1 {
        cells
            .tiles
            .extend(world.row(y)[x0..x1].iter().map(|&t| t as u8));
        cells
            .walls
            .extend(world.wall_row(y)[x0..x1].iter().map(|&w| w as u8));
    }
    cells.chests = chests_in(world, x0, y0, x1, y1)
        .map(|((x, y), _)| cell(cat, world, x, y))
        .collect();
    let raw = encode(&cells);
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    use std::io::Write;
    // Writing into a Vec cannot fail.
    let _ = z.write_all(&raw);
    Region {
        rx: rx as u32,
        ry: ry as u32,
        data: z.finish().unwrap_or_default(),
    }
}

/// Puts a region into `world`, or says what is wrong with it (outside the world, too
/// big inflated, the wrong number of cells, an unknown tile).
pub fn apply_region(cat: &Catalog, world: &mut World, r: &Region) -> Result<(), String> {
    let (nx, ny) = regions_of(world);
    let (rx, ry) = (r.rx as usize, r.ry as usize);
    if rx >= nx || ry >= ny {
        return Err(format!("region {rx} {ry} outside the world's {nx}x{ny}"));
    }
    let mut raw = Vec::new();
    flate2::read::DeflateDecoder::new(&r.data[..])
        .take(MAX_REGION_RAW as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("region {rx} {ry}: {e}"))?;
    if raw.len() > MAX_REGION_RAW {
        return Err(format!(
            "region {rx} {ry} inflates past {MAX_REGION_RAW} bytes"
        ));
    }
    let cells: RegionCells = decode(&raw).map_err(|e| format!("region {rx} {ry}: {e}"))?;
    let (x0, y0, x1, y1) = region_box(world, rx, ry);
    let n = (x1 - x0) * (y1 - y0);
    if cells.tiles.len() != n || cells.walls.len() != n {
        return Err(format!(
            "region {rx} {ry}: {} cells, not {n}",
            cells.tiles.len()
        ));
    }
    let tiles: Option<Vec<Tile>> = cells.tiles.iter().map(|&b| Tile::from_u8(b)).collect();
    let walls: Option<Vec<Wall>> = cells.walls.iter().map(|&b| Wall::from_u8(b)).collect();
    let (Some(tiles), Some(walls)) = (tiles, walls) else {
        return Err(format!("region {rx} {ry}: an unknown tile or wall"));
    };
    let w = x1 - x0;
    for (i, (t, wl)) in tiles.into_iter().zip(walls).enumerate() {
        let (x, y) = (x0 + i % w, y0 + i / w);
        world.set(x, y, t);
        world.set_wall(x, y, wl);
    }
    let old: Vec<(usize, usize)> = chests_in(world, x0, y0, x1, y1).map(|(p, _)| p).collect();
    for (x, y) in old {
        world.chests.remove(x, y);
    }
    for c in &cells.chests {
        let inside = (x0..x1).contains(&(c.x as usize)) && (y0..y1).contains(&(c.y as usize));
        if !inside || !apply_cell(cat, world, c) {
            return Err(format!("region {rx} {ry}: a bad chest at {} {}", c.x, c.y));
        }
    }
    Ok(())
}

/// Regions of `world` that differ from `untouched` (all of them when `all`), nearest
/// `near` (a tile) first.
pub fn regions_to_send(
    world: &World,
    untouched: &World,
    all: bool,
    near: (f32, f32),
) -> Vec<(usize, usize)> {
    let (nx, ny) = regions_of(world);
    let mut out: Vec<(usize, usize)> = (0..ny)
        .flat_map(|ry| (0..nx).map(move |rx| (rx, ry)))
        .filter(|&(rx, ry)| all || region_differs(world, untouched, rx, ry))
        .collect();
    let d = |&(rx, ry): &(usize, usize)| {
        let cx = (rx * REGION + REGION / 2) as f32 - near.0;
        let cy = (ry * REGION + REGION / 2) as f32 - near.1;
        cx * cx + cy * cy
    };
    out.sort_by(|a, b| d(a).total_cmp(&d(b)).then(a.cmp(b)));
    out
}

/// A character from its slots as names, or `None` when they do not fit.
pub fn character_of(state: &crate::sim::session::PlayerState) -> Character {
    let inv = &state.inventory;
    let cat = inv.catalog();
    Character {
        slots: slots_out(cat, inv.slots()),
        selected: inv.selected() as u32,
        armour: inv
            .armour()
            .iter()
            .map(|a| a.map(|i| cat.item(i).name.clone()))
            .collect(),
        health: state.health,
        pos: state.pos,
        max_health: state.max_health,
        bed: state.bed.map(|(x, y)| (x as u32, y as u32)),
        accessories: inv
            .accessories()
            .iter()
            .map(|a| a.map(|i| cat.item(i).name.clone()))
            .collect(),
        max_mana: state.max_mana,
        bank: slots_out(cat, state.bank.slots()),
    }
}

/// Player `who`'s own state in `session` after its input `ack` ([`Own`]).
pub fn own_of(session: &crate::sim::session::Session, who: PlayerId, ack: u64) -> Own {
    let p = &session.players[who.0];
    let cat = &session.content.catalog;
    let name = |s: Stack| (cat.item(s.item).name.clone(), s.count);
    Own {
        ack,
        character: character_of(&session.live_state(who)),
        held: p.held.map(name),
        chest: p.chest.map(|(x, y)| OpenChest {
            x: x as u32,
            y: y as u32,
            // A piggy bank shows the player's own bank.
            slots: match session.world.tile(x, y) {
                crate::world::Tile::PiggyBank => slots_out(cat, p.bank.slots()),
                _ => session
                    .world
                    .chests
                    .get(x, y)
                    .map_or_else(|| vec![None; CHEST_SLOTS], |c| slots_out(cat, c.slots())),
            },
        }),
        shop: p.shop.map(str::to_string),
        death: p.death.as_ref().map(|d| Fate {
            text: d.text.clone(),
            ticks_left: d.until.saturating_sub(session.tick),
        }),
        mana: (p.mana.now, p.mana.most),
    }
}

/// A death from an [`Own`], for a session at tick `now`: its text cut to [`MAX_CHAT`]
/// characters, its ticks left to [`MAX_FATE_TICKS`].
pub fn death_in(f: &Fate, now: u64) -> crate::sim::session::Death {
    crate::sim::session::Death {
        text: f.text.chars().take(MAX_CHAT).collect(),
        until: now + f.ticks_left.min(MAX_FATE_TICKS),
    }
}

/// The Eye as the clients see it.
pub fn eye_of(b: &crate::sim::boss::Boss) -> Eye {
    use crate::sim::boss::{Mode, Phase};
    Eye {
        pos: b.pos,
        vel: b.vel,
        health: b.health,
        max: b.max,
        phase: match b.phase {
            Phase::One => 1,
            Phase::Two => 2,
        },
        hit: b.hit_flash > 0.0,
        spin: b.spin,
        turning: matches!(b.mode, Mode::Turn { .. }),
    }
}

/// The Eye of a snapshot, to draw (its flight is the server's: it only hovers here), or
/// `None` when a number is not finite or its most health not above zero.
pub fn boss_in(e: &Eye, rules: &crate::content::rules::Rules) -> Option<crate::sim::boss::Boss> {
    use crate::sim::boss::{Boss, Mode, Phase};
    let fine = [e.pos.0, e.pos.1, e.vel.0, e.vel.1, e.health, e.spin]
        .iter()
        .all(|v| v.is_finite());
    if !fine || !e.max.is_finite() || e.max <= 0.0 {
        return None;
    }
    let mut b = Boss::new(e.pos, rules);
    b.vel = e.vel;
    b.max = e.max;
    b.health = e.health.clamp(0.0, e.max);
    b.phase = if e.phase >= 2 { Phase::Two } else { Phase::One };
    b.hit_flash = if e.hit { 0.1 } else { 0.0 };
    b.spin = e.spin;
    if e.turning {
        b.mode = Mode::Turn { left: 0.0 };
    }
    Some(b)
}

/// The town's people of `session` as the clients see them.
pub fn town_of(session: &crate::sim::session::Session) -> Vec<Folk> {
    session
        .town()
        .map(|n| Folk {
            name: n.name.to_string(),
            pos: n.body.pos,
            vel: n.body.vel,
            facing: n.body.facing,
        })
        .collect()
}

/// The items lying in `world` as the clients see them.
pub fn lying_of(cat: &Catalog, world: &World) -> Vec<Lying> {
    world
        .dropped
        .iter()
        .map(|d| Lying {
            name: cat.item(d.stack.item).name.clone(),
            count: d.stack.count,
            pos: d.pos,
        })
        .collect()
}

/// Items from a snapshot, to draw: an unknown name or a count over its stack is left
/// out.
pub fn lying_in(cat: &Catalog, items: &[Lying]) -> Vec<crate::world::dropped::Dropped> {
    items
        .iter()
        .filter_map(|l| {
            let item = cat.id(&l.name)?;
            let ok = l.count > 0 && l.count <= cat.item(item).stack;
            ok.then(|| {
                let stack = Stack {
                    item,
                    count: l.count,
                };
                crate::world::dropped::Dropped::new(stack, l.pos, None)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
