//! Tiles: one byte each, and everything else about a tile in one table ([`TILES`]): its
//! name, label, ASCII character, palette colour and matter (solid, air, liquid, decor).
//! Also the backdrop colours drawn behind open air, and what a mined tile drops
//! ([`drop_of`]). Doors are two tiles: closed is solid, open is decor; platforms are decor
//! that a body stands on from above.

/// One tile of the world, stored as one byte.
///
/// The discriminants are part of the save format and the tile hash: append new tiles at
/// the end, never renumber. Everything else about a tile is one row of [`TILES`].
#[repr(u8)]
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Tile {
    #[default]
    Air = 0,
    Dirt = 1,
    Stone = 2,
    Grass = 3,
    IronOre = 4,
    GoldOre = 5,
    DiamondOre = 6,
    Water = 7,
    Torch = 8,
    Sand = 9,
    Sandstone = 10,
    Snow = 11,
    Ice = 12,
    Mud = 13,
    JungleGrass = 14,
    Ash = 15,
    Lava = 16,
    Obsidian = 17,
    CopperOre = 18,
    SilverOre = 19,
    Hellstone = 20,
    Trunk = 21,
    Leaves = 22,
    Cactus = 23,
    Wood = 24,
    Workbench = 25,
    Furnace = 26,
    Anvil = 27,
    Chest = 28,
    ClosedDoor = 29,
    OpenDoor = 30,
    Platform = 31,
    Table = 32,
    Chair = 33,
    Bed = 34,
    /// In the caverns: broken, it gives a life crystal, which raises the most health.
    LifeCrystal = 35,
    Rope = 36,
    /// The Eye's trophy: its defeat gives one; it hangs on a background wall.
    EyeTrophy = 37,
    /// Copper's twin: a world has one or the other.
    TinOre = 38,
    /// Iron's twin.
    LeadOre = 39,
    /// Silver's twin.
    TungstenOre = 40,
    /// Gold's twin.
    PlatinumOre = 41,
    /// The underground desert's packed sand.
    HardenedSand = 42,
    /// A spare number: nothing makes or places it.
    Reserved43 = 43,
    /// The evil biome's grass.
    CorruptGrass = 44,
    /// The evil biome's stone.
    Ebonstone = 45,
    /// Ore found in the evil biome's ebonstone (and dropped by the Eye).
    DemoniteOre = 46,
    /// At the foot of the evil biome's chasms: no pickaxe digs it, a hammer smashes it
    /// for its loot (`sim::edit`).
    ShadowOrb = 47,
    /// The dungeon's bricks: they need a pickaxe better than the first tiers.
    DungeonBrick = 48,
    /// In the dungeon: touching one hurts.
    Spike = 49,
    /// Floating islands stand on clouds.
    Cloud = 50,
    /// A spare number: nothing makes or places it.
    Reserved51 = 51,
    /// Marble caves: white stone in bands.
    Marble = 52,
    /// Granite caves: dark speckled stone.
    Granite = 53,
    /// The glowing mushroom biome's grass, grown on mud.
    MushroomGrass = 54,
    /// A glowing mushroom on mushroom grass: it lights the cave.
    GlowMushroom = 55,
    /// A bee hive's walls.
    Hive = 56,
    /// The third liquid, held in hives: it flows like water.
    Honey = 57,
    /// Spider caves: a cobweb slows whoever moves through it.
    Cobweb = 58,
    /// Near the surface, in the dirt.
    Clay = 59,
    /// In the caverns, in the stone.
    Silt = 60,
    /// The underworld's ruined houses and towers.
    ObsidianBrick = 61,
    /// Gems in the stone, rarer deeper: amethyst, topaz, sapphire, emerald, ruby (then
    /// diamond, [`Tile::DiamondOre`]).
    Amethyst = 62,
    Topaz = 63,
    Sapphire = 64,
    Emerald = 65,
    Ruby = 66,
    /// Furniture the Merchant sells: right-clicked, it opens its player's own bank (the
    /// same contents from every piggy bank in every world, [`crate::world::chest::Bank`]).
    PiggyBank = 67,
}

/// What kind of matter a tile is: decides collision, digging and what connectivity sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matter {
    /// Open air (the sky and caves).
    Air,
    /// Blocks movement and light; dug to remove.
    Solid,
    /// Flows; neither air nor solid.
    Liquid,
    /// Walked through but dug like a block (torches, trunks, leaves, cacti).
    Decor,
}

