//! Pass **gems**: gems in the stone of the underground and cavern layers, as Terraria
//! lays them: the rarer the deeper (amethyst near the top, then topaz, sapphire, emerald,
//! ruby and diamond at the bottom of the caverns).
//!
//! Expects: the finished stone and ores. Leaves: `gems.per_million` clusters per million
//! tiles of those layers, each of one gem, its kind drawn from its depth (a share `f` of
//! the way from the underground layer's top to the underworld's: kind `⌊6f ± 0.75⌋`,
//! clamped) and a walk of [`SIZE`] steps that turns stone (only stone) into it. A cluster
//! is drawn from a counter-based hash of its number, so the clusters do not depend on each
//! other or on threads.

use crate::base::depth::Layer;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use crate::worldgen::pockets::unit;
use rand::Rng;

/// The gems from the shallowest (commonest) to the deepest (rarest).
pub const KINDS: [Tile; 6] = [
    Tile::Amethyst,
    Tile::Topaz,
    Tile::Sapphire,
    Tile::Emerald,
    Tile::Ruby,
    Tile::DiamondOre,
];
/// Steps of one cluster's walk.
pub const SIZE: u64 = 6;

/// The gem of a cluster at depth share `f` (0 at the underground's top, 1 at the
/// underworld's) with the draw `u` in [0, 1).
pub fn kind_at(f: f32, u: f32) -> Tile {
    let k = (f * KINDS.len() as f32 + (u - 0.5) * 1.5).floor();
    KINDS[k.clamp(0.0, (KINDS.len() - 1) as f32) as usize]
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.gems;
    let key = rng.next_u64();
    if !p.enabled {
        return;
    }
    let (top, bottom) = Layers::of(preset).rows(Layer::Underground, Layer::Cavern);
    let (w, bottom) = (world.width(), bottom.min(world.height()));
    if bottom <= top + 1 || w < 3 {
        return;
    }
    let count = (p.per_million * (w * (bottom - top)) as f64 / 1e6).round() as u64;
    for i in 0..count {
        let r = hash3(key, i, 0);
        let (mut x, mut y) = (
            (r % w as u64) as i64,
            (top as u64 + (r >> 32) % (bottom - top) as u64) as i64,
        );
        let f = (y as usize - top) as f32 / (bottom - top) as f32;
        let gem = kind_at(f, unit(hash3(key, i, 1), 0));
        for step in 0..SIZE {
            if world.get(x, y) == Some(Tile::Stone) {
                world.set(x as usize, y as usize, gem);
            }
            let d = hash3(key, i, 2 + step) % 4;
            let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1)][d as usize];
            (x, y) = (x + dx, y + dy);
        }
    }
}
