//! Pass **walls**: the natural background walls behind the ground, as Terraria has them.
//!
//! Expects: the finished tiles (it runs last and reads which tiles are air; it never
//! changes a tile, so the tile hash is the same with or without it). Leaves a wall behind
//! every tile from a few rows under each column's surface ([`MARGIN`] plus up to
//! [`MARGIN_JITTER`]) to the world's floor: dirt walls in the dirt layers, stone walls
//! from the cavern layer down (the line speckled over [`STONE_JITTER`] rows), ash walls in
//! the underworld, and in a biome's bowl its own (snow, sandstone in deserts, mud in
//! jungles), with the biome map's speckled edges. No wall above the surface (the sky stays
//! open) nor in the air of a cave mouth: ground air joined to the sky is cleared down to
//! [`MOUTH_DEPTH`] (plus a little per column) under its column's surface, so a mouth shows
//! the sky behind it and the walls begin where the mouth becomes a cave.
//!
//! Rows are filled in parallel (a fill per run of one wall, a test per tile only in the
//! speckled margins); the mouths are a flood from the air beside the sky, whose result is
//! a set that does not depend on the order it is visited in.

use crate::base::rng::{PassRng, hash3};
use crate::content::preset::{Biome, Preset};
use crate::world::depth::Layers;
use crate::world::{Tile, Wall, World};
use crate::worldgen::biomes::{BiomeMap, SOFT};
use rand::Rng;
use rayon::prelude::*;

/// Rows under a column's surface that have no wall at least (dig a hole there and the sky
/// shows through it).
pub const MARGIN: u32 = 3;
/// Up to this many more rows without a wall, drawn per column.
pub const MARGIN_JITTER: u32 = 3;
/// Rows under its column's surface down to which the air of a cave open to the sky has
/// no wall.
pub const MOUTH_DEPTH: u32 = 36;
/// Up to this many more rows of open mouth, drawn per column (no straight cut).
pub const MOUTH_JITTER: u32 = 6;
/// Rows over which dirt walls give way to stone walls at the top of the cavern layer.
pub const STONE_JITTER: u32 = 6;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let (width, height) = (world.width(), world.height());
    let layers = Layers::of(preset);
    let map = BiomeMap::new(preset, world.seed);
    let tops = map.tops(&world.surface);
    let top: Vec<u32> = (0..width)
        .map(|x| {
            let jitter = (hash3(key, x as u64, 0) % (MARGIN_JITTER as u64 + 1)) as u32;
            world.surface[x] + MARGIN + jitter
        })
        .collect();
    let first = top.iter().copied().min().unwrap_or(0) as usize;
    let last = top.iter().copied().max().unwrap_or(0) as usize;
    world
        .walls_mut()
        .par_chunks_mut(width)
        .enumerate()
        .skip(first.min(height))
        .for_each(|(y, row)| {
            fill_row(row, y, key, &layers, &map, &tops);
            if y < last {
                // A select, not a branch: the compiler makes it a vector blend.
                for (wall, &t) in row.iter_mut().zip(&top) {
                    *wall = if (y as u32) < t { Wall::None } else { *wall };
                }
            }
        });
    open_mouths(world, key);
}

/// The natural wall of every tile of row `y`, as if it were all ground.
fn fill_row(row: &mut [Wall], y: usize, key: u64, layers: &Layers, map: &BiomeMap, tops: &[u32]) {
    if y >= layers.underworld {
        row.fill(Wall::Ash);
        return;
    }
    let stone_from = layers.cavern;
    if y < stone_from {
        row.fill(Wall::Dirt);
    } else if y >= stone_from + STONE_JITTER as usize {
        row.fill(Wall::Stone);
    } else {
        let into = (y - stone_from) as u64;
        for (x, wall) in row.iter_mut().enumerate() {
            let stone = hash3(key, x as u64, y as u64 + 1) % STONE_JITTER as u64 <= into;
            *wall = if stone { Wall::Stone } else { Wall::Dirt };
        }
    }
    for (span, &top) in map.spans.iter().zip(tops) {
        let wall = match span.biome {
            Biome::Desert => Wall::Sandstone,
            Biome::Snow => Wall::Snow,
            Biome::Jungle => Wall::Mud,
            Biome::Forest | Biome::Ocean => continue,
        };
        let Some((l, r)) = map.edges(span, y, top) else {
            continue;
        };
        let width = row.len();
        let a = ((l - SOFT).floor().max(0.0) as usize).min(width);
        let b = ((r + SOFT).ceil().max(0.0) as usize).min(width).max(a);
        let inner_a = ((l + SOFT).ceil().max(a as f64) as usize).min(b);
        let inner_b = ((r - SOFT).floor().max(inner_a as f64) as usize).min(b);
        row[inner_a..inner_b].fill(wall);
        for x in (a..inner_a).chain(inner_b..b) {
            let dist = (x as f64 + 0.5 - l).min(r - x as f64 - 0.5);
            if map.takes(x, y, dist) {
                row[x] = wall;
            }
        }
    }
}

