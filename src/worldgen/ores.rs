//! Pass 4, **ores**: 2D Perlin noise sampled at `(x, y) * frequency`, checked against the
//! preset's ore table in order; the first row whose threshold the noise exceeds and whose
//! minimum depth below the local surface the tile exceeds wins.
//!
//! Expects: stone. Leaves: some stone replaced by ore; nothing else touched. Noise is only
//! evaluated over runs of stone deep enough for some ore, so air and dirt cost nothing.

use super::noise::perlin_2d_row;
use crate::preset::{Ore, Preset};
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// The ore for a noise value at a depth, or `None` to keep the stone.
#[inline]
pub fn pick(table: &[Ore], noise: f32, depth: i64) -> Option<Tile> {
    table
        .iter()
        .find(|o| noise as f64 > o.threshold && depth > o.min_depth as i64)
        .map(|o| o.tile)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.ores;
    if p.table.is_empty() {
        return;
    }
    let min_depth = p.table.iter().map(|o| o.min_depth).min().unwrap_or(0) as usize;
    let first_row = world.surface.iter().copied().min().unwrap_or(0) as usize + min_depth + 1;
    let surface = world.surface.clone();
    let width = world.width();
    let freq = p.frequency as f32;
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .enumerate()
        .skip(first_row)
        .for_each_init(
            || vec![0f32; width],
            |noise, (y, row)| {
                let mut x = 0;
                while x < width {
                    if row[x] != Tile::Stone {
                        x += 1;
                        continue;
                    }
                    let end = row[x..]
                        .iter()
                        .position(|&t| t != Tile::Stone)
                        .map_or(width, |n| x + n);
                    let samples = &mut noise[x..end];
                    perlin_2d_row(key, x, y, freq, samples);
                    for (i, &n) in samples.iter().enumerate() {
                        let depth = y as i64 - surface[x + i] as i64;
                        if let Some(ore) = pick(&p.table, n, depth) {
                            row[x + i] = ore;
                        }
                    }
                    x = end;
                }
            },
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    #[test]
    fn table_is_checked_in_order_with_depths() {
        let t = crate::preset::OreParams::default().table;
        let classic = vec![
            Ore {
                tile: Tile::DiamondOre,
                threshold: 0.6,
                min_depth: 20,
            },
            Ore {
                tile: Tile::GoldOre,
                threshold: 0.35,
                min_depth: 10,
            },
            Ore {
                tile: Tile::IronOre,
                threshold: 0.15,
                min_depth: 5,
            },
        ];
        assert_eq!(pick(&classic, 0.7, 21), Some(Tile::DiamondOre));
        assert_eq!(pick(&classic, 0.7, 20), Some(Tile::GoldOre));
        assert_eq!(pick(&classic, 0.7, 10), Some(Tile::IronOre));
        assert_eq!(pick(&classic, 0.7, 5), None);
        assert_eq!(pick(&classic, 0.2, 100), Some(Tile::IronOre));
        assert_eq!(pick(&classic, 0.1, 100), None);
        assert!(!t.is_empty());
    }

    #[test]
    fn ore_only_replaces_stone_and_respects_depth() {
        let mut rows = vec!["          ".to_string(); 4];
        for y in 0..40 {
            rows.push(if y % 3 == 0 {
                "#. #.#  ##".into()
            } else {
                "##########".into()
            });
        }
        let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
        let mut preset = crate::preset::Preset::default();
        preset.ores.frequency = 0.3;
        preset.ores.table = vec![Ore {
            tile: Tile::IronOre,
            threshold: -1.0,
            min_depth: 6,
        }];
        let before = World::from_ascii(&refs).unwrap();
        let mut after = before.clone();
        apply(&mut after, &preset, &mut crate::rng::pass_rng(3, "ores"));
        let mut ores = 0;
        for y in 0..before.height() {
            for x in 0..before.width() {
                let (b, a) = (before.tile(x, y), after.tile(x, y));
                let depth = y as i64 - before.surface[x] as i64;
                if b != Tile::Stone || depth <= 6 {
                    assert_eq!(a, b, "({x},{y}) changed from {b:?}");
                } else {
                    assert_eq!(a, Tile::IronOre, "threshold -1 makes all deep stone ore");
                    ores += 1;
                }
            }
        }
        assert!(ores > 100);
    }
}
