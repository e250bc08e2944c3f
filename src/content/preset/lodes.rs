//! The preset section of the lodes pass: ore veins laid by random-walk runners, one ore
//! of each pair per world (copper or tin, iron or lead, silver or tungsten, gold or
//! platinum), denser and larger deeper.

use super::RangeError;
use crate::base::depth::Layer;
use crate::base::tile::Tile;
use serde::{Deserialize, Serialize};

/// Most rows in `lodes.table`.
pub const MAX_LODES: usize = 8;
/// Most veins per million tiles a row may ask for (the pass walks every step of every
/// vein: at this bound and the largest sizes about 40 ms at Large).
pub const MAX_LODE_DENSITY: f64 = 5000.0;
/// Largest vein size (tiles across its widest blob) and most steps of its runner.
pub const MAX_LODE_SIZE: f64 = 24.0;
pub const MAX_LODE_STEPS: u32 = 32;

/// One row of the lode table: the veins of one ore, or of one of a pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lode {
    pub tile: Tile,
    /// Its twin: each world has `tile` or `twin`, never both (the seed draws which).
    /// Unset: always `tile`.
    #[serde(default)]
    pub twin: Option<Tile>,
    /// Veins per million tiles of ground at the top of `from`.
    pub per_million: f64,
    /// Veins per million tiles at the bottom of `to` (linearly between).
    pub deep_per_million: f64,
    /// The first depth layer the ore is found in.
    pub from: Layer,
    /// The last depth layer it is found in.
    pub to: Layer,
    /// Tiles across a vein's widest blob at the top of `from`.
    pub size: f64,
    /// ... at the bottom of `to`.
    pub deep_size: f64,
    /// Steps of a vein's runner (each a blob, smaller as it goes) at the top of `from`.
    pub steps: u32,
    /// ... at the bottom of `to`.
    pub deep_steps: u32,
}

/// The lodes pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LodeParams {
    /// Lay the veins. false: none (the ores pass's table alone).
    pub enabled: bool,
    /// Veins only deeper than this many tiles below the local surface.
    pub min_depth: u32,
    /// Laid in order; ore is no ground, so where veins of two rows cross the earlier row
    /// keeps its ore.
    pub table: Vec<Lode>,
}

impl Default for LodeParams {
    fn default() -> Self {
        use Layer::*;
        let lode = |tile, twin, (per_million, deep_per_million), (from, to), sizes, steps| {
            let ((size, deep_size), (steps, deep_steps)) = (sizes, steps);
            Lode {
                tile,
                twin: Some(twin),
                per_million,
                deep_per_million,
                from,
                to,
                size,
                deep_size,
                steps,
                deep_steps,
            }
        };
        LodeParams {
            enabled: true,
            min_depth: 3,
            table: vec![
                lode(
                    Tile::CopperOre,
                    Tile::TinOre,
                    (420.0, 520.0),
                    (Surface, Cavern),
                    (4.5, 7.0),
                    (4, 8),
                ),
                lode(
                    Tile::IronOre,
                    Tile::LeadOre,
                    (160.0, 600.0),
                    (Surface, Cavern),
                    (4.0, 7.5),
                    (3, 8),
                ),
                lode(
                    Tile::SilverOre,
                    Tile::TungstenOre,
                    (70.0, 420.0),
                    (Underground, Cavern),
                    (4.0, 7.0),
                    (4, 8),
                ),
                lode(
                    Tile::GoldOre,
                    Tile::PlatinumOre,
                    (120.0, 300.0),
                    (Cavern, Cavern),
                    (4.0, 7.0),
                    (4, 8),
                ),
            ],
        }
    }
}

/// The rules between the lode table's fields that the ranges do not cover.
pub(super) fn validate(p: &LodeParams) -> Result<(), RangeError> {
    if p.table.len() > MAX_LODES {
        return Err(RangeError {
            field: "lodes.table".into(),
            value: format!("{} entries", p.table.len()),
            allowed: format!("at most {MAX_LODES} entries"),
        });
    }
    for (i, lode) in p.table.iter().enumerate() {
        for (name, tile) in [("tile", Some(lode.tile)), ("twin", lode.twin)] {
            if let Some(t) = tile.filter(|t| !t.is_solid()) {
                return Err(RangeError {
                    field: format!("lodes.table[{i}].{name}"),
                    value: format!("{t:?}"),
                    allowed: "a solid tile (CopperOre, TinOre, IronOre, LeadOre, ...)".into(),
                });
            }
        }
        super::check_layers(&format!("lodes.table[{i}].to"), lode.from, lode.to)?;
    }
    Ok(())
}
