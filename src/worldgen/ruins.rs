//! Pass **ruins**: ruined houses and towers of obsidian brick on the underworld's floor,
//! as Terraria has them.
//!
//! Expects: the underworld, its lava and its hellstone laid. Leaves: `ruins.per_4200`
//! ruins per 4200 columns (a quarter of them towers), each pushed to `world.structures` as
//! an `underworld_house` or `underworld_tower`. A ruin stands on the first ground under
//! the underworld's top in its middle column, where its box is at least [`OPEN`] air, with
//! no liquid, and the ground under it at least half solid. It is a frame of obsidian brick
//! (a tower with a floor every [`FLOOR`] rows, each with a gap to climb through; a house
//! with a doorway), obsidian brick walls behind, its inside cleared of rock; then ruined:
//! a corner of its roof broken off down a diagonal, and a [`BROKEN`] share of its bricks
//! and walls missing. `ruins.size` is a house's half-width.

use crate::base::depth::Layer;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use crate::worldgen::pockets::{SPAWN_CLEAR, TRIES, is_rock, unit};
use rand::Rng;

/// Least share of a ruin's box that must be open air.
pub const OPEN: f32 = 0.8;
/// Rows from one floor of a tower to the next.
pub const FLOOR: i32 = 6;
/// Share of a ruin's bricks and walls missing.
pub const BROKEN: f32 = 0.15;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.ruins;
    let key = rng.next_u64();
    let (top, bottom) = Layers::of(preset).rows(Layer::Underworld, Layer::Underworld);
    let (w, h) = (world.width() as i32, world.height() as i32);
    let (top, bottom) = (top as i32, (bottom as i32).min(h));
    for i in 0..p.count(world.width()) as u64 {
        for t in 0..TRIES {
            let r = hash3(key, i, t);
            let tower = r >> 62 == 0;
            let size = p.size.max(2.0) as f32;
            let (bw, bh) = if tower {
                (
                    (size * (0.8 + 0.4 * unit(r, 0))) as i32 + 3,
                    (size * (2.5 + 1.5 * unit(r, 24))) as i32 + 6,
                )
            } else {
                (
                    (2.0 * size * (0.75 + 0.5 * unit(r, 0))) as i32 + 3,
                    (size * (0.9 + 0.4 * unit(r, 24))) as i32 + 4,
                )
            };
            if w <= bw + 2 || bottom - top <= bh + 2 {
                break;
            }
            let x0 = 1 + (hash3(key, i, t | 1 << 40) % (w - bw - 2) as u64) as i32;
            let mid = (x0 + bw / 2) as i64;
            let Some(ground) = (top + bh..bottom).find(|&y| {
                world.get(mid, y as i64).is_some_and(|t| t.is_solid())
                    && world.get(mid, y as i64 - 1) == Some(Tile::Air)
            }) else {
                continue;
            };
            let b = Structure {
                kind: if tower {
                    StructureKind::UnderworldTower
                } else {
                    StructureKind::UnderworldHouse
                },
                x: x0,
                y: ground - bh,
                w: bw,
                h: bh + 1,
            };
            let centre = w / 2;
            if (b.x < centre + SPAWN_CLEAR && centre - SPAWN_CLEAR < b.x + b.w)
                || world.structures.iter().any(|s| s.overlaps(&b))
                || !fits(world, &b)
            {
                continue;
            }
            build(world, &b, key, i, tower);
            world.structures.push(b);
            break;
        }
    }
}

/// Is the box (its last row the ground) open enough, dry, and its ground solid enough?
fn fits(world: &World, b: &Structure) -> bool {
    let (mut open, mut wet, mut ground) = (0, false, 0);
    for y in b.y..b.y + b.h - 1 {
        for x in b.x..b.x + b.w {
            match world.get(x as i64, y as i64) {
                Some(Tile::Air) => open += 1,
                Some(t) if t.is_liquid() => wet = true,
                _ => {}
            }
        }
    }
    for x in b.x..b.x + b.w {
        ground += world
            .get(x as i64, (b.y + b.h - 1) as i64)
            .is_some_and(|t| t.is_solid()) as i32;
    }
    !wet && open as f32 >= OPEN * (b.w * (b.h - 1)) as f32 && 2 * ground >= b.w
}

/// Lays the ruin in box `b` (its last row the ground it stands on).
fn build(world: &mut World, b: &Structure, key: u64, i: u64, tower: bool) {
    let (x1, y1) = (b.x + b.w - 1, b.y + b.h - 1);
    let r = hash3(key, i, u64::MAX);
    // The broken corner: a diagonal from the roof, on the left or the right.
    let cut = 2 + (r % (b.w as u64 / 2 + 1)) as i32;
    let right = r >> 63 == 1;
    let door_left = (r >> 62) & 1 == 1;
    for y in b.y..=y1 {
        for x in b.x..=x1 {
            let (dx, dy) = (x - b.x, y - b.y);
            let from_corner = if right { x1 - x } else { dx };
            if dy + from_corner < cut {
                continue;
            }
            let (ux, uy) = (x as usize, y as usize);
            let frame = x == b.x || x == x1 || y == b.y || y == y1;
            let floor = tower && dy > 0 && (y1 - y) % FLOOR == 0 && y != y1;
            // A tower's floors leave a gap at alternating sides; a house has a doorway.
            let gap = floor && {
                let side = ((y1 - y) / FLOOR) % 2 == 0;
                if side {
                    (1..=2).contains(&dx)
                } else {
                    (b.w - 3..b.w - 1).contains(&dx)
                }
            };
            let door = !tower && (y1 - 3..y1).contains(&y) && x == if door_left { b.x } else { x1 };
            let draw = unit(hash3(key ^ 0x0B5, i, (dy * b.w + dx) as u64), 0);
            let t = world.tile(ux, uy);
            if t.is_liquid() {
                continue;
            }
            if draw >= BROKEN || frame {
                world.set_wall(ux, uy, Wall::ObsidianBrick);
            }
            if (frame || floor) && !gap && !door {
                if draw >= BROKEN || y == y1 {
                    world.set(ux, uy, Tile::ObsidianBrick);
                }
            } else if is_rock(t) {
                world.set(ux, uy, Tile::Air);
            }
        }
    }
}
