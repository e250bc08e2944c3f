//! The preset section of the chests pass: how many chests, how deep, and the ground kept
//! clear of them around the spawn point.

use serde::{Deserialize, Serialize};

/// Chests with loot on cave floors (the loot itself is `config/loot.ron`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChestParams {
    /// Chance that a 64x64-tile block holds a chest, if its spot finds a cave floor. 0
    /// turns the pass off.
    pub per_block: f64,
    /// Chests only deeper than this many tiles below the local surface.
    pub min_depth: u32,
    /// Columns each side of the world's centre (the spawn point) where no chest is placed.
    pub spawn_clear: u32,
}

impl Default for ChestParams {
    fn default() -> Self {
        ChestParams {
            per_block: 0.01,
            min_depth: 30,
            spawn_clear: 80,
        }
    }
}
