//! Pass **evil**: the evil biome (Terraria's corruption), `evil.min..=evil.max` of them.
//!
//! Expects: the dungeon placed (its columns are kept clear). Leaves, in each: a span of
//! about `evil.width` columns (±25%) where grass turns to corrupt grass and stone (and
//! sand, sandstone, ice) to ebonstone, from the surface down a bowl that reaches below the
//! top of the cavern layer at its middle; `evil.chasms` chasms from the surface down to
//! `evil.below_cavern` rows below the cavern layer's top, each a wandering shaft three to
//! seven tiles wide lined with ebonstone and backed by ebonstone walls, ending in a round
//! chamber with a shadow orb on its floor; `evil.demonite` veins of demonite ore in the
//! ebonstone. One [`StructureKind::Evil`] each.
//!
//! A span keeps clear of the spawn, the oceans, the dungeon and the other spans (60
//! columns between), and out of the jungle and the snow (20 columns between), as
//! Terraria's corruption never takes them; a span that finds no room in 40 tries is given up, so a small world
//! may have fewer. Drawn from the pass's own stream, in order.

use super::biomes::BiomeMap;
use super::build::{clear_of_spawn, columns_taken, draw_count, ocean_columns, put, put_wall};
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::{Biome, Preset};
use crate::world::depth::Layers;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use rand::{Rng, RngExt};

/// Columns kept between an evil span and another landmark on the surface.
const GAP: usize = 60;
/// Columns kept between an evil span and the jungle or the snow.
const BIOME_GAP: f64 = 20.0;
/// Spots tried for one span.
const TRIES: u32 = 40;
/// Radius of the chamber at a chasm's foot.
const CHAMBER: i64 = 5;

