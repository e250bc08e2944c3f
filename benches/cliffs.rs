//! The heaviest presets the ranges allow, generated whole at the default size (6400x1800)
//! beside the default preset: every count and length of the tunnels at its largest (at
//! radius 0, a disc every step, and at the largest radius), the most ore rows at
//! threshold -1 at the highest ore frequency, the most cave steps on single tiles, and
//! all of these at once. Each preset's fastest and median `generate` and its median as a
//! multiple of the default's are printed, with the slowest pass.
//!
//! Run: `cargo bench --bench cliffs` (optionally `-- REPS`, default 5).

use std::time::Instant;
use strata::base::depth::Layer;
use strata::content::preset::fields::field;
use strata::content::preset::{MAX_ORES, Ore, Preset, Veins};
use strata::world::Tile;
use strata::worldgen::generate;

fn max(path: &str) -> f64 {
    field(path).expect("a preset field").max
}

fn tunnels(mut p: Preset, radius: f64) -> Preset {
    p.tunnels.worms = max("tunnels.worms");
    p.tunnels.length = max("tunnels.length") as u32;
    p.tunnels.mouths = max("tunnels.mouths");
    p.tunnels.radius_top = radius;
    p.tunnels.radius_deep = radius;
    p.tunnels.mouth_radius = if radius > 0.0 {
        max("tunnels.mouth_radius")
    } else {
        field("tunnels.mouth_radius").unwrap().min
    };
    p
}

fn ores(mut p: Preset) -> Preset {
    p.ores.frequency = max("ores.frequency");
    p.ores.veins = Veins::Separate;
    p.ores.table = (0..MAX_ORES)
        .map(|_| Ore {
            from: Layer::Surface,
            to: Layer::Underworld,
            ..Ore::everywhere(Tile::IronOre, -1.0, 4)
        })
        .collect();
    p
}

fn caves(mut p: Preset) -> Preset {
    p.caves.iterations = max("caves.iterations") as u32;
    p.caves.smoothing = max("caves.smoothing") as u32;
    p.caves.scale = 1;
    p
}

fn main() {
    let reps = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    let default = Preset::default();
    let presets = [
        ("default", default.clone()),
        (
            "tunnels at their bounds, radius 0",
            tunnels(default.clone(), 0.0),
        ),
        (
            "tunnels at their bounds, radius 16",
            tunnels(default.clone(), 16.0),
        ),
        ("ores at their bounds", ores(default.clone())),
        ("caves at their bounds", caves(default.clone())),
        (
            "all of these, radius 0",
            caves(ores(tunnels(default.clone(), 0.0))),
        ),
        (
            "all of these, radius 16",
            caves(ores(tunnels(default.clone(), 16.0))),
        ),
    ];
    println!("{}x{}, {reps} runs each:", default.width, default.height);
    let mut base = None;
    for (name, preset) in presets {
        assert!(preset.validate().is_ok(), "{name}: {:?}", preset.validate());
        let mut ms = Vec::with_capacity(reps);
        let mut slowest = (String::new(), 0.0);
        for seed in 0..reps {
            let start = Instant::now();
            let (_, passes) = generate(&preset, 1 + seed as u64);
            ms.push(start.elapsed().as_secs_f64() * 1e3);
            for p in passes {
                if p.ms > slowest.1 {
                    slowest = (p.name.to_string(), p.ms);
                }
            }
        }
        ms.sort_by(|a, b| a.total_cmp(b));
        let median = ms[ms.len() / 2];
        let base = *base.get_or_insert(median);
        println!(
            "  {name:36} fastest {:8.1} ms  median {median:8.1} ms  {:5.1}x default  (slowest pass {} {:.1} ms)",
            ms[0],
            median / base,
            slowest.0,
            slowest.1
        );
    }
}
