//! Pass **chests**: chests with loot on cave floors, more and better deeper.
//!
//! Expects: caves and tunnels carved, the liquids laid (pools, lava, seas, lakes) and the
//! trees planted, so a chest stands where the player will find it. Leaves: some cave air
//! turned into [`Tile::Chest`], and what each holds in `world.chests`; nothing else
//! touched. Every chest stands on a solid tile with open air above it, has no liquid
//! beside or above it and no other chest beside it, lies deeper than `min_depth` tiles
//! below its column's surface and more than `spawn_clear` columns from the spawn point.
//!
//! The world is cut into 64x64-tile blocks, as the water pass cuts it. Each block holds a
//! chest with probability `per_block`, looked for from a spot drawn from a counter-based
//! hash of the block: the first tile at or below the spot (within 64 rows) where a chest
//! may stand. Its contents come from the loot table of the content the world is made with
//! (`config/loot.ron` or a mod's, drawn once the pass is done: [`crate::world::chest::Stocking`]),
//! the tier of the chest's depth layer (deeper tiers draw more, and better), drawn from a
//! generator seeded by a hash of the chest's position. So which chests there are and what they hold depend only on the
//! seed and the world, never on the order of the work or the thread count. Blocks are
//! worked in row-major order (a block's search may reach into the block below); a Large
//! world has a few thousand blocks and a few hundred chests.

use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::chest::LootFrom;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;

/// Side of the blocks that each may hold one chest.
const BLOCK: usize = 64;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.chests;
    let (spot_key, loot_key) = (rng.next_u64(), rng.next_u64());
    if p.per_block <= 0.0 {
        return;
    }
    let layers = Layers::of(preset);
    let (width, height) = (world.width(), world.height());
    for by in 0..height.div_ceil(BLOCK) {
        for bx in 0..width.div_ceil(BLOCK) {
            let r = hash3(spot_key, bx as u64, by as u64);
            // The top 53 bits as a uniform number in [0, 1).
            if (r >> 11) as f64 / (1u64 << 53) as f64 >= p.per_block {
                continue;
            }
            let x = bx * BLOCK + (r % BLOCK as u64) as usize;
            let y = by * BLOCK + (r >> 6) as usize % BLOCK;
            if x >= width || y >= height || x.abs_diff(width / 2) <= p.spawn_clear as usize {
                continue;
            }
            let top = y.max(world.surface[x] as usize + p.min_depth as usize + 1);
            let Some(y) = (top..(y + BLOCK).min(height)).find(|&y| may_stand(world, x, y)) else {
                continue;
            };
            let layer = LootFrom::Tier(layers.at(y, world.surface[x]));
            world.set(x, y, Tile::Chest);
            let seed = hash3(loot_key, x as u64, y as u64);
            world.chests.order(x, y, layer, seed);
        }
    }
}

/// May a chest stand at `(x, y)`: air on a solid tile, open air above, no liquid beside
/// or above, no chest beside?
pub fn may_stand(world: &World, x: usize, y: usize) -> bool {
    let at = |dx: i64, dy: i64| world.get(x as i64 + dx, y as i64 + dy);
    let clear = |t: Option<Tile>| !t.is_some_and(|t| t.is_liquid() || t == Tile::Chest);
    at(0, 0) == Some(Tile::Air)
        && at(0, 1).is_some_and(Tile::is_solid)
        && at(0, -1) == Some(Tile::Air)
        && clear(at(-1, 0))
        && clear(at(1, 0))
        && clear(at(-1, -1))
        && clear(at(1, -1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::depth::Layer;
    use crate::worldgen::generate;

    fn preset(per_block: f64) -> Preset {
        let mut p = Preset {
            width: 1200,
            height: 600,
            ..Preset::default()
        }
        .without_landmarks();
        p.chests.per_block = per_block;
        p
    }

    #[test]
    fn chests_stand_on_cave_floors_clear_of_liquid_and_the_spawn() {
        let p = preset(1.0);
        let (w, _) = generate(&p, 11);
        let found = w.find(Tile::Chest);
        assert!(found.len() >= 40, "only {} chests", found.len());
        assert_eq!(found.len(), w.chests.len(), "every chest has contents");
        for &(x, y) in &found {
            let c = w.chests.get(x, y).expect("contents");
            assert!(!c.is_empty(), "chest at {x} {y} holds nothing");
            assert!(w.tile(x, y + 1).is_solid(), "{x} {y}: not on a floor");
            assert_eq!(w.tile(x, y - 1), Tile::Air, "{x} {y}: no air above");
            for (dx, dy) in [(-1i64, 0i64), (1, 0), (-1, -1), (1, -1), (0, -1)] {
                let t = w.get(x as i64 + dx, y as i64 + dy);
                assert!(!t.is_some_and(Tile::is_liquid), "{x} {y}: liquid beside");
            }
            assert!(y > w.surface[x] as usize + p.chests.min_depth as usize);
            assert!(x.abs_diff(w.width() / 2) > p.chests.spawn_clear as usize);
        }
    }

    #[test]
    fn deeper_chests_hold_more() {
        let (w, _) = generate(&preset(1.0), 3);
        let layers = Layers::of(&w.preset);
        let mean = |want: Layer| {
            let (mut n, mut stacks) = (0, 0);
            for ((x, y), c) in w.chests.iter() {
                if layers.at(y, w.surface[x]) == want {
                    n += 1;
                    stacks += c.slots().iter().flatten().count();
                }
            }
            assert!(n >= 5, "{n} chests in the {want:?} layer");
            stacks as f64 / n as f64
        };
        let (cavern, deep) = (mean(Layer::Cavern), mean(Layer::Underworld));
        assert!(deep > cavern, "underworld {deep:.2} vs cavern {cavern:.2}");
    }

    #[test]
    fn the_same_seed_gives_the_same_chests_on_any_thread_count_and_off_is_off() {
        let p = preset(0.5);
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| generate(&p, 8).0.chests)
        };
        let one = run(1);
        assert!(!one.is_empty());
        assert_eq!(one, run(3));
        assert_ne!(one, generate(&p, 9).0.chests);
        let (off, _) = generate(&preset(0.0), 8);
        assert!(off.chests.is_empty() && off.find(Tile::Chest).is_empty());
    }

    #[test]
    fn a_chest_needs_a_floor_air_above_and_no_liquid_beside() {
        let w = World::from_ascii(&[
            "          ", //
            "   ~      ", //
            "     # C  ", //
            "##########",
        ])
        .unwrap();
        assert!(may_stand(&w, 0, 2), "the world's edge beside is no liquid");
        assert!(!may_stand(&w, 2, 2), "water above, beside");
        assert!(!may_stand(&w, 3, 2), "water above");
        assert!(!may_stand(&w, 5, 2), "not air");
        assert!(may_stand(&w, 5, 1), "on a block");
        assert!(
            !may_stand(&w, 6, 2) && !may_stand(&w, 8, 2),
            "a chest beside"
        );
        assert!(may_stand(&w, 9, 2));
        assert!(!may_stand(&w, 0, 1), "nothing solid below");
    }
}
