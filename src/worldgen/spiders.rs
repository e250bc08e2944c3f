//! Pass **spiders**: spider caves in the cavern layer, as Terraria has them: a knot of
//! open caves hung with cobwebs (which slow whoever moves through them, `sim::player`),
//! spider walls behind it all.
//!
//! Expects: the finished caves, ores, liquids, chests and walls (it runs after the walls
//! pass). Leaves: `spiders.per_4200` caves per 4200 columns, each pushed to
//! `world.structures` as a `spider_cave`. Inside the wandering ellipse the rock is carved
//! (where [`super::pockets::may_carve`] allows) where a noise is above a bar that rises
//! toward the edge; then of its air, a [`CLINGING`] share of the tiles under or beside
//! rock and a [`HANGING`] share of the others are cobwebs (never the tile over a chest).
//! A cave goes where its ground is stone.

use crate::base::noise::perlin_2d;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::structure::StructureKind;
use crate::world::{Tile, Wall, World};
use crate::worldgen::pockets::{self, Plan, carve, unit};
use rand::Rng;

/// Share of the air under or beside rock that is cobweb.
pub const CLINGING: f32 = 0.55;
/// Share of the other air that is cobweb.
pub const HANGING: f32 = 0.08;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.spiders;
    let plan = Plan::in_caverns(StructureKind::SpiderCave, preset, p.size, (0.7, 0.2));
    let count = p.count(world.width());
    let key = rng.next_u64();
    pockets::lay(world, key, count, &plan, |world, _, k, cells| {
        for &(x, y, d) in cells {
            world.set_wall(x, y, Wall::Spider);
            let n = perlin_2d(k ^ 0x5D, x as f32 / 8.0, y as f32 / 8.0);
            if n > -0.25 + 0.5 * d * d {
                carve(world, x, y);
            }
        }
        for &(x, y, _) in cells {
            // The air over a chest stays open (the chest is opened from there).
            if world.tile(x, y) != Tile::Air
                || world.get(x as i64, y as i64 + 1) == Some(Tile::Chest)
            {
                continue;
            }
            let rock = |dx: i64, dy: i64| {
                world
                    .get(x as i64 + dx, y as i64 + dy)
                    .is_some_and(|t| t.is_solid())
            };
            let share = if rock(0, -1) || rock(-1, 0) || rock(1, 0) {
                CLINGING
            } else {
                HANGING
            };
            if unit(hash3(key, k as u64, (y * world.width() + x) as u64), 8) < share {
                world.set(x, y, Tile::Cobweb);
            }
        }
    });
}