/// Everything Strata knows about one tile kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileInfo {
    /// Lower-case identifier as used in stats JSON (`iron_ore`).
    pub name: &'static str,
    /// What players read in the legend, hotbar and inspector (`iron ore`).
    pub label: &'static str,
    /// The character used by `strata gen --ascii`.
    pub ascii: char,
    /// Mean colour in the one-pixel-per-tile palette (PNG, far zoom, minimap).
    pub color: [u8; 4],
    pub matter: Matter,
    /// Seconds of digging to remove it; `None` for what cannot be dug.
    pub dig_time: Option<f32>,
}

const fn row(
    name: &'static str,
    label: &'static str,
    ascii: char,
    rgb: [u8; 3],
    matter: Matter,
    dig_time: Option<f32>,
) -> TileInfo {
    TileInfo {
        name,
        label,
        ascii,
        color: [rgb[0], rgb[1], rgb[2], 255],
        matter,
        dig_time,
    }
}

use Matter::{Air as A, Decor as D, Liquid as L, Solid as S};

/// One row per tile, in discriminant order (`TILES[t as usize]` describes `t`).
pub const TILES: [TileInfo; 68] = [
    row("air", "air", ' ', [SKY[0], SKY[1], SKY[2]], A, None),
    row("dirt", "dirt", '.', [151, 107, 75], S, Some(0.15)),
    row("stone", "stone", '#', [118, 118, 124], S, Some(0.45)),
    row("grass", "grass", 'w', [86, 170, 62], S, Some(0.15)),
    row("iron_ore", "iron ore", 'i', [196, 140, 110], S, Some(0.7)),
    row("gold_ore", "gold ore", 'g', [236, 200, 64], S, Some(0.8)),
    row(
        "diamond_ore",
        "diamond ore",
        'D',
        [120, 232, 244],
        S,
        Some(1.0),
    ),
    row("water", "water", '~', [52, 104, 220], L, None),
    row("torch", "torch", 't', [255, 196, 72], D, Some(0.0)),
    row("sand", "sand", 's', [222, 200, 140], S, Some(0.12)),
    row("sandstone", "sandstone", 'S', [186, 148, 96], S, Some(0.4)),
    row("snow", "snow", '*', [232, 240, 250], S, Some(0.12)),
    row("ice", "ice", 'I', [150, 200, 242], S, Some(0.3)),
    row("mud", "mud", 'm', [94, 70, 66], S, Some(0.15)),
    row(
        "jungle_grass",
        "jungle grass",
        'j',
        [40, 156, 104],
        S,
        Some(0.15),
    ),
    row("ash", "ash", 'a', [86, 80, 88], S, Some(0.2)),
    row("lava", "lava", 'L', [250, 104, 32], L, None),
    row("obsidian", "obsidian", 'O', [58, 42, 84], S, Some(1.5)),
    row(
        "copper_ore",
        "copper ore",
        'c',
        [204, 112, 60],
        S,
        Some(0.55),
    ),
    row(
        "silver_ore",
        "silver ore",
        'v',
        [204, 208, 218],
        S,
        Some(0.75),
    ),
    row("hellstone", "hellstone", 'h', [172, 52, 40], S, Some(1.2)),
    row("trunk", "tree trunk", '|', [122, 86, 52], D, Some(0.4)),
    row("leaves", "leaves", '%', [52, 132, 52], D, Some(0.05)),
    row("cactus", "cactus", 'k', [92, 162, 72], D, Some(0.2)),
    row("wood", "wood", 'W', [172, 122, 72], S, Some(0.3)),
    row("workbench", "workbench", 'B', [150, 104, 60], D, Some(0.3)),
    row("furnace", "furnace", 'F', [110, 98, 96], D, Some(0.5)),
    row("anvil", "anvil", 'V', [92, 96, 108], D, Some(0.5)),
    row("chest", "chest", 'C', [176, 128, 56], D, Some(0.3)),
    row(
        "closed_door",
        "closed door",
        'd',
        [140, 98, 58],
        S,
        Some(0.3),
    ),
    row("open_door", "open door", 'o', [132, 92, 54], D, Some(0.3)),
    row("platform", "platform", '-', [166, 118, 70], D, Some(0.2)),
    row("table", "table", 'T', [158, 110, 64], D, Some(0.3)),
    row("chair", "chair", 'r', [150, 104, 62], D, Some(0.3)),
    row("bed", "bed", 'b', [170, 96, 90], D, Some(0.3)),
    row(
        "life_crystal",
        "life crystal",
        'H',
        [232, 40, 92],
        D,
        Some(0.6),
    ),
    row("rope", "rope", 'R', [176, 146, 96], D, Some(0.05)),
    row(
        "eye_trophy",
        "eye trophy",
        'E',
        [157, 123, 102],
        D,
        Some(0.3),
    ),
    row("tin_ore", "tin ore", 'n', [190, 176, 132], S, Some(0.55)),
    row("lead_ore", "lead ore", 'l', [94, 104, 124], S, Some(0.7)),
    row(
        "tungsten_ore",
        "tungsten ore",
        'u',
        [120, 176, 130],
        S,
        Some(0.75),
    ),
    row(
        "platinum_ore",
        "platinum ore",
        'p',
        [196, 214, 226],
        S,
        Some(0.8),
    ),
    row(
        "hardened_sand",
        "hardened sand",
        'z',
        [204, 168, 112],
        S,
        Some(0.3),
    ),
    reserved("reserved_43", "reserved 43", '5'),
    row(
        "corrupt_grass",
        "corrupt grass",
        'q',
        [124, 110, 170],
        S,
        Some(0.15),
    ),
    row("ebonstone", "ebonstone", 'e', [98, 84, 122], S, Some(0.5)),
    row(
        "demonite_ore",
        "demonite ore",
        'N',
        [110, 70, 170],
        S,
        Some(0.8),
    ),
    row("shadow_orb", "shadow orb", 'x', [150, 60, 200], D, None),
    row(
        "dungeon_brick",
        "dungeon brick",
        'U',
        [66, 84, 150],
        S,
        Some(0.6),
    ),
    row("spike", "spike", '^', [150, 150, 162], S, Some(0.3)),
    row("cloud", "cloud", 'Z', [236, 240, 248], S, Some(0.1)),
    reserved("reserved_51", "reserved 51", '6'),
    row("marble", "marble", 'M', [200, 200, 206], S, Some(0.5)),
    row("granite", "granite", 'G', [66, 62, 82], S, Some(0.5)),
    row(
        "mushroom_grass",
        "mushroom grass",
        'K',
        [64, 92, 196],
        S,
        Some(0.15),
    ),
    row(
        "glow_mushroom",
        "glow mushroom",
        'f',
        [96, 150, 255],
        D,
        Some(0.05),
    ),
    row("hive", "hive", 'X', [214, 150, 40], S, Some(0.3)),
    row("honey", "honey", '=', [248, 174, 30], L, None),
    row("cobweb", "cobweb", '+', [214, 214, 220], D, Some(0.05)),
    row("clay", "clay", 'y', [164, 84, 64], S, Some(0.15)),
    row("silt", "silt", 'J', [110, 104, 100], S, Some(0.12)),
    row(
        "obsidian_brick",
        "obsidian brick",
        'Q',
        [74, 56, 98],
        S,
        Some(1.5),
    ),
    row("amethyst", "amethyst", 'A', [164, 72, 220], S, Some(0.6)),
    row("topaz", "topaz", '&', [236, 172, 40], S, Some(0.6)),
    row("sapphire", "sapphire", 'P', [48, 92, 232], S, Some(0.6)),
    row("emerald", "emerald", '$', [40, 196, 96], S, Some(0.6)),
    row("ruby", "ruby", 'Y', [224, 32, 48], S, Some(0.6)),
    row(
        "piggy_bank",
        "piggy bank",
        '8',
        [236, 150, 170],
        D,
        Some(0.3),
    ),
];

