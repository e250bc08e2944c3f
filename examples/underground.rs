//! Reports the underground's figures over 10 seeds at full size: cave air as a share of the
//! ground, the largest cave's share of all cave air, cave mouths per 1000 columns, how deep
//! a walk from the surface reaches, and ore per layer. The targets a shipped preset meets:
//! cave air 25-40% of the ground; the largest cave >= 80% of cave air (median) and >= 60%
//! (every seed); >= 2 mouths per 1000 columns (median); a walk to >= 30% of the depth below
//! the surface in every world; ore <= 5% of rock, the cavern layer's at least twice the
//! underground's.
//!
//! Run: `cargo run --release --example underground [PRESET ...]` (default.ron and large.ron
//! when none is given).

use strata::analysis::underground::survey;
use strata::content::preset::load;
use strata::worldgen::generate;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths = vec![
            "config/presets/default.ron".into(),
            "config/presets/large.ron".into(),
        ];
    }
    for path in paths {
        let preset = match load(std::path::Path::new(&path)) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        println!("{path} ({}x{}):", preset.width, preset.height);
        println!(
            "  seed  cave%  largest%  mouths/1000  walk%   ore%rock: surface underground cavern underworld"
        );
        let (mut cave, mut largest, mut mouths, mut walk) = (vec![], vec![], vec![], vec![]);
        let mut ok = true;
        for seed in 1..=10u64 {
            let (world, _) = generate(&preset, seed);
            let s = survey(&world);
            let ore: Vec<String> = (0..4)
                .map(|l| {
                    format!(
                        "{:5.2}",
                        100.0 * s.layer_ore[l] as f64 / s.layer_rock[l].max(1) as f64
                    )
                })
                .collect();
            println!(
                "  {seed:4}  {:5.1}  {:8.1}  {:11.2}  {:5.1}   {}",
                100.0 * s.cave_share(),
                100.0 * s.largest_share(),
                s.mouths_per_1000(world.width()),
                100.0 * s.walk_depth,
                ore.join("   ")
            );
            ok &= (0.25..=0.40).contains(&s.cave_share())
                && s.largest_share() >= 0.6
                && s.walk_depth >= 0.3;
            cave.push(s.cave_share());
            largest.push(s.largest_share());
            mouths.push(s.mouths_per_1000(world.width()));
            walk.push(s.walk_depth);
        }
        let (ml, mm) = (median(largest.clone()), median(mouths.clone()));
        ok &= ml >= 0.8 && mm >= 2.0;
        println!(
            "  median: cave {:.1}%  largest {:.1}% (worst {:.1}%)  mouths {:.2}/1000  walk {:.1}% (worst {:.1}%)  targets {}",
            100.0 * median(cave),
            100.0 * ml,
            100.0 * largest.iter().copied().fold(1.0, f64::min),
            mm,
            100.0 * median(walk.clone()),
            100.0 * walk.iter().copied().fold(1.0, f64::min),
            if ok { "met" } else { "NOT met" }
        );
    }
}
