//! Pass **lava**: lava pools in the lower cavern layer and lava lakes on the underworld's
//! floor, laid only where they stay (as the water pass lays its pools).
//!
//! Expects: caves, tunnels and the underworld laid. Leaves: some air at the bottom of
//! basins turned into lava; nothing else touched. Every lava tile rests on solid ground or
//! lava and every row of a pool runs from wall to wall ([`super::water::pool`]).
//!
//! Pools: each 64x64-tile block whose spot lies between `from` of the way down the cavern
//! layer and the underworld holds one with probability `pools`, at most `max_depth` rows
//! and `max_width` tiles. Lakes: every 16 columns, the underworld's open band is filled
//! from its floor up to `lake_depth` rows, up to 1024 tiles wide, wherever its floor is a
//! basin; in the game lava flows slower than water, glows, and turns to obsidian where it
//! meets water.

use super::underworld::band_ceiling;
use super::water::{lay_pools, pool};
use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;

/// Columns between the starts of lakes on the underworld's floor.
const LAKE_STEP: usize = 16;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let p = &preset.lava;
    let l = Layers::of(preset);
    let from = l.cavern + ((l.underworld - l.cavern) as f64 * p.from) as usize;
    let (depth, width) = (p.max_depth as usize, p.max_width as usize);
    lay_pools(
        world,
        key,
        p.pools,
        depth,
        width,
        Tile::Lava,
        from..l.underworld,
    );
    let Some(ceiling) = band_ceiling(preset) else {
        return;
    };
    if p.lake_depth == 0 {
        return;
    }
    for x in (LAKE_STEP / 2..world.width()).step_by(LAKE_STEP) {
        if world.tile(x, ceiling.min(world.height() - 1)) != Tile::Lava {
            pool(world, x, ceiling, p.lake_depth as usize, 1024, Tile::Lava);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lava_rests_in_basins_of_the_deep_layers_only() {
        let p = Preset {
            width: 1200,
            height: 600,
            ..Preset::default()
        };
        let l = Layers::of(&p);
        let from = l.cavern + ((l.underworld - l.cavern) as f64 * p.lava.from) as usize;
        let holds = |t: Tile| t.is_solid() || t == Tile::Lava;
        let (mut pools, mut lakes) = (0, 0);
        for seed in 11..14 {
            let w = crate::worldgen::generate(&p, seed).0;
            for y in 0..w.height() {
                for x in 0..w.width() {
                    if w.tile(x, y) != Tile::Lava {
                        continue;
                    }
                    assert!(y >= from, "lava above the lower cavern layer at ({x}, {y})");
                    assert!(
                        holds(w.tile(x, y + 1)),
                        "lava over an opening at ({x}, {y})"
                    );
                    assert!(
                        holds(w.tile(x - 1, y)) && holds(w.tile(x + 1, y)),
                        "lava with an open side at ({x}, {y})"
                    );
                    if y >= l.underworld {
                        lakes += 1;
                    } else {
                        pools += 1;
                    }
                }
            }
        }
        assert!(
            pools > 20 && lakes > 300,
            "{pools} in pools, {lakes} in lakes"
        );
    }
}
