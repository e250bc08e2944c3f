//! The landmarks' targets over full-size worlds (a few seeds here, where a debug build is
//! slow; `cargo run --release --example landmarks_survey` counts 20 seeds of default and
//! of large): counts within the presets' ranges (Terraria's), one dungeon and at least
//! one evil biome in every world, no landmark over the spawn, the dungeon's entrance open
//! to the surface on foot and every cabin on the cave network.

use strata::analysis::{AirGrid, analyse_air};
use strata::content::preset::{Preset, builtin};
use strata::world::structure::StructureKind;
use strata::world::{Tile, Wall, World};
use strata::worldgen::generate;

fn count(w: &World, k: StructureKind) -> u32 {
    w.structures.iter().filter(|s| s.kind == k).count() as u32
}

fn check(p: &Preset, seed: u64) {
    let (w, _) = generate(p, seed);
    let at = format!("{} seed {seed}", p.name);
    assert_eq!(count(&w, StructureKind::Dungeon), 1, "{at}");
    let evil = count(&w, StructureKind::Evil);
    assert!(
        (p.evil.min.max(1)..=p.evil.max).contains(&evil),
        "{at}: {evil} evil biomes"
    );
    let islands = count(&w, StructureKind::Island);
    assert!(
        (p.islands.min..=p.islands.max).contains(&islands),
        "{at}: {islands} islands"
    );
    let spawn = w.width() / 2;
    for s in &w.structures {
        assert!(
            !s.spans_columns(spawn - 20, spawn + 21),
            "{at}: {s:?} over the spawn"
        );
    }
    // Doors open, as a player opens them; platforms passed, as a player jumps through
    // them or drops down.
    let mut grid = AirGrid::of(&w);
    for (x, y) in [Tile::ClosedDoor, Tile::Platform]
        .into_iter()
        .flat_map(|t| w.find(t))
    {
        grid.set(x, y, true);
    }
    let report = analyse_air(&grid);
    // The dungeon: the shaft under its hall (below the ground) opens to the sky, through
    // the hall's doorways.
    let d = w
        .structures
        .iter()
        .find(|s| s.kind == StructureKind::Dungeon)
        .unwrap();
    let mut shaft = None;
    'find: for y in d.y as usize..(d.y + d.h) as usize {
        for x in d.x as usize..(d.x + d.w) as usize {
            if y > w.surface[x] as usize + 4
                && w.tile(x, y) == Tile::Air
                && w.wall(x, y) == Wall::DungeonBrick
            {
                shaft = Some((x, y));
                break 'find;
            }
        }
    }
    let (sx, sy) = shaft.expect("air under the dungeon's hall");
    let id = report.component_at(sx, sy).unwrap();
    assert!(
        report.component(id).unwrap().open,
        "{at}: the dungeon at {sx} {sy} is shut"
    );
    // Every cabin opens on a large cave.
    let cabins = count(&w, StructureKind::Cabin);
    assert!(cabins >= 1, "{at}: {cabins} cabins");
    for c in w
        .structures
        .iter()
        .filter(|s| s.kind == StructureKind::Cabin)
    {
        let (x, y) = ((c.x + c.w / 2) as usize, (c.y + c.h - 3) as usize);
        let id = report.component_at(x, y).expect("air in a cabin");
        let cave = report.component(id).unwrap();
        assert!(
            cave.area >= 2000 || cave.open,
            "{at}: cabin {c:?} opens on {} tiles",
            cave.area
        );
    }
    // Most chests belong to a landmark.
    let owned = w
        .chests
        .iter()
        .filter(|((x, y), _)| w.structures.iter().any(|s| s.contains(*x, *y)))
        .count();
    assert!(
        2 * owned > w.chests.len(),
        "{at}: {owned} of {} chests",
        w.chests.len()
    );
}

#[test]
fn default_worlds_have_their_landmarks() {
    let p = builtin("default").unwrap().unwrap();
    for seed in [1, 2, 3] {
        check(&p, seed);
    }
}

#[test]
fn large_and_small_worlds_have_their_landmarks() {
    for (name, seed) in [("large", 1), ("plains", 2), ("caverns", 3)] {
        check(&builtin(name).unwrap().unwrap(), seed);
    }
}

#[test]
fn classic_worlds_have_no_landmarks_and_no_crystals() {
    let p = Preset {
        width: 1000,
        height: 500,
        ..builtin("classic").unwrap().unwrap()
    };
    let (w, _) = generate(&p, 7);
    assert!(w.structures.is_empty());
    let counts = w.counts();
    for t in [
        Tile::LifeCrystal,
        Tile::DungeonBrick,
        Tile::Ebonstone,
        Tile::Cloud,
        Tile::Chest,
    ] {
        assert_eq!(counts[t as usize], 0, "{t:?}");
    }
}
