//! Why a save was refused: one variant per thing a save can get wrong, so a caller (a
//! test, the start screen, a server's load) can tell a file of another format from a
//! damaged chest, and each says what it found and what is allowed.

use super::VERSION;
use crate::base::fsio::ReadError;
use crate::content::preset::{PresetError, RangeError};
use crate::world::inventory::HOTBAR_SLOTS;
use std::fmt;

/// Why a save was refused.
#[derive(Debug)]
pub enum SaveError {
    /// Does not start with the magic bytes.
    NotASave,
    /// Ends early; names the part it ends in.
    Truncated(&'static str),
    /// Written by a newer format.
    Newer(u32),
    Checksum,
    /// The file could not be read (or was too long to be a save).
    Read(ReadError),
    /// Format version 0, which no Strata writes.
    VersionZero,
    /// The header's world size is out of range.
    WorldSize(Box<RangeError>),
    /// More bytes than a save of the world its header names can be: the most it can be.
    TooLong {
        limit: u64,
    },
    /// The saved preset's text is longer than a save holds: its length in bytes.
    PresetTooLong(u64),
    /// The saved preset's text is not UTF-8.
    PresetNotUtf8,
    /// The saved preset's text is not a preset this build reads.
    Preset(Box<PresetError>),
    /// The saved preset makes a world of another size than the save's: the preset's size
    /// when it says one, `None` when the world it makes (its walls) has another.
    PresetSize {
        preset: Option<(u32, u32)>,
        world: (usize, usize),
    },
    /// `bytes` bytes after the end of `part` ("checksum", "town", "walls", ...).
    Trailing {
        part: &'static str,
        bytes: usize,
    },
    /// A section longer than its entries: "items" or "armour".
    Overlong(&'static str),
    /// A section tag the save's format does not have, or one given twice.
    Section([u8; 4]),
    /// More sections than format `version` has (`most`).
    TooManySections {
        count: usize,
        version: u32,
        most: usize,
    },
    /// A section of a fixed length of another: its name, its length and the one expected.
    SectionLength {
        section: &'static str,
        len: usize,
        expected: usize,
    },
    /// No world identity (WRLD section), which format `version` always has.
    NoIdentity {
        version: u32,
    },
    /// More of `what` than a save keeps (`most`).
    TooMany {
        what: &'static str,
        count: usize,
        most: usize,
    },
    /// More chests than a chests section of `section_bytes` bytes (or a save) holds.
    TooManyChests {
        count: usize,
        section_bytes: usize,
    },
    /// An inventory of `count` `unit`s ("kinds" or "slots"), where `least` to `most` are.
    InventorySize {
        count: usize,
        unit: &'static str,
        least: usize,
        most: usize,
    },
    /// An item name longer than any item's: its length in bytes.
    NameLength(usize),
    /// The item lying in the world of this index holds nothing.
    EmptyItem(usize),
    /// An item the game's catalog does not have (its name as stored) in `place`.
    UnknownItem {
        name: Vec<u8>,
        place: String,
    },
    /// A stack of `count` `item` in `place`, where a stack holds 1 to `most`.
    BadStack {
        item: String,
        count: u32,
        place: String,
        most: u32,
    },
    /// A selected hotbar slot past the hotbar.
    Hotbar {
        selected: u8,
    },
    /// Armour worn on a slot not its own, or something worn that is not armour.
    Armour,
    /// An accessory slot holding what is not an accessory, or one worn twice.
    Accessories,
    /// Something at (`x`, `y`), outside the world.
    Outside {
        what: Placed,
        x: f32,
        y: f32,
    },
    /// The bed's spawn point at tile `x`, `y`, outside the `width` x `height` world.
    SpawnOutside {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    /// Health out of range (not finite, below 0 or above the highest).
    Health(f32),
    /// Health above the most health the save gives.
    HealthAboveMost {
        health: f32,
        most: f32,
    },
    /// Most health outside `least` to `most`.
    MostHealth {
        value: f32,
        least: f32,
        most: f32,
    },
    /// A time of day outside 0 to below 1.
    TimeOfDay(f32),
    /// A column's surface row below the world.
    SurfaceBelow {
        column: usize,
        row: u32,
    },
    /// A byte that names no tile or wall (`what`) at tile `at` of the grid.
    UnknownCode {
        what: &'static str,
        code: u8,
        at: usize,
    },
    /// A run of `len` tiles or walls (`what`) from tile `at`, past the `total` of the world.
    RunPastEnd {
        what: &'static str,
        len: u64,
        at: usize,
        total: usize,
    },
    /// A run length of more than 64 bits, ending at byte `at`.
    RunTooLong {
        at: usize,
    },
    /// The explored map's runs do not cover the map (the map's own sentence).
    Explored(String),
    /// A town person's name that is none of the town's (as stored).
    NotATownPerson(Vec<u8>),
    /// A town person listed twice.
    TownTwice(&'static str),
    /// A town person's home flag other than 0 or 1.
    HomeFlag {
        name: &'static str,
        flag: u8,
    },
    /// Chest `index`, at tile `x`, `y`, is wrong as `problem` says.
    Chest {
        index: usize,
        x: usize,
        y: usize,
        problem: ChestProblem,
    },
}

/// What lies outside the world in [`SaveError::Outside`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Placed {
    /// The player.
    Player,
    /// The item lying in the world of this index.
    Item(usize),
    /// A town person's position, anchor or home.
    Town(&'static str),
}

/// What is wrong with a stored chest ([`SaveError::Chest`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChestProblem {
    /// Not on a chest tile of the world.
    NotOnChestTile,
    /// Not after the chest before it in row-major order.
    OutOfOrder,
    /// Its stacks are not a chest's.
    StackOutOfRange,
    /// It holds nothing (an empty chest is stored as none).
    Empty,
}

/// A stored item name for a message: quoted, its bytes escaped when it is not UTF-8.
fn shown_name(name: &[u8]) -> String {
    match std::str::from_utf8(name) {
        Ok(text) => format!("{text:?}"),
        Err(_) => format!("\"{}\" (not UTF-8)", name.escape_ascii()),
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::NotASave => write!(f, "not a Strata save"),
            SaveError::Truncated(part) => write!(f, "truncated: ends in the {part}"),
            SaveError::Newer(v) => {
                write!(
                    f,
                    "made by a newer Strata (format v{v}, this build reads up to v{VERSION})"
                )
            }
            SaveError::Checksum => write!(f, "checksum mismatch: the file is damaged"),
            SaveError::Read(e) => write!(f, "{e}"),
            damaged => {
                write!(f, "damaged save: ")?;
                damaged.detail(f)
            }
        }
    }
}

impl SaveError {
    /// What a damaged save holds wrong, after "damaged save: ".
    fn detail(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SaveError as E;
        match self {
            E::VersionZero => write!(f, "format version 0"),
            E::WorldSize(e) => write!(f, "world size: {e}"),
            E::TooLong { limit } => write!(
                f,
                "more than {limit} bytes, the most a save of its world can be"
            ),
            E::PresetTooLong(n) => write!(f, "preset text of {n} bytes"),
            E::PresetNotUtf8 => write!(f, "preset text is not UTF-8"),
            E::Preset(e) => write!(f, "{e}"),
            E::PresetSize {
                preset: Some((pw, ph)),
                world: (w, h),
            } => write!(f, "the saved preset is {pw}x{ph} but the world is {w}x{h}"),
            E::PresetSize { preset: None, .. } => {
                write!(f, "the saved preset makes a world of another size")
            }
            E::Trailing { part, bytes } => write!(f, "{bytes} unexpected bytes after the {part}"),
            E::Overlong("armour") => write!(f, "armour section longer than its three slots"),
            E::Overlong(part) => write!(f, "{part} section longer than its {part}"),
            E::Section(tag) => write!(
                f,
                "section {:?} unknown or repeated",
                String::from_utf8_lossy(tag)
            ),
            E::TooManySections {
                count,
                version,
                most,
            } => write!(f, "{count} sections, format v{version} has at most {most}"),
            E::SectionLength {
                section,
                len,
                expected,
            } => write!(f, "{section} of {len} bytes, expected {expected}"),
            E::NoIdentity { version } => write!(
                f,
                "no world identity (WRLD section), which format v{version} always has"
            ),
            E::TooMany { what, count, most } => {
                write!(f, "{count} {what}, at most {most} are kept")
            }
            E::TooManyChests {
                count,
                section_bytes,
            } => write!(f, "{count} chests in a section of {section_bytes} bytes"),
            E::InventorySize {
                count,
                unit,
                least,
                most,
            } if least == most => write!(f, "inventory of {count} {unit}, expected {most}"),
            E::InventorySize {
                count,
                unit,
                least,
                most,
            } => write!(f, "inventory of {count} {unit}, expected {least} to {most}"),
            E::NameLength(n) => write!(f, "item name of {n} bytes"),
            E::EmptyItem(i) => write!(f, "item {i} lying in the world is empty"),
            E::UnknownItem { name, place } => {
                write!(f, "unknown item {} in {place}", shown_name(name))
            }
            E::BadStack {
                item,
                count,
                place,
                most,
            } => write!(f, "{count} {item} in {place}, a stack holds 1 to {most}"),
            E::Hotbar { selected } => write!(
                f,
                "selected hotbar slot {selected}, the hotbar has {HOTBAR_SLOTS}"
            ),
            E::Armour => write!(f, "armour worn on a slot not its own, or not armour"),
            E::Accessories => write!(
                f,
                "an accessory slot holds what is not an accessory, or one worn twice"
            ),
            E::Outside { what, x, y } => match what {
                Placed::Player => write!(f, "player position ({x}, {y}) outside the world"),
                Placed::Item(i) => write!(f, "item {i} at ({x}, {y}), outside the world"),
                Placed::Town(name) => {
                    write!(f, "town: the {name} at ({x}, {y}) is outside the world")
                }
            },
            E::SpawnOutside {
                x,
                y,
                width,
                height,
            } => write!(f, "spawn point {x} {y} outside the {width}x{height} world"),
            E::Health(h) => write!(f, "health {h}"),
            E::HealthAboveMost { health, most } => {
                write!(f, "health {health} above the most health {most}")
            }
            E::MostHealth { value, least, most } => {
                write!(f, "most health {value}: allowed {least} to {most}")
            }
            E::TimeOfDay(t) => write!(f, "time of day {t}"),
            E::SurfaceBelow { column, row } => {
                write!(f, "surface row {row} of column {column} below the world")
            }
            E::UnknownCode { what, code, at } => {
                write!(f, "unknown {what} byte {code} at tile {at}")
            }
            E::RunPastEnd {
                what,
                len,
                at,
                total,
            } => write!(f, "run of {len} {what}s at tile {at} (world has {total})"),
            E::RunTooLong { at } => write!(f, "run length too long at byte {at}"),
            E::Explored(e) => write!(f, "explored map: {e}"),
            E::NotATownPerson(name) => write!(
                f,
                "town: {:?} is not a town person (allowed {})",
                String::from_utf8_lossy(name),
                crate::sim::npc::NAMES.join(", ")
            ),
            E::TownTwice(name) => write!(f, "town: the {name} is listed twice"),
            E::HomeFlag { name, flag } => {
                write!(f, "town: the {name}'s home flag is {flag}, not 0 or 1")
            }
            E::Chest {
                index,
                x,
                y,
                problem,
            } => {
                let says = match problem {
                    ChestProblem::NotOnChestTile => " is not on a chest tile",
                    ChestProblem::OutOfOrder => " out of order",
                    ChestProblem::StackOutOfRange => ": a stack out of range",
                    ChestProblem::Empty => " holds nothing",
                };
                write!(f, "chest {index} at {x} {y}{says}")
            }
            // The four above, and a read error, are not "damaged".
            E::NotASave | E::Truncated(_) | E::Newer(_) | E::Checksum | E::Read(_) => {
                write!(f, "{self}")
            }
        }
    }
}

impl std::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SaveError::Read(e) => Some(e),
            SaveError::Preset(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}
