//! The preset sections of the landmark passes (the evil biome, the dungeon, floating
//! islands, underground cabins) and of the life crystals: how many, how large. Every count
//! 0 (or `enabled: false`) turns its pass off, as `classic` does for all of them.

use serde::{Deserialize, Serialize};

/// The evil biome: patches of corrupt grass and ebonstone with chasms down to shadow orbs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvilParams {
    /// Fewest and most evil biomes a world gets (the seed draws between them). 0: none.
    pub min: u32,
    pub max: u32,
    /// Width of one, in columns (each drawn within ±25% of it).
    pub width: u32,
    /// Chasms in one.
    pub chasms: u32,
    /// How far a chasm reaches below the top of the cavern layer, in tiles.
    pub below_cavern: u32,
    /// Demonite veins in one.
    pub demonite: u32,
}

/// The dungeon: one entrance building on the surface near the ocean, away from the
/// jungle, and brick corridors, shafts and rooms under it down to the cavern layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DungeonParams {
    /// Build it. false: no dungeon.
    pub enabled: bool,
    /// Columns between the ocean's shore and the entrance.
    pub inland: u32,
    /// Corridors and shafts laid one after another from the entrance down.
    pub segments: u32,
    /// Chance that a corridor has a bed of spikes.
    pub spikes: f64,
    /// Locked chests (in rooms off the corridors).
    pub chests: u32,
}

/// Floating islands: cloud under grass, a tree; one with a house and a sky chest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IslandParams {
    /// Fewest and most islands a world gets. 0: none.
    pub min: u32,
    pub max: u32,
    /// Width of one, in columns (each drawn within ±25% of it).
    pub width: u32,
    /// Rows of clear sky between an island and the highest ground under it.
    pub clearance: u32,
}

/// Underground cabins: planks, a door, a table and chair, a torch and a chest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CabinParams {
    /// Cabins tried per million tiles of the underground and cavern layers. 0: none.
    pub per_million: f64,
}

/// Life crystals on cavern floors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrystalParams {
    /// Crystals in a world of Terraria's Large size (8400x2400), scaled by area. 0: none.
    pub per_large: f64,
}

impl Default for EvilParams {
    fn default() -> Self {
        EvilParams {
            min: 2,
            max: 3,
            width: 200,
            chasms: 3,
            below_cavern: 30,
            demonite: 14,
        }
    }
}

impl Default for DungeonParams {
    fn default() -> Self {
        DungeonParams {
            enabled: true,
            inland: 40,
            segments: 12,
            spikes: 0.4,
            chests: 4,
        }
    }
}

impl Default for IslandParams {
    fn default() -> Self {
        IslandParams {
            min: 4,
            max: 6,
            width: 44,
            clearance: 50,
        }
    }
}

impl Default for CabinParams {
    fn default() -> Self {
        CabinParams { per_million: 8.0 }
    }
}

impl Default for CrystalParams {
    fn default() -> Self {
        CrystalParams { per_large: 50.0 }
    }
}
