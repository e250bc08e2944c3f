//! Pass-by-pass timings at 8400x2400, in process, as `strata gen --stats` reports them
//! but repeated: each pass runs `REPS` times on a copy of the world the earlier passes
//! left, and the fastest and median times are printed, for the classic parameters and the
//! default settings. No dependence on anything newer than the pass table, so the same
//! file measures older commits too.
//!
//! Run: `cargo bench --bench passes` (optionally `-- REPS`).

use std::time::Instant;
use strata::analysis::analyse;
use strata::base::rng::pass_rng;
use strata::content::preset::Preset;
use strata::world::World;
use strata::worldgen::PASSES;

fn summary(mut ms: Vec<f64>) -> String {
    ms.sort_by(|a, b| a.total_cmp(b));
    format!(
        "fastest {:7.2} ms  median {:7.2} ms",
        ms[0],
        ms[ms.len() / 2]
    )
}

fn run(name: &str, preset: &Preset, reps: usize) {
    println!("{name} at {}x{}:", preset.width, preset.height);
    let mut world = World::new(
        preset.width as usize,
        preset.height as usize,
        1,
        preset.clone(),
    );
    for pass in PASSES {
        let mut times = Vec::with_capacity(reps);
        let mut after = world.clone();
        for _ in 0..reps {
            let mut w = world.clone();
            let start = Instant::now();
            (pass.run)(&mut w, preset, &mut pass_rng(1, pass.name));
            times.push(start.elapsed().as_secs_f64() * 1e3);
            after = w;
        }
        println!("  {:12} {}", pass.name, summary(times));
        world = after;
    }
    let times = (0..reps)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(analyse(&world));
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    println!("  {:12} {}", "connectivity", summary(times));
}

fn main() {
    let reps = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(11);
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/config/presets/classic.ron"
    ));
    let classic = strata::content::preset::parse(text, "classic").expect("classic preset parses");
    run(
        "classic",
        &Preset {
            width: 8400,
            height: 2400,
            ..classic
        },
        reps,
    );
    run(
        "default settings",
        &Preset {
            width: 8400,
            height: 2400,
            ..Preset::default()
        },
        reps,
    );
}
