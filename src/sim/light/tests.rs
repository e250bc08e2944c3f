//! Tests of light on hand-built grids (sun, falloff, sealed caves, torches) and of relighting
//! a box after edits against a fresh computation.

use super::*;
use crate::world::{Tile, Wall, World};

fn art(rows: &[&str]) -> World {
    World::from_ascii(rows).expect("valid art")
}

fn row(map: &LightMap, y: usize) -> Vec<u8> {
    (0..map.width()).map(|x| map.get(x, y)).collect()
}

#[test]
fn sky_is_full_and_falls_off_per_tile() {
    let w = art(&[
        "          ",
        "   #######",
        "   #######",
        "   #######",
        "   #######",
        "   #######",
        "          ",
        "##########",
    ]);
    let m = LightMap::compute(&w);
    assert_eq!(row(&m, 0), vec![15; 10]);
    // Open-sky columns 0..3 stay at 15 down to their first solid tile; the cave beside
    // them loses one per tile; the five-tile roof lets nothing through from above.
    assert_eq!(row(&m, 6), vec![15, 15, 15, 14, 13, 12, 11, 10, 9, 8]);
    // Solid tiles are lit too, losing 3 each.
    assert_eq!(m.get(3, 1), 12);
    assert_eq!(m.get(0, 7), 12);
    assert_eq!(m.get(8, 4), 3); // 15 -> 12 -> 9 -> 6 -> 3 down the roof
}

#[test]
fn sealed_cave_is_dark() {
    let mut rows = vec!["          "];
    rows.extend(std::iter::repeat_n("##########", 6));
    rows.extend(["###    ###", "##########"]);
    let w = art(&rows);
    let m = LightMap::compute(&w);
    for x in 3..7 {
        assert_eq!(m.get(x, 7), 0);
    }
    // Falloff in rock: 12, 9, 6, 3, 0.
    let col: Vec<u8> = (1..7).map(|y| m.get(5, y)).collect();
    assert_eq!(col, vec![12, 9, 6, 3, 0, 0]);
}

#[test]
fn torch_lights_with_falloff() {
    let mut w = World::new(40, 40, 0, crate::content::preset::Preset::default());
    for t in w.tiles_mut() {
        *t = Tile::Stone;
    }
    for y in 10..31 {
        for x in 10..31 {
            w.set(x, y, Tile::Air);
        }
    }
    w.set(20, 20, Tile::Torch);
    let m = LightMap::compute(&w);
    assert_eq!(m.get(20, 20), 14);
    for d in 0..=10 {
        assert_eq!(m.get(20 + d, 20), 14 - d as u8, "east {d}");
        assert_eq!(m.get(20, 20 - d), 14 - d as u8, "north {d}");
    }
    // (3, 4) away, 5 tiles as the crow flies: three diagonal steps and one straight.
    assert_eq!(m.get(23, 24), level(sub(14) - 3 * DIAGONAL_LOSS - AIR_LOSS));
    assert_eq!(
        m.get(23, 24),
        9,
        "five tiles off, not seven as straight steps go"
    );
    assert_eq!(m.get(31, 20), 1); // 10 tiles of air (4 left), then rock costs 3
    assert_eq!(m.get(32, 20), 0);
    assert_eq!(m.get(0, 0), 0);
}

#[test]
fn a_torch_lights_a_round_pool_not_a_diamond() {
    let mut w = World::new(40, 40, 0, crate::content::preset::Preset::default());
    w.tiles_mut().fill(Tile::Stone);
    for y in 2..38 {
        for x in 2..38 {
            w.set(x, y, Tile::Air);
        }
    }
    w.set(20, 20, Tile::Torch);
    let m = LightMap::compute(&w);
    // Every lit tile is within a level of the torch's level less its straight-line
    // distance (the octagon's steps and rounding up); a diamond (Manhattan) falloff is
    // 3 levels short at (5, 5).
    let mut worst = 0.0f32;
    for y in 6..35 {
        for x in 6..35 {
            let d = ((x as f32 - 20.0).powi(2) + (y as f32 - 20.0).powi(2)).sqrt();
            let round = (TORCH as f32 - d).max(0.0);
            worst = worst.max((m.get(x, y) as f32 - round).abs());
        }
    }
    assert!(worst <= 1.5, "off a round falloff by {worst} levels");
    assert_eq!(m.get(25, 25), level(sub(TORCH) - 5 * DIAGONAL_LOSS));
    assert!(m.get(25, 25) >= 7, "7.07 tiles off");
    // The same all around: the eight directions agree.
    for (dx, dy) in [(5, 2), (2, 5), (-5, 2), (-2, -5), (5, -2)] {
        let (x, y) = ((20 + dx) as usize, (20 + dy) as usize);
        assert_eq!(m.get(x, y), m.get(25, 22), "({dx}, {dy})");
    }
}