/// Clears the walls of ground air joined to the sky, down to [`MOUTH_DEPTH`] (plus up to
/// [`MOUTH_JITTER`]) rows under each column's surface: a flood through air from every
/// ground air tile beside sky air (air above its column's surface).
fn open_mouths(world: &mut World, key: u64) {
    let (width, height) = (world.width(), world.height());
    let surface = std::mem::take(&mut world.surface);
    let deepest: Vec<u32> = (0..width)
        .map(|x| {
            let jitter = (hash3(key, x as u64, 1) % (MOUTH_JITTER as u64 + 1)) as u32;
            surface[x] + MOUTH_DEPTH + jitter
        })
        .collect();
    let (tiles, walls) = world.tiles_and_walls_mut();
    let air = |x: usize, y: usize| tiles[y * width + x] == Tile::Air;
    let sky = |x: usize, y: usize| (y as u32) < surface[x] && air(x, y);
    let mut seen = vec![0u64; (width * height).div_ceil(64)];
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let visit = |x: usize, y: usize, seen: &mut [u64], stack: &mut Vec<(u32, u32)>| {
        let i = y * width + x;
        let ground = (y as u32) >= surface[x] && (y as u32) < deepest[x];
        if ground && air(x, y) && seen[i / 64] >> (i % 64) & 1 == 0 {
            seen[i / 64] |= 1 << (i % 64);
            stack.push((x as u32, y as u32));
        }
    };
    for x in 0..width {
        let s = surface[x] as usize;
        if s >= height {
            continue;
        }
        // Ground air of this column that can touch sky air: the surface tile (sky above)
        // and the rows beside a neighbour's sky.
        let left = if x > 0 { surface[x - 1] } else { 0 } as usize;
        let right = if x + 1 < width { surface[x + 1] } else { 0 } as usize;
        for y in s..left.max(right).max(s + 1).min(height) {
            let touches = (y > 0 && sky(x, y - 1))
                || (x > 0 && sky(x - 1, y))
                || (x + 1 < width && sky(x + 1, y));
            if touches {
                visit(x, y, &mut seen, &mut stack);
            }
        }
    }
    while let Some((x, y)) = stack.pop() {
        let (x, y) = (x as usize, y as usize);
        walls[y * width + x] = Wall::None;
        if x > 0 {
            visit(x - 1, y, &mut seen, &mut stack);
        }
        if x + 1 < width {
            visit(x + 1, y, &mut seen, &mut stack);
        }
        if y > 0 {
            visit(x, y - 1, &mut seen, &mut stack);
        }
        if y + 1 < height {
            visit(x, y + 1, &mut seen, &mut stack);
        }
    }
    world.surface = surface;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;
    use crate::worldgen::generate;

    fn world(seed: u64) -> World {
        let p = Preset {
            width: 600,
            height: 300,
            ..Preset::default()
        }
        .without_landmarks();
        generate(&p, seed).0
    }

    #[test]
    fn the_sky_and_the_rows_under_the_surface_have_no_wall() {
        let w = world(7);
        for x in 0..w.width() {
            let s = w.surface[x] as usize;
            for y in 0..(s + MARGIN as usize).min(w.height()) {
                assert_eq!(w.wall(x, y), Wall::None, "wall at {x},{y} (surface {s})");
            }
        }
    }

    #[test]
    fn cave_mouths_are_open_and_every_cave_has_walls_below() {
        let w = world(11);
        let report = analyse(&w);
        assert!(!report.mouths.is_empty(), "the test world has mouths");
        for &(x0, x1) in &report.mouths {
            for x in x0 as usize..x1 as usize {
                assert_eq!(w.wall(x, w.surface[x] as usize), Wall::None, "mouth at {x}");
            }
        }
        let layers = Layers::of_world(&w);
        let mut caves_walled = 0;
        for y in 0..w.height() {
            for x in 0..w.width() {
                let Some(id) = report.component_at(x, y) else {
                    continue;
                };
                let s = w.surface[x];
                let deep = y as u32 >= s + MOUTH_DEPTH + MOUTH_JITTER;
                let sealed = !report.component(id).unwrap().open;
                let below_margin = y as u32 >= s + MARGIN + MARGIN_JITTER;
                if deep || (sealed && below_margin) {
                    let wall = w.wall(x, y);
                    assert!(wall.is_some(), "cave air at {x},{y} without a wall");
                    if y < layers.cavern {
                        assert!(
                            wall != Wall::Stone && wall != Wall::Ash,
                            "{wall:?} at {x},{y}"
                        );
                    }
                    if y >= layers.cavern + STONE_JITTER as usize && y < layers.underworld {
                        assert!(
                            wall != Wall::Dirt,
                            "dirt wall at {x},{y} in the cavern layer"
                        );
                    }
                    caves_walled += 1;
                }
            }
        }
        assert!(
            caves_walled > 1000,
            "only {caves_walled} cave tiles checked"
        );
        // Air joined to the sky just under the surface is open: a mouth shows the sky.
        let mut open_mouth_air = 0;
        for x in 0..w.width() {
            let s = w.surface[x] as usize;
            let y = s + MOUTH_DEPTH as usize / 2;
            let open = report
                .component_at(x, y)
                .is_some_and(|id| report.component(id).unwrap().open);
            if open && w.wall(x, y) == Wall::None {
                open_mouth_air += 1;
            }
        }
        assert!(
            open_mouth_air > 0,
            "no open mouth air half way down a mouth"
        );
    }

    #[test]
    fn biomes_and_the_underworld_have_their_own_walls() {
        let mut p = Preset {
            width: 1200,
            height: 400,
            ..Preset::default()
        }
        .without_landmarks();
        // Without the ruins, whose obsidian brick walls stand in the underworld.
        p.ruins.enabled = false;
        let w = generate(&p, 3).0;
        let mut seen = [0u64; Wall::COUNT];
        for &wall in w.walls() {
            seen[wall as usize] += 1;
        }
        // The pass lays the layers' and biomes' walls, never a player's (the landmarks'
        // walls are their passes').
        // Dirt, stone, snow, sandstone, mud and ash.
        let laid = &Wall::ALL[1..=6];
        for wall in Wall::ALL.into_iter().skip(1) {
            if laid.contains(&wall) {
                assert!(seen[wall as usize] > 100, "{wall:?}: {seen:?}");
            } else if !wall.info().natural {
                assert_eq!(seen[wall as usize], 0, "{wall:?}: {seen:?}");
            }
        }
        let layers = Layers::of_world(&w);
        let y = (layers.underworld + w.height()) / 2;
        assert!(w.wall_row(y).iter().all(|&x| x == Wall::Ash));
    }

    #[test]
    fn walls_leave_the_tiles_alone_and_are_the_same_for_any_thread_count() {
        let p = Preset {
            width: 500,
            height: 250,
            ..Preset::default()
        }
        .without_landmarks();
        let run = |threads| crate::worldgen::on_threads(threads, || generate(&p, 21).0);
        let (a, b) = (run(1), run(3));
        assert_eq!(a.wall_hash(), b.wall_hash());
        assert_eq!(a.tile_hash(), b.tile_hash());
        let never = std::sync::atomic::AtomicBool::new(false);
        let before = crate::worldgen::pass_named("walls").unwrap() - 1;
        let content = crate::content::config::Content::builtin();
        let until = |last| {
            crate::worldgen::generate_until(&p, 21, &content, last, &mut |_| {}, &never).unwrap()
        };
        let (c, _) = until(before);
        let (d, _) = until(before + 1);
        assert_eq!(
            c.tile_hash(),
            d.tile_hash(),
            "the walls pass changed a tile"
        );
        assert!(c.walls().iter().all(|&w| w == Wall::None));
        assert_ne!(a.wall_hash(), c.wall_hash());
    }
}
