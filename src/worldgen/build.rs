//! What the landmark passes (evil, dungeon, islands, cabins) share: keeping clear of the
//! spawn and of each other, where the jungle lies, laying tiles and walls in rectangles
//! without leaving a chest's contents behind, and filling a chest.

use super::lodes::{own_item, twin_items};
use crate::base::rng::PassRng;
use crate::content::config::Content;
use crate::content::preset::{Biome, Preset};
use crate::world::chest::{Chest, LootFrom};
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use rand::{RngExt, SeedableRng};

/// Columns each side of the spawn point (the world's centre) that no landmark covers.
pub const SPAWN_CLEAR: usize = 60;

/// Do the columns `x0..x1` keep clear of the spawn?
pub fn clear_of_spawn(width: usize, x0: usize, x1: usize) -> bool {
    let c = width / 2;
    x1 + SPAWN_CLEAR <= c || x0 > c + SPAWN_CLEAR
}

/// Is the jungle on the world's left half (`None`: the world has no jungle)? Read from
/// the biome map the biomes pass laid, the first jungle span's centre.
pub fn jungle_on_left(preset: &Preset, seed: u64) -> Option<bool> {
    let map = super::biomes::BiomeMap::new(preset, seed);
    map.spans
        .iter()
        .find(|s| s.biome == Biome::Jungle)
        .map(|s| (s.start + s.end) / 2.0 < preset.width as f64 / 2.0)
}

/// Columns of sea and shore at each end of a world made from `preset`.
pub fn ocean_columns(preset: &Preset) -> usize {
    super::biomes::BiomeMap::new(preset, 0).ocean
}

/// A count between `min` and `max` (inclusive; `max` below `min` counts as `min`).
pub fn draw_count(rng: &mut PassRng, min: u32, max: u32) -> u32 {
    rng.random_range(min..=max.max(min))
}

/// Does any landmark of `kinds` (all kinds when empty) span a column of `x0..x1`?
pub fn columns_taken(world: &World, kinds: &[StructureKind], x0: usize, x1: usize) -> bool {
    world
        .structures
        .iter()
        .any(|s| (kinds.is_empty() || kinds.contains(&s.kind)) && s.spans_columns(x0, x1))
}

/// Does any landmark overlap the inclusive box `(x0, y0)..=(x1, y1)`?
pub fn box_taken(world: &World, (x0, y0): (usize, usize), (x1, y1): (usize, usize)) -> bool {
    world.structures.iter().any(|s| {
        let other = Structure::spanning(s.kind, (x0, y0), (x1, y1));
        s.spans_columns(x0, x1 + 1)
            && (s.y as usize) < (other.y + other.h) as usize
            && (other.y as usize) < (s.y + s.h) as usize
    })
}

/// Sets tile `(x, y)` if it is inside the world, forgetting a chest that stood there.
pub fn put(world: &mut World, x: i64, y: i64, tile: Tile) {
    if let Some(old) = world.get(x, y) {
        if old == Tile::Chest && tile != Tile::Chest {
            world.chests.remove(x as usize, y as usize);
        }
        world.set(x as usize, y as usize, tile);
    }
}

/// Sets the wall at `(x, y)` if it is inside the world.
pub fn put_wall(world: &mut World, x: i64, y: i64, wall: Wall) {
    if world.get(x, y).is_some() {
        world.set_wall(x as usize, y as usize, wall);
    }
}

/// Lays `tile` (and `wall`, if any) over the inclusive box `(x0, y0)..=(x1, y1)`, clipped
/// to the world.
pub fn fill(
    world: &mut World,
    (x0, y0): (i64, i64),
    (x1, y1): (i64, i64),
    tile: Tile,
    wall: Option<Wall>,
) {
    for y in y0.max(0)..=y1.min(world.height() as i64 - 1) {
        for x in x0.max(0)..=x1.min(world.width() as i64 - 1) {
            put(world, x, y, tile);
            if let Some(w) = wall {
                world.set_wall(x as usize, y as usize, w);
            }
        }
    }
}