/// A number kept for a tile another part of Strata adds: nothing generates or places it.
const fn reserved(name: &'static str, label: &'static str, ascii: char) -> TileInfo {
    row(name, label, ascii, [0, 0, 0], A, None)
}

impl Tile {
    /// Every tile, in discriminant order (`Tile::ALL[t as usize] == t`).
    pub const ALL: [Tile; 68] = [
        Tile::Air,
        Tile::Dirt,
        Tile::Stone,
        Tile::Grass,
        Tile::IronOre,
        Tile::GoldOre,
        Tile::DiamondOre,
        Tile::Water,
        Tile::Torch,
        Tile::Sand,
        Tile::Sandstone,
        Tile::Snow,
        Tile::Ice,
        Tile::Mud,
        Tile::JungleGrass,
        Tile::Ash,
        Tile::Lava,
        Tile::Obsidian,
        Tile::CopperOre,
        Tile::SilverOre,
        Tile::Hellstone,
        Tile::Trunk,
        Tile::Leaves,
        Tile::Cactus,
        Tile::Wood,
        Tile::Workbench,
        Tile::Furnace,
        Tile::Anvil,
        Tile::Chest,
        Tile::ClosedDoor,
        Tile::OpenDoor,
        Tile::Platform,
        Tile::Table,
        Tile::Chair,
        Tile::Bed,
        Tile::LifeCrystal,
        Tile::Rope,
        Tile::EyeTrophy,
        Tile::TinOre,
        Tile::LeadOre,
        Tile::TungstenOre,
        Tile::PlatinumOre,
        Tile::HardenedSand,
        Tile::Reserved43,
        Tile::CorruptGrass,
        Tile::Ebonstone,
        Tile::DemoniteOre,
        Tile::ShadowOrb,
        Tile::DungeonBrick,
        Tile::Spike,
        Tile::Cloud,
        Tile::Reserved51,
        Tile::Marble,
        Tile::Granite,
        Tile::MushroomGrass,
        Tile::GlowMushroom,
        Tile::Hive,
        Tile::Honey,
        Tile::Cobweb,
        Tile::Clay,
        Tile::Silt,
        Tile::ObsidianBrick,
        Tile::Amethyst,
        Tile::Topaz,
        Tile::Sapphire,
        Tile::Emerald,
        Tile::Ruby,
        Tile::PiggyBank,
    ];

