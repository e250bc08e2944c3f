//! Pass **cabins**: wooden cabins in the caves of the underground and cavern layers.
//!
//! Expects: the caves, liquids and chests laid, and the landmarks on the surface (their
//! boxes are kept clear). Leaves, for each cabin: a shell of wood 13 x 7 round a room of
//! plank walls, a door in one side wall, a table and a chair, a torch and a chest (the
//! loot of its depth layer, `config/loot.ron`'s tiers), a short passage from the door to
//! the cave; one [`StructureKind::Cabin`] each. Nothing else moves.
//!
//! `cabins.per_million` spots are tried per million tiles of those layers, each drawn from
//! a counter-based hash of its number: the first cave floor at or below it (within 60
//! rows) with cave air within 12 columns of one side of the cabin at the door's rows, no
//! liquid in or beside the cabin's box, no other landmark near and the spawn's columns
//! clear. Once built, the cave beyond the door must hold [`NETWORK`] tiles of air (a
//! flood fill, bounded, from the passage's end); otherwise the cabin is taken down again
//! (its tiles and walls put back). So every cabin opens on the cave network (or on a cave
//! open to the surface: the fill goes on into the sky).

use super::build::{box_taken, clear_of_spawn, fill, put, put_chest};
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::chest::LootFrom;
use crate::world::depth::Layers;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use rand::Rng;

/// Air tiles a cabin's cave must hold (beyond its door) for the cabin to stay.
pub const NETWORK: usize = 3000;
/// Half the cabin's outside width, and its outside height.
const HALF: i64 = 6;
const TALL: i64 = 7;
/// Columns a door's passage may dig to reach the cave.
const PASSAGE: i64 = 12;
/// Rows searched down from a spot for a cave floor.
const SEARCH: usize = 60;
/// Half the side of the window the flood fill looks in (air beyond it is not counted).
const WINDOW: i64 = 300;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.cabins;
    let key = rng.next_u64();
    let layers = Layers::of(preset);
    let (w, h) = (world.width() as i64, world.height() as i64);
    let top = layers.underground as i64 + TALL;
    let bottom = (layers.underworld as i64 - 20).min(h - 2);
    if p.per_million <= 0.0 || bottom <= top + 20 || w < 4 * (HALF + PASSAGE) {
        return;
    }
    let tries = (p.per_million * ((bottom - top) * w) as f64 / 1e6).round() as u64;
    let side = (2 * WINDOW + 1) as usize;
    let mut stamp = vec![0u32; side * side];
    for i in 0..tries {
        let r = hash3(key, i, 0);
        let x = HALF + PASSAGE + 1 + (r % (w - 2 * (HALF + PASSAGE + 1)) as u64) as i64;
        let y0 = top + ((r >> 32) % (bottom - top) as u64) as i64;
        let floor_at = (y0..(y0 + SEARCH as i64).min(bottom)).find(|&y| {
            world.get(x, y) == Some(Tile::Air) && world.get(x, y + 1).is_some_and(Tile::is_solid)
        });
        let Some(fy) = floor_at else { continue };
        let (x0, x1, by0, by1) = (x - HALF, x + HALF, fy - TALL + 2, fy + 1);
        if !clear_of_spawn(w as usize, x0 as usize, x1 as usize + 1)
            || by0 < top - TALL
            || box_taken(
                world,
                ((x0 - 4) as usize, (by0 - 4) as usize),
                ((x1 + 4) as usize, (by1 + 4) as usize),
            )
            || (by0 - 1..=by1 + 1)
                .any(|y| (x0 - 1..=x1 + 1).any(|x| world.get(x, y).is_some_and(Tile::is_liquid)))
        {
            continue;
        }
        // The door's side: the first (of a drawn order) with cave air at the door's rows
        // within PASSAGE columns beyond the side wall.
        let flip = (r >> 20) & 1 == 1;
        let sides = if flip { [1i64, -1] } else { [-1, 1] };
        let reach = sides.into_iter().find_map(|s| {
            let wall_x = if s > 0 { x1 } else { x0 };
            (1..=PASSAGE)
                .map(|d| wall_x + s * d)
                .find(|&c| (fy - 1..=fy).all(|y| world.get(c, y) == Some(Tile::Air)))
                .map(|c| (s, wall_x, c))
        });
        let Some((s, wall_x, end)) = reach else {
            continue;
        };
        // Keep what was there, to put it back if the cave beyond is too small (a chest
        // there, with its contents, is left alone: no cabin there).
        let (kx0, kx1) = (x0.min(end), x1.max(end));
        if (by0..=by1).any(|y| (kx0..=kx1).any(|x| world.get(x, y) == Some(Tile::Chest))) {
            continue;
        }
        let kept: Vec<(Tile, Wall)> = (by0..=by1)
            .flat_map(|y| (kx0..=kx1).map(move |x| (x, y)))
            .map(|(x, y)| {
                (
                    world.tile(x as usize, y as usize),
                    world.wall(x as usize, y as usize),
                )
            })
            .collect();
        fill(world, (x0, by0), (x1, by1), Tile::Wood, None);
        fill(
            world,
            (x0 + 1, by0 + 1),
            (x1 - 1, fy),
            Tile::Air,
            Some(Wall::Planks),
        );
        // The passage, then the door in the side wall.
        let (a, b) = (wall_x.min(end), wall_x.max(end));
        fill(world, (a, fy - 2), (b, fy), Tile::Air, None);
        put(world, wall_x, fy - 1, Tile::ClosedDoor);
        put(world, wall_x, fy, Tile::ClosedDoor);
        if world.get(wall_x, fy - 2) == Some(Tile::Air) {
            put(world, wall_x, fy - 2, Tile::Wood);
        }
        if !reaches(world, (end, fy), NETWORK, &mut stamp, i as u32 + 1) {
            for (k, (y, x)) in (by0..=by1)
                .flat_map(|y| (kx0..=kx1).map(move |x| (y, x)))
                .enumerate()
            {
                put(world, x, y, kept[k].0);
                world.set_wall(x as usize, y as usize, kept[k].1);
            }
            continue;
        }
        // Furniture on the floor: the chest at the far end from the door.
        let far = x - s * (HALF - 2);
        // A cabin's chest draws from the `cabin` set (Hermes boots, a band of regeneration).
        let seed = hash3(key, far as u64, fy as u64);
        put_chest(
            world,
            far as usize,
            fy as usize,
            LootFrom::Set("cabin"),
            seed,
        );
        put(world, x, fy, Tile::Table);
        put(world, x + s, fy, Tile::Chair);
        put(world, x, fy - 3, Tile::Torch);
        world.structures.push(Structure::spanning(
            StructureKind::Cabin,
            (x0 as usize, by0 as usize),
            (x1 as usize, by1 as usize),
        ));
    }
}