/// Puts a chest at `(x, y)` (inside the world) whose loot is drawn `from` with `seed`
/// once the pass is done ([`stock`]).
pub fn put_chest(world: &mut World, x: usize, y: usize, from: LootFrom, seed: u64) {
    put(world, x as i64, y as i64, Tile::Chest);
    world.chests.order(x, y, from, seed);
}

/// Draws the loot of every chest a pass ordered ([`crate::world::chest::Stocking`]) from
/// `content`'s loot table, each from a generator seeded as ordered: the same chests hold
/// the same on any machine, each ore's item the world's own ([`twin_items`]). A chest the
/// pass took away again is left out.
pub fn stock(world: &mut World, content: &Content) {
    // Each ore's item as the world has it (a tin bar for a copper bar in a world of tin).
    let twins = twin_items(&world.preset, world.seed, &content.catalog);
    for order in world.chests.take_due() {
        let (x, y) = order.at;
        if world.chests.get(x, y).is_none() {
            continue;
        }
        let mut draw = PassRng::seed_from_u64(order.seed);
        let items = match order.from {
            LootFrom::Tier(layer) => content.loot.draw(layer, &mut draw),
            LootFrom::Set(name) => content.loot.draw_set(name, &mut draw),
        };
        let mut chest = Chest::empty();
        for (item, n) in items {
            chest.add(&content.catalog, own_item(&twins, item), n);
        }
        world.chests.insert(x, y, chest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spawn_keeps_its_columns_and_a_chest_overbuilt_is_forgotten() {
        assert!(clear_of_spawn(1000, 0, 440));
        assert!(!clear_of_spawn(1000, 0, 441));
        assert!(!clear_of_spawn(1000, 560, 600) && clear_of_spawn(1000, 561, 600));
        let mut w = World::from_ascii(&["    ", " C  ", "####"]).unwrap();
        put_chest(&mut w, 1, 1, LootFrom::Set("dungeon"), 0);
        assert_eq!(w.chests.len(), 1);
        fill(&mut w, (-3, -3), (1, 1), Tile::Wood, Some(Wall::Planks));
        assert!(w.chests.is_empty());
        assert_eq!(
            (w.tile(0, 0), w.tile(1, 1), w.tile(2, 1)),
            (Tile::Wood, Tile::Wood, Tile::Air)
        );
        assert_eq!((w.wall(1, 1), w.wall(2, 1)), (Wall::Planks, Wall::None));
        // The overbuilt chest's loot is never drawn into a chest that is not there.
        let content = Content::builtin();
        stock(&mut w, &content);
        assert!(w.chests.is_empty());
    }

    #[test]
    fn a_chest_s_loot_is_drawn_from_the_content_it_is_stocked_with() {
        let mut w = World::from_ascii(&["    ", "    ", "####"]).unwrap();
        put_chest(&mut w, 1, 1, LootFrom::Set("sky"), 77);
        assert!(!w.chests.holds_items(1, 1), "ordered, not drawn yet");
        let content = Content::builtin();
        stock(&mut w, &content);
        let want = content
            .loot
            .draw_set("sky", &mut PassRng::seed_from_u64(77));
        // The world's own ores, as in every chest.
        let twins = twin_items(&w.preset, w.seed, &content.catalog);
        let mut chest = Chest::empty();
        for (item, n) in want {
            chest.add(&content.catalog, own_item(&twins, item), n);
        }
        assert!(!chest.is_empty());
        assert_eq!(w.chests.get(1, 1), Some(&chest));
        assert!(w.chests.take_due().is_empty(), "each order is drawn once");
    }

    #[test]
    fn landmarks_taken_are_seen_by_column_and_by_box() {
        let mut w = World::from_ascii(&["          "; 10]).unwrap();
        w.structures
            .push(Structure::spanning(StructureKind::Cabin, (3, 3), (5, 5)));
        assert!(columns_taken(&w, &[], 5, 9) && !columns_taken(&w, &[], 6, 9));
        assert!(!columns_taken(&w, &[StructureKind::Dungeon], 0, 9));
        assert!(box_taken(&w, (5, 5), (8, 8)) && !box_taken(&w, (5, 6), (8, 8)));
        assert!(!box_taken(&w, (0, 0), (2, 9)));
    }
}