#[test]
fn light_does_not_leak_through_a_crack_between_corners() {
    // Two rooms that touch only at the corner between (3, 2) and (4, 3).
    let w = art(&[
        "########", "#t  ####", "#   ####", "####   #", "####   #", "########",
    ]);
    let m = LightMap::compute(&w);
    // (4, 3) is lit only through a tile of rock, not by the diagonal step from (3, 2).
    assert_eq!(m.get_sub(4, 3), m.get_sub(3, 2) - SOLID_LOSS - AIR_LOSS);
    // Open one side of the corner and the diagonal step passes.
    let mut open = w.clone();
    open.set(4, 2, Tile::Air);
    let lit = LightMap::compute(&open);
    assert_eq!(lit.get_sub(4, 3), lit.get_sub(3, 2) - DIAGONAL_LOSS);
    assert!(lit.get(4, 3) > m.get(4, 3));
}

/// A cave of 6 x 2 tiles sealed in rock, dark.
fn sealed_cave() -> World {
    art(&[
        "##########",
        "##########",
        "##      ##",
        "##      ##",
        "##########",
    ])
}

#[test]
fn lava_glows_like_a_dimmer_torch() {
    let mut w = sealed_cave();
    let mut m = LightMap::compute(&w);
    assert_eq!(m.get(4, 3), 0, "sealed");
    w.set(3, 3, Tile::Lava);
    m.update_region(&w, 3, 3, 3, 3);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(3, 3), LAVA);
    const { assert!(LAVA < TORCH) };
    assert_eq!(m.get(6, 3), LAVA - 3, "three tiles of air away");
    assert_eq!(m.get(3, 1), LAVA - 4, "a tile of air, then into the rock");
    assert_eq!(m.get(3, 0), LAVA - 7, "through two tiles of rock");
    // Hardened to obsidian, it goes dark.
    w.set(3, 3, Tile::Obsidian);
    m.update_region(&w, 3, 3, 3, 3);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(4, 3), 0);
}

#[test]
fn opening_a_hole_lets_light_in_and_matches_a_fresh_compute() {
    let mut w = art(&[
        "          ",
        "##########",
        "##########",
        "##      ##",
        "##########",
    ]);
    let mut m = LightMap::compute(&w);
    assert_eq!(m.get(4, 3), 8); // through two tiles of rock: 15 - 3 - 3 - 1
    w.set(4, 1, Tile::Air);
    w.set(4, 2, Tile::Air);
    let dirty = m.update_region(&w, 4, 1, 4, 2);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(4, 3), 15); // the column now sees the sky
    assert_eq!(m.get(7, 3), 12);
    assert!(dirty.contains(4, 3) && dirty.contains(7, 3));
    // Closing it again darkens it again.
    w.set(4, 1, Tile::Dirt);
    m.update_region(&w, 4, 1, 4, 1);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(4, 3), 10); // 15 - 3 (dirt) - 1 - 1
}

#[test]
fn deep_shaft_opened_at_the_top_is_lit_all_the_way_down() {
    let mut w = World::new(20, 120, 0, crate::content::preset::Preset::default());
    for y in 5..120 {
        for x in 0..20 {
            if !(x == 10 && y > 5 && y < 110) {
                w.set(x, y, Tile::Stone);
            }
        }
    }
    let mut m = LightMap::compute(&w);
    assert_eq!(m.get(10, 100), 0);
    w.set(10, 5, Tile::Air);
    let dirty = m.update_region(&w, 10, 5, 10, 5);
    assert_eq!(m.get(10, 100), 15);
    assert!(dirty.y1 >= 109 + 15 || dirty.y1 == 119);
    assert_eq!(m, LightMap::compute(&w));
}

