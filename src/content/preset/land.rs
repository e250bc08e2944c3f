//! Preset sections for what lies on the land: the oceans at both ends, the biomes across
//! the width, the lakes and the trees, with their defaults and range checks.

use super::{Basis, Preset, RangeError};
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

/// A biome: what the ground is made of and what grows on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Biome {
    /// Grass over dirt over stone: the land between the other biomes, and around spawn.
    Forest,
    /// Sand over sandstone, dunes and cacti.
    Desert,
    /// Snow over ice, boreal trees.
    Snow,
    /// Mud with jungle grass, mud caves.
    Jungle,
    /// The seas at both ends (from the ocean section, not listed in `biomes.spans`).
    Ocean,
}

/// One biome placed as a span of columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiomeSpan {
    pub biome: Biome,
    /// Width of the span at the surface, as a share of the world's width.
    pub width: f64,
    /// Up to this many more spans of the biome: the seed draws how many (0 to `extra`),
    /// so one world has one desert and the next two.
    #[serde(default)]
    pub extra: u32,
}

/// The biomes: spans laid side by side across the land between the oceans, forest between
/// them and around the spawn point, each reaching down into the underground.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BiomeParams {
    /// The biomes besides forest and ocean, in no particular order: the seed shuffles them
    /// and places them on both sides of the spawn point. Empty: forest everywhere.
    pub spans: Vec<BiomeSpan>,
    /// How far below the surface a biome reaches, as a share of the height: the span
    /// narrows into a rounded bowl towards that depth.
    pub depth: f64,
    /// How far a biome's edges wander from row to row, in tiles (its border is ragged,
    /// never a straight vertical cut).
    pub border: u32,
    /// Desert: tiles of sand over the sandstone.
    pub sand_depth: u32,
    /// Desert: height of the dunes on its surface, in tiles.
    pub dune_height: f64,
    /// The noise of the dunes.
    pub dune_basis: Basis,
    /// The noise of the snow's and the jungle's pockets under the surface.
    pub pocket_basis: Basis,
    /// How much the seed changes each span's width: a width `w` is drawn from
    /// `w * (1 - width_jitter)` to `w * (1 + width_jitter)`. 0: as listed.
    pub width_jitter: f64,
    /// Snow and jungle on opposite halves of the world (the dungeon on the snow's side,
    /// away from the jungle). false: the seed deals every span to either side.
    pub opposite: bool,
    /// The jungle reaches down to the underworld (a band of mud from the surface to the
    /// world's floor) instead of ending in a bowl `depth` deep.
    pub deep_jungle: bool,
    /// Width of the underground desert under each desert (a wide oval of sandstone and
    /// hardened sand from just under the surface to `depth`), as a multiple of the
    /// desert's width at the surface. 0: none, the desert ends in a shallow bowl.
    pub underground_desert: f64,
}

impl Default for BiomeParams {
    fn default() -> Self {
        let span = |biome, width, extra| BiomeSpan {
            biome,
            width,
            extra,
        };
        BiomeParams {
            spans: vec![
                span(Biome::Snow, 0.1, 0),
                span(Biome::Desert, 0.07, 1),
                span(Biome::Jungle, 0.12, 0),
            ],
            depth: 0.4,
            border: 24,
            sand_depth: 16,
            dune_height: 8.0,
            dune_basis: Basis::Perlin,
            pocket_basis: Basis::Perlin,
            width_jitter: 0.3,
            opposite: true,
            deep_jungle: true,
            underground_desert: 1.3,
        }
    }
}

/// Lakes: water in valleys of the surface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LakeParams {
    /// How many lakes to look for per 4200 columns of land (one valley per stretch of
    /// land; a stretch without a valley that holds water has none). 0 turns lakes off.
    pub per_4200: f64,
    /// Most rows of water in a lake.
    pub max_depth: u32,
    /// Widest row of water in a lake, in tiles.
    pub max_width: u32,
}

impl Default for LakeParams {
    fn default() -> Self {
        LakeParams {
            per_4200: 5.0,
            max_depth: 24,
            max_width: 180,
        }
    }
}

/// Trees: placed along the surface by a noise field of their own (groves and clearings),
/// in a form per biome: broadleaf on forest grass, tall jungle trees on jungle grass,
/// boreal trees on snow, palms on the beaches, cacti in the desert.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TreeParams {
    /// Chance that a column in the thickest grove starts a tree; the tree noise scales it
    /// down to nothing in clearings. 0 turns trees off.
    pub density: f64,
    /// Fewest columns from one trunk to the next.
    pub spacing: u32,
    /// Frequency of the tree noise, cycles per tile: lower makes wider groves.
    pub frequency: f64,
    /// The noise of the groves.
    pub basis: Basis,
    /// Shortest trunk, in tiles.
    pub min_height: u32,
    /// Tallest trunk, in tiles (jungle trees grow half as tall again).
    pub max_height: u32,
}

impl Default for TreeParams {
    fn default() -> Self {
        TreeParams {
            density: 0.5,
            spacing: 7,
            frequency: 0.005,
            basis: Basis::Perlin,
            min_height: 6,
            max_height: 14,
        }
    }
}

/// Tallest trunk a preset may ask for.
pub const MAX_TREE: u32 = 64;

/// Most spans in `biomes.spans`.
pub const MAX_BIOME_SPANS: usize = 12;

/// Checks the rules of the biome spans the ranges in [`super::FIELDS`] do not cover.
pub(super) fn validate(p: &Preset) -> Result<(), RangeError> {
    let b = &p.biomes;
    if b.spans.len() > MAX_BIOME_SPANS {
        return Err(RangeError {
            field: "biomes.spans".into(),
            value: format!("{} entries", b.spans.len()),
            allowed: format!("at most {MAX_BIOME_SPANS} entries"),
        });
    }
    for (i, span) in b.spans.iter().enumerate() {
        if span.biome == Biome::Ocean {
            return Err(RangeError {
                field: format!("biomes.spans[{i}].biome"),
                value: "Ocean".into(),
                allowed: "Forest, Desert, Snow or Jungle (oceans come from the ocean section)"
                    .into(),
            });
        }
    }
    // Every extra span counted: the most land the spans may ask for.
    let total: f64 = b.spans.iter().map(|s| s.width * (1 + s.extra) as f64).sum();
    if total > 0.8 {
        return Err(RangeError {
            field: "biomes.spans".into(),
            value: format!("widths adding up to {total} (each times 1 + extra)"),
            allowed: "widths adding up to at most 0.8".into(),
        });
    }
    Ok(())
}
