//! Pass **trees**: trees on the surface, placed by a noise field of their own.
//!
//! Expects: the finished ground with its grass, the seas and lakes. Leaves: trees standing
//! on the first ground tile of some columns, built of trunk and leaves (or cactus), which
//! are decor: walked through, and only ever laid into air. The form follows the ground:
//! a broadleaf tree on grass, a taller, wider-crowned jungle tree on jungle grass, a
//! boreal cone on snow, a palm on the beach sand of the ocean columns, a cactus on desert
//! sand; other ground (stone, mud, water) grows nothing.
//!
//! Where trees stand is independent of the terrain's noise: slow 1D noise of the pass's own
//! key makes groves and clearings, scaling `density`, the chance that a column starts a
//! tree; trunks are at least `spacing` columns apart. Columns are walked left to right
//! once; the work is per column plus the trees' own tiles.

use super::biomes::BiomeMap;
use crate::base::noise::hash32;
use crate::base::rng::PassRng;
use crate::content::preset::Preset;
use crate::world::{Tile, World};
use rand::Rng;

/// The shapes trees grow in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Broadleaf,
    Jungle,
    Boreal,
    Palm,
    Cactus,
}

/// A tree as tiles relative to its foot: `(dx, up, tile)`, `up` = 0 the tile just above
/// the ground. Trunk (or cactus) tiles come first; the tree is only planted if they all
/// fall on air.
pub fn shape(form: Form, height: i32, bits: u32) -> Vec<(i32, i32, Tile)> {
    let mut tiles = vec![];
    let bit = |i: u32| (bits >> i) & 1 == 1;
    // Jitter in [0, 1) per leaf position, so crowns are not perfect ellipses.
    let jitter = |dx: i32, dy: i32| {
        (hash32(
            bits ^ (dx as u32).wrapping_mul(0x27d4_eb2d) ^ (dy as u32).wrapping_mul(0x1656_67b1),
        ) >> 8) as f64
            / (1u32 << 24) as f64
    };
    let crown = |tiles: &mut Vec<_>, cx: i32, cy: i32, rx: i32, ry: i32| {
        for dy in -ry..=ry {
            for dx in -rx..=rx {
                let (u, v) = (dx as f64 / (rx as f64 + 0.5), dy as f64 / (ry as f64 + 0.5));
                if u * u + v * v <= 1.0 - 0.3 * jitter(dx + cx, dy + cy) {
                    tiles.push((cx + dx, cy + dy, Tile::Leaves));
                }
            }
        }
    };
    match form {
        Form::Broadleaf | Form::Jungle => {
            let r = 2 + height / 6;
            let (rx, ry) = if form == Form::Jungle {
                (r + 3, r)
            } else {
                (r + 1, r)
            };
            tiles.extend((0..height).map(|k| (0, k, Tile::Trunk)));
            crown(&mut tiles, 0, height, rx, ry);
            if form == Form::Jungle || bit(3) {
                // A side bough with a small crown of its own.
                let (side, at) = (if bit(4) { 1 } else { -1 }, height * 3 / 5);
                tiles.push((side, at, Tile::Trunk));
                crown(&mut tiles, 2 * side, at + 1, 2, 1);
            }
        }
        Form::Boreal => {
            tiles.extend((0..height).map(|k| (0, k, Tile::Trunk)));
            let cone = (height * 3 / 4).max(3);
            for k in 0..cone {
                // Tiers: every third row the cone steps back in a little.
                let half = 1 + (k * 2) / 5 - (k % 3 == 2) as i32;
                for dx in -half..=half {
                    tiles.push((dx, height - k, Tile::Leaves));
                }
            }
            tiles.push((0, height + 1, Tile::Leaves));
        }
        Form::Palm => {
            let lean = if bit(2) { 1 } else { -1 };
            let bend = height * 2 / 3;
            for k in 0..height {
                let dx = if k >= bend { lean } else { 0 };
                tiles.push((dx, k, Tile::Trunk));
                if k == bend {
                    tiles.push((0, k, Tile::Trunk));
                }
            }
            let (cx, top) = (lean, height);
            for dx in -3..=3 {
                tiles.push((cx + dx, top, Tile::Leaves));
            }
            for dx in [-1, 0, 1] {
                tiles.push((cx + dx, top + 1, Tile::Leaves));
            }
            for s in [-1, 1] {
                tiles.push((cx + 4 * s, top - 1, Tile::Leaves));
                tiles.push((cx + 5 * s, top - 2, Tile::Leaves));
            }
        }
        Form::Cactus => {
            let h = 2 + height % 4;
            tiles.extend((0..h).map(|k| (0, k, Tile::Cactus)));
            for (i, side) in [(5, -1), (6, 1)] {
                if bit(i) && h >= 3 {
                    let at = 1 + (bits >> (8 + i)) as i32 % (h - 2);
                    tiles.push((side, at, Tile::Cactus));
                    tiles.push((side, at + 1, Tile::Cactus));
                }
            }
        }
    }
    tiles
}

