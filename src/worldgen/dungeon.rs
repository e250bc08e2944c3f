//! Pass **dungeon**: one dungeon, near the ocean on the side away from the jungle.
//!
//! Expects: the world finished but for its landmarks (the walls laid). Leaves: an entrance
//! hall of dungeon brick standing on the surface, open at both sides, with steps of brick
//! (or a cut in the ground) leading up to its doorways; under it a shaft, then corridors
//! and shafts one after another down past the top of the cavern layer, rooms at the
//! corridors' ends with the dungeon's chests (`config/loot.ron`'s `dungeon` set); every
//! hollow backed by dungeon brick walls, shells of brick three tiles thick, platforms
//! across the shafts every few rows so the player climbs back, and beds of spikes on some
//! corridors' floors. One [`StructureKind::Dungeon`] covering all of it.
//!
//! The side: away from the jungle ([`super::build::jungle_on_left`]); without a jungle the
//! stream draws it. The entrance stands `dungeon.inland` columns inland of the shore. The
//! corridors keep between the shore and the spawn's clearance, so the dungeon never
//! covers the spawn. Everything is drawn from the pass's own stream.

use super::build::{SPAWN_CLEAR, fill, jungle_on_left, ocean_columns, put, put_chest};
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::chest::LootFrom;
use crate::world::depth::Layers;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use rand::{Rng, RngExt};

/// Width and height of the entrance hall, outside.
pub const HALL_W: i64 = 27;
pub const HALL_H: i64 = 16;
/// Brick around every hollow.
const SHELL: i64 = 3;
/// Rows of air in a corridor, columns in a shaft.
const CORRIDOR: i64 = 5;
const SHAFT: i64 = 4;
/// Rows between platforms across a shaft.
const PLATFORM_EVERY: i64 = 5;

