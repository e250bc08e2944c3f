//! Landmarks generation leaves in a world, each a kind and the box it covers, for
//! `strata gen --stats` (`"structures"`), the overlay and the finder. Made by generation
//! only: a loaded world has none (they are not saved, and nothing in play reads them).

/// What a structure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureKind {
    MarbleCave,
    GraniteCave,
    MushroomBiome,
    Hive,
    SpiderCave,
    UnderworldHouse,
    UnderworldTower,
}

impl StructureKind {
    /// Lower-case identifier, as the stats print it (`marble_cave`).
    pub fn name(self) -> &'static str {
        match self {
            StructureKind::MarbleCave => "marble_cave",
            StructureKind::GraniteCave => "granite_cave",
            StructureKind::MushroomBiome => "mushroom_biome",
            StructureKind::Hive => "hive",
            StructureKind::SpiderCave => "spider_cave",
            StructureKind::UnderworldHouse => "underworld_house",
            StructureKind::UnderworldTower => "underworld_tower",
        }
    }
}

/// One landmark: its kind and the box of tiles it covers (left, top, width, height).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Structure {
    pub kind: StructureKind,
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Structure {
    /// Does the box hold tile `(x, y)`?
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (self.x..self.x + self.w).contains(&x) && (self.y..self.y + self.h).contains(&y)
    }

    /// Do two boxes overlap?
    pub fn overlaps(&self, o: &Structure) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_hold_their_tiles_and_overlap_only_when_they_share_one() {
        let a = Structure {
            kind: StructureKind::Hive,
            x: 10,
            y: 20,
            w: 5,
            h: 4,
        };
        assert!(a.contains(10, 20) && a.contains(14, 23));
        assert!(!a.contains(15, 20) && !a.contains(10, 24));
        let b = Structure { x: 14, y: 23, ..a };
        let c = Structure { x: 15, ..a };
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(!a.overlaps(&c));
        assert_eq!(serde_json::to_string(&a.kind).unwrap(), "\"hive\"");
        assert_eq!(StructureKind::MarbleCave.name(), "marble_cave");
    }
}
