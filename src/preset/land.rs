//! Preset sections for what lies on the land: the oceans at both ends (later the biomes,
//! lakes and trees), with their defaults and range checks.

use super::{MAX_HEIGHT, MAX_WIDTH, Preset, RangeError, check_f, check_u};
use serde::{Deserialize, Serialize};

/// The oceans: at both ends of the world the ground dips below a sea level, water fills
/// everything between the ground and the sea level, and the sea floor and shore are sand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OceanParams {
    /// Columns of ocean at each end, as a share of the world's width. 0 turns oceans off.
    pub width: f64,
    /// Sea level: a row, as a fraction of the height from the top.
    pub sea_level: f64,
    /// How far below sea level the sea floor lies at the world's edges, in tiles.
    pub depth: u32,
    /// Columns over which the beach rises from the sea and blends into the land.
    pub shore: u32,
    /// Tiles of sand under the sea floor and the beach.
    pub sand_depth: u32,
}

impl Default for OceanParams {
    fn default() -> Self {
        OceanParams {
            width: 0.04,
            sea_level: 0.315,
            depth: 48,
            shore: 70,
            sand_depth: 8,
        }
    }
}

/// Checks the land sections' fields against their documented ranges.
pub(super) fn validate(p: &Preset) -> Result<(), RangeError> {
    let o = &p.ocean;
    check_f("ocean.width", o.width, 0.0, 0.25, false)?;
    check_f("ocean.sea_level", o.sea_level, 0.0, 1.0, false)?;
    check_u("ocean.depth", o.depth, 0, MAX_HEIGHT)?;
    check_u("ocean.shore", o.shore, 0, MAX_WIDTH)?;
    check_u("ocean.sand_depth", o.sand_depth, 0, 256)?;
    Ok(())
}
