//! The preset sections of the mini-biome and underworld passes: marble and granite caves,
//! the glowing mushroom biome, bee hives, spider caves, gems, clay and silt, the
//! underworld's ruins and its hellstone. Each pass has its own section with a switch
//! (`enabled`), so the world lab turns each on and off; `classic` has them all off.

use serde::{Deserialize, Serialize};

/// A pass that lays a few landmarks a world: a switch, how many per 4200 columns
/// (Terraria's Small width) and how large. One struct a section, so a section written in
/// part takes its own pass's defaults for the rest.
macro_rules! pockets {
    ($(#[$doc:meta])* $name:ident, $per:expr, $size:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            /// Lay them at all.
            pub enabled: bool,
            /// How many per 4200 columns of the world (rounded).
            pub per_4200: f64,
            /// Half the width of one, in tiles (each varies by a third either way).
            pub size: f64,
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    enabled: true,
                    per_4200: $per,
                    size: $size,
                }
            }
        }

        impl $name {
            /// How many a `width`-column world gets: 0 when off.
            pub fn count(&self, width: usize) -> usize {
                if !self.enabled {
                    return 0;
                }
                (self.per_4200 * width as f64 / 4200.0).round() as usize
            }
        }
    };
}

pockets!(
    /// Marble caves: halls of marble with floors in bands, marble walls behind.
    MarbleParams,
    4.0,
    32.0
);
pockets!(
    /// Granite caves: bubbles of open rock in dark granite, granite walls behind.
    GraniteParams,
    4.0,
    30.0
);
pockets!(
    /// The glowing mushroom biome: a cave in the caverns floored with mud and mushroom
    /// grass, lit by its mushrooms. A world whose count rounds to none still gets one.
    MushroomParams,
    1.5,
    70.0
);
pockets!(
    /// Bee hives: shells of hive blocks in the jungle's mud, half full of honey.
    HiveParams,
    3.0,
    20.0
);
pockets!(
    /// Spider caves: caves hung with cobwebs.
    SpiderParams,
    4.0,
    28.0
);
pockets!(
    /// The underworld's ruins: houses and towers of obsidian brick on its floor.
    RuinParams,
    10.0,
    7.0
);

/// Gems in the stone of the underground and cavern layers, rarer kinds deeper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GemParams {
    pub enabled: bool,
    /// Clusters per million tiles of the layers they lie in.
    pub per_million: f64,
}

impl Default for GemParams {
    fn default() -> Self {
        GemParams {
            enabled: true,
            per_million: 120.0,
        }
    }
}

/// Clay in the dirt near the surface, silt in the caverns' stone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DepositParams {
    pub enabled: bool,
    /// Clay blobs per 100 columns.
    pub clay: f64,
    /// Silt blobs per million tiles of the cavern layer.
    pub silt: f64,
}

impl Default for DepositParams {
    fn default() -> Self {
        DepositParams {
            enabled: true,
            clay: 6.0,
            silt: 60.0,
        }
    }
}

/// Hellstone beside the underworld's lava.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HellstoneParams {
    pub enabled: bool,
    /// Chance that a block of the underworld within `reach` tiles of lava turns to
    /// hellstone.
    pub chance: f64,
    /// Tiles from the lava.
    pub reach: u32,
}

impl Default for HellstoneParams {
    fn default() -> Self {
        HellstoneParams {
            enabled: true,
            chance: 0.35,
            reach: 2,
        }
    }
}