/// An inclusive box of tiles.
#[derive(Clone, Copy, Debug)]
struct Hollow {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
    kind: Part,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    Hall,
    Shaft,
    Corridor,
    Room,
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.dungeon;
    let loot_key = rng.next_u64();
    let (w, h) = (world.width() as i64, world.height() as i64);
    let layers = Layers::of(preset);
    let cavern = layers.cavern as i64;
    if !p.enabled || w < 4 * (HALL_W + 2 * SPAWN_CLEAR as i64) || cavern + 40 >= h {
        return;
    }
    let left = match jungle_on_left(preset, world.seed) {
        Some(jungle_left) => !jungle_left,
        None => rng.random_bool(0.5),
    };
    let shore = ocean_columns(preset) as i64;
    // The band of columns the dungeon keeps to: from the shore to the spawn's clearance.
    let (lo, hi) = if left {
        (shore + 2, w / 2 - SPAWN_CLEAR as i64 - 2)
    } else {
        (w / 2 + SPAWN_CLEAR as i64 + 2, w - shore - 3)
    };
    let centre = if left {
        (shore + p.inland as i64 + HALL_W / 2).min(hi - HALL_W)
    } else {
        (w - 1 - shore - p.inland as i64 - HALL_W / 2).max(lo + HALL_W)
    };
    let (hx0, hx1) = (centre - HALL_W / 2, centre + HALL_W / 2);
    if hx0 < lo || hx1 > hi || hx0 < 1 || hx1 >= w - 1 {
        return;
    }
    // The hall's floor lies at the ground of its centre column.
    let floor = world.surface[centre as usize] as i64;
    if floor - HALL_H - 2 < 0 {
        return;
    }
    let mut hollows = vec![Hollow {
        x0: hx0 + SHELL,
        y0: floor - HALL_H + SHELL,
        x1: hx1 - SHELL,
        y1: floor - 1,
        kind: Part::Hall,
    }];
    // Down: a shaft, then a corridor, again and again, past the cavern layer's top.
    let inward: i64 = if left { 1 } else { -1 };
    let (mut x, mut y) = (centre, floor - 1);
    let bottom_goal = cavern + 10;
    let mut i = 0u32;
    while (i < p.segments || y < bottom_goal) && i < 64 && y + 40 < h {
        let fall = if y < bottom_goal {
            rng.random_range(18..=40i64)
                .min(bottom_goal + 8 - y)
                .max(12)
        } else {
            rng.random_range(10..=18i64)
        };
        let sx0 = x - SHAFT / 2;
        hollows.push(Hollow {
            x0: sx0,
            y0: y,
            x1: sx0 + SHAFT - 1,
            y1: y + fall,
            kind: Part::Shaft,
        });
        y += fall;
        // A corridor from the shaft's foot, mostly inward, kept in the band (the other
        // way where the band ends; none where it is too narrow either way).
        let first = if rng.random_bool(0.7) {
            inward
        } else {
            -inward
        };
        let len = rng.random_range(24..=60i64);
        let corridor = [first, -first].into_iter().find_map(|dir| {
            let (cx0, cx1) = if dir > 0 {
                (x - 2, x + len)
            } else {
                (x - len, x + 2)
            };
            let (cx0, cx1) = (cx0.max(lo + SHELL), cx1.min(hi - SHELL));
            (cx1 - cx0 >= 12).then_some((dir, cx0, cx1))
        });
        let Some((dir, cx0, cx1)) = corridor else {
            i += 1;
            continue;
        };
        hollows.push(Hollow {
            x0: cx0,
            y0: y - CORRIDOR + 1,
            x1: cx1,
            y1: y,
            kind: Part::Corridor,
        });
        let end = if dir > 0 { cx1 } else { cx0 };
        // A room at the far end of every other corridor.
        if i % 2 == 1 {
            let (rw, rh) = (rng.random_range(12..=18i64), rng.random_range(8..=11i64));
            let rx0 = if dir > 0 { end - 2 } else { end - rw + 3 };
            let (rx0, rx1) = (rx0.max(lo + SHELL), (rx0 + rw).min(hi - SHELL));
            hollows.push(Hollow {
                x0: rx0,
                y0: y - rh + 1,
                x1: rx1,
                y1: y,
                kind: Part::Room,
            });
        }
        x = if dir > 0 { end - 3 } else { end + 3 };
        i += 1;
    }
    // Shells first, then the hall's foundation, then the hollows, so no shell or
    // foundation fills a hollow.
    let (mut bx0, mut by0, mut bx1, mut by1) = (hx0, floor - HALL_H - 1, hx1, floor);
    for o in &hollows {
        fill(
            world,
            (o.x0 - SHELL, o.y0 - SHELL),
            (o.x1 + SHELL, o.y1 + SHELL),
            Tile::DungeonBrick,
            Some(Wall::DungeonBrick),
        );
        bx0 = bx0.min(o.x0 - SHELL);
        by0 = by0.min(o.y0 - SHELL);
        bx1 = bx1.max(o.x1 + SHELL);
        by1 = by1.max(o.y1 + SHELL);
    }
    // The hall stands on the ground: brick under it down into the ground of every column.
    for xx in hx0..=hx1 {
        let s = world.surface[xx as usize] as i64;
        fill(
            world,
            (xx, floor),
            (xx, s + 1),
            Tile::DungeonBrick,
            Some(Wall::DungeonBrick),
        );
    }
    // Battlements on the roof.
    for xx in (hx0..=hx1).step_by(2) {
        put(world, xx, floor - HALL_H - 1, Tile::DungeonBrick);
    }
    for o in &hollows {
        fill(
            world,
            (o.x0, o.y0),
            (o.x1, o.y1),
            Tile::Air,
            Some(Wall::DungeonBrick),
        );
    }
    // Doorways through both side walls at the floor, and steps of brick down to lower
    // ground outside (one row a column) or a cut through higher ground.
    for (wx0, wx1, outside, step) in [
        (hx0, hx0 + SHELL - 1, hx0, -1i64),
        (hx1 - SHELL + 1, hx1, hx1, 1),
    ] {
        fill(world, (wx0, floor - 4), (wx1, floor - 1), Tile::Air, None);
        for d in 1..=24i64 {
            let xx = outside + step * d;
            if xx < 0 || xx >= w {
                break;
            }
            let ground = world.surface[xx as usize] as i64;
            if ground > floor + d {
                fill(
                    world,
                    (xx, floor + d),
                    (xx, ground),
                    Tile::DungeonBrick,
                    None,
                );
                bx0 = bx0.min(xx);
                bx1 = bx1.max(xx);
            } else if ground < floor - d {
                fill(world, (xx, 0), (xx, floor - d - 1), Tile::Air, None);
            }
        }
    }
    // Platforms across the shafts; spikes on some corridors' floors; chests in the rooms.
    let mut chests_left = p.chests;
    for o in &hollows {
        match o.kind {
            Part::Shaft => {
                let mut yy = o.y0 + PLATFORM_EVERY;
                while yy < o.y1 - 1 {
                    fill(world, (o.x0, yy), (o.x1, yy), Tile::Platform, None);
                    yy += PLATFORM_EVERY;
                }
            }
            Part::Corridor if rng.random_bool(p.spikes) => {
                let n = rng.random_range(3..=6);
                let room = (o.x1 - o.x0 - 2 * SHAFT - n).max(1);
                let sx = o.x0 + SHAFT + 1 + rng.random_range(0..room);
                for xx in sx..sx + n {
                    // Only on the floor: never across a shaft's mouth.
                    if world.get(xx, o.y1 + 1) == Some(Tile::DungeonBrick) {
                        put(world, xx, o.y1 + 1, Tile::Spike);
                    }
                }
            }
            Part::Room if chests_left > 0 => {
                let cx = (o.x0 + o.x1) / 2 + rng.random_range(-2..=2);
                let cy = o.y1;
                if world.get(cx, cy + 1) == Some(Tile::DungeonBrick) {
                    let seed = hash3(loot_key, cx as u64, cy as u64);
                    let from = LootFrom::Set("dungeon");
                    put_chest(world, cx as usize, cy as usize, from, seed);
                    chests_left -= 1;
                }
            }
            _ => {}
        }
    }
    let clip = |v: i64, n: i64| v.clamp(0, n - 1) as usize;
    world.structures.push(Structure::spanning(
        StructureKind::Dungeon,
        (clip(bx0, w), clip(by0 - 1, h)),
        (clip(bx1, w), clip(by1, h)),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    fn preset() -> Preset {
        Preset {
            width: 1600,
            height: 700,
            ..Preset::default()
        }
    }

    #[test]
    fn one_dungeon_of_brick_reaching_the_caverns_away_from_the_jungle() {
        let p = preset();
        for seed in [1, 2, 3] {
            let (w, _) = generate(&p, seed);
            let d: Vec<_> = w
                .structures
                .iter()
                .filter(|s| s.kind == StructureKind::Dungeon)
                .collect();
            assert_eq!(d.len(), 1, "seed {seed}");
            let d = d[0];
            let cavern = Layers::of(&p).cavern as i32;
            assert!(
                d.y + d.h > cavern,
                "seed {seed}: bottom {} above the caverns {cavern}",
                d.y + d.h
            );
            let bricks = (d.y..d.y + d.h)
                .flat_map(|y| (d.x..d.x + d.w).map(move |x| (x as usize, y as usize)))
                .filter(|&(x, y)| w.tile(x, y) == Tile::DungeonBrick)
                .count();
            assert!(bricks > 1500, "seed {seed}: {bricks} bricks");
            if let Some(jungle_left) = jungle_on_left(&p, seed) {
                let dungeon_left = d.centre().0 < p.width as f64 / 2.0;
                assert_ne!(jungle_left, dungeon_left, "seed {seed}");
            }
            let chests = w
                .chests
                .iter()
                .filter(|((x, y), _)| d.contains(*x, *y))
                .count();
            assert!(chests >= 1, "seed {seed}: no chest in the dungeon");
        }
        let mut off = p.clone();
        off.dungeon.enabled = false;
        let (w, _) = generate(&off, 1);
        assert!(w.find(Tile::DungeonBrick).is_empty());
    }
}
