//! Background walls: one byte per tile behind the tiles, and everything else about a wall
//! in one table ([`WALLS`]): its name, label, colour, whether the world or a player put
//! it there, and the hammer power and seconds it takes to take down.
//!
//! A wall never blocks movement; it blocks sunlight (see `sim::light`), holds a torch and
//! shows behind open air, darker than the tiles in front of it.

/// One wall, stored as one byte.
///
/// The discriminants are part of the save format and the wall hash: append new walls at
/// the end, never renumber. Everything else about a wall is one row of [`WALLS`].
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wall {
    /// No wall: the sky or the layer's backdrop shows behind open air.
    #[default]
    None = 0,
    Dirt = 1,
    Stone = 2,
    Snow = 3,
    Sandstone = 4,
    Mud = 5,
    Ash = 6,
    /// Placed by a player, crafted from wood.
    Wood = 7,
    /// Placed by a player, crafted from stone.
    StoneBrick = 8,
    /// Behind the dungeon's rooms and corridors.
    DungeonBrick = 9,
    /// Behind the evil biome's chasms.
    Ebonstone = 10,
    /// Behind the underground cabins and the sky house: wooden planks.
    Planks = 11,
    /// Behind a marble cave.
    Marble = 12,
    /// Behind a granite cave.
    Granite = 13,
    /// Behind the glowing mushroom biome.
    Mushroom = 14,
    /// Inside a bee hive.
    Hive = 15,
    /// Behind a spider cave.
    Spider = 16,
    /// Behind the underworld's ruins.
    ObsidianBrick = 17,
}

/// Everything Strata knows about one wall kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallInfo {
    /// Lower-case identifier (`stone_brick`), what items name in `config/items.ron`.
    pub name: &'static str,
    /// What players read (`stone brick wall`).
    pub label: &'static str,
    /// Colour in the one-pixel-per-tile palette (PNG, far zoom, minimap): darker than the
    /// tile it is made of, so a wall reads as behind the tiles.
    pub color: [u8; 4],
    /// Generation puts it there (a player's walls are crafted).
    pub natural: bool,
    /// Hammer power needed to take it down (0 for no wall).
    pub power: u32,
    /// Seconds of hammering by a hammer of speed 1.
    pub hammer_time: f32,
}

const fn row(
    name: &'static str,
    label: &'static str,
    rgb: [u8; 3],
    natural: bool,
    power: u32,
    hammer_time: f32,
) -> WallInfo {
    WallInfo {
        name,
        label,
        color: [rgb[0], rgb[1], rgb[2], 255],
        natural,
        power,
        hammer_time,
    }
}

/// One row per wall, in discriminant order (`WALLS[w as usize]` describes `w`).
pub const WALLS: [WallInfo; 18] = [
    row("none", "no wall", [0, 0, 0], false, 0, 0.0),
    row("dirt", "dirt wall", [84, 60, 44], true, 1, 0.25),
    row("stone", "stone wall", [66, 66, 72], true, 1, 0.35),
    row("snow", "snow wall", [128, 136, 150], true, 1, 0.25),
    row("sandstone", "sandstone wall", [112, 88, 58], true, 1, 0.3),
    row("mud", "mud wall", [58, 44, 42], true, 1, 0.25),
    row("ash", "ash wall", [52, 44, 50], true, 35, 0.35),
    row("wood", "wood wall", [104, 74, 44], false, 1, 0.25),
    row(
        "stone_brick",
        "stone brick wall",
        [80, 80, 88],
        false,
        1,
        0.35,
    ),
    row(
        "dungeon_brick",
        "dungeon brick wall",
        [40, 50, 92],
        true,
        65,
        0.5,
    ),
    row("ebonstone", "ebonstone wall", [60, 52, 74], true, 1, 0.35),
    row("planks", "plank wall", [96, 68, 40], true, 1, 0.25),
    row("marble", "marble wall", [120, 120, 128], true, 1, 0.35),
    row("granite", "granite wall", [40, 38, 52], true, 1, 0.35),
    row("mushroom", "mushroom wall", [36, 50, 104], true, 1, 0.25),
    row("hive", "hive wall", [124, 84, 26], true, 1, 0.3),
    row("spider", "spider wall", [44, 38, 40], true, 1, 0.3),
    row(
        "obsidian_brick",
        "obsidian brick wall",
        [42, 32, 58],
        true,
        35,
        0.5,
    ),
];

impl Wall {
    /// Every wall, in discriminant order (`Wall::ALL[w as usize] == w`).
    pub const ALL: [Wall; 18] = [
        Wall::None,
        Wall::Dirt,
        Wall::Stone,
        Wall::Snow,
        Wall::Sandstone,
        Wall::Mud,
        Wall::Ash,
        Wall::Wood,
        Wall::StoneBrick,
        Wall::DungeonBrick,
        Wall::Ebonstone,
        Wall::Planks,
        Wall::Marble,
        Wall::Granite,
        Wall::Mushroom,
        Wall::Hive,
        Wall::Spider,
        Wall::ObsidianBrick,
    ];

