//! Pass **granite**: granite caves in the cavern layer, as Terraria has them: a pocket of
//! dark granite holding round bubbles of air, granite walls behind it all.
//!
//! Expects: the finished caves, ores, liquids, chests and walls (it runs after the walls
//! pass). Leaves: `granite.per_4200` caves per 4200 columns, each pushed to
//! `world.structures` as a `granite_cave`; rock in the pocket is granite and its bubbles
//! (where a noise of [`BUBBLE`] tiles is above [`OPEN`], more toward the middle) are carved
//! where [`super::pockets::may_carve`] allows. A cave goes where its ground is stone.

use crate::base::noise::perlin_2d;
use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::structure::StructureKind;
use crate::world::{Tile, Wall, World};
use crate::worldgen::pockets::{self, Plan, carve, recolour};
use rand::Rng;

/// Tiles across one bubble's noise cell.
pub const BUBBLE: f32 = 7.0;
/// Noise above this is air (at the pocket's middle; the bar rises toward its edge).
pub const OPEN: f32 = 0.02;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.granite;
    let plan = Plan::in_caverns(StructureKind::GraniteCave, preset, p.size, (0.7, 0.2));
    let count = p.count(world.width());
    pockets::lay(world, rng.next_u64(), count, &plan, |world, _, k, cells| {
        for &(x, y, d) in cells {
            world.set_wall(x, y, Wall::Granite);
            let n = perlin_2d(k ^ 0x5EED, x as f32 / BUBBLE, y as f32 / BUBBLE);
            if d < 0.8 && n > OPEN + d * 0.3 {
                carve(world, x, y);
            } else {
                recolour(world, x, y, Tile::Granite);
            }
        }
    });
}