#[test]
fn updates_after_random_edits_equal_a_fresh_compute() {
    let preset = crate::content::preset::Preset {
        width: 220,
        height: 140,
        ..Default::default()
    };
    let (mut w, _) = crate::worldgen::generate(&preset, 11);
    let mut m = LightMap::compute(&w);
    let mut state = 3u64;
    let mut rand = |n: usize| {
        state = crate::base::rng::mix64(state.wrapping_add(0x9E37_79B9_7F4A_7C15));
        (state % n as u64) as usize
    };
    for step in 0..150 {
        let (x, y) = (rand(w.width()), rand(w.height()));
        let tile = [
            Tile::Air,
            Tile::Air,
            Tile::Dirt,
            Tile::Stone,
            Tile::Torch,
            Tile::Lava,
            Tile::Obsidian,
            Tile::Leaves,
        ][rand(8)];
        // Sometimes a 3x2 block at once.
        let (x1, y1) = if step % 4 == 0 {
            ((x + 2).min(w.width() - 1), (y + 1).min(w.height() - 1))
        } else {
            (x, y)
        };
        for yy in y..=y1 {
            for xx in x..=x1 {
                w.set(xx, yy, tile);
            }
        }
        let dirty = m.update_region(&w, x, y, x1, y1);
        assert!(dirty.contains(x, y));
        if step % 10 == 9 {
            assert_eq!(m, LightMap::compute(&w), "after edit {step} at ({x},{y})");
        }
    }
    assert_eq!(m, LightMap::compute(&w));
}

#[test]
fn a_head_light_brighter_than_the_player_s_is_carried_at_the_head() {
    assert_eq!(players_light((10.5, 8.1), 0), ((10.5, 8.1), PLAYER));
    assert_eq!(players_light((10.5, 8.1), PLAYER), ((10.5, 8.1), PLAYER));
    let (at, strength) = players_light((10.5, 8.1), 13);
    assert_eq!(strength, 13);
    assert!(
        at.0 == 10.5 && (at.1 - 7.1).abs() < 1e-5,
        "a tile above: {at:?}"
    );
    assert_eq!(carried_light(at, strength, 10, 7), 13);
    // Nine tiles off, the player's own light is gone; a mining helmet's still lights:
    // (9, 1) from the head is √82 ≈ 9.06 tiles, so 13 − 9.06 rounded up.
    assert_eq!(player_light((10.5, 8.1), 19, 8), 0);
    assert_eq!(carried_light(at, strength, 19, 8), 4);
    assert_eq!(players_light((1.0, 1.0), 200).1, MAX_LIGHT);
}

#[test]
fn player_light_and_chunks() {
    assert_eq!(player_light((10.5, 8.1), 10, 8), PLAYER);
    // (2, 1) away: √5 ≈ 2.24 tiles, so 8 − 2.24 rounded up.
    assert_eq!(player_light((10.5, 8.1), 12, 9), PLAYER - 2);
    assert_eq!(player_light_sub((10.5, 8.1), 12, 9), 23);
    // A disc: as bright 5 tiles off straight as on the diagonal (3, 4).
    assert_eq!(
        player_light((10.5, 8.1), 15, 8),
        player_light((10.5, 8.1), 13, 12)
    );
    assert_eq!(player_light((10.5, 8.1), 30, 9), 0);
    let w = art(&["####", "####"]);
    let m = LightMap::compute(&w);
    assert_eq!(m.get_with_player(1, 1, (1.5, 1.5)), PLAYER);
    let r = Rect {
        x0: 30,
        y0: 0,
        x1: 70,
        y1: 31,
    };
    assert_eq!(r.chunks().collect::<Vec<_>>(), vec![(0, 0), (1, 0), (2, 0)]);
}

#[test]
#[ignore = "Large world: run with --release -- --ignored --nocapture"]
fn measure_large_world() {
    let preset = crate::content::preset::Preset {
        width: 8400,
        height: 2400,
        ..Default::default()
    };
    let (mut w, _) = crate::worldgen::generate(&preset, 1);
    let start = std::time::Instant::now();
    let mut m = LightMap::compute(&w);
    let full = start.elapsed();
    let (x, y) = (4200, w.surface[4200] as usize + 3);
    w.set(x, y, Tile::Air);
    let start = std::time::Instant::now();
    m.update_region(&w, x, y, x, y);
    println!(
        "light: compute {full:?}, one-tile update {:?}",
        start.elapsed()
    );
}

