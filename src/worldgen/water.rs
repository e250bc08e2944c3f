//! Pass 5, **water**: still pools on cave floors.
//!
//! Expects: caves carved. Leaves: some cave air at the bottom of basins turned into water
//! (above the underworld, when there is one); nothing else touched. Water does not flow, so a pool is only ever laid where it would
//! stay: every water tile rests on water or solid ground, and every row of a pool runs
//! from wall to wall.
//!
//! The world is cut into 64x64-tile blocks. Each block holds a pool with probability
//! `pools`, at a spot drawn from a counter-based hash of the block, so no block's pool
//! depends on another's draw. From the first cave at or below the spot (within the block's
//! height), the pool's floor is the first tile straight below that stands on something; rows are then filled upwards while each is a
//! closed basin row (air between two walls, at most `max_width` wide, every tile over
//! ground or water, all below the surface), up to `max_depth` rows. Blocks are worked one
//! after another in row-major order, because a pool may reach into the next block; there
//! are a few hundred pools in a Large world, each a few hundred tiles at most.

use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::{Tile, World};
use rand::Rng;

/// Side of the blocks that each may hold one pool.
const BLOCK: usize = 64;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.water;
    let key = rng.next_u64();
    // No water in the underworld.
    let rows = super::underworld::band_ceiling(preset).map_or(world.height(), |_| {
        crate::world::depth::Layers::of(preset).underworld
    });
    let (depth, width) = (p.max_depth as usize, p.max_width as usize);
    lay_pools(world, key, p.pools, depth, width, Tile::Water, 0..rows);
}

/// Pools of `liquid` in the blocks whose spot lies in `rows`: each [`BLOCK`]-sided block
/// holds one with probability `chance`, at a spot drawn from `hash3(key, bx, by)`.
pub fn lay_pools(
    world: &mut World,
    key: u64,
    chance: f64,
    max_depth: usize,
    max_width: usize,
    liquid: Tile,
    rows: std::ops::Range<usize>,
) {
    if chance <= 0.0 {
        return;
    }
    let (width, height) = (world.width(), world.height());
    for by in rows.start / BLOCK..height.min(rows.end).div_ceil(BLOCK) {
        for bx in 0..width.div_ceil(BLOCK) {
            let r = hash3(key, bx as u64, by as u64);
            // The top 53 bits as a uniform number in [0, 1).
            if (r >> 11) as f64 / (1u64 << 53) as f64 >= chance {
                continue;
            }
            let x = bx * BLOCK + (r % BLOCK as u64) as usize;
            let y = by * BLOCK + (r >> 6) as usize % BLOCK;
            if x < width && y < height && rows.contains(&y) {
                pool(world, x, y, max_depth, max_width, liquid);
            }
        }
    }
}

/// Lays a pool of `liquid` (water or lava) in the first cave below the spot `(x, y)`
/// (looking at most [`BLOCK`] rows down), if its floor there is a basin. Returns how many
/// rows it filled.
pub fn pool(
    world: &mut World,
    x: usize,
    y: usize,
    max_depth: usize,
    max_width: usize,
    liquid: Tile,
) -> usize {
    let below_surface = (world.surface[x] as usize + 1).max(y);
    let Some(y) =
        (below_surface..(y + BLOCK).min(world.height())).find(|&yy| world.tile(x, yy) == Tile::Air)
    else {
        return 0;
    };
    // Down to the floor: the last air tile before something to stand on.
    let mut floor = y;
    while floor + 1 < world.height() && world.tile(x, floor + 1) == Tile::Air {
        floor += 1;
    }
    if floor + 1 >= world.height() {
        return 0;
    }
    let mut rows = 0;
    for row in (0..=floor).rev().take(max_depth) {
        let Some((a, b)) = basin_row(world, x, row, max_width, liquid) else {
            break;
        };
        for xx in a..=b {
            world.set(xx, row, liquid);
        }
        rows += 1;
    }
    rows
}