/// Does the air 4-connected to `from` hold at least `need` tiles within [`WINDOW`] of it?
/// A bounded flood fill; `stamp` (the window's tiles) marks
/// what this fill (`mark`, never 0 and new each call) has seen.
fn reaches(world: &World, from: (i64, i64), need: usize, stamp: &mut [u32], mark: u32) -> bool {
    let side = 2 * WINDOW + 1;
    let index = |x: i64, y: i64| -> Option<usize> {
        let (dx, dy) = (x - from.0 + WINDOW, y - from.1 + WINDOW);
        ((0..side).contains(&dx) && (0..side).contains(&dy)).then(|| (dy * side + dx) as usize)
    };
    let mut stack = vec![from];
    let mut seen = 0;
    if let Some(i) = index(from.0, from.1) {
        stamp[i] = mark;
    }
    while let Some((x, y)) = stack.pop() {
        seen += 1;
        if seen >= need {
            return true;
        }
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            if world.get(nx, ny) != Some(Tile::Air) {
                continue;
            }
            let Some(i) = index(nx, ny) else { continue };
            if stamp[i] != mark {
                stamp[i] = mark;
                stack.push((nx, ny));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{AirGrid, analyse_air};
    use crate::worldgen::generate;

    #[test]
    fn cabins_have_their_furniture_and_open_on_the_cave_network() {
        let mut p = Preset {
            width: 2000,
            height: 900,
            ..Preset::default()
        };
        p.cabins.per_million = 20.0;
        let (w, _) = generate(&p, 9);
        let cabins: Vec<_> = w
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Cabin)
            .copied()
            .collect();
        assert!(cabins.len() >= 3, "{} cabins", cabins.len());
        // Doors open: the air behind every cabin's door is part of a large cave.
        let mut grid = AirGrid::of(&w);
        for (x, y) in w.find(Tile::ClosedDoor) {
            grid.set(x, y, true);
        }
        let report = analyse_air(&grid);
        for c in &cabins {
            let inside = |t: Tile| {
                (c.y..c.y + c.h)
                    .flat_map(|y| (c.x..c.x + c.w).map(move |x| (x as usize, y as usize)))
                    .filter(|&(x, y)| w.tile(x, y) == t)
                    .count()
            };
            for t in [Tile::Chest, Tile::Table, Tile::Chair, Tile::Torch] {
                assert_eq!(inside(t), 1, "{c:?}: {t:?}");
            }
            assert_eq!(inside(Tile::ClosedDoor), 2, "{c:?}");
            let (mx, my) = ((c.x + c.w / 2) as usize, (c.y + c.h - 3) as usize);
            assert_eq!(w.wall(mx, my), Wall::Planks, "{c:?}");
            let id = report.component_at(mx, my - 1).expect("air inside");
            // A large cave, or one open to the surface.
            let cave = report.component(id).unwrap();
            assert!(
                cave.area >= 2000 || cave.open,
                "{c:?}: its cave holds {} tiles",
                cave.area
            );
        }
    }
}
