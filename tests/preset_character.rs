//! The shipped presets must differ in the way their comments promise, and the cave fill
//! variation must actually make regions.

use std::path::Path;
use strata::content::preset::{self, Preset};
use strata::{Tile, generate};

fn load(name: &str) -> Preset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config/presets")
        .join(format!("{name}.ron"));
    preset::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn sized(p: Preset) -> Preset {
    Preset {
        width: 1600,
        height: 500,
        ..p
    }
}

/// Mean absolute change of the surface from one column to the next, and its full spread,
/// over the land between the oceans (the middle 70% of the width).
fn roughness(p: &Preset) -> (f64, u32) {
    let (w, _) = generate(p, 11);
    let land = &w.surface[w.width() * 15 / 100..w.width() * 85 / 100];
    let steps: u32 = land.windows(2).map(|s| s[0].abs_diff(s[1])).sum();
    let spread = land.iter().max().unwrap() - land.iter().min().unwrap();
    (steps as f64 / (land.len() - 1) as f64, spread)
}

#[test]
fn highlands_are_rugged_and_plains_are_flat() {
    let (rough_high, spread_high) = roughness(&sized(load("highlands")));
    let (rough_plain, spread_plain) = roughness(&sized(load("plains")));
    let (_, spread_default) = roughness(&sized(load("default")));
    assert!(
        spread_high > 2 * spread_default,
        "{spread_high} vs {spread_default}"
    );
    assert!(
        spread_plain * 3 < spread_default,
        "{spread_plain} vs {spread_default}"
    );
    assert!(
        rough_high > 3.0 * rough_plain,
        "{rough_high} vs {rough_plain}"
    );
}

#[test]
fn caverns_are_more_open_and_connected_than_default() {
    let share = |p: &Preset| {
        // Ground air (at or below each column's surface row), so caves with mouths count.
        let (w, _) = generate(p, 4);
        let s = strata::analysis::underground::survey(&w);
        (s.largest_share(), s.cave_share())
    };
    let (largest_caverns, air_caverns) = share(&sized(load("caverns")));
    let (largest_default, air_default) = share(&sized(load("default")));
    assert!(air_caverns > air_default, "{air_caverns} vs {air_default}");
    assert!(
        largest_caverns > largest_default,
        "{largest_caverns} vs {largest_default}"
    );
}

#[test]
fn plains_grass_only_under_sky_and_caverns_grass_on_cave_floors() {
    let grass_below_surface = |p: &Preset| {
        let (w, _) = generate(p, 5);
        (0..w.height())
            .flat_map(|y| (0..w.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                matches!(w.tile(x, y), Tile::Grass | Tile::JungleGrass)
                    && y as u32 > w.surface[x] + 3
            })
            .count()
    };
    // Plains: grass only where the whole column above is open (cave mouths open to the
    // sky included) or a tree.
    let (w, _) = generate(&sized(load("plains")), 5);
    for y in 0..w.height() {
        for x in 0..w.width() {
            if w.tile(x, y) == Tile::Grass {
                // (A tree may stand on it: trees grow after the grass; and a landmark may
                // be built over it, a floating island above all.)
                assert!(
                    (0..y).all(
                        |a| matches!(w.tile(x, a), Tile::Air | Tile::Trunk | Tile::Leaves)
                            || w.structures.iter().any(|s| s.contains(x, a))
                    ),
                    "grass under cover at ({x}, {y})"
                );
            }
        }
    }
    // Caverns' caves reach into its thin dirt band in a few dozen places at this size
    // (about 90 tiles of cave-floor grass with seed 5; plains has none at all).
    assert!(grass_below_surface(&sized(load("caverns"))) > 40);
}

#[test]
fn fill_variation_makes_regions() {
    // Spread of the air share between 100x100 blocks, with and without variation.
    let spread = |variation: f64| {
        // Without the landmarks and mini-biomes, whose halls and chasms are open air of
        // their own.
        let mut p = sized(load("default")).without_landmarks();
        (p.marble.enabled, p.granite.enabled, p.mushrooms.enabled) = (false, false, false);
        (p.hives.enabled, p.spiders.enabled, p.ruins.enabled) = (false, false, false);
        p.caves.fill_variation = variation;
        // The automaton alone: the same fill at every depth, every pocket kept, no tunnels.
        (p.caves.shallow, p.caves.deepening, p.caves.min_cavern) = (0.0, 0.0, 0);
        (p.tunnels.worms, p.tunnels.mouths) = (0.0, 0.0);
        // Nor the cave style's regions or the biomes' own caves.
        (p.caves.style_open, p.caves.style_dense, p.caves.biome_caves) = (0.0, 0.0, 0.0);
        p.caves.style_passages = p.caves.iterations;
        let (w, _) = generate(&p, 8);
        let mut shares = vec![];
        for by in 3..5 {
            for bx in 0..16 {
                let open = (by * 100..by * 100 + 100)
                    .flat_map(|y| (bx * 100..bx * 100 + 100).map(move |x| (x, y)))
                    .filter(|&(x, y)| w.tile(x, y).is_open())
                    .count();
                shares.push(open as f64 / 1e4);
            }
        }
        let mean = shares.iter().sum::<f64>() / shares.len() as f64;
        (shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / shares.len() as f64).sqrt()
    };
    let (flat, varied) = (spread(0.0), spread(0.12));
    assert!(varied > 2.0 * flat, "variation {varied} vs none {flat}");
}
