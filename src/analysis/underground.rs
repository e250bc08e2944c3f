//! What a player finds underground, measured: how much of the ground is cave, how much of
//! that one network holds, how many mouths open on the surface, how deep a player can walk
//! from the surface without digging, and how ore is spread over the depth layers.
//!
//! Ground air is air at or below its column's surface row; caves are its 4-connected
//! components; a mouth is a run of adjacent columns whose surface tile is air. A walk is a
//! chain of places where the player's 2x3-tile body fits in air, each one tile from the
//! last (no digging, no regard for jumps or falls), from a place that reaches into the sky.

use crate::world::depth::{Layer, Layers};
use crate::world::{Tile, World};

/// Player body in tiles, as the walk measures it.
const BODY_W: usize = 2;
const BODY_H: usize = 3;

/// The figures of one world.
#[derive(Clone, Debug, PartialEq)]
pub struct Survey {
    /// Tiles at or below their column's surface row.
    pub ground: u64,
    /// Air among them.
    pub cave_air: u64,
    /// Air in the largest cave.
    pub largest_cave: u64,
    /// Runs of adjacent columns whose surface tile is air.
    pub mouths: u64,
    /// Deepest place a walk from the surface reaches, as a share of its column's depth
    /// below the surface (0 at the surface, 1 at the bottom row).
    pub walk_depth: f64,
    /// Per layer (surface, underground, cavern, underworld): ground tiles, and ore tiles.
    pub layer_ground: [u64; 4],
    pub layer_ore: [u64; 4],
    /// Per layer: rock (stone, ash and ore) tiles.
    pub layer_rock: [u64; 4],
}

impl Survey {
    /// Cave air as a share of the ground.
    pub fn cave_share(&self) -> f64 {
        self.cave_air as f64 / self.ground.max(1) as f64
    }

    /// The largest cave's share of all cave air.
    pub fn largest_share(&self) -> f64 {
        self.largest_cave as f64 / self.cave_air.max(1) as f64
    }

    /// Mouths per 1000 columns.
    pub fn mouths_per_1000(&self, width: usize) -> f64 {
        self.mouths as f64 * 1000.0 / width.max(1) as f64
    }
}

/// Ore tiles: what the ores pass lays.
pub fn is_ore(t: Tile) -> bool {
    matches!(
        t,
        Tile::CopperOre
            | Tile::IronOre
            | Tile::SilverOre
            | Tile::GoldOre
            | Tile::DiamondOre
            | Tile::Hellstone
            | Tile::TinOre
            | Tile::LeadOre
            | Tile::TungstenOre
            | Tile::PlatinumOre
    )
}

fn layer_index(l: Layer) -> Option<usize> {
    match l {
        Layer::Sky => None,
        Layer::Surface => Some(0),
        Layer::Underground => Some(1),
        Layer::Cavern => Some(2),
        Layer::Underworld => Some(3),
    }
}

/// Surveys a world whose surface rows are set.
pub fn survey(world: &World) -> Survey {
    let h = world.height();
    let layers = Layers::new(&world.preset.layers, h);
    let surface = &world.surface;
    let (mut ground, mut cave_air) = (0u64, 0u64);
    let (mut layer_ground, mut layer_ore, mut layer_rock) = ([0u64; 4], [0u64; 4], [0u64; 4]);
    for y in 0..h {
        for (&s, &t) in surface.iter().zip(world.row(y)) {
            let Some(l) = layer_index(layers.at(y, s)) else {
                continue;
            };
            ground += 1;
            layer_ground[l] += 1;
            cave_air += t.is_open() as u64;
            let ore = is_ore(t);
            layer_ore[l] += ore as u64;
            layer_rock[l] += (ore || matches!(t, Tile::Stone | Tile::Ash)) as u64;
        }
    }
    // Caves and mouths as connectivity counts them (`--stats`, the overlay).
    let report = crate::analysis::analyse(world);
    Survey {
        ground,
        cave_air,
        largest_cave: report.largest_cave_area(),
        mouths: report.mouths.len() as u64,
        walk_depth: walk_depth(world),
        layer_ground,
        layer_ore,
        layer_rock,
    }
}

/// How deep a walk from the surface reaches (see the module doc), as a share of the
/// column's depth below its surface; the body's bottom-left tile is what is measured.
pub fn walk_depth(world: &World) -> f64 {
    let (w, h) = (world.width(), world.height());
    if w < BODY_W || h < BODY_H {
        return 0.0;
    }
    let (bw, bh) = (w - BODY_W + 1, h - BODY_H + 1);
    // fits[y * bw + x]: the body with its top-left tile at (x, y) is all air.
    let mut fits = vec![false; bw * bh];
    for y in 0..bh {
        for x in 0..bw {
            fits[y * bw + x] =
                (0..BODY_H).all(|dy| (0..BODY_W).all(|dx| world.tile(x + dx, y + dy).is_open()));
        }
    }
    let surface = &world.surface;
    let mut seen = vec![false; bw * bh];
    let mut stack = Vec::new();
    // Starts: bodies with a tile above the surface (in the sky).
    for y in 0..bh {
        for x in 0..bw {
            let i = y * bw + x;
            if fits[i] && (0..BODY_W).any(|dx| y < surface[x + dx] as usize) {
                seen[i] = true;
                stack.push(i);
            }
        }
    }
    let mut deepest = 0.0f64;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % bw, i / bw);
        let feet = y + BODY_H - 1;
        let s = surface[x] as usize;
        if feet > s {
            deepest = deepest.max((feet - s) as f64 / (h - s).max(1) as f64);
        }
        let mut visit = |j: usize| {
            if fits[j] && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < bw {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - bw);
        }
        if y + 1 < bh {
            visit(i + bw);
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world(rows: &[&str]) -> World {
        let mut w = World::from_ascii(rows).unwrap();
        w.recompute_surface();
        w
    }

    #[test]
    fn a_mouth_two_wide_is_walked_and_one_wide_is_not() {
        let mut wide = world(&[
            "        ", "##  ####", "##  ####", "##  ####", "##  ####", "########", "########",
        ]);
        // Ground starts at row 1 everywhere: the shaft is a mouth cut into it.
        wide.surface = vec![1; 8];
        let s = survey(&wide);
        assert_eq!((s.mouths, s.cave_air, s.largest_cave), (1, 8, 8));
        // Feet at row 4, three rows below the surface, of six rows of ground.
        assert!((s.walk_depth - 3.0 / 6.0).abs() < 1e-9, "{}", s.walk_depth);
        let mut narrow = world(&[
            "        ", "### ####", "### ####", "### ####", "### ####", "########", "########",
        ]);
        narrow.surface = vec![1; 8];
        assert_eq!(walk_depth(&narrow), 0.0);
    }

    #[test]
    fn separate_pockets_count_apart() {
        let mut w = world(&["      ", "# #  #", "######", "#  # #", "######"]);
        w.surface = vec![1; 6];
        let s = survey(&w);
        assert_eq!(s.cave_air, 6);
        assert_eq!(s.largest_cave, 2);
        assert_eq!(s.mouths, 2);
        assert_eq!(s.ground, 24);
    }
}
