//! Pass **mushrooms**: the glowing mushroom biome, a wide cave in the cavern layer as
//! Terraria has it: its ground mud, every floor of it mushroom grass and on the grass
//! glowing mushrooms, whose light (`sim::light`) is what lights the cave; mushroom walls
//! behind it all.
//!
//! Expects: the finished caves, ores, liquids, chests and walls (it runs after the walls
//! pass). Leaves: `mushrooms.per_4200` biomes per 4200 columns, and at least one in any
//! world where the pass is on and one fits, each pushed to `world.structures` as a
//! `mushroom_biome`. Inside the wandering ellipse, its heart is carved open (where
//! [`super::pockets::may_carve`] allows) but for lumps of mud where a noise is above
//! [`LUMPS`], the rock around it is mud; then mud under air becomes mushroom grass and a
//! [`MUSHROOMS`] share of the grass under air (inside the biome) grows a glowing mushroom.
//! A biome goes where its ground is stone (not the jungle's mud).

use crate::base::noise::perlin_2d;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::structure::StructureKind;
use crate::world::{Tile, Wall, World};
use crate::worldgen::pockets::{self, Plan, carve, recolour, unit};
use rand::Rng;

/// Noise above this stays a lump of mud in the open heart.
pub const LUMPS: f32 = 0.3;
/// Share of the grass under air that grows a mushroom.
pub const MUSHROOMS: f32 = 0.3;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.mushrooms;
    let plan = Plan::in_caverns(StructureKind::MushroomBiome, preset, p.size, (0.4, 0.2));
    let count = if p.enabled {
        p.count(world.width()).max(1)
    } else {
        0
    };
    let key = rng.next_u64();
    pockets::lay(world, key, count, &plan, |world, _, k, cells| {
        for &(x, y, d) in cells {
            world.set_wall(x, y, Wall::Mushroom);
            let lump = perlin_2d(k ^ 0x3A5, x as f32 / 11.0, y as f32 / 11.0) > LUMPS;
            if d < 0.75 && !lump {
                carve(world, x, y);
            } else {
                recolour(world, x, y, Tile::Mud);
            }
        }
        for &(x, y, _) in cells {
            if y > 0 && world.tile(x, y) == Tile::Mud && world.tile(x, y - 1) == Tile::Air {
                world.set(x, y, Tile::MushroomGrass);
                let draw = unit(hash3(key, k as u64, (y * world.width() + x) as u64), 0);
                if world.wall(x, y - 1) == Wall::Mushroom && draw < MUSHROOMS {
                    world.set(x, y - 1, Tile::GlowMushroom);
                }
            }
        }
    });
}
