//! Counts the landmarks of many worlds beside Terraria's figures (`../shared/TERRARIA.md`).
//!
//!     cargo run --release --example landmarks_survey -- [SEEDS]
//!
//! For the 4200-wide presets, default (Terraria's Medium) and large, SEEDS worlds each
//! (default 20): the fewest, mean and most of each kind of landmark, the chests that
//! belong to a landmark against the bare ones, and whether every world has one dungeon and
//! an evil biome and keeps its landmarks off the spawn.

use strata::content::preset::builtin;
use strata::world::Tile;
use strata::world::structure::StructureKind;
use strata::worldgen::generate;

/// Terraria's counts by world size (small, medium, large): range and mean.
const TERRARIA: [(StructureKind, [&str; 3]); 3] = [
    (
        StructureKind::Evil,
        ["1-2, mean 1.5", "1-3, mean 2.5", "1-4, mean 3.2"],
    ),
    (
        StructureKind::Island,
        ["2-4, mean 3.4", "3-8, mean 5.8", "5-9, mean 7.4"],
    ),
    (StructureKind::Dungeon, ["1", "1", "1"]),
];

fn main() {
    let seeds: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 20,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("landmarks_survey: SEEDS is a whole number above 0");
            std::process::exit(2);
        }
    };
    for (size, name) in [(0, "plains"), (1, "default"), (2, "large")] {
        let preset = match builtin(name) {
            Some(Ok(p)) => p,
            _ => {
                eprintln!("landmarks_survey: no preset {name}");
                std::process::exit(1);
            }
        };
        let mut counts = vec![Vec::new(); StructureKind::ALL.len()];
        let (mut owned, mut bare, mut faults) = (0usize, 0usize, Vec::new());
        for seed in 1..=seeds {
            let (w, _) = generate(&preset, seed);
            for (i, k) in StructureKind::ALL.iter().enumerate() {
                counts[i].push(w.structures.iter().filter(|s| s.kind == *k).count());
            }
            for ((x, y), _) in w.chests.iter() {
                if w.structures.iter().any(|s| s.contains(x, y)) {
                    owned += 1;
                } else {
                    bare += 1;
                }
            }
            let spawn = w.width() / 2;
            let of = |k: StructureKind| w.structures.iter().filter(|s| s.kind == k).count();
            if of(StructureKind::Dungeon) != 1 || of(StructureKind::Evil) == 0 {
                faults.push(format!(
                    "seed {seed}: dungeons {}, evil {}",
                    of(StructureKind::Dungeon),
                    of(StructureKind::Evil)
                ));
            }
            if w.structures
                .iter()
                .any(|s| s.spans_columns(spawn, spawn + 1))
            {
                faults.push(format!("seed {seed}: a landmark over the spawn"));
            }
            assert!(w.tile(spawn, w.surface[spawn] as usize) != Tile::DungeonBrick);
        }
        println!(
            "{name} ({}x{}), {seeds} seeds:",
            preset.width, preset.height
        );
        for (i, k) in StructureKind::ALL.iter().enumerate() {
            let c = &counts[i];
            let (lo, hi) = (c.iter().min().unwrap_or(&0), c.iter().max().unwrap_or(&0));
            let mean = c.iter().sum::<usize>() as f64 / c.len().max(1) as f64;
            let terraria = TERRARIA
                .iter()
                .find(|(t, _)| t == k)
                .map_or("many", |(_, by)| by[size]);
            println!(
                "  {:<16} {lo}-{hi}, mean {mean:.1}   (Terraria: {terraria})",
                k.label()
            );
        }
        println!("  chests: {owned} in landmarks, {bare} bare");
        if faults.is_empty() {
            println!("  every world: one dungeon, an evil biome, nothing over the spawn");
        }
        for f in faults {
            println!("  FAULT {f}");
        }
    }
}