#[test]
fn row_scan_finds_the_same_sky_as_column_scans() {
    let preset = crate::content::preset::Preset {
        width: 300,
        height: 120,
        ..Default::default()
    };
    let (mut world, _) = crate::worldgen::generate(&preset, 4);
    world.set(7, 0, crate::world::Tile::Stone); // a column blocked in the top row
    for x in 0..20 {
        for y in 0..120 {
            world.set(200 + x, y, crate::world::Tile::Air); // open shafts to the bottom
            world.set_wall(200 + x, y, Wall::None);
        }
    }
    let rows = super::sky_rows(&world);
    let columns: Vec<u32> = (0..300).map(|x| super::first_solid(&world, x)).collect();
    assert_eq!(rows, columns);
    assert_eq!((rows[7], rows[205]), (0, 120));
    // A wall in a shaft stops the sun there, in both scans.
    world.set_wall(210, 90, Wall::Dirt);
    assert_eq!(super::sky_rows(&world)[210], 90);
    assert_eq!(super::first_solid(&world, 210), 90);
}

#[test]
fn walls_stop_sunlight_and_a_wall_edit_relights_as_a_fresh_compute() {
    // Open sky over a floor; a patch of wall 4 columns wide from row 2 down.
    let mut w = art(&[
        "            ",
        "            ",
        "            ",
        "            ",
        "            ",
        "            ",
        "############",
    ]);
    let open = LightMap::compute(&w);
    assert_eq!(open.get(5, 5), SUN, "open air under the sky is sunlit");
    for y in 2..6 {
        for x in 4..8 {
            w.set_wall(x, y, Wall::Wood);
        }
    }
    let m = LightMap::compute(&w);
    // Above the wall the sun still shines; on it, light only spreads in from the sides.
    assert_eq!(m.get(5, 1), SUN);
    assert_eq!(
        m.get(4, 2),
        SUN - 1,
        "the wall's top row is lit by the sky around it"
    );
    assert_eq!(m.get(5, 4), SUN - 2, "two tiles in from the open side");
    assert_eq!(m.get(3, 4), SUN, "beside the wall the column is open");
    assert!(m.get(5, 5) < open.get(5, 5));
    // Taking a wall down lets the sun in again, as a fresh compute has it.
    let mut m = m;
    for y in 2..6 {
        w.set_wall(5, y, Wall::None);
    }
    m.update_region(&w, 5, 2, 5, 5);
    assert_eq!(m.get(5, 5), SUN);
    assert_eq!(m, LightMap::compute(&w));
    // And putting one back in a column shades it again.
    w.set_wall(5, 3, Wall::StoneBrick);
    m.update_region(&w, 5, 3, 5, 3);
    assert_eq!(m, LightMap::compute(&w));
    assert!(m.get(5, 4) < SUN);
}

#[test]
fn glowing_mushrooms_and_hellstone_light_a_sealed_cave() {
    let mut w = sealed_cave();
    let mut m = LightMap::compute(&w);
    assert_eq!(m.get(4, 3), 0, "sealed");
    w.set(3, 3, Tile::GlowMushroom);
    m.update_region(&w, 3, 3, 3, 3);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(3, 3), MUSHROOM);
    assert_eq!(m.get(6, 3), MUSHROOM - 3, "three tiles of air away");
    // Picked, the cave goes dark; a hellstone block in its floor glows, dimmer.
    w.set(3, 3, Tile::Air);
    w.set(5, 4, Tile::Hellstone);
    m.update_region(&w, 3, 3, 5, 4);
    assert_eq!(m, LightMap::compute(&w));
    assert_eq!(m.get(5, 4), HELLSTONE);
    assert_eq!(m.get(5, 3), HELLSTONE - 1, "the air above it");
    assert!(m.get(2, 2) <= HELLSTONE - 4, "fading with the distance");
    assert_eq!(emits(Tile::GlowMushroom), MUSHROOM);
}
