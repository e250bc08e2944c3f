//! What the surface passes make, at full size over ten seeds: biomes, seas, lakes, how
//! wooded the forest is, relief, cliffs and grass under water or sand, one line a seed.
//!
//!     cargo run --release --example surface_report [-- PRESET [SEEDS]]
//!
//! PRESET is a preset file (default `config/presets/default.ron`), SEEDS how many seeds
//! from 1 (default 10). Exits 1 if a world misses what `default.ron` promises: at least
//! three biomes, both oceans, a lake, trees on a fifth of the forest, no buried grass.

use std::path::Path;
use strata::content::preset;
use strata::worldgen::{generate, survey::survey};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .map_or("config/presets/default.ron", |s| s.as_str());
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let p = match preset::load(Path::new(path)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("surface_report: {e}");
            std::process::exit(2);
        }
    };
    println!("{} at {}x{}", p.name, p.width, p.height);
    println!("seed  biomes                          oceans  lakes  wooded  relief  cliffs  buried");
    let mut ok = true;
    for seed in 1..=seeds {
        let s = survey(&generate(&p, seed).0);
        let names: Vec<&str> = s.biomes.iter().map(|b| b.label()).collect();
        println!(
            "{seed:4}  {:30}  {:6}  {:5}  {:5.0}%  {:6}  {:5.1}%  {:6}",
            names.join(", "),
            match s.oceans {
                (true, true) => "both",
                (true, false) | (false, true) => "one",
                _ => "none",
            },
            s.lakes,
            100.0 * s.wooded,
            s.relief,
            100.0 * s.cliffs,
            s.buried_grass
        );
        ok &= s.biomes.len() >= 3
            && s.oceans == (true, true)
            && s.lakes >= 1
            && s.wooded >= 0.2
            && s.buried_grass == 0;
    }
    if !ok {
        println!("some world misses what default.ron promises");
        std::process::exit(1);
    }
}
