//! Pass **lakes**: water in valleys of the surface.
//!
//! Expects: the finished ground and the seas. Leaves: some valleys of the land filled with
//! still water above the surface; nothing else. The land between the oceans is cut into
//! stretches, `per_4200` per 4200 columns; in each, every local low point of the surface is
//! tried and the one holding the most water wins. A lake is filled from its low point
//! upwards while each row is a closed basin: every tile over the ground or water, both
//! ends against solid ground, at most `max_width` wide, at most `max_depth` rows, never
//! near the spawn point at the world's centre (which stays dry). So a lake is only laid
//! where it would stay. Work is per column of the surface, plus the lakes' own tiles.

use super::biomes::BiomeMap;
use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::{Tile, World};

/// Columns either side of the world's centre that no lake reaches (the spawn point).
const SPAWN_DRY: usize = 24;
/// A low point is the deepest surface row within this many columns either side.
const VALLEY: usize = 12;
/// Shallowest lake worth laying, in rows.
const MIN_DEPTH: usize = 2;

pub fn apply(world: &mut World, preset: &Preset, _rng: &mut PassRng) {
    let p = &preset.lakes;
    let width = world.width();
    let ocean = BiomeMap::new(preset, world.seed).ocean.min(width / 2);
    let land = width - 2 * ocean;
    let count = (p.per_4200 * land as f64 / 4200.0).round() as usize;
    if count == 0 || land < 2 * VALLEY {
        return;
    }
    let (dry_a, dry_b) = ((width / 2).saturating_sub(SPAWN_DRY), width / 2 + SPAWN_DRY);
    for i in 0..count {
        let (lo, hi) = (ocean + land * i / count, ocean + land * (i + 1) / count);
        let best = (lo.max(1)..hi.min(width - 1))
            .filter(|&x| is_low_point(&world.surface, x))
            .filter_map(|x| basin(world, x, p.max_depth as usize, p.max_width as usize))
            .filter(|l| l.rows.iter().all(|&(_, a, b)| b < dry_a || a > dry_b))
            .max_by_key(|b| b.rows.iter().map(|&(_, a, b)| b - a + 1).sum::<usize>());
        if let Some(lake) = best {
            for (y, a, b) in lake.rows {
                for x in a..=b {
                    world.set(x, y, Tile::Water);
                }
            }
        }
    }
}

/// Is column `x` the deepest surface row (largest row number) within [`VALLEY`] columns,
/// and the first column of its flat bottom?
fn is_low_point(surface: &[u32], x: usize) -> bool {
    let s = surface[x];
    let (a, b) = (
        x.saturating_sub(VALLEY),
        (x + VALLEY + 1).min(surface.len()),
    );
    surface[a..b].iter().all(|&t| t <= s) && (x == 0 || surface[x - 1] < s)
}

/// A lake: its rows of water `(y, first column, last column)`, bottom row first.
#[derive(Debug)]
struct Basin {
    rows: Vec<(usize, usize, usize)>,
}

/// The water a valley at column `x` holds: rows filled from just above its lowest ground
/// upwards while each is a closed basin row. `None` if under [`MIN_DEPTH`] rows.
fn basin(world: &World, x: usize, max_depth: usize, max_width: usize) -> Option<Basin> {
    let surface = &world.surface;
    let width = world.width();
    let bottom = surface[x] as usize;
    let (mut a, mut b) = (x, x);
    let mut rows = vec![];
    for y in (bottom.saturating_sub(max_depth)..bottom).rev() {
        // Grow the row to every column whose ground is below it.
        while a > 0 && surface[a - 1] as usize > y {
            a -= 1;
        }
        while b + 1 < width && surface[b + 1] as usize > y {
            b += 1;
        }
        let walled = a > 0
            && b + 1 < width
            && world.tile(a - 1, y).is_solid()
            && world.tile(b + 1, y).is_solid();
        let open = (a..=b).all(|xx| world.tile(xx, y) == Tile::Air);
        // Every tile rests on solid ground or on the row of water below.
        let below = rows.last().map_or((1, 0), |&(_, pa, pb)| (pa, pb));
        let floored = (a..=b).all(|xx| {
            let s = surface[xx] as usize;
            if s == y + 1 {
                world.tile(xx, s).is_solid()
            } else {
                (below.0..=below.1).contains(&xx)
            }
        });
        if !(walled && open && floored) || b - a + 1 > max_width {
            break;
        }
        rows.push((y, a, b));
    }
    (rows.len() >= MIN_DEPTH).then_some(Basin { rows })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn a_valley_fills_up_to_below_its_lower_rim() {
        // A valley whose left rim is lower than its right: water up to the left rim's top
        // row, not over it.
        let mut w = World::from_ascii(&[
            "          ",
            "        ..",
            "...     ..",
            "....   ...",
            "..... ....",
            "..........",
        ])
        .unwrap();
        let b = basin(&w, 5, 10, 40).unwrap();
        for (y, a, b) in b.rows {
            for x in a..=b {
                w.set(x, y, Tile::Water);
            }
        }
        let rows: Vec<String> = (0..w.height())
            .map(|y| (0..w.width()).map(|x| w.tile(x, y).ascii()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                "          ",
                "        ..",
                "...~~~~~..",
                "....~~~...",
                ".....~....",
                "..........",
            ]
        );
        // A leaky floor (a hole under the valley) holds nothing.
        let mut leaky = World::from_ascii(&["..   ..", "..   ..", ".......", "......."]).unwrap();
        leaky.set(3, 2, Tile::Air);
        assert!(basin(&leaky, 3, 10, 40).is_none());
        // Too wide for the limit.
        let w = World::from_ascii(&[".      .", "........"]).unwrap();
        assert!(basin(&w, 1, 10, 3).is_none());
    }

    #[test]
    fn default_worlds_have_lakes_that_rest_and_a_dry_spawn() {
        let p = Preset {
            width: 2400,
            height: 700,
            ..Preset::default()
        }
        .without_landmarks();
        let mut lakes_seen = 0;
        for seed in 1..=4 {
            let (w, _) = generate(&p, seed);
            let ocean = BiomeMap::new(&p, seed).ocean;
            let mut lake_tiles = 0;
            for x in ocean..w.width() - ocean {
                for y in 0..w.surface[x] as usize {
                    if w.tile(x, y) != Tile::Water {
                        continue;
                    }
                    lake_tiles += 1;
                    let holds = |t: Tile| t.is_solid() || t == Tile::Water;
                    assert!(
                        holds(w.tile(x, y + 1))
                            && holds(w.tile(x - 1, y))
                            && holds(w.tile(x + 1, y)),
                        "seed {seed}: lake water at ({x}, {y}) would run"
                    );
                }
            }
            lakes_seen += (lake_tiles > 0) as usize;
            let mid = w.width() / 2;
            assert!((0..w.surface[mid] as usize).all(|y| w.tile(mid, y) != Tile::Water));
        }
        assert!(lakes_seen >= 3, "lakes in {lakes_seen} of 4 worlds");
    }
}