/// Plants `tiles` (from [`shape`]) with its foot on the ground at `(x, ground)`: only if
/// every trunk tile is inside the world and on air; leaves go only where there is air.
fn plant(world: &mut World, x: usize, ground: usize, tiles: &[(i32, i32, Tile)]) -> bool {
    let width = world.width();
    let at = move |dx: i32, up: i32| {
        let (tx, ty) = (x as i64 + dx as i64, ground as i64 - 1 - up as i64);
        (tx >= 0 && ty >= 0 && (tx as usize) < width).then_some((tx as usize, ty as usize))
    };
    let stands = tiles
        .iter()
        .filter(|t| t.2 != Tile::Leaves)
        .all(|&(dx, up, _)| at(dx, up).is_some_and(|(tx, ty)| world.tile(tx, ty) == Tile::Air));
    if !stands {
        return false;
    }
    for &(dx, up, tile) in tiles {
        if let Some((tx, ty)) = at(dx, up)
            && world.tile(tx, ty) == Tile::Air
        {
            world.set(tx, ty, tile);
        }
    }
    true
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.trees;
    if p.density <= 0.0 {
        return;
    }
    let width = world.width();
    let ocean = BiomeMap::new(preset, world.seed).ocean;
    let (lo, hi) = (p.min_height as i32, p.max_height as i32);
    let mut x = 1;
    while x + 1 < width {
        let h = hash32(key ^ (x as u32).wrapping_mul(0x9E37_79B9));
        // 1D noise is in ±0.5: groves where it is high, clearings where it is low.
        let n = p.basis.noise_1d(key, (x as f64 * p.frequency) as f32) as f64;
        let grove = (0.5 + 2.2 * n).clamp(0.0, 1.0);
        let chance = (h >> 8) as f64 / (1u32 << 24) as f64;
        let ground = world.surface[x] as usize;
        let form = match world.tile(x, ground) {
            Tile::Grass => Some(Form::Broadleaf),
            Tile::JungleGrass => Some(Form::Jungle),
            Tile::Snow => Some(Form::Boreal),
            Tile::Sand if x < ocean || x + ocean >= width => Some(Form::Palm),
            Tile::Sand => Some(Form::Cactus),
            _ => None,
        };
        let planted = match form {
            Some(form) if chance < p.density * grove && ground > 0 => {
                let bits = hash32(h);
                let mut height = lo + (bits % (hi - lo + 1) as u32) as i32;
                if form == Form::Jungle {
                    height += height / 2;
                }
                plant(world, x, ground, &shape(form, height, bits))
            }
            _ => false,
        };
        x += if planted {
            p.spacing as usize + (h & 3) as usize
        } else {
            1
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::Biome;
    use crate::worldgen::generate;

    #[test]
    fn every_form_has_a_connected_trunk_under_its_crown() {
        for form in [
            Form::Broadleaf,
            Form::Jungle,
            Form::Boreal,
            Form::Palm,
            Form::Cactus,
        ] {
            for bits in [0u32, 0xffff_ffff, 0x1234_5678] {
                let tiles = shape(form, 9, bits);
                let woody: Vec<(i32, i32)> = tiles
                    .iter()
                    .filter(|t| t.2 != Tile::Leaves)
                    .map(|t| (t.0, t.1))
                    .collect();
                assert!(woody.contains(&(0, 0)), "{form:?} stands on its foot");
                // Every woody tile links to the foot through woody 4-neighbours.
                let mut seen = vec![(0, 0)];
                let mut i = 0;
                while i < seen.len() {
                    let (x, y) = seen[i];
                    for n in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                        if woody.contains(&n) && !seen.contains(&n) {
                            seen.push(n);
                        }
                    }
                    i += 1;
                }
                assert_eq!(
                    seen.len(),
                    {
                        let mut w = woody.clone();
                        w.sort();
                        w.dedup();
                        w.len()
                    },
                    "{form:?}"
                );
                let leaves = tiles.iter().filter(|t| t.2 == Tile::Leaves).count();
                assert_eq!(
                    leaves == 0,
                    form == Form::Cactus,
                    "{form:?}: {leaves} leaves"
                );
            }
        }
    }

    #[test]
    fn trees_stand_on_their_ground_in_every_biome_and_cover_the_forest() {
        let p = Preset {
            width: 2400,
            height: 700,
            ..Preset::default()
        }
        .without_landmarks();
        let (w, _) = generate(&p, 6);
        let map = BiomeMap::new(&p, 6);
        let biomes = map.surface_biomes(&w.surface);
        let counts = w.counts();
        for t in [Tile::Trunk, Tile::Leaves, Tile::Cactus] {
            assert!(counts[t as usize] > 0, "no {t:?}");
        }
        // Every trunk tile stands on ground or on more trunk, or grows from trunk beside it
        // (a bough, a palm's bend).
        let woody = |x: usize, y: usize| matches!(w.tile(x, y), Tile::Trunk | Tile::Cactus);
        for y in 0..w.height() - 1 {
            for x in 1..w.width() - 1 {
                if woody(x, y) {
                    let held = w.tile(x, y + 1).is_solid()
                        || woody(x, y + 1)
                        || woody(x - 1, y)
                        || woody(x + 1, y);
                    assert!(held, "({x}, {y}) hangs in the air");
                }
            }
        }
        // Trees shade a good share of the forest's columns.
        let forest: Vec<usize> = (0..w.width())
            .filter(|&x| biomes[x] == Biome::Forest)
            .collect();
        let wooded = forest
            .iter()
            .filter(|&&x| {
                (0..w.surface[x] as usize)
                    .any(|y| matches!(w.tile(x, y), Tile::Trunk | Tile::Leaves))
            })
            .count();
        assert!(
            wooded * 5 >= forest.len(),
            "{wooded} of {} forest columns",
            forest.len()
        );
    }
}