    /// Number of wall kinds (with [`Wall::None`]).
    pub const COUNT: usize = Self::ALL.len();

    /// The wall for a stored byte, or `None` for a byte no wall uses.
    pub fn from_u8(byte: u8) -> Option<Wall> {
        Self::ALL.get(byte as usize).copied()
    }

    /// This wall's row of [`WALLS`].
    #[inline]
    pub fn info(self) -> &'static WallInfo {
        &WALLS[self as usize]
    }

    /// Is there a wall (anything but [`Wall::None`])?
    #[inline]
    pub fn is_some(self) -> bool {
        self != Wall::None
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn label(self) -> &'static str {
        self.info().label
    }

    /// The wall's palette colour.
    pub fn color(self) -> [u8; 4] {
        self.info().color
    }

    /// The wall's colour at tile `(x, y)`, one texel a tile (the PNG export and the
    /// game's chunk textures): its palette colour shaded into a pattern, so a face of wall
    /// is never flat: planks four tiles wide for wood, courses of bricks four by two for
    /// stone brick, a speckle of three shades for natural walls.
    #[inline]
    pub fn texel(self, x: usize, y: usize) -> [u8; 4] {
        let c = self.color();
        let shade = match self {
            Wall::None => return c,
            Wall::Wood | Wall::Planks => [0, 10, 4, 6][x % 4],
            Wall::StoneBrick | Wall::DungeonBrick => {
                let joint = (x + 2 * ((y / 2) % 2)).is_multiple_of(4);
                if y.is_multiple_of(2) || joint { 14 } else { 0 }
            }
            _ => {
                let h = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77);
                [0, 6, 12][(h >> 29) as usize % 3]
            }
        };
        let d = |v: u8| v.saturating_sub(shade);
        [d(c[0]), d(c[1]), d(c[2]), 255]
    }

    /// The wall called `name` ([`WallInfo::name`]).
    pub fn named(name: &str) -> Option<Wall> {
        Self::ALL.into_iter().find(|w| w.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::tile::Tile;

    #[test]
    fn wall_bytes_round_trip_and_are_dense() {
        for (i, w) in Wall::ALL.into_iter().enumerate() {
            assert_eq!(w as usize, i);
            assert_eq!(Wall::from_u8(i as u8), Some(w));
            assert_eq!(Wall::named(w.name()), Some(w));
        }
        assert_eq!(Wall::from_u8(Wall::COUNT as u8), None);
        assert_eq!(Wall::default(), Wall::None);
    }

    #[test]
    fn walls_are_darker_than_the_tiles_they_are_made_of() {
        let pairs = [
            (Wall::Dirt, Tile::Dirt),
            (Wall::Stone, Tile::Stone),
            (Wall::Snow, Tile::Snow),
            (Wall::Sandstone, Tile::Sandstone),
            (Wall::Mud, Tile::Mud),
            (Wall::Ash, Tile::Ash),
            (Wall::Wood, Tile::Wood),
            (Wall::StoneBrick, Tile::Stone),
            (Wall::DungeonBrick, Tile::DungeonBrick),
            (Wall::Ebonstone, Tile::Ebonstone),
            (Wall::Planks, Tile::Wood),
            (Wall::Marble, Tile::Marble),
            (Wall::Granite, Tile::Granite),
            (Wall::Mushroom, Tile::MushroomGrass),
            (Wall::Hive, Tile::Hive),
            (Wall::ObsidianBrick, Tile::ObsidianBrick),
        ];
        let luma = |c: [u8; 4]| 3 * c[0] as u32 + 6 * c[1] as u32 + c[2] as u32;
        for (w, t) in pairs {
            assert!(luma(w.color()) < luma(t.color()), "{w:?} vs {t:?}");
            assert_eq!(w.color()[3], 255);
        }
        let mut names: Vec<&str> = Wall::ALL.iter().map(|w| w.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Wall::COUNT);
    }

    #[test]
    fn a_wall_is_shaded_into_a_pattern_never_brighter_than_its_colour() {
        for w in Wall::ALL.into_iter().skip(1) {
            let mut shades = std::collections::BTreeSet::new();
            for y in 0..8 {
                for x in 0..8 {
                    let t = w.texel(x, y);
                    assert!((0..3).all(|c| t[c] <= w.color()[c]), "{w:?}");
                    shades.insert(t);
                }
            }
            assert!(shades.len() >= 2, "{w:?} is flat");
        }
        // Brick courses: every other row is mortar.
        assert_ne!(Wall::StoneBrick.texel(1, 0), Wall::StoneBrick.texel(1, 1));
        assert_eq!(Wall::None.texel(3, 4), Wall::None.color());
    }

    #[test]
    fn every_wall_can_be_taken_down_and_only_worlds_make_natural_ones() {
        for w in Wall::ALL.into_iter().skip(1) {
            assert!(w.info().power >= 1 && w.info().hammer_time > 0.0, "{w:?}");
        }
        assert!(!Wall::Wood.info().natural && !Wall::StoneBrick.info().natural);
        assert!(Wall::Dirt.info().natural && Wall::Ash.info().natural);
    }
}
