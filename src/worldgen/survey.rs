//! A survey of a generated world's surface: which biomes it has, its seas and lakes, how
//! wooded its forest is, its relief and cliffs, and whether grass ever lies under water or
//! sand. The numbers the surface passes promise, measured from outside (the tests below at
//! a reduced size, `cargo run --release --example surface_report` at full size).

use super::biomes::BiomeMap;
use crate::content::preset::Biome;
use crate::world::{Tile, World};

/// What a world's surface holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Survey {
    /// Land biomes (not ocean) found at the surface, in the order of [`Biome`].
    pub biomes: Vec<Biome>,
    /// Is there sea water at sea level in the first and the last column?
    pub oceans: (bool, bool),
    /// Lakes: runs of land columns with water standing on their ground.
    pub lakes: usize,
    /// Share of forest columns with a trunk or leaves above the ground.
    pub wooded: f64,
    /// Largest drop from peak to valley within any 500 columns of land, in tiles.
    pub relief: u32,
    /// Share of columns whose surface differs from the next column's by 3 tiles or more.
    pub cliffs: f64,
    /// Grass or jungle grass with water or sand directly above.
    pub buried_grass: usize,
}

/// Surveys `world` (its biome map recomputed from its preset and seed).
pub fn survey(world: &World) -> Survey {
    let map = BiomeMap::new(&world.preset, world.seed);
    let surface = &world.surface;
    let width = world.width();
    let biomes_at = map.surface_biomes(surface);
    let mut biomes: Vec<Biome> = [Biome::Forest, Biome::Desert, Biome::Snow, Biome::Jungle]
        .into_iter()
        .filter(|b| biomes_at.contains(b))
        .collect();
    biomes.dedup();
    let sea = (world.preset.ocean.sea_level * world.height() as f64).round() as usize;
    let sea_at = |x: usize| sea < world.height() && world.tile(x, sea) == Tile::Water;
    let land = map.ocean..width - map.ocean;
    let wet = |x: usize| surface[x] > 0 && world.tile(x, surface[x] as usize - 1) == Tile::Water;
    let lakes = land
        .clone()
        .filter(|&x| wet(x) && (x == land.start || !wet(x - 1)))
        .count();
    let forest: Vec<usize> = land
        .clone()
        .filter(|&x| biomes_at[x] == Biome::Forest)
        .collect();
    let wooded = forest
        .iter()
        .filter(|&&x| {
            (0..surface[x] as usize).any(|y| matches!(world.tile(x, y), Tile::Trunk | Tile::Leaves))
        })
        .count();
    let land_rows = &surface[land.clone()];
    let window = 500.min(land_rows.len());
    let relief = (0..=land_rows.len() - window)
        .step_by(25)
        .map(|a| {
            let w = &land_rows[a..a + window];
            w.iter().max().unwrap_or(&0) - w.iter().min().unwrap_or(&0)
        })
        .max()
        .unwrap_or(0);
    let steps = surface
        .windows(2)
        .filter(|s| s[0].abs_diff(s[1]) >= 3)
        .count();
    let buried_grass = (1..world.height())
        .map(|y| {
            (0..width)
                .filter(|&x| {
                    matches!(world.tile(x, y), Tile::Grass | Tile::JungleGrass)
                        && matches!(world.tile(x, y - 1), Tile::Water | Tile::Sand)
                })
                .count()
        })
        .sum();
    Survey {
        biomes,
        oceans: (sea_at(0), sea_at(width - 1)),
        lakes,
        wooded: wooded as f64 / forest.len().max(1) as f64,
        relief,
        cliffs: steps as f64 / (width - 1).max(1) as f64,
        buried_grass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::Preset;
    use crate::worldgen::generate;

    /// The default preset at a third of its size keeps what the full size promises (the
    /// example `surface_report` checks the full size over ten seeds).
    #[test]
    fn default_worlds_have_biomes_seas_lakes_trees_and_no_buried_grass() {
        let p = Preset {
            width: 2400,
            height: 700,
            ..Preset::default()
        };
        for seed in [1, 2, 3] {
            let s = survey(&generate(&p, seed).0);
            assert!(s.biomes.len() >= 3, "seed {seed}: {s:?}");
            assert_eq!(s.oceans, (true, true), "seed {seed}");
            assert!(s.lakes >= 1, "seed {seed}: {s:?}");
            assert!(s.wooded >= 0.2, "seed {seed}: {s:?}");
            assert_eq!(s.buried_grass, 0, "seed {seed}");
            assert!(s.cliffs >= 0.01, "seed {seed}: {s:?}");
        }
    }

    #[test]
    fn classic_has_none_of_it() {
        let p = crate::content::preset::parse(
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/presets/classic.ron"
            )),
            "classic",
        )
        .unwrap();
        let s = survey(&generate(&p, 1).0);
        assert_eq!(s.biomes, [Biome::Forest]);
        assert_eq!((s.oceans, s.lakes, s.wooded), ((false, false), 0, 0.0));
    }
}
