//! Pass **marble**: marble caves in the cavern layer, as Terraria has them: a pocket of
//! white marble whose middle is a hall cut into storeys (floors two tiles thick every
//! [`STOREY`] rows, pillars every [`PILLAR`] columns), marble walls behind it all.
//!
//! Expects: the finished caves, ores, liquids, chests and walls (it runs after the walls
//! pass, so its walls stay). Leaves: `marble.per_4200` caves per 4200 columns, each pushed
//! to `world.structures` as a `marble_cave`; rock in the pocket is marble, the hall's air
//! is carved where [`super::pockets::may_carve`] allows. A cave goes where its ground is
//! stone ([`super::pockets::in_stone`]: not a biome's mud, ice or sand).

use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::structure::StructureKind;
use crate::world::{Tile, Wall, World};
use crate::worldgen::pockets::{self, Plan, carve, recolour};
use rand::Rng;

/// Rows from one floor of the hall to the next.
pub const STOREY: i32 = 9;
/// Columns from one pillar to the next.
pub const PILLAR: i32 = 13;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.marble;
    let plan = Plan::in_caverns(StructureKind::MarbleCave, preset, p.size, (0.55, 0.15));
    let count = p.count(world.width());
    pockets::lay(world, rng.next_u64(), count, &plan, |world, s, _, cells| {
        for &(x, y, d) in cells {
            world.set_wall(x, y, Wall::Marble);
            let (dx, dy) = (x as i32 - s.cx, y as i32 - s.cy);
            let floor = dy.rem_euclid(STOREY) < 2;
            let pillar = dx.rem_euclid(PILLAR) < 2;
            if d < 0.72 && !floor && !pillar {
                carve(world, x, y);
            } else {
                recolour(world, x, y, Tile::Marble);
            }
        }
    });
}
