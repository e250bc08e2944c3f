//! Pass **hellstone**: hellstone beside the underworld's lava, as Terraria lays it.
//!
//! Expects: the underworld and its lava laid. Leaves: of the rock (ash, stone, obsidian)
//! of the underworld within `hellstone.reach` tiles of a lava tile (a square), a
//! `hellstone.chance` share turned into hellstone, each tile's draw a counter-based hash
//! of its place: the same tiles whatever order the lava is found in.

use crate::base::depth::Layer;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use crate::worldgen::pockets::unit;
use rand::Rng;

/// The rock that may turn to hellstone.
fn is_host(t: Tile) -> bool {
    matches!(t, Tile::Ash | Tile::Stone | Tile::Obsidian)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.hellstone;
    let key = rng.next_u64();
    if !p.enabled || p.chance <= 0.0 {
        return;
    }
    let (top, _) = Layers::of(preset).rows(Layer::Underworld, Layer::Underworld);
    let reach = p.reach as i64;
    let (w, h) = (world.width(), world.height());
    let mut turn = Vec::new();
    for (lx, ly) in world.find(Tile::Lava) {
        if ly < top {
            continue;
        }
        for y in ly as i64 - reach..=ly as i64 + reach {
            for x in lx as i64 - reach..=lx as i64 + reach {
                if x < 0 || y < top as i64 || x >= w as i64 || y >= h as i64 {
                    continue;
                }
                let (x, y) = (x as usize, y as usize);
                if is_host(world.tile(x, y))
                    && (unit(hash3(key, x as u64, y as u64), 0) as f64) < p.chance
                {
                    turn.push((x, y));
                }
            }
        }
    }
    for (x, y) in turn {
        world.set(x, y, Tile::Hellstone);
    }
}
