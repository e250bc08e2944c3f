//! Pass **islands**: floating islands in the sky, `islands.min..=islands.max` of them.
//!
//! Expects: the surface and its landmarks laid. Leaves, for each: a lens of cloud about
//! `islands.width` columns wide (±25%), its top dirt under grass, a tree on it, hanging at
//! least `islands.clearance` rows above the highest ground under it and below the world's
//! top tenth; the first island also has a small house of wood (plank walls behind, a door,
//! a torch) holding the sky chest (`config/loot.ron`'s `sky` set). One
//! [`StructureKind::Island`] each.
//!
//! Islands keep clear of the spawn, the oceans, the dungeon and each other; an island that finds no
//! room in 40 tries is given up (a small or low world has fewer, or none). Nothing under
//! an island changes: it floats over the sky air. Drawn from the pass's own stream.

use super::build::{
    clear_of_spawn, columns_taken, draw_count, fill, ocean_columns, put, put_chest,
};
use super::trees::{Form, shape};
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::chest::LootFrom;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Tile, Wall, World};
use rand::{Rng, RngExt};

/// Spots tried for one island.
const TRIES: u32 = 40;
/// Columns between two islands.
const GAP: usize = 30;
/// The house: outside width and height (a wood shell round a plank-walled room).
const HOUSE_W: i64 = 11;
const HOUSE_H: i64 = 7;

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.islands;
    let key = rng.next_u64();
    let count = draw_count(rng, p.min, p.max);
    let (w, h) = (world.width(), world.height());
    let shore = ocean_columns(preset) + 20;
    let sky_top = (h / 10).max(12);
    let mut built = 0;
    for _ in 0..count {
        let span = ((p.width as f64) * rng.random_range(0.75..1.25)).round() as usize;
        let thick = (span / 4).clamp(5, 14);
        if span + 2 * shore >= w {
            break;
        }
        let mut spot = None;
        for _ in 0..TRIES {
            let x0 = rng.random_range(shore..w - shore - span);
            let x1 = x0 + span;
            if !clear_of_spawn(w, x0, x1)
                || columns_taken(
                    world,
                    &[StructureKind::Island],
                    x0.saturating_sub(GAP),
                    x1 + GAP,
                )
                || columns_taken(world, &[StructureKind::Dungeon], x0, x1)
            {
                continue;
            }
            let ground = world.surface[x0..x1].iter().copied().min().unwrap_or(0) as usize;
            // Room above the highest ground for the island, its house and its clearance.
            let lowest = ground.saturating_sub(p.clearance as usize + thick + 2);
            let highest = sky_top + HOUSE_H as usize + 16;
            if lowest > highest {
                spot = Some((x0, x1, rng.random_range(highest..=lowest)));
                break;
            }
        }
        let Some((x0, x1, top)) = spot else { continue };
        // The lens: grass on top, dirt below it, cloud under that, thinning to the edges.
        let mid = (x0 + x1) as f64 / 2.0;
        let half = span as f64 / 2.0;
        for x in x0..x1 {
            let u = (x as f64 + 0.5 - mid) / half;
            let r = hash3(key, x as u64, top as u64);
            let bump = (u.abs() < 0.6) as usize;
            let depth = (thick as f64 * (1.0 - u * u).max(0.0).sqrt()) as usize + (r % 2) as usize;
            if depth < 2 {
                continue;
            }
            let y0 = top - bump;
            let soil = 2 + (depth / 3).min(3);
            for (i, y) in (y0..=top + depth).enumerate() {
                let t = match i {
                    0 => Tile::Grass,
                    i if i <= soil => Tile::Dirt,
                    _ => Tile::Cloud,
                };
                put(world, x as i64, y as i64, t);
            }
        }
        // The first island's house, at its middle; a tree to one side.
        let cx = mid as i64;
        let ground = |world: &World, x: i64| {
            (0..h as i64).find(|&y| world.get(x, y).is_some_and(Tile::is_solid))
        };
        let mut tree_x = cx;
        if built == 0 {
            let floor = top as i64 - 1; // the house's floor row, on the island's top
            let (hx0, hx1) = (cx - HOUSE_W / 2, cx + HOUSE_W / 2);
            fill(
                world,
                (hx0, floor - HOUSE_H + 1),
                (hx1, floor),
                Tile::Wood,
                None,
            );
            fill(
                world,
                (hx0 + 1, floor - HOUSE_H + 2),
                (hx1 - 1, floor - 1),
                Tile::Air,
                Some(Wall::Planks),
            );
            // Under the house down to the island, so it stands on something everywhere.
            for x in hx0..=hx1 {
                if let Some(g) = ground(world, x).filter(|&g| g > floor) {
                    fill(world, (x, floor + 1), (x, g), Tile::Dirt, None);
                }
            }
            // A door in the wall facing the island's wider side, the chest and a torch.
            let door_x = hx1;
            put(world, door_x, floor - 1, Tile::ClosedDoor);
            put(world, door_x, floor - 2, Tile::ClosedDoor);
            let seed = hash3(key, cx as u64, floor as u64);
            let at = ((hx0 + 2) as usize, (floor - 1) as usize);
            put_chest(world, at.0, at.1, LootFrom::Set("sky"), seed);
            put(world, hx0 + 4, floor - 1, Tile::Table);
            put(world, cx + 1, floor - 4, Tile::Torch);
            tree_x = hx0 - 4;
        } else {
            tree_x += rng.random_range(-(span as i64) / 5..=(span as i64) / 5);
        }
        if let Some(g) = ground(world, tree_x).filter(|&g| g >= top as i64 - 1) {
            let height = rng.random_range(6..=11);
            for (dx, up, t) in shape(Form::Broadleaf, height, rng.next_u32()) {
                let (x, y) = (tree_x + dx as i64, g - 1 - up as i64);
                if world.get(x, y) == Some(Tile::Air) {
                    put(world, x, y, t);
                }
            }
        }
        let crown = top.saturating_sub(HOUSE_H as usize + 16);
        world.structures.push(Structure::spanning(
            StructureKind::Island,
            (x0, crown),
            (x1 - 1, (top + thick + 1).min(h - 1)),
        ));
        built += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn islands_float_over_clear_sky_and_one_has_a_house_with_the_sky_chest() {
        let p = Preset {
            width: 2400,
            height: 900,
            ..Preset::default()
        };
        let (w, _) = generate(&p, 6);
        let islands: Vec<_> = w
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Island)
            .copied()
            .collect();
        assert!(islands.len() >= 2, "{} islands", islands.len());
        for s in &islands {
            let (x0, x1) = (s.x as usize, (s.x + s.w) as usize);
            let clouds = (s.y..s.y + s.h)
                .flat_map(|y| (x0..x1).map(move |x| (x, y as usize)))
                .filter(|&(x, y)| w.tile(x, y) == Tile::Cloud)
                .count();
            assert!(clouds > 20, "{s:?}: {clouds} clouds");
            // Clear sky between the island's bottom and the ground.
            let bottom = (s.y + s.h) as usize;
            for x in x0..x1 {
                let ground = w.surface[x] as usize;
                assert!(
                    ground >= bottom + p.islands.clearance as usize - 1,
                    "{s:?} at {x}"
                );
                assert!(
                    (bottom..ground).all(|y| !w.tile(x, y).is_solid()),
                    "{s:?} at {x}"
                );
            }
            assert!(clear_of_spawn(w.width(), x0, x1));
        }
        let sky_chests = w
            .chests
            .iter()
            .filter(|((x, y), _)| islands.iter().any(|s| s.contains(*x, *y)))
            .count();
        assert_eq!(sky_chests, 1);
        assert!(!w.find(Tile::ClosedDoor).is_empty());
    }
}
