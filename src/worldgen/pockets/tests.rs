//! Tests of the mini-biome passes over seeds: where each landmark goes, what it is made
//! of, and that `classic` has none of it.

use crate::content::preset::{Preset, builtin};
use crate::world::structure::StructureKind;
use crate::world::{Tile, Wall, World};
use crate::worldgen::generate;

/// The default preset at a third of its size (2100 x 900 keeps its layers and biomes).
fn third() -> Preset {
    Preset {
        width: 2100,
        height: 900,
        ..Preset::default()
    }
}

fn count(w: &World, t: Tile) -> u64 {
    w.counts()[t as usize]
}

fn kinds(w: &World, k: StructureKind) -> usize {
    w.structures.iter().filter(|s| s.kind == k).count()
}

#[test]
fn every_world_has_its_landmarks_apart_and_clear_of_the_spawn() {
    for seed in [1, 2, 3] {
        let w = generate(&third(), seed).0;
        assert!(kinds(&w, StructureKind::MushroomBiome) >= 1, "seed {seed}");
        for k in [
            StructureKind::MarbleCave,
            StructureKind::GraniteCave,
            StructureKind::SpiderCave,
        ] {
            assert!(kinds(&w, k) >= 1, "seed {seed}: no {k:?}");
        }
        assert!(
            kinds(&w, StructureKind::UnderworldHouse) + kinds(&w, StructureKind::UnderworldTower)
                >= 2,
            "seed {seed}: {:?}",
            w.structures
        );
        let centre = w.width() as i32 / 2;
        for (i, a) in w.structures.iter().enumerate() {
            assert!(
                !(a.x..a.x + a.w).contains(&centre),
                "seed {seed}: {a:?} covers the spawn"
            );
            for b in &w.structures[i + 1..] {
                assert!(!a.overlaps(b), "seed {seed}: {a:?} and {b:?}");
            }
        }
        for t in [
            Tile::Marble,
            Tile::Granite,
            Tile::MushroomGrass,
            Tile::GlowMushroom,
            Tile::Cobweb,
            Tile::Clay,
            Tile::Silt,
            Tile::ObsidianBrick,
            Tile::Amethyst,
        ] {
            assert!(count(&w, t) > 0, "seed {seed}: no {t:?}");
        }
        // Each landmark's walls are behind it, and every glowing mushroom stands on
        // mushroom grass in a mushroom biome.
        let inside = |k: StructureKind, x: usize, y: usize| {
            w.structures.iter().any(|s| s.kind == k && s.contains(x, y))
        };
        for (x, y) in w.find(Tile::GlowMushroom) {
            assert_eq!(w.tile(x, y + 1), Tile::MushroomGrass, "seed {seed} {x} {y}");
            assert!(inside(StructureKind::MushroomBiome, x, y));
            assert_eq!(w.wall(x, y), Wall::Mushroom);
        }
        for (x, y) in w.find(Tile::Marble) {
            assert!(
                inside(StructureKind::MarbleCave, x, y),
                "seed {seed} {x} {y}"
            );
        }
        for (x, y) in w.find(Tile::Cobweb) {
            assert!(
                inside(StructureKind::SpiderCave, x, y),
                "seed {seed} {x} {y}"
            );
        }
    }
}