/// The air `a..=b` around column `x` in row `y`, if it is a closed basin row for `liquid`:
/// walled by solid ground or that liquid at `a - 1` and `b + 1`, at most `max_width` wide,
/// every tile over solid ground or that liquid and below the local surface.
pub fn basin_row(
    world: &World,
    x: usize,
    y: usize,
    max_width: usize,
    liquid: Tile,
) -> Option<(usize, usize)> {
    let holds = |t: Tile| t.is_solid() || t == liquid;
    if y + 1 >= world.height() || world.tile(x, y) != Tile::Air {
        return None;
    }
    let (mut a, mut b) = (x, x);
    while a > 0 && world.tile(a - 1, y) == Tile::Air {
        a -= 1;
    }
    while b + 1 < world.width() && world.tile(b + 1, y) == Tile::Air {
        b += 1;
    }
    let walled = a > 0
        && holds(world.tile(a - 1, y))
        && b + 1 < world.width()
        && holds(world.tile(b + 1, y));
    let fits = walled && b - a < max_width;
    (fits && (a..=b).all(|xx| holds(world.tile(xx, y + 1)) && y > world.surface[xx] as usize))
        .then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basins_fill_from_the_floor_and_leaky_rows_stop_the_pool() {
        // A bowl two rows deep with a higher, leaky rim on the right: the bottom two rows
        // fill, the row above would spill over the right wall's gap and stays dry.
        let mut w = World::from_ascii(&[
            "#########",
            "#       #",
            "#        ",
            "##     ##",
            "###   ###",
            "#########",
        ])
        .unwrap();
        w.surface = vec![0; w.width()];
        pool(&mut w, 4, 1, 10, 40, Tile::Water);
        let rows: Vec<String> = (0..w.height())
            .map(|y| (0..w.width()).map(|x| w.tile(x, y).ascii()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                "#########",
                "#       #",
                "#        ",
                "##~~~~~##",
                "###~~~###",
                "#########",
            ]
        );
    }

    #[test]
    fn depth_and_width_limits_hold() {
        let mut w =
            World::from_ascii(&["########", "#      #", "#      #", "#      #", "########"])
                .unwrap();
        w.surface = vec![0; w.width()];
        pool(&mut w, 3, 0, 2, 40, Tile::Water);
        let column: Vec<Tile> = (1..4).map(|y| w.tile(3, y)).collect();
        assert_eq!(
            column,
            [Tile::Air, Tile::Water, Tile::Water],
            "two rows deep, from the first cave down"
        );
        let mut narrow = World::from_ascii(&["########", "#      #", "########"]).unwrap();
        narrow.surface = vec![0; narrow.width()];
        pool(&mut narrow, 3, 1, 5, 5, Tile::Water);
        assert!(
            (0..8).all(|x| narrow.tile(x, 1) != Tile::Water),
            "6 wide is over 5"
        );
    }

    #[test]
    fn generated_pools_rest_on_ground_between_walls() {
        let preset = Preset {
            width: 900,
            height: 500,
            ..Preset::default()
        };
        let (w, _) = crate::worldgen::generate(&preset, 17);
        let holds = |t: Tile| t.is_solid() || t == Tile::Water;
        let mut water = 0;
        for y in 0..w.height() {
            for x in 0..w.width() {
                // Water above the surface is the sea's (the ocean pass's own tests).
                if w.tile(x, y) != Tile::Water || y < w.surface[x] as usize {
                    continue;
                }
                water += 1;
                assert!(
                    y > w.surface[x] as usize,
                    "water at or above the surface ({x}, {y})"
                );
                assert!(holds(w.tile(x, y + 1)), "water over air at ({x}, {y})");
                assert!(
                    holds(w.tile(x - 1, y)) && holds(w.tile(x + 1, y)),
                    "open side at ({x}, {y})"
                );
            }
        }
        // Cave floors are mostly narrow: pools are puddles of a few to a few dozen tiles.
        assert!(water > 40, "pools in a 900x500 world: {water} water tiles");
        let dry = Preset {
            water: crate::content::preset::WaterParams {
                pools: 0.0,
                ..Default::default()
            },
            ocean: crate::content::preset::OceanParams {
                width: 0.0,
                ..Default::default()
            },
            lakes: crate::content::preset::LakeParams {
                per_4200: 0.0,
                ..Default::default()
            },
            ..preset
        };
        assert_eq!(
            crate::worldgen::generate(&dry, 17).0.counts()[Tile::Water as usize],
            0
        );
    }
}
