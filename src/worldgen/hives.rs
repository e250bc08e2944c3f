//! Pass **hives**: bee hives in the jungle, as Terraria has them: a closed shell of hive
//! blocks [`SHELL`] tiles thick, hive walls inside, its lower part full of honey (the
//! third liquid, `sim::flow`) and lumps of hive in the open.
//!
//! Expects: the finished caves, ores, liquids, chests and walls (it runs after the walls
//! pass). Leaves: `hives.per_4200` hives per 4200 columns, each pushed to
//! `world.structures` as a `hive`, and only where at least seven of nine samples of the
//! ground around it are the jungle's (mud or jungle grass): a world without a jungle has
//! none. The shell replaces rock and air alike (liquids, chests and trees stay), so the
//! honey is held: honey fills the open rows of the inside below [`HONEY_LEVEL`] of its
//! height, air above, so it lies at rest.

use crate::base::depth::Layer;
use crate::base::noise::perlin_2d;
use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::structure::StructureKind;
use crate::world::{Matter, Tile, Wall, World};
use crate::worldgen::pockets::{self, Plan, Spot, samples};
use rand::Rng;

/// Tiles of hive around the inside.
pub const SHELL: f32 = 3.0;
/// Honey below this share of the inside's height from its middle (0: half full).
pub const HONEY_LEVEL: f32 = 0.1;

/// The jungle's ground.
pub fn is_jungle(t: Tile) -> bool {
    matches!(t, Tile::Mud | Tile::JungleGrass)
}

/// Ground of the jungle: at least seven of nine samples round the spot.
fn in_jungle(world: &World, s: &Spot) -> bool {
    samples(world, s, 1.2, is_jungle) >= 7
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.hives;
    let plan = Plan {
        kind: StructureKind::Hive,
        rows: Layers::of(preset).rows(Layer::Underground, Layer::Cavern),
        size: p.size as f32,
        aspect: 0.75,
        rough: 0.12,
        suits: in_jungle,
    };
    let count = p.count(world.width());
    pockets::lay(world, rng.next_u64(), count, &plan, |world, s, k, cells| {
        let shell = SHELL / s.rx.min(s.ry);
        let level = s.cy as f32 + HONEY_LEVEL * s.ry;
        for &(x, y, d) in cells {
            let t = world.tile(x, y);
            if t.is_liquid() || t.info().matter == Matter::Decor {
                continue;
            }
            world.set_wall(x, y, Wall::Hive);
            let lump = perlin_2d(k ^ 0xB5, x as f32 / 6.0, y as f32 / 6.0) > 0.45;
            let inside = d < 1.0 - shell;
            world.set(
                x,
                y,
                if !inside || lump {
                    Tile::Hive
                } else if y as f32 > level {
                    Tile::Honey
                } else {
                    Tile::Air
                },
            );
        }
    });
}
