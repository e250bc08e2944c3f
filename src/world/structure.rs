//! Landmarks: what generation built on purpose (the dungeon, the evil biomes, floating
//! islands, cabins, ...), each a kind and the rectangle of tiles it covers. Every pass that
//! builds one pushes it onto [`crate::world::World::structures`]; `strata gen --stats` lists
//! them, the F3 overlay outlines them and the world lab's Find marks them.
//!
//! They are not saved (the save format has no section for them): a world loaded from a
//! save has none listed, though its tiles keep every landmark.

use serde::Serialize;

/// What a landmark is. Append new kinds at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StructureKind {
    /// A patch of corrupt grass and ebonstone with chasms down to shadow orbs.
    Evil,
    /// The dungeon: an entrance on the surface, brick corridors and rooms below.
    Dungeon,
    /// A floating island of cloud and grass in the sky.
    Island,
    /// A wooden cabin in the caves.
    Cabin,
    /// A cave of marble blocks and walls.
    MarbleCave,
    /// A cave of granite blocks and walls.
    GraniteCave,
    /// Mushroom grass on mud, lit by glowing mushrooms, in the cavern layer.
    MushroomBiome,
    /// A bee hive in the jungle: hive blocks around honey.
    Hive,
    /// A cave hung with cobwebs.
    SpiderCave,
    /// A ruined obsidian-brick house in the underworld.
    UnderworldHouse,
    /// A ruined obsidian-brick tower in the underworld.
    UnderworldTower,
}

impl StructureKind {
    /// Every kind, in declaration order.
    pub const ALL: [StructureKind; 11] = [
        StructureKind::Evil,
        StructureKind::Dungeon,
        StructureKind::Island,
        StructureKind::Cabin,
        StructureKind::MarbleCave,
        StructureKind::GraniteCave,
        StructureKind::MushroomBiome,
        StructureKind::Hive,
        StructureKind::SpiderCave,
        StructureKind::UnderworldHouse,
        StructureKind::UnderworldTower,
    ];

    /// Lower-case identifier, as `--stats` writes it (`dungeon`).
    pub fn name(self) -> &'static str {
        match self {
            StructureKind::Evil => "evil",
            StructureKind::Dungeon => "dungeon",
            StructureKind::Island => "island",
            StructureKind::Cabin => "cabin",
            StructureKind::MarbleCave => "marble_cave",
            StructureKind::GraniteCave => "granite_cave",
            StructureKind::MushroomBiome => "mushroom_biome",
            StructureKind::Hive => "hive",
            StructureKind::SpiderCave => "spider_cave",
            StructureKind::UnderworldHouse => "underworld_house",
            StructureKind::UnderworldTower => "underworld_tower",
        }
    }

    /// What players read (the overlay's label, Find's list).
    pub fn label(self) -> &'static str {
        match self {
            StructureKind::Evil => "corruption",
            StructureKind::Dungeon => "dungeon",
            StructureKind::Island => "floating island",
            StructureKind::Cabin => "cabin",
            StructureKind::MarbleCave => "marble cave",
            StructureKind::GraniteCave => "granite cave",
            StructureKind::MushroomBiome => "glowing mushrooms",
            StructureKind::Hive => "bee hive",
            StructureKind::SpiderCave => "spider cave",
            StructureKind::UnderworldHouse => "ruined house",
            StructureKind::UnderworldTower => "ruined tower",
        }
    }
}

/// One landmark: its kind and the rectangle `x..x + w`, `y..y + h` (tiles) it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Structure {
    pub kind: StructureKind,
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Structure {
    /// The landmark covering the inclusive tile box `(x0, y0)..=(x1, y1)`.
    pub fn spanning(
        kind: StructureKind,
        (x0, y0): (usize, usize),
        (x1, y1): (usize, usize),
    ) -> Structure {
        let (lx, hx) = (x0.min(x1), x0.max(x1));
        let (ly, hy) = (y0.min(y1), y0.max(y1));
        Structure {
            kind,
            x: lx as i32,
            y: ly as i32,
            w: (hx - lx + 1) as i32,
            h: (hy - ly + 1) as i32,
        }
    }

    /// Does it cover tile `(x, y)`?
    pub fn contains(&self, x: usize, y: usize) -> bool {
        let (x, y) = (x as u64, y as u64);
        x >= self.x as u64
            && y >= self.y as u64
            && x < self.x as u64 + self.w as u64
            && y < self.y as u64 + self.h as u64
    }

    /// Do two landmarks' boxes share a tile?
    pub fn overlaps(&self, o: &Structure) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// Do its columns overlap `x0..x1`?
    pub fn spans_columns(&self, x0: usize, x1: usize) -> bool {
        (self.x as usize) < x1 && x0 < (self.x + self.w) as usize
    }

    /// Its centre, in tiles.
    pub fn centre(&self) -> (f64, f64) {
        (
            self.x as f64 + self.w as f64 / 2.0,
            self.y as f64 + self.h as f64 / 2.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_structure_covers_its_box_and_nothing_beside_it() {
        let s = Structure::spanning(StructureKind::Cabin, (12, 9), (10, 5));
        assert_eq!((s.x, s.y, s.w, s.h), (10, 5, 3, 5));
        assert!(s.contains(10, 5) && s.contains(12, 9));
        assert!(!s.contains(13, 9) && !s.contains(12, 10) && !s.contains(9, 5));
        assert!(s.spans_columns(12, 20) && !s.spans_columns(13, 20) && !s.spans_columns(0, 10));
        assert_eq!(s.centre(), (11.5, 7.5));
    }

    #[test]
    fn kinds_have_distinct_names() {
        let mut names: Vec<&str> = StructureKind::ALL.iter().map(|k| k.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), StructureKind::ALL.len());
        let json = serde_json::to_string(&Structure::spanning(StructureKind::Evil, (1, 2), (3, 4)))
            .unwrap();
        assert_eq!(json, r#"{"kind":"evil","x":1,"y":2,"w":3,"h":3}"#);
    }
}