    /// Number of tile kinds.
    pub const COUNT: usize = Self::ALL.len();

    /// The tile for a stored byte, or `None` for a byte no tile uses.
    pub fn from_u8(byte: u8) -> Option<Tile> {
        Self::ALL.get(byte as usize).copied()
    }

    /// This tile's row of [`TILES`].
    #[inline]
    pub fn info(self) -> &'static TileInfo {
        &TILES[self as usize]
    }

    /// Solid tiles block movement and light and are what digging removes.
    #[inline]
    pub fn is_solid(self) -> bool {
        self.info().matter == Matter::Solid
    }

    /// Open air: what cave connectivity labels and what the sky is made of.
    #[inline]
    pub fn is_open(self) -> bool {
        self == Tile::Air
    }

    /// Water, lava and honey.
    #[inline]
    pub fn is_liquid(self) -> bool {
        self.info().matter == Matter::Liquid
    }

    /// A door, closed (solid: nothing passes) or open (walked through).
    #[inline]
    pub fn is_door(self) -> bool {
        matches!(self, Tile::ClosedDoor | Tile::OpenDoor)
    }

    /// A platform: decor that light and sideways movement pass, but that a body falling
    /// onto it from above stands on ([`crate::sim::player`] has the rule).
    #[inline]
    pub fn is_platform(self) -> bool {
        self == Tile::Platform
    }

    /// A number kept for a tile another part of Strata adds (nothing makes or places it).
    pub fn is_reserved(self) -> bool {
        matches!(self, Tile::Reserved43 | Tile::Reserved51)
    }

    /// Lower-case identifier as used in stats JSON (`iron_ore`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// What players read: the legend, the hotbar, the inspector (`iron ore`).
    pub fn label(self) -> &'static str {
        self.info().label
    }

    /// The character used by `strata gen --ascii`.
    pub fn ascii(self) -> char {
        self.info().ascii
    }

    /// The tile's colour in the one-pixel-per-tile palette (PNG export, far zoom, minimap).
    /// Air is the sky colour; underground air is drawn with [`CAVE_BACKDROP`].
    pub fn color(self) -> [u8; 4] {
        self.info().color
    }
}

/// Sky colour behind open air above the surface.
pub const SKY: [u8; 4] = [138, 192, 238, 255];
/// Backdrop colour behind open air below the surface, so caves read as caves: the dirt
/// backdrop of the surface and underground layers.
pub const CAVE_BACKDROP: [u8; 4] = [56, 44, 40, 255];
/// Backdrop behind open air in the cavern layer: stone.
pub const STONE_BACKDROP: [u8; 4] = [50, 50, 56, 255];
/// Backdrop behind open air in the underworld: its glow.
pub const UNDERWORLD_BACKDROP: [u8; 4] = [86, 34, 24, 255];

/// What digging `tile` puts in the inventory.
pub fn drop_of(tile: Tile) -> Tile {
    match tile {
        Tile::Grass | Tile::CorruptGrass => Tile::Dirt,
        Tile::MushroomGrass => Tile::Mud,
        Tile::Trunk => Tile::Wood,
        Tile::OpenDoor => Tile::ClosedDoor,
        t => t,
    }
}