#[test]
fn hives_lie_only_in_the_jungle_and_hold_honey_at_rest() {
    let mut hives = 0;
    for seed in [1, 2, 3, 4] {
        let w = generate(&third(), seed).0;
        let boxes: Vec<_> = w
            .structures
            .iter()
            .filter(|s| s.kind == StructureKind::Hive)
            .collect();
        hives += boxes.len();
        for (x, y) in w.find(Tile::Hive) {
            assert!(
                boxes.iter().any(|s| s.contains(x, y)),
                "seed {seed}: hive block {x} {y} outside a hive"
            );
        }
        for s in &boxes {
            // The ground just outside the hive's box, left and right: the jungle's.
            let mut jungle = 0;
            let mut seen = 0;
            for y in (s.y..s.y + s.h).step_by(3) {
                for x in [s.x - 3, s.x + s.w + 2] {
                    if let Some(t) = w.get(x as i64, y as i64).filter(|t| t.is_solid()) {
                        seen += 1;
                        jungle += crate::worldgen::hives::is_jungle(t) as i32;
                    }
                }
            }
            assert!(2 * jungle >= seen, "seed {seed}: {s:?} {jungle} of {seen}");
        }
        // Honey lies at rest: nothing open under it or beside it.
        for (x, y) in w.find(Tile::Honey) {
            for (dx, dy) in [(0i64, 1i64), (-1, 0), (1, 0)] {
                assert_ne!(
                    w.get(x as i64 + dx, y as i64 + dy),
                    Some(Tile::Air),
                    "seed {seed}: honey at {x} {y} would flow"
                );
            }
        }
        if !boxes.is_empty() {
            assert!(count(&w, Tile::Honey) > 0, "seed {seed}");
        }
    }
    assert!(hives >= 2, "{hives} hives over four seeds");
    // Without a jungle, no hive.
    let mut forest = third();
    forest.biomes.spans.clear();
    let w = generate(&forest, 1).0;
    assert_eq!(kinds(&w, StructureKind::Hive), 0);
    assert_eq!(count(&w, Tile::Hive), 0);
}

#[test]
fn rarer_gems_lie_deeper() {
    use crate::worldgen::gems::KINDS;
    let (mut sum, mut n) = ([0f64; 6], [0f64; 6]);
    for seed in [1, 2] {
        let w = generate(&third(), seed).0;
        let counts = w.counts();
        for (k, &t) in KINDS.iter().enumerate().take(5) {
            assert!(counts[t as usize] > 0, "seed {seed}: no {t:?}");
            for (_, y) in w.find(t) {
                sum[k] += y as f64;
                n[k] += 1.0;
            }
        }
    }
    let mean: Vec<f64> = (0..5).map(|k| sum[k] / n[k]).collect();
    assert!(mean.windows(2).all(|m| m[0] < m[1]), "{mean:?}");
    // The draw for each depth: the shallowest share gives no ruby, the deepest no amethyst.
    use crate::worldgen::gems::kind_at;
    for u in [0.0, 0.3, 0.7, 0.99] {
        assert_ne!(kind_at(0.05, u), Tile::Ruby);
        assert_ne!(kind_at(0.95, u), Tile::Amethyst);
    }
}

#[test]
fn classic_has_none_of_them_and_each_switch_turns_its_pass_off() {
    let classic = builtin("classic").unwrap().unwrap();
    let w = generate(&classic, 7).0;
    assert!(w.structures.is_empty());
    for t in [
        Tile::Marble,
        Tile::Hive,
        Tile::Honey,
        Tile::Cobweb,
        Tile::Clay,
        Tile::Silt,
        Tile::Amethyst,
        Tile::ObsidianBrick,
    ] {
        assert_eq!(count(&w, t), 0, "{t:?}");
    }
    // The mushroom switch alone: the other landmarks stay where they were.
    let on = third();
    let mut off = third();
    off.mushrooms.enabled = false;
    let (a, b) = (generate(&on, 5).0, generate(&off, 5).0);
    assert!(kinds(&a, StructureKind::MushroomBiome) >= 1);
    assert_eq!(kinds(&b, StructureKind::MushroomBiome), 0);
    assert_eq!(count(&b, Tile::MushroomGrass), 0);
    assert_eq!(
        kinds(&a, StructureKind::MarbleCave),
        kinds(&b, StructureKind::MarbleCave)
    );
}

#[test]
fn hellstone_lies_beside_the_underworlds_lava() {
    let mut p = third();
    let w = generate(&p, 3).0;
    p.hellstone.enabled = false;
    let without = generate(&p, 3).0;
    let more = count(&w, Tile::Hellstone) - count(&without, Tile::Hellstone);
    assert!(more > 50, "{more} hellstone more with the pass");
    // Every tile the pass turned lies within reach of lava.
    let reach = 2i64;
    for y in 0..w.height() {
        for x in 0..w.width() {
            if w.tile(x, y) == Tile::Hellstone && without.tile(x, y) != Tile::Hellstone {
                let near = (-reach..=reach).any(|dy| {
                    (-reach..=reach)
                        .any(|dx| w.get(x as i64 + dx, y as i64 + dy) == Some(Tile::Lava))
                });
                assert!(near, "{x} {y}");
            }
        }
    }
}