/// What the evil biome turns `t` into.
fn corrupted(t: Tile) -> Tile {
    match t {
        Tile::Grass | Tile::JungleGrass => Tile::CorruptGrass,
        Tile::Stone | Tile::Sand | Tile::Sandstone | Tile::Ice => Tile::Ebonstone,
        t => t,
    }
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.evil;
    let key = rng.next_u64();
    let count = draw_count(rng, p.min, p.max);
    let (w, h) = (world.width(), world.height());
    let layers = Layers::of(preset);
    let cavern = layers.cavern.min(h.saturating_sub(1));
    let shore = ocean_columns(preset) + 10;
    // The jungle and the snow keep their own ground: the surface columns of their spans.
    let kept: Vec<(f64, f64)> = BiomeMap::new(preset, world.seed)
        .spans
        .iter()
        .filter(|s| matches!(s.biome, Biome::Jungle | Biome::Snow))
        .map(|s| (s.start - BIOME_GAP, s.end + BIOME_GAP))
        .collect();
    let apart = |x0: usize, x1: usize| {
        kept.iter()
            .all(|&(a, b)| (x1 as f64) <= a || x0 as f64 >= b)
    };
    for n in 0..count {
        let span = ((p.width as f64) * rng.random_range(0.75..1.25)).round() as usize;
        if span + 2 * shore + 2 * GAP >= w {
            break;
        }
        let mut spot = None;
        for _ in 0..TRIES {
            let x0 = rng.random_range(shore..w - shore - span);
            let x1 = x0 + span;
            let near = (x0.saturating_sub(GAP), x1 + GAP);
            let kinds = [StructureKind::Evil, StructureKind::Dungeon];
            if clear_of_spawn(w, x0, x1)
                && apart(x0, x1)
                && !columns_taken(world, &kinds, near.0, near.1)
            {
                spot = Some((x0, x1));
                break;
            }
        }
        let Some((x0, x1)) = spot else { continue };
        let top = world.surface[x0..x1].iter().copied().min().unwrap_or(0) as usize;
        let floor = (cavern + p.below_cavern as usize).min(h - 2 - 2 * CHAMBER as usize);
        // The bowl: deepest at the middle, reaching the surface at the span's edges.
        let mid = (x0 + x1) as f64 / 2.0;
        let half = span as f64 / 2.0;
        for x in x0..x1 {
            let u = (x as f64 - mid) / half;
            let s = world.surface[x] as usize;
            let deep = (cavern + 20).saturating_sub(s) as f64;
            let bottom = s + (deep * (1.0 - u * u).max(0.0).sqrt()) as usize + 4;
            for y in s.saturating_sub(1)..bottom.min(h) {
                // Ragged sides: each row's edge wanders a few columns.
                let r = hash3(key, (y / 3) as u64, n as u64);
                let wobble = (r % 9) as f64 - 4.0;
                if (x as f64 - mid).abs() + wobble > half {
                    continue;
                }
                let t = world.tile(x, y);
                let c = corrupted(t);
                if c != t {
                    world.set(x, y, c);
                }
            }
        }
        // Chasms, spread over the span.
        let mut deepest = floor;
        for c in 0..p.chasms {
            let slot = span as f64 / p.chasms as f64;
            let cx = x0 as f64 + slot * (c as f64 + 0.5) + rng.random_range(-0.2..0.2) * slot;
            let mut cx = cx.round() as i64;
            let start = world.surface[cx.clamp(0, w as i64 - 1) as usize] as i64 - 2;
            let end = floor as i64 - rng.random_range(0..=(p.below_cavern as i64 / 2));
            let mut half_w: i64 = 2;
            for y in start..=end {
                if (y - start) % 6 == 0 {
                    half_w = (half_w + rng.random_range(-1..=1)).clamp(1, 3);
                    cx = (cx + rng.random_range(-1..=1)).clamp(x0 as i64 + 8, x1 as i64 - 8);
                }
                for x in cx - half_w - 3..=cx + half_w + 3 {
                    let inside = (x - cx).abs() <= half_w;
                    if inside {
                        put(world, x, y, Tile::Air);
                        put_wall(world, x, y, Wall::Ebonstone);
                    } else if y > start + 4
                        && (0..w as i64).contains(&x)
                        && y >= world.surface[x as usize] as i64
                    {
                        put(world, x, y, Tile::Ebonstone);
                        put_wall(world, x, y, Wall::Ebonstone);
                    }
                }
            }
            // The chamber at the foot, lined with ebonstone, the orb on its floor.
            let cy = end + CHAMBER - 1;
            for dy in -CHAMBER - 2..=CHAMBER + 2 {
                for dx in -CHAMBER - 2..=CHAMBER + 2 {
                    let d2 = dx * dx + dy * dy;
                    let (x, y) = (cx + dx, cy + dy);
                    if d2 < CHAMBER * CHAMBER {
                        put(world, x, y, Tile::Air);
                        put_wall(world, x, y, Wall::Ebonstone);
                    } else if d2 <= (CHAMBER + 2) * (CHAMBER + 2) && dy >= -1 {
                        put(world, x, y, Tile::Ebonstone);
                    }
                }
            }
            let orb_y = (cy..cy + CHAMBER + 2)
                .take_while(|&y| world.get(cx, y + 1) == Some(Tile::Air))
                .last()
                .map_or(cy, |y| y + 1);
            put(world, cx, orb_y, Tile::ShadowOrb);
            deepest = deepest.max((cy + CHAMBER + 2) as usize);
        }
        // Demonite veins: short random walks through the ebonstone below the surface. A
        // walk that met no ebonstone (caves, sand) does not count: up to eight tries a vein.
        let (mut laid, mut tries) = (0, 0);
        while laid < p.demonite && tries < p.demonite * 8 {
            tries += 1;
            let mut x = rng.random_range(x0..x1) as i64;
            let s = world.surface[x as usize] as usize;
            if s + 20 >= floor {
                continue;
            }
            // From a random depth, down to the first ebonstone of the column.
            let from = rng.random_range(s + 15..floor);
            let Some(found) = (from..floor).find(|&y| world.tile(x as usize, y) == Tile::Ebonstone)
            else {
                continue;
            };
            let mut y = found as i64;
            let mut ore = false;
            for _ in 0..rng.random_range(6..14) {
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    if world.get(x + dx, y + dy) == Some(Tile::Ebonstone) {
                        put(world, x + dx, y + dy, Tile::DemoniteOre);
                        ore = true;
                    }
                }
                x += rng.random_range(-1..=1);
                y += rng.random_range(-1..=1);
            }
            laid += u32::from(ore);
        }
        world.structures.push(Structure::spanning(
            StructureKind::Evil,
            (x0, top.saturating_sub(2)),
            (x1 - 1, deepest.min(h - 1)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn evil_biomes_keep_out_of_the_jungle_and_the_snow() {
        let p = Preset {
            width: 2400,
            height: 700,
            ..Preset::default()
        };
        let never = std::sync::atomic::AtomicBool::new(false);
        let last = crate::worldgen::pass_named("evil").unwrap();
        let content = crate::content::config::Content::builtin();
        for seed in 0..8 {
            let (w, _) =
                crate::worldgen::generate_until(&p, seed, &content, last, &mut |_| {}, &never)
                    .unwrap();
            let evil: Vec<_> = w
                .structures
                .iter()
                .filter(|s| s.kind == StructureKind::Evil)
                .collect();
            // A third of default's width: room for one at least (tests/landmarks.rs counts
            // them at full size).
            assert!(!evil.is_empty(), "seed {seed}: no evil biome");
            for s in BiomeMap::new(&p, seed).spans {
                for e in &evil {
                    let inside = (e.x as f64) < s.end && ((e.x + e.w) as f64) > s.start;
                    assert!(
                        !(inside && matches!(s.biome, Biome::Jungle | Biome::Snow)),
                        "seed {seed}: {e:?} in the {:?} at {}..{}",
                        s.biome,
                        s.start,
                        s.end
                    );
                }
            }
        }
    }

    #[test]
    fn evil_biomes_have_corrupt_grass_chasms_orbs_and_demonite() {
        let p = Preset {
            width: 2400,
            height: 800,
            ..Preset::default()
        };
        let (w, _) = generate(&p, 4);
        let evil: Vec<_> = w
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Evil)
            .copied()
            .collect();
        assert!(
            (p.evil.min as usize..=p.evil.max as usize).contains(&evil.len()),
            "{}",
            evil.len()
        );
        let cavern = Layers::of(&p).cavern as i32;
        for e in &evil {
            let count = |t: Tile| {
                (e.y..e.y + e.h)
                    .flat_map(|y| (e.x..e.x + e.w).map(move |x| (x as usize, y as usize)))
                    .filter(|&(x, y)| w.tile(x, y) == t)
                    .count()
            };
            // Its ground is corrupt: grass where there was grass, ebonstone where there was
            // sand, stone or ice (one may stand on a desert).
            let corrupt_tops = (e.x..e.x + e.w)
                .filter(|&x| {
                    let top = w.surface[x as usize] as usize;
                    (top..top + 3).any(|y| {
                        matches!(w.tile(x as usize, y), Tile::CorruptGrass | Tile::Ebonstone)
                    })
                })
                .count();
            assert!(corrupt_tops as i32 > e.w / 2, "{e:?}: {corrupt_tops}");
            assert!(count(Tile::Ebonstone) > 2000, "{e:?}");
            assert!(count(Tile::DemoniteOre) > 0, "{e:?}");
            assert_eq!(count(Tile::ShadowOrb), p.evil.chasms as usize, "{e:?}");
            assert!(e.y + e.h > cavern, "{e:?} ends above the caverns");
            assert!(clear_of_spawn(
                w.width(),
                e.x as usize,
                (e.x + e.w) as usize
            ));
        }
        // Every orb stands on ebonstone, at the foot of a chasm open to the sky above.
        for (x, y) in w.find(Tile::ShadowOrb) {
            assert_eq!(w.tile(x, y + 1), Tile::Ebonstone, "{x} {y}");
            assert!(y as i32 > cavern, "{x} {y}");
        }
        let mut off = p.clone();
        off.evil.max = 0;
        off.evil.min = 0;
        let (w, _) = generate(&off, 4);
        assert!(w.find(Tile::ShadowOrb).is_empty() && w.find(Tile::CorruptGrass).is_empty());
    }
}
